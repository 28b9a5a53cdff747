// Where a scene's nodes are: a uniform grid of node indices, built once per scene (kept
// beside it) and shared by whoever asks (the overview renderer's hit tests and drawing, the
// DOM drawing's window), so a scene built during a render can be queried before the
// renderer has been given it.
import type { Rect } from "../lib/geometry";
import type { Scene } from "./scene";

const CELL = 512;

/** Past this many nodes placed outside a derived grid's cells, a patch builds it anew. */
const MAX_EXTRA = 2000;

/** Cell key to the nodes whose box meets the cell, as indices of the scene the cells were
 * built for; `toHere` turns those into this scene's (-1: gone, or listed in `extra`), null
 * when the cells are this scene's own. `extra`: this scene's nodes the cells do not place
 * (added or moved since), tested one by one. After a delete every later node has a new
 * index, and placing 100,000 boxes again took longer than the rest of the patch. */
type Grid = { cells: Map<number, number[]>; toHere: Int32Array | null; extra: number[] };

const grids = new WeakMap<Scene, Grid>();

/** A patched scene whose grid is its old scene's, read through `toNew` (old place to new). */
const pending = new WeakMap<Scene, { prev: Scene; toNew: Int32Array; redone: number[] }>();

function cellKey(cx: number, cy: number) {
  return cx * 1000003 + cy;
}

function build(s: Scene): Grid {
  const cells = new Map<number, number[]>();
  for (let i = 0; i < s.ids.length; i++) {
    const cx0 = Math.floor(s.x[i] / CELL);
    const cy0 = Math.floor(s.y[i] / CELL);
    const cx1 = Math.floor((s.x[i] + s.w[i]) / CELL);
    const cy1 = Math.floor((s.y[i] + s.h[i]) / CELL);
    for (let cx = cx0; cx <= cx1; cx++)
      for (let cy = cy0; cy <= cy1; cy++) {
        const k = cellKey(cx, cy);
        const b = cells.get(k);
        if (b) b.push(i);
        else cells.set(k, [i]);
      }
  }
  return { cells, toHere: null, extra: [] };
}

/** `s`'s grid from its old scene's: the old cells, their indices carried over, and the nodes
 * the patch worked out again (which may have moved) as extras. Null: too many extras. */
function derive(s: Scene, old: Grid, toNew: Int32Array, redone: number[]): Grid | null {
  const isExtra = new Uint8Array(s.ids.length);
  const extra: number[] = [];
  const add = (i: number) => {
    if (i >= 0 && !isExtra[i]) {
      isExtra[i] = 1;
      extra.push(i);
    }
  };
  for (const i of old.extra) add(toNew[i]);
  for (const i of redone) add(i);
  if (extra.length > MAX_EXTRA) return null;
  const n = old.toHere ? old.toHere.length : toNew.length;
  const toHere = new Int32Array(n);
  for (let b = 0; b < n; b++) {
    const o = old.toHere ? old.toHere[b] : b;
    const i = o >= 0 ? toNew[o] : -1;
    toHere[b] = i >= 0 && !isExtra[i] ? i : -1;
  }
  return { cells: old.cells, toHere, extra };
}

/** The scene's grid, built (or carried over from the scene it was patched from) when first
 * asked. */
export function gridOf(s: Scene): Grid {
  let grid = grids.get(s);
  if (grid) return grid;
  const p = pending.get(s);
  const old = p && grids.get(p.prev);
  grid = (old && derive(s, old, p.toNew, p.redone)) || build(s);
  pending.delete(s);
  grids.set(s, grid);
  return grid;
}
function meets(s: Scene, i: number, r: Rect) {
  return s.x[i] < r.x + r.w && s.x[i] + s.w[i] > r.x && s.y[i] < r.y + r.h && s.y[i] + s.h[i] > r.y;
}

/** `s`'s grid is `prev`'s: the caller knows every node has the same index and box in both
 * (an edit that changed a config, a label or a finding). Nothing is built when `prev` had none. */
export function shareGrid(s: Scene, prev: Scene) {
  const grid = grids.get(prev);
  if (grid) grids.set(s, grid);
}

/** `s` was patched from `prev`: `toNew` maps each node of `prev` to its place in `s` (-1:
 * gone), `redone` lists the nodes of `s` whose boxes may differ from their old ones (every
 * other kept node has its old box). Its grid, when asked, is carried over from `prev`'s. */
export function carryGrid(s: Scene, prev: Scene, toNew: Int32Array, redone: number[]) {
  if (grids.has(prev)) pending.set(s, { prev, toNew, redone });
}

/** Node indices whose box meets the rectangle (flow coordinates), without duplicates. */
export function sceneQuery(s: Scene, r: Rect): number[] {
  const out: number[] = [];
  const cx0 = Math.floor(r.x / CELL);
  const cy0 = Math.floor(r.y / CELL);
  const cx1 = Math.floor((r.x + r.w) / CELL);
  const cy1 = Math.floor((r.y + r.h) / CELL);
  // A huge rectangle (zoomed far out): scanning every node is cheaper than every cell.
  if ((cx1 - cx0 + 1) * (cy1 - cy0 + 1) > s.ids.length) {
    for (let i = 0; i < s.ids.length; i++) if (meets(s, i, r)) out.push(i);
    return out;
  }
  const { cells, toHere, extra } = gridOf(s);
  const seen = new Uint8Array(s.ids.length);
  for (let cx = cx0; cx <= cx1; cx++)
    for (let cy = cy0; cy <= cy1; cy++) {
      const b = cells.get(cellKey(cx, cy));
      if (!b) continue;
      for (const c of b) {
        const i = toHere ? toHere[c] : c;
        if (i < 0 || seen[i]) continue;
        seen[i] = 1;
        if (meets(s, i, r)) out.push(i);
      }
    }
  for (const i of extra) if (!seen[i] && meets(s, i, r)) out.push(i);
  // In index order, as the scan above gives: what overlaps is drawn in one order.
  return out.sort((a, b) => a - b);
}

/** The ids of the nodes whose box meets the rectangle. */
export function sceneIdsIn(s: Scene, r: Rect): string[] {
  return sceneQuery(s, r).map((i) => s.ids[i]);
}
