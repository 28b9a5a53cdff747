// The zoomed-out drawing: the whole graph on ONE <canvas> (nodes as rectangles, edges as
// lines), redrawn from React Flow's viewport transform. Painting thousands of DOM and SVG
// elements per frame is what makes plain React Flow stall; a few batched canvas paths are cheap
// even where the webview paints in software. Also answers hit tests and box queries, through a
// uniform grid, for the interactions the canvas mode handles itself.
import type { Point } from "../bindings";
import { type Rect, isTerminal, sizeOf } from "../lib/geometry";

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
  index: Map<string, number>;
};

export type SceneInput = {
  order: string[];
  positions: Record<string, Point>;
  color: (id: string) => string;
  problem: (id: string) => 0 | 1 | 2;
  edges: { from: string; to: string; guarded: boolean }[];
};

export function buildScene(inp: SceneInput): Scene {
  const n = inp.order.length;
  const s: Scene = {
    ids: inp.order,
    x: new Float64Array(n),
    y: new Float64Array(n),
    w: new Float64Array(n),
    h: new Float64Array(n),
    color: new Array(n),
    problem: new Uint8Array(n),
    edgeFrom: new Int32Array(inp.edges.length),
    edgeTo: new Int32Array(inp.edges.length),
    guarded: new Uint8Array(inp.edges.length),
    index: new Map(),
  };
  inp.order.forEach((id, i) => {
    const p = inp.positions[id] ?? { x: 0, y: 0 };
    const sz = sizeOf(id);
    s.x[i] = p.x;
    s.y[i] = p.y;
    s.w[i] = sz.w;
    s.h[i] = sz.h;
    s.color[i] = isTerminal(id) ? "terminal" : inp.color(id);
    s.problem[i] = inp.problem(id);
    s.index.set(id, i);
  });
  inp.edges.forEach((e, k) => {
    s.edgeFrom[k] = s.index.get(e.from) ?? -1;
    s.edgeTo[k] = s.index.get(e.to) ?? -1;
    s.guarded[k] = e.guarded ? 1 : 0;
  });
  return s;
}

const CELL = 512;

export type Theme = { edge: string; guarded: string; selected: string; error: string; warning: string; terminal: string; text: string; nodeBg: string };

export class OverviewRenderer {
  private scene: Scene | null = null;
  private grid = new Map<number, number[]>();
  private selected = new Set<number>();
  private offset: { ids: Set<number>; dx: number; dy: number } | null = null;
  private box: Rect | null = null;
  private cache: { bmp: HTMLCanvasElement; zoom: number; rect: Rect; drawn: number } | null = null;
  private settle = 0;
  /** Off: every frame paints the scene (for comparison in benchmarks). */
  useCache = true;
  lastDrawMs = 0;
  lastDrawn = 0;

  constructor(
    private canvas: HTMLCanvasElement,
    private theme: () => Theme,
    private requestDraw: () => void,
  ) {}

  /** The scene or the theme changed: the cached bitmap is stale. */
  invalidate() {
    this.cache = null;
  }

  setScene(scene: Scene) {
    this.scene = scene;
    this.cache = null;
    this.grid.clear();
    for (let i = 0; i < scene.ids.length; i++) {
      const cx0 = Math.floor(scene.x[i] / CELL);
      const cy0 = Math.floor(scene.y[i] / CELL);
      const cx1 = Math.floor((scene.x[i] + scene.w[i]) / CELL);
      const cy1 = Math.floor((scene.y[i] + scene.h[i]) / CELL);
      for (let cx = cx0; cx <= cx1; cx++)
        for (let cy = cy0; cy <= cy1; cy++) {
          const k = key(cx, cy);
          const b = this.grid.get(k);
          if (b) b.push(i);
          else this.grid.set(k, [i]);
        }
    }
  }

  setSelected(ids: readonly string[]) {
    this.selected = new Set(ids.map((id) => this.scene?.index.get(id) ?? -1).filter((i) => i >= 0));
  }

  setDragOffset(ids: readonly string[] | null, dx = 0, dy = 0) {
    if (!ids) this.cache = null; // the drag ended: positions are about to change
    this.offset = ids ? { ids: new Set(ids.map((id) => this.scene?.index.get(id) ?? -1)), dx, dy } : null;
  }

  setBox(r: Rect | null) {
    this.box = r;
  }

