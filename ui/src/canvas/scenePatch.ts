// The overview scene after an edit, patched from the scene before it: nodes and edges the
// edit left alone are copied (their places and ends renumbered), only the ones it added,
// replaced, moved or gave new problems are worked out again. A full build reads every node
// and edge of the document (tens of milliseconds at 10,000 nodes, hundreds at 100,000); an
// edit touches a handful. `patchScene` answers null where it cannot be sure to give exactly
// what `buildScene` would (groups, notes, unplaced nodes, a large edit): the caller builds.
import type { DocumentView, ListEdit, ViewDelta } from "../bindings";
import type { Scene } from "./overview";
import { emptyScene, fillEdge, fillNode } from "./overview";
import { type NodeFields, docEdge } from "./sceneInput";
import { shareGrid } from "./sceneIndex";
import { recordOrigin } from "./sceneOrigin";

/** Beyond this many elements added or removed, building anew costs about the same. */
const MAX_EDITED = 2000;

/** A run of the list after the edits: `len` items that were at `from`.. before (-1: added). */
type Run = { from: number; len: number };

/** Where each item of the list after `edits` was in the list before (-1: added by them),
 * worked out on runs (an edit splits a run or two), then written out once. */
export function placesAfter(length: number, edits: ListEdit<unknown>[]): Int32Array {
  let runs: Run[] = length ? [{ from: 0, len: length }] : [];
  for (const e of edits) {
    const next: Run[] = [];
    let pos = 0;
    let at = e.at;
    let remove = e.remove;
    let inserted = false;
    const insert = () => {
      if (!inserted && e.insert.length) next.push({ from: -1, len: e.insert.length });
      inserted = true;
    };
    for (const r of runs) {
      const end = pos + r.len;
      if (end <= at || (remove === 0 && inserted)) {
        next.push(r);
      } else {
        // The part before the edit, the removed part, the part after.
        const before = Math.max(0, at - pos);
        if (before) next.push({ from: r.from < 0 ? -1 : r.from, len: before });
        insert();
        const cut = Math.min(remove, r.len - before);
        remove -= cut;
        const after = r.len - before - cut;
        if (after) next.push({ from: r.from < 0 ? -1 : r.from + before + cut, len: after });
        if (remove > 0) at = end;
      }
      pos = end;
    }
    insert();
    runs = next;
  }
  let total = 0;
  for (const r of runs) total += r.len;
  const out = new Int32Array(total);
  let i = 0;
  for (const r of runs) {
    if (r.from < 0) out.fill(-1, i, i + r.len);
    else for (let k = 0; k < r.len; k++) out[i + k] = r.from + k;
    i += r.len;
  }
  return out;
}

function edited(edits: ListEdit<unknown>[]): number {
  let n = 0;
  for (const e of edits) n += e.remove + e.insert.length;
  return n;
}

function copyNode(a: Scene, o: number, s: Scene, i: number) {
  s.x[i] = a.x[o];
  s.y[i] = a.y[o];
  s.w[i] = a.w[o];
  s.h[i] = a.h[o];
  s.color[i] = a.color[o];
  s.problem[i] = a.problem[o];
  s.nodeType[i] = a.nodeType[o];
  s.summary[i] = a.summary[o];
  s.names[i] = a.names[o];
  s.subgraph[i] = a.subgraph[o];
}

/** The scene of `after` from `prev`, the scene of `before`, and the delta between them.
 * `fields`: what the scene shows of each node of `after` (its positions resolved with every
 * node stored: `everyNodeStored`). */
