// The overview scene patched after an edit is the scene built anew: 300 random edits, undos
// of them and mixes (nodes removed with their edges, added, replaced, moved; edges added,
// also to an id that becomes a node later; labels and findings changed), each compared field
// by field with `buildScene` of the view after it.
import { describe, expect, it } from "vitest";
import type { Diagnostic, DocumentView, EdgeSpec, ListEdit, NodeSpec, Point, TypeInfo, ViewDelta } from "../bindings";
import { applyDelta, deltaOf } from "../api/delta";
import { problemsOf } from "../canvas/buildFlow";
import { type Scene, buildScene } from "../canvas/scene";
import { nodeFields, sceneInput } from "../canvas/sceneInput";
import { patchScene, runsAfter } from "../canvas/scenePatch";
import { changesMatched, sceneChanges } from "../canvas/sceneChanges";
import { patchOrigin } from "../canvas/sceneOrigin";
import { gridOf, sceneQuery } from "../canvas/sceneIndex";
import { everyNodeStored, knownExact, resolvePositions } from "../lib/geometry";
import { generateGraph } from "../perf/generate";

function rng(seed: number) {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) >>> 0) / 4294967296;
}

const types = new Map<string, TypeInfo>([["llm", { type: "llm", title: "Language model" } as TypeInfo]]);
const color = (n: NodeSpec | undefined) => (!n ? "#475569" : n.type === "llm" ? "#aa0000" : "#00aa00");

function start(n: number): DocumentView {
  const g = generateGraph(n, 7);
  return {
    id: "1",
    spec: g.spec,
    layout: { positions: g.positions, viewport: null, notes: [], groups: [] },
    edgeLabels: g.spec.edges.map((e) => (e.when ? { text: "when" } : null)),
    extraEdges: [{ from: "__start__", to: g.spec.nodes[0].id, label: "entry", dashed: false }],
    routes: { edges: g.spec.edges.map(() => null), extra: [null] },
    collapsed: { groups: {}, notes: {} },
    diagnostics: [],
    registry: [],
    subgraphs: [],
  } as unknown as DocumentView;
}

function delta(over: Partial<ViewDelta>): ViewDelta {
  return {
    id: "1",
    nodes: [],
    edges: [],
    edgeLabels: [],
    extraEdges: null,
    routes: null,
    name: null,
    channels: {},
    positions: {},
    viewport: null,
    annotations: null,
    layoutMissing: false,
    diagnostics: null,
    dirty: true,
    canUndo: true,
    canRedo: false,
    notices: [],
    weaveflow: null,
    graphmd: null,
    subgraphs: null,
    notes: [],
    created: [],
    // As Rust answers: the collapsed view comes with every change of the nodes or edges.
    collapsed:
      over.nodes?.length || over.edges?.length ? { boxes: {}, nodes: {}, notes: {}, groups: [], hiddenEdges: [], edges: [] } : null,
    ...over,
  };
}

