// Category colours: fixed ones for the built-in categories, a stable hash for the rest, so a
// category keeps its colour across sessions and documents.
const KNOWN: Record<string, string> = {
  llm: "#7c5cff",
  ai: "#7c5cff",
  model: "#7c5cff",
  tools: "#e08a00",
  tool: "#e08a00",
  io: "#0b8fd8",
  http: "#0b8fd8",
  integration: "#0b8fd8",
  state: "#16a34a",
  data: "#16a34a",
  memory: "#0d9488",
  retrieval: "#0d9488",
  control: "#db2777",
  "control flow": "#db2777",
  flow: "#db2777",
  human: "#ca8a04",
  evaluation: "#dc2626",
  judge: "#dc2626",
  utility: "#64748b",
};
const PALETTE = ["#7c5cff", "#e08a00", "#0b8fd8", "#16a34a", "#db2777", "#0d9488", "#ca8a04", "#dc2626", "#9333ea", "#2563eb"];

export const UNKNOWN_COLOR = "#94a3b8";

export function categoryColor(category: string | undefined | null): string {
  if (!category) return UNKNOWN_COLOR;
  const k = category.trim().toLowerCase();
  if (KNOWN[k]) return KNOWN[k];
  let h = 2166136261;
  for (let i = 0; i < k.length; i++) h = Math.imul(h ^ k.charCodeAt(i), 16777619);
  return PALETTE[(h >>> 0) % PALETTE.length];
}
