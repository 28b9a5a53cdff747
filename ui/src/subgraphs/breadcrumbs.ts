// Which tab was opened from which subgraph node, for the breadcrumb bar (parent › child). UI
// state only: Rust knows documents, not how the user reached them. Pure functions over a map
// child → parent, kept in a small store.
import { create } from "zustand";
import type { Viewport } from "../bindings";

export type Crumb = {
  /** The document the subgraph node is in. */
  parentId: string;
  /** The subgraph node that was opened. */
  nodeId: string;
  /** The parent's viewport when the child was opened (it is shown there again on return). */
  parentViewport?: Viewport;
};
/** By child document id. */
export type Crumbs = Record<string, Crumb>;

/** The ids from the outermost open ancestor down to `id` (just `[id]` when it has no parent).
 * Stops at a closed parent and at a loop (A opened from B opened from A). */
export function trail(crumbs: Crumbs, id: string | null, isOpen: (id: string) => boolean): string[] {
  if (!id) return [];
  const out = [id];
  const seen = new Set(out);
  let at = crumbs[id];
  while (at && isOpen(at.parentId) && !seen.has(at.parentId)) {
    out.unshift(at.parentId);
    seen.add(at.parentId);
    at = crumbs[at.parentId];
  }
  return out;
}

/** After `childId` was opened from node `crumb.nodeId` of `crumb.parentId`. Opening a document
 * that is already on the parent's trail (going back up through a cycle) keeps the trail as it
 * was, and so does a document opening itself. */
export function withOpened(crumbs: Crumbs, childId: string, crumb: Crumb, isOpen: (id: string) => boolean): Crumbs {
  if (childId === crumb.parentId) return crumbs;
  if (trail(crumbs, crumb.parentId, isOpen).includes(childId)) return crumbs;
  return { ...crumbs, [childId]: crumb };
}

export const useCrumbs = create<{ crumbs: Crumbs }>(() => ({ crumbs: {} }));
