// The breadcrumb bar above a tab opened from a subgraph node: parent › child (› grandchild…).
// Each ancestor is a button back to its tab (still open, shown where it was left).
import type { DocumentView } from "../bindings";
import { useUi } from "../store";
import { trail, useCrumbs } from "./breadcrumbs";
import { showDocument } from "./open";
import "./subgraphs.css";

/** The graph's name (GRAPH.md files all share one file name), else the file name. */
const title = (d: DocumentView | undefined, id: string) => d?.spec.name?.trim() || d?.fileName || id;

export function Breadcrumbs() {
  const activeId = useUi((s) => s.activeId);
  const docs = useUi((s) => s.docs);
  const crumbs = useCrumbs((s) => s.crumbs);
  const ids = trail(crumbs, activeId, (id) => !!docs[id]);
  if (ids.length < 2) return null;
  return (
    <nav className="crumbs" aria-label="Subgraph path" data-testid="breadcrumbs">
      {ids.map((id, i) => {
        const last = i === ids.length - 1;
        // The node of this document the next one was opened from.
        const via = crumbs[ids[i + 1]]?.nodeId;
        return (
          <span key={id} className="crumb-item">
            {last ? (
              <span
                className="crumb crumb-current"
                aria-current="page"
                data-testid="crumb-current"
                data-doc-id={id}
                title={docs[id]?.path ?? ""}
              >
                {title(docs[id], id)}
              </span>
            ) : (
              <button
                type="button"
                className="crumb"
                data-testid="crumb"
                data-doc-id={id}
                title={`Back to ${docs[id]?.path ?? title(docs[id], id)}`}
                onClick={() => showDocument(id)}
              >
                {title(docs[id], id)}
                {via && <span className="crumb-via"> ({via})</span>}
              </button>
            )}
            {!last && (
              <span className="crumb-sep" aria-hidden>
                ›
              </span>
            )}
          </span>
        );
      })}
    </nav>
  );
}
