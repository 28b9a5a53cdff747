// The zoomed-out drawing: the whole graph on ONE <canvas> (nodes as rectangles, edges as
// lines), redrawn from React Flow's viewport transform. Painting thousands of DOM and SVG
// elements per frame is what makes plain React Flow stall; a few batched canvas paths are cheap
// even where the webview paints in software. Also answers hit tests and box queries, through a
// uniform grid, for the interactions the canvas mode handles itself.
import type { DocumentView, EdgeRoute, Point } from "../bindings";
import { NODE_H, NODE_W, type Rect, TERMINAL, isTerminal } from "../lib/geometry";
import { configSummary, edgeFont, labelWidth, nodeText } from "./overviewText";
import { timed, traceMark } from "../perf/editTrace";
import { sceneChanges, union } from "./sceneChanges";
import { sceneQuery } from "./sceneIndex";
import type { NodeIndex } from "./nodeIndex";
import { labelPoint, routePoints, traceRoute } from "./routePath";

export { edgeFont, nodeText };

export type Scene = {
  ids: string[];
  x: Float64Array;
  y: Float64Array;
  w: Float64Array;
  h: Float64Array;
  color: string[];
  problem: Uint8Array; // 0 none, 1 warning, 2 error
  edgeFrom: Int32Array;
  edgeTo: Int32Array;
  guarded: Uint8Array;
  /** Drawn dashed (a GRAPH.md judge's fallback route). */
  dashed: Uint8Array;
  /** The document edge each drawn edge is (-1: drawn only, never selected). */
  edgeIndex: Int32Array;
  /** Each edge's label ("" for none). */
  edgeLabel: string[];
  /** The document's object each edge stands for, when there is one (to tell after an edit
   * which edges are still the same, `sceneChanges.ts`). */
  edgeRef: (object | undefined)[];
  /** Per node: its type ("" for none) and its config (its summary: `configSummary`), drawn
   * as the zoom grows. */
  nodeType: string[];
  config: unknown[];
  /** The name drawn on each node (its id; a collapsed group's box: the group's name). */
  names: string[];
  /** Per node: 0 a plain node, 1 a subgraph node, 2 one whose reference cannot be used. */
  subgraph: Uint8Array;
  index: NodeIndex;
  /** Drawn under everything, into the cached bitmap: group frames and notes (issue 16). */
  underlay: Underlay[];
};

/** A group frame (a title bar in `line` with `title`) or a note (its first line as `title`). */
export type Underlay = { kind: "frame" | "note"; x: number; y: number; w: number; h: number; fill: string; line: string; title: string };

export type SceneInput = {
  order: string[];
  positions: Record<string, Point>;
  /** `at`: as for `type`. */
  color: (id: string, at?: number) => string;
  problem: (id: string) => 0 | 1 | 2;
  edges: { from: string; to: string; guarded: boolean; label?: string; dashed?: boolean; index?: number; ref?: object }[];
  /** `at`: the node's place in `order` (lets the input find the node without a lookup). */
  type?: (id: string, at?: number) => string;
  config?: (id: string, at?: number) => unknown;
  name?: (id: string) => string;
  subgraph?: (id: string) => 0 | 1 | 2;
  underlay?: Underlay[];
};

/** The lists of a scene that hold strings or objects (a patch gives them already copied). */
export type SceneLists = Pick<Scene, "color" | "nodeType" | "config" | "names" | "edgeLabel" | "edgeRef">;

/** A scene of `n` nodes and `m` edges, every field still to be filled (`lists`: but those). */
export function emptyScene(ids: string[], m: number, underlay: Underlay[], lists?: SceneLists): Scene {
  const n = ids.length;
  return {
    ids,
    x: new Float64Array(n),
    y: new Float64Array(n),
    w: new Float64Array(n),
    h: new Float64Array(n),
    color: lists?.color ?? new Array(n),
    problem: new Uint8Array(n),
    edgeFrom: new Int32Array(m),
    edgeTo: new Int32Array(m),
    guarded: new Uint8Array(m),
    dashed: new Uint8Array(m),
    edgeIndex: new Int32Array(m),
    edgeLabel: lists?.edgeLabel ?? new Array(m),
    edgeRef: lists?.edgeRef ?? new Array(m),
    nodeType: lists?.nodeType ?? new Array(n),
    config: lists?.config ?? new Array(n),
    names: lists?.names ?? new Array(n),
    subgraph: new Uint8Array(n),
    index: new Map(),
    underlay,
  };
}