let fresh = 0;
/** One random change of `v`, as Rust would answer it. */
function randomDelta(v: DocumentView, r: () => number): ViewDelta {
  const nodes = v.spec.nodes;
  const edges = v.spec.edges;
  const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)];
  const at = (len: number) => Math.floor(r() * (len + 1));
  const kind = Math.floor(r() * 7);
  if (kind === 0 && nodes.length > 5) {
    // Remove a node and its edges (from the last, so each index holds when applied in order).
    const k = Math.floor(r() * nodes.length);
    const id = nodes[k].id;
    const gone = edges.flatMap((e, i) => (e.from === id || e.to === id ? [i] : [])).reverse();
    const cut: ListEdit<never>[] = gone.map((i) => ({ at: i, remove: 1, insert: [] }));
    return delta({ nodes: [{ at: k, remove: 1, insert: [] }], edges: cut, edgeLabels: cut, positions: { [id]: null } });
  }
  if (kind === 1) {
    // Add a node (sometimes one an edge already names) with an edge to it.
    const id = r() < 0.3 ? "ghost" : `new${fresh++}`;
    if (nodes.some((n) => n.id === id)) return delta({});
    const node = { id, type: r() < 0.5 ? "llm" : "tool", config: { k: fresh } } as unknown as NodeSpec;
    const edge = { from: pick(nodes).id, to: id } as EdgeSpec;
    const p: Point = { x: r() * 5000, y: r() * 5000 };
    return delta({
      nodes: [{ at: at(nodes.length), remove: 0, insert: [node] }],
      edges: [{ at: edges.length, remove: 0, insert: [edge] }],
      edgeLabels: [{ at: edges.length, remove: 0, insert: [null] }],
      positions: { [id]: p },
    });
  }
  if (kind === 2) {
    // A config field: the node replaced by a new object.
    const k = Math.floor(r() * nodes.length);
    const node = { ...nodes[k], config: { changed: r() } } as NodeSpec;
    return delta({ nodes: [{ at: k, remove: 1, insert: [node] }] });
  }
  if (kind === 3) {
    // Moves.
    const moved: Record<string, Point> = {};
    for (let i = 0; i < 3; i++) moved[pick(nodes).id] = { x: r() * 5000, y: r() * 5000 };
    return delta({ positions: moved });
  }
  if (kind === 4) {
    // An edge to a node that does not exist (yet), or a new guard label on an edge.
    if (r() < 0.5) {
      const edge = { from: pick(nodes).id, to: "ghost" } as EdgeSpec;
      const k = at(edges.length);
      return delta({ edges: [{ at: k, remove: 0, insert: [edge] }], edgeLabels: [{ at: k, remove: 0, insert: [{ text: "g" } as never] }] });
    }
    const k = Math.floor(r() * edges.length);
    return delta({ edgeLabels: [{ at: k, remove: 1, insert: [{ text: `label ${r()}` } as never] }] });
  }
  if (kind === 5) {
    // Findings: one added on a node, or the first one removed.
    const d = v.diagnostics;
    if (d.length && r() < 0.5) return delta({ diagnostics: { at: 0, remove: 1, insert: [] } });
    const finding = {
      code: "x",
      severity: r() < 0.5 ? "error" : "warning",
      message: "m",
      element: { kind: "node", id: pick(nodes).id },
    } as Diagnostic;
    return delta({ diagnostics: { at: at(d.length), remove: 0, insert: [finding] } });
  }
  // Several at once: remove two edges, replace their labels' neighbours.
  const cut: ListEdit<never>[] = edges.length > 3 ? [{ at: 1, remove: 2, insert: [] }] : [];
  return delta({ edges: cut, edgeLabels: cut });
}

function sceneOf(v: DocumentView): Scene {
  const positions = resolvePositions(v.spec, v.layout.positions);
  return buildScene(sceneInput(v, nodeFields(v, positions, color, problemsOf(v.diagnostics), types)));
}

function plain(s: Scene) {
  return {
    ...s,
    x: [...s.x],
    y: [...s.y],
    w: [...s.w],
    h: [...s.h],
    problem: [...s.problem],
    edgeFrom: [...s.edgeFrom],
    edgeTo: [...s.edgeTo],
    guarded: [...s.guarded],
    dashed: [...s.dashed],
    edgeIndex: [...s.edgeIndex],
    subgraph: [...s.subgraph],
    index: s.ids.map((id) => [id, s.index.get(id)]),
    indexSize: s.index.size,
  };
}

