// What the overview canvas draws of a document: nodes with their type and config (its summary),
// the document's edges with their labels (every format, Rust's `edgeLabels`), and the edges
// drawn for the reader only (entry and finish marks, fallback routes: Rust's `extraEdges`).
import type { DocumentView, NodeSpec, Point, TypeInfo } from "../bindings";
import { terminalsInUse } from "../lib/geometry";
import type { Problems } from "./buildFlow";
import type { SceneInput } from "./scene";
import { marksOf } from "../subgraphs/mark";

/** What the scene shows of each node of the view (everything but the order and the edges). */
export type NodeFields = Omit<SceneInput, "order" | "edges">;

export function nodeFields(
  view: DocumentView,
  positions: Record<string, Point>,
  color: (node: NodeSpec | undefined) => string,
  problems: Problems,
  types: Map<string, TypeInfo>,
): NodeFields {
  const nodes = view.spec.nodes;
  // `order` starts with the document's nodes, so a node is found by its place; the map by id
  // is built only for a caller that reorders (collapsed groups) and asks by id alone.
  let byId: Map<string, (typeof nodes)[number]> | null = null;
  const nodeOf = (id: string, at?: number) => {
    if (at !== undefined && nodes[at]?.id === id) return nodes[at];
    byId ??= new Map(nodes.map((n) => [n.id, n]));
    return byId.get(id);
  };
  const marks = marksOf(view);
  return {
    positions,
    color: (id, at) => color(nodeOf(id, at)),
    problem: (id) => {
      const p = problems.nodes.get(id);
      return p?.errors ? 2 : p?.warnings ? 1 : 0;
    },
    type: (id, at) => {
      // A subgraph node shows what it opens (or why it cannot) instead of its type.
      const m = marks.size ? marks.get(id) : undefined;
      if (m) return `${m.state === "resolved" ? "↳" : m.state === "unresolved" ? "⚠" : "·"} ${m.text}`;
      const t = nodeOf(id, at)?.type;
      return t ? (types.get(t)?.title ?? t) : "";
    },
    config: (id, at) => nodeOf(id, at)?.config,
    subgraph: (id) => {
      const m = marks.size ? marks.get(id) : undefined;
      return m ? (m.state === "unresolved" ? 2 : 1) : 0;
    },
  };
}

/** Document edge `index` as the scene draws it. */
export function docEdge(view: DocumentView, index: number): SceneInput["edges"][number] {
  const e = view.spec.edges[index];
  return { from: e.from, to: e.to, guarded: !!e.when, label: view.edgeLabels[index]?.text ?? "", index, ref: e };
}

/** The whole input of a scene: `fields` (`nodeFields`), the order and the edges. */
export function sceneInput(view: DocumentView, fields: NodeFields): SceneInput {
  return {
    ...fields,
    order: [...view.spec.nodes.map((n) => n.id), ...terminalsInUse(view.spec)],
    edges: [
      ...view.spec.edges.map((_, index) => docEdge(view, index)),
      ...view.extraEdges.map((e) => ({ from: e.from, to: e.to, guarded: false, label: e.label, dashed: e.dashed, index: -1, ref: e })),
    ],
  };
}
