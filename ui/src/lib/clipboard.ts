// Cut/copy/paste/duplicate through the system clipboard as a GraphSpec fragment in JSON, so a
// paste works between documents, between windows, and from a text editor. The fragment is a
// GraphSpec (name, channels, nodes, edges) plus an optional `layout.positions` map (an unknown
// field to a runtime, which must ignore it).
import type { EdgeSpec, GraphSpec, Group, NodeSpec, Note, Point, Predicate } from "../bindings";
import { END, START } from "./ids";

/** `layout.notes` and `layout.groups`: the notes and groups copied with the nodes (Rust gives
 * them fresh ids where taken; group members follow the nodes renamed here). */
export type Fragment = GraphSpec & { layout?: { positions: Record<string, Point>; notes?: Note[]; groups?: Group[] } };

/** The selected nodes, the edges among them (and to selected terminals), the channels their
 * predicates read, and positions relative to the selection's top-left corner. */
export function buildFragment(spec: GraphSpec, positions: Record<string, Point>, selected: ReadonlySet<string>): Fragment {
  const nodes = spec.nodes.filter((n) => selected.has(n.id)).map((n) => structuredClone(n));
  const inFrag = (id: string) => selected.has(id);
  const edges = spec.edges
    .filter((e) => inFrag(e.from) && inFrag(e.to) && (e.from !== START || nodes.length > 0))
    .map((e) => structuredClone(e));
  const channels: GraphSpec["channels"] = {};
  for (const e of edges) {
    const c = e.when?.channel;
    if (typeof c === "string" && spec.channels[c]) channels[c] = { ...spec.channels[c] };
  }
  let minX = Infinity;
  let minY = Infinity;
  for (const n of nodes) {
    const p = positions[n.id];
    if (p) {
      minX = Math.min(minX, p.x);
      minY = Math.min(minY, p.y);
    }
  }
  const rel: Record<string, Point> = {};
  for (const n of nodes) {
    const p = positions[n.id];
    if (p) rel[n.id] = { x: p.x - minX, y: p.y - minY };
  }
  return { name: null, channels, nodes, edges, layout: { positions: rel } };
}

/** The fragment with notes and groups: `notes` and `groups` (ids) are copied too, notes moved
 * into the fragment's frame (relative to the same corner as the nodes). */
export function withAnnotations(
  f: Fragment,
  positions: Record<string, Point>,
  all: { notes: Note[]; groups: Group[] },
  notes: ReadonlySet<string>,
  groups: ReadonlySet<string>,
): Fragment {
  const picked = all.notes.filter((n) => notes.has(n.id));
  const gs = all.groups.filter((g) => groups.has(g.id));
  if (!picked.length && !gs.length) return f;
  let minX = Infinity;
  let minY = Infinity;
  for (const n of f.nodes) {
    const p = positions[n.id];
    if (p) {
      minX = Math.min(minX, p.x);
      minY = Math.min(minY, p.y);
    }
  }
  for (const n of picked) {
    minX = Math.min(minX, n.x);
    minY = Math.min(minY, n.y);
  }
  const rel: Record<string, Point> = {};
  for (const n of f.nodes) {
    const p = positions[n.id];
    if (p) rel[n.id] = { x: p.x - minX, y: p.y - minY };
  }
  return {
    ...f,
    layout: {
      positions: rel,
      notes: picked.map((n) => ({ ...n, x: n.x - minX, y: n.y - minY })),
      groups: gs.map((g) => ({
        ...g,
        notes: g.notes.filter((id) => notes.has(id)),
        parent: g.parent && groups.has(g.parent) ? g.parent : undefined,
      })),
    },
  };
}

export function fragmentText(f: Fragment): string {
  return `${JSON.stringify(f, null, 2)}\n`;
}

export type ParsedFragment = { fragment: Fragment; warnings: string[] };

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Reads clipboard text: a GraphSpec (or fragment), an array of nodes, or one node. Anything
 * else is an error whose message says what was expected. */
