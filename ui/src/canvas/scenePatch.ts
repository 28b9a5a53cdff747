// The overview scene after an edit, patched from the scene before it: nodes and edges the
// edit left alone are copied (their places and ends renumbered), only the ones it added,
// replaced, moved or gave new problems are worked out again. A full build reads every node
// and edge of the document (tens of milliseconds at 10,000 nodes, hundreds at 100,000); an
// edit touches a handful. `patchScene` answers null where it cannot be sure to give exactly
// what `buildScene` would (groups, notes, unplaced nodes, duplicate ids, a large edit): the
// caller builds.
import type { DocumentView, ListEdit, ViewDelta } from "../bindings";
import { type Scene, emptyScene, fillEdge, fillNode } from "./scene";
import { type NodeFields, docEdge } from "./sceneInput";
import { carryGrid, shareGrid } from "./sceneIndex";
import { patchedIndex, uniqueIds } from "./nodeIndex";
import { recordOrigin } from "./sceneOrigin";

/** Beyond this many elements added or removed, building anew costs about the same. */
const MAX_EDITED = 2000;

/** A run of the list after the edits: `len` items that were at `from`.. before (-1: added). */
type Run = { from: number; len: number };

/** The list after `edits` as runs of the list before (an edit splits a run or two). */
export function runsAfter(length: number, edits: ListEdit<unknown>[]): Run[] {
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
  return runs;
}

function runsLength(runs: Run[]): number {
  let n = 0;
  for (const r of runs) n += r.len;
  return n;
}

/** The runs both lists share: items that were at the same place before in both (an edge and
 * its label kept together), the rest as added (-1). */
function sharedRuns(a: Run[], b: Run[]): Run[] {
  const out: Run[] = [];
  const push = (from: number, len: number) => {
    const last = out[out.length - 1];
    if (last && (last.from < 0 ? from < 0 : last.from + last.len === from)) last.len += len;
    else out.push({ from, len });
  };
  let i = 0;
  let j = 0;
  let ai = 0; // how far into a[i] and b[j]
  let bj = 0;
  while (i < a.length && j < b.length) {
    const len = Math.min(a[i].len - ai, b[j].len - bj);
    const fa = a[i].from < 0 ? -1 : a[i].from + ai;
    const fb = b[j].from < 0 ? -1 : b[j].from + bj;
    push(fa >= 0 && fa === fb ? fa : -1, len);
    ai += len;
    bj += len;
    if (ai === a[i].len) {
      i++;
      ai = 0;
    }
    if (bj === b[j].len) {
      j++;
      bj = 0;
    }
  }
  return out;
}

/** 0, 1, 2, … (at least `n` of them), kept to copy ranges of places from. */
let counting = new Int32Array(0);
function iota(n: number): Int32Array {
  if (counting.length < n) {
    counting = new Int32Array(Math.max(n, counting.length * 2));
    for (let i = 0; i < counting.length; i++) counting[i] = i;
  }
  return counting;
}

// Copies along runs are typed-array `set`s and array `slice`s: native copies, as fast the
// first time as the tenth. (An edit runs its patch once, so plain loops would run in
// JavaScriptCore's slow first tiers.)

/** `src` along `runs` into `dst`, from place `at` (an added run left as it is). */
function copyTyped<A extends Float64Array | Int32Array | Uint8Array>(dst: A, src: A, runs: Run[], at = 0) {
  for (const r of runs) {
    if (r.from >= 0) dst.set(src.subarray(r.from, r.from + r.len) as never, at);
    at += r.len;
  }
}

/** `src` along `runs`, as a new array (an added run: `blank`s, filled afterwards). */
function copyList<T>(src: T[], runs: Run[], blank: T): T[] {
  const parts: T[][] = [];
  for (const r of runs) parts.push(r.from >= 0 ? src.slice(r.from, r.from + r.len) : new Array<T>(r.len).fill(blank));
  return parts.length === 1 ? parts[0] : ([] as T[]).concat(...parts);
}

