// The in-memory backend: applies the same edit operations Rust does, keeps undo/redo stacks of
// snapshots, validates with a small stand-in validator, and "saves" by refusing documents with
// errors. Used by Vitest and by the browser dev mode (no Tauri).
import type {
  Diagnostic,
  DocumentSummary,
  DocumentView,
  Edit,
  ExportAnswer,
  GraphSpec,
  ImportAnswer,
  Layout,
  Position,
  SaveAnswer,
  TypeInfo,
  ViewDelta,
  Viewport,
  Point,
  FixEdit,
  RegistrySource,
} from "../bindings";
import { END, START } from "../lib/ids";
import { FAKE_TYPES } from "./fakeRegistry";
import { fakeValidate } from "./fakeValidate";
import { fakeEdgeLabel } from "./fakeLabels";
import { type Seed, seed } from "./fakeDocs";
import type { Backend, BackendEvent, ExportFormat, FixAnswer, RegistryEditAnswer } from "./types";

type Snapshot = { spec: GraphSpec; layout: Layout };
type Doc = Seed & {
  id: string;
  layout: Layout;
  undo: Snapshot[];
  redo: Snapshot[];
  savedText: string | null;
  saveDiagnostics: Diagnostic[];
};

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function canonical(spec: GraphSpec): string {
  return `${JSON.stringify(spec, null, 2)}\n`;
}

function unescapePointer(seg: string) {
  return seg.replace(/~1/g, "/").replace(/~0/g, "~");
}

/** Sets or removes the value at a JSON Pointer inside `root`, creating objects on the way. */
export function setAtPointer(root: Record<string, unknown>, pointer: string, value: unknown, remove: boolean) {
  if (pointer === "" || pointer === "/") throw new Error("set_config_field needs a path inside the config, e.g. /model");
  if (!pointer.startsWith("/")) throw new Error(`"${pointer}" is not a JSON Pointer (it must start with /)`);
  const segs = pointer.slice(1).split("/").map(unescapePointer);
  let cur: Record<string, unknown> | unknown[] = root;
  for (let i = 0; i < segs.length - 1; i++) {
    const s = segs[i];
    const next: unknown = Array.isArray(cur) ? cur[Number(s)] : cur[s];
    if (!isObj(next) && !Array.isArray(next)) {
      if (remove) return;
      const created = {};
      if (Array.isArray(cur)) cur[Number(s)] = created;
      else cur[s] = created;
      cur = created;
    } else cur = next;
  }
  const last = segs[segs.length - 1];
  if (Array.isArray(cur)) {
    const i = last === "-" ? cur.length : Number(last);
    if (remove) cur.splice(i, 1);
    else cur[i] = value;
  } else if (remove) delete cur[last];
  else cur[last] = value;
}

export class FakeBackend implements Backend {
  readonly kind = "fake" as const;
  readonly docs = new Map<string, Doc>();
  private order: string[] = [];
  private handlers = new Set<(e: BackendEvent) => void>();
  private counter = 0;
  registry: TypeInfo[];
  /** Milliseconds each answer waits (0 in tests), to make the dev mode feel like IPC. */
  latency = 0;

  constructor(initial: string[] = ["example"], registry: TypeInfo[] = FAKE_TYPES) {
    this.registry = registry;
    for (const name of initial) this.create(seed(name));
  }

  private create(s: Seed): Doc {
    const id = `doc-${++this.counter}`;
    const doc: Doc = {
      ...s,
      id,
      layout: { positions: s.positions, notes: [], groups: [] },
      undo: [],
      redo: [],
      savedText: s.path ? canonical(s.spec) : null,
      saveDiagnostics: [],
    };
    this.docs.set(id, doc);
    this.order.push(id);
    return doc;
  }

  /** Opens a seed document (tests and the dev mode's "Open" button use it). */
  openSeed(name: string): DocumentView {
    const d = this.create(seed(name));
    const v = this.view(d);
    this.emit({ type: "opened", view: v });
    return v;
  }

  private doc(id: string): Doc {
    const d = this.docs.get(id);
    if (!d) throw new Error(`no open document "${id}"`);
    return d;
  }

