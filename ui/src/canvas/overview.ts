// The zoomed-out drawing: the whole graph on ONE <canvas> (nodes as rectangles, edges as
// lines), redrawn from React Flow's viewport transform. Painting thousands of DOM and SVG
// elements per frame is what makes plain React Flow stall; a few batched canvas paths are cheap
// even where the webview paints in software. Also answers hit tests and box queries, through a
// uniform grid, for the interactions the canvas mode handles itself.
import type { DocumentView, EdgeRoute, Point } from "../bindings";
import type { Rect } from "../lib/geometry";
import { timed, traceMark } from "../perf/editTrace";
import { edgeFont, labelWidth } from "./overviewText";
import { labelPoint, routePoints } from "./routePath";
import type { Scene } from "./scene";
import { sceneChanges, union } from "./sceneChanges";
import { sceneQuery } from "./sceneIndex";
import {
  type DragOffset,
  type Painted,
  type Theme,
  paintEdgeLabels,
  paintEdges,
  paintLabels,
  paintNodes,
  paintOverlays,
  paintUnderlay,
  routeBox,
} from "./scenePaint";

// Both canvases raster on the CPU (`willReadFrequently`): where WebKit composites through
// software GL (llvmpipe under Xvfb, no GPU) an accelerated canvas defers its raster into the
// frames and costs more per frame than a CPU bitmap, in zoom and in pan; without compositing
// both are CPU anyway. `?gpucanvas=1` asks for accelerated canvases again (to compare).
const gpu = typeof location !== "undefined" && new URLSearchParams(location.search).get("gpucanvas") === "1";
const CPU_BITMAP: CanvasRenderingContext2DSettings | undefined = gpu ? undefined : { willReadFrequently: true };
const CPU_SCREEN = CPU_BITMAP;

export class OverviewRenderer {
  private scene: Scene | null = null;
  /** Live: drawn over the cached picture each frame (`scenePaint.ts`). */
  selected = new Set<number>();
  private offset: DragOffset | null = null;
  box: Rect | null = null;
  private cache: Bitmap | null = null;
  /** The next bitmap, painted a slice at a time between frames (see `draw`). */
  private job: Job | null = null;
  private settle = 0;
  /** Off: every frame paints the scene (for comparison in benchmarks). */
  useCache = true;
  lastDrawMs = 0;
  lastDrawn = 0;
  /** Full scene repaints done inside a frame (benchmarks and tests read it). */
  syncRepaints = 0;

  constructor(
    private canvas: HTMLCanvasElement,
    private theme: () => Theme,
    private requestDraw: () => void,
    /** Runs a slice of a background repaint soon, between frames (a task, not a frame). */
    private schedule: (fn: () => void) => void = postTask,
    private newBitmap: () => HTMLCanvasElement = () => document.createElement("canvas"),
  ) {}

  /** The scene or the theme changed: the cached bitmap is stale. */
  invalidate() {
    this.dropCache();
  }

  /** Frees the bitmaps now (their pixels, not at the next garbage collection). */
  private dropCache() {
    free(this.cache?.bmp);
    free(this.job?.bmp);
    free(this.spare ?? undefined);
    this.cache = null;
    this.job = null;
    this.spare = null;
  }

  /** Shows `scene` instead. When it differs from the one shown in a few places (an edit),
   * only those places of the cached bitmap are painted again; else the bitmap is dropped. */
  setScene(scene: Scene) {
    const prev = this.scene;
    const k = this.cache;
    const changes = timed("scene:changes", () => (prev && k && !this.offset && this.useCache ? sceneChanges(prev, scene, k.zoom) : null));
    this.scene = scene;
    if (!changes || !k) return this.dropCache();
    // A background repaint started for the old scene would paint a mix of both: start over.
    if (this.job) {
      free(this.job.bmp);
      this.job = null;
    }
    this.repaintPlaces(k, changes.places);
    for (const id of changes.removed) this.drawnNames.delete(id);
    k.drawn = this.countIn(k.rect);
    this.partialRepaints++;
  }

