// `window.__trellisPerf` for this canvas: what the benchmark and end-to-end scripts read and
// drive (frame sampling, what is drawn, where an edge or node is on screen, the viewport).
import { type MutableRefObject, type RefObject, useEffect } from "react";
import type { useReactFlow, useStoreApi } from "@xyflow/react";
import { sizeOf } from "../lib/geometry";
import { editTrace } from "../perf/editTrace";
import { FrameSampler, nextFrames } from "../perf/hooks";
import { ui } from "../store";
import type { OverviewRenderer } from "./overview";
import { drawLog } from "./useOverviewRenderer";

export function usePerfProbe(
  rf: ReturnType<typeof useReactFlow>,
  store: ReturnType<typeof useStoreApi>,
  wrapper: RefObject<HTMLDivElement | null>,
  renderer: MutableRefObject<OverviewRenderer | null>,
  fitRef: MutableRefObject<() => void>,
  firstDrawn: MutableRefObject<number | null>,
) {
  useEffect(() => {
    const sampler = new FrameSampler();
    window.__trellisPerf = {
      startSampling: () => sampler.start(),
      stopSampling: () => sampler.stop(),
      nodeCount: () => ui.active()?.spec.nodes.length ?? 0,
      edgeCount: () => ui.active()?.spec.edges.length ?? 0,
      renderMode: () => ui.get().renderMode,
      domNodeCount: () => document.querySelectorAll(".react-flow__node").length,
      drawnNodes: () =>
        ui.get().renderMode === "canvas" ? (renderer.current?.lastDrawn ?? 0) : document.querySelectorAll(".react-flow__node").length,
      lastCanvasDrawMs: () => renderer.current?.lastDrawMs ?? 0,
      overviewNames: () => (ui.get().renderMode === "canvas" ? [...(renderer.current?.drawnNames ?? [])] : []),
      edgePoint: (index: number) => {
        // Client coordinates of the middle of document edge `index` as drawn (for a real click).
        const v = ui.active();
        const e = v?.spec.edges[index];
        const el = wrapper.current;
        const a = e && renderer.current?.positionOf(e.from);
        const b = e && renderer.current?.positionOf(e.to);
        if (!e || !el || !a || !b) return null;
        const [tx, ty, z] = store.getState().transform;
        const box = el.getBoundingClientRect();
        const sa = sizeOf(e.from);
        const sb = sizeOf(e.to);
        const fx = (a.x + sa.w + b.x) / 2;
        const fy = (a.y + sa.h / 2 + b.y + sb.h / 2) / 2;
        return { x: box.left + tx + fx * z, y: box.top + ty + fy * z };
      },
      nodePoint: (id: string) => {
        const el = wrapper.current;
        const p = renderer.current?.positionOf(id);
        if (!el || !p) return null;
        const [tx, ty, z] = store.getState().transform;
        const box = el.getBoundingClientRect();
        const s = sizeOf(id);
        return { x: box.left + tx + (p.x + s.w / 2) * z, y: box.top + ty + (p.y + s.h / 2) * z };
      },
      drawLog: (reset) => {
        const out = drawLog.slice();
        if (reset) drawLog.length = 0;
        return out;
      },
      editTrace,
      activeView: () => ui.active(),
      getViewport: () => rf.getViewport(),
      setViewport: (v) => void rf.setViewport(v),
      fitView: () => fitRef.current(),
      whenIdle: () => nextFrames(2),
      firstDrawnAt: () => firstDrawn.current,
      emptyPoint: () => {
        // A point of the pane (client coordinates) with no node under it, to start a pan.
        const el = wrapper.current;
        const r = renderer.current;
        if (!el || !r) return null;
        const box = el.getBoundingClientRect();
        for (let fy = 0.5; fy < 0.95; fy += 0.037)
          for (let fx = 0.5; fx < 0.95; fx += 0.041) {
            for (const [x, y] of [
              [box.left + box.width * fx, box.top + box.height * fy],
              [box.left + box.width * (1 - fx), box.top + box.height * (1 - fy)],
            ]) {
              const p = rf.screenToFlowPosition({ x, y });
              if (!r.hit(p) && !r.hit({ x: p.x - 30, y: p.y }) && !r.hit({ x: p.x + 30, y: p.y })) return { x, y };
            }
          }
        return null;
      },
    };
  }, [rf]);
}