  view(d: Doc): DocumentView {
    const diagnostics = [...fakeValidate(d.spec, this.registry), ...d.saveDiagnostics];
    return {
      id: d.id,
      path: d.path,
      fileName: d.fileName,
      format: "graphspec",
      dirty: d.savedText === null ? d.spec.nodes.length > 0 || d.undo.length > 0 : canonical(d.spec) !== d.savedText,
      spec: structuredClone(d.spec),
      edgeLabels: d.spec.edges.map(fakeEdgeLabel),
      extraEdges: [],
      layout: structuredClone(d.layout),
      collapsed: { boxes: {}, nodes: {}, notes: {}, groups: [], hiddenEdges: [], edges: [] },
      diagnostics,
      registry: this.registry,
      canUndo: d.undo.length > 0,
      canRedo: d.redo.length > 0,
      notices: [],
      layoutMissing: Object.keys(d.layout.positions).length === 0 && d.spec.nodes.length > 0,
      conflict: null,
      weaveflow: null,
      graphmd: null,
      // GraphSpec has no subgraph nodes.
      subgraphs: [],
    };
  }

  /** The answer to an edit: the fake replaces the lists whole (Rust sends only what changed). */
  private delta(before: DocumentView, d: Doc): ViewDelta {
    const after = this.view(d);
    const positions: ViewDelta["positions"] = { ...after.layout.positions };
    for (const id of Object.keys(before.layout.positions)) if (!(id in positions)) positions[id] = null;
    return {
      id: d.id,
      nodes: [{ at: 0, remove: before.spec.nodes.length, insert: after.spec.nodes }],
      edges: [{ at: 0, remove: before.spec.edges.length, insert: after.spec.edges }],
      edgeLabels: [{ at: 0, remove: before.edgeLabels.length, insert: after.edgeLabels }],
      extraEdges: null,
      name: after.spec.name,
      channels: after.spec.channels,
      positions,
      viewport: after.layout.viewport ?? null,
      annotations: null,
      collapsed: null,
      layoutMissing: after.layoutMissing,
      diagnostics: { at: 0, remove: before.diagnostics.length, insert: after.diagnostics },
      dirty: after.dirty,
      canUndo: after.canUndo,
      canRedo: after.canRedo,
      notices: after.notices,
      weaveflow: null,
      graphmd: null,
      subgraphs: null,
      notes: [],
      created: after.spec.nodes.map((n) => n.id).filter((id) => !before.spec.nodes.some((m) => m.id === id)),
    };
  }

  private async wait() {
    if (this.latency > 0) await new Promise((r) => setTimeout(r, this.latency));
  }

  async listDocuments(): Promise<DocumentSummary[]> {
    return this.order.map((id) => {
      const v = this.view(this.doc(id));
      return { id, fileName: v.fileName, dirty: v.dirty };
    });
  }
  async getDocument(docId: string) {
    await this.wait();
    return this.view(this.doc(docId));
  }

  async applyEdit(docId: string, edit: Edit) {
    await this.wait();
    const d = this.doc(docId);
    const was = this.view(d);
    const before: Snapshot = { spec: structuredClone(d.spec), layout: structuredClone(d.layout) };
    const spec = structuredClone(d.spec);
    const layout = structuredClone(d.layout);
    apply(spec, layout, edit, this.registry); // throws the refusal reason; nothing changes then
    d.spec = spec;
    d.layout = layout;
    // As in Rust: an automatic layout and the viewport are not undo steps.
    const quiet = (edit.op === "apply_layout" && edit.automatic) || edit.op === "set_viewport";
    if (!quiet) {
      d.undo.push(before);
      d.redo = [];
    }
    d.saveDiagnostics = [];
    return this.delta(was, d);
  }

  async undo(docId: string) {
    const d = this.doc(docId);
    const was = this.view(d);
    const s = d.undo.pop();
    if (!s) throw new Error("Nothing to undo.");
    d.redo.push({ spec: d.spec, layout: d.layout });
    d.spec = s.spec;
    d.layout = s.layout;
    return this.delta(was, d);
  }
  async redo(docId: string) {
    const d = this.doc(docId);
    const was = this.view(d);
    const s = d.redo.pop();
    if (!s) throw new Error("Nothing to redo.");
    d.undo.push({ spec: d.spec, layout: d.layout });
    d.spec = s.spec;
    d.layout = s.layout;
    return this.delta(was, d);
  }

