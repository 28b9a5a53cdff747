// Where a node added without a place (by keyboard, the type search's Enter, the palette's
// double-click) goes: the free spot nearest the centre of the view, so that two adds in a row
// never land on each other or on a node already there.
import type { DocumentView, Point } from "../bindings";
import { type Rect, resolvePositions, sizeOf } from "./geometry";

/** Room kept between the new node and what is around it. */
const GAP = 24;
/** Rings of candidates tried around the wanted place before giving up on it (the wanted place
 * is then used as it is: a canvas that full has no free spot near the view anyway). */
const RINGS = 40;

function overlaps(a: Rect, b: Rect): boolean {
  return a.x < b.x + b.w + GAP && b.x < a.x + a.w + GAP && a.y < b.y + b.h + GAP && b.y < a.y + a.h + GAP;
}

/** The top-left corner nearest `want` at which a `w` × `h` box overlaps none of `taken` (with a
 * gap around each). Candidates lie on a grid of half a box around `want`, tried ring by ring,
 * nearest first; only the boxes that a candidate can reach are looked at, so a graph of
 * 100,000 nodes costs one pass over them. */
export function freeSpot(want: Point, size: { w: number; h: number }, taken: Iterable<Rect>): Point {
  const stepX = Math.round((size.w + GAP) / 2);
  const stepY = Math.round((size.h + GAP) / 2);
  const reachX = RINGS * stepX + size.w + GAP;
  const reachY = RINGS * stepY + size.h + GAP;
  const near: Rect[] = [];
  for (const r of taken) {
    if (r.x + r.w > want.x - reachX && r.x < want.x + reachX && r.y + r.h > want.y - reachY && r.y < want.y + reachY) near.push(r);
  }
  const free = (p: Point) => {
    const box = { x: p.x, y: p.y, w: size.w, h: size.h };
    return !near.some((r) => overlaps(box, r));
  };
  for (let ring = 0; ring <= RINGS; ring++) {
    const ringSpots: Point[] = [];
    for (let i = -ring; i <= ring; i++) {
      for (let j = -ring; j <= ring; j++) {
        if (Math.max(Math.abs(i), Math.abs(j)) !== ring) continue;
        ringSpots.push({ x: want.x + i * stepX, y: want.y + j * stepY });
      }
    }
    ringSpots.sort((a, b) => Math.hypot(a.x - want.x, a.y - want.y) - Math.hypot(b.x - want.x, b.y - want.y));
    const spot = ringSpots.find(free);
    if (spot) return spot;
  }
  return want;
}

/** The boxes on the canvas a new node or note must not cover: nodes, terminals and notes. */
export function* occupiedBoxes(v: DocumentView): Iterable<Rect> {
  const positions = resolvePositions(v.spec, v.layout.positions);
  for (const id in positions) yield { ...positions[id], ...sizeOf(id) };
  for (const n of v.layout.notes) yield { x: n.x, y: n.y, w: n.width, h: n.height };
}
