// Which drawing the canvas uses (React Flow's DOM, or the overview <canvas>), chosen from the
// zoom and how many nodes are in view, with hysteresis; and, for the DOM drawing, the window
// of the graph React Flow gets (recomputed only when the view leaves it).
import { type MutableRefObject, useCallback, useEffect, useRef, useState } from "react";
import type { useStoreApi } from "@xyflow/react";
import type { Rect } from "../lib/geometry";
import { ui } from "../store";
import type { OverviewRenderer } from "./overview";

/** Below this zoom, or above this many nodes in view, the graph is drawn on the canvas. */
export const CANVAS_ZOOM = 0.45;
export const CANVAS_COUNT = 260;
const HYSTERESIS = 1.15;

export function useRenderMode(
  store: ReturnType<typeof useStoreApi>,
  renderer: MutableRefObject<OverviewRenderer | null>,
  scheduleDraw: () => void,
  mode: "dom" | "canvas",
) {
  const [win, setWin] = useState<Rect | null>(null);
  const winRef = useRef<Rect | null>(null);

  /** Chooses the drawing from the zoom and how many nodes are in view (with hysteresis). */
  const updateMode = useCallback(() => {
    const r = renderer.current;
    const st = store.getState();
    const [tx, ty, z] = st.transform;
    if (!r || !st.width) return;
    const vp = { x: -tx / z, y: -ty / z, w: st.width / z, h: st.height / z };
    const count = r.countIn(vp);
    const cur = ui.get().renderMode;
    const toCanvas = z < CANVAS_ZOOM || count > CANVAS_COUNT;
    const toDom = z >= CANVAS_ZOOM * HYSTERESIS && count < CANVAS_COUNT / HYSTERESIS;
    const next = cur === "dom" ? (toCanvas ? "canvas" : "dom") : toDom ? "dom" : "canvas";
    // The DOM window only matters for the DOM drawing: keep it still while on the canvas.
    const w = winRef.current;
    if (next === "dom" && (!w || vp.x < w.x || vp.y < w.y || vp.x + vp.w > w.x + w.w || vp.y + vp.h > w.y + w.h)) {
      const m = 0.3;
      const nw = { x: vp.x - vp.w * m, y: vp.y - vp.h * m, w: vp.w * (1 + 2 * m), h: vp.h * (1 + 2 * m) };
      winRef.current = nw;
      setWin(nw);
    }
    if (next !== cur) ui.set({ renderMode: next });
    if (Math.abs(ui.get().zoom - z) > 0.01) ui.set({ zoom: z });
  }, [store]);

  useEffect(() => {
    let last = store.getState().transform;
    return store.subscribe((st) => {
      if (st.transform === last) return;
      last = st.transform;
      updateMode();
      scheduleDraw();
    });
  }, [store, updateMode, scheduleDraw]);

  useEffect(() => {
    scheduleDraw();
  }, [mode, scheduleDraw]);

  return { win, updateMode };
}
