// Channels named in node configs: a type's schema marks a top-level property with
// `"x-trellis-channel": true` (docs/registry.md). Rust validates and rewrites these; the UI
// only counts them for the channel table's "used" column.
import type { NodeSpec, TypeInfo } from "../bindings";

export const CHANNEL_KEYWORD = "x-trellis-channel";

/** The top-level config fields of a schema that name channels. */
export function channelFields(schema: unknown): string[] {
  const props = (schema as { properties?: Record<string, unknown> } | undefined)?.properties;
  if (!props || typeof props !== "object") return [];
  return Object.entries(props)
    .filter(([, s]) => (s as Record<string, unknown> | null)?.[CHANNEL_KEYWORD] === true)
    .map(([k]) => k);
}

/** How many config references name each channel. */
export function configChannelUses(nodes: NodeSpec[], registry: TypeInfo[]): Map<string, number> {
  const fieldsOf = new Map<string, string[]>();
  for (const t of registry) fieldsOf.set(t.type, channelFields(t.config_schema));
  const used = new Map<string, number>();
  const count = (v: unknown) => {
    if (typeof v === "string" && v !== "" && !v.includes("{{")) used.set(v, (used.get(v) ?? 0) + 1);
  };
  for (const n of nodes) {
    for (const f of (n.type && fieldsOf.get(n.type)) || []) {
      const v = (n.config as Record<string, unknown> | undefined)?.[f];
      if (Array.isArray(v)) v.forEach(count);
      else count(v);
    }
  }
  return used;
}
