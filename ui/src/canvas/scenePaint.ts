// Painting a scene onto a 2D context already transformed to flow coordinates, layer by layer:
// group frames and notes, edges, node bodies, texts, condition labels; and on top, live, the
// selection and the selection box. Nodes being dragged are painted moved by the drag's offset.
import type { EdgeRoute } from "../bindings";
import type { Rect } from "../lib/geometry";
import { configSummary, edgeFont, labelWidth, nodeText } from "./overviewText";
import { type Pt, labelPoint, routePoints, traceRoute } from "./routePath";
import type { Scene } from "./scene";

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

/** The nodes a drag in progress moves (scene places) and by how much (flow units). */
export type DragOffset = { ids: Set<number>; dx: number; dy: number };

/** What a paint reads: the scene, the drag in progress, the colours and the route Rust gave
 * each scene edge (none: the plain curve). */
export type Painted = { s: Scene; off: DragOffset | null; th: Theme; routeOf: (k: number) => EdgeRoute | null };

/** What is drawn live over the cached picture: selected nodes (scene places) and edges (scene
 * edge places), and the selection box. */
export type Live = { selected: Set<number>; selectedEdges: Set<number>; box: Rect | null };

function xOf(p: Painted, i: number) {
  return p.s.x[i] + (p.off?.ids.has(i) ? p.off.dx : 0);
}

function yOf(p: Painted, i: number) {
  return p.s.y[i] + (p.off?.ids.has(i) ? p.off.dy : 0);
}

/** The anchors of scene edge `k`: the middle of its source's right side, of its target's left. */
function anchors(p: Painted, k: number): [Pt, Pt] {
  const s = p.s;
  const a = s.edgeFrom[k];
  const b = s.edgeTo[k];
  return [
    { x: xOf(p, a) + s.w[a], y: yOf(p, a) + s.h[a] / 2 },
    { x: xOf(p, b), y: yOf(p, b) + s.h[b] / 2 },
  ];
}

/** The box a routed edge covers, its label's room included. */
export function routeBox(p: Painted, k: number, r: EdgeRoute): Rect {
  const [a, b] = anchors(p, k);
  const pts = [...routePoints(a, b, r), ...(r.label ? [r.label] : [])];
  const xs = pts.map((q) => q.x);
  const ys = pts.map((q) => q.y);
  const pad = 20 + (r.label ? 160 : 0);
  const x = Math.min(...xs) - pad;
  const y = Math.min(...ys) - pad;
  return { x, y, w: Math.max(...xs) + pad - x, h: Math.max(...ys) + pad - y };
}

