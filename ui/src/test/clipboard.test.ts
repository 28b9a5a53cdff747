import { describe, expect, it } from "vitest";
import type { GraphSpec } from "../bindings";
import { buildFragment, fragmentText, parseFragment } from "../lib/clipboard";

const spec: GraphSpec = {
  name: "g",
  channels: { intent: { reducer: "last_write" }, other: { reducer: "append" } },
  nodes: [
    { id: "a", type: "llm", config: { model: "m" } },
    { id: "b", type: "http", config: { url: "u" } },
    { id: "c", type: "noop", config: {} },
  ],
  edges: [
    { from: "__start__", to: "a" },
    { from: "a", to: "b", when: { channel: "intent", eq: "buy" } },
    { from: "b", to: "c" },
  ],
};
const positions = { a: { x: 100, y: 50 }, b: { x: 400, y: 80 }, c: { x: 700, y: 50 } };

describe("copy: the selection as a GraphSpec fragment", () => {
  it("keeps the edges inside the selection, the channels they read, relative positions", () => {
    const f = buildFragment(spec, positions, new Set(["a", "b"]));
    expect(f.nodes.map((n) => n.id)).toEqual(["a", "b"]);
    expect(f.edges).toEqual([{ from: "a", to: "b", when: { channel: "intent", eq: "buy" } }]);
    expect(f.channels).toEqual({ intent: { reducer: "last_write" } });
    expect(f.layout?.positions).toEqual({ a: { x: 0, y: 0 }, b: { x: 300, y: 30 } });
  });
  it("round-trips through the clipboard text", () => {
    const text = fragmentText(buildFragment(spec, positions, new Set(["a", "b", "c"])));
    const parsed = parseFragment(text);
    expect("fragment" in parsed && parsed.fragment.nodes).toHaveLength(3);
  });
});

describe("paste: reading clipboard text", () => {
  it("reads a whole GraphSpec from a text editor", () => {
    const r = parseFragment(JSON.stringify(spec));
    if (!("fragment" in r)) throw new Error(r.error);
    expect(r.fragment.edges).toHaveLength(3);
    expect(r.warnings).toEqual([]);
  });
  it("reads an array of nodes and a single node", () => {
    const arr = parseFragment('[{"id":"x","type":"llm"},{"id":"y","type":"http","config":{"url":"u"}}]');
    expect("fragment" in arr && arr.fragment.nodes.map((n) => n.config)).toEqual([{}, { url: "u" }]);
    const one = parseFragment('{"id":"solo","type":"noop"}');
    expect("fragment" in one && one.fragment.nodes[0].id).toBe("solo");
  });
  it("refuses text that is not a fragment, saying what was expected", () => {
    expect(parseFragment("hello")).toMatchObject({ error: expect.stringContaining("does not hold JSON") });
    expect(parseFragment('{"version":"1.0"}')).toMatchObject({ error: expect.stringContaining("not a graph fragment") });
    expect(parseFragment("")).toMatchObject({ error: expect.stringContaining("empty") });
    expect(parseFragment('{"nodes":[]}')).toMatchObject({ error: expect.stringContaining("no nodes") });
  });
  it("skips bad entries with a warning and keeps the rest", () => {
    const r = parseFragment(
      '{"nodes":[{"id":"ok","type":"llm","config":5},{"type":"x"},{"id":"__end__"},{"id":"ok"}],"edges":[{"from":"ok"},{"from":"ok","to":"__end__"}]}',
    );
    if (!("fragment" in r)) throw new Error(r.error);
    expect(r.fragment.nodes).toEqual([{ id: "ok", type: "llm", config: {} }]);
    expect(r.fragment.edges).toEqual([{ from: "ok", to: "__end__" }]);
    expect(r.warnings).toHaveLength(5);
  });
});
