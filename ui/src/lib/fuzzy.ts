// Fuzzy search over the registry: type name, title and description (in that order of weight).
import Fuse from "fuse.js";
import type { TypeInfo } from "../bindings";

export type TypeGroup = { category: string; types: TypeInfo[] };

export function makeTypeSearch(types: readonly TypeInfo[]) {
  const fuse = new Fuse(types as TypeInfo[], {
    keys: [
      { name: "type", weight: 3 },
      { name: "title", weight: 2 },
      { name: "description", weight: 1 },
    ],
    threshold: 0.38,
    ignoreLocation: true,
    includeScore: true,
  });
  /** Types matching `query`, best first; everything (registry order) for an empty query. */
  return (query: string): TypeInfo[] => {
    const q = query.trim();
    if (!q) return [...types];
    return fuse.search(q).map((r) => r.item);
  };
}

export const UNCATEGORIZED = "Other";

/** Groups by category, categories in first-seen order, types kept in the given order. */
export function groupByCategory(types: readonly TypeInfo[]): TypeGroup[] {
  const groups = new Map<string, TypeInfo[]>();
  for (const t of types) {
    const c = t.category?.trim() || UNCATEGORIZED;
    let g = groups.get(c);
    if (!g) groups.set(c, (g = []));
    g.push(t);
  }
  return [...groups].map(([category, ts]) => ({ category, types: ts }));
}

export function typeTitle(t: TypeInfo | undefined, fallback: string): string {
  return t?.title?.trim() || t?.type || fallback;
}
