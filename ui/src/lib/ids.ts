// Fresh node ids derived from a type name: `llm`, `llm_2`, `llm_3`, ...
// Rust would also make one, but the UI chooses it so it can select the new node at once.

export const START = "__start__";
export const END = "__end__";

/** A readable id stem from a type name: lower case, `[a-z0-9_]`, never empty or reserved. */
export function idStem(typeName: string): string {
  let s = typeName
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .toLowerCase()
    .replace(/[^a-z0-9_]+/g, "_")
    .replace(/_+/g, "_")
    .replace(/^_+|_+$/g, "");
  if (!s) s = "node";
  if (/^[0-9]/.test(s)) s = `n_${s}`;
  return s;
}

/** The first of `stem`, `stem_2`, `stem_3`... not in `taken` (nor reserved). */
export function freshId(typeName: string, taken: ReadonlySet<string> | ((id: string) => boolean)): string {
  const isTaken = typeof taken === "function" ? taken : (id: string) => taken.has(id);
  const stem = idStem(typeName);
  const bad = (id: string) => id === START || id === END || isTaken(id);
  if (!bad(stem)) return stem;
  // Reuse the numeric suffix of a stem that already has one (`llm_2` -> `llm_3`).
  const m = /^(.*)_(\d+)$/.exec(stem);
  const base = m ? m[1] : stem;
  let n = m ? Number(m[2]) + 1 : 2;
  while (bad(`${base}_${n}`)) n++;
  return `${base}_${n}`;
}
