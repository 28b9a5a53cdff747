// Where the view goes: fitting a rectangle (Fit, framing a selection or a problem) and the
// view a document opens at. Both keep clear of what is drawn over the pane (the minimap at the
// bottom right, the zoom controls at the bottom left): the framed nodes are never under them.
// The side panels are beside the pane, not over it, so the pane's size already leaves them out.
import type { Viewport } from "../bindings";
import type { Rect } from "../lib/geometry";

/** The minimap's box plus its margin (`.minimap` in styles.css, MiniMap.tsx). */
export const MINIMAP = { w: 200 + 10, h: 140 + 10 };
/** React Flow's controls column at the bottom left, with its margin. */
export const CONTROLS = { w: 26 + 15, h: 4 * 27 + 15 };
const PAD = 40;

/** At least this zoom, a document opens fitted; below it, at 100 % around its entry. */
export const READABLE_ZOOM = 0.6;

export type Pane = { width: number; height: number };

/** The free areas of the pane to frame into: above the bottom overlays, or between them
 * (left of the minimap, right of the controls). */
function areas(p: Pane): Rect[] {
  return [
    { x: PAD, y: PAD, w: p.width - 2 * PAD, h: p.height - 2 * PAD - Math.max(MINIMAP.h, CONTROLS.h) },
    { x: PAD + CONTROLS.w, y: PAD, w: p.width - 2 * PAD - CONTROLS.w - MINIMAP.w, h: p.height - 2 * PAD },
  ].filter((a) => a.w > 40 && a.h > 40);
}

/** The viewport showing `r` whole, as large as fits (within the zoom limits), in the free
 * area that allows the largest zoom. */
export function frameRect(r: Rect, pane: Pane, minZoom: number, maxZoom: number): Viewport {
  const free = areas(pane);
  if (!free.length) free.push({ x: 0, y: 0, w: Math.max(1, pane.width), h: Math.max(1, pane.height) });
  let best: { zoom: number; a: Rect } | null = null;
  for (const a of free) {
    const zoom = Math.max(minZoom, Math.min(maxZoom, a.w / Math.max(1, r.w), a.h / Math.max(1, r.h)));
    if (!best || zoom > best.zoom) best = { zoom, a };
  }
  const { zoom, a } = best as { zoom: number; a: Rect };
  return { x: a.x + a.w / 2 - (r.x + r.w / 2) * zoom, y: a.y + a.h / 2 - (r.y + r.h / 2) * zoom, zoom };
}

/** The view a document opens at: fitted when that is readable (at least READABLE_ZOOM), else
 * 100 % with the entry at the left of the free area, vertically centred (the graph flows
 * right from it). */
export function openingView(bounds: Rect, entry: Rect | null, pane: Pane, minZoom: number): Viewport {
  const fit = frameRect(bounds, pane, minZoom, 1);
  if (fit.zoom >= READABLE_ZOOM || !entry) return fit;
  const a = areas(pane)[0] ?? { x: 0, y: 0, w: pane.width, h: pane.height };
  return { x: a.x + 20 - entry.x, y: a.y + a.h / 2 - (entry.y + entry.h / 2), zoom: 1 };
}

/** Whether two viewports show the same thing (Fit on a fitted view changes nothing). */
export function sameView(a: Viewport, b: Viewport): boolean {
  return Math.abs(a.zoom - b.zoom) < 1e-3 && Math.abs(a.x - b.x) < 1 && Math.abs(a.y - b.y) < 1;
}
