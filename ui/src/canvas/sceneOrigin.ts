// What `patchScene` knows of the scene it made: which element came from which of the scene
// before. Its own module: the renderer (overview.ts, through sceneChanges.ts) reads it, and
// the patch, which writes it, imports the renderer's scene helpers.
import type { Scene } from "./overview";

/** How a patched scene's elements correspond to the scene it was patched from: the new index
 * of each old node (-1: gone) and the old index of each new edge (-1: added or replaced). What
 * `sceneChanges` needs, known here already: it then compares element by element instead of
 * matching the lists through maps (20,000 edges at 10,000 nodes). */
export type PatchOrigin = { prev: Scene; nodeTo: Int32Array; edgeFrom: Int32Array };

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