/** Node `i` of the scene (`s.ids[i]`), from the input: where it is and what it shows. */
export function fillNode(s: Scene, i: number, inp: SceneInput) {
  const id = s.ids[i];
  const p = inp.positions[id] ?? ORIGIN;
  const terminal = isTerminal(id);
  s.x[i] = p.x;
  s.y[i] = p.y;
  s.w[i] = terminal ? TERMINAL : NODE_W;
  s.h[i] = terminal ? TERMINAL : NODE_H;
  s.problem[i] = inp.problem(id);
  s.names[i] = inp.name?.(id) ?? id;
  // A terminal is drawn as a circle, with no type or config (and is no node to look up: the
  // input would search the node list for it).
  s.color[i] = terminal ? "terminal" : inp.color(id, i);
  s.nodeType[i] = terminal ? "" : (inp.type?.(id, i) ?? "");
  s.config[i] = terminal ? undefined : inp.config?.(id, i);
  s.subgraph[i] = terminal ? 0 : (inp.subgraph?.(id) ?? 0);
}

/** Edge `k` of the scene, its ends found in the scene's index. */
export function fillEdge(s: Scene, k: number, e: SceneInput["edges"][number]) {
  s.edgeFrom[k] = s.index.get(e.from) ?? -1;
  s.edgeTo[k] = s.index.get(e.to) ?? -1;
  s.guarded[k] = e.guarded || e.label ? 1 : 0;
  s.dashed[k] = e.dashed ? 1 : 0;
  s.edgeIndex[k] = e.index ?? k;
  s.edgeLabel[k] = e.label ?? "";
  s.edgeRef[k] = e.ref;
}

const ORIGIN = { x: 0, y: 0 };

export function buildScene(inp: SceneInput): Scene {
  const s = emptyScene(inp.order, inp.edges.length, inp.underlay ?? []);
  const index = new Map<string, number>();
  for (let i = 0; i < s.ids.length; i++) {
    fillNode(s, i, inp);
    index.set(s.ids[i], i);
  }
  s.index = index;
  for (let k = 0; k < inp.edges.length; k++) fillEdge(s, k, inp.edges[k]);
  return s;
}

// Both canvases raster on the CPU (`willReadFrequently`): where WebKit composites through
// software GL (llvmpipe under Xvfb, no GPU) an accelerated canvas defers its raster into the
// frames and costs more per frame than a CPU bitmap (WebKitGTK 2.50, 5,000 nodes: zoom p95
// 102-131 ms accelerated vs 29 ms CPU, pan p95 41-47 vs 29 ms); without compositing both are
// CPU anyway. `?gpucanvas=1` asks for accelerated canvases again (to compare).
const gpu = typeof location !== "undefined" && new URLSearchParams(location.search).get("gpucanvas") === "1";
const CPU_BITMAP: CanvasRenderingContext2DSettings | undefined = gpu ? undefined : { willReadFrequently: true };
const CPU_SCREEN = CPU_BITMAP;

export type Theme = {
  edge: string;
  guarded: string;
  selected: string;
  error: string;
  warning: string;
  terminal: string;
  text: string;
  nodeBg: string;
};

