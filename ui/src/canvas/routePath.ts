// How an edge is drawn along the route Rust worked out for it (`DocumentView.routes`,
// crates/doc routes.rs; the rules: crates/layout src/route/draw.rs, which the picture export
// uses): from the source's anchor (the middle of its right side) through the route's points
// into the target's anchor (the middle of its left side).
// - "direct" and "through": a curve through the points, leaving and reaching each one
//   horizontally; with no route at all, the curve React Flow draws for an edge;
// - "around" and "loop": straight runs between the points, turning at right angles with
//   rounded corners.
// Nothing here decides where an edge goes: that is Rust's.
import type { EdgeRoute } from "../bindings";

export type Pt = { x: number; y: number };

/** What a path is drawn into: a canvas 2D context, or `SvgPath` below. */
export interface PathSink {
  moveTo(x: number, y: number): void;
  lineTo(x: number, y: number): void;
  quadraticCurveTo(cx: number, cy: number, x: number, y: number): void;
  bezierCurveTo(c1x: number, c1y: number, c2x: number, c2y: number, x: number, y: number): void;
}

/** The largest corner radius of a route with right angles. */
const CORNER = 8;

/** How far a curve's controls reach from `a` towards `b` (React Flow's bezier edge). */
function reach(a: Pt, b: Pt): number {
  const d = b.x - a.x;
  return d >= 0 ? 0.5 * d : 0.25 * 25 * Math.sqrt(-d);
}

function toward(c: Pt, a: Pt, r: number): Pt {
  const d = Math.hypot(a.x - c.x, a.y - c.y);
  return d === 0 ? c : { x: c.x + ((a.x - c.x) * r) / d, y: c.y + ((a.y - c.y) * r) / d };
}

/** Draws the edge from `s` to `t` along `route` (none: the plain curve) into `sink`. */
export function traceRoute(sink: PathSink, s: Pt, t: Pt, route: EdgeRoute | null | undefined) {
  const pts: Pt[] = [s, ...(route?.points ?? []), t];
  sink.moveTo(s.x, s.y);
  if (!route || route.kind === "direct" || route.kind === "through") {
    for (let i = 1; i < pts.length; i++) {
      const a = pts[i - 1];
      const b = pts[i];
      if (Math.abs(a.y - b.y) < 0.5) sink.lineTo(b.x, b.y);
      else {
        const r = reach(a, b);
        sink.bezierCurveTo(a.x + r, a.y, b.x - r, b.y, b.x, b.y);
      }
    }
    return;
  }
  for (let i = 1; i < pts.length - 1; i++) {
    const a = pts[i - 1];
    const c = pts[i];
    const b = pts[i + 1];
    const r = Math.min(CORNER, Math.hypot(c.x - a.x, c.y - a.y) / 2, Math.hypot(b.x - c.x, b.y - c.y) / 2);
    const enter = toward(c, a, r);
    const leave = toward(c, b, r);
    sink.lineTo(enter.x, enter.y);
    sink.quadraticCurveTo(c.x, c.y, leave.x, leave.y);
  }
  sink.lineTo(t.x, t.y);
}

/** An SVG path's `d`, written by `traceRoute`. */
export class SvgPath implements PathSink {
  d = "";
  moveTo(x: number, y: number) {
    this.d += `M ${x},${y}`;
  }
  lineTo(x: number, y: number) {
    this.d += ` L ${x},${y}`;
  }
  quadraticCurveTo(cx: number, cy: number, x: number, y: number) {
    this.d += ` Q ${cx},${cy} ${x},${y}`;
  }
  bezierCurveTo(c1x: number, c1y: number, c2x: number, c2y: number, x: number, y: number) {
    this.d += ` C ${c1x},${c1y} ${c2x},${c2y} ${x},${y}`;
  }
}

/** The SVG path of the edge from `s` to `t` along `route`. */
export function routeSvg(s: Pt, t: Pt, route: EdgeRoute | null | undefined): string {
  const p = new SvgPath();
  traceRoute(p, s, t, route);
  return p.d;
}

/** Where the edge's label sits: Rust's place for it, else the middle of the plain curve. */
export function labelPoint(s: Pt, t: Pt, route: EdgeRoute | null | undefined): Pt {
  return route?.label ?? { x: (s.x + t.x) / 2, y: (s.y + t.y) / 2 };
}

/** The points an edge passes, ends included (for hit tests and culling: the curves between
 * them stay within the box of each pair). */
export function routePoints(s: Pt, t: Pt, route: EdgeRoute | null | undefined): Pt[] {
  return route?.points.length ? [s, ...route.points, t] : [s, t];
}