  /** Partial repaints done by `setScene` (tests read it). */
  partialRepaints = 0;

  /** Clears `places` (flow coordinates) of the bitmap and paints everything there again, in
   * the order of a whole paint, clipped to those places on whole device pixels (no seams). */
  private repaintPlaces(k: Bitmap, places: Rect[]) {
    const ctx = k.bmp.getContext("2d", CPU_BITMAP);
    if (!ctx) return;
    const scale = k.zoom * k.dpr;
    const px: Rect[] = [];
    let region: Rect | null = null;
    for (const r of places) {
      const x0 = Math.max(0, Math.floor((r.x - k.rect.x) * scale));
      const y0 = Math.max(0, Math.floor((r.y - k.rect.y) * scale));
      const x1 = Math.min(k.bmp.width, Math.ceil((r.x + r.w - k.rect.x) * scale));
      const y1 = Math.min(k.bmp.height, Math.ceil((r.y + r.h - k.rect.y) * scale));
      if (x1 <= x0 || y1 <= y0) continue;
      px.push({ x: x0, y: y0, w: x1 - x0, h: y1 - y0 });
      const flow = { x: k.rect.x + x0 / scale, y: k.rect.y + y0 / scale, w: (x1 - x0) / scale, h: (y1 - y0) / scale };
      region = region ? union(region, flow) : flow;
    }
    if (!region) return;
    ctx.save();
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.beginPath();
    for (const r of px) ctx.rect(r.x, r.y, r.w, r.h);
    ctx.clip();
    for (const r of px) ctx.clearRect(r.x, r.y, r.w, r.h);
    ctx.setTransform(scale, 0, 0, scale, -k.rect.x * scale, -k.rect.y * scale);
    this.paint(ctx, region, k.zoom, false);
    ctx.restore();
  }

  selectedEdges = new Set<number>();
  /** Node ids whose names the current drawing shows (what the end-to-end test reads). */
  drawnNames = new Set<string>();

  /** Document edge indices to draw selected. */
  setSelectedEdges(indices: readonly number[]) {
    const want = new Set(indices);
    this.selectedEdges = new Set();
    const s = this.scene;
    if (s) for (let k = 0; k < s.edgeIndex.length; k++) if (want.has(s.edgeIndex[k])) this.selectedEdges.add(k);
  }

  /** The routes Rust gave the edges (`DocumentView.routes`): by document edge index, and by
   * the object of an edge drawn for the reader only. */
  private routes: { doc: (EdgeRoute | null)[]; extra: Map<object, EdgeRoute | null> } = { doc: [], extra: new Map() };

  /** Takes the view's routes; the places of those that changed are painted again. */
  setRoutes(view: DocumentView) {
    const before = this.routes;
    const extra = new Map<object, EdgeRoute | null>();
    for (const [i, e] of view.extraEdges.entries()) extra.set(e, view.routes.extra[i] ?? null);
    this.routes = { doc: view.routes.edges, extra };
    const s = this.scene;
    const k = this.cache;
    if (!s || !k || before.doc === view.routes.edges) return;
    const places: Rect[] = [];
    for (let e = 0; e < s.edgeFrom.length && places.length <= 400; e++) {
      const i = s.edgeIndex[e];
      if (i < 0 || before.doc[i] === this.routes.doc[i]) continue;
      for (const r of [before.doc[i], this.routes.doc[i]]) if (r) places.push(routeBox(this.painted(s), e, r));
    }
    if (places.length > 400) this.dropCache();
    else if (places.length) this.repaintPlaces(k, places);
  }

  /** The route of scene edge `k`, if Rust gave it one. */
  private routeOf = (k: number): EdgeRoute | null => {
    const s = this.scene;
    if (!s) return null;
    const i = s.edgeIndex[k];
    if (i >= 0) return this.routes.doc[i] ?? null;
    const ref = s.edgeRef[k];
    return ref ? (this.routes.extra.get(ref) ?? null) : null;
  };

