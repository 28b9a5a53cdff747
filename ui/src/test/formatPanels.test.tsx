// The Weaveflow and GRAPH.md inspectors and the path panel, rendered with a document view as
// Rust sends it; the edits they send are captured.
import { act } from "react";
import { createRoot } from "react-dom/client";
import { afterEach, describe, expect, it } from "vitest";
import type { DocFormat, DocumentView, Edit, GraphMdView, WeaveflowView } from "../bindings";
import { GraphMdInspector } from "../panels/GraphMdInspector";
import { PathsPanel } from "../panels/PathsPanel";
import { WeaveflowInspector } from "../panels/WeaveflowInspector";
import { parseScalar } from "../panels/formatFields";
import { rolesOf } from "../canvas/buildFlow";
import { ui } from "../store";

(globalThis as unknown as { IS_REACT_ACT_ENVIRONMENT: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: ReturnType<typeof createRoot> | null = null;
afterEach(() => {
  act(() => root?.unmount());
  root = null;
  document.body.innerHTML = "";
  ui.set({ selection: { nodes: [], edges: [] } });
});

async function render(node: React.ReactNode) {
  const el = document.createElement("div");
  document.body.appendChild(el);
  root = createRoot(el);
  await act(async () => root?.render(node));
  return (sel: string) => document.querySelector(`[data-testid="${sel}"]`) as HTMLInputElement | null;
}

async function type(el: HTMLInputElement | HTMLTextAreaElement | null, text: string) {
  if (!el) throw new Error("no such field");
  const proto = el instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  await act(async () => {
    Object.getOwnPropertyDescriptor(proto, "value")?.set?.call(el, text);
    el.dispatchEvent(new Event("input", { bubbles: true }));
  });
  await act(async () => {
    el.dispatchEvent(new FocusEvent("focusout", { bubbles: true }));
  });
}

function baseView(format: DocFormat, diagnostics: DocumentView["diagnostics"] = []): DocumentView {
  return {
    id: "1",
    path: null,
    fileName: "x",
    format,
    dirty: false,
    spec: { name: null, channels: {}, nodes: [], edges: [] },
    edgeLabels: [],
    extraEdges: [],
    routes: { edges: [], extra: [] },
    layout: { positions: {}, notes: [], groups: [] },
    collapsed: { boxes: {}, nodes: {}, notes: {}, groups: [], hiddenEdges: [], edges: [] },
    diagnostics,
    registry: [],
    canUndo: false,
    canRedo: false,
    notices: [],
    layoutMissing: false,
    conflict: null,
    weaveflow: null,
    graphmd: null,
    subgraphs: [],
  };
}

const weaveflow: WeaveflowView = {
  definition: {
    version: "1.0",
    entry_point: "seed",
    finish_point: "",
    nodes: [
      { id: "seed", name: "Set Seed", type: "state_set", config: { value: 1 }, state: { target: { path: "nowhere.x" } } },
      { id: "done", name: "Done", type: "state_delete", state: {} },
    ],
    edges: [{ from: "seed", to: "done", condition: { type: "cel", config: { expression: "true" } } }],
  },
  generation: 'the current "1.0" generation (state_modules; dsl/dsl.go@9ae3512)',
  entryPoint: "seed",
  finishPoint: "",
};

const path = (nodes: string[], tokens: number, cost: number | null, over: string[]) => ({
  exit: nodes[nodes.length - 1],
  nodes,
  edges: [0],
  fallbacks: [],
  tokens,
  cost_usd: cost,
  latency_ms: 1200,
  over_budget: over,
  top_node: null,
  contributions: [],
});

const graphmd: GraphMdView = {
  front: {
    name: "t",
    spec_version: "1.1.0",
    entry: "route",
    exits: ["close"],
    path_budget: { cost_usd: 0.25 },
    nodes: [
      { id: "route", kind: "judge", seat: "router", timeout_ms: 1000 },
      { id: "close", kind: "human" },
    ],
    edges: [{ from: "route", to: "close", kind: "conditional", condition: "ok" }],
  },
  body: "\n# Notes\n",
  topology: {
    name: "t",
    version: "v1_1",
    version_declared: true,
    entry: "route",
    exits: ["close"],
    budget: { cost_usd: 0.25, tokens: null },
    state: {},
    nodes: [],
    edges: [],
  } as unknown as GraphMdView["topology"],
  analysis: {
    mode: "exhaustive",
    path_count: "2",
    budget: { cost_usd: 0.25, tokens: null },
    paths: [path(["route", "close"], 500, 0.01, []), path(["route", "answer", "close"], 9000, 0.5, ["cost_usd"])],
    worst: 1,
    over_budget: [1],
    priced: true,
    unestimated: [],
    notes: [],
    diagnostics: [],
  } as unknown as GraphMdView["analysis"],
};

describe("format fields", () => {
  it("parses typed text into values, empty removes", () => {
    expect(parseScalar("2500", "number")).toEqual({ ok: true, value: 2500 });
    expect(parseScalar("", "number")).toEqual({ ok: true, value: undefined });
    expect(parseScalar("x", "number").ok).toBe(false);
    expect(parseScalar('["a"]', "json")).toEqual({ ok: true, value: ["a"] });
    expect(parseScalar("{", "json").ok).toBe(false);
  });
});

describe("the Weaveflow inspector", () => {
  it("edits a node's name, a binding path and shows the validator's path problem", async () => {
    const sent: Edit[] = [];
    ui.set({ selection: { nodes: ["seed"], edges: [] } });
    const diags = [
      {
        code: "weaveflow/bad-binding-path",
        severity: "error",
        message: 'state binding path "nowhere.x" must start with "shared." or "scopes."',
        pointer: "/nodes/0/state/target/path",
      },
    ] as DocumentView["diagnostics"];
    const q = await render(<WeaveflowInspector view={baseView("weaveflow", diags)} weaveflow={weaveflow} send={(e) => sent.push(e)} />);
    expect(q("wf-binding-target-path-problem")?.textContent).toContain("must start with");
    await type(q("wf-node-name"), "Seed");
    await type(q("wf-binding-target-path"), "shared.seed");
    expect(sent).toEqual([
      { op: "set_node_field", id: "seed", field: "name", value: "Seed" },
      { op: "set_node_field", id: "seed", field: "state", value: { target: { path: "shared.seed" } } },
    ]);
  });

  it("edits an edge's condition config and failure route", async () => {
    const sent: Edit[] = [];
    ui.set({ selection: { nodes: [], edges: [0] } });
    const q = await render(<WeaveflowInspector view={baseView("weaveflow")} weaveflow={weaveflow} send={(e) => sent.push(e)} />);
    await type(q("wf-cond-config"), '{"expression": "x > 1"}');
    await type(q("wf-failure-stages"), '["execute"]');
    expect(sent).toEqual([
      { op: "set_edge_field", index: 0, field: "condition", value: { type: "cel", config: { expression: "x > 1" } } },
      { op: "set_edge_field", index: 0, field: "failure", value: { stages: ["execute"] } },
    ]);
  });

  it("shows and sets the entry and finish points", async () => {
    const sent: Edit[] = [];
    const q = await render(<WeaveflowInspector view={baseView("weaveflow")} weaveflow={weaveflow} send={(e) => sent.push(e)} />);
    const entry = q("wf-entry-point") as unknown as HTMLSelectElement;
    expect(entry.value).toBe("seed");
    await act(async () => {
      const finish = q("wf-finish-point") as unknown as HTMLSelectElement;
      finish.value = "done";
      finish.dispatchEvent(new Event("change", { bubbles: true }));
    });
    expect(sent).toEqual([{ op: "set_doc_field", field: "finish_point", value: "done" }]);
  });
});

describe("the GRAPH.md inspector and path panel", () => {
  it("edits a judge's timeout as a number", async () => {
    const sent: Edit[] = [];
    ui.set({ selection: { nodes: ["route"], edges: [] } });
    const q = await render(<GraphMdInspector view={baseView("graphmd")} graphmd={graphmd} send={(e) => sent.push(e)} />);
    expect(q("graphmd-timeout-ms")?.value).toBe("1000");
    await type(q("graphmd-timeout-ms"), "2500");
    expect(sent).toEqual([{ op: "set_node_field", id: "route", field: "timeout_ms", value: 2500 }]);
  });

  it("edits the body as text and the edge kind", async () => {
    const sent: Edit[] = [];
    const q = await render(<GraphMdInspector view={baseView("graphmd")} graphmd={graphmd} send={(e) => sent.push(e)} />);
    await type(q("graphmd-body"), "\n# New notes\n");
    expect(sent).toEqual([{ op: "set_body", text: "\n# New notes\n" }]);
    act(() => root?.unmount());
    ui.set({ selection: { nodes: [], edges: [0] } });
    const q2 = await render(<GraphMdInspector view={baseView("graphmd")} graphmd={graphmd} send={(e) => sent.push(e)} />);
    await act(async () => {
      const k = q2("graphmd-edge-kind") as unknown as HTMLSelectElement;
      k.value = "loop";
      k.dispatchEvent(new Event("change", { bubbles: true }));
    });
    expect(sent[1]).toEqual({ op: "set_edge_field", index: 0, field: "kind", value: "loop" });
  });

  it("lists paths with tokens, cost and latency, marks the one over budget, and selects a chosen path", async () => {
    const q = await render(<PathsPanel graphmd={graphmd} />);
    expect(q("path-0-tokens")?.textContent).toBe("500 tokens");
    expect(q("path-0-cost")?.textContent).toBe("$0.0100");
    expect(q("path-1-latency")?.textContent).toBe("1200 ms");
    expect(q("path-0")?.getAttribute("data-over-budget")).toBe("false");
    expect(q("path-1")?.getAttribute("data-over-budget")).toBe("true");
    await act(async () => (q("path-1") as unknown as HTMLElement).click());
    expect(ui.get().selection).toEqual({ nodes: ["route", "answer", "close"], edges: [0] });
    expect(q("path-1")?.className).toContain("chosen");
  });
});

describe("canvas roles", () => {
  it("marks Weaveflow entry/finish points and GRAPH.md entry/exits", () => {
    const wf = { ...baseView("weaveflow"), weaveflow: { ...weaveflow, finishPoint: "done" } };
    expect(rolesOf(wf, "seed")).toEqual(["entry"]);
    expect(rolesOf(wf, "done")).toEqual(["finish"]);
    const md = { ...baseView("graphmd"), graphmd };
    expect(rolesOf(md, "route")).toEqual(["entry"]);
    expect(rolesOf(md, "close")).toEqual(["exit"]);
    expect(rolesOf(baseView("graphspec"), "seed")).toEqual([]);
  });
});
