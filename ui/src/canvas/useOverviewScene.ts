// What the overview <canvas> shows: the scene, built during the render when the graph, its
// problems, types, groups or notes change, so the DOM drawing's window (`useDomSubset`) is
// taken from the same scene in the same render (one render per edit, not a second one once
// the scene is known); then given to the renderer, and the selection drawn.
import { type MutableRefObject, useEffect, useMemo, useRef } from "react";
import type { DocumentView } from "../bindings";
import { annotationUnderlay, collapsedScene } from "../annotations/collapsedCanvas";
import type { CanvasData } from "./useCanvasData";
import type { OverviewRenderer } from "./overview";
import { type Scene, buildScene } from "./scene";
import { nodeFields, sceneInput } from "./sceneInput";
import { patchScene } from "./scenePatch";
import { deltaOf } from "../api/delta";
import { everyNodeStored } from "../lib/geometry";
import { timed, traceMark } from "../perf/editTrace";

export function useScene(view: DocumentView, data: CanvasData): Scene {
  const { basePositions, nodeColor, problems, types, collapsed } = data;
  // The last scene built, and the view and types it was built for.
  const last = useRef<{ view: DocumentView; scene: Scene; types: CanvasData["types"] } | null>(null);
  const scene = useMemo(() => {
    const t0 = performance.now();
    // After an edit: the scene before it, patched with what Rust said changed.
    const made = deltaOf(view);
    const prev = last.current;
    const fields = nodeFields(view, basePositions, nodeColor, problems, types);
    let scene: Scene | null = null;
    if (made && prev && prev.view === made.from && prev.types === types && !collapsed && everyNodeStored(basePositions))
      scene = timed("scene:patch", () => patchScene(prev.scene, made.from, view, made.delta, fields));
    if (!scene) {
      const inp = timed("scene:input", () => collapsedScene(sceneInput(view, fields), collapsed));
      scene = timed("scene:build", () => buildScene({ ...inp, underlay: annotationUnderlay(view, basePositions) }));
    }
    traceMark("scene", performance.now() - t0);
    return scene;
    // The parts of the view the scene reads (not `view` itself: a change of the dirty flag
    // or the diagnostics alone builds no new scene).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [
    basePositions,
    view.spec,
    view.weaveflow,
    view.graphmd,
    problems,
    nodeColor,
    types,
    collapsed,
    view.layout.notes,
    view.layout.groups,
    view.edgeLabels,
    view.extraEdges,
  ]);
  // The scene holds for this view too when none of what it reads changed (a new dirty flag):
  // the next edit's delta starts from this view.
  last.current = { view, scene, types };
  return scene;
}

export function useOverviewScene(
  scene: Scene,
  data: CanvasData,
  renderer: MutableRefObject<OverviewRenderer | null>,
  updateMode: () => void,
  scheduleDraw: () => void,
) {
  const { selection } = data;
  useEffect(() => {
    const r = renderer.current;
    if (!r) return;
    timed("scene:set", () => r.setScene(scene));
    r.setSelected(selection.nodes);
    r.setSelectedEdges(selection.edges);
    updateMode();
    scheduleDraw();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [scene]);

  useEffect(() => {
    renderer.current?.setSelected(selection.nodes);
    renderer.current?.setSelectedEdges(selection.edges);
    scheduleDraw();
  }, [selection.nodes, selection.edges, scheduleDraw]);
}
