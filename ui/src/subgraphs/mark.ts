// What a subgraph node shows of its reference (both drawing modes): the graph it opens (title
// and node count) or why it cannot (Rust's short reason; the whole sentence as its tooltip).
// Made from `DocumentView.subgraphs`, which Rust resolves (crates/doc/src/subgraphs.rs).
import type { DocumentView, SubgraphLink } from "../bindings";
import { count } from "../lib/counts";

export type SubgraphMark = {
  /** "resolved": opens a graph; "unresolved": says why not; "none": names no graph yet. */
  state: "resolved" | "unresolved" | "none";
  /** One short line for the node ("billing · 4 nodes", "file not found"). */
  text: string;
  /** The tooltip: the file and the graph, or the whole reason. */
  detail: string;
  /** Opening it opens a document (a cycle still opens: the file is a graph). */
  openable: boolean;
};

export function markOf(link: SubgraphLink): SubgraphMark {
  const openable = !!link.path && !!link.target;
  if (link.problem && link.problem.severity !== "info") {
    return { state: "unresolved", text: link.problem.short, detail: link.problem.message, openable };
  }
  if (link.target) {
    const t = link.target;
    return {
      state: "resolved",
      text: `${t.title} · ${count(t.nodeCount, "node")}`,
      detail: `Opens ${link.path ?? t.fileName} (${t.format}, ${count(t.nodeCount, "node")}): double-click or Enter.`,
      openable,
    };
  }
  if (link.problem) return { state: "none", text: link.problem.short, detail: link.problem.message, openable: false };
  return { state: "none", text: "no graph named", detail: "This subgraph node names no graph yet.", openable: false };
}

/** The marks of a view's subgraph nodes, by node id. */
export function marksOf(view: DocumentView): Map<string, SubgraphMark> {
  const out = new Map<string, SubgraphMark>();
  for (const l of view.subgraphs ?? []) out.set(l.node, markOf(l));
  return out;
}

/** Whether `id` is a subgraph node of the view (Rust lists every one, resolved or not). */
export function isSubgraphNode(view: DocumentView, id: string): boolean {
  return (view.subgraphs ?? []).some((l) => l.node === id);
}
