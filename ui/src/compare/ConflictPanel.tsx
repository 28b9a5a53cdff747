// The merge driver's conflict report (NAME.conflicts.json) beside the open document: each
// conflict with its pointer and its base, ours and theirs values; the user picks one or edits
// the value as JSON. Each pick is one undoable edit made in Rust; "resolved" is Rust's answer
// (the document holds the picked value). Saving when none is open removes the report. The file
// holds the merge (both sides' clean changes, ours at each conflict) unless the report says it
// kept ours only (an older driver's report): then the panel says so.
import { useEffect, useState } from "react";
import type { ConflictRow, DocumentView } from "../bindings";
import { loadConflicts, pickConflict, useCompare } from "./compareState";
import "./compare.css";

export function ConflictPanel({ view }: { view: DocumentView }) {
  const report = useCompare((s) => s.conflicts[view.id]);
  // Asked once when the document is first shown, then for every new state of a document that
  // has a report (picks, undo, save): "resolved" is worked out against the document.
  useEffect(() => {
    if (!view.path) return;
    const held = useCompare.getState().conflicts;
    if (!(view.id in held) || held[view.id]) void loadConflicts(view.id);
  }, [view]);
  if (!report) return null;
  return (
    <section className="panel conflict-panel" data-testid="conflict-panel" data-open={report.open} aria-label="Merge conflicts">
      <div className="panel-head">
        <span>
          Merge conflicts ({report.report}):{" "}
          {report.open === 0 ? "all resolved, save to finish" : `${report.open} of ${report.conflicts.length} open`}
        </span>
      </div>
      {report.kept === "ours" && (
        <p className="muted conflict-kept" data-testid="conflict-kept-ours">
          The file holds our version only: their changes that merged cleanly are not in it. Compare with their branch to take them.
        </p>
      )}
      <ol className="conflict-list">
        {report.conflicts.map((c) => (
          <Conflict key={c.index} docId={view.id} c={c} />
        ))}
      </ol>
    </section>
  );
}

function Conflict({ docId, c }: { docId: string; c: ConflictRow }) {
  const [editing, setEditing] = useState<string | null>(null);
  const invalid = c.reason === "invalid";
  const side = (name: "base" | "ours" | "theirs", value?: string) => (
    <div className={`conflict-side side-${name}${c.picked === name ? " picked" : ""}`}>
      <div className="conflict-side-head">
        {name}
        <button type="button" data-testid={`conflict-pick-${name}`} onClick={() => void pickConflict(docId, c.index, { pick: name })}>
          {value === undefined ? `Take ${name} (absent)` : `Take ${name}`}
        </button>
      </div>
      <pre>{value ?? "(absent)"}</pre>
    </div>
  );
  return (
    <li
      className={`conflict${c.resolved ? " resolved" : ""}`}
      data-testid="conflict"
      data-index={c.index}
      data-resolved={String(c.resolved)}
      data-pointer={c.pointer}
      data-element={c.element}
    >
      <div className="conflict-head">
        <strong>{c.element}</strong> <code>{c.pointer || "(whole element)"}</code> <span className="muted">{c.reason}</span>
        {c.resolved && <span className="conflict-done"> ✓ {c.picked}</span>}
      </div>
      <p className="conflict-message">{c.message}</p>
      {invalid ? (
        <button type="button" data-testid="conflict-mark-resolved" onClick={() => void pickConflict(docId, c.index, { pick: "resolved" })}>
          I fixed it: mark resolved
        </button>
      ) : (
        <>
          <div className="conflict-sides">
            {side("ours", c.ours)}
            {side("theirs", c.theirs)}
            {side("base", c.base)}
          </div>
          {editing === null ? (
            <button type="button" data-testid="conflict-edit" onClick={() => setEditing(c.current ?? c.ours ?? "")}>
              Edit the value…
            </button>
          ) : (
            <div className="conflict-edit">
              <textarea
                aria-label={`value at ${c.pointer || "the element"} (JSON; empty removes it)`}
                data-testid="conflict-edit-text"
                value={editing}
                onChange={(e) => setEditing(e.target.value)}
                rows={Math.min(12, editing.split("\n").length + 1)}
              />
              <button
                type="button"
                data-testid="conflict-edit-apply"
                onClick={async () => {
                  if (await pickConflict(docId, c.index, { pick: "edited", json: editing })) setEditing(null);
                }}
              >
                Use this value
              </button>
              <button type="button" onClick={() => setEditing(null)}>
                Cancel
              </button>
            </div>
          )}
        </>
      )}
    </li>
  );
}
