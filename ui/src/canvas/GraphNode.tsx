// A node on the canvas: id, type title, category colour, and a badge when it has problems.
// Memoized: React Flow re-renders it only when its data object changes (see FlowCache).
import { Handle, type NodeProps, Position } from "@xyflow/react";
import { memo } from "react";
import { applyFix } from "../actions";
import { SubgraphFace } from "../subgraphs/SubgraphFace";
import { openSubgraph } from "../subgraphs/open";
import type { FlowNode, GraphNodeData, TerminalData } from "./buildFlow";

export const GraphNode = memo(function GraphNode({ data, selected }: NodeProps<FlowNode & { data: GraphNodeData }>) {
  const problems = data.errors + data.warnings;
  return (
    <div
      className={`tn${selected ? " tn-selected" : ""}${data.errors ? " tn-error" : data.warnings ? " tn-warning" : ""}${data.subgraph ? " tn-subgraph" : ""}`}
      style={{ "--cat": data.color } as React.CSSProperties}
      data-testid={`node-${data.id}`}
      data-node-id={data.id}
      title={data.firstProblem ?? `${data.id}: ${data.title}`}
      role="group"
      aria-roledescription="node"
      aria-label={nodeLabel(data)}
      onDoubleClick={
        data.subgraph
          ? (e) => {
              // A subgraph node opens its graph (not React Flow's zoom).
              e.stopPropagation();
              void openSubgraph(data.id);
            }
          : undefined
      }
    >
      <Handle type="target" position={Position.Left} className="tn-handle" data-testid={`handle-in-${data.id}`} />
      <div className="tn-bar" />
      <div className="tn-body">
        <div className="tn-id" data-testid="node-id">
          {data.id}
        </div>
        {data.subgraph ? (
          <SubgraphFace id={data.id} mark={data.subgraph} />
        ) : (
          <div className="tn-type">
            {data.title}
            {data.unknownType && data.type ? ` (${data.type}?)` : ""}
          </div>
        )}
      </div>
      {data.roles?.map((r) => (
        <span key={r} className={`tn-role tn-role-${r}`} data-testid={`node-role-${data.id}-${r}`}>
          {r}
        </span>
      ))}
      {problems > 0 && (
        <span className={`tn-badge ${data.errors ? "err" : "warn"}`} data-testid={`node-badge-${data.id}`} aria-hidden>
          {problems}
        </span>
      )}
      {data.firstFix && (
        <button
          className="tn-fix nodrag"
          data-testid={`node-fix-${data.id}`}
          title={data.firstFix.title}
          aria-label={data.firstFix.title}
          onClick={(e) => {
            e.stopPropagation();
            if (data.firstFix) void applyFix(data.firstFix.edit);
          }}
        >
          fix
        </button>
      )}
      <Handle type="source" position={Position.Right} className="tn-handle" data-testid={`handle-out-${data.id}`} />
    </div>
  );
});

/** What a screen reader announces: "node planner, type planner, 2 errors". */
export function nodeLabel(d: Pick<GraphNodeData, "id" | "type" | "errors" | "warnings">): string {
  const n = (k: number, w: string) => (k ? `, ${k} ${w}${k === 1 ? "" : "s"}` : "");
  return `node ${d.id}, type ${d.type ?? "none"}${n(d.errors, "error")}${n(d.warnings, "warning")}`;
}

/** `__start__` and `__end__`: a filled disc and a ringed disc (the state-machine convention).
 * Both carry both handles so a wrong connection can be refused with a reason, not ignored. */
export const TerminalNode = memo(function TerminalNode({ data, selected }: NodeProps<FlowNode & { data: TerminalData }>) {
  const start = data.id === "__start__";
  return (
    <div
      className={`tt ${start ? "tt-start" : "tt-end"}${selected ? " tn-selected" : ""}`}
      data-testid={`node-${data.id}`}
      data-node-id={data.id}
      title={start ? "__start__: where the graph begins" : "__end__: where the graph ends"}
      role="group"
      aria-roledescription="node"
      aria-label={start ? "start node" : "end node"}
    >
      <Handle
        type="target"
        position={Position.Left}
        className={`tn-handle${start ? " tn-handle-ghost" : ""}`}
        data-testid={`handle-in-${data.id}`}
      />
      <span className="tt-label">{start ? "start" : "end"}</span>
      <Handle
        type="source"
        position={Position.Right}
        className={`tn-handle${start ? "" : " tn-handle-ghost"}`}
        data-testid={`handle-out-${data.id}`}
      />
    </div>
  );
});
