// The frame around the canvas: tabs and toolbar, problems panel, status bar, help overlay,
// messages.
import { useState } from "react";
import type { Diagnostic, DocumentView } from "../bindings";
import {
  autoLayout,
  cancelLayout,
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
import { ui, useUi } from "../store";
import { Tabs } from "./Tabs";
import { DescribeAllButton, FixButtons } from "./FixButtons";

/** One shared empty list: a zustand selector must not return a new array on each call. */
const NONE: Diagnostic[] = [];

export function Toolbar({ view }: { view: DocumentView | null }) {
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

export function allDiagnostics(view: DocumentView, extra: Diagnostic[]): Diagnostic[] {
  // A save refused for errors stops being a problem once the errors are gone (a conflict
  // with an outside change stays until it is resolved).
  const live = view.diagnostics.some((d) => d.severity === "error")
    ? extra
    : extra.filter((d) => !(d.code.startsWith("save/") && d.code !== "save/conflict"));
  return [...live, ...view.diagnostics];
}

export function ProblemsPanel({ view }: { view: DocumentView }) {
  const extra = useUi((s) => s.extraDiagnostics[view.id] ?? NONE);
  const open = useUi((s) => s.problemsOpen);
  const all = allDiagnostics(view, extra);
  if (!open) return null;
  const rank = { error: 0, warning: 1, info: 2 } as const;
  const sorted = [...all].sort((a, b) => rank[a.severity] - rank[b.severity]);
  return (
    <section className="problems" data-testid="problems-panel">
      <div className="panel-head">
        Problems <span className="muted">({all.length})</span>
        <DescribeAllButton diagnostics={all} docId={view.id} />
        <button className="link" onClick={() => ui.set({ problemsOpen: false })} aria-label="close problems">
          ×
        </button>
      </div>
      <ul>
        {sorted.length === 0 && <li className="muted">No problems.</li>}
        {sorted.map((d, i) => (
          <li
            key={i}
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
            {d.span ? (
              <span className="muted">
                {d.span.line}:{d.span.column}
              </span>
            ) : d.pointer ? (
              <code className="muted ptr">{d.pointer}</code>
            ) : null}
            <FixButtons diagnostic={d} docId={view.id} />
          </li>
        ))}
      </ul>
    </section>
  );
}

export function StatusBar({ view }: { view: DocumentView | null }) {
  const extra = useUi((s) => (view ? (s.extraDiagnostics[view.id] ?? NONE) : NONE));
  const mode = useUi((s) => s.renderMode);
  const zoom = useUi((s) => s.zoom);
  const sel = useUi((s) => s.selection);
  if (!view)
    return (
      <footer className="status" data-testid="status-bar">
        No document open.
      </footer>
    );
  const all = allDiagnostics(view, extra);
  const errors = all.filter((d) => d.severity === "error").length;
  const warnings = all.filter((d) => d.severity === "warning").length;
  return (
    <footer className="status" data-testid="status-bar">
      <button
        className={`status-problems${errors ? " has-errors" : ""}`}
        data-testid="status-problems"
        title="Show or hide the problems panel"
        onClick={() => ui.set((s) => ({ problemsOpen: !s.problemsOpen }))}
      >
        ✖{" "}
        <span data-testid="problem-count" data-errors={errors} data-warnings={warnings}>
          {errors}
        </span>{" "}
        ▲ <span data-testid="status-warnings">{warnings}</span>
      </button>
      <span>
        {view.spec.nodes.length} nodes · {view.spec.edges.length} edges
      </span>
      {sel.nodes.length + sel.edges.length > 0 && <span>{sel.nodes.length + sel.edges.length} selected</span>}
      <span className="grow" />
      {view.notices.map((n, i) => (
        <span key={i} className={`notice ${n.level}`} data-testid="notice" data-code={n.code ?? ""}>
          {n.message}
        </span>
      ))}
      <span data-testid="status-mode" title="how the canvas is drawn">
        {mode === "canvas" ? "overview" : "detail"} · {Math.round(zoom * 100)}%
      </span>
      <span data-testid="status-dirty">{view.dirty ? "unsaved" : "saved"}</span>
    </footer>
  );
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
