// The face of a subgraph node on the canvas (React Flow mode): the graph it opens and its size,
// with an Open button; or, when the reference cannot be used, the reason in red with a "!"
// badge (the whole sentence as the tooltip and in the problems panel).
import { openSubgraph } from "./open";
import type { SubgraphMark } from "./mark";

export function SubgraphFace({ id, mark }: { id: string; mark: SubgraphMark }) {
  const icon = mark.state === "resolved" ? "↳ " : mark.state === "unresolved" ? "⚠ " : "";
  return (
    <>
      <div className={`tn-sub tn-sub-${mark.state}`} data-testid={`node-subgraph-${id}`} data-state={mark.state} title={mark.detail}>
        {icon}
        {mark.text}
      </div>
      {mark.openable ? (
        <button
          type="button"
          className="tn-open nodrag"
          data-testid={`node-open-${id}`}
          title={mark.detail}
          aria-label={`Open the graph of subgraph node ${id}`}
          onClick={(e) => {
            e.stopPropagation();
            void openSubgraph(id);
          }}
        >
          Open
        </button>
      ) : (
        mark.state === "unresolved" && (
          <span className="tn-sub-badge" data-testid={`node-unresolved-${id}`} title={mark.detail} aria-hidden>
            !
          </span>
        )
      )}
    </>
  );
}
