// Pointer gestures while the overview <canvas> draws the graph (React Flow keeps the viewport
// but renders no elements, so hits are tested here): click and Ctrl-click select nodes and
// edges, a drag on a node drawn large enough to aim at moves the selected nodes (one
// `move_nodes` edit on release; anywhere else a drag pans), Shift-drag box selects, a
// double-click expands a collapsed group, opens a subgraph node or frames a node; a click on
// empty space clears the selection (in either drawing).
import { type MutableRefObject, useCallback, useRef } from "react";
import type { useReactFlow, useStoreApi } from "@xyflow/react";
import type { DocumentView, Point } from "../bindings";
import { edit } from "../actions";
import { NODE_W, type Rect } from "../lib/geometry";
import { ui } from "../store";
import { isSubgraphNode } from "../subgraphs/mark";
import { openSubgraph } from "../subgraphs/open";
import { groupOfBox, membershipAfterDrag, moveGroups } from "../annotations/frames";
import { setCollapsed } from "../annotations/actions";
import type { OverviewRenderer } from "./overview";

/** How wide on screen (px) a node must be drawn for a press on it to drag it. */
const DRAG_MIN_PX = 16;

/** The node a press at `p` drags: one under the pointer itself (not merely near it), with
 * nodes drawn at least `DRAG_MIN_PX` wide. */
function draggable(r: OverviewRenderer, p: Point, zoom: number): string | null {
  if (zoom * NODE_W < DRAG_MIN_PX) return null;
  const hit = r.hit(p, zoom);
  return hit && r.idsIn({ x: p.x, y: p.y, w: 0.01, h: 0.01 }).includes(hit) ? hit : null;
}

