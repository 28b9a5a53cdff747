// A backend for the UI tests that only replays what Rust answered: the documents and the
// scripts of edit answers in `fixtures/documents.json`, written by a Rust test (crates/doc
// `tests/ui_fixtures.rs`, rerun by `npm test`). It computes nothing: an edit the script did not
// record (in that order) is refused and listed in `unexpected`, so a UI that drifts from Rust
// fails its test instead of meeting a stand-in that agrees with it.
import type { Diagnostic, DocumentView, Edit, ExportAnswer, FixEdit, ImportAnswer, PredicateOperator, ViewDelta } from "../bindings";
import type { Backend, ExportFormat, FixAnswer } from "../api/types";
import text from "./fixtures/documents.json?raw";

type Change = Edit | "undo" | "redo" | { fix: FixEdit };
export type Step = {
  change: Change;
  answer?: ViewDelta;
  /** What `apply_fix` answered: the whole view after the fix's edit. */
  view?: DocumentView;
  refused?: { message: string; diagnostics: Diagnostic[] };
};
type Fixture = {
  example: { view: DocumentView };
  support: { view: DocumentView };
  /** The example with a note, a collapsed group and a group nested in it. */
  annotated: { view: DocumentView };
  /** Two unknown types and a built-in type used as the user's own runtime defines it. */
  ownTypes: { view: DocumentView };
  scripts: Record<string, Step[]>;
  /** Every predicate operator, in the engine's order of precedence. */
  operators: PredicateOperator[];
  weaveflowVersion: {
    default: string;
    set: string;
    inForce: string;
    empty: string;
    refused: { message: string; diagnostics: Diagnostic[] };
  };
  exportExampleToWeaveflow: Omit<ExportAnswer, "written" | "path">;
  exportExampleToGraphmd: Omit<ExportAnswer, "written" | "path">;
  exportExampleToGraphspec: Omit<ExportAnswer, "written" | "path">;
};

/** What Rust wrote for the UI tests. */
export const rust = JSON.parse(text) as Fixture;

/** Where things land (a node's `position`, a paste's `at`, the places of `positions`) depends on
 * the canvas the test runs in; everything else must be what Rust saw, down to which nodes a move
 * moves (the keys of `positions`). */
function comparable(change: Change): string {
  if (typeof change === "string") return change;
  const { position: _p, at: _a, positions, ...rest } = change as Record<string, unknown>;
  const moved = positions && typeof positions === "object" ? { positions: Object.keys(positions).sort() } : {};
  return JSON.stringify(sorted({ ...rest, ...moved }));
}

/** `v` with the keys of every object in sorted order, so key order never tells two changes
 * apart (an array replacer in JSON.stringify would also drop nested keys such as a config's). */
function sorted(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sorted);
  if (v && typeof v === "object") {
    const o = v as Record<string, unknown>;
    return Object.fromEntries(
      Object.keys(o)
        .sort()
        .map((k) => [k, sorted(o[k])]),
    );
  }
  return v;
}

export class RecordedBackend implements Backend {
  readonly kind = "recorded" as const;
  /** Calls that were not the next step of the script (the test asserts there are none). */
  readonly unexpected: string[] = [];
  private version: string;
  private script: Step[];

  constructor(
    private readonly docs: DocumentView[],
    script: Step[] = [],
  ) {
    this.script = [...script];
    this.version = rust.weaveflowVersion.default;
  }

  /** The steps not replayed yet. */
  get remaining() {
    return this.script.length;
  }

  private next(change: Change): Step {
    const next = this.script[0];
    if (!next || comparable(next.change) !== comparable(change)) {
      const what = `${comparable(change)} (the script expected ${next ? comparable(next.change) : "nothing"})`;
      this.unexpected.push(what);
      throw new Error(`not in Rust's script: ${what}`);
    }
    this.script.shift();
    if (next.refused) throw next.refused;
    return next;
  }
  private replay(change: Change): Promise<ViewDelta> {
    try {
      return Promise.resolve(this.next(change).answer as ViewDelta);
    } catch (e) {
      return Promise.reject(e);
    }
  }
  private view(id: string): DocumentView {
    const v = this.docs.find((d) => d.id === id);
    if (!v) throw new Error(`no document "${id}"`);
    return v;
  }
  private notRecorded(what: string): Promise<never> {
    this.unexpected.push(what);
    return Promise.reject(new Error(`not recorded: ${what}`));
  }

  async listDocuments() {
    return this.docs.map((d) => ({ id: d.id, fileName: d.fileName, dirty: d.dirty }));
  }
  async getDocument(id: string) {
    return this.view(id);
  }
  applyEdit(_id: string, edit: Edit) {
    return this.replay(edit);
  }
  async applyFix(_id: string, fix: FixEdit): Promise<FixAnswer> {
    return { view: this.next({ fix }).view as DocumentView };
  }
  undo() {
    return this.replay("undo");
  }
  redo() {
    return this.replay("redo");
  }
  save() {
    return this.notRecorded("save");
  }
  saveAs() {
    return this.notRecorded("saveAs");
  }
  newDocument() {
    return this.notRecorded("newDocument");
  }
  openDialog() {
    return this.notRecorded("openDialog");
  }
  exportDocument(_id: string, format: ExportFormat, _confirm: boolean): Promise<ExportAnswer> {
    return this.notRecorded(`exportDocument(${format})`);
  }
  importDialog(): Promise<ImportAnswer | null> {
    return this.notRecorded("importDialog");
  }
  resolveConflict() {
    return this.notRecorded("resolveConflict");
  }
  async weaveflowVersion() {
    return this.version;
  }
  /** Rust's answers to the two values it was asked about. */
  async setWeaveflowVersion(version: string) {
    const w = rust.weaveflowVersion;
    if (version === w.set) return (this.version = w.inForce);
    if (version === w.empty) throw w.refused;
    return this.notRecorded(`setWeaveflowVersion(${JSON.stringify(version)})`);
  }
  async close() {
    return true;
  }
  async setActive() {}
  setViewport() {}
  /** Rust's layout is not part of the recorded script: a document in it is laid out already
   * (Rust does that on open), so a call here is a mistake the test must see. */
  layoutDocument(): Promise<null> {
    this.unexpected.push("layout_document");
    return Promise.reject(new Error("not in Rust's script: layout_document"));
  }
  cancelLayout() {}
  subscribe() {
    return () => {};
  }
}
