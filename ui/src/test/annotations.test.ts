// Notes and groups on the canvas, on a view Rust wrote (the example with a note, a collapsed
// group of five and a group nested in it: crates/doc/src/tests/ui_fixtures.rs): the box stands
// for the members in both drawings with the edges Rust aggregated, frames sit around their
// members, drags join and leave groups, a group moves as one, find finds note text and group
// names, and copy carries the notes and groups with renamed members.
import { describe, expect, it } from "vitest";
import type { DocumentView } from "../bindings";
import { annotationUnderlay, collapsedFlow, collapsedOf, collapsedScene } from "../annotations/collapsedCanvas";
import { BOX_H, BOX_W, PAD, TITLE, boxId, framesOf, membershipAfterDrag, moveGroups } from "../annotations/frames";
import { FlowCache, problemsOf } from "../canvas/buildFlow";
import { nodeFields, sceneInput } from "../canvas/sceneInput";
import { FindIndex } from "../find/findIndex";
import { buildFragment, parseFragment, withAnnotations } from "../lib/clipboard";
import { resolvePositions } from "../lib/geometry";
import { rust } from "./recorded";

const view = rust.annotated.view;
const positions = resolvePositions(view.spec, view.layout.positions);

function expanded(v: DocumentView): DocumentView {
  // The same document with the group expanded, as Rust would answer it (nothing collapsed).
  return {
    ...v,
    layout: { ...v.layout, groups: v.layout.groups.map((g) => ({ ...g, collapsed: false })) },
    collapsed: { boxes: {}, nodes: {}, notes: {}, groups: [], hiddenEdges: [], edges: [] },
  };
}

describe("a collapsed group", () => {
  it("is one box where its members' frame begins, with the count Rust gave", () => {
    expect(Object.keys(view.collapsed.boxes)).toEqual(["group_2"]);
    const { frames, boxes } = framesOf(view, positions);
    expect(frames).toEqual([]); // the nested frame is hidden in the box
    expect(boxes.map((b) => [b.group.id, b.count])).toEqual([["group_2", 6]]);
    // The members' top-left, less the padding and title of two frames: the top-left members
    // (lookup_order) are in the nested group, whose frame sits inside this one.
    const minX = Math.min(...["lookup_order", "open_ticket"].map((id) => positions[id].x));
    const minY = Math.min(...["lookup_order", "approve_refund"].map((id) => positions[id].y));
    expect(boxes[0].rect).toEqual({ x: minX - 2 * PAD, y: minY - 2 * (PAD + TITLE), w: BOX_W, h: BOX_H });
  });

  it("replaces its members in React Flow's nodes and edges with Rust's aggregated edges", () => {
    const c = collapsedOf(view, positions);
    expect(c).not.toBeNull();
    const cache = new FlowCache();
    const problems = problemsOf(view.diagnostics);
    const nodes = cache.buildNodes(view, positions, new Set(), problems, new Map());
    const edges = cache.buildEdges(view, new Set(), problems);
    const out = collapsedFlow(nodes, edges, c, new Set());
    const ids = out.nodes.map((n) => n.id);
    expect(ids).toContain(boxId("group_2"));
    for (const m of ["lookup_order", "approve_refund", "open_ticket", "answer", "reply"]) expect(ids).not.toContain(m);
    const drawn = out.edges.map((e) => `${e.source}>${e.target}:${e.data?.label ?? ""}`);
    // classify has three edges into the group: one edge, counted; reply -> __end__ leaves it.
    expect(drawn).toEqual(["__start__>classify:", "classify>group:group_2:×3", "group:group_2>__end__:"]);
    const counts = view.collapsed.edges.map((e) => e.edges.length);
    expect(counts).toEqual([3, 1]);
  });

  it("is drawn the same on the overview canvas", () => {
    const c = collapsedOf(view, positions);
    const inp = collapsedScene(
      sceneInput(
        view,
        nodeFields(view, positions, () => "#000", problemsOf(view.diagnostics), new Map()),
      ),
      c,
    );
    expect(inp.order).toContain(boxId("group_2"));
    expect(inp.order).not.toContain("answer");
    expect(inp.name?.(boxId("group_2"))).toBe("Handling");
    expect(inp.type?.(boxId("group_2"))).toBe("6 members (collapsed)");
    expect(inp.edges.filter((e) => e.index === -1).map((e) => `${e.from}>${e.to}:${e.label}`)).toEqual([
      "classify>group:group_2:×3",
      "group:group_2>__end__:",
    ]);
  });

  it("moves its members (and notes) by the same offset when its box is dragged", () => {
    const m = moveGroups(view, positions, ["group_2"], 30, -10);
    expect(Object.keys(m.positions).sort()).toEqual(["answer", "approve_refund", "lookup_order", "open_ticket", "reply"]);
    for (const [id, p] of Object.entries(m.positions)) expect(p).toEqual({ x: positions[id].x + 30, y: positions[id].y - 10 });
    expect(m.notes).toEqual({ note: { x: 370, y: 490 } });
  });
});