  /** Node indices whose box meets the rectangle (flow coordinates), without duplicates. */
  query(r: Rect): number[] {
    const s = this.scene;
    if (!s) return [];
    const out: number[] = [];
    const seen = new Uint8Array(s.ids.length);
    const cx0 = Math.floor(r.x / CELL);
    const cy0 = Math.floor(r.y / CELL);
    const cx1 = Math.floor((r.x + r.w) / CELL);
    const cy1 = Math.floor((r.y + r.h) / CELL);
    // A huge rectangle (zoomed far out): scanning every node is cheaper than every cell.
    if ((cx1 - cx0 + 1) * (cy1 - cy0 + 1) > s.ids.length) {
      for (let i = 0; i < s.ids.length; i++) if (meets(s, i, r)) out.push(i);
      return out;
    }
    for (let cx = cx0; cx <= cx1; cx++)
      for (let cy = cy0; cy <= cy1; cy++) {
        const b = this.grid.get(key(cx, cy));
        if (!b) continue;
        for (const i of b) {
          if (seen[i]) continue;
          seen[i] = 1;
          if (meets(s, i, r)) out.push(i);
        }
      }
    return out;
  }

  countIn(r: Rect): number {
    return this.query(r).length;
  }

  hit(p: Point): string | null {
    const s = this.scene;
    if (!s) return null;
    const found = this.query({ x: p.x - 2, y: p.y - 2, w: 4, h: 4 });
    // The last drawn (topmost) wins.
    return found.length ? s.ids[Math.max(...found)] : null;
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
   * nodes. It is painted again when the view leaves it, when the zoom drifts too far from the
   * bitmap's, and once the zoom settles (so it is sharp again). Selection, the box and a drag
   * in progress are drawn live on top. */
  draw(tx: number, ty: number, zoom: number) {
    const t0 = performance.now();
    const c = this.canvas;
    const dpr = Math.min(2, window.devicePixelRatio || 1);
    const cw = c.clientWidth;
    const ch = c.clientHeight;
    if (c.width !== Math.round(cw * dpr) || c.height !== Math.round(ch * dpr)) {
      c.width = Math.round(cw * dpr);
      c.height = Math.round(ch * dpr);
      this.cache = null;
    }
    const ctx = c.getContext("2d");
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
      let k = this.cache;
      const ratio = k ? zoom / k.zoom : 0;
      if (!k || ratio > 1.6 || ratio < 1 / 1.6 || !inside(k.rect, view)) k = this.renderCache(view, zoom, dpr);
      if (k) {
        const r = zoom / k.zoom;
        ctx.imageSmoothingEnabled = true;
        ctx.drawImage(k.bmp, dpr * (tx + zoom * k.rect.x), dpr * (ty + zoom * k.rect.y), k.bmp.width * r, k.bmp.height * r);
        this.lastDrawn = k.drawn;
        clearTimeout(this.settle);
        if (k.zoom !== zoom) {
          this.settle = window.setTimeout(() => {
            this.cache = null;
            this.requestDraw();
          }, 160);
        }
      }
      ctx.setTransform(dpr * zoom, 0, 0, dpr * zoom, dpr * tx, dpr * ty);
    }
    this.paintOverlays(ctx, view, zoom);
    this.lastDrawMs = performance.now() - t0;
  }

