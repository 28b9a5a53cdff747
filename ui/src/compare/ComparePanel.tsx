// "Compare with…": the chooser (recent commits of the file, other branches, another file) and,
// while comparing, the change list beside the canvas. Each row says what changed, old → new;
// clicking it frames the change; its button reverts it (or takes theirs) as one undoable edit.
import { useEffect } from "react";
import type { CompareChange, DocumentView, RevisionChoice } from "../bindings";
import {
  closeChooser,
  closeCompare,
  compareWithFile,
  compareWithRevision,
  frameChange,
  refreshCompare,
  takeChange,
  useCompare,
} from "./compareState";
import "./compare.css";

export function ComparePanel({ view }: { view: DocumentView }) {
  const docId = useCompare((s) => s.docId);
  const cmp = useCompare((s) => s.view);
  const chooser = useCompare((s) => s.chooser);

  // Every new state of the document (an edit, an undo, a reload) gets the view again.
  useEffect(() => {
    if (docId === view.id) void refreshCompare(view.id);
  }, [view, docId]);

  return (
    <>
      {chooser?.docId === view.id && <Chooser />}
      {cmp && docId === view.id && (
        <aside className="panel compare-panel" data-testid="compare-panel" aria-label="Changes" data-count={cmp.changes.length}>
          <div className="panel-head">
            <span>
              Compared with <span data-testid="compare-against">{cmp.against}</span>
            </span>
            <button type="button" onClick={() => void closeCompare()} data-testid="compare-close" title="Leave the compare view">
              Done
            </button>
          </div>
          <p className="compare-summary">
            {cmp.changes.length === 0 ? "No difference." : `${cmp.changes.length} change${cmp.changes.length === 1 ? "" : "s"}`}
            {cmp.layout ? ` · ${cmp.layout}` : ""}
          </p>
          <ul className="compare-list">
            {cmp.changes.map((c) => (
              <ChangeRow key={c.key} change={c} doc={view} action={cmp.action === "revert" ? "Revert" : "Take theirs"} />
            ))}
          </ul>
        </aside>
      )}
    </>
  );
}

function ChangeRow({ change, doc, action }: { change: CompareChange; doc: DocumentView; action: string }) {
  const selected = useCompare((s) => s.selected === change.key);
  return (
    <li
      className={`compare-change kind-${change.kind}${selected ? " selected" : ""}`}
      data-testid="compare-change"
      data-kind={change.kind}
      data-element={change.element}
      data-label={change.label}
    >
      <button type="button" className="compare-change-head" onClick={() => frameChange(change, doc)} aria-pressed={selected}>
        <span className="compare-badge">{change.kind}</span> <strong>{change.label}</strong>{" "}
        <span className="compare-what">{change.summary}</span>
      </button>
      {change.fields.length > 0 && (
        <dl className="compare-fields">
          {change.fields.slice(0, 12).map((f) => (
            <div key={f.pointer} data-testid="compare-field" data-pointer={f.pointer}>
              <dt>{f.pointer || "(whole)"}</dt>
              <dd>
                <code className="old">{f.before ?? "—"}</code> → <code className="new">{f.after ?? "—"}</code>
              </dd>
            </div>
          ))}
          {change.fields.length > 12 && <div className="muted">{change.fields.length - 12} more fields</div>}
        </dl>
      )}
      <button type="button" className="compare-take" data-testid="compare-take" onClick={() => void takeChange(change.key)}>
        {action}
      </button>
    </li>
  );
}

function Chooser() {
  const chooser = useCompare((s) => s.chooser);
  const busy = useCompare((s) => s.busy);
  const t = chooser?.targets;
  return (
    <div className="compare-chooser" role="dialog" aria-label="Compare with" data-testid="compare-chooser">
      <div className="panel-head">
        <span>Compare with…</span>
        <button type="button" onClick={closeChooser} aria-label="close">
          ×
        </button>
      </div>
      <div className="compare-chooser-body">
        <button type="button" onClick={() => void compareWithFile()} disabled={busy} data-testid="compare-file">
          Another file…
        </button>
        {!t && <p className="muted">Reading the Git history…</p>}
        {t?.unavailable && (
          <p className="muted" data-testid="compare-unavailable">
            No Git revisions: {t.unavailable}.
          </p>
        )}
        {t && !t.unavailable && (
          <>
            <h4>
              Commits on {t.branch ?? "HEAD"} that changed {t.path}
            </h4>
            {t.commits.length === 0 && <p className="muted">None yet.</p>}
            <ul>
              {t.commits.map((r) => (
                <Choice key={r.rev} r={r} busy={busy} testid="compare-commit" />
              ))}
            </ul>
            {t.branches.length > 0 && <h4>Other branches</h4>}
            <ul>
              {t.branches.map((r) => (
                <Choice key={r.rev} r={r} busy={busy} testid="compare-branch" />
              ))}
            </ul>
          </>
        )}
      </div>
    </div>
  );
}

function Choice({ r, busy, testid }: { r: RevisionChoice; busy: boolean; testid: string }) {
  const when = r.time ? new Date(r.time * 1000).toLocaleString() : "";
  return (
    <li>
      <button
        type="button"
        disabled={busy}
        onClick={() => void compareWithRevision(r.rev)}
        data-testid={testid}
        data-rev={r.rev}
        data-summary={r.summary}
      >
        <code>{r.label}</code> {r.summary} <span className="muted">{[r.author, when].filter(Boolean).join(", ")}</span>
      </button>
    </li>
  );
}
