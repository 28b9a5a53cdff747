// Channels named in node configs: a type's schema marks a top-level property with
// `"x-trellis-channel": true` (docs/registry.md). Rust validates and rewrites these; the UI
// only counts them for the channel table's "used" column. A channel field left out of a config
// names its schema's `default` channel (the runtime writes there: an Ilmek `mcp_tool` without
// `to` writes to `result`), so it counts as a use, as Rust's `channel_refs` counts it.
import type { NodeSpec, TypeInfo } from "../bindings";

export const CHANNEL_KEYWORD = "x-trellis-channel";

type ChannelField = { name: string; default?: string };

const isChannelName = (v: unknown): v is string => typeof v === "string" && v !== "" && !v.includes("{{");

/** The top-level config fields of a schema that name channels, with the channel each names
 * when it is absent (its `default`). */
export function channelFields(schema: unknown): ChannelField[] {
  const props = (schema as { properties?: Record<string, unknown> } | undefined)?.properties;
  if (!props || typeof props !== "object") return [];
  return Object.entries(props)
    .filter(([, s]) => (s as Record<string, unknown> | null)?.[CHANNEL_KEYWORD] === true)
    .map(([name, s]) => {
      const d = (s as Record<string, unknown>).default;
      return isChannelName(d) ? { name, default: d } : { name };
    });
}

/** How many config references name each channel. */
export function configChannelUses(nodes: NodeSpec[], registry: TypeInfo[]): Map<string, number> {
  const fieldsOf = new Map<string, ChannelField[]>();
  for (const t of registry) fieldsOf.set(t.type, channelFields(t.config_schema));
  const used = new Map<string, number>();
  const count = (v: unknown) => {
    if (isChannelName(v)) used.set(v, (used.get(v) ?? 0) + 1);
  };
  for (const n of nodes) {
    const config = (n.config ?? {}) as Record<string, unknown>;
    for (const f of (n.type && fieldsOf.get(n.type)) || []) {
      const v = config[f.name];
      if (!(f.name in config)) count(f.default);
      else if (Array.isArray(v)) v.forEach(count);
      else count(v);
    }
  }
  return used;
}
