// An edge; a guarded one is dashed and carries its condition in the Mermaid label style.
import { BaseEdge, EdgeLabelRenderer, type EdgeProps, getBezierPath } from "@xyflow/react";
import { memo } from "react";
import { shortLabel } from "../lib/shortLabel";
import { ui } from "../store";
import type { FlowEdge } from "./buildFlow";

export const GuardEdge = memo(function GuardEdge(props: EdgeProps<FlowEdge>) {
  const { sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition, data, selected, markerEnd } = props;
  const [path, lx, ly] = getBezierPath({ sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition });
  const cls = `te${data?.guarded ? " te-guarded" : ""}${data?.dashed ? " te-dashed" : ""}${data?.errors ? " te-error" : ""}${selected ? " te-selected" : ""}`;
  return (
    <>
      <BaseEdge path={path} className={cls} markerEnd={markerEnd} interactionWidth={14} />
      {data?.label ? (
        <EdgeLabelRenderer>
          <div
            className={`te-label${data.errors ? " te-label-error" : ""}${selected ? " te-label-selected" : ""}`}
            style={{ transform: `translate(-50%, -50%) translate(${lx}px, ${ly}px)` }}
            data-testid={`edge-label-${data.index}`}
            title={data.firstProblem ?? data.label}
            onClick={(e) => {
              e.stopPropagation();
              if (data.index >= 0) ui.select({ nodes: [], edges: [data.index] });
            }}
          >
            {shortLabel(data.label)}
          </div>
        </EdgeLabelRenderer>
      ) : null}
    </>
  );
});
