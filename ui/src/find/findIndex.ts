// What the find bar searches: every node (id, type, title, config values), every edge (its
// condition text), every channel and every problem of one document view, as lower-cased text
// built once per view, so a keystroke is one pass of `includes` over flat strings (its speed
// is measured in `find.bench.ts`).
import type { Diagnostic, DocumentView, Element } from "../bindings";

export type FindKind = "node" | "edge" | "channel" | "problem" | "note" | "group";

/** One thing the find bar can land on. */
export type FindItem = {
  kind: FindKind;
  /** What the list shows (`planner`, `a → b`, `messages`, the problem's message). */
  label: string;
  /** Secondary text: the type, the condition, the reducer, the code. */
  detail: string;
  /** What to select and frame. */
  element: Element;
  /** The nodes to frame (an edge: its two ends; a group: its members). */
  nodes: string[];
  /** A note or a group (selected as such): its id, and for a note the rectangle to frame. */
  annotation?: { kind: "note" | "group"; id: string; rect?: { x: number; y: number; w: number; h: number } };
};

type Field = { name: string; text: string };

/** Config values as `path=value` text, strings unquoted (a search for `gpt-4o` finds
 * `{"model": "gpt-4o"}`), nested objects and arrays walked; capped so a huge blob does not
 * slow every keystroke. */
export function configText(config: unknown, cap = 4000): string {
  const out: string[] = [];
  let len = 0;
  const walk = (v: unknown, path: string, depth: number) => {
    if (len > cap || depth > 12) return;
    if (v === null || v === undefined) return;
    if (typeof v === "object") {
      if (Array.isArray(v)) {
        for (const [i, x] of v.entries()) walk(x, `${path}[${i}]`, depth + 1);
      } else for (const [k, x] of Object.entries(v as Record<string, unknown>)) walk(x, path ? `${path}.${k}` : k, depth + 1);
      return;
    }
    const s = `${path}=${String(v).slice(0, cap)}`;
    out.push(s);
    len += s.length + 1;
  };
  walk(config, "", 0);
  return out.join("\n");
}

/** Every string a source-format node entry holds (Weaveflow `name`/`description`, GRAPH.md
 * front-matter fields), by node id. */
function sourceNodeText(view: DocumentView): Map<string, string> {
  const m = new Map<string, string>();
  const nodes =
    (view.weaveflow?.definition as { nodes?: unknown } | undefined)?.nodes ??
    (view.graphmd?.front as { nodes?: unknown } | undefined)?.nodes;
  const add = (id: unknown, entry: unknown) => {
    if (typeof id === "string") m.set(id, configText(entry, 2000));
  };
  if (Array.isArray(nodes)) for (const n of nodes) add((n as { id?: unknown })?.id, n);
  else if (nodes && typeof nodes === "object") for (const [id, n] of Object.entries(nodes)) add(id, n);
  return m;
}

/** Weaveflow edge conditions (the display spec carries only the declarative ones). */
function sourceEdgeText(view: DocumentView): string[] {
  const edges = (view.weaveflow?.definition as { edges?: unknown } | undefined)?.edges;
  return Array.isArray(edges) ? edges.map((e) => configText((e as { condition?: unknown })?.condition ?? null, 1000)) : [];
}

function problemElementNodes(d: Diagnostic): string[] {
  const el = d.element;
  if (!el) return [];
  if (el.kind === "node") return [el.id];
  if (el.kind === "edge") return [el.from, el.to];
  return [];
}

export class FindIndex {
  readonly items: FindItem[] = [];
  /** Per item: its fields' lower-cased text, joined, and where each field starts. */
  private hay: string[] = [];
  private fields: Field[][] = [];

  constructor(view: DocumentView, extra: Diagnostic[] = []) {
    const titles = sourceNodeText(view);
    for (const n of view.spec.nodes) {
      const fs: Field[] = [
        { name: "id", text: n.id },
        { name: "type", text: n.type ?? "" },
      ];
      const title = titles.get(n.id);
      if (title) fs.push({ name: "title", text: title });
      const cfg = configText(n.config);
      if (cfg) fs.push({ name: "config", text: cfg });
      this.push({ kind: "node", label: n.id, detail: n.type ?? "(no type)", element: { kind: "node", id: n.id }, nodes: [n.id] }, fs);
    }
    const wfEdges = sourceEdgeText(view);
    view.spec.edges.forEach((e, i) => {
      const cond = view.edgeLabels[i]?.text ?? "";
      const fs: Field[] = [{ name: "condition", text: [cond, wfEdges[i] ?? ""].filter(Boolean).join("\n") }];
      if (!fs[0].text) return; // an unconditional edge has nothing of its own to find
      this.push(
        {
          kind: "edge",
          label: `${e.from} → ${e.to}`,
          detail: cond || "condition",
          element: { kind: "edge", index: i, from: e.from, to: e.to },
          nodes: [e.from, e.to],
        },
        fs,
      );
    });
    for (const [name, ch] of Object.entries(view.spec.channels ?? {})) {
      const reducer = (ch as { reducer?: unknown })?.reducer;
      this.push(
        {
          kind: "channel",
          label: name,
          detail: typeof reducer === "string" ? reducer : "channel",
          element: { kind: "channel", name },
          nodes: [],
        },
        [{ name: "channel", text: name }],
      );
    }
    // Notes (their Markdown text) and groups (their names).
    for (const n of view.layout.notes ?? []) {
      const first = n.text.split("\n").find((l) => l.trim()) ?? "";
      this.push(
        {
          kind: "note",
          label: first.replace(/^#+\s*/, "").slice(0, 80) || "(empty note)",
          detail: "note",
          element: { kind: "graph" },
          nodes: [],
          annotation: { kind: "note", id: n.id, rect: { x: n.x, y: n.y, w: n.width, h: n.height } },
        },
        [{ name: "note", text: n.text }],
      );
    }
    for (const g of view.layout.groups ?? []) {
      this.push(
        {
          kind: "group",
          label: g.name,
          detail: `group of ${g.nodes.length + g.notes.length}`,
          element: { kind: "graph" },
          nodes: g.nodes,
          annotation: { kind: "group", id: g.id },
        },
        [{ name: "group", text: g.name }],
      );
    }
    for (const d of [...extra, ...view.diagnostics]) {
      this.push(
        { kind: "problem", label: d.message, detail: d.code, element: d.element ?? { kind: "graph" }, nodes: problemElementNodes(d) },
        [
          { name: "problem", text: d.message },
          { name: "code", text: d.code },
        ],
      );
    }
  }

  private push(item: FindItem, fs: Field[]) {
    this.items.push(item);
    this.fields.push(fs);
    this.hay.push(fs.map((f) => f.text.toLowerCase()).join("\u0001"));
  }

  /** The items (their indices) whose text contains `query`, case-insensitive, in document
   * order: nodes, edges, channels, problems. An empty query finds nothing. */
  search(query: string): number[] {
    const q = query.trim().toLowerCase();
    if (!q) return [];
    const out: number[] = [];
    const hay = this.hay;
    for (let i = 0; i < hay.length; i++) if (hay[i].includes(q)) out.push(i);
    return out;
  }

  /** Which field of item `i` holds `query` (asked only for the hits shown). */
  fieldOf(i: number, query: string): string {
    const q = query.trim().toLowerCase();
    for (const f of this.fields[i]) if (f.text.toLowerCase().includes(q)) return f.name;
    return this.fields[i][0]?.name ?? "";
  }
}