describe("patchScene", () => {
  it("gives the scene a full build gives, after each of 300 random edits", () => {
    const r = rng(13);
    let v = start(150);
    let scene = sceneOf(v);
    let patched = 0;
    let changed = 0;
    let shared = 0;
    let carried = 0;
    for (let step = 0; step < 300; step++) {
      const d = randomDelta(v, r);
      const next = applyDelta(v, d);
      const positions = resolvePositions(next.spec, next.layout.positions);
      expect(everyNodeStored(positions)).toBe(true);
      const fields = nodeFields(next, positions, color, problemsOf(next.diagnostics), types);
      const got = patchScene(scene, v, next, d, fields);
      expect(got, `step ${step}: the patch gave up`).not.toBeNull();
      const want = sceneOf(next);
      expect(plain(got as Scene), `step ${step}`).toEqual(plain(want));
      // What the renderer paints again: along the patch, at least the places that matching
      // the two scenes by ids and edge objects finds.
      expect(patchOrigin(got as Scene)?.prev, `step ${step}: the patch left no origin`).toBe(scene);
      // The grid of node places (shared with the scene before when no node moved, else
      // carried over from it) finds what a fresh scene's grid finds, in the same order.
      for (let q = 0; q < 3; q++) {
        const rect = { x: r() * 4000 - 500, y: r() * 4000 - 500, w: 200 + r() * 1500, h: 200 + r() * 1500 };
        expect(sceneQuery(got as Scene, rect), `step ${step}: query`).toEqual(sceneQuery(want, rect));
      }
      if (gridOf(got as Scene) === gridOf(scene)) shared++;
      else if (gridOf(got as Scene).cells === gridOf(scene).cells) carried++;
      for (const zoom of [0.05, 1]) {
        const along = sceneChanges(scene, got as Scene, zoom);
        const matched = changesMatched(scene, got as Scene, zoom);
        expect(along, `step ${step}: no changes along the patch`).not.toBeNull();
        if (!along || !matched) continue;
        expect([...along.removed].sort(), `step ${step}`).toEqual([...matched.removed].sort());
        const key = (r: { x: number; y: number; w: number; h: number }) => `${r.x},${r.y},${r.w},${r.h}`;
        const painted = new Set(along.places.map(key));
        for (const r of matched.places) expect(painted.has(key(r)), `step ${step}: ${key(r)} not painted again`).toBe(true);
        const drawnDifferently = d.nodes.length || d.edges.length || d.edgeLabels.length || Object.keys(d.positions).length;
        if (drawnDifferently && along.places.length) changed++;
      }
      patched++;
      v = next;
      scene = got as Scene;
    }
    expect(patched).toBe(300);
    expect(shared, "edits that moved no node kept the grid").toBeGreaterThan(30);
    expect(carried, "edits that added, removed or moved nodes carried the grid over").toBeGreaterThan(30);
    expect(changed, "edits that changed the drawing found places to paint").toBeGreaterThan(300);
    // The walk did reach the cases that matter: a node named by an edge before it existed.
    expect(v.spec.edges.some((e) => e.to === "ghost")).toBe(true);
  });

  it("gives up where it cannot be exact: groups, notes, drawn-only edges changed, a large edit", () => {
    const v = start(50);
    const scene = sceneOf(v);
    const positions = resolvePositions(v.spec, v.layout.positions);
    const fields = nodeFields(v, positions, color, problemsOf([]), types);
    const grouped = {
      ...v,
      layout: { ...v.layout, groups: [{ id: "g", name: "G", members: [], color: null }] },
    } as unknown as DocumentView;
    expect(patchScene(scene, v, grouped, delta({}), fields)).toBeNull();
    expect(patchScene(scene, v, v, delta({ extraEdges: [] }), fields)).toBeNull();
    const many = Array.from({ length: 3000 }, (_, i) => ({ id: `m${i}` }) as NodeSpec);
    const big = delta({ nodes: [{ at: 0, remove: 0, insert: many }] });
    expect(patchScene(scene, v, applyDelta(v, big), big, fields)).toBeNull();
  });
});

