// The scene the zoomed-out canvas draws: every node's box, colour, problem and texts, and every
// edge's ends, in flat arrays (100,000 nodes are a few typed arrays, not 100,000 objects), with
// the index from node id to place. Built from the document view (`sceneInput.ts`), patched after
// an edit (`scenePatch.ts`), compared (`sceneChanges.ts`) and queried (`sceneIndex.ts`).
import type { Point } from "../bindings";
import { NODE_H, NODE_W, TERMINAL, isTerminal } from "../lib/geometry";
import type { NodeIndex } from "./nodeIndex";

export type Scene = {
  ids: string[];
  x: Float64Array;
  y: Float64Array;
  w: Float64Array;
  h: Float64Array;
  color: string[];
  problem: Uint8Array; // 0 none, 1 warning, 2 error
  edgeFrom: Int32Array;
  edgeTo: Int32Array;
  guarded: Uint8Array;
  /** Drawn dashed (a GRAPH.md judge's fallback route). */
  dashed: Uint8Array;
  /** The document edge each drawn edge is (-1: drawn only, never selected). */
  edgeIndex: Int32Array;
  /** Each edge's label ("" for none). */
  edgeLabel: string[];
  /** The document's object each edge stands for, when there is one (to tell after an edit
   * which edges are still the same, `sceneChanges.ts`). */
  edgeRef: (object | undefined)[];
  /** Per node: its type ("" for none) and its config (its summary: `configSummary`), drawn
   * as the zoom grows. */
  nodeType: string[];
  config: unknown[];
  /** The name drawn on each node (its id; a collapsed group's box: the group's name). */
  names: string[];
  /** Per node: 0 a plain node, 1 a subgraph node, 2 one whose reference cannot be used. */
  subgraph: Uint8Array;
  index: NodeIndex;
  /** Drawn under everything, into the cached bitmap: group frames and notes. */
  underlay: Underlay[];
};

/** A group frame (a title bar in `line` with `title`) or a note (its first line as `title`). */
export type Underlay = { kind: "frame" | "note"; x: number; y: number; w: number; h: number; fill: string; line: string; title: string };

export type SceneInput = {
  order: string[];
  positions: Record<string, Point>;
  /** `at`: as for `type`. */
  color: (id: string, at?: number) => string;
  problem: (id: string) => 0 | 1 | 2;
  edges: { from: string; to: string; guarded: boolean; label?: string; dashed?: boolean; index?: number; ref?: object }[];
  /** `at`: the node's place in `order` (lets the input find the node without a lookup). */
  type?: (id: string, at?: number) => string;
  config?: (id: string, at?: number) => unknown;
  name?: (id: string) => string;
  subgraph?: (id: string) => 0 | 1 | 2;
  underlay?: Underlay[];
};

/** The lists of a scene that hold strings or objects (a patch gives them already copied). */
export type SceneLists = Pick<Scene, "color" | "nodeType" | "config" | "names" | "edgeLabel" | "edgeRef">;

/** A scene of `n` nodes and `m` edges, every field still to be filled (`lists`: but those). */
export function emptyScene(ids: string[], m: number, underlay: Underlay[], lists?: SceneLists): Scene {
  const n = ids.length;
  return {
    ids,
    x: new Float64Array(n),
    y: new Float64Array(n),
    w: new Float64Array(n),
    h: new Float64Array(n),
    color: lists?.color ?? new Array(n),
    problem: new Uint8Array(n),
    edgeFrom: new Int32Array(m),
    edgeTo: new Int32Array(m),
    guarded: new Uint8Array(m),
    dashed: new Uint8Array(m),
    edgeIndex: new Int32Array(m),
    edgeLabel: lists?.edgeLabel ?? new Array(m),
    edgeRef: lists?.edgeRef ?? new Array(m),
    nodeType: lists?.nodeType ?? new Array(n),
    config: lists?.config ?? new Array(n),
    names: lists?.names ?? new Array(n),
    subgraph: new Uint8Array(n),
    index: new Map(),
    underlay,
  };
}

/** Node `i` of the scene (`s.ids[i]`), from the input: where it is and what it shows. */
export function fillNode(s: Scene, i: number, inp: SceneInput) {
  const id = s.ids[i];
  const p = inp.positions[id] ?? ORIGIN;
  const terminal = isTerminal(id);
  s.x[i] = p.x;
  s.y[i] = p.y;
  s.w[i] = terminal ? TERMINAL : NODE_W;
  s.h[i] = terminal ? TERMINAL : NODE_H;
  s.problem[i] = inp.problem(id);
  s.names[i] = inp.name?.(id) ?? id;
  // A terminal is drawn as a circle, with no type or config (and is no node to look up: the
  // input would search the node list for it).
  s.color[i] = terminal ? "terminal" : inp.color(id, i);
  s.nodeType[i] = terminal ? "" : (inp.type?.(id, i) ?? "");
  s.config[i] = terminal ? undefined : inp.config?.(id, i);
  s.subgraph[i] = terminal ? 0 : (inp.subgraph?.(id) ?? 0);
}

/** Edge `k` of the scene, its ends found in the scene's index. */
export function fillEdge(s: Scene, k: number, e: SceneInput["edges"][number]) {
  s.edgeFrom[k] = s.index.get(e.from) ?? -1;
  s.edgeTo[k] = s.index.get(e.to) ?? -1;
  s.guarded[k] = e.guarded || e.label ? 1 : 0;
  s.dashed[k] = e.dashed ? 1 : 0;
  s.edgeIndex[k] = e.index ?? k;
  s.edgeLabel[k] = e.label ?? "";
  s.edgeRef[k] = e.ref;
}

const ORIGIN = { x: 0, y: 0 };

export function buildScene(inp: SceneInput): Scene {
  const s = emptyScene(inp.order, inp.edges.length, inp.underlay ?? []);
  const index = new Map<string, number>();
  for (let i = 0; i < s.ids.length; i++) {
    fillNode(s, i, inp);
    index.set(s.ids[i], i);
  }
  s.index = index;
  for (let k = 0; k < inp.edges.length; k++) fillEdge(s, k, inp.edges[k]);
  return s;
}
