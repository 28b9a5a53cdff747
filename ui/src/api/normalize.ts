// Accepts the shapes Rust may send (camelCase or snake_case, registry as a list or an object,
// notices as strings) and gives the UI one DocumentView. Missing parts get safe empties, so a
// partial answer never crashes the canvas.
import type { Diagnostic, DocumentView, GraphSpec, Notice, TypeInfo } from "../bindings";

type Raw = Record<string, unknown>;
const isObj = (v: unknown): v is Raw => typeof v === "object" && v !== null && !Array.isArray(v);

export function isView(v: unknown): v is Raw {
  return isObj(v) && isObj(v.spec) && typeof v.id === "string";
}

function spec(v: unknown): GraphSpec {
  const s = isObj(v) ? v : {};
  const nodes = Array.isArray(s.nodes) ? s.nodes : [];
  return {
    name: typeof s.name === "string" ? s.name : null,
    channels: isObj(s.channels) ? (s.channels as GraphSpec["channels"]) : {},
    nodes: nodes.filter(isObj).map((n) => ({
      id: String(n.id ?? ""),
      type: typeof n.type === "string" ? n.type : n.type_name && typeof n.type_name === "string" ? n.type_name : null,
      config: isObj(n.config) ? n.config : {},
    })),
    edges: (Array.isArray(s.edges) ? s.edges : []).filter(isObj).map((e) => ({
      from: String(e.from ?? ""),
      to: String(e.to ?? ""),
      ...(isObj(e.when) ? { when: e.when as GraphSpec["edges"][number]["when"] } : {}),
    })),
  };
}

function registry(v: unknown): TypeInfo[] {
  if (Array.isArray(v)) return v.filter(isObj) as TypeInfo[];
  if (isObj(v) && Array.isArray(v.types)) return v.types.filter(isObj) as TypeInfo[];
  return [];
}

function notices(v: unknown): Notice[] {
  if (!Array.isArray(v)) return [];
  return v.map((n) => (typeof n === "string" ? { level: "info" as const, message: n } : isObj(n) ? { level: (n.level as Notice["level"]) ?? "info", message: String(n.message ?? n.text ?? ""), code: typeof n.code === "string" ? n.code : undefined } : { level: "info" as const, message: String(n) }));
}

export function normalizeView(raw: unknown): DocumentView {
  const v = isObj(raw) ? raw : {};
  const layout = isObj(v.layout) ? v.layout : {};
  const pick = (a: string, b: string) => (a in v ? v[a] : v[b]);
  return {
    id: String(v.id ?? ""),
    path: typeof v.path === "string" ? v.path : null,
    fileName: String(pick("fileName", "file_name") ?? "untitled"),
    format: String(v.format ?? "graphspec"),
    dirty: Boolean(v.dirty),
    spec: spec(v.spec),
    layout: {
      positions: isObj(layout.positions) ? (layout.positions as DocumentView["layout"]["positions"]) : {},
      viewport: isObj(layout.viewport) ? (layout.viewport as DocumentView["layout"]["viewport"]) : null,
    },
    diagnostics: Array.isArray(v.diagnostics) ? (v.diagnostics as Diagnostic[]) : [],
    registry: registry(pick("registry", "types")),
    canUndo: Boolean(pick("canUndo", "can_undo")),
    canRedo: Boolean(pick("canRedo", "can_redo")),
    notices: notices(v.notices),
    layoutMissing: Boolean(pick("layoutMissing", "layout_missing")),
    conflict: isObj(v.conflict) ? (v.conflict as DocumentView["conflict"]) : null,
    // The format's own payload (crates/doc formats::view), passed through when present.
    weaveflow: isObj(v.weaveflow) && isObj(v.weaveflow.definition) ? (v.weaveflow as unknown as DocumentView["weaveflow"]) : null,
    graphmd: isObj(v.graphmd) && isObj(v.graphmd.front) && isObj(v.graphmd.analysis) ? (v.graphmd as unknown as DocumentView["graphmd"]) : null,
  };
}