  async save(docId: string): Promise<SaveAnswer> {
    await this.wait();
    const d = this.doc(docId);
    const errors = fakeValidate(d.spec, this.registry).filter((x) => x.severity === "error");
    if (errors.length) {
      d.saveDiagnostics = [
        {
          code: "save/refused",
          severity: "error",
          message: `${d.fileName} was not saved: ${errors.length} error${errors.length > 1 ? "s" : ""} must be fixed first (the file on disk is unchanged).`,
          pointer: "",
          element: { kind: "graph" },
        },
      ];
      return {
        saved: false,
        view: this.view(d),
        delta: null,
        diagnostics: [...d.saveDiagnostics, ...errors],
        conflict: false,
        reformattedLines: null,
        newLayoutFile: null,
      };
    }
    if (!d.path) return this.saveAs(docId);
    d.savedText = canonical(d.spec);
    d.saveDiagnostics = [];
    return { saved: true, view: this.view(d), delta: null, diagnostics: [], conflict: false, reformattedLines: null, newLayoutFile: null };
  }
  async saveAs(docId: string): Promise<SaveAnswer> {
    const d = this.doc(docId);
    d.path = d.path ?? `/tmp/${d.fileName}`;
    return this.save(docId);
  }
  async newDocument(example: boolean) {
    return this.openSeed(example ? "example" : "empty");
  }
  async openDialog() {
    return this.openSeed("support");
  }
  /** GraphSpec only: the format conversions live in Rust; the fake says so for the others. */
  async exportDocument(docId: string, format: ExportFormat, confirm: boolean): Promise<ExportAnswer> {
    const d = this.doc(docId);
    if (format !== "graphspec") throw new Error(`The browser preview cannot convert to ${format}: use the desktop app.`);
    const path = confirm ? `/tmp/${d.fileName.replace(/\.[^.]*$/, "")}.json` : null;
    return { format, text: canonical(d.spec), losses: [], written: confirm, path };
  }
  private wfVersion = "1.0";
  /** Kept only in memory: the fake opens no Weaveflow documents to revalidate. */
  async weaveflowVersion() {
    return this.wfVersion;
  }
  async setWeaveflowVersion(version: string) {
    const v = version.trim();
    if (!v) throw new Error("the Weaveflow version cannot be empty");
    this.wfVersion = v;
    return v;
  }
  /** The "file" is a GraphSpec seed: nothing to convert, nothing lost. */
  async importDialog(): Promise<ImportAnswer | null> {
    return { view: this.openSeed("support"), losses: [] };
  }
  async close(docId: string) {
    this.docs.delete(docId);
    this.order = this.order.filter((x) => x !== docId);
    this.emit({ type: "closed", id: docId });
    return true;
  }
  async setActive() {}
  /** The browser preview has the built-in types only, read-only; editing needs the app. */
  async registrySources(): Promise<RegistrySource[]> {
    return [{ source: "built-in", writable: false, types: this.registry }];
  }
  async editRegistry(): Promise<RegistryEditAnswer> {
    throw new Error("registry files are edited in the desktop app only");
  }
  async undoRegistryEdit(): Promise<RegistryEditAnswer> {
    throw new Error("registry files are edited in the desktop app only");
  }
  /** Document fixes become the same edits Rust makes; registry fixes need the real app. */
  async applyFix(docId: string, fix: FixEdit): Promise<FixAnswer> {
    const d = this.doc(docId);
    switch (fix.kind) {
      case "set_node_type":
        await this.applyEdit(docId, { op: "set_node_type", id: fix.node, type: fix.type });
        return { view: this.view(this.doc(docId)) };
      case "declare_channel":
        await this.applyEdit(docId, { op: "add_channel", name: fix.name, reducer: "last_write" });
        return { view: this.view(this.doc(docId)) };
      case "rename_config_field": {
        const node = d.spec.nodes.find((n) => n.id === fix.node);
        if (!node) throw new Error(`there is no node "${fix.node}" any more`);
        const config = Object.fromEntries(Object.entries(node.config ?? {}).map(([k, v]) => [k === fix.from ? fix.to : k, v]));
        await this.applyEdit(docId, { op: "set_config", id: fix.node, config });
        return { view: this.view(this.doc(docId)) };
      }
      case "describe_types":
        throw new Error("describing types writes a registry file: only the desktop app does that");
      case "set_version":
        throw new Error("the browser demo edits GraphSpec documents only");
    }
  }
  async resolveConflict(docId: string) {
    return this.view(this.doc(docId));
  }
  setViewport(docId: string, viewport: Viewport) {
    const d = this.docs.get(docId);
    if (d) d.layout.viewport = viewport;
  } /** The stand-in for Rust's layout engine: elkjs in-process (tests and the browser dev
   * mode only; the app lays out in Rust). */
  async layoutDocument(docId: string, onProgress: (fraction: number) => void): Promise<Record<string, Point> | null> {
    const spec = structuredClone(this.doc(docId).spec);
    const cancelled = ++this.layoutRun;
    const { layoutGraph, appElk } = await import("../lib/layout");
    const positions = await layoutGraph(
      spec,
      await appElk(),
      spec.edges.map((e) => fakeEdgeLabel(e)?.text ?? ""),
    );
    if (cancelled !== this.layoutRun) return null;
    onProgress(1);
    return positions;
  }
  private layoutRun = 0;
  cancelLayout() {
    this.layoutRun++;
  }

