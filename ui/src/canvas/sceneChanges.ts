// Where two overview scenes differ, as rectangles (flow coordinates) to paint again: an edit
// answered by Rust changes a node or two and their edges, so the overview repaints those
// places of its cached bitmap instead of the whole graph (at 10,000 nodes a whole repaint is
// most of an edit's time on screen). Null when so much changed that a whole repaint is as cheap.
import type { Rect } from "../lib/geometry";
import type { Scene } from "./scene";
import { edgeFont, labelWidth } from "./overviewText";
import { type PatchOrigin, patchOrigin } from "./sceneOrigin";

/** Beyond this many places, painting everything again is simpler and not slower. */
const MAX_PLACES = 256;

/** Room around a node for what is drawn outside its box: the problem outline, the stacked
 * cards of a subgraph node (6 flow px down and right). */
const NODE_MARGIN = 8;

function sameUnderlay(a: Scene["underlay"], b: Scene["underlay"]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  return a.every((u, k) => {
    const v = b[k];
    return (
      u.kind === v.kind &&
      u.x === v.x &&
      u.y === v.y &&
      u.w === v.w &&
      u.h === v.h &&
      u.fill === v.fill &&
      u.line === v.line &&
      u.title === v.title
    );
  });
}

function sameNode(a: Scene, i: number, b: Scene, j: number): boolean {
  return (
    a.x[i] === b.x[j] &&
    a.y[i] === b.y[j] &&
    a.w[i] === b.w[j] &&
    a.h[i] === b.h[j] &&
    a.color[i] === b.color[j] &&
    a.problem[i] === b.problem[j] &&
    a.nodeType[i] === b.nodeType[j] &&
    a.config[i] === b.config[j] &&
    a.names[i] === b.names[j] &&
    a.subgraph[i] === b.subgraph[j]
  );
}

/** What an edge looks like, by its ends' ids: equal keys draw the same line where their
 * ends did not move. */
function edgeKey(s: Scene, k: number): string {
  return `${s.ids[s.edgeFrom[k]]}\u0000${s.ids[s.edgeTo[k]]}\u0000${s.guarded[k]}${s.dashed[k]}\u0000${s.edgeLabel[k]}`;
}

/** Whether edge `i` of `a` and edge `j` of `b` draw the same line and label where their ends
 * did not move. */
function sameLook(a: Scene, i: number, b: Scene, j: number): boolean {
  return (
    a.ids[a.edgeFrom[i]] === b.ids[b.edgeFrom[j]] &&
    a.ids[a.edgeTo[i]] === b.ids[b.edgeTo[j]] &&
    a.guarded[i] === b.guarded[j] &&
    a.dashed[i] === b.dashed[j] &&
    a.edgeLabel[i] === b.edgeLabel[j]
  );
}

/** The box of everything edge `k` paints at `zoom`: its line and its label's plate. */
function edgeBox(s: Scene, k: number, zoom: number): Rect | null {
  const a = s.edgeFrom[k];
  const b = s.edgeTo[k];
  if (a < 0 || b < 0) return null;
  const ax = s.x[a] + s.w[a];
  const ay = s.y[a] + s.h[a] / 2;
  const bx = s.x[b];
  const by = s.y[b] + s.h[b] / 2;
  const pad = 2 / zoom;
  let r: Rect = { x: Math.min(ax, bx) - pad, y: Math.min(ay, by) - pad, w: Math.abs(bx - ax) + 2 * pad, h: Math.abs(by - ay) + 2 * pad };
  const fe = edgeFont(zoom);
  if (s.edgeLabel[k] && fe) {
    const w = labelWidth(s.edgeLabel[k], fe) + 6 + 2 * pad;
    const h = fe * 1.4 + 2 * pad;
    r = union(r, { x: (ax + bx) / 2 - w / 2, y: (ay + by) / 2 - h / 2, w, h });
  }
  return r;
}

export function union(a: Rect, b: Rect): Rect {
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return { x, y, w: Math.max(a.x + a.w, b.x + b.w) - x, h: Math.max(a.y + a.h, b.y + b.h) - y };
}

export type SceneChanges = { places: Rect[]; removed: string[] };

function nodeBox(s: Scene, i: number, zoom: number): Rect {
  const m = NODE_MARGIN + 2 / zoom;
  return { x: s.x[i] - m, y: s.y[i] - m, w: s.w[i] + 2 * m, h: s.h[i] + 2 * m };
}

