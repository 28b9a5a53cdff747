// What the canvas lets the rest of the UI do with its viewport (fit, frame a rectangle, zoom),
// set by the Canvas on mount: the actions, find, compare, notes and subgraphs use it without
// depending on the canvas's components.
import type { Position, Viewport } from "../bindings";
import type { Rect } from "../lib/geometry";

export type CanvasController = {
  fit(): void;
  frame(rect: Rect, maxZoom?: number): void;
  centre(): Position;
  zoomIn(): void;
  zoomOut(): void;
  /** React Flow's viewport now (kept to show a tab again where it was). */
  viewport?(): Viewport;
};
let canvas: CanvasController | null = null;
export function setCanvasController(c: CanvasController | null) {
  canvas = c;
}
export function canvasController() {
  return canvas;
}
