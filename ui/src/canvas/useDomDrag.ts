// Dragging nodes in the DOM drawing: React Flow reports positions while dragging (kept here and
// overlaid on the drawn nodes, never a rebuild of the graph per frame); the drop is one
// `move_nodes` edit, a collapsed group's box moving its members, with the group membership the
// drop implies (into a frame: joins it; out of its own: leaves it).
import { useCallback, useState } from "react";
import type { DocumentView, Point } from "../bindings";
import { edit } from "../actions";
import { groupOfBox, membershipAfterDrag, moveGroups } from "../annotations/frames";
import type { FlowNode } from "./buildFlow";
import type { CanvasData } from "./useCanvasData";

export function useDomDrag(view: DocumentView, { basePositions, collapsed }: Pick<CanvasData, "basePositions" | "collapsed">) {
  const [drag, setDrag] = useState<Record<string, Point> | null>(null);
  /** Positions React Flow reported during a drag. */
  const dragged = useCallback((moved: Record<string, Point>) => setDrag((d) => ({ ...(d ?? {}), ...moved })), []);

  const onNodeDragStop = useCallback(
    (_e: unknown, _n: unknown, nodes: FlowNode[]) => {
      const d = drag ?? {};
      const moved: Record<string, Point> = {};
      const notes: Record<string, Point> = {};
      for (const n of nodes) {
        const p = d[n.id] ?? { x: Math.round(n.position.x), y: Math.round(n.position.y) };
        const group = groupOfBox(n.id);
        if (group) {
          // A collapsed group's box: its members move with it.
          const from = collapsed?.boxPositions[n.id];
          if (from && (from.x !== p.x || from.y !== p.y)) {
            const m = moveGroups(view, basePositions, [group], p.x - from.x, p.y - from.y);
            Object.assign(moved, m.positions);
            Object.assign(notes, m.notes);
          }
          continue;
        }
        const old = basePositions[n.id];
        if (!old || old.x !== p.x || old.y !== p.y) moved[n.id] = p;
      }
      if (Object.keys(moved).length === 0) return setDrag(null);
      // Dropped into a frame: joins that group; out of its own frame: leaves it.
      const groups = membershipAfterDrag(view, basePositions, moved);
      void edit({ op: "move_nodes", positions: moved, notes, groups }).finally(() => setDrag(null));
    },
    [drag, basePositions, view, collapsed],
  );

  return { drag, dragged, onNodeDragStop };
}