function edited(edits: ListEdit<unknown>[]): number {
  let n = 0;
  for (const e of edits) n += e.remove + e.insert.length;
  return n;
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
  const docRuns = runsAfter(nOld, d.nodes);
  const edgeRuns = runsAfter(mOld, d.edges);
  const labelRuns = runsAfter(mOld, d.edgeLabels);
  if (runsLength(docRuns) !== nNew || runsLength(edgeRuns) !== mNew || runsLength(labelRuns) !== mNew) return null;
  if (!uniqueIds(prev.index, prev.ids.length)) return null;
  // The scene's nodes: the document's, then the terminals (worked out again below).
  const nodeRuns = terminals ? [...docRuns, { from: nOld, len: terminals }] : docRuns;

  // Ids of kept nodes are the ids they had (read from the scene, not from every node object).
  const ids = copyList(prev.ids, nodeRuns, "");
  const added: number[] = [];
  let at = 0;
  for (const r of docRuns) {
    if (r.from < 0)
      for (let i = at; i < at + r.len; i++) {
        ids[i] = after.spec.nodes[i].id;
        added.push(i);
      }
    at += r.len;
  }
  // Edges: document edges kept with their label copied, the others worked out again (below);
  // then the drawn-only ones, copied.
  const kept = sharedRuns(edgeRuns, labelRuns);
  const edgeAll = extras ? [...kept, { from: mOld, len: extras }] : kept;
  const m = mNew + extras;
  const s = emptyScene(ids, m, prev.underlay, {
    color: copyList(prev.color, nodeRuns, ""),
    nodeType: copyList(prev.nodeType, nodeRuns, ""),
    config: copyList(prev.config, nodeRuns, undefined),
    names: copyList(prev.names, nodeRuns, ""),
    edgeLabel: copyList(prev.edgeLabel, edgeAll, ""),
    edgeRef: copyList(prev.edgeRef, edgeAll, undefined),
  });
  s.index = prev.index;
  for (const k of ["x", "y", "w", "h", "problem", "subgraph"] as const) copyTyped(s[k], prev[k], nodeRuns);

  // Where each node of the old scene is now (-1: gone).
  const toNew = new Int32Array(prev.ids.length).fill(-1);
  at = 0;
  for (const r of nodeRuns) {
    if (r.from >= 0) toNew.set(iota(at + r.len).subarray(at, at + r.len), r.from);
    at += r.len;
  }
  // The same ids in the same places (a config field, a move): the index stays.
  let sameIds = nNew === nOld;
  at = 0;
  for (const r of nodeRuns) {
    if (r.from >= 0 && r.from !== at) sameIds = false;
    at += r.len;
  }
  for (let k = 0; sameIds && k < added.length; k++) sameIds = ids[added[k]] === prev.ids[added[k]];
  if (!sameIds) {
    const index = patchedIndex(prev.index, toNew, ids, added);
    if (!index) return null;
    s.index = index;
  }

  // Added or replaced nodes (new objects), and the terminals (placed beside their
  // neighbours), worked out again.
  const inp = { ...fields, order: ids, edges: [] };
  for (const i of added) fillNode(s, i, inp);
  const redone = [...added];
  for (let t = 0; t < terminals; t++) {
    fillNode(s, nNew + t, inp);
    redone.push(nNew + t);
  }
  // Moved nodes, and nodes whose problems changed (the findings removed and added).
  const touched = new Set<string>(Object.keys(d.positions));
  if (d.diagnostics) {
    const gone = before.diagnostics.slice(d.diagnostics.at, d.diagnostics.at + d.diagnostics.remove);
    for (const x of [...gone, ...d.diagnostics.insert]) if (x.element?.kind === "node") touched.add(x.element.id);
  }
  for (const id of touched) {
    const i = s.index.get(id);
    if (i === undefined) continue;
    redone.push(i);
    const p = fields.positions[id] ?? { x: 0, y: 0 };
    s.x[i] = p.x;
    s.y[i] = p.y;
    s.problem[i] = fields.problem(id);
  }

  // A node replaced (a new object, the same id) is the one it replaces, for the changes.
  for (const i of added) {
    const o = prev.index.get(ids[i]);
    if (o !== undefined && toNew[o] < 0) toNew[o] = i;
  }

  for (const k of ["edgeFrom", "edgeTo", "guarded", "dashed"] as const) copyTyped(s[k], prev[k], edgeAll);
  // `edgeOld`: the old edge each one is a copy of (-1: worked out again).
  const edgeOld = new Int32Array(m).fill(-1);
  copyTyped(edgeOld, iota(mOld + extras), edgeAll);
  s.edgeIndex.set(iota(mNew).subarray(0, mNew));
  s.edgeIndex.fill(-1, mNew);
  // Copied ends renumbered (none to do when every node kept its place); an end that was no
  // node may be one now (a node of that id added).
  if (!sameIds || added.length) {
    const ends = [s.edgeFrom, s.edgeTo];
    for (let k = 0; k < m; k++) {
      if (edgeOld[k] < 0) continue;
      for (let e = 0; e < 2; e++) {
        const end = ends[e];
        const o = end[k];
        let i = o >= 0 ? toNew[o] : -1;
        if (i < 0 && added.length) {
          const ref = s.edgeRef[k] as { from?: string; to?: string } | undefined;
          i = s.index.get((e === 0 ? ref?.from : ref?.to) ?? "") ?? -1;
        }
        end[k] = i;
      }
    }
  }
  at = 0;
  for (const r of kept) {
    if (r.from < 0) for (let k = at; k < at + r.len; k++) fillEdge(s, k, docEdge(after, k));
    at += r.len;
  }
  // Every node where it was (same ids, and those worked out again in their old boxes): the
  // grid of node places holds as it was; else it is carried over.
  const samePlaces =
    sameIds && redone.every((i) => s.x[i] === prev.x[i] && s.y[i] === prev.y[i] && s.w[i] === prev.w[i] && s.h[i] === prev.h[i]);
  if (samePlaces) shareGrid(s, prev);
  else carryGrid(s, prev, toNew, redone);
  recordOrigin(s, { prev, nodeTo: toNew, edgeFrom: edgeOld, redone });
  return s;
}
