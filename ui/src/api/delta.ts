// Applies what an edit, an undo or a redo answered (a `ViewDelta`, crates/doc `delta.rs`) to
// the view the UI holds. Pure: the old view is not touched, unchanged parts are shared (the
// canvas redraws only what changed). The Rust side proves that its deltas rebuild its full
// view; `src/test/delta.test.ts` proves that this function does the same on Rust's fixtures.
import type { DocumentView, ListEdit, NodeSpec, Point, ViewDelta } from "../bindings";
import { isPlaced, knownExact, markExact } from "../lib/geometry";
import { END, START } from "../lib/ids";

/** `list` after `edits`; what they removed is pushed to `removed` when given. */
function edited<T>(list: T[], edits: ListEdit<T>[], removed?: T[]): T[] {
  if (!edits.length) return list;
  const out = list.slice();
  for (const e of edits) {
    const at = Math.min(e.at, out.length);
    const gone = out.splice(at, e.remove, ...e.insert);
    if (removed) for (const x of gone) removed.push(x);
  }
  return out;
}

/** Whether positions that placed exactly the nodes before an edit (and both terminals) still
 * do after it, from what the delta changed alone: each id whose node count changed is placed
 * exactly when it is a node now, and each position set or removed belongs to a node (or a
 * terminal) as before. The position objects are JSON maps: own keys only (`Object.hasOwn`). */
function stillExact(before: Record<string, Point>, after: Record<string, Point>, d: ViewDelta, removed: NodeSpec[]): boolean {
  const net = new Map<string, number>();
  for (const e of d.nodes) for (const n of e.insert) net.set(n.id, (net.get(n.id) ?? 0) + 1);
  for (const n of removed) net.set(n.id, (net.get(n.id) ?? 0) - 1);
  for (const [id, k] of net) {
    if (id === START || id === END) return false;
    // Before, an id had a place exactly when it was a node (once).
    const now = (Object.hasOwn(before, id) ? 1 : 0) + k;
    if (now === 1 ? !isPlaced(after[id]) : now !== 0 || Object.hasOwn(after, id)) return false;
  }
  for (const id in d.positions) {
    if (net.has(id)) continue;
    const node = Object.hasOwn(before, id);
    if (node ? !isPlaced(after[id]) : Object.hasOwn(after, id)) return false;
  }
  return true;
}

/** Each view `applyDelta` made: the view it came from and the delta (weakly held), so what
 * is derived from a view (the overview scene) can be patched instead of built anew. */
const origins = new WeakMap<DocumentView, { from: DocumentView; delta: ViewDelta }>();

/** How `view` was made from the view before it, when `applyDelta` made it. */
export function deltaOf(view: DocumentView): { from: DocumentView; delta: ViewDelta } | undefined {
  return origins.get(view);
}

export function applyDelta(view: DocumentView, d: ViewDelta): DocumentView {
  let positions = view.layout.positions;
  const moved = Object.entries(d.positions);
  if (moved.length) {
    positions = { ...positions };
    for (const [id, p] of moved) {
      if (p) positions[id] = p;
      else delete positions[id];
    }
  }
  const notes = d.annotations ? d.annotations.notes : view.layout.notes;
  const groups = d.annotations ? d.annotations.groups : view.layout.groups;
  const layout = { positions, ...(d.viewport ? { viewport: d.viewport } : {}), notes, groups };
  const removed: NodeSpec[] = [];
  const nodes = edited(view.spec.nodes, d.nodes, removed);
  if (knownExact(view.layout.positions, view.spec.nodes) && stillExact(view.layout.positions, positions, d, removed))
    markExact(positions, nodes);
  const next: DocumentView = {
    ...view,
    spec: { name: d.name, channels: d.channels, nodes, edges: edited(view.spec.edges, d.edges) },
    edgeLabels: edited(view.edgeLabels, d.edgeLabels),
    extraEdges: d.extraEdges ?? view.extraEdges,
    routes: d.routes ? { edges: edited(view.routes.edges, d.routes.edges), extra: d.routes.extra ?? view.routes.extra } : view.routes,
    layout,
    collapsed: d.collapsed ?? view.collapsed,
    layoutMissing: d.layoutMissing,
    diagnostics: d.diagnostics ? edited(view.diagnostics, [d.diagnostics]) : view.diagnostics,
    dirty: d.dirty,
    textError: d.textError,
    canUndo: d.canUndo,
    canRedo: d.canRedo,
    notices: d.notices,
    weaveflow: d.weaveflow ?? view.weaveflow,
    graphmd: d.graphmd ?? view.graphmd,
    subgraphs: d.subgraphs ?? view.subgraphs,
  };
  // Only the last step is kept: `view`'s own origin would hold the view before it, and so on,
  // every view since the document opened (each a copy of the node and edge lists).
  origins.delete(view);
  origins.set(next, { from: view, delta: d });
  return next;
}
