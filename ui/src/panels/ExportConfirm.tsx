// File > Export as …: before anything is written, the list of what the target format cannot
// hold, one row per element, and the choice to go on or not.
import type { Diagnostic } from "../bindings";
import { EXPORT_LABELS, cancelExport, confirmExport } from "../actions";
import { useUi } from "../store";

/** Where a loss is: the node, edge or channel it names, else its JSON pointer. */
export function lossPlace(d: Diagnostic): string {
  const e = d.element;
  if (e && e.kind === "node") return `node ${e.id}`;
  if (e && e.kind === "edge") return `edge ${e.from} → ${e.to}`;
  if (e && e.kind === "channel") return `channel ${e.name}`;
  if (e && e.kind === "graph") return "graph";
  return d.pointer || "document";
}

export function ExportConfirm() {
  const pending = useUi((s) => s.exportConfirm);
  const fileName = useUi((s) => (pending ? s.docs[pending.docId]?.fileName : undefined));
  if (!pending) return null;
  const label = EXPORT_LABELS[pending.format];
  const losses = pending.answer.losses;
  return (
    <div className="overlay" onClick={cancelExport}>
      <div
        className="help export-confirm"
        data-testid="export-confirm"
        role="dialog"
        aria-label={`Export as ${label}`}
        onClick={(e) => e.stopPropagation()}
        onKeyDown={(e) => e.key === "Escape" && cancelExport()}
      >
        <div className="panel-head">
          Export {fileName ?? "the document"} as {label}
        </div>
        {losses.length === 0 ? (
          <p data-testid="export-lossless">Nothing is lost: {label} holds everything in this document.</p>
        ) : (
          <>
            <p>
              {label} cannot hold {losses.length === 1 ? "this" : `these ${losses.length} things`}; the exported copy will not have{" "}
              {losses.length === 1 ? "it" : "them"} (the open document keeps everything):
            </p>
            <ul className="export-losses">
              {losses.map((d, i) => (
                <li key={i} data-testid="export-loss" data-code={d.code}>
                  <strong>{lossPlace(d)}</strong>: {d.message}
                </li>
              ))}
            </ul>
          </>
        )}
        <p className="export-buttons">
          <button data-testid="export-cancel" onClick={cancelExport}>
            Cancel
          </button>{" "}
          <button data-testid="export-go" autoFocus onClick={() => void confirmExport()}>
            {losses.length ? "Export anyway…" : "Export…"}
          </button>
        </p>
      </div>
    </div>
  );
}
