// The overview scene of a large graph after an edit, stage by stage (vitest bench, V8: a
// guide to where the time goes; the figures that count are the real app's, `npm run bench`).
// `SCENE_BENCH_N=100000 npx vitest bench --run src/canvas/scene.bench.ts`.
import { bench, describe } from "vitest";
import type { DocumentView, TypeInfo, ViewDelta } from "../bindings";
import { resolvePositions } from "../lib/geometry";
import { generateGraph } from "../perf/generate";
import { problemsOf } from "./buildFlow";
import { buildScene } from "./scene";
import { nodeFields, sceneInput } from "./sceneInput";
import { gridOf } from "./sceneIndex";
import { patchScene } from "./scenePatch";
import { sceneChanges } from "./sceneChanges";
import { applyDelta } from "../api/delta";

const N = Number(process.env.SCENE_BENCH_N ?? 10_000);
const g = generateGraph(N);
const view = {
  id: "1",
  spec: g.spec,
  layout: { positions: g.positions, viewport: null, notes: [], groups: [] },
  edgeLabels: g.spec.edges.map((e) => (e.when ? { text: "x == 1" } : null)),
  extraEdges: [],
  diagnostics: [],
  registry: [],
  subgraphs: [],
} as unknown as DocumentView;
const types = new Map<string, TypeInfo>();
const problems = problemsOf([]);
const color = () => "#123456";
const positions = resolvePositions(view.spec, view.layout.positions);

describe(`scene of ${N} nodes`, () => {
  bench("resolvePositions", () => {
    resolvePositions(view.spec, view.layout.positions);
  });
  bench("sceneInput", () => {
    sceneInput(view, nodeFields(view, positions, color, problems, types));
  });
  const inp = sceneInput(view, nodeFields(view, positions, color, problems, types));
  bench("buildScene", () => {
    buildScene(inp);
  });
  bench("gridOf (new scene)", () => {
    gridOf(buildScene(inp));
  });
  // A config field of node 3: the node replaced by a new object.
  const node = { ...view.spec.nodes[3], config: { changed: 1 } };
  const d = {
    nodes: [{ at: 3, remove: 1, insert: [node] }],
    edges: [],
    edgeLabels: [],
    positions: {},
    diagnostics: null,
  } as unknown as ViewDelta;
  const full = { ...view, layout: { ...view.layout, notes: [], groups: [] } } as DocumentView;
  const after = applyDelta(full, { ...d, channels: {}, notices: [], annotations: null, collapsed: null } as ViewDelta);
  const before = buildScene(inp);
  const fields = nodeFields(after, positions, color, problems, types);
  bench("patchScene (a config field)", () => {
    patchScene(before, full, after, d, fields);
  });
  // A Delete of a node in the middle: it and its edges removed, every later node one place
  // down (the index and the grid carried over, not built again).
  const victim = view.spec.nodes[Math.floor(N / 2)].id;
  const cut: { at: number; remove: number; insert: never[] }[] = [];
  view.spec.edges.forEach((e, k) => {
    if (e.from === victim || e.to === victim) cut.push({ at: k - cut.length, remove: 1, insert: [] });
  });
  const del = {
    nodes: [{ at: Math.floor(N / 2), remove: 1, insert: [] }],
    edges: cut,
    edgeLabels: cut,
    positions: { [victim]: null },
    diagnostics: null,
  } as unknown as ViewDelta;
  const deleted = applyDelta(full, { ...del, channels: {}, notices: [], annotations: null, collapsed: null } as ViewDelta);
  const delFields = nodeFields(deleted, resolvePositions(deleted.spec, deleted.layout.positions), color, problems, types);
  bench("patchScene (a delete), its changes and its grid", () => {
    const s = patchScene(before, full, deleted, del, delFields);
    if (s) {
      sceneChanges(before, s, 0.5);
      gridOf(s);
    }
  });
});