  /** The document edge under `p` (flow coordinates) at this zoom: its label, or its line
   * within a few screen pixels; the nearest wins. Drawn-only edges are never hit. */
  hitEdge(p: Point, zoom: number): number | null {
    const s = this.scene;
    if (!s) return null;
    const tol = 5 / zoom;
    let best = -1;
    let bestD = Infinity;
    const fe = edgeFont(zoom);
    for (let k = 0; k < s.edgeFrom.length; k++) {
      const a = s.edgeFrom[k];
      const b = s.edgeTo[k];
      if (a < 0 || b < 0 || s.edgeIndex[k] < 0) continue;
      const sa = { x: s.x[a] + s.w[a], y: s.y[a] + s.h[a] / 2 };
      const tb = { x: s.x[b], y: s.y[b] + s.h[b] / 2 };
      const route = this.routeOf(k);
      if (s.edgeLabel[k] && fe) {
        const lw = labelWidth(s.edgeLabel[k], fe) / 2 + 4 / zoom;
        const m = labelPoint(sa, tb, route);
        if (Math.abs(p.x - m.x) <= lw && Math.abs(p.y - m.y) <= fe * 0.8) return s.edgeIndex[k];
      }
      // Along the points the edge passes (its curves stay near the lines between them).
      const pts = routePoints(sa, tb, route);
      for (let j = 1; j < pts.length; j++) {
        const u = pts[j - 1];
        const v = pts[j];
        if (
          p.x < Math.min(u.x, v.x) - tol ||
          p.x > Math.max(u.x, v.x) + tol ||
          p.y < Math.min(u.y, v.y) - tol ||
          p.y > Math.max(u.y, v.y) + tol
        )
          continue;
        const d = segmentDistance(p.x, p.y, u.x, u.y, v.x, v.y);
        if (d <= tol && d < bestD) {
          bestD = d;
          best = k;
        }
      }
    }
    return best >= 0 ? s.edgeIndex[best] : null;
  }

  setSelected(ids: readonly string[]) {
    this.selected = new Set(ids.map((id) => this.scene?.index.get(id) ?? -1).filter((i) => i >= 0));
  }

  setDragOffset(ids: readonly string[] | null, dx = 0, dy = 0) {
    if (!ids)
      this.dropCache(); // the drag ended: positions are about to change
    else if (this.job) {
      // A background repaint must not pick up the drag's offsets.
      free(this.job.bmp);
      this.job = null;
    }
    this.offset = ids ? { ids: new Set(ids.map((id) => this.scene?.index.get(id) ?? -1)), dx, dy } : null;
  }

  setBox(r: Rect | null) {
    this.box = r;
  }

  /** Node indices whose box meets the rectangle (flow coordinates), without duplicates. */
  query(r: Rect): number[] {
    return this.scene ? sceneQuery(this.scene, r) : [];
  }

  countIn(r: Rect): number {
    return this.query(r).length;
  }

  /** The node under `p` (flow coordinates), the topmost; else, at this zoom, the nearest
   * one within 4 screen pixels: zoomed far out a node is a pixel or less, and a click can
   * only come near it. */
  hit(p: Point, zoom = 1): string | null {
    const s = this.scene;
    if (!s) return null;
    const found = this.query({ x: p.x - 2, y: p.y - 2, w: 4, h: 4 });
    // The last drawn (topmost) wins.
    if (found.length) return s.ids[Math.max(...found)];
    const slack = 4 / zoom;
    let best = -1;
    let bestD = slack;
    for (const i of this.query({ x: p.x - slack, y: p.y - slack, w: 2 * slack, h: 2 * slack })) {
      const dx = Math.max(s.x[i] - p.x, 0, p.x - s.x[i] - s.w[i]);
      const dy = Math.max(s.y[i] - p.y, 0, p.y - s.y[i] - s.h[i]);
      const d = Math.hypot(dx, dy);
      if (d <= bestD) {
        bestD = d;
        best = i;
      }
    }
    return best >= 0 ? s.ids[best] : null;
  }

  idsIn(r: Rect): string[] {
    const s = this.scene;
    return s ? this.query(r).map((i) => s.ids[i]) : [];
  }

