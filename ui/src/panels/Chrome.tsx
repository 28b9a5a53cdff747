// The frame around the canvas: tabs and toolbar, problems panel, status bar, help overlay,
// messages.
import { memo, useMemo, useState } from "react";
import type { Diagnostic, DocumentView, Notice } from "../bindings";
import {
  autoLayout,
  cancelLayout,
  edit,
  newDocument,
  openDocument,
  redo,
  resolveConflict,
  revealElement,
  runAction,
  save,
  toggleHelp,
  undo,
} from "../actions";
import { SHORTCUTS } from "../shortcuts";
import { traceMark } from "../perf/editTrace";
import { ui, useUi } from "../store";
import { count, problemCounts, problemSummary } from "../lib/counts";
import { StatusNotices } from "./StatusNotices";
import { useTextPane } from "../textPane/textPaneState";
import { Tabs } from "./Tabs";
import { DescribeAllButton, FixButtons } from "./FixButtons";

/** One shared empty list: a zustand selector must not return a new array on each call. */
const NONE: Diagnostic[] = [];

export function Toolbar({ view }: { view: DocumentView | null }) {
  traceMark("render:toolbar");
  const busy = useUi((s) => s.layoutBusy);
  const progress = useUi((s) => s.layoutProgress);
  return (
    <header className="toolbar" data-testid="toolbar">
      <div className="brand">Trellis</div>
      <Tabs />
      <div className="tools">
        <button onClick={() => void newDocument(false)} data-testid="btn-new" title="New (Ctrl+N)">
          New
        </button>
        <button onClick={() => void openDocument()} data-testid="btn-open" title="Open (Ctrl+O)">
          Open
        </button>
        <button onClick={() => void save(false)} data-testid="btn-save" disabled={!view} title="Save (Ctrl+S)">
          Save
        </button>
        {/* Export (also in File > Export as …): the choice resets, so the same one can be picked again. */}
        <select
          data-testid="export-select"
          disabled={!view}
          value=""
          title="Export a copy in another format"
          aria-label="Export a copy"
          onChange={(e) => {
            if (e.target.value) void runAction(`export-${e.target.value}`);
          }}
        >
          <option value="">Export…</option>
          <option value="graphspec">as GraphSpec</option>
          <option value="weaveflow">as Weaveflow</option>
          <option value="graphmd">as GRAPH.md</option>
          <option value="image">as an image (SVG, PNG)</option>
        </select>
        <span className="sep" />
        <button onClick={() => void undo()} data-testid="btn-undo" disabled={!view?.canUndo} title="Undo (Ctrl+Z)">
          ↶
        </button>
        <button onClick={() => void redo()} data-testid="btn-redo" disabled={!view?.canRedo} title="Redo (Ctrl+Shift+Z)">
          ↷
        </button>
        <span className="sep" />
        {busy ? (
          <button
            onClick={cancelLayout}
            data-testid="btn-layout-cancel"
            title="Stop the automatic layout (nothing is moved)"
          >{`Laying out… ${Math.round(progress * 100)}% (cancel)`}</button>
        ) : (
          <button onClick={() => void autoLayout()} data-testid="btn-layout" disabled={!view} title="Automatic layout (Ctrl+Shift+L)">
            Auto layout
          </button>
        )}
        <button onClick={() => toggleHelp()} data-testid="btn-help" title="Shortcuts (?)">
          ?
        </button>
      </div>
    </header>
  );
}

/** The findings the problems panel lists and the status bar counts: the document's, after
 * what an answer added for the moment (an import's losses, until the first edit). */
export function allDiagnostics(diagnostics: Diagnostic[], extra: Diagnostic[]): Diagnostic[] {
  return extra.length ? [...extra, ...diagnostics] : diagnostics;
}

/** Rows drawn at first (and added per "show more"): a large graph's thousands of findings
 * would otherwise cost every edit a re-render of all of them. */
const PROBLEM_ROWS = 200;
const RANK = { error: 0, warning: 1, info: 2 } as const;

