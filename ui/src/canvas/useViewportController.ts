// Framing: bring a rectangle or the whole graph into view, and the controller through which
// the rest of the UI (toolbar, shortcuts, find) fits, frames, zooms and reads the viewport.
import { useCallback, useEffect, useRef } from "react";
import type { useReactFlow, useStoreApi } from "@xyflow/react";
import type { Point } from "../bindings";
import { setCanvasController } from "./canvasController";
import { type Rect, boundsOf } from "../lib/geometry";
import { frameRect } from "./framing";

export function useViewportController(
  rf: ReturnType<typeof useReactFlow>,
  store: ReturnType<typeof useStoreApi>,
  basePositions: Record<string, Point>,
) {
  const frame = useCallback(
    (r: Rect, maxZoom = 1.5) => {
      const { width, height, minZoom } = store.getState();
      if (!width || !height) return;
      void rf.setViewport(frameRect(r, { width, height }, minZoom, maxZoom));
    },
    [rf, store],
  );
  const fit = useCallback(() => {
    const b = boundsOf(basePositions);
    if (b) frame(b, 1.2);
    else void rf.setViewport({ x: 0, y: 0, zoom: 1 });
  }, [basePositions, frame, rf]);

  const fitRef = useRef(fit);
  fitRef.current = fit;
  useEffect(() => {
    setCanvasController({
      fit: () => fitRef.current(),
      frame,
      centre: () => {
        const { width, height, transform } = store.getState();
        const [tx, ty, z] = transform;
        return { x: (width / 2 - tx) / z, y: (height / 2 - ty) / z };
      },
      zoomIn: () => void rf.zoomIn({ duration: 120 }),
      zoomOut: () => void rf.zoomOut({ duration: 120 }),
      viewport: () => {
        const [x, y, zoom] = store.getState().transform;
        return { x, y, zoom };
      },
    });
    return () => setCanvasController(null);
  }, [frame, rf, store]);

  return { frame, fitRef };
}
