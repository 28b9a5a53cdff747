// Node sizes and positions shared by the DOM nodes, the overview canvas and the minimap, so
// all three agree on where a node is. Rust's automatic layout uses the same sizes
// (crates/doc/src/auto_layout.rs: NODE, TERMINAL): change both together.
import type { GraphSpec, Point } from "../bindings";
import { END, START } from "./ids";

export const NODE_W = 200;
export const NODE_H = 60;
export const TERMINAL = 44;

export function isTerminal(id: string): boolean {
  return id === START || id === END;
}

export function sizeOf(id: string): { w: number; h: number } {
  return isTerminal(id) ? { w: TERMINAL, h: TERMINAL } : { w: NODE_W, h: NODE_H };
}

/** The terminals the canvas draws. Both, always: a GraphSpec's entry edges leave `__start__`,
 * and an empty document still needs the handles to draw its first edge from `__start__` and its
 * last one into `__end__` (an unconnected `__end__` is harmless: it is implicit in the model). */
export function terminalsInUse(_spec: GraphSpec): string[] {
  return [START, END];
}

/** The results of `resolvePositions` in which every node has its stored position (no
 * fallback): a node's place there depends on that node alone (the overview scene patches
 * them node by node after an edit). */
const allStored = new WeakSet<Record<string, Point>>();

export function everyNodeStored(resolved: Record<string, Point>): boolean {
  return allStored.has(resolved);
}

export function isPlaced(p: Point | undefined): p is Point {
  return !!p && Number.isFinite(p.x) && Number.isFinite(p.y);
}

/** Stored positions known to place exactly the nodes of a node list (that very array) and both
 * terminals: found by `storesExactly`, or carried along an edit's delta (`api/delta.ts`), which
 * knows it from what the edit changed without looking at every node. */
const exactFor = new WeakMap<Record<string, Point>, GraphSpec["nodes"]>();

export function knownExact(stored: Record<string, Point>, nodes: GraphSpec["nodes"]): boolean {
  return exactFor.get(stored) === nodes;
}

/** Records that `stored` places exactly `nodes` and both terminals (the caller has made sure). */
export function markExact(stored: Record<string, Point>, nodes: GraphSpec["nodes"]) {
  exactFor.set(stored, nodes);
}

/** Whether `stored` holds a place for every node and both terminals, and nothing else: then
 * it is its own resolution. The usual case (Rust lays out what it opens and places what an
 * edit adds), and the one that matters: a large graph's edit would otherwise copy every
 * position into a new object. */
function storesExactly(spec: GraphSpec, stored: Record<string, Point>): boolean {
  let keys = 0;
  for (const _ in stored) keys++;
  // Duplicate node ids, or a node named like a terminal, miss the count: the slow path.
  if (keys !== spec.nodes.length + 2) return false;
  for (const n of spec.nodes) if (!isPlaced(stored[n.id])) return false;
  return isPlaced(stored[START]) && isPlaced(stored[END]);
}

/** Every drawn element's position: stored ones, and a fallback for any node the layout does
 * not place yet (a grid below the placed ones; terminals beside their neighbours). The answer
 * is not to be changed: it may be `stored` itself. */
export function resolvePositions(spec: GraphSpec, stored: Record<string, Point>): Record<string, Point> {
  if (knownExact(stored, spec.nodes) || storesExactly(spec, stored)) {
    markExact(stored, spec.nodes);
    allStored.add(stored);
    return stored;
  }
  const out: Record<string, Point> = {};
  let maxY = 0;
  let minX = Infinity;
  let maxX = -Infinity;
  let any = false;
  let placed = 0;
  for (const n of spec.nodes) {
    const p = stored[n.id];
    if (isPlaced(p)) {
      out[n.id] = p;
      any = true;
      placed++;
      maxY = Math.max(maxY, p.y + NODE_H);
      minX = Math.min(minX, p.x);
      maxX = Math.max(maxX, p.x + NODE_W);
    }
  }
  const cols = Math.max(1, Math.ceil(Math.sqrt(spec.nodes.length)));
  let k = 0;
  const baseY = any ? maxY + 80 : 0;
  for (const n of spec.nodes) {
    if (out[n.id]) continue;
    out[n.id] = { x: (k % cols) * (NODE_W + 60), y: baseY + Math.floor(k / cols) * (NODE_H + 60) };
    k++;
    minX = Math.min(minX, out[n.id].x);
    maxX = Math.max(maxX, out[n.id].x + NODE_W);
  }
  if (!Number.isFinite(minX)) {
    minX = 0;
    maxX = NODE_W;
  }
  for (const t of terminalsInUse(spec)) {
    const p = stored[t];
    if (isPlaced(p)) {
      out[t] = p;
      continue;
    }
    // Beside the average of its neighbours: left of them for __start__, right for __end__.
    let sy = 0;
    let c = 0;
    let ex = t === START ? Infinity : -Infinity;
    for (const e of spec.edges) {
      const other = e.from === t ? e.to : e.to === t ? e.from : null;
      const q = other ? out[other] : undefined;
      if (!q) continue;
      sy += q.y;
      c++;
      ex = t === START ? Math.min(ex, q.x) : Math.max(ex, q.x + NODE_W);
    }
    const y = c ? sy / c + (NODE_H - TERMINAL) / 2 : 0;
    out[t] = t === START ? { x: (Number.isFinite(ex) ? ex : minX) - 120, y } : { x: (Number.isFinite(ex) ? ex : maxX) + 76, y };
  }
  if (placed === spec.nodes.length) allStored.add(out);
  return out;
}

export type Rect = { x: number; y: number; w: number; h: number };

export function boundsOf(positions: Record<string, Point>): Rect | null {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  // `for in` and no size object per node: every node of a large graph, at each fit and open.
  for (const id in positions) {
    const p = positions[id];
    const side = isTerminal(id) ? TERMINAL : 0;
    if (p.x < x0) x0 = p.x;
    if (p.y < y0) y0 = p.y;
    const r = p.x + (side || NODE_W);
    const b = p.y + (side || NODE_H);
    if (r > x1) x1 = r;
    if (b > y1) y1 = b;
  }
  return Number.isFinite(x0) ? { x: x0, y: y0, w: x1 - x0, h: y1 - y0 } : null;
}

/** Pairs of ids whose boxes overlap (touching edges do not count). A uniform grid keeps this
 * near linear on large graphs. */
export function overlappingPairs(positions: Record<string, Point>): [string, string][] {
  const cell = 256;
  const grid = new Map<string, string[]>();
  const out: [string, string][] = [];
  const ids = Object.keys(positions);
  for (const id of ids) {
    const p = positions[id];
    const s = sizeOf(id);
    const cx0 = Math.floor(p.x / cell);
    const cy0 = Math.floor(p.y / cell);
    const cx1 = Math.floor((p.x + s.w) / cell);
    const cy1 = Math.floor((p.y + s.h) / cell);
    const seen = new Set<string>();
    for (let cx = cx0; cx <= cx1; cx++) {
      for (let cy = cy0; cy <= cy1; cy++) {
        const key = `${cx},${cy}`;
        const bucket = grid.get(key) ?? [];
        for (const other of bucket) {
          if (seen.has(other)) continue;
          seen.add(other);
          const q = positions[other];
          const t = sizeOf(other);
          if (p.x < q.x + t.w && q.x < p.x + s.w && p.y < q.y + t.h && q.y < p.y + s.h) out.push([other, id]);
        }
        bucket.push(id);
        grid.set(key, bucket);
      }
    }
  }
  return out;
}