/** Group frames and notes in view: filled boxes, outlined, with their title when readable. */
export function paintUnderlay(ctx: CanvasRenderingContext2D, s: Scene, view: Rect, zoom: number) {
  const u = s.underlay;
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

/** Edges with index in [from, to): plain and guarded paths, stroked in chunks (one huge
 * self-crossing path is slow to rasterize in software). Drawn when an end is in view or the
 * segment's box crosses it. Answers whether edges remain past `to`. */
export function paintEdges(
  ctx: CanvasRenderingContext2D,
  p: Painted,
  view: Rect,
  zoom: number,
  visible: number[],
  from: number,
  to: number,
): boolean {
  const s = p.s;
  const th = p.th;
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
      const route = p.routeOf(k);
      if (route) {
        const r = routeBox(p, k, route);
        if (r.x > vx1 || r.x + r.w < view.x || r.y > vy1 || r.y + r.h < view.y) continue;
      } else {
        const ax = xOf(p, a) + s.w[a];
        const bx = xOf(p, b);
        if (Math.max(ax, bx) < view.x || Math.min(ax, bx) > vx1) continue;
        const ay = yOf(p, a) + s.h[a] / 2;
        const by = yOf(p, b) + s.h[b] / 2;
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
      const route = p.routeOf(k);
      if (route) {
        // Along Rust's route: around the columns, between their nodes, over a loop.
        const [sa, tb] = anchors(p, k);
        traceRoute(ctx, sa, tb, route);
      } else {
        const a = s.edgeFrom[k];
        const b = s.edgeTo[k];
        ctx.moveTo(xOf(p, a) + s.w[a], yOf(p, a) + s.h[a] / 2);
        ctx.lineTo(xOf(p, b), yOf(p, b) + s.h[b] / 2);
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
export function paintNodes(ctx: CanvasRenderingContext2D, p: Painted, zoom: number, nodes: number[]) {
  const s = p.s;
  const th = p.th;
  const px = 1 / zoom;
  const x = (i: number) => xOf(p, i);
  const y = (i: number) => yOf(p, i);
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
      for (const i of subgraphs) ctx.rect(x(i) + d, y(i) + d, s.w[i], s.h[i]);
      ctx.fillStyle = th.nodeBg;
      ctx.fill();
      ctx.lineWidth = px;
      ctx.strokeStyle = th.edge;
      ctx.stroke();
    }
  }
  if (detailed) {
    ctx.beginPath();
    for (const idx of buckets.values()) for (const i of idx) ctx.rect(x(i), y(i), s.w[i], s.h[i]);
    ctx.fillStyle = th.nodeBg;
    ctx.fill();
  }
  for (const [color, idx] of buckets) {
    ctx.beginPath();
    for (const i of idx) {
      if (detailed) ctx.rect(x(i), y(i), 10, s.h[i]);
      else ctx.rect(x(i), y(i), s.w[i], s.h[i]);
    }
    ctx.fillStyle = color;
    ctx.fill();
  }
  if (terminals.length) {
    ctx.beginPath();
    for (const i of terminals) {
      const r = s.w[i] / 2;
      ctx.moveTo(x(i) + 2 * r, y(i) + r);
      ctx.arc(x(i) + r, y(i) + r, r, 0, Math.PI * 2);
    }
    ctx.fillStyle = th.terminal;
    ctx.fill();
  }
  outline(ctx, p, nodes, (i) => s.problem[i] === 1, th.warning, 2 * px);
  outline(ctx, p, nodes, (i) => s.problem[i] === 2, th.error, 2.5 * px);
  // A reference that cannot be used: a red corner mark whatever the problem count says.
  const broken = subgraphs.filter((i) => s.subgraph[i] === 2);
  if (broken.length) {
    ctx.beginPath();
    for (const i of broken) {
      const r = Math.min(14, s.h[i] / 3);
      ctx.moveTo(x(i) + s.w[i], y(i));
      ctx.lineTo(x(i) + s.w[i], y(i) + r);
      ctx.lineTo(x(i) + s.w[i] - r, y(i));
      ctx.closePath();
    }
    ctx.fillStyle = th.error;
    ctx.fill();
  }
}

/** Node names whenever they would be at least ~8 px tall on screen (the font grows in
 * flow units as the zoom shrinks, up to what the box holds), then the type, then the config
 * summary as the zoom grows (`nodeText`). */
export function paintLabels(ctx: CanvasRenderingContext2D, p: Painted, zoom: number, nodes: number[], drawn: Set<string>) {
  const s = p.s;
  const lines = nodeText(zoom);
  if (!lines) return;
  ctx.fillStyle = p.th.text;
  ctx.textBaseline = "middle";
  const font = (weight: number, px: number) => `${weight} ${px}px system-ui, sans-serif`;
  ctx.font = font(600, lines.name);
  for (const i of nodes) {
    if (s.color[i] === "terminal") continue;
    ctx.fillText(s.names[i], xOf(p, i) + 16, yOf(p, i) + lines.nameY, s.w[i] - 22);
    drawn.add(s.ids[i]);
  }
  if (lines.type) {
    ctx.font = font(400, lines.type);
    ctx.globalAlpha = 0.75;
    for (const i of nodes) if (s.nodeType[i]) ctx.fillText(s.nodeType[i], xOf(p, i) + 16, yOf(p, i) + lines.typeY, s.w[i] - 22);
    ctx.globalAlpha = 1;
  }
  if (lines.summary) {
    ctx.font = font(400, lines.summary);
    ctx.globalAlpha = 0.6;
    for (const i of nodes) {
      const text = configSummary(s.config[i]);
      if (text) ctx.fillText(text, xOf(p, i) + 16, yOf(p, i) + lines.summaryY, s.w[i] - 22);
    }
    ctx.globalAlpha = 1;
  }
}

/** Condition labels at the middle of their edges, on a plate, when legible (at most a few
 * hundred: beyond that they would cover each other). */
export function paintEdgeLabels(ctx: CanvasRenderingContext2D, p: Painted, view: Rect, zoom: number, visible: number[]) {
  const s = p.s;
  const fe = edgeFont(zoom);
  if (!fe) return;
  const vis = new Uint8Array(s.ids.length);
  for (const i of visible) vis[i] = 1;
  const th = p.th;
  ctx.font = `500 ${fe}px ui-monospace, monospace`;
  ctx.textBaseline = "middle";
  ctx.textAlign = "center";
  let n = 0;
  for (let k = 0; k < s.edgeFrom.length && n < 400; k++) {
    const label = s.edgeLabel[k];
    const a = s.edgeFrom[k];
    const b = s.edgeTo[k];
    if (!label || a < 0 || b < 0 || (!vis[a] && !vis[b] && !p.routeOf(k))) continue;
    const [sa, tb] = anchors(p, k);
    const { x: mx, y: my } = labelPoint(sa, tb, p.routeOf(k));
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

function outline(
  ctx: CanvasRenderingContext2D,
  p: Painted,
  among: Iterable<number>,
  pred: (i: number) => boolean,
  color: string,
  width: number,
) {
  const s = p.s;
  const off = p.off;
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
export function paintOverlays(ctx: CanvasRenderingContext2D, p: Painted, view: Rect, zoom: number, live: Live) {
  const s = p.s;
  const th = p.th;
  const px = 1 / zoom;
  if (live.selectedEdges.size) {
    ctx.beginPath();
    for (const k of live.selectedEdges) {
      const a = s.edgeFrom[k];
      const b = s.edgeTo[k];
      if (a < 0 || b < 0) continue;
      ctx.moveTo(xOf(p, a) + s.w[a], yOf(p, a) + s.h[a] / 2);
      ctx.lineTo(xOf(p, b), yOf(p, b) + s.h[b] / 2);
    }
    ctx.strokeStyle = th.selected;
    ctx.lineWidth = 3 * px;
    ctx.stroke();
  }
  if (live.selected.size) {
    const inView = [...live.selected].filter(
      (i) => s.x[i] < view.x + view.w && s.x[i] + s.w[i] > view.x && s.y[i] < view.y + view.h && s.y[i] + s.h[i] > view.y,
    );
    outline(ctx, p, inView, () => true, th.selected, 3 * px);
  }
  if (live.box) {
    ctx.beginPath();
    ctx.rect(live.box.x, live.box.y, live.box.w, live.box.h);
    ctx.fillStyle = "rgba(80,130,255,0.10)";
    ctx.fill();
    ctx.strokeStyle = th.selected;
    ctx.lineWidth = px;
    ctx.stroke();
  }
}
