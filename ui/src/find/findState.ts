// The find bar's state and moves: open (remembering the view to come back to), type, go to the
// next or previous match (select it and frame it), Esc back to where the user was.
import { create } from "zustand";
import { selectAnnotation } from "../annotations/actions";
import type { Diagnostic, DocumentView, Viewport } from "../bindings";
import { registerAction } from "../actions";
import { canvasController } from "../canvas/canvasController";
import { viewportAccess } from "../canvas/viewportAccess";
import { type Rect, resolvePositions, sizeOf } from "../lib/geometry";
import { type Selection, ui } from "../store";
import { FindIndex, type FindItem } from "./findIndex";

type Saved = { viewport: Viewport | null; selection: Selection };

export type FindState = {
  open: boolean;
  query: string;
  /** Item indices of the matches, in document order. */
  hits: number[];
  /** Which match is current (-1: none yet). */
  current: number;
  focusTick: number;
  saved: Saved | null;
};

export const useFind = create<FindState>(() => ({ open: false, query: "", hits: [], current: -1, focusTick: 0, saved: null }));

/** One shared empty list, so "no extra diagnostics" is the same key every time. */
export const NO_EXTRA: Diagnostic[] = [];

// One index per view object (a view is replaced, never changed, when the document changes).
const indexes = new WeakMap<DocumentView, { extra: Diagnostic[]; index: FindIndex }>();
export function indexOf(view: DocumentView, extra: Diagnostic[] = NO_EXTRA): FindIndex {
  const known = indexes.get(view);
  if (known && known.extra === extra) return known.index;
  const index = new FindIndex(view, extra);
  indexes.set(view, { extra, index });
  return index;
}
const positionsOf = new WeakMap<DocumentView, Record<string, { x: number; y: number }>>();
function positions(view: DocumentView) {
  let p = positionsOf.get(view);
  if (!p) positionsOf.set(view, (p = resolvePositions(view.spec, view.layout.positions)));
  return p;
}

export function activeIndex(): FindIndex | null {
  const v = ui.active();
  if (!v) return null;
  return indexOf(v, ui.get().extraDiagnostics[v.id] ?? NO_EXTRA);
}

export function openFind() {
  const s = useFind.getState();
  useFind.setState({
    open: true,
    focusTick: s.focusTick + 1,
    saved: s.open ? s.saved : { viewport: viewportAccess()?.get() ?? null, selection: ui.get().selection },
  });
  if (s.open || !s.query) return;
  setQuery(s.query);
}

/** Closes the bar; `restore` (Esc) puts back the view and selection from when it opened. */
export function closeFind(restore: boolean) {
  const { saved } = useFind.getState();
  useFind.setState({ open: false, current: -1, saved: null });
  if (restore && saved) {
    ui.select(saved.selection);
    if (saved.viewport) viewportAccess()?.set(saved.viewport);
  }
}

export function setQuery(query: string) {
  const index = activeIndex();
  // Only the hits: the outlines are worked out for what is in view when drawn (a query that
  // matches 100,000 nodes must not build a set of them on every keystroke).
  const hits = index ? index.search(query) : [];
  useFind.setState({ query, hits, current: -1 });
}

/** The rectangle around an item's nodes (null when it has none on the canvas). */
export function rectOf(view: DocumentView, item: FindItem): Rect | null {
  if (item.annotation?.rect) return item.annotation.rect;
  const pos = positions(view);
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  for (const id of item.nodes) {
    const p = pos[id];
    if (!p) continue;
    const s = sizeOf(id);
    x0 = Math.min(x0, p.x);
    y0 = Math.min(y0, p.y);
    x1 = Math.max(x1, p.x + s.w);
    y1 = Math.max(y1, p.y + s.h);
  }
  return Number.isFinite(x0) ? { x: x0, y: y0, w: x1 - x0, h: y1 - y0 } : null;
}

/** Makes match `k` current: selects its element and frames it. */
export function goTo(k: number) {
  const { hits } = useFind.getState();
  const index = activeIndex();
  const view = ui.active();
  if (!index || !view || !hits.length) return;
  const current = ((k % hits.length) + hits.length) % hits.length;
  useFind.setState({ current });
  const item = index.items[hits[current]];
  const el = item.element;
  if (item.annotation) selectAnnotation(item.annotation.kind, item.annotation.id, false);
  else if (el.kind === "node") ui.select({ nodes: [el.id], edges: [] });
  else if (el.kind === "edge") ui.select({ nodes: [], edges: [el.index] });
  else ui.select({ nodes: [], edges: [], graph: true });
  const r = rectOf(view, item);
  if (r) canvasController()?.frame(r, 1.1);
}

/** The node ids the current matches outline (for tests and the overlay). */
export function matchedNodes(): string[] {
  const index = activeIndex();
  const { open, hits } = useFind.getState();
  if (!index || !open) return [];
  return hits.flatMap((i) => index.items[i].nodes);
}

export function next(step: 1 | -1) {
  const { current, hits } = useFind.getState();
  if (!hits.length) return;
  goTo(current < 0 ? (step > 0 ? 0 : hits.length - 1) : current + step);
}

registerAction("find", openFind);