export function ProblemsPanel({ view }: { view: DocumentView }) {
  traceMark("render:problems");
  const extra = useUi((s) => s.extraDiagnostics[view.id] ?? NONE);
  const open = useUi((s) => s.problemsOpen);
  const [shown, setShown] = useState(PROBLEM_ROWS);
  const all = useMemo(() => allDiagnostics(view.diagnostics, extra), [view.diagnostics, extra]);
  const tally = useMemo(() => problemCounts(all), [all]);
  // Stable sort: errors first, each severity in the validator's order.
  const sorted = useMemo(() => [...all].sort((a, b) => RANK[a.severity] - RANK[b.severity]), [all]);
  if (!open) return null;
  const rows = sorted.length > shown ? sorted.slice(0, shown) : sorted;
  return (
    <section className="problems" data-testid="problems-panel">
      <div className="panel-head">
        Problems{" "}
        <span className="muted" data-testid="problems-summary" data-errors={tally.errors} data-warnings={tally.warnings}>
          ({problemSummary(tally)})
        </span>
        <DescribeAllButton diagnostics={all} docId={view.id} />
        <button className="link" onClick={() => ui.set({ problemsOpen: false })} aria-label="close problems">
          ×
        </button>
      </div>
      <ul>
        {sorted.length === 0 && <li className="muted">No problems.</li>}
        {rows.map((d) => (
          <ProblemRow key={rowKey(d)} d={d} docId={view.id} />
        ))}
        {rows.length < sorted.length && (
          <li className="muted">
            {sorted.length - rows.length} more.{" "}
            <button type="button" className="link" data-testid="problems-more" onClick={() => setShown((k) => k + PROBLEM_ROWS * 5)}>
              Show more
            </button>
          </li>
        )}
      </ul>
    </section>
  );
}

/** A key that follows the finding, not its place: an edit that adds or removes one above
 * leaves the other rows as they were (the memoised rows are not rendered again). */
const rowKeys = new WeakMap<Diagnostic, string>();
let nextRowKey = 0;
function rowKey(d: Diagnostic): string {
  let k = rowKeys.get(d);
  if (k === undefined) rowKeys.set(d, (k = String(nextRowKey++)));
  return k;
}

/** One finding. Rust's answers share unchanged findings (`applyDelta`), so a row whose
 * finding is the same object is not rendered again after an edit. */
const ProblemRow = memo(function ProblemRow({ d, docId }: { d: Diagnostic; docId: string }) {
  // Where the text pane shows it, while the pane is open: the same place.
  const inText = useTextPane((s) => (s.open && s.docId === docId && s.tick >= 0 ? s.locate?.(d) : undefined));
  return (
    <li
      className={`problem ${d.severity}`}
      data-testid="problem"
      data-code={d.code}
      data-severity={d.severity}
      data-pointer={d.pointer}
      onClick={() => revealElement(d.element)}
      title={d.pointer ? `at ${d.pointer}` : undefined}
    >
      <span className={`sev ${d.severity}`}>{d.severity === "error" ? "✖" : d.severity === "warning" ? "▲" : "ℹ"}</span>
      <span className="msg">{d.message}</span>
      <code className="code">{d.code}</code>
      {inText ? (
        <span className="muted" data-testid="problem-text-place" title="where the text pane shows it">
          {inText}
        </span>
      ) : d.span ? (
        <span className="muted">
          {d.span.line}:{d.span.column}
        </span>
      ) : d.pointer ? (
        <code className="muted ptr">{d.pointer}</code>
      ) : null}
      <FixButtons diagnostic={d} docId={docId} />
    </li>
  );
});

export function StatusBar({ view }: { view: DocumentView | null }) {
  traceMark("render:status");
  const extra = useUi((s) => (view ? (s.extraDiagnostics[view.id] ?? NONE) : NONE));
  const mode = useUi((s) => s.renderMode);
  const zoom = useUi((s) => s.zoom);
  const sel = useUi((s) => s.selection);
  const diagnostics = view?.diagnostics ?? NONE;
  const { errors, warnings } = useMemo(() => problemCounts(allDiagnostics(diagnostics, extra)), [diagnostics, extra]);
  if (!view)
    return (
      <footer className="status" data-testid="status-bar">
        No document open.
      </footer>
    );
  return (
    <footer className="status" data-testid="status-bar">
      <button
        className={`status-problems${errors ? " has-errors" : ""}`}
        data-testid="status-problems"
        title={`${problemSummary(problemCounts(allDiagnostics(diagnostics, extra)))}: show or hide the problems panel`}
        onClick={() => ui.set((s) => ({ problemsOpen: !s.problemsOpen }))}
      >
        ✖{" "}
        <span data-testid="problem-count" data-errors={errors} data-warnings={warnings}>
          {errors}
        </span>{" "}
        ▲ <span data-testid="status-warnings">{warnings}</span>
      </button>
      <span data-testid="status-size">
        {count(view.spec.nodes.length, "node")} · {count(view.spec.edges.length, "edge")}
      </span>
      {sel.nodes.length + sel.edges.length > 0 && <span>{(sel.nodes.length + sel.edges.length).toLocaleString("en-US")} selected</span>}
      <span className="grow" />
      <StatusNotices key={view.id} notices={view.notices} action={(n) => noticeAction(n, view)} />
      <span data-testid="status-mode" title="how the canvas is drawn">
        {mode === "canvas" ? "overview" : "detail"} · {Math.round(zoom * 100)}%
      </span>
      <span data-testid="status-dirty" data-saved={String(!view.dirty && !!view.path)}>
        {savedState(view)}
      </span>
    </footer>
  );
}

