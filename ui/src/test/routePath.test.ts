// The canvas draws each edge along the route Rust gave it with the pieces Rust draws it with
// (the picture export's, crates/layout src/route/draw.rs): `fixtures/routes.json` holds, for
// every edge of the layout fixtures, its anchors, its route as the view has it and Rust's
// pieces (crates/doc src/tests/routes.rs writes it).
import { describe, expect, it } from "vitest";
import type { EdgeRoute } from "../bindings";
import { type PathSink, labelPoint, routeSvg, traceRoute } from "../canvas/routePath";
import fixture from "./fixtures/routes.json?raw";

type P = { x: number; y: number };
type Case = { document: string; edge: number; from: P; to: P; route: EdgeRoute | null; pieces: { kind: string; points: P[] }[] };

/** The pieces a sink is told to draw, in Rust's terms. */
class Recorder implements PathSink {
  pieces: { kind: string; points: P[] }[] = [];
  private at: P = { x: 0, y: 0 };
  moveTo(x: number, y: number) {
    this.at = { x, y };
  }
  lineTo(x: number, y: number) {
    this.pieces.push({ kind: "line", points: [this.at, { x, y }] });
    this.at = { x, y };
  }
  quadraticCurveTo(cx: number, cy: number, x: number, y: number) {
    this.pieces.push({ kind: "quad", points: [this.at, { x: cx, y: cy }, { x, y }] });
    this.at = { x, y };
  }
  bezierCurveTo(c1x: number, c1y: number, c2x: number, c2y: number, x: number, y: number) {
    this.pieces.push({ kind: "cubic", points: [this.at, { x: c1x, y: c1y }, { x: c2x, y: c2y }, { x, y }] });
    this.at = { x, y };
  }
}

const cases = JSON.parse(fixture) as Case[];

describe("edges drawn along Rust's routes", () => {
  it("has routes of every kind to check", () => {
    const kinds = new Set(cases.map((c) => c.route?.kind ?? "plain"));
    for (const k of ["plain", "direct", "through", "around", "loop"]) expect(kinds).toContain(k);
  });

  it.each(cases.map((c) => [`${c.document} edge ${c.edge}`, c] as const))("%s: the pieces are Rust's", (_, c) => {
    const r = new Recorder();
    traceRoute(r, c.from, c.to, c.route);
    expect(r.pieces.length).toBe(c.pieces.length);
    r.pieces.forEach((p, i) => {
      expect(p.kind).toBe(c.pieces[i].kind);
      p.points.forEach((q, j) => {
        expect(q.x).toBeCloseTo(c.pieces[i].points[j].x, 6);
        expect(q.y).toBeCloseTo(c.pieces[i].points[j].y, 6);
      });
    });
    // The SVG path starts at the source's anchor and ends at the target's.
    const d = routeSvg(c.from, c.to, c.route);
    expect(d.startsWith(`M ${c.from.x},${c.from.y}`)).toBe(true);
    expect(d.endsWith(`${c.to.x},${c.to.y}`)).toBe(true);
    // The label sits where Rust put it.
    if (c.route?.label) expect(labelPoint(c.from, c.to, c.route)).toEqual(c.route.label);
  });
});
