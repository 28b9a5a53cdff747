// What `patchScene` knows of the scene it made: which element came from which of the scene
// before. Its own module: the renderer (overview.ts, through sceneChanges.ts) reads it, and
// the patch, which writes it, imports the renderer's scene helpers.
import type { Scene } from "./scene";

/** How a patched scene's elements correspond to the scene it was patched from: the new index
 * of each old node (-1: gone), the old edge each new edge is a copy of (-1: added, replaced or
 * worked out again: its look or label changed), and the nodes worked out again (added, replaced, the terminals, moved, new problems): every other
 * node is a copy of its old one. What `sceneChanges` needs, known here already: it then
 * compares only those nodes, and edges one by one instead of matching the lists through maps
 * (20,000 edges at 10,000 nodes). */
export type PatchOrigin = { prev: Scene; nodeTo: Int32Array; edgeFrom: Int32Array; redone: number[] };

const origins = new WeakMap<Scene, PatchOrigin>();

export function recordOrigin(s: Scene, o: PatchOrigin) {
  // Only the last step is kept: the scene before holds its own origin no longer, so a scene
  // keeps one scene alive, not every scene since the document opened.
  origins.delete(o.prev);
  origins.set(s, o);
}

/** Where `s` came from, when `patchScene` made it. */
export function patchOrigin(s: Scene): PatchOrigin | undefined {
  return origins.get(s);
}