  positionOf(id: string): Point | null {
    const s = this.scene;
    const i = s?.index.get(id);
    return s && i !== undefined ? { x: s.x[i], y: s.y[i] } : null;
  }

  /** Draws the scene for the transform `[tx, ty, zoom]` (React Flow's).
   *
   * The scene is painted into an offscreen bitmap covering the view plus a margin; frames
   * during pan and zoom only copy (and scale) that bitmap, which costs the same at 50 or 5,000
   * nodes. When the view nears the bitmap's edge, or the zoom drifts from the bitmap's, or the
   * zoom settles (to be sharp again), the next bitmap is painted in slices between frames
   * while the frames keep scaling the current one; only when there is nothing usable to show
   * (first frame, the view left the bitmap, zoomed far past it) is the scene painted inside a
   * frame. Selection, the box and a drag in progress are drawn live on top. */
  draw(tx: number, ty: number, zoom: number) {
    const t0 = performance.now();
    const c = this.canvas;
    const dpr = Math.min(2, window.devicePixelRatio || 1);
    const cw = c.clientWidth;
    const ch = c.clientHeight;
    if (c.width !== Math.round(cw * dpr) || c.height !== Math.round(ch * dpr)) {
      // The cached bitmap is in flow coordinates: it stays good for a resized canvas (a
      // panel that grew) as long as it covers the view; only a new pixel ratio spoils it.
      c.width = Math.round(cw * dpr);
      c.height = Math.round(ch * dpr);
      if (this.cache && this.cache.dpr !== dpr) this.dropCache();
    }
    const ctx = c.getContext("2d", CPU_SCREEN);
    if (!ctx) return;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, c.width, c.height);
    const s = this.scene;
    if (!s || !cw || !ch) return;
    const view: Rect = { x: -tx / zoom, y: -ty / zoom, w: cw / zoom, h: ch / zoom };
    if (this.offset || !this.useCache) {
      // A drag in progress moves some nodes every frame: paint directly.
      ctx.setTransform(dpr * zoom, 0, 0, dpr * zoom, dpr * tx, dpr * ty);
      this.lastDrawn = this.paint(ctx, view, zoom);
    } else {
      const k = this.current(view, zoom, dpr);
      if (k) {
        const r = zoom / k.zoom;
        ctx.imageSmoothingEnabled = true;
        ctx.drawImage(k.bmp, dpr * (tx + zoom * k.rect.x), dpr * (ty + zoom * k.rect.y), k.bmp.width * r, k.bmp.height * r);
        this.lastDrawn = k.drawn;
        clearTimeout(this.settle);
        if (k.zoom !== zoom) {
          // Once the zoom rests, paint a sharp bitmap for it (in the background).
          this.settle = window.setTimeout(() => {
            const cur = this.cache;
            const [vx, vy, vz] = this.lastView;
            if (cur && cur.zoom !== vz) this.startJob({ x: vx, y: vy, w: cw / vz, h: ch / vz }, vz, dpr);
          }, 160);
        }
      }
      ctx.setTransform(dpr * zoom, 0, 0, dpr * zoom, dpr * tx, dpr * ty);
    }
    this.lastView = [view.x, view.y, zoom];
    if (this.scene) paintOverlays(ctx, this.painted(this.scene), view, zoom, this);
    this.lastDrawMs = performance.now() - t0;
  }

  private lastView: [number, number, number] = [0, 0, 1];

  /** The bitmap to show for this view: the cached one while it is good enough (starting the
   * next one in the background when it drifts), else one painted now. */
  private current(view: Rect, zoom: number, dpr: number): Bitmap | null {
    const k = this.cache;
    if (!k) return this.finishNow(view, zoom, dpr);
    const ratio = zoom / k.zoom;
    const cover = coverage(k.rect, view);
    // Unusable: too little of the view in the bitmap, or scaled up so far it is a blur.
    if (cover < 0.75 || ratio > 3 || ratio < 1 / 3) return this.finishNow(view, zoom, dpr);
    const drift = ratio > 1.25 || ratio < 1 / 1.25 || !inside(k.inner, view);
    if (drift) {
      const j = this.job;
      // A job painting for a view this one has left is of no use: start over.
      if (!j || j.zoom / zoom > 1.25 || zoom / j.zoom > 1.25 || !inside(j.rect, view)) this.startJob(view, zoom, dpr);
    }
    return k;
  }

  /** The bitmap for this view, painted inside this frame (the in-flight job if it fits). */
  private finishNow(view: Rect, zoom: number, dpr: number): Bitmap | null {
    let j = this.job;
    if (!j || j.zoom / zoom > 1.25 || zoom / j.zoom > 1.25 || !inside(j.rect, view)) j = this.makeJob(view, zoom, dpr);
    if (!j) return null;
    this.syncRepaints++;
    traceMark("draw:sync");
    while (!j.steps.next().done);
    this.swap(j);
    return this.cache;
  }

  private startJob(view: Rect, zoom: number, dpr: number) {
    const j = this.makeJob(view, zoom, dpr);
    if (!j) return;
    const run = () => {
      if (this.job !== j) return; // replaced or dropped
      // A slice of at most ~4 ms, then yield to the frames.
      const end = performance.now() + 4;
      let done = false;
      do done = !!j.steps.next().done;
      while (!done && performance.now() < end);
      if (!done) return this.schedule(run);
      this.swap(j);
      this.requestDraw();
    };
    this.schedule(run);
  }

  /** A bitmap covering the view plus a margin of half a view each side (sized from the
   * viewport: 2x its width and height in device pixels, within 4096 a side), with the
   * generator that paints it slice by slice. */
  private makeJob(view: Rect, zoom: number, dpr: number): Job | null {
    let m = 0.5;
    const maxSide = 4096;
    while (m > 0 && Math.max(view.w, view.h) * (1 + 2 * m) * zoom * dpr > maxSide) m -= 0.1;
    m = Math.max(0, m);
    const rect = grow(view, m);
    // Half the margin used up: time to paint the next bitmap.
    const inner = grow(view, m / 2);
    const bw = Math.min(maxSide, Math.ceil(rect.w * zoom * dpr));
    const bh = Math.min(maxSide, Math.ceil(rect.h * zoom * dpr));
    // Reuse a bitmap (the abandoned job's, or the one the last swap retired): creating
    // canvases per repaint costs allocation and, in WebKit's composited mode, GPU surfaces.
    const bmp = this.job?.bmp ?? this.spare ?? this.newBitmap();
    if (bmp === this.spare) this.spare = null;
    this.job = null;
    if (bmp.width !== bw || bmp.height !== bh) {
      bmp.width = bw;
      bmp.height = bh;
    }
    const ctx = bmp.getContext("2d", CPU_BITMAP);
    if (!ctx) return null;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, bw, bh);
    ctx.setTransform(dpr * zoom, 0, 0, dpr * zoom, -rect.x * zoom * dpr, -rect.y * zoom * dpr);
    const job: Job = { bmp, zoom, dpr, rect, inner, drawn: 0, steps: this.paintSteps(ctx, rect, zoom, (n) => (job.drawn = n)) };
    this.job = job;
    return job;
  }

  /** The job's bitmap becomes the cache; the old one is kept for the next repaint while the
   * view moves, and its pixels freed once it rests (at most two bitmaps, one at rest). */
  private swap(j: Job) {
    if (this.cache && this.cache.bmp !== j.bmp) {
      free(this.spare ?? undefined);
      this.spare = this.cache.bmp;
    }
    this.cache = { bmp: j.bmp, zoom: j.zoom, dpr: j.dpr, rect: j.rect, inner: j.inner, drawn: j.drawn };
    if (this.job === j) this.job = null;
    clearTimeout(this.spareTimer);
    this.spareTimer = setTimeout(() => {
      free(this.spare ?? undefined);
      this.spare = null;
    }, 2000);
  }

  private spare: HTMLCanvasElement | null = null;
  private spareTimer: ReturnType<typeof setTimeout> | undefined;

  /** `paint` in slices: yields every few hundred elements so a background repaint can stop
   * when its time is up. */
  private *paintSteps(ctx: CanvasRenderingContext2D, view: Rect, zoom: number, done: (drawn: number) => void): Generator<void, void, void> {
    const s = this.scene;
    if (!s) return;
    const p = this.painted(s);
    const visible = this.query(view);
    paintUnderlay(ctx, s, view, zoom);
    const slice = 600;
    for (let from = 0; ; from += slice) {
      const edgesLeft = paintEdges(ctx, p, view, zoom, visible, from, from + slice);
      if (!edgesLeft) break;
      yield;
    }
    for (let from = 0; from < visible.length; from += slice) {
      paintNodes(ctx, p, zoom, visible.slice(from, from + slice));
      yield;
    }
    this.drawnNames = new Set();
    for (let from = 0; from < visible.length; from += 150) {
      paintLabels(ctx, p, zoom, visible.slice(from, from + 150), this.drawnNames);
      yield;
    }
    paintEdgeLabels(ctx, p, view, zoom, visible);
    done(visible.length);
  }

  /** Paints edges, nodes, problem outlines and ids inside `view` (flow coordinates) on a
   * context already transformed to flow coordinates. Returns how many nodes it drew. */
  private paint(ctx: CanvasRenderingContext2D, view: Rect, zoom: number, whole = true): number {
    const s = this.scene;
    if (!s) return 0;
    const p = this.painted(s);
    const visible = this.query(view);
    paintUnderlay(ctx, s, view, zoom);
    paintEdges(ctx, p, view, zoom, visible, 0, Infinity);
    paintNodes(ctx, p, zoom, visible);
    // A part painted again keeps the names drawn elsewhere.
    if (whole) this.drawnNames = new Set();
    paintLabels(ctx, p, zoom, visible, this.drawnNames);
    paintEdgeLabels(ctx, p, view, zoom, visible);
    return visible.length;
  }

  private painted(s: Scene): Painted {
    return { s, off: this.offset, th: this.theme(), routeOf: this.routeOf };
  }
}