  private renderCache(view: Rect, zoom: number, dpr: number) {
    // Margin around the view, limited so the bitmap stays within 4096 device pixels a side.
    let m = 0.5;
    const maxSide = 4096;
    while (m > 0 && Math.max(view.w, view.h) * (1 + 2 * m) * zoom * dpr > maxSide) m -= 0.1;
    m = Math.max(0, m);
    const rect = { x: view.x - view.w * m, y: view.y - view.h * m, w: view.w * (1 + 2 * m), h: view.h * (1 + 2 * m) };
    const bw = Math.min(maxSide, Math.ceil(rect.w * zoom * dpr));
    const bh = Math.min(maxSide, Math.ceil(rect.h * zoom * dpr));
    const bmp = this.cache?.bmp ?? document.createElement("canvas");
    if (bmp.width !== bw || bmp.height !== bh) {
      bmp.width = bw;
      bmp.height = bh;
    }
    const ctx = bmp.getContext("2d");
    if (!ctx) return null;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, bw, bh);
    ctx.setTransform(dpr * zoom, 0, 0, dpr * zoom, -rect.x * zoom * dpr, -rect.y * zoom * dpr);
    const drawn = this.paint(ctx, rect, zoom);
    this.cache = { bmp, zoom, rect, drawn };
    return this.cache;
  }

  /** Paints edges, nodes, problem outlines and ids inside `view` (flow coordinates) on a
   * context already transformed to flow coordinates. Returns how many nodes it drew. */
  private paint(ctx: CanvasRenderingContext2D, view: Rect, zoom: number): number {
    const s = this.scene;
    if (!s) return 0;
    const th = this.theme();
    const visible = this.query(view);
    const vis = new Uint8Array(s.ids.length);
    for (const i of visible) vis[i] = 1;
    const off = this.offset;
    const X = (i: number) => s.x[i] + (off && off.ids.has(i) ? off.dx : 0);
    const Y = (i: number) => s.y[i] + (off && off.ids.has(i) ? off.dy : 0);

    // Edges: plain and guarded paths, stroked in chunks (one huge self-crossing path is slow
    // to rasterize in software). Drawn when an end is in view or the segment's box crosses it.
    const px = 1 / zoom;
    const vx1 = view.x + view.w;
    const vy1 = view.y + view.h;
    // One device pixel: a hairline, which software rasterizers draw far faster than a stroke.
    const dpr = ctx.getTransform().a / zoom;
    ctx.lineWidth = 1 / (zoom * (dpr || 1));
    for (const guarded of [0, 1]) {
      ctx.strokeStyle = guarded ? th.guarded : th.edge;
      let n = 0;
      ctx.beginPath();
      for (let k = 0; k < s.edgeFrom.length; k++) {
        if (s.guarded[k] !== guarded) continue;
        const a = s.edgeFrom[k];
        const b = s.edgeTo[k];
        if (a < 0 || b < 0) continue;
        const ax = X(a) + s.w[a];
        const ay = Y(a) + s.h[a] / 2;
        const bx = X(b);
        const by = Y(b) + s.h[b] / 2;
        if (!vis[a] && !vis[b] && (Math.max(ax, bx) < view.x || Math.min(ax, bx) > vx1 || Math.max(ay, by) < view.y || Math.min(ay, by) > vy1)) continue;
        ctx.moveTo(ax, ay);
        ctx.lineTo(bx, by);
        if (++n % 256 === 0) {
          ctx.stroke();
          ctx.beginPath();
        }
      }
      ctx.stroke();
    }

    // Node bodies by colour bucket (few fill calls); when big enough, a card with a colour bar.
    const buckets = new Map<string, number[]>();
    const terminals: number[] = [];
    for (const i of visible) {
      if (s.color[i] === "terminal") {
        terminals.push(i);
        continue;
      }
      const b = buckets.get(s.color[i]);
      if (b) b.push(i);
      else buckets.set(s.color[i], [i]);
    }
    const detailed = zoom * 60 >= 10;
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
    ctx.beginPath();
    for (const i of terminals) {
      const r = s.w[i] / 2;
      ctx.moveTo(X(i) + 2 * r, Y(i) + r);
      ctx.arc(X(i) + r, Y(i) + r, r, 0, Math.PI * 2);
    }
    ctx.fillStyle = th.terminal;
    ctx.fill();

    this.outline(ctx, visible, (i) => s.problem[i] === 1, th.warning, 2 * px);
    this.outline(ctx, visible, (i) => s.problem[i] === 2, th.error, 2.5 * px);

    // Ids, only when they would be legible and few enough to stay cheap.
    if (zoom >= 0.3 && visible.length <= 600) {
      ctx.fillStyle = th.text;
      ctx.font = "600 15px system-ui, sans-serif";
      ctx.textBaseline = "middle";
      for (const i of visible) if (s.color[i] !== "terminal") ctx.fillText(s.ids[i], X(i) + 18, Y(i) + s.h[i] / 2, s.w[i] - 24);
    }
    return visible.length;
  }

  private outline(ctx: CanvasRenderingContext2D, among: Iterable<number>, pred: (i: number) => boolean, color: string, width: number) {
    const s = this.scene;
    if (!s) return;
    const off = this.offset;
    ctx.beginPath();
    let any = false;
    for (const i of among)
      if (pred(i)) {
        const dx = off && off.ids.has(i) ? off.dx : 0;
        const dy = off && off.ids.has(i) ? off.dy : 0;
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
    if (this.selected.size) {
      const inView = [...this.selected].filter((i) => s.x[i] < view.x + view.w && s.x[i] + s.w[i] > view.x && s.y[i] < view.y + view.h && s.y[i] + s.h[i] > view.y);
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

function inside(outer: Rect, r: Rect) {
  return r.x >= outer.x && r.y >= outer.y && r.x + r.w <= outer.x + outer.w && r.y + r.h <= outer.y + outer.h;
}

function key(cx: number, cy: number) {
  return cx * 1000003 + cy;
}

function meets(s: Scene, i: number, r: Rect) {
  return s.x[i] < r.x + r.w && s.x[i] + s.w[i] > r.x && s.y[i] < r.y + r.h && s.y[i] + s.h[i] > r.y;
}
