// The app's backend: Tauri commands and events (names in ui/API.md).
import { invoke } from "@tauri-apps/api/core";
import { listen } from "@tauri-apps/api/event";
import type { ConflictChoice, Diagnostic, DocumentSummary, DocumentView, Edit, ExportAnswer, SaveOutcome, Viewport } from "../bindings";
import { isView, normalizeView } from "./normalize";
import type { Backend, BackendEvent, ExportFormat, ImportOutcome } from "./types";

type Raw = Record<string, unknown>;

export class TauriBackend implements Backend {
  readonly kind = "tauri" as const;

  /** An edit answer may be the whole view, `{view}`, or only what changed (then fetch). */
  private async viewFrom(docId: string, res: unknown): Promise<DocumentView> {
    if (isView(res)) return normalizeView(res);
    if (res && typeof res === "object" && isView((res as Raw).view)) return normalizeView((res as Raw).view);
    return this.getDocument(docId);
  }

  async listDocuments(): Promise<DocumentSummary[]> {
    const res = await invoke<unknown[]>("list_documents");
    return (Array.isArray(res) ? res : []).map((d) => {
      const o = (d ?? {}) as Raw;
      return { id: String(o.id), fileName: String(o.fileName ?? o.file_name ?? "untitled"), dirty: Boolean(o.dirty) };
    });
  }
  async getDocument(docId: string) {
    return normalizeView(await invoke("get_document", { docId }));
  }
  async applyEdit(docId: string, edit: Edit) {
    return this.viewFrom(docId, await invoke("apply_edit", { docId, edit }));
  }
  async undo(docId: string) {
    return this.viewFrom(docId, await invoke("undo", { docId }));
  }
  async redo(docId: string) {
    return this.viewFrom(docId, await invoke("redo", { docId }));
  }
  private async saveOutcome(docId: string, res: unknown): Promise<SaveOutcome> {
    const o = (res ?? {}) as Raw;
    const view = isView(o.view) ? normalizeView(o.view) : await this.getDocument(docId);
    const diagnostics = Array.isArray(o.diagnostics) ? (o.diagnostics as SaveOutcome["diagnostics"]) : [];
    return { saved: Boolean(o.saved), view, diagnostics, conflict: Boolean(o.conflict) };
  }
  async save(docId: string) {
    return this.saveOutcome(docId, await invoke("save_document", { docId }));
  }
  async saveAs(docId: string) {
    return this.saveOutcome(docId, await invoke("save_document_as", { docId }));
  }
  async newDocument(example: boolean) {
    return normalizeView(await invoke("new_document", { example }));
  }
  async openDialog() {
    const res = await invoke("open_document_dialog");
    return res ? normalizeView(res) : null;
  }
  async exportDocument(docId: string, format: ExportFormat, confirm: boolean) {
    return invoke<ExportAnswer>("export_document", { docId, format, confirm });
  }
  async weaveflowVersion() {
    return invoke<string>("weaveflow_version");
  }
  async setWeaveflowVersion(version: string) {
    return invoke<string>("set_weaveflow_version", { version });
  }
  async importDialog(): Promise<ImportOutcome | null> {
    const res = await invoke<{ view: unknown; losses?: Diagnostic[] } | null>("import_document");
    return res ? { view: normalizeView(res.view), losses: Array.isArray(res.losses) ? res.losses : [] } : null;
  }
  async close(docId: string, force = false) {
    const res = await invoke("close_document", { docId, force });
    return res === undefined || res === null ? true : Boolean(res);
  }
  async setActive(docId: string) {
    await invoke("set_active_document", { docId });
  }
  async resolveConflict(docId: string, choice: ConflictChoice) {
    return this.viewFrom(docId, await invoke("resolve_conflict", { docId, choice }));
  }
  setViewport(docId: string, viewport: Viewport) {
    invoke("apply_edit", { docId, edit: { op: "set_viewport", viewport } }).catch(() => {});
  }
  subscribe(handler: (e: BackendEvent) => void) {
    const offs: Promise<() => void>[] = [
      listen("document-changed", (e) => handler({ type: "changed", view: normalizeView(e.payload) })),
      listen("document-opened", (e) => handler({ type: "opened", view: normalizeView(e.payload) })),
      listen<{ id: string }>("document-closed", (e) => handler({ type: "closed", id: String(e.payload?.id) })),
      listen<{ problems?: unknown[] }>("journal", (e) => handler({ type: "problems", diagnostics: (Array.isArray(e.payload?.problems) ? e.payload.problems : []) as never })),
      listen<unknown>("menu", (e) => handler({ type: "menu", action: typeof e.payload === "string" ? e.payload : String((e.payload as Raw)?.action ?? "") })),
    ];
    return () => {
      for (const p of offs) void p.then((off) => off());
    };
  }
}
