// The canvas viewport for the overlays that live outside React Flow's hooks (find, keyboard
// focus): read it, set it, and bring a rectangle into view. Registered by CanvasOverlays.
import type { Viewport } from "../bindings";
import type { Rect } from "../lib/geometry";

export type ViewportAccess = { get(): Viewport; set(v: Viewport): void; size(): { width: number; height: number } };
let access: ViewportAccess | null = null;

export function setViewportAccess(a: ViewportAccess | null) {
  access = a;
}
export function viewportAccess(): ViewportAccess | null {
  return access;
}

/** Pans (keeping the zoom, raised to a readable 0.8 when below it) so `r` is in view with a
 * margin; does nothing when it already is. */
export function reveal(r: Rect) {
  if (!access) return;
  const { x, y, zoom } = access.get();
  const { width, height } = access.size();
  if (!width || !height) return;
  const m = 40;
  const left = r.x * zoom + x;
  const top = r.y * zoom + y;
  const inView = zoom >= 0.45 && left >= m && top >= m && left + r.w * zoom <= width - m && top + r.h * zoom <= height - m;
  if (inView) return;
  const z = Math.max(zoom, 0.8);
  access.set({ x: width / 2 - (r.x + r.w / 2) * z, y: height / 2 - (r.y + r.h / 2) * z, zoom: z });
}
