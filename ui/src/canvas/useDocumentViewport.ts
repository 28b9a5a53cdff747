// The document's own viewport: on open, the stored one (else a readable opening view, else
// fit); the canvas counts as ready once the first frame is drawn (Rust lays out a document that
// came without positions before its first view, so it is drawn once, at its final place). Pan and zoom afterwards are kept by Rust in the layout
// sidecar (not an undo step, not dirty).
import { type MutableRefObject, useEffect, useRef } from "react";
import type { Viewport as FlowViewport, useReactFlow, useStoreApi } from "@xyflow/react";
import type { DocumentView, Point } from "../bindings";
import { boundsOf } from "../lib/geometry";
import { START } from "../lib/ids";
import { nextFrames } from "../perf/hooks";
import { ui } from "../store";
import { openingView } from "./framing";

export function useDocumentViewport(
  view: DocumentView,
  basePositions: Record<string, Point>,
  rf: ReturnType<typeof useReactFlow>,
  store: ReturnType<typeof useStoreApi>,
  fitRef: MutableRefObject<() => void>,
  updateMode: () => void,
  scheduleDraw: () => void,
) {
  const opened = useRef<string | null>(null);
  const firstDrawn = useRef<number | null>(null);
  useEffect(() => {
    if (opened.current === view.id) return;
    const ready = () => store.getState().width > 0;
    const go = () => {
      opened.current = view.id;
      const vp = view.layout.viewport;
      const b = boundsOf(basePositions);
      const { width, height, minZoom } = store.getState();
      const start = basePositions[START];
      if (vp && Number.isFinite(vp.zoom) && vp.zoom > 0) void rf.setViewport(vp);
      // Readable from the first frame: fitted when that is at least ~60 %, else 100 % at the entry.
      else if (b) void rf.setViewport(openingView(b, start ? { x: start.x, y: start.y, w: 44, h: 44 } : null, { width, height }, minZoom));
      else fitRef.current();
      updateMode();
      scheduleDraw();
      // Ready (`data-ready`, the open-time measurement) once the first real frame is drawn.
      void nextFrames(2).then(() => {
        firstDrawn.current = performance.now();
        ui.set({ readyDoc: view.id });
      });
    };
    if (ready()) go();
    else {
      const unsub = store.subscribe(() => {
        if (ready() && opened.current !== view.id) {
          unsub();
          go();
        }
      });
      return unsub;
    }
  }, [view.id, view.layout, view.spec.nodes, basePositions, rf, store, updateMode, scheduleDraw]);

  const onMoveEnd = (_e: unknown, vp: FlowViewport) => {
    // Kept in the layout sidecar by Rust (not an undo step, not dirty).
    const b = ui.get().backend;
    if (b && opened.current === view.id)
      b.setViewport(view.id, { x: Math.round(vp.x), y: Math.round(vp.y), zoom: Math.round(vp.zoom * 1000) / 1000 });
  };

  return { firstDrawn, onMoveEnd };
}