/** What a notice offers: a hand-formatted file, still as read, can be reformatted now as a step
 * of its own (so the reformatting is saved, and committed, apart from the edits). */
function noticeAction(n: Notice, view: DocumentView) {
  if (n.code !== "doc/hand-formatted" || view.dirty) return null;
  return (
    <button
      type="button"
      className="link notice-action"
      data-testid="reformat-now"
      title="Make the reformatting an undo step of its own: save it, commit it, then edit"
      onClick={() => void edit({ op: "reformat" })}
    >
      Reformat now
    </button>
  );
}

/** Whether the document is in its file: a document with no file was never saved, whatever its
 * history says. */
export function savedState(view: Pick<DocumentView, "dirty" | "path">): string {
  if (!view.path) return "not saved yet";
  return view.dirty ? "unsaved changes" : "saved";
}

/** Shown while the file changed on disk and the document has unsaved changes. */
export function ConflictBar({ view }: { view: DocumentView }) {
  const [compare, setCompare] = useState(false);
  if (!view.conflict) return null;
  return (
    <div className="conflict-bar" data-testid="conflict-bar" role="alert">
      <span>
        <strong>{view.fileName}</strong> changed on disk while you have unsaved changes here. Nothing was written.
      </span>
      <button data-testid="conflict-keep-mine" onClick={() => void resolveConflict("keep_mine")}>
        Keep mine
      </button>
      <button data-testid="conflict-take-theirs" onClick={() => void resolveConflict("take_theirs")}>
        Take theirs
      </button>
      <button data-testid="conflict-compare" onClick={() => setCompare((c) => !c)}>
        {compare ? "Hide comparison" : "Compare"}
      </button>
      {compare && (
        <div className="conflict-compare" data-testid="conflict-diff">
          <div>
            <div className="muted">Mine (as it would be saved)</div>
            <pre>{view.conflict.mine}</pre>
          </div>
          <div>
            <div className="muted">Theirs (on disk)</div>
            <pre>{view.conflict.theirs}</pre>
          </div>
        </div>
      )}
    </div>
  );
}

export function HelpOverlay() {
  const open = useUi((s) => s.helpOpen);
  if (!open) return null;
  const groups = [...new Set(SHORTCUTS.map((s) => s.group))];
  return (
    <div className="overlay" data-testid="help-overlay" onClick={() => toggleHelp(false)}>
      <div className="help" onClick={(e) => e.stopPropagation()} role="dialog" aria-label="Keyboard shortcuts">
        <div className="panel-head">
          Keyboard shortcuts
          <button className="link" onClick={() => toggleHelp(false)} aria-label="close">
            ×
          </button>
        </div>
        <div className="help-grid">
          {groups.map((g) => (
            <div key={g}>
              <h4>{g}</h4>
              <table>
                <tbody>
                  {SHORTCUTS.filter((s) => s.group === g).map((s) => (
                    <tr key={s.keys + s.action}>
                      <td>
                        <kbd>{s.keys}</kbd>
                      </td>
                      <td>{s.label}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          ))}
        </div>
        <p className="muted small">
          Drag a type from the left panel onto the canvas, or search and press Enter. Drag from a node's right handle to another node's left
          handle to connect.
        </p>
      </div>
    </div>
  );
}

export function Toasts() {
  const toasts = useUi((s) => s.toasts);
  return (
    <div className="toasts" data-testid="toasts" aria-live="polite">
      {toasts.map((t) => (
        <div
          key={t.id}
          className={`toast ${t.kind}`}
          data-testid="toast"
          data-level={t.kind}
          onClick={() => ui.set((s) => ({ toasts: s.toasts.filter((x) => x.id !== t.id) }))}
        >
          {t.text}
        </div>
      ))}
    </div>
  );
}

export { runAction };
