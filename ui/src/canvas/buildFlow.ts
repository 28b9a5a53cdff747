// DocumentView -> React Flow nodes and edges, reusing the objects of elements that did not
// change, so React Flow (which compares by identity) re-renders only what an edit touched.
import { type Edge, type Node, Position } from "@xyflow/react";
import type { Diagnostic, DocumentView, EdgeRoute, Fix, Point, TypeInfo } from "../bindings";
import { categoryColor } from "../lib/colors";
import { typeTitle } from "../lib/fuzzy";
import { NODE_H, NODE_W, TERMINAL, isTerminal, terminalsInUse } from "../lib/geometry";
import { type SubgraphMark, marksOf } from "../subgraphs/mark";

export type GraphNodeData = {
  id: string;
  type: string | null;
  title: string;
  color: string;
  errors: number;
  warnings: number;
  firstProblem?: string;
  /** The first fix the node's problems offer (a button on its badge). */
  firstFix?: Fix;
  unknownType: boolean;
  /** Weaveflow `entry_point`/`finish_point`, GRAPH.md `entry`/`exits`: "entry", "finish", "exit". */
  roles?: string[];
  /** A subgraph node: the graph it opens, or why it cannot (`subgraphs/mark.ts`). */
  subgraph?: SubgraphMark;
};

/** The roles a node plays in its format (marked on the canvas). */
export function rolesOf(view: DocumentView, id: string): string[] {
  const out: string[] = [];
  if (view.weaveflow) {
    if (view.weaveflow.entryPoint === id) out.push("entry");
    if (view.weaveflow.finishPoint === id) out.push("finish");
  }
  if (view.graphmd) {
    if (view.graphmd.topology.entry === id) out.push("entry");
    if (view.graphmd.topology.exits.includes(id)) out.push("exit");
  }
  return out;
}
export type TerminalData = { id: string };
/** `index` -1: an edge drawn for the reader only (entry/finish mark, fallback route). */
export type GuardEdgeData = {
  index: number;
  label: string;
  guarded: boolean;
  errors: number;
  firstProblem?: string;
  dashed?: boolean;
  /** How it runs and where its label sits (Rust's `routes`; none: the plain curve). */
  route?: EdgeRoute | null;
};

/** Handles declared up front (React Flow's SSR form): edges to a node that is not rendered
 * (outside the view) still know where to attach, with no DOM measurement. */
function handlesFor(w: number, h: number): NonNullable<Node["handles"]> {
  return [
    { type: "target", position: Position.Left, x: -5, y: h / 2 - 5, width: 10, height: 10 },
    { type: "source", position: Position.Right, x: w - 5, y: h / 2 - 5, width: 10, height: 10 },
  ];
}
const GRAPH_HANDLES = handlesFor(NODE_W, NODE_H);
const TERMINAL_HANDLES = handlesFor(TERMINAL, TERMINAL);

export type FlowNode = Node<GraphNodeData, "graph"> | Node<TerminalData, "terminal">;
export type FlowEdge = Edge<GuardEdgeData, "guard">;

export type Problems = {
  nodes: Map<string, { errors: number; warnings: number; first?: string; fix?: Fix }>;
  edges: Map<number, { errors: number; first?: string }>;
};

export function problemsOf(diagnostics: Diagnostic[]): Problems {
  const nodes: Problems["nodes"] = new Map();
  const edges: Problems["edges"] = new Map();
  for (const d of diagnostics) {
    const el = d.element;
    if (!el || d.severity === "info") continue;
    if (el.kind === "node") {
      const p = nodes.get(el.id) ?? { errors: 0, warnings: 0 };
      if (d.severity === "error") p.errors++;
      else p.warnings++;
      p.first ??= d.message;
      p.fix ??= d.fixes?.[0];
      nodes.set(el.id, p);
    } else if (el.kind === "edge") {
      const p = edges.get(el.index) ?? { errors: 0 };
      if (d.severity === "error") p.errors++;
      p.first ??= d.message;
      edges.set(el.index, p);
    }
  }
  return { nodes, edges };
}

type Cached<T> = { key: string; value: T };

export class FlowCache {
  private nodes = new Map<string, Cached<FlowNode>>();
  private edges = new Map<string, Cached<FlowEdge>>();

