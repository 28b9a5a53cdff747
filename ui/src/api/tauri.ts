// The app's backend: Tauri commands and events (names in ui/API.md). Every answer is typed by
// the ts-rs bindings of the Rust type the command returns; nothing is reshaped here.
import { invoke } from "@tauri-apps/api/core";
import { listen } from "@tauri-apps/api/event";
import type {
  ConflictChoice,
  DocumentClosed,
  DocumentSummary,
  DocumentView,
  Edit,
  ExportAnswer,
  ImageAnswer,
  ImportAnswer,
  JournalState,
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
import type { DocumentRef } from "../bindings/DocumentRef";
import type { LayoutProgress } from "../bindings/LayoutProgress";
import {
  type Backend,
  type BackendEvent,
  type ExportFormat,
  type FixAnswer,
  type ImageRequest,
  type RegistryEditAnswer,
  errorMessage,
} from "./types";

export class TauriBackend implements Backend {
  readonly kind = "tauri" as const;

  listDocuments() {
    return invoke<DocumentSummary[]>("list_documents");
  }
  getDocument(docId: string) {
    return invoke<DocumentView>("get_document", { docId });
  }
  applyEdit(docId: string, edit: Edit) {
    return invoke<ViewDelta>("apply_edit", { docId, edit });
  }
  undo(docId: string) {
    return invoke<ViewDelta>("undo", { docId });
  }
  redo(docId: string) {
    return invoke<ViewDelta>("redo", { docId });
  }
  save(docId: string) {
    return invoke<SaveAnswer>("save_document", { docId });
  }
  saveAs(docId: string) {
    return invoke<SaveAnswer>("save_document_as", { docId });
  }
  newDocument(example: boolean) {
    return invoke<DocumentView>("new_document", { example });
  }
  openDialog() {
    return invoke<DocumentView | null>("open_document_dialog");
  }
  exportDocument(docId: string, format: ExportFormat, confirm: boolean) {
    return invoke<ExportAnswer>("export_document", { docId, format, confirm });
  }
  weaveflowVersion() {
    return invoke<string>("weaveflow_version");
  }
  setWeaveflowVersion(version: string) {
    return invoke<string>("set_weaveflow_version", { version });
  }
  exportImage(docId: string, request: ImageRequest) {
    return invoke<ImageAnswer>("export_image", { docId, ...request });
  }
  importDialog() {
    return invoke<ImportAnswer | null>("import_document");
  }
  close(docId: string, force = false) {
    return invoke<boolean>("close_document", { docId, force });
  }
  async setActive(docId: string) {
    await invoke<null>("set_active_document", { docId });
  }
  resolveConflict(docId: string, choice: ConflictChoice) {
    return invoke<DocumentView>("resolve_conflict", { docId, choice });
  }
  setViewport(docId: string, viewport: Viewport) {
    const edit: Edit = { op: "set_viewport", viewport };
    invoke<ViewDelta>("apply_edit", { docId, edit }).catch(() => {});
  }
  async layoutDocument(docId: string, onProgress: (fraction: number) => void): Promise<Record<string, Point> | null> {
    const unlisten = await listen<LayoutProgress>("layout-progress", (e) => {
      if (e.payload?.docId === docId) onProgress(Number(e.payload.fraction) || 0);
    });
    try {
      return await invoke<Record<string, Point> | null>("layout_document", { docId });
    } finally {
      unlisten();
    }
  }
  cancelLayout() {
    invoke("cancel_layout").catch(() => {});
  }

  async applyFix(docId: string, fix: FixEdit): Promise<FixAnswer> {
    return invoke<FixAnswer>("apply_fix", { docId, fix });
  }
  async registrySources(docId: string) {
    return invoke<RegistrySource[]>("registry_sources", { docId });
  }
  async editRegistry(docId: string, file: number | undefined, edit: RegistryEdit) {
    return invoke<RegistryEditAnswer>("edit_registry", { docId, file: file ?? null, edit });
  }
  async undoRegistryEdit(docId: string) {
    return invoke<RegistryEditAnswer>("undo_registry_edit", { docId });
  }
  async textOpen(docId: string): Promise<TextView> {
    // One line of JSON, then the text as it is (no JSON string to escape and parse again).
    const bytes = new Uint8Array(await invoke<ArrayBuffer>("text_open", { docId }));
    const nl = bytes.indexOf(10);
    const decoder = new TextDecoder();
    const head = JSON.parse(decoder.decode(bytes.subarray(0, nl))) as Omit<TextView, "text">;
    return { ...head, text: decoder.decode(bytes.subarray(nl + 1)) };
  }
  async textClose(docId: string) {
    await invoke<null>("text_close", { docId });
  }
  textType(docId: string, edit: TextEdit) {
    return invoke<ViewDelta>("text_type", { docId, edit });
  }
  textSince(docId: string, version: number) {
    return invoke<TextDelta>("text_since", { docId, version });
  }
  textElementAt(docId: string, version: number, offset: number) {
    return invoke<Element | null>("text_element_at", { docId, version, offset });
  }
  textRangeOf(docId: string, version: number, element: Element) {
    return invoke<TextRange | null>("text_range_of", { docId, version, element });
  }
  openSubgraph(docId: string, nodeId: string) {
    return invoke<DocumentView>("open_subgraph", { docId, nodeId });
  }
  subscribe(handler: (e: BackendEvent) => void) {
    const offs: Promise<() => void>[] = [
      // The event names the document; its view is the answer of `document_view`.
      listen<DocumentRef>("document-changed", (e) => viewEvent(e.payload.id, (view) => handler({ type: "changed", view }), handler)),
      listen<DocumentRef>("document-opened", (e) => viewEvent(e.payload.id, (view) => handler({ type: "opened", view }), handler)),
      listen<DocumentClosed>("document-closed", (e) => handler({ type: "closed", id: e.payload.id })),
      listen<JournalState>("journal", (e) => handler({ type: "problems", diagnostics: e.payload.problems })),
      listen<string>("menu", (e) => handler({ type: "menu", action: e.payload })),
    ];
    return () => {
      for (const p of offs) void p.then((off) => off());
    };
  }
}

/** Asks for the view of the document an event names and gives it to `take`; one that does not
 * come (the document closed meanwhile) is told as a problem. */
function viewEvent(docId: string, take: (view: DocumentView) => void, handler: (e: BackendEvent) => void) {
  invoke<DocumentView>("document_view", { docId }).then(take, (err: unknown) =>
    handler({ type: "problems", diagnostics: [{ code: "ui/view-lost", severity: "error", message: errorMessage(err), pointer: "" }] }),
  );
}