export function patchScene(prev: Scene, before: DocumentView, after: DocumentView, d: ViewDelta, fields: NodeFields): Scene | null {
  // (`d.collapsed` comes with every structural edit; what it holds reaches the scene through
  // the collapsed groups, which the caller checks, and the notes, checked here.)
  if (d.extraEdges || d.annotations || d.subgraphs) return null;
  if (after.layout.groups.length || after.layout.notes.length || prev.underlay.length) return null;
  if (edited(d.nodes) + edited(d.edges) + edited(d.edgeLabels) > MAX_EDITED) return null;
  const nOld = before.spec.nodes.length;
  const nNew = after.spec.nodes.length;
  const terminals = prev.ids.length - nOld;
  const mOld = before.spec.edges.length;
  const mNew = after.spec.edges.length;
  const extras = prev.edgeFrom.length - mOld;
  if (terminals < 0 || extras !== after.extraEdges.length) return null;
  const nodeFrom = placesAfter(nOld, d.nodes);
  const edgeFrom = placesAfter(mOld, d.edges);
  const labelFrom = placesAfter(mOld, d.edgeLabels);
  if (nodeFrom.length !== nNew || edgeFrom.length !== mNew || labelFrom.length !== mNew) return null;

  const ids: string[] = new Array(nNew + terminals);
  for (let i = 0; i < nNew; i++) ids[i] = after.spec.nodes[i].id;
  for (let t = 0; t < terminals; t++) ids[nNew + t] = prev.ids[nOld + t];
  const s = emptyScene(ids, mNew + extras, prev.underlay);

  // The same ids in the same places (a config field, a move): the index stays.
  let sameIds = nNew === nOld;
  for (let i = 0; sameIds && i < nNew; i++) sameIds = ids[i] === prev.ids[i];
  if (sameIds) s.index = prev.index;
  else for (let i = 0; i < ids.length; i++) s.index.set(ids[i], i);

  // Nodes: kept ones copied; added or replaced ones (new objects), and the terminals (placed
  // beside their neighbours), worked out again.
  const inp = { ...fields, order: ids, edges: [] };
  let added = false;
  for (let i = 0; i < nNew; i++) {
    const o = nodeFrom[i];
    if (o >= 0) copyNode(prev, o, s, i);
    else {
      fillNode(s, i, inp);
      added = true;
    }
  }
  for (let t = 0; t < terminals; t++) fillNode(s, nNew + t, inp);
  // Moved nodes, and nodes whose problems changed (the findings removed and added).
  const touched = new Set<string>(Object.keys(d.positions));
  if (d.diagnostics) {
    const gone = before.diagnostics.slice(d.diagnostics.at, d.diagnostics.at + d.diagnostics.remove);
    for (const x of [...gone, ...d.diagnostics.insert]) if (x.element?.kind === "node") touched.add(x.element.id);
  }
  for (const id of touched) {
    const i = s.index.get(id);
    if (i === undefined) continue;
    const p = fields.positions[id] ?? { x: 0, y: 0 };
    s.x[i] = p.x;
    s.y[i] = p.y;
    s.problem[i] = fields.problem(id);
  }

  // Where each node of the old scene is now (-1: gone).
  const toNew = new Int32Array(prev.ids.length).fill(-1);
  for (let i = 0; i < nNew; i++) if (nodeFrom[i] >= 0) toNew[nodeFrom[i]] = i;
  for (let t = 0; t < terminals; t++) toNew[nOld + t] = nNew + t;
  for (let o = 0; o < nOld; o++) if (toNew[o] < 0) toNew[o] = s.index.get(prev.ids[o]) ?? -1;
  // An end that was no node may be one now (a node of that id added).
  const refOf = (o: number) => prev.edgeRef[o] as { from?: string; to?: string } | undefined;
  const copyEdge = (o: number, k: number, index: number) => {
    const from = prev.edgeFrom[o] >= 0 ? toNew[prev.edgeFrom[o]] : -1;
    const to = prev.edgeTo[o] >= 0 ? toNew[prev.edgeTo[o]] : -1;
    s.edgeFrom[k] = from >= 0 || !added ? from : (s.index.get(refOf(o)?.from ?? "") ?? -1);
    s.edgeTo[k] = to >= 0 || !added ? to : (s.index.get(refOf(o)?.to ?? "") ?? -1);
    s.guarded[k] = prev.guarded[o];
    s.dashed[k] = prev.dashed[o];
    s.edgeIndex[k] = index;
    s.edgeLabel[k] = prev.edgeLabel[o];
    s.edgeRef[k] = prev.edgeRef[o];
  };
  // Document edges: kept with their label, or worked out again; then the drawn-only ones.
  for (let k = 0; k < mNew; k++) {
    const o = edgeFrom[k];
    if (o >= 0 && labelFrom[k] === o) copyEdge(o, k, k);
    else fillEdge(s, k, docEdge(after, k));
  }
  for (let x = 0; x < extras; x++) copyEdge(mOld + x, mNew + x, -1);
  // Every node where it was (same ids, same boxes): the grid of node places holds as it was.
  let samePlaces = sameIds;
  for (let i = 0; samePlaces && i < ids.length; i++)
    samePlaces = s.x[i] === prev.x[i] && s.y[i] === prev.y[i] && s.w[i] === prev.w[i] && s.h[i] === prev.h[i];
  if (samePlaces) shareGrid(s, prev);
  const edgeOld = new Int32Array(mNew + extras);
  edgeOld.set(edgeFrom);
  for (let x = 0; x < extras; x++) edgeOld[mNew + x] = mOld + x;
  recordOrigin(s, { prev, nodeTo: toNew, edgeFrom: edgeOld });
  return s;
}
