// The keyboard focus rules (focusModel.ts): nearest node by direction, following edges,
// walking edges, and what a screen reader is told.
import { describe, expect, it } from "vitest";
import type { GraphSpec, Point } from "../bindings";
import { alongEdges, centres, describeFocus, nearestInDirection, nextEdge } from "../keyboard/focusModel";

// A grid:      a (0,0)    b (300,0)    c (600,0)
//              d (0,200)  e (300,230)
//                                     f (600,600)
const P: Record<string, Point> = {
  a: { x: 0, y: 0 },
  b: { x: 300, y: 0 },
  c: { x: 600, y: 0 },
  d: { x: 0, y: 200 },
  e: { x: 300, y: 230 },
  f: { x: 600, y: 600 },
};
const C = centres(P);

const SPEC: GraphSpec = {
  name: "g",
  channels: { intent: { reducer: "last_write" } },
  nodes: ["a", "b", "c", "d", "e", "f"].map((id) => ({ id, type: "noop", config: {} })),
  edges: [
    { from: "__start__", to: "a" },
    { from: "a", to: "b" },
    { from: "a", to: "d", when: { channel: "intent", eq: "buy" } },
    { from: "a", to: "f" },
    { from: "b", to: "c" },
    { from: "f", to: "__end__" },
  ],
};

describe("arrows: the nearest node in that direction", () => {
  it("goes right, left, down and up along the grid", () => {
    expect(nearestInDirection(C, "a", "right")).toBe("b");
    expect(nearestInDirection(C, "b", "right")).toBe("c");
    expect(nearestInDirection(C, "b", "left")).toBe("a");
    expect(nearestInDirection(C, "a", "down")).toBe("d");
    expect(nearestInDirection(C, "b", "down")).toBe("e");
    expect(nearestInDirection(C, "e", "up")).toBe("b");
  });
  it("prefers what is straight ahead over what is nearer but off to the side", () => {
    // From d, right: e is straight ahead (30 below); f is far down.
    expect(nearestInDirection(C, "d", "right")).toBe("e");
    // From c, down: f is straight below, though e is nearer.
    expect(nearestInDirection(C, "c", "down")).toBe("f");
  });
  it("stops at the edge of the graph, and for an unknown node", () => {
    expect(nearestInDirection(C, "c", "right")).toBeNull();
    expect(nearestInDirection(C, "a", "up")).toBeNull();
    expect(nearestInDirection(C, "zzz", "up")).toBeNull();
  });
});

describe("Ctrl+arrows: along the edges", () => {
  it("right goes to the first successor, down/up through its siblings, left back where it came from", () => {
    const b = alongEdges(SPEC, { id: "a" }, "right");
    expect(b).toEqual({ id: "b", via: "a" });
    const d = alongEdges(SPEC, b ?? { id: "" }, "down");
    expect(d).toEqual({ id: "d", via: "a" });
    expect(alongEdges(SPEC, d ?? { id: "" }, "down")).toEqual({ id: "f", via: "a" });
    expect(alongEdges(SPEC, { id: "f", via: "a" }, "down")).toEqual({ id: "b", via: "a" });
    expect(alongEdges(SPEC, { id: "b", via: "a" }, "up")).toEqual({ id: "f", via: "a" });
    expect(alongEdges(SPEC, { id: "f", via: "a" }, "left")).toEqual({ id: "a" });
    expect(alongEdges(SPEC, { id: "a" }, "left")).toEqual({ id: "__start__" });
  });
  it("has nowhere to go past the ends", () => {
    expect(alongEdges(SPEC, { id: "c" }, "right")).toBeNull();
    expect(alongEdges(SPEC, { id: "c", via: "b" }, "down")).toBeNull(); // b has one successor
  });
});

describe("E: the edges of the focused node", () => {
  it("starts at the first outgoing edge and cycles through them", () => {
    expect(nextEdge(SPEC, { kind: "node", id: "a" })).toBe(1);
    expect(nextEdge(SPEC, { kind: "edge", index: 1 })).toBe(2);
    expect(nextEdge(SPEC, { kind: "edge", index: 2 })).toBe(3);
    expect(nextEdge(SPEC, { kind: "edge", index: 3 })).toBe(1);
    expect(nextEdge(SPEC, { kind: "node", id: "c" })).toBeNull();
    expect(nextEdge(SPEC, null)).toBeNull();
  });
});

describe("what a screen reader is told", () => {
  const none = () => ({ errors: 0, warnings: 0 });
  it("names a node, its type and its problems; an edge, its ends and its condition", () => {
    expect(
      describeFocus(
        SPEC,
        { kind: "node", id: "b" },
        () => ({ errors: 2, warnings: 1 }),
        () => "",
      ),
    ).toBe("node b, type noop, 2 errors, 1 warning");
    expect(describeFocus(SPEC, { kind: "node", id: "c" }, none, () => "")).toBe("node c, type noop");
    expect(describeFocus(SPEC, { kind: "node", id: "__start__" }, none, () => "")).toBe("start node");
    expect(describeFocus(SPEC, { kind: "edge", index: 2 }, none, () => 'intent == "buy"')).toBe('edge from a to d, when intent == "buy"');
  });
});