  subscribe(handler: (e: BackendEvent) => void) {
    this.handlers.add(handler);
    return () => void this.handlers.delete(handler);
  }
  emit(e: BackendEvent) {
    for (const h of this.handlers) h(e);
  }
}

const REDUCERS = ["last_write", "append", "merge"];

/** One edit on copies of the spec and layout; throws a sentence when the edit is refused. */
export function apply(spec: GraphSpec, layout: Layout, edit: Edit, registry: TypeInfo[]) {
  const ids = () => new Set(spec.nodes.map((n) => n.id));
  const node = (id: string) => {
    const n = spec.nodes.find((x) => x.id === id);
    if (!n) throw new Error(`There is no node "${id}".`);
    return n;
  };
  const checkNewId = (id: string) => {
    if (!id.trim()) throw new Error("A node id cannot be empty.");
    if (id === START || id === END) throw new Error(`"${id}" is reserved and implicit.`);
    if (ids().has(id)) throw new Error(`A node "${id}" already exists.`);
  };
  switch (edit.op) {
    case "add_node": {
      const id = edit.id ?? freshId(edit.type, ids());
      checkNewId(id);
      const defaults = registry.find((t) => t.type === edit.type)?.defaults;
      spec.nodes.push({ id, type: edit.type, config: edit.config ?? (isObj(defaults) ? structuredClone(defaults) : {}) });
      layout.positions[id] = edit.position;
      return;
    }
    case "remove_nodes": {
      const gone = new Set(edit.ids);
      spec.nodes = spec.nodes.filter((n) => !gone.has(n.id));
      spec.edges = spec.edges.filter((e) => !gone.has(e.from) && !gone.has(e.to));
      for (const id of gone) delete layout.positions[id];
      return;
    }
    case "rename_node": {
      if (edit.from === edit.to) return;
      const n = node(edit.from);
      checkNewId(edit.to);
      n.id = edit.to;
      for (const e of spec.edges) {
        if (e.from === edit.from) e.from = edit.to;
        if (e.to === edit.from) e.to = edit.to;
      }
      if (layout.positions[edit.from]) {
        layout.positions[edit.to] = layout.positions[edit.from];
        delete layout.positions[edit.from];
      }
      return;
    }
    case "set_node_type":
      node(edit.id).type = edit.type;
      return;
    case "set_config_field":
      setAtPointer(node(edit.id).config, edit.path, edit.value, !("value" in edit));
      return;
    case "set_config":
      node(edit.id).config = structuredClone(edit.config);
      return;
    case "connect": {
      if (edit.to === START) throw new Error("An edge cannot go into __start__.");
      if (edit.from === END) throw new Error("An edge cannot leave __end__.");
      if (spec.edges.some((e) => e.from === edit.from && e.to === edit.to && JSON.stringify(e.when) === JSON.stringify(edit.when)))
        throw new Error(`There is already an edge from "${edit.from}" to "${edit.to}".`);
      spec.edges.push(edit.when ? { from: edit.from, to: edit.to, when: edit.when } : { from: edit.from, to: edit.to });
      return;
    }
    case "disconnect":
      if (!spec.edges[edit.index]) throw new Error(`There is no edge ${edit.index}.`);
      spec.edges.splice(edit.index, 1);
      return;
    case "set_when": {
      const e = spec.edges[edit.index];
      if (!e) throw new Error(`There is no edge ${edit.index}.`);
      if (edit.when) e.when = edit.when;
      else delete e.when;
      return;
    }
    case "add_channel":
      if (!edit.name) throw new Error("A channel name cannot be empty.");
      if (edit.name in spec.channels) throw new Error(`A channel "${edit.name}" already exists.`);
      spec.channels[edit.name] = { reducer: edit.reducer };
      return;
    case "rename_channel": {
      if (!(edit.from in spec.channels)) throw new Error(`There is no channel "${edit.from}".`);
      if (!edit.to) throw new Error("A channel name cannot be empty.");
      if (edit.to in spec.channels && edit.to !== edit.from) throw new Error(`A channel "${edit.to}" already exists.`);
      spec.channels = Object.fromEntries(Object.entries(spec.channels).map(([k, v]) => [k === edit.from ? edit.to : k, v]));
      for (const e of spec.edges) if (e.when?.channel === edit.from) e.when.channel = edit.to;
      return;
    }
    case "remove_channel": {
      const users = spec.edges.map((e, i) => ({ e, i })).filter(({ e }) => e.when?.channel === edit.name);
      if (users.length)
        throw new Error(
          `Channel "${edit.name}" is read by the condition of ${users.map(({ e }) => `${e.from} -> ${e.to}`).join(", ")}; change those conditions first.`,
        );
      delete spec.channels[edit.name];
      return;
    }
    case "set_reducer":
      if (!REDUCERS.includes(edit.reducer)) throw new Error(`unknown reducer "${edit.reducer}"`);
      if (!spec.channels[edit.name]) throw new Error(`There is no channel "${edit.name}".`);
      spec.channels[edit.name].reducer = edit.reducer;
      return;
    case "rename_graph":
      spec.name = edit.name;
      return;
    case "set_viewport":
      layout.viewport = edit.viewport;
      return;
    case "move_nodes":
    case "apply_layout":
      for (const [id, p] of Object.entries(edit.positions)) layout.positions[id] = p as Position;
      return;
    case "paste": {
      const f = (typeof edit.fragment === "string" ? JSON.parse(edit.fragment) : edit.fragment) as GraphSpec & { layout?: Layout };
      const taken = ids();
      const map = new Map<string, string>();
      for (const n of f.nodes ?? []) {
        const id = taken.has(n.id) ? freshId(n.id, taken) : n.id;
        taken.add(id);
        map.set(n.id, id);
        spec.nodes.push({ id, type: n.type, config: structuredClone(n.config ?? {}) });
      }
      for (const [c, v] of Object.entries(f.channels ?? {})) if (!(c in spec.channels)) spec.channels[c] = v;
      const exists = (x: string) => x === START || x === END || taken.has(x);
      for (const e of f.edges ?? []) {
        const from = map.get(e.from) ?? e.from;
        const to = map.get(e.to) ?? e.to;
        if (exists(from) && exists(to)) spec.edges.push(e.when ? { from, to, when: e.when } : { from, to });
      }
      const at = edit.at ?? { x: 0, y: 0 };
      const rel = f.layout?.positions ?? {};
      let k = 0;
      for (const [old, id] of map) {
        const p = rel[old] ?? { x: (k % 4) * 260, y: Math.floor(k / 4) * 100 };
        layout.positions[id] = { x: at.x + p.x, y: at.y + p.y };
        k++;
      }
      return;
    }
  }
}

/** The demo's stand-in for the ids Rust chooses (crates/doc `apply.rs` `fresh_id`): the first of
 * `base`, `base_2`, `base_3`... not taken. The desktop app never runs this: it sends edits
 * without ids and selects the ids Rust answers (`ViewDelta.created`). */
function freshId(base: string, taken: ReadonlySet<string>): string {
  const stem = base.replace(/[^A-Za-z0-9_]+/g, "_") || "node";
  const bad = (id: string) => id === START || id === END || taken.has(id);
  if (!bad(stem)) return stem;
  let n = 2;
  while (bad(`${stem}_${n}`)) n++;
  return `${stem}_${n}`;
}
