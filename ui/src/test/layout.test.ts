import { describe, expect, it } from "vitest";
import type { GraphSpec } from "../bindings";
import { everyNodeStored, overlappingPairs, resolvePositions } from "../lib/geometry";
import { toElkGraph } from "../lib/layout";

describe("the baseline's graph for elkjs", () => {
  it("ignores edges to nodes that do not exist and duplicate ids", () => {
    const spec: GraphSpec = {
      name: null,
      channels: {},
      nodes: [
        { id: "a", type: "x", config: {} },
        { id: "a", type: "y", config: {} },
      ],
      edges: [{ from: "a", to: "ghost" }],
    };
    const g = toElkGraph(spec);
    expect(g.children?.map((c) => c.id)).toEqual(["a", "__start__", "__end__"]);
    expect(g.edges).toEqual([]);
  });
  it("gives edge labels room", () => {
    const g = toElkGraph(
      {
        name: null,
        channels: {},
        nodes: [{ id: "a", type: null, config: {} }],
        edges: [{ from: "a", to: "a", when: { channel: "intent", eq: "buy" } }],
      },
      ['intent == "buy"'],
    );
    expect(g.edges?.[0].labels?.[0].text).toBe('intent == "buy"');
  });
});

describe("overlap check and fallback positions", () => {
  it("draws both terminals in an empty document, so the first edge can be drawn by hand", () => {
    const p = resolvePositions({ name: null, channels: {}, nodes: [], edges: [] }, {});
    expect(Object.keys(p).sort()).toEqual(["__end__", "__start__"]);
    expect(overlappingPairs(p)).toEqual([]);
  });
  it("detects overlaps and ignores boxes that only touch", () => {
    expect(overlappingPairs({ a: { x: 0, y: 0 }, b: { x: 199, y: 59 } })).toEqual([["a", "b"]]);
    expect(overlappingPairs({ a: { x: 0, y: 0 }, b: { x: 200, y: 0 } })).toEqual([]);
  });
  it("places unplaced nodes below the placed ones without overlaps", () => {
    const spec: GraphSpec = {
      name: null,
      channels: {},
      nodes: ["a", "b", "c", "d"].map((id) => ({ id, type: "x", config: {} })),
      edges: [{ from: "__start__", to: "a" }],
    };
    const p = resolvePositions(spec, { a: { x: 0, y: 0 } });
    expect(Object.keys(p).sort()).toEqual(["__end__", "__start__", "a", "b", "c", "d"]);
    expect(overlappingPairs(p)).toEqual([]);
    expect(p.b.y).toBeGreaterThan(0);
  });
  it("answers the stored positions themselves only when they place exactly the drawn elements", () => {
    const spec: GraphSpec = {
      name: null,
      channels: {},
      nodes: ["a", "b"].map((id) => ({ id, type: "x", config: {} })),
      edges: [{ from: "__start__", to: "a" }],
    };
    const exact = { a: { x: 0, y: 0 }, b: { x: 300, y: 0 }, __start__: { x: -100, y: 0 }, __end__: { x: 600, y: 0 } };
    expect(resolvePositions(spec, exact)).toBe(exact);
    expect(everyNodeStored(resolvePositions(spec, exact))).toBe(true);
    // A place left behind by a removed node is not drawn.
    const stale = { ...exact, gone: { x: 9000, y: 9000 } };
    const fromStale = resolvePositions(spec, stale);
    expect(fromStale).not.toBe(stale);
    expect(Object.keys(fromStale).sort()).toEqual(["__end__", "__start__", "a", "b"]);
    // A place that is no number is worked out again.
    const broken = { ...exact, b: { x: Number.NaN, y: 0 } };
    const fromBroken = resolvePositions(spec, broken);
    expect(Number.isFinite(fromBroken.b.x)).toBe(true);
    expect(everyNodeStored(fromBroken)).toBe(false);
    // Duplicate ids miss the count: the terminals are still placed.
    const twice = { ...spec, nodes: [...spec.nodes, { id: "a", type: "x", config: {} }] };
    const fromTwice = resolvePositions(twice, { a: exact.a, b: exact.b, __start__: exact.__start__ });
    expect(Object.keys(fromTwice).sort()).toEqual(["__end__", "__start__", "a", "b"]);
  });
});
