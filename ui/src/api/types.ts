// The one interface between the UI and whatever owns the document: Rust through Tauri in the
// app; in the UI tests and the browser preview, a replay of answers Rust recorded. Every type
// is generated from Rust.
import type {
  ConflictChoice,
  Diagnostic,
  DocFormat,
  DocumentSummary,
  DocumentView,
  Edit,
  ExportAnswer,
  ImageAnswer,
  ImportAnswer,
  Point,
  SaveAnswer,
  ViewDelta,
  Viewport,
  FixEdit,
  RegistryEdit,
  RegistrySource,
  Element,
  TextDelta,
  TextEdit,
  TextRange,
  TextView,
} from "../bindings";

/** What File > Export image asks for (`export_image`'s arguments). */
export type ImageRequest = {
  format: "svg" | "png";
  theme: "light" | "dark";
  /** The selection (all absent: the whole graph). A collapsed group's box is its group. */
  nodes?: string[];
  notes?: string[];
  groups?: string[];
  scale?: number;
};

/** The formats File > Export writes. */
export type ExportFormat = DocFormat;

/** What `apply_fix` answers (Rust's `FixAnswer`, with the UI's view type). */
export type FixAnswer = { view: DocumentView; notice?: string; wrote?: string };
/** What `edit_registry` and `undo_registry_edit` answer (Rust's `RegistryEditAnswer`). */
export type RegistryEditAnswer = { view: DocumentView; wrote?: string };

export type BackendEvent =
  | { type: "changed"; view: DocumentView }
  | { type: "opened"; view: DocumentView }
  | { type: "closed"; id: string }
  | { type: "menu"; action: string }
  /** Problems outside any document (the recovery journal could not be written, ...). */
  | { type: "problems"; diagnostics: Diagnostic[] };

export interface Backend {
  /** `recorded`: a replay of Rust's answers (the UI tests and the browser preview). */
  readonly kind: "tauri" | "recorded";
  listDocuments(): Promise<DocumentSummary[]>;
  getDocument(docId: string): Promise<DocumentView>;
  /** Applies one edit and answers what changed in the view; rejects with the reason when Rust
   * refuses it. */
  applyEdit(docId: string, edit: Edit): Promise<ViewDelta>;
  undo(docId: string): Promise<ViewDelta>;
  redo(docId: string): Promise<ViewDelta>;
  save(docId: string): Promise<SaveAnswer>;
  saveAs(docId: string): Promise<SaveAnswer>;
  newDocument(example: boolean): Promise<DocumentView>;
  openDialog(): Promise<DocumentView | null>;
  /** Converts the document: `confirm` false only answers the text and the losses; true asks
   * where to save and writes the copy (`written` false when the dialog was cancelled). */
  exportDocument(docId: string, format: ExportFormat, confirm: boolean): Promise<ExportAnswer>;
  /** The Weaveflow `version` documents must declare (an app setting, "1.0" by default). */
  weaveflowVersion(): Promise<string>;
  /** Sets it (kept by Rust) and revalidates every open document; answers the new value. */
  setWeaveflowVersion(version: string): Promise<string>;
  /** Asks for a file, converts it to GraphSpec and opens it unsaved; null when cancelled. */
  importDialog(): Promise<ImportAnswer | null>;
  /** Asks to close (Rust asks about unsaved changes unless `force`); true when it closed. */
  close(docId: string, force?: boolean): Promise<boolean>;
  /** Tells Rust which document the user is looking at (window title, menu actions). */
  setActive(docId: string): Promise<void>;
  resolveConflict(docId: string, choice: ConflictChoice): Promise<DocumentView>;
  /** Records pan and zoom (not an undo step, not dirty); fire and forget. */
  setViewport(docId: string, viewport: Viewport): void;
  /** The automatic layout of the document's canvas, computed by the backend off the UI thread
   * (`onProgress` gets the fraction done); `null` when cancelled. The caller applies it. */
  layoutDocument(docId: string, onProgress: (fraction: number) => void): Promise<Record<string, Point> | null>;
  /** Cancels the running `layoutDocument`, if any. */
  cancelLayout(): void;
  /** Applies a diagnostic's fix: a document edit, or a registry file written beside the
   * document (then `wrote` names it and every open document is revalidated). */
  applyFix?(docId: string, fix: FixEdit): Promise<FixAnswer>;
  /** Opens the document subgraph node `nodeId` refers to (or focuses its tab); desktop only. */
  openSubgraph?(docId: string, nodeId: string): Promise<DocumentView>;
  /** The registries in force for a document, by source file (built-in first, read-only). */
  registrySources?(docId: string): Promise<RegistrySource[]>;
  /** Edits a registry file (`file`: its index; undefined: the project registry beside the
   * document); every open document is revalidated. Rejects with the reason when refused. */
  editRegistry?(docId: string, file: number | undefined, edit: RegistryEdit): Promise<RegistryEditAnswer>;
  /** File > Export image: asks where to save, then writes an SVG or PNG of the document (the
   * selection's nodes when `nodes` is given); `written` false when the dialog was cancelled.
   * The desktop app only (the drawing is Rust's). */
  exportImage?(docId: string, request: ImageRequest): Promise<ImageAnswer>;
  /** Undoes the registry editor's last edit. */
  undoRegistryEdit?(docId: string): Promise<RegistryEditAnswer>;
  /** The text pane (desktop only; `textPane/`): opens it on a document (the whole text). */
  textOpen?(docId: string): Promise<TextView>;
  /** Closes it (the text the user typed is kept by Rust). */
  textClose?(docId: string): Promise<void>;
  /** The pane's typing after a pause: answered like an edit. */
  textType?(docId: string, edit: TextEdit): Promise<ViewDelta>;
  /** The text's updates since `version` (the pane may have missed some). */
  textSince?(docId: string, version: number): Promise<TextDelta>;
  /** The node or edge whose text holds `offset` of `version` of the text. */
  textElementAt?(docId: string, version: number, offset: number): Promise<Element | null>;
  /** Where an element's text is in `version` of the text. */
  textRangeOf?(docId: string, version: number, element: Element): Promise<TextRange | null>;
  /** Subscribes to pushed events; returns the unsubscribe function. */
  subscribe(handler: (e: BackendEvent) => void): () => void;
}

/** A readable message from whatever a command rejected with (string, Error, Diagnostic...). */
export function errorMessage(e: unknown): string {
  if (typeof e === "string") return e;
  if (e && typeof e === "object") {
    const o = e as Record<string, unknown>;
    if (typeof o.message === "string") return o.message;
    if (Array.isArray(o.diagnostics) && o.diagnostics.length) return o.diagnostics.map(errorMessage).join("\n");
    if (Array.isArray(e) && e.length) return e.map(errorMessage).join("\n");
    try {
      return JSON.stringify(e);
    } catch {
      /* fall through */
    }
  }
  return String(e);
}