export function parseFragment(text: string): ParsedFragment | { error: string } {
  const trimmed = text.trim();
  if (!trimmed) return { error: "The clipboard is empty." };
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch (e) {
    return { error: `The clipboard does not hold JSON: ${(e as Error).message}` };
  }
  const warnings: string[] = [];
  let rawNodes: unknown[];
  let rawEdges: unknown[] = [];
  let rawChannels: unknown = {};
  let rawPositions: unknown;
  // Notes and groups go to Rust as they are (it checks them and answers what is wrong).
  const annotations: { notes?: Note[]; groups?: Group[] } = {};
  if (Array.isArray(value)) rawNodes = value;
  else if (isObj(value) && ("nodes" in value || "edges" in value || "channels" in value)) {
    rawNodes = Array.isArray(value.nodes) ? value.nodes : [];
    rawEdges = Array.isArray(value.edges) ? value.edges : [];
    rawChannels = value.channels ?? {};
    rawPositions = isObj(value.layout) ? value.layout.positions : value.positions;
    if (isObj(value.layout)) {
      if (Array.isArray(value.layout.notes) && value.layout.notes.length) annotations.notes = value.layout.notes as Note[];
      if (Array.isArray(value.layout.groups) && value.layout.groups.length) annotations.groups = value.layout.groups as Group[];
    }
  } else if (isObj(value) && typeof value.id === "string") rawNodes = [value];
  else
    return {
      error:
        "The clipboard holds JSON but not a graph fragment: expected an object with `nodes` (a GraphSpec), an array of nodes, or one node `{id, type, config}`.",
    };

  const nodes: NodeSpec[] = [];
  const seen = new Set<string>();
  rawNodes.forEach((n, i) => {
    if (!isObj(n) || typeof n.id !== "string" || !n.id || n.id === START || n.id === END) {
      warnings.push(`nodes[${i}] was skipped: a node needs a non-empty string "id" that is not __start__ or __end__.`);
      return;
    }
    if (seen.has(n.id)) {
      warnings.push(`nodes[${i}] was skipped: the id "${n.id}" appears twice in the fragment.`);
      return;
    }
    seen.add(n.id);
    const config = isObj(n.config) ? structuredClone(n.config) : {};
    if (n.config !== undefined && !isObj(n.config)) warnings.push(`node "${n.id}": its config is not an object and was replaced by {}.`);
    nodes.push({ id: n.id, type: typeof n.type === "string" ? n.type : null, config });
  });
  const edges: EdgeSpec[] = [];
  rawEdges.forEach((e, i) => {
    if (!isObj(e) || typeof e.from !== "string" || typeof e.to !== "string") {
      warnings.push(`edges[${i}] was skipped: an edge needs string "from" and "to".`);
      return;
    }
    const edge: EdgeSpec = { from: e.from, to: e.to };
    if (isObj(e.when)) edge.when = structuredClone(e.when) as Predicate;
    edges.push(edge);
  });
  const channels: GraphSpec["channels"] = {};
  if (isObj(rawChannels)) {
    for (const [name, c] of Object.entries(rawChannels)) {
      const reducer = isObj(c) && typeof c.reducer === "string" ? c.reducer : "last_write";
      channels[name] = { reducer };
    }
  }
  const positions: Record<string, Point> = {};
  if (isObj(rawPositions)) {
    for (const [id, p] of Object.entries(rawPositions)) {
      if (isObj(p) && Number.isFinite(p.x) && Number.isFinite(p.y)) positions[id] = { x: p.x as number, y: p.y as number };
    }
  }
  if (nodes.length === 0 && edges.length === 0 && !annotations.notes) return { error: "The clipboard fragment has no nodes." };
  return { fragment: { name: null, channels, nodes, edges, layout: { positions, ...annotations } }, warnings };
}