export function useOverviewGestures(
  view: DocumentView,
  basePositions: Record<string, Point>,
  rf: ReturnType<typeof useReactFlow>,
  store: ReturnType<typeof useStoreApi>,
  renderer: MutableRefObject<OverviewRenderer | null>,
  scheduleDraw: () => void,
  frame: (r: Rect, maxZoom?: number) => void,
) {
  const gesture = useRef<{ kind: "drag" | "box"; start: Point; ids: string[]; moved: boolean } | null>(null);
  const toFlow = useCallback((e: { clientX: number; clientY: number }) => rf.screenToFlowPosition({ x: e.clientX, y: e.clientY }), [rf]);

  const onPointerDownCapture = useCallback(
    (e: React.PointerEvent) => {
      if (ui.get().renderMode !== "canvas" || e.button !== 0) return;
      const target = e.target as HTMLElement;
      if (target.closest(".react-flow__controls, .minimap, .react-flow__panel")) return;
      const r = renderer.current;
      if (!r) return;
      const p = toFlow(e);
      const zoom = store.getState().transform[2];
      // A press near a node selects it on release (`onPaneClick`), but only a press on a node
      // drawn large enough to aim at starts dragging it: zoomed far out nodes are dots a few
      // pixels apart, and a drag meant to pan must not move one of them.
      const hit = draggable(r, p, zoom);
      const sel = ui.get().selection.nodes;
      if (hit) {
        e.stopPropagation();
        e.preventDefault();
        if (e.ctrlKey || e.metaKey) {
          ui.select({ nodes: sel.includes(hit) ? sel.filter((x) => x !== hit) : [...sel, hit], edges: [] });
          return;
        }
        const ids = sel.includes(hit) ? sel : [hit];
        if (!sel.includes(hit)) ui.select({ nodes: [hit], edges: [] });
        gesture.current = { kind: "drag", start: p, ids, moved: false };
      } else if (e.shiftKey) {
        e.stopPropagation();
        e.preventDefault();
        gesture.current = { kind: "box", start: p, ids: [], moved: false };
      } else return;
      (e.currentTarget as HTMLElement).setPointerCapture(e.pointerId);
    },
    [toFlow],
  );
  const onPointerMove = useCallback(
    (e: React.PointerEvent) => {
      const g = gesture.current;
      const r = renderer.current;
      if (!g || !r) return;
      const p = toFlow(e);
      const dx = p.x - g.start.x;
      const dy = p.y - g.start.y;
      const z = store.getState().transform[2];
      if (!g.moved && Math.hypot(dx, dy) * z < 3) return;
      g.moved = true;
      if (g.kind === "drag") r.setDragOffset(g.ids, dx, dy);
      else r.setBox({ x: Math.min(p.x, g.start.x), y: Math.min(p.y, g.start.y), w: Math.abs(dx), h: Math.abs(dy) });
      scheduleDraw();
    },
    [toFlow, store, scheduleDraw],
  );
  const onPointerUp = useCallback(
    (e: React.PointerEvent) => {
      const g = gesture.current;
      const r = renderer.current;
      gesture.current = null;
      if (!g || !r) return;
      const p = toFlow(e);
      if (g.kind === "box") {
        r.setBox(null);
        if (g.moved) {
          const box = {
            x: Math.min(p.x, g.start.x),
            y: Math.min(p.y, g.start.y),
            w: Math.abs(p.x - g.start.x),
            h: Math.abs(p.y - g.start.y),
          };
          const ids = r.idsIn(box).filter((id) => !groupOfBox(id));
          ui.select({ nodes: [...new Set([...ui.get().selection.nodes, ...ids])], edges: [] });
        }
        scheduleDraw();
        return;
      }
      if (!g.moved) return;
      const dx = Math.round(p.x - g.start.x);
      const dy = Math.round(p.y - g.start.y);
      const moved: Record<string, Point> = {};
      const notes: Record<string, Point> = {};
      for (const id of g.ids) {
        const group = groupOfBox(id);
        if (group) {
          const m = moveGroups(view, basePositions, [group], dx, dy);
          Object.assign(moved, m.positions);
          Object.assign(notes, m.notes);
          continue;
        }
        const q = basePositions[id];
        if (q) moved[id] = { x: q.x + dx, y: q.y + dy };
      }
      const groups = membershipAfterDrag(view, basePositions, moved);
      void edit({ op: "move_nodes", positions: moved, notes, groups }).finally(() => {
        r.setDragOffset(null);
        scheduleDraw();
      });
    },
    [toFlow, basePositions, scheduleDraw, view],
  );
  const onDoubleClick = useCallback(
    (e: React.MouseEvent) => {
      if (ui.get().renderMode !== "canvas") return;
      const hit = renderer.current?.hit(toFlow(e), store.getState().transform[2]);
      const boxed = hit ? groupOfBox(hit) : null;
      if (boxed) {
        e.stopPropagation();
        void setCollapsed(boxed, false);
        return;
      }
      const p = hit ? basePositions[hit] : null;
      if (hit && isSubgraphNode(view, hit)) {
        e.stopPropagation();
        void openSubgraph(hit);
        return;
      }
      if (hit && p) {
        e.stopPropagation();
        ui.select({ nodes: [hit], edges: [] });
        frame({ x: p.x - 200, y: p.y - 150, w: 600, h: 360 }, 1);
      }
    },
    [toFlow, basePositions, frame, view],
  );

  const onPaneClick = (e: React.MouseEvent) => {
    // In canvas mode a click on a drawn node reaches the pane too (after its pointerdown
    // selected the node); one near a node too small to drag selects it here; only a click on
    // empty space clears the selection.
    const near = ui.get().renderMode === "canvas" ? renderer.current?.hit(toFlow(e), store.getState().transform[2]) : null;
    if (near) {
      const sel = ui.get().selection.nodes;
      if (e.ctrlKey || e.metaKey) ui.select({ nodes: sel.includes(near) ? sel.filter((x) => x !== near) : [...sel, near], edges: [] });
      else if (!sel.includes(near)) ui.select({ nodes: [near], edges: [] });
      return;
    }
    // An edge or its label: selected on the click (the inspector shows it), Ctrl toggles; a
    // press there that drags pans, as on empty space.
    const edge = ui.get().renderMode === "canvas" ? renderer.current?.hitEdge(toFlow(e), store.getState().transform[2]) : null;
    if (edge != null) {
      const cur = ui.get().selection.edges;
      if (e.ctrlKey || e.metaKey) ui.select({ nodes: [], edges: cur.includes(edge) ? cur.filter((x) => x !== edge) : [...cur, edge] });
      else ui.select({ nodes: [], edges: [edge] });
      return;
    }
    ui.select({ nodes: [], edges: [] });
  };

  return { onPointerDownCapture, onPointerMove, onPointerUp, onDoubleClick, onPaneClick };
}
