// What every drawn edge says, in all three formats, and the edges drawn that are not edges of
// the document (so a Weaveflow or GRAPH.md graph does not show unconnected start/end circles):
// - a GraphSpec edge's guard, in the Mermaid label style (`intent == "buy"`);
// - a Weaveflow edge's condition type and its key argument (`supervisor_route_equals:
//   researcher`), a failure route as `on failure`; the entry point is drawn from `__start__`
//   and the finish point into `__end__`;
// - a GRAPH.md edge's `condition` (a loop's bound too); the entry from `__start__`, every exit
//   into `__end__`, and a judge's `fallback` route dashed, labelled "fallback".
// Rust lays these extra edges out too (crates/doc/src/auto_layout.rs), so the marks sit next
// to the nodes they point at.
import type { DocumentView } from "../bindings";
import { END, START } from "./ids";
import { predicateLabel } from "./labels";

/** An edge drawn for the reader only: never selected, never sent to Rust. */
export type ExtraEdge = { from: string; to: string; label: string; dashed: boolean };

export type EdgeDecor = {
  /** Per document edge (same index as `view.spec.edges`): its label, "" for none. */
  labels: string[];
  extra: ExtraEdge[];
};

const memo = new WeakMap<DocumentView, EdgeDecor>();

export function edgeDecor(view: DocumentView): EdgeDecor {
  const hit = memo.get(view);
  if (hit) return hit;
  const out = compute(view);
  memo.set(view, out);
  return out;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === "object" && !Array.isArray(v);

/** A condition's key argument: its first scalar config value (an expression, a worker id). */
function keyArgument(config: unknown): string {
  if (!isObj(config)) return "";
  for (const v of Object.values(config)) {
    if (typeof v === "string") return v;
    if (typeof v === "number" || typeof v === "boolean") return String(v);
  }
  return "";
}

function compute(view: DocumentView): EdgeDecor {
  const labels = view.spec.edges.map((e) => (e.when ? predicateLabel(e.when) : ""));
  const extra: ExtraEdge[] = [];
  const wf = view.weaveflow;
  if (wf) {
    const edges = isObj(wf.definition) && Array.isArray(wf.definition.edges) ? wf.definition.edges : [];
    edges.forEach((e, i) => {
      if (!isObj(e) || i >= labels.length) return;
      if (isObj(e.condition)) {
        const type = typeof e.condition.type === "string" ? e.condition.type : "condition";
        const arg = keyArgument(e.condition.config);
        labels[i] = arg ? `${type}: ${arg}` : type;
      } else if (isObj(e.failure)) {
        labels[i] = "on failure";
      }
    });
    if (wf.entryPoint) extra.push({ from: START, to: wf.entryPoint, label: "", dashed: false });
    if (wf.finishPoint) extra.push({ from: wf.finishPoint, to: END, label: "", dashed: false });
  }
  const md = view.graphmd;
  if (md) {
    for (const e of md.topology.edges) {
      if (e.index >= labels.length) continue;
      const bound = e.kind === "loop" && e.max_iterations != null ? `loop ≤ ${e.max_iterations}` : "";
      labels[e.index] = [e.condition ?? "", bound].filter(Boolean).join(", ");
    }
    if (md.topology.entry) extra.push({ from: START, to: md.topology.entry, label: "", dashed: false });
    for (const x of md.topology.exits) extra.push({ from: x, to: END, label: "", dashed: false });
    for (const n of md.topology.nodes) if (n.fallback) extra.push({ from: n.id, to: n.fallback, label: "fallback", dashed: true });
  }
  return { labels, extra };
}
