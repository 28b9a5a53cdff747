// Completions where the document names things: node types (the registry in force for the
// document), node ids in edge ends and entry points, channel names, predicate operators,
// reducers, a node's config keys (from its type's schema), and the fields of nodes and edges.
// What can be named comes from the view Rust sent; where the cursor is comes from the editor's
// syntax tree (JSON), or from the line (GRAPH.md's YAML front matter).
import type { Completion, CompletionContext, CompletionResult, CompletionSource } from "@codemirror/autocomplete";
import { ensureSyntaxTree, syntaxTree } from "@codemirror/language";
import type { EditorState } from "@codemirror/state";
import type { DocumentView } from "../bindings";
import { OPERATORS } from "../lib/condition";
import { END, START } from "../lib/ids";

type Path = (string | number)[];
type SyntaxNode = ReturnType<ReturnType<typeof syntaxTree>["resolveInner"]>;

const REDUCERS = ["last_write", "append", "merge"];

function keyText(state: EditorState, node: SyntaxNode | null): string {
  if (!node) return "";
  const raw = state.sliceDoc(node.from, node.to);
  try {
    return JSON.parse(raw) as string;
  } catch {
    return raw.replace(/^"|"$/g, "");
  }
}

const VALUES = new Set(["Object", "Array", "String", "Number", "True", "False", "Null"]);

/** The JSON path from the document's root to `node` (keys and indices). */
function pathOf(state: EditorState, node: SyntaxNode): Path {
  const path: Path = [];
  for (let n: SyntaxNode = node; n.parent; n = n.parent) {
    const p = n.parent;
    if (p.name === "Property" && n.name !== "PropertyName") path.unshift(keyText(state, p.getChild("PropertyName")));
    else if (p.name === "Array") {
      let i = 0;
      for (let c = p.firstChild; c && c.from < n.from; c = c.nextSibling) if (VALUES.has(c.name)) i++;
      path.unshift(i);
    }
  }
  return path;
}

/** Where the cursor is in a JSON text: typing a key of the object at `path`, or the value of
 * the key that ends `path`; `from` is where the completed text starts. */
function jsonContext(ctx: CompletionContext): { path: Path; at: "key" | "value"; from: number; quoted: boolean } | null {
  // Parsed up to the cursor (the editor parses a long text in the background, a bit at a time).
  const tree = ensureSyntaxTree(ctx.state, ctx.pos, 100) ?? syntaxTree(ctx.state);
  const node = tree.resolveInner(ctx.pos, -1);
  const word = ctx.matchBefore(/"?[\w$.:/-]*/);
  const from = word ? word.from : ctx.pos;
  const quoted = !!word?.text.startsWith('"');
  if (node.name === "PropertyName" || (node.parent?.name === "Property" && node.name === "⚠")) {
    const obj = node.parent?.parent;
    return obj ? { path: pathOf(ctx.state, obj), at: "key", from, quoted } : null;
  }
  if (node.name === "Object") return { path: pathOf(ctx.state, node), at: "key", from, quoted };
  if (node.name === "String" && node.parent?.name === "Property") {
    return { path: pathOf(ctx.state, node), at: "value", from: node.from, quoted: true };
  }
  // An unfinished string after `"key": ` (the parser's recovery varies): read the line.
  const line = ctx.state.doc.lineAt(ctx.pos);
  const before = ctx.state.sliceDoc(line.from, ctx.pos);
  const m = /"([^"]+)"\s*:\s*("?[^",}\]]*)$/.exec(before);
  if (m) {
    const parentPath = node.name === "Object" || node.name === "Property" ? pathOf(ctx.state, node) : null;
    return { path: [...(parentPath ?? []), m[1]], at: "value", from: ctx.pos - m[2].length, quoted: m[2].startsWith('"') };
  }
  return null;
}

/** Options that write a JSON string (the quotes included). */
function strings(values: Iterable<string>, type: string, detail?: (v: string) => string | undefined): Completion[] {
  const out: Completion[] = [];
  for (const v of values) out.push({ label: JSON.stringify(v), apply: JSON.stringify(v), type, detail: detail?.(v) });
  return out;
}

function keys(names: Iterable<string>, detail?: string): Completion[] {
  return [...names].map((n) => ({ label: JSON.stringify(n), apply: `${JSON.stringify(n)}: `, type: "property", detail }));
}