describe("resolved positions along deltas", () => {
  it("are what they are from scratch after each of 300 random edits, and stay known exact without a scan", () => {
    const r = rng(29);
    const first = start(150);
    let v: DocumentView = {
      ...first,
      layout: { ...first.layout, positions: { ...first.layout.positions, __start__: { x: -300, y: 0 }, __end__: { x: 9000, y: 0 } } },
    };
    expect(resolvePositions(v.spec, v.layout.positions)).toBe(v.layout.positions);
    let carried = 0;
    for (let step = 0; step < 300; step++) {
      const d = randomDelta(v, r);
      const next = applyDelta(v, d);
      const wasKnown = knownExact(next.layout.positions, next.spec.nodes);
      const got = resolvePositions(next.spec, next.layout.positions);
      // From scratch: a copy of the stored positions, which nothing is known of.
      const want = resolvePositions(next.spec, { ...next.layout.positions });
      expect(got, `step ${step}`).toEqual(want);
      if (wasKnown) {
        carried++;
        expect(got, `step ${step}: known exact, so its own resolution`).toBe(next.layout.positions);
      }
      v = next;
    }
    // Most edits keep every node placed (the generator's additions come with a place).
    expect(carried).toBeGreaterThan(250);
  });

  it("are not taken as exact when an edit leaves a node without a place or a place without a node", () => {
    const first = start(20);
    const v: DocumentView = {
      ...first,
      layout: { ...first.layout, positions: { ...first.layout.positions, __start__: { x: -300, y: 0 }, __end__: { x: 9000, y: 0 } } },
    };
    resolvePositions(v.spec, v.layout.positions);
    const id = v.spec.nodes[2].id;
    // The node removed, its place kept.
    const kept = applyDelta(v, delta({ nodes: [{ at: 2, remove: 1, insert: [] }] }));
    expect(knownExact(kept.layout.positions, kept.spec.nodes)).toBe(false);
    expect(Object.keys(resolvePositions(kept.spec, kept.layout.positions))).not.toContain(id);
    // A node added without a place.
    const bare = applyDelta(v, delta({ nodes: [{ at: 0, remove: 0, insert: [{ id: "bare", type: "t", config: {} } as NodeSpec] }] }));
    expect(knownExact(bare.layout.positions, bare.spec.nodes)).toBe(false);
    expect(Number.isFinite(resolvePositions(bare.spec, bare.layout.positions).bare.x)).toBe(true);
    // A place for an id that is no node; a node's place removed.
    const stray = applyDelta(v, delta({ positions: { nobody: { x: 1, y: 1 } } }));
    expect(knownExact(stray.layout.positions, stray.spec.nodes)).toBe(false);
    expect(resolvePositions(stray.spec, stray.layout.positions).nobody).toBeUndefined();
    const unplaced = applyDelta(v, delta({ positions: { [id]: null } }));
    expect(knownExact(unplaced.layout.positions, unplaced.spec.nodes)).toBe(false);
    // A second node of an existing id.
    const twin = applyDelta(v, delta({ nodes: [{ at: 0, remove: 0, insert: [{ ...v.spec.nodes[5] }] }] }));
    expect(knownExact(twin.layout.positions, twin.spec.nodes)).toBe(false);
  });
});

describe("deltaOf", () => {
  it("knows the last step only, so a view does not hold every view before it", () => {
    const a = start(10);
    const b = applyDelta(a, delta({}));
    expect(deltaOf(b)?.from).toBe(a);
    const c = applyDelta(b, delta({}));
    expect(deltaOf(c)?.from).toBe(b);
    expect(deltaOf(b)).toBeUndefined();
  });
});

/** Where each item of the list after `edits` was in the list before (-1: added), from the runs. */
function placesAfter(length: number, edits: ListEdit<unknown>[]): number[] {
  return runsAfter(length, edits).flatMap((r) => Array.from({ length: r.len }, (_, k) => (r.from < 0 ? -1 : r.from + k)));
}

describe("runsAfter", () => {
  it("says where each item came from, as splicing the list would", () => {
    const r = rng(5);
    for (let round = 0; round < 500; round++) {
      let list = Array.from({ length: Math.floor(r() * 30) }, (_, i) => i);
      const start = list.length;
      const edits: ListEdit<unknown>[] = [];
      for (let k = Math.floor(r() * 5); k > 0; k--) {
        const at = Math.floor(r() * (list.length + 2));
        const remove = Math.floor(r() * 6);
        const insert = Array.from({ length: Math.floor(r() * 4) }, () => -1);
        edits.push({ at, remove, insert });
        list = list.slice();
        list.splice(Math.min(at, list.length), remove, ...insert);
      }
      expect([...placesAfter(start, edits)], JSON.stringify({ start, edits })).toEqual(list);
    }
  });
});
