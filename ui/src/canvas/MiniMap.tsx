// A minimap on one small canvas: the graph is drawn once into an offscreen bitmap when it
// changes; each viewport change only copies that bitmap and draws the view rectangle (React
// Flow's SVG minimap repaints every node on every pan). Click or drag to move the view.
import { useReactFlow, useStoreApi } from "@xyflow/react";
import { useEffect, useRef } from "react";
import type { Point } from "../bindings";
import { type Rect, boundsOf, sizeOf } from "../lib/geometry";

const W = 200;
const H = 140;

export function MiniMap({ positions, colorOf }: { positions: Record<string, Point>; colorOf: (id: string) => string }) {
  const ref = useRef<HTMLCanvasElement>(null);
  const cache = useRef<{ bmp: HTMLCanvasElement; map: { s: number; ox: number; oy: number }; bounds: Rect; stroke?: string } | null>(null);
  const store = useStoreApi();
  const rf = useReactFlow();

  const drawView = () => {
    const c = ref.current;
    const k = cache.current;
    if (!c || !k) return;
    const ctx = c.getContext("2d");
    if (!ctx) return;
    const dpr = Math.min(2, window.devicePixelRatio || 1);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, W, H);
    ctx.drawImage(k.bmp, 0, 0, W, H);
    const { transform, width, height } = store.getState();
    const [tx, ty, z] = transform;
    const vx = -tx / z;
    const vy = -ty / z;
    // Read once per bitmap, not per frame (getComputedStyle can force a style pass).
    k.stroke ??= getComputedStyle(c).getPropertyValue("--minimap-view") || "#3b82f6";
    ctx.strokeStyle = k.stroke;
    ctx.lineWidth = 1.5;
    ctx.strokeRect(k.map.ox + vx * k.map.s, k.map.oy + vy * k.map.s, (width / z) * k.map.s, (height / z) * k.map.s);
  };

  useEffect(() => {
    const b = boundsOf(positions) ?? { x: 0, y: 0, w: 1, h: 1 };
    const pad = 40;
    const s = Math.min(W / (b.w + 2 * pad), H / (b.h + 2 * pad));
    const ox = (W - b.w * s) / 2 - b.x * s;
    const oy = (H - b.h * s) / 2 - b.y * s;
    const dpr = Math.min(2, window.devicePixelRatio || 1);
    const bmp = document.createElement("canvas");
    bmp.width = W * dpr;
    bmp.height = H * dpr;
    const ctx = bmp.getContext("2d");
    if (ctx) {
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      const buckets = new Map<string, string[]>();
      for (const id of Object.keys(positions)) {
        const c = colorOf(id);
        const l = buckets.get(c);
        if (l) l.push(id);
        else buckets.set(c, [id]);
      }
      for (const [color, ids] of buckets) {
        ctx.beginPath();
        for (const id of ids) {
          const p = positions[id];
          const sz = sizeOf(id);
          ctx.rect(ox + p.x * s, oy + p.y * s, Math.max(1, sz.w * s), Math.max(1, sz.h * s));
        }
        ctx.fillStyle = color;
        ctx.fill();
      }
    }
    // Free the old bitmap's pixels now rather than at the next garbage collection.
    if (cache.current) cache.current.bmp.width = cache.current.bmp.height = 0;
    cache.current = { bmp, map: { s, ox, oy }, bounds: b };
    const c = ref.current;
    if (c) {
      c.width = W * dpr;
      c.height = H * dpr;
    }
    drawView();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [positions, colorOf]);

  useEffect(() => {
    let raf = 0;
    const unsub = store.subscribe((st, prev) => {
      if (st.transform === prev.transform && st.width === prev.width) return;
      if (!raf) raf = requestAnimationFrame(() => ((raf = 0), drawView()));
    });
    return () => {
      unsub();
      cancelAnimationFrame(raf);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [store]);

  const moveTo = (e: React.PointerEvent) => {
    const k = cache.current;
    const c = ref.current;
    if (!k || !c) return;
    const r = c.getBoundingClientRect();
    const fx = (e.clientX - r.left - k.map.ox) / k.map.s;
    const fy = (e.clientY - r.top - k.map.oy) / k.map.s;
    const { width, height, transform } = store.getState();
    const z = transform[2];
    void rf.setViewport({ x: width / 2 - fx * z, y: height / 2 - fy * z, zoom: z });
  };

  return (
    <canvas
      ref={ref}
      className="minimap"
      data-testid="minimap"
      style={{ width: W, height: H }}
      onPointerDown={(e) => {
        (e.target as HTMLElement).setPointerCapture(e.pointerId);
        moveTo(e);
      }}
      onPointerMove={(e) => {
        if (e.buttons & 1) moveTo(e);
      }}
    />
  );
}
