// Subgraph nodes in the UI, on views Rust wrote (fixtures/subgraphs.json, from
// crates/doc/src/tests/subgraphs.rs): what each node shows in both drawing modes, and the
// breadcrumb trail of tabs opened from subgraph nodes.
import { describe, expect, it } from "vitest";
import type { DocumentView } from "../bindings";
import { FlowCache, type GraphNodeData, problemsOf } from "../canvas/buildFlow";
import { buildScene } from "../canvas/scene";
import { nodeFields, sceneInput } from "../canvas/sceneInput";
import { type Crumbs, trail, withOpened } from "../subgraphs/breadcrumbs";
import { isSubgraphNode, marksOf } from "../subgraphs/mark";
import text from "./fixtures/subgraphs.json?raw";

const rust = JSON.parse(text) as { graphmd: DocumentView; weaveflow: DocumentView };

describe("subgraph nodes (views from Rust)", () => {
  it("every subgraph node has a mark: the graph it opens, or Rust's reason", () => {
    const m = marksOf(rust.graphmd);
    expect([...m.keys()]).toEqual(["billing", "lost", "again", "bare"]);
    expect(m.get("billing")).toMatchObject({ state: "resolved", text: "billing · 2 nodes", openable: true });
    expect(m.get("lost")).toMatchObject({ state: "unresolved", text: "file not found", openable: false });
    expect(m.get("lost")?.detail).toContain("/w/lost.md");
    // A cycle is shown as a problem, but the file is a graph: it still opens.
    expect(m.get("again")).toMatchObject({ state: "unresolved", text: "cycle", openable: true });
    expect(m.get("bare")).toMatchObject({ state: "none", openable: false });
    expect(isSubgraphNode(rust.graphmd, "start")).toBe(false);
    const w = marksOf(rust.weaveflow);
    expect(w.get("run")).toMatchObject({ state: "resolved", text: "billing · 2 nodes" });
    expect(w.get("gone")).toMatchObject({ state: "unresolved", text: "file not found" });
  });

  it("the React Flow nodes carry the mark, and the unresolved ones Rust's warning badge", () => {
    const v = rust.graphmd;
    const nodes = new FlowCache().buildNodes(v, v.layout.positions, new Set(), problemsOf(v.diagnostics), new Map());
    const data = (id: string) => nodes.find((n) => n.id === id)?.data as GraphNodeData;
    expect(data("billing").subgraph?.state).toBe("resolved");
    expect(data("billing").warnings).toBe(0);
    expect(data("lost").subgraph?.state).toBe("unresolved");
    // The diagnostic Rust put on the node is what badges it.
    expect(data("lost").warnings).toBe(1);
    expect(data("lost").firstProblem).toContain("lost.md");
    expect(data("start").subgraph).toBeUndefined();
  });

  it("the overview draws them stacked, the unresolved ones marked, with the mark as their second line", () => {
    const v = rust.weaveflow;
    const s = buildScene(
      sceneInput(
        v,
        nodeFields(v, v.layout.positions, () => "#888", problemsOf(v.diagnostics), new Map()),
      ),
    );
    const at = (id: string) => s.index.get(id) ?? -1;
    expect(s.subgraph[at("run")]).toBe(1);
    expect(s.subgraph[at("gone")]).toBe(2);
    expect(s.subgraph[at("seed")]).toBe(0);
    expect(s.nodeType[at("run")]).toBe("↳ billing · 2 nodes");
    expect(s.nodeType[at("gone")]).toBe("⚠ file not found");
    expect(s.problem[at("gone")]).toBe(1);
  });
});

describe("the breadcrumb trail", () => {
  const open = (ids: string[]) => (id: string) => ids.includes(id);

  it("goes from the outermost open parent down to the tab shown", () => {
    let c: Crumbs = {};
    c = withOpened(c, "2", { parentId: "1", nodeId: "billing" }, open(["1", "2"]));
    c = withOpened(c, "3", { parentId: "2", nodeId: "refund" }, open(["1", "2", "3"]));
    expect(trail(c, "3", open(["1", "2", "3"]))).toEqual(["1", "2", "3"]);
    expect(trail(c, "2", open(["1", "2", "3"]))).toEqual(["1", "2"]);
    expect(trail(c, "1", open(["1", "2", "3"]))).toEqual(["1"]);
    // A closed parent cuts the trail there.
    expect(trail(c, "3", open(["2", "3"]))).toEqual(["2", "3"]);
    expect(trail(c, "3", open(["1", "3"]))).toEqual(["3"]);
    expect(trail(c, null, open([]))).toEqual([]);
  });

  it("going back up through a cycle or opening a document from itself keeps the trail", () => {
    let c: Crumbs = {};
    const all = open(["1", "2"]);
    c = withOpened(c, "2", { parentId: "1", nodeId: "to_b" }, all);
    // B's subgraph node opens A again (A → B → A): A stays the root.
    const after = withOpened(c, "1", { parentId: "2", nodeId: "to_a" }, all);
    expect(after).toBe(c);
    expect(trail(after, "1", all)).toEqual(["1"]);
    expect(withOpened(c, "2", { parentId: "2", nodeId: "self" }, all)).toBe(c);
    // Even a loop in the map (written by hand) ends.
    const loop: Crumbs = { "1": { parentId: "2", nodeId: "x" }, "2": { parentId: "1", nodeId: "y" } };
    expect(trail(loop, "1", all)).toEqual(["2", "1"]);
  });

  it("opening the same child from another parent moves its crumb there", () => {
    const all = open(["1", "2", "3"]);
    let c: Crumbs = withOpened({}, "3", { parentId: "1", nodeId: "a" }, all);
    c = withOpened(c, "3", { parentId: "2", nodeId: "b" }, all);
    expect(trail(c, "3", all)).toEqual(["2", "3"]);
  });
});
