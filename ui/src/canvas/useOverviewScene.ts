// What the overview <canvas> shows: the scene built anew when the graph, its problems, types,
// groups or notes change (and the DOM window recomputed with it), and the selection drawn.
import { type MutableRefObject, useEffect } from "react";
import type { DocumentView } from "../bindings";
import type { Rect } from "../lib/geometry";
import { annotationUnderlay, collapsedScene } from "../annotations/collapsedCanvas";
import type { CanvasData } from "./useCanvasData";
import { type OverviewRenderer, buildScene } from "./overview";
import { sceneInput } from "./sceneInput";
import { timed, traceMark } from "../perf/editTrace";

export function useOverviewScene(
  view: DocumentView,
  data: CanvasData,
  renderer: MutableRefObject<OverviewRenderer | null>,
  winRef: MutableRefObject<Rect | null>,
  updateMode: () => void,
  scheduleDraw: () => void,
) {
  const { basePositions, colorById, problems, types, collapsed, selection } = data;
  useEffect(() => {
    const r = renderer.current;
    if (!r) return;
    const t0 = performance.now();
    const inp = timed("scene:input", () => collapsedScene(sceneInput(view, basePositions, colorById, problems, types), collapsed));
    const scene = timed("scene:build", () => buildScene({ ...inp, underlay: annotationUnderlay(view, basePositions) }));
    timed("scene:set", () => r.setScene(scene));
    r.setSelected(selection.nodes);
    r.setSelectedEdges(selection.edges);
    traceMark("scene", performance.now() - t0);
    winRef.current = null; // the scene changed: recompute the DOM window
    updateMode();
    scheduleDraw();
  }, [
    basePositions,
    view.spec,
    view.weaveflow,
    view.graphmd,
    problems,
    colorById,
    types,
    collapsed,
    view.layout.notes,
    view.layout.groups,
    view.edgeLabels,
    view.extraEdges,
  ]);

  useEffect(() => {
    renderer.current?.setSelected(selection.nodes);
    renderer.current?.setSelectedEdges(selection.edges);
    scheduleDraw();
  }, [selection.nodes, selection.edges, scheduleDraw]);
}
