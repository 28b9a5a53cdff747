// Which place of an overview scene holds a node id. A full build fills a `Map`; a scene patched
// after an edit reads the scene before it through where each of its nodes went, plus the ids
// the edit added. A delete shifts every later node by one place, and filling a new map of
// every id would be most of the patch's work; the layer costs one
// `Int32Array` already worked out, and a lookup one map read per layer.

/** A scene's node places by id (`Map<string, number>` is one). `size`: distinct ids. */
export type NodeIndex = { get(id: string): number | undefined; readonly size: number };

/** Beyond this many layers a patch builds a plain map again: lookups stay a few map reads,
 * and the scenes behind stay unreferenced. */
const MAX_DEPTH = 12;

/** The index of a patched scene: `added` (id to new place) first, then `base` (the scene
 * before) through `toNew` (old place to new, -1: gone). Only for ids that are unique in both
 * scenes, which the patch checks (`size` is then the scene's node count). */
class PatchedIndex {
  constructor(
    private readonly base: NodeIndex,
    private readonly toNew: Int32Array,
    private readonly added: Map<string, number>,
    readonly size: number,
    readonly depth: number,
  ) {}

  get(id: string): number | undefined {
    const a = this.added.get(id);
    if (a !== undefined) return a;
    const o = this.base.get(id);
    if (o === undefined) return undefined;
    const i = this.toNew[o];
    return i >= 0 ? i : undefined;
  }
}

function depthOf(index: NodeIndex): number {
  return index instanceof PatchedIndex ? index.depth : 0;
}

/** Whether every id of a scene of `count` nodes has one place (patching assumes it). */
export function uniqueIds(index: NodeIndex, count: number): boolean {
  return index.size === count;
}

/** The index of a scene whose nodes are `ids`, patched from `base` (the scene before, ids
 * unique): `toNew` maps each old place to its new one (-1: not kept), `added` lists the new
 * places not kept from before. Null when an added id is also a kept one (a duplicate: the
 * caller builds). */
export function patchedIndex(base: NodeIndex, toNew: Int32Array, ids: string[], added: number[]): NodeIndex | null {
  const fresh = new Map<string, number>();
  for (const i of added) {
    const id = ids[i];
    if (fresh.has(id)) return null;
    const o = base.get(id);
    if (o !== undefined && toNew[o] >= 0) return null;
    fresh.set(id, i);
  }
  if (depthOf(base) + 1 > MAX_DEPTH) {
    const flat = new Map<string, number>();
    for (let i = 0; i < ids.length; i++) flat.set(ids[i], i);
    return flat;
  }
  return new PatchedIndex(base, toNew, fresh, ids.length, depthOf(base) + 1);
}