/** The places where `next` draws differently from `prev` at `zoom`, or null when a whole
 * repaint is called for (the underlay changed, or too many places). Removed ids are listed
 * so the names drawn can forget them. */
export function sceneChanges(prev: Scene, next: Scene, zoom: number): SceneChanges | null {
  if (!sameUnderlay(prev.underlay, next.underlay)) return null;
  const origin = patchOrigin(next);
  return origin && origin.prev === prev ? changesAlong(prev, next, zoom, origin) : changesMatched(prev, next, zoom);
}

/** Places, names gone, and the nodes that moved (their edges are painted again too). */
type Found = SceneChanges & { movedPrev: Uint8Array; movedNext: Uint8Array };

/** The nodes' part of the changes: node `i` of `prev` is node `to(i)` of `next` (-1: gone);
 * a node of `next` that no node of `prev` is was added. Null when there are too many places. */
function nodeChanges(prev: Scene, next: Scene, zoom: number, to: (i: number) => number): Found | null {
  const places: Rect[] = [];
  const removed: string[] = [];
  const movedPrev = new Uint8Array(prev.ids.length);
  const movedNext = new Uint8Array(next.ids.length);
  const kept = new Uint8Array(next.ids.length);
  for (let i = 0; i < prev.ids.length; i++) {
    const j = to(i);
    if (j < 0) {
      removed.push(prev.ids[i]);
      places.push(nodeBox(prev, i, zoom));
      movedPrev[i] = 1;
    } else {
      kept[j] = 1;
      if (!sameNode(prev, i, next, j)) {
        places.push(nodeBox(prev, i, zoom), nodeBox(next, j, zoom));
        if (prev.x[i] !== next.x[j] || prev.y[i] !== next.y[j] || prev.w[i] !== next.w[j] || prev.h[i] !== next.h[j]) {
          movedPrev[i] = 1;
          movedNext[j] = 1;
        }
      }
    }
    if (places.length > MAX_PLACES) return null;
  }
  for (let j = 0; j < next.ids.length; j++)
    if (!kept[j]) {
      places.push(nodeBox(next, j, zoom));
      movedNext[j] = 1;
      if (places.length > MAX_PLACES) return null;
    }
  return { places, removed, movedPrev, movedNext };
}

/** `nodeChanges` along a patch: only the nodes it worked out again can differ from the old
 * ones they are (the others are copies), so those are compared, and the rest only paired. */
function nodeChangesAlong(prev: Scene, next: Scene, zoom: number, o: PatchOrigin): Found | null {
  const places: Rect[] = [];
  const removed: string[] = [];
  const movedPrev = new Uint8Array(prev.ids.length);
  const movedNext = new Uint8Array(next.ids.length);
  const fromOld = new Int32Array(next.ids.length).fill(-1);
  for (let i = 0; i < prev.ids.length; i++) {
    const j = o.nodeTo[i];
    if (j >= 0) fromOld[j] = i;
    else {
      removed.push(prev.ids[i]);
      places.push(nodeBox(prev, i, zoom));
      movedPrev[i] = 1;
      if (places.length > MAX_PLACES) return null;
    }
  }
  const seen = new Set<number>();
  for (const j of o.redone) {
    if (seen.has(j)) continue;
    seen.add(j);
    const i = fromOld[j];
    if (i < 0) {
      places.push(nodeBox(next, j, zoom));
      movedNext[j] = 1;
    } else if (!sameNode(prev, i, next, j)) {
      places.push(nodeBox(prev, i, zoom), nodeBox(next, j, zoom));
      if (prev.x[i] !== next.x[j] || prev.y[i] !== next.y[j] || prev.w[i] !== next.w[j] || prev.h[i] !== next.h[j]) {
        movedPrev[i] = 1;
        movedNext[j] = 1;
      }
    }
    if (places.length > MAX_PLACES) return null;
  }
  return { places, removed, movedPrev, movedNext };
}

/** `sceneChanges` of a scene patched from `prev`: each element compared with the one it was
 * patched from. It paints again at least the places `changesMatched` finds (a test holds
 * them side by side after random edits); an edge it cannot pair is painted in both scenes. */
