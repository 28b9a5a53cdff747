// How big the overview draws text at a zoom (node names, types and summaries, condition
// labels), and what a node's config summary says. Shared by the painting (overview.ts) and
// the repaint places (sceneChanges.ts).
/** Font sizes (flow px) and baselines of a node's lines at this zoom, or null when even the
 * name would be under ~8 screen px. The name's font grows as the zoom shrinks (up to 34 flow
 * px, what a 60 px box holds beside its colour bar), so names stay readable down to ~24 %. */
export function nodeText(
  zoom: number,
): { name: number; nameY: number; type: number; typeY: number; summary: number; summaryY: number } | null {
  const name = Math.min(34, Math.max(15, 9 / zoom));
  if (name * zoom < 8) return null;
  // Room for a second line once the type would be ~7 px and the name fits above it.
  const type = zoom >= 0.42 ? Math.min(15, Math.max(12, 7 / zoom)) : 0;
  const summary = zoom >= 0.8 ? 11 : 0;
  if (!type) return { name, nameY: 30, type: 0, typeY: 0, summary: 0, summaryY: 0 };
  const n = Math.min(name, 22);
  if (!summary) return { name: n, nameY: 20, type, typeY: 44, summary: 0, summaryY: 0 };
  return { name: 15, nameY: 15, type: 12, typeY: 32, summary, summaryY: 48 };
}

/** The condition label font (flow px) at this zoom, or 0 when it would be under ~7 screen px. */
export function edgeFont(zoom: number): number {
  const f = Math.min(26, Math.max(11, 8 / zoom));
  return f * zoom >= 7 ? f : 0;
}

/** An estimate of a monospace label's width (flow px), for plates and hit tests. */
export function labelWidth(text: string, font: number): number {
  return Math.min(text.length, 40) * font * 0.6;
}

/** Summaries by config object, worked out when first drawn (a scene holds the config; reading
 * every config of a large graph when a scene is built would slow an open), and an edit
 * gives new objects only to the nodes it touched. */
const summaries = new WeakMap<object, string>();

/** `key: value` of the first scalar config fields, short. */
export function configSummary(config: unknown): string {
  if (!config || typeof config !== "object" || Array.isArray(config)) return "";
  const known = summaries.get(config);
  if (known !== undefined) return known;
  const text = summaryOf(config as Record<string, unknown>);
  summaries.set(config, text);
  return text;
}

function summaryOf(config: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(config)) {
    if (v === null || typeof v === "object") continue;
    const text = String(v);
    parts.push(`${k}: ${text.length > 18 ? `${text.slice(0, 17)}…` : text}`);
    if (parts.length === 2) break;
  }
  return parts.join(", ");
}