export class OverviewRenderer {
  private scene: Scene | null = null;
  private selected = new Set<number>();
  private offset: { ids: Set<number>; dx: number; dy: number } | null = null;
  private box: Rect | null = null;
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
      for (const r of [before.doc[i], this.routes.doc[i]]) if (r) places.push(this.routeBox(e, r));
    }
    if (places.length > 400) this.dropCache();
    else if (places.length) this.repaintPlaces(k, places);
  }

  /** The route of scene edge `k`, if Rust gave it one. */
  private routeOf(k: number): EdgeRoute | null {
    const s = this.scene as Scene;
    const i = s.edgeIndex[k];
    if (i >= 0) return this.routes.doc[i] ?? null;
    const ref = s.edgeRef[k];
    return ref ? (this.routes.extra.get(ref) ?? null) : null;
  }

  /** The anchors of scene edge `k`: the middle of its source's right side, of its target's left. */
  private anchors(k: number): [Point, Point] {
    const s = this.scene as Scene;
    const a = s.edgeFrom[k];
    const b = s.edgeTo[k];
    return [
      { x: this.X(a) + s.w[a], y: this.Y(a) + s.h[a] / 2 },
      { x: this.X(b), y: this.Y(b) + s.h[b] / 2 },
    ];
  }

  /** The box a routed edge covers, its label's room included. */
  private routeBox(k: number, r: EdgeRoute): Rect {
    const [a, b] = this.anchors(k);
    const pts = [...routePoints(a, b, r), ...(r.label ? [r.label] : [])];
    const xs = pts.map((p) => p.x);
    const ys = pts.map((p) => p.y);
    const pad = 20 + (r.label ? 160 : 0);
    const x = Math.min(...xs) - pad;
    const y = Math.min(...ys) - pad;
    return { x, y, w: Math.max(...xs) + pad - x, h: Math.max(...ys) + pad - y };
  }

  private selectedEdges = new Set<number>();
  /** Node ids whose names the current drawing shows (what the end-to-end test reads). */
  drawnNames = new Set<string>();

  /** Document edge indices to draw selected. */
  setSelectedEdges(indices: readonly number[]) {
    const want = new Set(indices);
    this.selectedEdges = new Set();
    const s = this.scene;
    if (s) for (let k = 0; k < s.edgeIndex.length; k++) if (want.has(s.edgeIndex[k])) this.selectedEdges.add(k);
  }

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
    this.paintOverlays(ctx, view, zoom);
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
    const visible = this.query(view);
    this.paintUnderlay(ctx, view, zoom);
    const slice = 600;
    for (let from = 0; ; from += slice) {
      const edgesLeft = this.paintEdges(ctx, view, zoom, visible, from, from + slice);
      if (!edgesLeft) break;
      yield;
    }
    for (let from = 0; from < visible.length; from += slice) {
      this.paintNodes(ctx, zoom, visible.slice(from, from + slice));
      yield;
    }
    this.drawnNames = new Set();
    for (let from = 0; from < visible.length; from += 150) {
      this.paintLabels(ctx, zoom, visible.slice(from, from + 150));
      yield;
    }
    this.paintEdgeLabels(ctx, view, zoom, visible);
    done(visible.length);
  }

  /** Paints edges, nodes, problem outlines and ids inside `view` (flow coordinates) on a
   * context already transformed to flow coordinates. Returns how many nodes it drew. */
  private paint(ctx: CanvasRenderingContext2D, view: Rect, zoom: number, whole = true): number {
    if (!this.scene) return 0;
    const visible = this.query(view);
    this.paintUnderlay(ctx, view, zoom);
    this.paintEdges(ctx, view, zoom, visible, 0, Infinity);
    this.paintNodes(ctx, zoom, visible);
    // A part painted again keeps the names drawn elsewhere.
    if (whole) this.drawnNames = new Set();
    this.paintLabels(ctx, zoom, visible);
    this.paintEdgeLabels(ctx, view, zoom, visible);
    return visible.length;
  }

  /** Group frames and notes in view: filled boxes, outlined, with their title when readable. */
  private paintUnderlay(ctx: CanvasRenderingContext2D, view: Rect, zoom: number) {
    const u = this.scene?.underlay;
    if (!u?.length) return;
    const px = 1 / zoom;
    const vx1 = view.x + view.w;
    const vy1 = view.y + view.h;
    const font = Math.min(40, Math.max(13, 9 / zoom));
    const readable = font * zoom >= 8;
    for (const r of u) {
      if (r.x > vx1 || r.y > vy1 || r.x + r.w < view.x || r.y + r.h < view.y) continue;
      ctx.fillStyle = r.fill;
      ctx.fillRect(r.x, r.y, r.w, r.h);
      ctx.strokeStyle = r.line;
      ctx.lineWidth = (r.kind === "frame" ? 2 : 1) * px;
      ctx.strokeRect(r.x, r.y, r.w, r.h);
      const bar = r.kind === "frame" ? Math.max(26, font * 1.4) : 0;
      if (bar) {
        ctx.fillStyle = r.line;
        ctx.fillRect(r.x, r.y, r.w, Math.min(bar, r.h));
      }
      if (readable && r.title) {
        ctx.fillStyle = r.kind === "frame" ? "#ffffff" : "#1f2937";
        ctx.font = `600 ${font}px system-ui, sans-serif`;
        ctx.fillText(r.title, r.x + 8, r.y + (bar ? bar * 0.72 : font + 6), Math.max(0, r.w - 16));
      }
    }
  }

  private X(i: number) {
    const off = this.offset;
    return (this.scene as Scene).x[i] + (off?.ids.has(i) ? off.dx : 0);
  }

  private Y(i: number) {
    const off = this.offset;
    return (this.scene as Scene).y[i] + (off?.ids.has(i) ? off.dy : 0);
  }

  /** Edges with index in [from, to): plain and guarded paths, stroked in chunks (one huge
   * self-crossing path is slow to rasterize in software). Drawn when an end is in view or the
   * segment's box crosses it. Answers whether edges remain past `to`. */
  private paintEdges(ctx: CanvasRenderingContext2D, view: Rect, zoom: number, visible: number[], from: number, to: number): boolean {
    const s = this.scene;
    if (!s) return false;
    const th = this.theme();
    const vis = new Uint8Array(s.ids.length);
    for (const i of visible) vis[i] = 1;
    const vx1 = view.x + view.w;
    const vy1 = view.y + view.h;
    const end = Math.min(to, s.edgeFrom.length);
    // One device pixel: a hairline, which software rasterizers draw far faster than a stroke.
    const dpr = ctx.getTransform().a / zoom;
    ctx.lineWidth = 1 / (zoom * (dpr || 1));
    // The edges in view, found in one walk over them (a repaint after an edit looks at every
    // edge once, not once per style), by style: 0 plain, 1 guarded or labelled, 2 dashed
    // (drawn-only routes such as a fallback).
    const byPass: number[][] = [[], [], []];
    for (let k = from; k < end; k++) {
      const a = s.edgeFrom[k];
      const b = s.edgeTo[k];
      if (a < 0 || b < 0) continue;
      if (!vis[a] && !vis[b]) {
        const route = this.routeOf(k);
        if (route) {
          const r = this.routeBox(k, route);
          if (r.x > vx1 || r.x + r.w < view.x || r.y > vy1 || r.y + r.h < view.y) continue;
        } else {
          const ax = this.X(a) + s.w[a];
          const bx = this.X(b);
          if (Math.max(ax, bx) < view.x || Math.min(ax, bx) > vx1) continue;
          const ay = this.Y(a) + s.h[a] / 2;
          const by = this.Y(b) + s.h[b] / 2;
          if (Math.max(ay, by) < view.y || Math.min(ay, by) > vy1) continue;
        }
      }
      byPass[s.dashed[k] ? 2 : s.guarded[k] ? 1 : 0].push(k);
    }
    for (const pass of [0, 1, 2]) {
      ctx.strokeStyle = pass === 0 ? th.edge : th.guarded;
      ctx.setLineDash(pass === 2 ? [6 / zoom, 4 / zoom] : []);
      let n = 0;
      ctx.beginPath();
      for (const k of byPass[pass]) {
        const a = s.edgeFrom[k];
        const b = s.edgeTo[k];
        const route = this.routeOf(k);
        if (route) {
          // Along Rust's route: around the columns, between their nodes, over a loop.
          const [sa, tb] = this.anchors(k);
          traceRoute(ctx, sa, tb, route);
        } else {
          ctx.moveTo(this.X(a) + s.w[a], this.Y(a) + s.h[a] / 2);
          ctx.lineTo(this.X(b), this.Y(b) + s.h[b] / 2);
        }
        if (++n % 256 === 0) {
          ctx.stroke();
          ctx.beginPath();
        }
      }
      ctx.stroke();
    }
    ctx.setLineDash([]);
    return end < s.edgeFrom.length;
  }

  /** Node bodies by colour bucket (few fill calls); when big enough, a card with a colour
   * bar; then the problem outlines. */
  private paintNodes(ctx: CanvasRenderingContext2D, zoom: number, nodes: number[]) {
    const s = this.scene;
    if (!s) return;
    const th = this.theme();
    const px = 1 / zoom;
    const X = (i: number) => this.X(i);
    const Y = (i: number) => this.Y(i);
    const buckets = new Map<string, number[]>();
    const terminals: number[] = [];
    for (const i of nodes) {
      if (s.color[i] === "terminal") {
        terminals.push(i);
        continue;
      }
      const b = buckets.get(s.color[i]);
      if (b) b.push(i);
      else buckets.set(s.color[i], [i]);
    }
    const detailed = zoom * 60 >= 10;
    const subgraphs = nodes.filter((i) => s.subgraph[i]);
    if (subgraphs.length) {
      // Subgraph nodes: two cards stacked behind the node (another graph inside).
      for (const d of [6, 3]) {
        ctx.beginPath();
        for (const i of subgraphs) ctx.rect(X(i) + d, Y(i) + d, s.w[i], s.h[i]);
        ctx.fillStyle = th.nodeBg;
        ctx.fill();
        ctx.lineWidth = px;
        ctx.strokeStyle = th.edge;
        ctx.stroke();
      }
    }
    if (detailed) {
      ctx.beginPath();
      for (const idx of buckets.values()) for (const i of idx) ctx.rect(X(i), Y(i), s.w[i], s.h[i]);
      ctx.fillStyle = th.nodeBg;
      ctx.fill();
    }
    for (const [color, idx] of buckets) {
      ctx.beginPath();
      for (const i of idx) {
        if (detailed) ctx.rect(X(i), Y(i), 10, s.h[i]);
        else ctx.rect(X(i), Y(i), s.w[i], s.h[i]);
      }
      ctx.fillStyle = color;
      ctx.fill();
    }
    if (terminals.length) {
      ctx.beginPath();
      for (const i of terminals) {
        const r = s.w[i] / 2;
        ctx.moveTo(X(i) + 2 * r, Y(i) + r);
        ctx.arc(X(i) + r, Y(i) + r, r, 0, Math.PI * 2);
      }
      ctx.fillStyle = th.terminal;
      ctx.fill();
    }
    this.outline(ctx, nodes, (i) => s.problem[i] === 1, th.warning, 2 * px);
    this.outline(ctx, nodes, (i) => s.problem[i] === 2, th.error, 2.5 * px);
    // A reference that cannot be used: a red corner mark whatever the problem count says.
    const broken = subgraphs.filter((i) => s.subgraph[i] === 2);
    if (broken.length) {
      ctx.beginPath();
      for (const i of broken) {
        const r = Math.min(14, s.h[i] / 3);
        ctx.moveTo(X(i) + s.w[i], Y(i));
        ctx.lineTo(X(i) + s.w[i], Y(i) + r);
        ctx.lineTo(X(i) + s.w[i] - r, Y(i));
        ctx.closePath();
      }
      ctx.fillStyle = th.error;
      ctx.fill();
    }
  }

  /** Node names whenever they would be at least ~8 px tall on screen (the font grows in
   * flow units as the zoom shrinks, up to what the box holds), then the type, then the config
   * summary as the zoom grows (`nodeText`). */
  private paintLabels(ctx: CanvasRenderingContext2D, zoom: number, nodes: number[]) {
    const s = this.scene;
    const lines = nodeText(zoom);
    if (!s || !lines) return;
    ctx.fillStyle = this.theme().text;
    ctx.textBaseline = "middle";
    const drawn = this.drawnNames;
    const font = (weight: number, px: number) => `${weight} ${px}px system-ui, sans-serif`;
    ctx.font = font(600, lines.name);
    for (const i of nodes) {
      if (s.color[i] === "terminal") continue;
      ctx.fillText(s.names[i], this.X(i) + 16, this.Y(i) + lines.nameY, s.w[i] - 22);
      drawn.add(s.ids[i]);
    }
    if (lines.type) {
      ctx.font = font(400, lines.type);
      ctx.globalAlpha = 0.75;
      for (const i of nodes) if (s.nodeType[i]) ctx.fillText(s.nodeType[i], this.X(i) + 16, this.Y(i) + lines.typeY, s.w[i] - 22);
      ctx.globalAlpha = 1;
    }
    if (lines.summary) {
      ctx.font = font(400, lines.summary);
      ctx.globalAlpha = 0.6;
      for (const i of nodes) {
        const text = configSummary(s.config[i]);
        if (text) ctx.fillText(text, this.X(i) + 16, this.Y(i) + lines.summaryY, s.w[i] - 22);
      }
      ctx.globalAlpha = 1;
    }
  }

  /** Condition labels at the middle of their edges, on a plate, when legible (at most a few
   * hundred: beyond that they would cover each other). */
  private paintEdgeLabels(ctx: CanvasRenderingContext2D, view: Rect, zoom: number, visible: number[]) {
    const s = this.scene;
    const fe = edgeFont(zoom);
    if (!s || !fe) return;
    const vis = new Uint8Array(s.ids.length);
    for (const i of visible) vis[i] = 1;
    const th = this.theme();
    ctx.font = `500 ${fe}px ui-monospace, monospace`;
    ctx.textBaseline = "middle";
    ctx.textAlign = "center";
    let n = 0;
    for (let k = 0; k < s.edgeFrom.length && n < 400; k++) {
      const label = s.edgeLabel[k];
      const a = s.edgeFrom[k];
      const b = s.edgeTo[k];
      if (!label || a < 0 || b < 0 || (!vis[a] && !vis[b] && !this.routeOf(k))) continue;
      const [sa, tb] = this.anchors(k);
      const { x: mx, y: my } = labelPoint(sa, tb, this.routeOf(k));
      if (mx < view.x || mx > view.x + view.w || my < view.y || my > view.y + view.h) continue;
      const text = label.length > 40 ? `${label.slice(0, 39)}…` : label;
      const w = labelWidth(text, fe);
      ctx.fillStyle = th.nodeBg;
      ctx.fillRect(mx - w / 2 - 3, my - fe * 0.7, w + 6, fe * 1.4);
      ctx.fillStyle = th.text;
      ctx.fillText(text, mx, my, w);
      n++;
    }
    ctx.textAlign = "start";
  }

  private outline(ctx: CanvasRenderingContext2D, among: Iterable<number>, pred: (i: number) => boolean, color: string, width: number) {
    const s = this.scene;
    if (!s) return;
    const off = this.offset;
    ctx.beginPath();
    let any = false;
    for (const i of among)
      if (pred(i)) {
        const dx = off?.ids.has(i) ? off.dx : 0;
        const dy = off?.ids.has(i) ? off.dy : 0;
        ctx.rect(s.x[i] + dx, s.y[i] + dy, s.w[i], s.h[i]);
        any = true;
      }
    if (!any) return;
    ctx.strokeStyle = color;
    ctx.lineWidth = width;
    ctx.stroke();
  }

  /** Selection outlines and the selection box: live, on top of the (cached) scene. */
  private paintOverlays(ctx: CanvasRenderingContext2D, view: Rect, zoom: number) {
    const s = this.scene;
    if (!s) return;
    const th = this.theme();
    const px = 1 / zoom;
    if (this.selectedEdges.size) {
      ctx.beginPath();
      for (const k of this.selectedEdges) {
        const a = s.edgeFrom[k];
        const b = s.edgeTo[k];
        if (a < 0 || b < 0) continue;
        ctx.moveTo(this.X(a) + s.w[a], this.Y(a) + s.h[a] / 2);
        ctx.lineTo(this.X(b), this.Y(b) + s.h[b] / 2);
      }
      ctx.strokeStyle = th.selected;
      ctx.lineWidth = 3 * px;
      ctx.stroke();
    }
    if (this.selected.size) {
      const inView = [...this.selected].filter(
        (i) => s.x[i] < view.x + view.w && s.x[i] + s.w[i] > view.x && s.y[i] < view.y + view.h && s.y[i] + s.h[i] > view.y,
      );
      this.outline(ctx, inView, () => true, th.selected, 3 * px);
    }
    if (this.box) {
      ctx.beginPath();
      ctx.rect(this.box.x, this.box.y, this.box.w, this.box.h);
      ctx.fillStyle = "rgba(80,130,255,0.10)";
      ctx.fill();
      ctx.strokeStyle = th.selected;
      ctx.lineWidth = px;
      ctx.stroke();
    }
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