/** The config keys a node's type describes (its schema's `properties`). */
function configKeys(view: DocumentView, index: number): string[] {
  const type = view.spec.nodes[index]?.type;
  const info = view.registry.find((t) => t.type === type);
  const props = (info?.config_schema as { properties?: Record<string, unknown> } | undefined)?.properties;
  return props ? Object.keys(props) : [];
}

function nodeIds(view: DocumentView): string[] {
  return view.spec.nodes.map((n) => n.id);
}

function channelNames(view: DocumentView): string[] {
  return Object.keys(view.spec.channels);
}

function typeOptions(view: DocumentView): Completion[] {
  return view.registry.map((t) => ({
    label: JSON.stringify(t.type),
    apply: JSON.stringify(t.type),
    type: "class",
    detail: t.title && t.title !== t.type ? t.title : t.category,
    info: t.description,
  }));
}

/** The completions of a JSON document (GraphSpec or Weaveflow). */
function jsonOptions(view: DocumentView, path: Path, at: "key" | "value"): Completion[] {
  const [top, index, field, ...rest] = path;
  const weaveflow = view.format === "weaveflow";
  if (at === "value") {
    const key = path[path.length - 1];
    if (top === "nodes" && typeof index === "number" && field === "type" && rest.length === 0) return typeOptions(view);
    if (top === "edges" && typeof index === "number" && (field === "from" || field === "to") && rest.length === 0)
      return strings(field === "from" ? [START, ...nodeIds(view)] : [...nodeIds(view), END], "variable");
    if (top === "edges" && field === "when" && key === "channel") return strings(channelNames(view), "variable");
    if (top === "channels" && key === "reducer") return strings(REDUCERS, "enum");
    if (weaveflow && (top === "entry_point" || top === "finish_point") && path.length === 1) return strings(nodeIds(view), "variable");
    if (weaveflow && top === "edges" && (field === "from" || field === "to")) return strings(nodeIds(view), "variable");
    return [];
  }
  if (path.length === 0)
    return keys(
      weaveflow
        ? ["version", "name", "state_modules", "entry_point", "finish_point", "nodes", "edges"]
        : ["name", "channels", "nodes", "edges"],
    );
  if (top === "nodes" && typeof index === "number" && path.length === 2)
    return keys(weaveflow ? ["id", "type", "name", "description", "config", "state"] : ["id", "type", "config"]);
  if (top === "nodes" && typeof index === "number" && field === "config" && rest.length === 0)
    return keys(configKeys(view, index), "config");
  if (top === "edges" && typeof index === "number" && path.length === 2)
    return keys(weaveflow ? ["from", "to", "condition", "failure"] : ["from", "to", "when"]);
  if (top === "edges" && field === "when" && rest.length === 0) return keys(["channel", ...OPERATORS], "predicate");
  if (top === "channels" && path.length === 2) return keys(["reducer"]);
  return [];
}

/** GRAPH.md's front matter: the key of the line the cursor is on. */
function yamlContext(ctx: CompletionContext, view: DocumentView): CompletionResult | null {
  const line = ctx.state.doc.lineAt(ctx.pos);
  const before = ctx.state.sliceDoc(line.from, ctx.pos);
  const m = /^\s*(?:-\s+)?([\w-]+):\s*(?:\[?\s*(?:[\w:.-]+,\s*)*)?([\w:.-]*)$/.exec(before);
  if (!m) return null;
  const key = m[1];
  const ids = nodeIds(view);
  const kinds = view.registry.map((t) => t.type);
  const options: Record<string, string[]> = {
    from: ids,
    to: ids,
    entry: ids,
    exits: ids,
    fallback: ids,
    kind: kinds,
  };
  const values = options[key];
  if (!values) return null;
  return { from: ctx.pos - m[2].length, options: values.map((v) => ({ label: v, type: "variable" })), validFor: /^[\w:.-]*$/ };
}

/** The completion source of the pane, reading the document's view when asked. */
export function completionSource(getView: () => DocumentView | null): CompletionSource {
  return (ctx: CompletionContext): CompletionResult | null => {
    const view = getView();
    if (!view) return null;
    if (view.format === "graphmd") return yamlContext(ctx, view);
    const where = jsonContext(ctx);
    if (!where) return null;
    if (!ctx.explicit && where.at === "key" && !where.quoted && ctx.pos === where.from) return null;
    const options = jsonOptions(view, where.path, where.at);
    if (!options.length) return null;
    return { from: where.from, options, validFor: /^"?[\w$.:/-]*"?$/ };
  };
}

/** For tests: where the cursor is, as the source sees it. */
export const forTests = { jsonOptions };
