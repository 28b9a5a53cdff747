// Where a scene's nodes are: a uniform grid of node indices, built once per scene (kept
// beside it) and shared by whoever asks (the overview renderer's hit tests and drawing, the
// DOM drawing's window), so a scene built during a render can be queried before the
// renderer has been given it.
import type { Rect } from "../lib/geometry";
import type { Scene } from "./overview";

const CELL = 512;

const grids = new WeakMap<Scene, Map<number, number[]>>();

function cellKey(cx: number, cy: number) {
  return cx * 1000003 + cy;
}

/** The scene's grid: cell key to the indices of the nodes whose box meets the cell. */
export function gridOf(s: Scene): Map<number, number[]> {
  let grid = grids.get(s);
  if (grid) return grid;
  grid = new Map();
  for (let i = 0; i < s.ids.length; i++) {
    const cx0 = Math.floor(s.x[i] / CELL);
    const cy0 = Math.floor(s.y[i] / CELL);
    const cx1 = Math.floor((s.x[i] + s.w[i]) / CELL);
    const cy1 = Math.floor((s.y[i] + s.h[i]) / CELL);
    for (let cx = cx0; cx <= cx1; cx++)
      for (let cy = cy0; cy <= cy1; cy++) {
        const k = cellKey(cx, cy);
        const b = grid.get(k);
        if (b) b.push(i);
        else grid.set(k, [i]);
      }
  }
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
  const grid = gridOf(s);
  const seen = new Uint8Array(s.ids.length);
  for (let cx = cx0; cx <= cx1; cx++)
    for (let cy = cy0; cy <= cy1; cy++) {
      const b = grid.get(cellKey(cx, cy));
      if (!b) continue;
      for (const i of b) {
        if (seen[i]) continue;
        seen[i] = 1;
        if (meets(s, i, r)) out.push(i);
      }
    }
  return out;
}

/** The ids of the nodes whose box meets the rectangle. */
export function sceneIdsIn(s: Scene, r: Rect): string[] {
  return sceneQuery(s, r).map((i) => s.ids[i]);
}
