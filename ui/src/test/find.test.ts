// The find bar's index: what it finds (node id, type, title, config values; edge conditions;
// channels; problems) in each format's view, and the moves between matches.
import { beforeEach, describe, expect, it } from "vitest";
import type { DocumentView, GraphSpec } from "../bindings";
import { FindIndex, configText } from "../find/findIndex";
import { closeFind, goTo, matchedNodes, next, openFind, setQuery, useFind } from "../find/findState";
import { generateGraph } from "../perf/generate";
import { ui } from "../store";
import { rust } from "./recorded";

function viewOf(spec: GraphSpec, extra: Partial<DocumentView> = {}): DocumentView {
  return {
    id: "1",
    path: null,
    fileName: "x.json",
    format: "graphspec",
    dirty: false,
    spec,
    // No labels unless a test gives Rust's (`rust.support.view.edgeLabels`).
    edgeLabels: spec.edges.map(() => null),
    extraEdges: [],
    weaveflow: null,
    graphmd: null,
    layout: { positions: {}, viewport: null },
    layoutMissing: false,
    diagnostics: [],
    registry: [],
    canUndo: false,
    canRedo: false,
    notices: [],
    conflict: null,
    ...extra,
  } as unknown as DocumentView;
}

const SPEC: GraphSpec = {
  name: "support",
  channels: { messages: { reducer: "append" }, intent: { reducer: "last_write" } },
  nodes: [
    { id: "agent", type: "llm", config: { model: "gpt-4o", tools: ["search", "refund_lookup"] } },
    { id: "checkout", type: "http", config: { url: "https://shop.example.com/pay", retry: { max: 3 } } },
  ],
  edges: [
    { from: "__start__", to: "agent" },
    { from: "agent", to: "checkout", when: { channel: "intent", eq: "buy" } },
    { from: "checkout", to: "__end__" },
  ],
};

const labels = (ix: FindIndex, q: string) => ix.search(q).map((i) => `${ix.items[i].kind}:${ix.items[i].label}`);

describe("the find index", () => {
  it("finds nodes by id, type and config values, nested ones included, case-insensitively", () => {
    const ix = new FindIndex(viewOf(SPEC));
    expect(labels(ix, "CHECK")).toEqual(["node:checkout"]);
    expect(labels(ix, "http")).toEqual(["node:checkout"]);
    expect(labels(ix, "gpt-4o")).toEqual(["node:agent"]);
    expect(labels(ix, "refund_lookup")).toEqual(["node:agent"]);
    expect(labels(ix, "max=3")).toEqual(["node:checkout"]);
    expect(ix.fieldOf(ix.search("gpt-4o")[0], "gpt-4o")).toBe("config");
    expect(ix.search("   ")).toEqual([]);
  });

  it("finds edges by their condition text, channels by name, problems by message or code", () => {
    const diagnostics = [
      {
        code: "spec/undeclared-channel",
        severity: "error" as const,
        message: "The condition reads the channel “cart”",
        pointer: "/edges/1/when",
        element: { kind: "edge" as const, index: 1, from: "agent", to: "checkout" },
      },
    ];
    // The corpus support agent's edges, labelled as Rust labels them.
    expect(rust.support.view.spec.edges.map((e) => [e.from, e.to])).toEqual(SPEC.edges.map((e) => [e.from, e.to]));
    const ix = new FindIndex(viewOf(SPEC, { diagnostics, edgeLabels: rust.support.view.edgeLabels }));
    expect(labels(ix, 'intent == "buy"')).toEqual(["edge:agent → checkout"]);
    expect(labels(ix, "messages")).toEqual(["channel:messages"]);
    expect(labels(ix, "intent")).toEqual(["edge:agent → checkout", "channel:intent"]);
    expect(labels(ix, "undeclared")).toEqual(["problem:The condition reads the channel “cart”"]);
    const p = ix.items[ix.search("undeclared")[0]];
    expect(p.nodes).toEqual(["agent", "checkout"]);
  });

  it("finds Weaveflow node names and conditions, and GRAPH.md node fields, from the source document", () => {
    const wf = viewOf(
      { name: "wf", channels: {}, nodes: [{ id: "n1", type: "llm_turn", config: {} }], edges: [{ from: "n1", to: "__end__" }] },
      {
        format: "weaveflow",
        weaveflow: {
          definition: {
            nodes: [{ id: "n1", name: "Draft the reply" }],
            edges: [{ from: "n1", to: "__end__", condition: { type: "expression", config: { expr: "score > 0.7" } } }],
          },
          entryPoint: "n1",
          finishPoint: "",
        },
      } as never,
    );
    const ix = new FindIndex(wf);
    expect(labels(ix, "draft the")).toEqual(["node:n1"]);
    expect(ix.fieldOf(ix.search("draft")[0], "draft")).toBe("title");
    expect(labels(ix, "score > 0.7")).toEqual(["edge:n1 → __end__"]);
    const md = viewOf({ name: "md", channels: {}, nodes: [{ id: "judge", type: "judge", config: {} }], edges: [] }, {
      format: "graphmd",
      graphmd: { front: { nodes: { judge: { title: "Grounding gate" } } } },
    } as never);
    expect(labels(new FindIndex(md), "grounding")).toEqual(["node:judge"]);
  });

  it("caps config text so a huge value does not slow every keystroke", () => {
    expect(configText({ blob: "x".repeat(100000) }, 4000).length).toBeLessThan(4010);
    expect(configText({ a: Array.from({ length: 5000 }, (_, i) => `v${i}`) }, 4000).length).toBeLessThan(4020);
  });
});

describe("moving between matches", () => {
  beforeEach(() => {
    const g = generateGraph(50);
    const v = viewOf(g.spec, { layout: { positions: g.positions, viewport: null } } as never);
    ui.set({ docs: { "1": v }, order: ["1"], activeId: "1", selection: { nodes: ["llm_0"], edges: [] }, extraDiagnostics: {} });
    closeFind(false);
  });

  it("Enter goes forward and wraps, Shift+Enter back, each selecting its node; Esc restores the selection", () => {
    openFind();
    setQuery("http_");
    const { hits } = useFind.getState();
    expect(hits.length).toBeGreaterThan(3);
    next(1);
    expect(ui.get().selection.nodes).toEqual(["http_1"]);
    next(1);
    expect(ui.get().selection.nodes).toEqual(["http_9"]);
    next(-1);
    expect(ui.get().selection.nodes).toEqual(["http_1"]);
    next(-1);
    expect(useFind.getState().current).toBe(hits.length - 1);
    goTo(hits.length);
    expect(useFind.getState().current).toBe(0);
    expect(matchedNodes()).toContain("http_1");
    closeFind(true);
    expect(ui.get().selection.nodes).toEqual(["llm_0"]);
    expect(matchedNodes()).toEqual([]);
  });
});
