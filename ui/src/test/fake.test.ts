import { describe, expect, it } from "vitest";
import type { Edit } from "../bindings";
import { FakeBackend } from "../api/fake";
import { refuseConnection } from "../canvas/Canvas";
import { buildFragment, fragmentText, parseFragment, resolveClashes } from "../lib/clipboard";

describe("the fake backend behaves like the Rust session for the UI", () => {
  it("the corpus support-agent document names the undeclared channel and refuses to save", async () => {
    const b = new FakeBackend(["support"]);
    const v = await b.getDocument("doc-1");
    expect(v.diagnostics.map((d) => d.code)).toContain("spec/undeclared-channel");
    const out = await b.save(v.id);
    expect(out.saved).toBe(false);
    expect(out.diagnostics[0].message).toContain("not saved");
  });
  it("20 edits then 20 undos give the original back, and 20 redos the edited one", async () => {
    const b = new FakeBackend(["example"]);
    const id = "doc-1";
    const original = JSON.stringify((await b.getDocument(id)).spec);
    const edits: Edit[] = [];
    for (let i = 0; i < 5; i++) {
      edits.push({ op: "add_node", id: `n${i}`, type: "llm", position: { x: i * 10, y: 0 } });
      edits.push({ op: "set_config_field", id: `n${i}`, path: "/temperature", value: i / 10 });
      edits.push({ op: "connect", from: "answer", to: `n${i}` });
      edits.push(i % 2 ? { op: "rename_node", from: `n${i}`, to: `m${i}` } : { op: "add_channel", name: `c${i}`, reducer: "append" });
    }
    for (const e of edits) await b.applyEdit(id, e);
    const edited = JSON.stringify((await b.getDocument(id)).spec);
    for (let i = 0; i < 20; i++) await b.undo(id);
    expect(JSON.stringify((await b.getDocument(id)).spec)).toBe(original);
    for (let i = 0; i < 20; i++) await b.redo(id);
    expect(JSON.stringify((await b.getDocument(id)).spec)).toBe(edited);
  });
  it("copies three nodes from one document into another, renaming clashes", async () => {
    const b = new FakeBackend(["example", "example"]);
    const src = await b.getDocument("doc-1");
    const text = fragmentText(buildFragment(src.spec, { classify: { x: 0, y: 0 }, lookup: { x: 300, y: 0 }, answer: { x: 600, y: 0 } }, new Set(["classify", "lookup", "answer"])));
    const parsed = parseFragment(text);
    if (!("fragment" in parsed)) throw new Error(parsed.error);
    const dst = await b.getDocument("doc-2");
    const { fragment } = resolveClashes(parsed.fragment, new Set(dst.spec.nodes.map((n) => n.id)));
    const after = await b.applyEdit("doc-2", { op: "paste", fragment: fragment as never, at: { x: 1000, y: 1000 } });
    expect(after.spec.nodes.map((n) => n.id)).toEqual([...dst.spec.nodes.map((n) => n.id), "classify_2", "lookup_2", "answer_2"]);
    expect(after.spec.edges.filter((e) => e.from === "lookup_2")).toEqual([{ from: "lookup_2", to: "answer_2", when: { channel: "items", truthy: true } }]);
    expect(after.layout.positions.lookup_2).toEqual({ x: 1300, y: 1000 });
    await b.undo("doc-2");
    expect((await b.getDocument("doc-2")).spec.nodes).toHaveLength(dst.spec.nodes.length);
  });
  it("refuses to delete a channel a condition reads, naming the edge", async () => {
    const b = new FakeBackend(["example"]);
    await expect(b.applyEdit("doc-1", { op: "remove_channel", name: "intent" })).rejects.toThrow(/classify -> checkout/);
    const v = await b.applyEdit("doc-1", { op: "rename_channel", from: "intent", to: "goal" });
    expect(v.spec.edges[1].when?.channel).toBe("goal");
  });
  it("an automatic layout is not an undo step", async () => {
    const b = new FakeBackend(["support"]);
    const v = await b.applyEdit("doc-1", { op: "apply_layout", positions: { agent: { x: 1, y: 2 } }, automatic: true });
    expect(v.canUndo).toBe(false);
    expect(v.layout.positions.agent).toEqual({ x: 1, y: 2 });
  });
});

describe("connections the canvas refuses, with the reason", () => {
  it("into __start__, out of __end__, duplicates", async () => {
    const v = await new FakeBackend(["example"]).getDocument("doc-1");
    expect(refuseConnection(v, { source: "answer", target: "__start__" })).toMatch(/into __start__/);
    expect(refuseConnection(v, { source: "__end__", target: "answer" })).toMatch(/leave __end__/);
    expect(refuseConnection(v, { source: "answer", target: "__end__" })).toMatch(/already an edge/);
    expect(refuseConnection(v, { source: "answer", target: "lookup" })).toBeNull();
  });
});
