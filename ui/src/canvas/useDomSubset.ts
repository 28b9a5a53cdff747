// What React Flow gets in the DOM drawing. React Flow slows down with every node in its store,
// drawn or not (a few thousand make every pan frame and the switch to the DOM drawing slow). So it
// gets only a window around the view: the nodes in it, the edges touching them, and those
// edges' far ends (not rendered, but needed to draw the edge). The window is recomputed when
// the view leaves it (`useRenderMode`). Only that subset is ever built as React Flow objects
// (none at all while the canvas draws the graph), from the stored positions only: a drag must
// not rebuild them per frame (the dragged ones are overlaid last).
import { useMemo } from "react";
import type { DocumentView, Point } from "../bindings";
import type { Rect } from "../lib/geometry";
import { collapsedFlow } from "../annotations/collapsedCanvas";
import { FlowCache, type FlowEdge, type FlowNode } from "./buildFlow";
import type { Scene } from "./scene";
import { sceneIdsIn } from "./sceneIndex";
import type { CanvasData } from "./useCanvasData";

export function useDomSubset(
  view: DocumentView,
  data: CanvasData,
  mode: "dom" | "canvas",
  win: Rect | null,
  scene: Scene,
  drag: Record<string, Point> | null,
) {
  const { basePositions, selNodes, selEdges, problems, types, collapsed } = data;
  const cache = useMemo(() => new FlowCache(), [view.id]);
  const domSubset = useMemo(() => {
    if (mode !== "dom" || !win) return { nodes: [] as FlowNode[], edges: [] as FlowEdge[] };
    const inWin = new Set(sceneIdsIn(scene, win));
    // A selection stays in the store so a drag moves all of it (up to a size that stays fast).
    if (selNodes.size <= 400) for (const id of selNodes) inWin.add(id);
    const keep = new Set(inWin);
    const es = cache.buildEdges(view, selEdges, problems, (e) => inWin.has(e.from) || inWin.has(e.to));
    for (const e of es) {
      keep.add(e.source);
      keep.add(e.target);
    }
    return collapsedFlow(cache.buildNodes(view, basePositions, selNodes, problems, types, keep), es, collapsed, selNodes);
  }, [mode, win, scene, cache, view, basePositions, selNodes, selEdges, problems, types, collapsed]);
  const nodes = useMemo(
    () => (drag ? domSubset.nodes.map((n) => (drag[n.id] ? { ...n, position: drag[n.id] } : n)) : domSubset.nodes),
    [domSubset, drag],
  );
  return { nodes, edges: domSubset.edges };
}