describe("expanded groups", () => {
  const open = expanded(view);

  it("are frames around their members, the nested one inside its parent", () => {
    const { frames, boxes } = framesOf(open, positions);
    expect(boxes).toEqual([]);
    const outer = frames.find((f) => f.group.id === "group_2");
    const inner = frames.find((f) => f.group.id === "group");
    expect(outer && inner).toBeTruthy();
    if (!outer || !inner) return;
    expect(inner.depth).toBe(1);
    expect(inner.rect.x).toBeGreaterThan(outer.rect.x);
    expect(inner.rect.x + inner.rect.w).toBeLessThan(outer.rect.x + outer.rect.w);
    // The note is inside the outer frame.
    const note = open.layout.notes[0];
    expect(note.y + note.height).toBeLessThan(outer.rect.y + outer.rect.h);
  });

  it("are drawn into the overview's bitmap with the notes (nothing of a collapsed group)", () => {
    const drawn = annotationUnderlay(open, positions).map((u) => [u.kind, u.title]);
    expect(drawn).toEqual([
      ["frame", "Handling  (6)"],
      ["frame", "Refund path  (2)"],
      ["note", "Refunds"],
    ]);
    expect(annotationUnderlay(view, positions)).toEqual([]);
  });

  it("take a node dropped inside and let go of one dragged out", () => {
    const into = membershipAfterDrag(open, positions, { classify: { x: positions.answer.x, y: positions.answer.y + 30 } });
    expect(into).toEqual({ classify: "group_2" });
    const innermost = membershipAfterDrag(open, positions, {
      classify: { x: positions.approve_refund.x - 10, y: positions.approve_refund.y },
    });
    expect(innermost).toEqual({ classify: "group" });
    const out = membershipAfterDrag(open, positions, { reply: { x: 3000, y: 3000 } });
    expect(out).toEqual({ reply: null });
    // The whole group dragged together stays a group.
    const all = Object.fromEntries(["lookup_order", "approve_refund"].map((id) => [id, { x: positions[id].x + 900, y: positions[id].y }]));
    expect(membershipAfterDrag(open, positions, all)).toEqual({});
  });
});

describe("find", () => {
  it("finds note text and group names", () => {
    const index = new FindIndex(view);
    const note = index.search("100 eur").map((i) => index.items[i]);
    expect(note.map((i) => [i.kind, i.label, i.annotation?.id])).toEqual([["note", "Refunds", "note"]]);
    const group = index.search("refund path").map((i) => index.items[i]);
    expect(group.map((i) => [i.kind, i.annotation?.id])).toEqual([["group", "group"]]);
    expect(group[0].nodes).toEqual(["lookup_order", "approve_refund"]);
  });
});

describe("copy and paste", () => {
  // Renaming the members of a pasted group with the nodes is Rust's (crates/doc
  // tests/annotations.rs: a_group_copied_from_one_document_pastes_into_another_with_ids_renamed).
  it("carries the groups whose nodes are copied and the notes in them", () => {
    const sel = new Set(["lookup_order", "approve_refund"]);
    const f = withAnnotations(buildFragment(view.spec, positions, sel), positions, view.layout, new Set(), new Set(["group"]));
    expect(f.layout?.groups?.map((g) => [g.id, g.nodes, g.parent])).toEqual([["group", ["lookup_order", "approve_refund"], undefined]]);
    const parsed = parseFragment(JSON.stringify(f));
    if ("error" in parsed) throw new Error(parsed.error);
    expect(parsed.fragment.layout?.groups?.[0].nodes).toEqual(["lookup_order", "approve_refund"]);
  });
});
