// A minimap on one small canvas: the graph is drawn once into an offscreen bitmap when it
// changes; each viewport change only copies that bitmap and draws the view rectangle (React
// Flow's SVG minimap repaints every node on every pan). Click or drag to move the view.
import { useReactFlow, useStoreApi } from "@xyflow/react";
import { useEffect, useRef } from "react";
import type { Rect } from "../lib/geometry";
import type { Scene } from "./scene";
import { traceMark } from "../perf/editTrace";

const W = 200;
const H = 140;
/** From this many nodes each is a pixel or two in the minimap: set as pixels, not as paths
 * (filling a path of 10,000 tiny rectangles is tens of milliseconds in a software canvas). */
const PIXELS_FROM = 1500;

/** `#rgb` or `#rrggbb` as [r, g, b]; null for any other colour syntax. */
function hexRgb(color: string): [number, number, number] | null {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(color.trim());
  if (!m) return null;
  const h = m[1].length === 3 ? [...m[1]].map((c) => c + c).join("") : m[1];
  return [Number.parseInt(h.slice(0, 2), 16), Number.parseInt(h.slice(2, 4), 16), Number.parseInt(h.slice(4, 6), 16)];
}

/** The boxes the minimap draws: the overview scene's nodes (a collapsed group's box instead
 * of its members), read from its arrays (no lookup by id per node). */
export type MiniBoxes = Pick<Scene, "x" | "y" | "w" | "h" | "color">;

/** The colour of box `i` (the terminals are drawn in the neutral colour). */
function boxColor(b: MiniBoxes, i: number) {
  const c = b.color[i];
  return c === "terminal" ? NEUTRAL : c;
}
const NEUTRAL = "#475569";

/** Sets each box's device pixels in the bitmap; false (nothing drawn) when a colour is not a
 * hex colour, so the caller paints paths instead. */
export function paintPixels(
  ctx: CanvasRenderingContext2D,
  boxes: MiniBoxes,
  m: { s: number; ox: number; oy: number; dpr: number },
): boolean {
  const bw = ctx.canvas.width;
  const bh = ctx.canvas.height;
  const img = ctx.createImageData(bw, bh);
  const d = img.data;
  const rgb = new Map<string, [number, number, number] | null>();
  let lastColor = "";
  let c: [number, number, number] | null | undefined = null;
  for (let i = 0; i < boxes.x.length; i++) {
    // Neighbours mostly share a colour: the map is asked only when it changes.
    const color = boxColor(boxes, i);
    if (color !== lastColor) {
      c = rgb.get(color);
      if (c === undefined) rgb.set(color, (c = hexRgb(color)));
      lastColor = color;
    }
    if (!c) return false;
    const x0 = Math.max(0, Math.floor((m.ox + boxes.x[i] * m.s) * m.dpr));
    const y0 = Math.max(0, Math.floor((m.oy + boxes.y[i] * m.s) * m.dpr));
    const x1 = Math.min(bw, Math.max(x0 + 1, Math.round((m.ox + (boxes.x[i] + boxes.w[i]) * m.s) * m.dpr)));
    const y1 = Math.min(bh, Math.max(y0 + 1, Math.round((m.oy + (boxes.y[i] + boxes.h[i]) * m.s) * m.dpr)));
    for (let y = y0; y < y1; y++)
      for (let x = x0; x < x1; x++) {
        const o = (y * bw + x) * 4;
        d[o] = c[0];
        d[o + 1] = c[1];
        d[o + 2] = c[2];
        d[o + 3] = 255;
      }
  }
  ctx.putImageData(img, 0, 0);
  return true;
}

/** The rectangle around every box. */
function boundsOfBoxes(b: MiniBoxes): Rect | null {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (let i = 0; i < b.x.length; i++) {
    if (b.x[i] < x0) x0 = b.x[i];
    if (b.y[i] < y0) y0 = b.y[i];
    if (b.x[i] + b.w[i] > x1) x1 = b.x[i] + b.w[i];
    if (b.y[i] + b.h[i] > y1) y1 = b.y[i] + b.h[i];
  }
  return Number.isFinite(x0) ? { x: x0, y: y0, w: x1 - x0, h: y1 - y0 } : null;
}

export function MiniMap({ boxes }: { boxes: MiniBoxes }) {
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
    // The first drawing now; after an edit, once the frame showing the edit is drawn: on a
    // large graph this repaint costs as much as the edit's own drawing, and a thumbnail a
    // frame late is not seen.
    if (!cache.current) return paintGraph();
    let timer = 0;
    const raf = requestAnimationFrame(() => {
      timer = window.setTimeout(paintGraph, 0);
    });
    return () => {
      cancelAnimationFrame(raf);
      clearTimeout(timer);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [boxes]);

  /** Paints the graph into the minimap's bitmap (then the view rectangle over it). */
  function paintGraph() {
    const t0 = performance.now();
    const b = boundsOfBoxes(boxes) ?? { x: 0, y: 0, w: 1, h: 1 };
    const pad = 40;
    const s = Math.min(W / (b.w + 2 * pad), H / (b.h + 2 * pad));
    const ox = (W - b.w * s) / 2 - b.x * s;
    const oy = (H - b.h * s) / 2 - b.y * s;
    const dpr = Math.min(2, window.devicePixelRatio || 1);
    const bmp = document.createElement("canvas");
    bmp.width = W * dpr;
    bmp.height = H * dpr;
    const ctx = bmp.getContext("2d");
    const n = boxes.x.length;
    if (ctx && !(n > PIXELS_FROM && paintPixels(ctx, boxes, { s, ox, oy, dpr }))) {
      ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
      const buckets = new Map<string, number[]>();
      for (let i = 0; i < n; i++) {
        const c = boxColor(boxes, i);
        const l = buckets.get(c);
        if (l) l.push(i);
        else buckets.set(c, [i]);
      }
      for (const [color, list] of buckets) {
        ctx.beginPath();
        for (const i of list) ctx.rect(ox + boxes.x[i] * s, oy + boxes.y[i] * s, Math.max(1, boxes.w[i] * s), Math.max(1, boxes.h[i] * s));
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
    traceMark("minimap", performance.now() - t0);
  }

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