  /** The nodes, or only those in `only` (the DOM window: React Flow never holds 5,000). */
  buildNodes(
    view: DocumentView,
    positions: Record<string, Point>,
    selected: ReadonlySet<string>,
    problems: Problems,
    types: Map<string, TypeInfo>,
    only?: ReadonlySet<string>,
  ): FlowNode[] {
    const out: FlowNode[] = [];
    const next = new Map<string, Cached<FlowNode>>();
    const marks = marksOf(view);
    for (const n of view.spec.nodes) {
      if (only && !only.has(n.id)) continue;
      if (next.has(n.id)) continue; // a duplicate id: Rust reports it; draw the first
      const p = positions[n.id];
      const t = n.type ? types.get(n.type) : undefined;
      const pr = problems.nodes.get(n.id);
      const sel = selected.has(n.id);
      const roles = rolesOf(view, n.id);
      const sub = marks.get(n.id);
      const key = `${n.type}|${t?.title}|${t?.category}|${pr?.errors ?? 0}|${pr?.warnings ?? 0}|${pr?.first}|${pr?.fix?.title}|${p.x}|${p.y}|${sel}|${roles.join(",")}|${sub ? `${sub.state}|${sub.text}|${sub.detail}` : ""}`;
      const prev = this.nodes.get(n.id);
      let value: FlowNode;
      if (prev && prev.key === key) value = prev.value;
      else {
        value = {
          id: n.id,
          type: "graph",
          position: p,
          width: NODE_W,
          height: NODE_H,
          handles: GRAPH_HANDLES,
          selected: sel,
          data: {
            id: n.id,
            type: n.type ?? null,
            title: typeTitle(t, n.type ?? "(no type)"),
            color: categoryColor(t?.category),
            errors: pr?.errors ?? 0,
            warnings: pr?.warnings ?? 0,
            firstProblem: pr?.first,
            firstFix: pr?.fix,
            // Weaveflow and GRAPH.md types are not in the GraphSpec registry: not "unknown".
            unknownType: !t && view.format !== "weaveflow" && view.format !== "graphmd",
            roles,
            subgraph: sub,
          },
        };
      }
      next.set(n.id, { key, value });
      out.push(value);
    }
    for (const id of terminalsInUse(view.spec)) {
      if (only && !only.has(id)) continue;
      const p = positions[id];
      const sel = selected.has(id);
      const key = `${p.x}|${p.y}|${sel}`;
      const prev = this.nodes.get(id);
      const value: FlowNode =
        prev && prev.key === key
          ? prev.value
          : {
              id,
              type: "terminal",
              position: p,
              width: TERMINAL,
              height: TERMINAL,
              handles: TERMINAL_HANDLES,
              selected: sel,
              data: { id },
            };
      next.set(id, { key, value });
      out.push(value);
    }
    this.nodes = next;
    return out;
  }

  /** The edges, or only those `keep` accepts. */
  buildEdges(
    view: DocumentView,
    selected: ReadonlySet<number>,
    problems: Problems,
    keep?: (e: { from: string; to: string }) => boolean,
  ): FlowEdge[] {
    const out: FlowEdge[] = [];
    const next = new Map<string, Cached<FlowEdge>>();
    view.spec.edges.forEach((e, index) => {
      if (keep && !keep(e)) return;
      const id = `e${index}`;
      const label = view.edgeLabels[index]?.text ?? "";
      const pr = problems.edges.get(index);
      const sel = selected.has(index);
      const route = view.routes.edges[index] ?? null;
      const key = `${e.from}|${e.to}|${label}|${pr?.errors ?? 0}|${pr?.first}|${sel}|${routeKey(route)}`;
      const prev = this.edges.get(id);
      const value: FlowEdge =
        prev && prev.key === key
          ? prev.value
          : {
              id,
              source: e.from,
              target: e.to,
              type: "guard",
              selected: sel,
              data: { index, label, guarded: !!e.when || !!label, errors: pr?.errors ?? 0, firstProblem: pr?.first, route },
            };
      next.set(id, { key, value });
      out.push(value);
    });
    view.extraEdges.forEach((e, k) => {
      if (keep && !keep(e)) return;
      const id = `x${k}`;
      const route = view.routes.extra[k] ?? null;
      const key = `${e.from}|${e.to}|${e.label}|${e.dashed}|${routeKey(route)}`;
      const prev = this.edges.get(id);
      const value: FlowEdge =
        prev && prev.key === key
          ? prev.value
          : {
              id,
              source: e.from,
              target: e.to,
              type: "guard",
              selectable: false,
              data: { index: -1, label: e.label, guarded: false, errors: 0, dashed: e.dashed, route },
            };
      next.set(id, { key, value });
      out.push(value);
    });
    this.edges = next;
    return out;
  }
}

/** A route as part of an edge's cache key (only the few edges React Flow draws ask). */
function routeKey(route: EdgeRoute | null): string {
  return route ? JSON.stringify(route) : "";
}

export { isTerminal };