/** A painted bitmap: `rect` (flow coordinates) at `zoom`; `inner`, the views it serves
 * without asking for the next one. */
type Bitmap = { bmp: HTMLCanvasElement; zoom: number; dpr: number; rect: Rect; inner: Rect; drawn: number };
type Job = Bitmap & { steps: Generator<void, void, void> };

/** Runs `fn` as a task soon (not clamped like nested timeouts), between frames. */
function postTask(fn: () => void) {
  const ch = new MessageChannel();
  ch.port1.onmessage = () => {
    ch.port1.close();
    fn();
  };
  ch.port2.postMessage(0);
}

/** Releases a canvas's pixels now instead of at the next garbage collection. */
function free(c: HTMLCanvasElement | undefined) {
  if (c) {
    c.width = 0;
    c.height = 0;
  }
}

/** `r` with `f` of its size added on each side. */
function grow(r: Rect, f: number): Rect {
  return { x: r.x - r.w * f, y: r.y - r.h * f, w: r.w * (1 + 2 * f), h: r.h * (1 + 2 * f) };
}

/** The fraction of `r`'s area inside `outer`. */
export function coverage(outer: Rect, r: Rect): number {
  const w = Math.max(0, Math.min(outer.x + outer.w, r.x + r.w) - Math.max(outer.x, r.x));
  const h = Math.max(0, Math.min(outer.y + outer.h, r.y + r.h) - Math.max(outer.y, r.y));
  return r.w > 0 && r.h > 0 ? (w * h) / (r.w * r.h) : 0;
}

function inside(outer: Rect, r: Rect) {
  return r.x >= outer.x && r.y >= outer.y && r.x + r.w <= outer.x + outer.w && r.y + r.h <= outer.y + outer.h;
}

function segmentDistance(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  const t = len2 ? Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / len2)) : 0;
  return Math.hypot(px - (ax + t * dx), py - (ay + t * dy));
}
