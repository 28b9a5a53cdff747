// An edge; a guarded one carries its condition in the Mermaid label style. It runs along the
// route Rust worked out (`routePath.ts`): into the next column as a curve, between the nodes
// of the columns it passes, around the columns on a lane when it loops back; its label sits
// where Rust placed it, in a gap between columns, never under a node.
import { BaseEdge, EdgeLabelRenderer, type EdgeProps } from "@xyflow/react";
import { memo } from "react";
import { shortLabel } from "../lib/shortLabel";
import { ui } from "../store";
import type { FlowEdge } from "./buildFlow";
import { labelPoint, routeSvg } from "./routePath";

export const GuardEdge = memo(function GuardEdge(props: EdgeProps<FlowEdge>) {
  const { sourceX, sourceY, targetX, targetY, data, selected, markerEnd } = props;
  const s = { x: sourceX, y: sourceY };
  const t = { x: targetX, y: targetY };
  const path = routeSvg(s, t, data?.route);
  const { x: lx, y: ly } = labelPoint(s, t, data?.route);
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
            data-edge={props.id}
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