function changesAlong(prev: Scene, next: Scene, zoom: number, o: PatchOrigin): SceneChanges | null {
  const found = nodeChangesAlong(prev, next, zoom, o);
  if (!found) return null;
  const { places, removed, movedPrev, movedNext } = found;
  const box = (s: Scene, k: number) => {
    const r = edgeBox(s, k, zoom);
    if (r) places.push(r);
  };
  // A copied edge has its old look: its ends are the same ids, unless an end became a node
  // or stopped being one, or moved.
  const paired = new Uint8Array(prev.edgeFrom.length);
  const still = (moved: Uint8Array, end: number) => end >= 0 && !moved[end];
  for (let k = 0; k < next.edgeFrom.length; k++) {
    const i = o.edgeFrom[k];
    if (
      i >= 0 &&
      still(movedNext, next.edgeFrom[k]) &&
      still(movedNext, next.edgeTo[k]) &&
      still(movedPrev, prev.edgeFrom[i]) &&
      still(movedPrev, prev.edgeTo[i])
    ) {
      paired[i] = 1;
      continue;
    }
    box(next, k);
    if (places.length > MAX_PLACES) return null;
  }
  for (let i = 0; i < prev.edgeFrom.length; i++)
    if (!paired[i]) {
      box(prev, i);
      if (places.length > MAX_PLACES) return null;
    }
  return { places, removed };
}

/** `sceneChanges` of any two scenes: nodes matched by id, edges by the document's edge
 * objects or their look. */
export function changesMatched(prev: Scene, next: Scene, zoom: number): SceneChanges | null {
  if (!sameUnderlay(prev.underlay, next.underlay)) return null;
  // Nodes whose drawing changed, in either scene (moved ones drag their edges along).
  const found = nodeChanges(prev, next, zoom, (i) => next.index.get(prev.ids[i]) ?? -1);
  if (!found) return null;
  const { places, removed, movedPrev, movedNext } = found;
  // Edges: those touching a node that moved (both drawings), and those only one scene draws.
  // An edge is known by the document's edge object (`edgeRef`: the UI keeps the objects of
  // edges an edit did not touch, whatever their index now), else by its ends and look. The
  // lists are compared as they are first (an edit touches few edges: long runs stay in
  // step), and only the part between the equal head and tail is matched through a map.
  const box = (s: Scene, k: number) => {
    const r = edgeBox(s, k, zoom);
    if (r) places.push(r);
  };
  const movedEdge = (s: Scene, moved: Uint8Array, k: number) => moved[s.edgeFrom[k]] || moved[s.edgeTo[k]];
  const same = (i: number, j: number) =>
    prev.edgeRef[i] !== undefined && prev.edgeRef[i] === next.edgeRef[j] && sameLook(prev, i, next, j) && !movedEdge(prev, movedPrev, i);
  let head = 0;
  const pn = prev.edgeFrom.length;
  const nn = next.edgeFrom.length;
  while (head < pn && head < nn && same(head, head)) head++;
  let tail = 0;
  while (tail < pn - head && tail < nn - head && same(pn - 1 - tail, nn - 1 - tail)) tail++;
  const byRef = new Map<unknown, number>();
  const byLook = new Map<string, number[]>();
  const matched = new Uint8Array(pn);
  for (let k = head; k < pn - tail; k++) {
    if (movedEdge(prev, movedPrev, k)) continue;
    const ref = prev.edgeRef[k];
    if (ref !== undefined) byRef.set(ref, k);
    else {
      const key = edgeKey(prev, k);
      const list = byLook.get(key);
      if (list) list.push(k);
      else byLook.set(key, [k]);
    }
  }
  for (let k = head; k < nn - tail; k++) {
    if (movedEdge(next, movedNext, k)) {
      box(next, k);
      continue;
    }
    const ref = next.edgeRef[k];
    let j = -1;
    if (ref !== undefined) j = byRef.get(ref) ?? -1;
    else {
      const list = byLook.get(edgeKey(next, k));
      const at = list ? list.findIndex((i) => !matched[i] && sameLook(prev, i, next, k)) : -1;
      if (list && at >= 0) j = list[at];
    }
    if (j >= 0 && !matched[j] && sameLook(prev, j, next, k)) matched[j] = 1;
    else box(next, k);
    if (places.length > MAX_PLACES) return null;
  }
  // What is left of `prev` was drawn by `prev` only (or its ends moved).
  for (let k = head; k < pn - tail; k++) {
    if (!matched[k]) box(prev, k);
    if (places.length > MAX_PLACES) return null;
  }
  return places.length > MAX_PLACES ? null : { places, removed };
}
