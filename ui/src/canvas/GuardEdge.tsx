// An edge; a guarded one is dashed and carries its condition in the Mermaid label style. A
// route drawn for the reader only (a GRAPH.md judge's fallback) bows below the straight line:
// it usually skips nodes of a chain, and drawn straight it ran under them, label and all.
import { BaseEdge, EdgeLabelRenderer, type EdgeProps, getBezierPath } from "@xyflow/react";
import { memo } from "react";
import { shortLabel } from "../lib/shortLabel";
import { ui } from "../store";
import type { FlowEdge } from "./buildFlow";

export const GuardEdge = memo(function GuardEdge(props: EdgeProps<FlowEdge>) {
  const { sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition, data, selected, markerEnd } = props;
  const [path, lx, ly] = data?.dashed
    ? bowedPath(sourceX, sourceY, targetX, targetY)
    : getBezierPath({ sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition });
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

/** A cubic from the source to the target whose middle runs `bow` below both ends (more for a
 * longer edge), and the point halfway along it (the label's place). */
export function bowedPath(sx: number, sy: number, tx: number, ty: number): [string, number, number] {
  const dx = tx - sx;
  const bow = Math.min(160, Math.max(60, Math.abs(dx) * 0.25));
  const c1x = sx + dx * 0.25;
  const c2x = tx - dx * 0.25;
  const c1y = sy + bow;
  const c2y = ty + bow;
  // The cubic at t = 1/2.
  const mx = (sx + 3 * c1x + 3 * c2x + tx) / 8;
  const my = (sy + 3 * c1y + 3 * c2y + ty) / 8;
  return [`M ${sx},${sy} C ${c1x},${c1y} ${c2x},${c2y} ${tx},${ty}`, mx, my];
}
