// The Export confirmation: the losses listed one per element, nothing written until the user
// accepts, and Cancel writing nothing.
import { act } from "react";
import { createRoot } from "react-dom/client";
import { afterEach, describe, expect, it } from "vitest";
import type { Diagnostic, ExportAnswer } from "../bindings";
import { exportAs, importDocument } from "../actions";
import type { ExportFormat, ImportOutcome } from "../api/types";
import { FakeBackend } from "../api/fake";
import { ExportConfirm, lossPlace } from "../panels/ExportConfirm";
import { ui } from "../store";

(globalThis as unknown as { IS_REACT_ACT_ENVIRONMENT: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: ReturnType<typeof createRoot> | null = null;
afterEach(() => {
  act(() => root?.unmount());
  root = null;
  document.body.innerHTML = "";
  ui.set({ exportConfirm: null, backend: null, docs: {}, order: [], activeId: null, toasts: [] });
});

const losses: Diagnostic[] = [
  { code: "convert/state-operation", severity: "warning", message: "the state operations are dropped", pointer: "/nodes/0", element: { kind: "node", id: "count" } },
  { code: "convert/edge-condition", severity: "warning", message: "the condition cannot be expressed", pointer: "/edges/1", element: { kind: "edge", index: 1, from: "a", to: "b" } },
  { code: "convert/metadata", severity: "warning", message: "metadata is dropped", pointer: "/metadata" },
];

/** A backend that records the export calls and answers with `losses`. */
class Recording extends FakeBackend {
  calls: { format: ExportFormat; confirm: boolean }[] = [];
  async exportDocument(_docId: string, format: ExportFormat, confirm: boolean): Promise<ExportAnswer> {
    this.calls.push({ format, confirm });
    return { format, text: "{}\n", losses, written: confirm, path: confirm ? "/tmp/out.json" : null };
  }
}

async function setup() {
  const backend = new Recording(["example"]);
  ui.set({ backend });
  const [first] = await backend.listDocuments();
  ui.putDoc(await backend.getDocument(first.id), true);
  const el = document.createElement("div");
  document.body.appendChild(el);
  root = createRoot(el);
  await act(async () => root?.render(<ExportConfirm />));
  const q = (id: string) => document.querySelector(`[data-testid="${id}"]`) as HTMLElement | null;
  return { backend, q };
}

describe("ExportConfirm", () => {
  it("lists every loss by element and writes only after Export", async () => {
    const { backend, q } = await setup();
    expect(q("export-confirm")).toBeNull();
    await act(async () => exportAs("weaveflow"));
    expect(backend.calls).toEqual([{ format: "weaveflow", confirm: false }]);
    expect(q("export-confirm")?.textContent).toContain("as Weaveflow");
    const rows = [...document.querySelectorAll('[data-testid="export-loss"]')].map((r) => r.textContent);
    expect(rows).toEqual([
      "node count: the state operations are dropped",
      "edge a → b: the condition cannot be expressed",
      "/metadata: metadata is dropped",
    ]);
    await act(async () => q("export-go")?.click());
    expect(backend.calls).toEqual([{ format: "weaveflow", confirm: false }, { format: "weaveflow", confirm: true }]);
    expect(q("export-confirm")).toBeNull();
    expect(ui.get().toasts.map((t) => t.text).join()).toContain("/tmp/out.json");
  });

  it("Cancel closes the dialog and writes nothing", async () => {
    const { backend, q } = await setup();
    await act(async () => exportAs("graphmd"));
    await act(async () => q("export-cancel")?.click());
    expect(q("export-confirm")).toBeNull();
    expect(backend.calls).toEqual([{ format: "graphmd", confirm: false }]);
  });

  it("says so when nothing is lost", async () => {
    const backend = new FakeBackend(["example"]);
    ui.set({ backend });
    const [first] = await backend.listDocuments();
    ui.putDoc(await backend.getDocument(first.id), true);
    const el = document.createElement("div");
    document.body.appendChild(el);
    root = createRoot(el);
    await act(async () => root?.render(<ExportConfirm />));
    await act(async () => exportAs("graphspec"));
    expect(document.querySelector('[data-testid="export-lossless"]')).not.toBeNull();
    expect(document.querySelectorAll('[data-testid="export-loss"]').length).toBe(0);
  });

  it("Import opens the new document with its losses in the problems panel", async () => {
    class Importing extends FakeBackend {
      async importDialog(): Promise<ImportOutcome | null> {
        const view = this.openSeed("support");
        return { view, losses };
      }
    }
    const backend = new Importing([]);
    ui.set({ backend, problemsOpen: false });
    await act(async () => importDocument());
    const id = ui.get().activeId;
    expect(id).not.toBeNull();
    expect(ui.get().extraDiagnostics[id ?? ""]).toEqual(losses);
    expect(ui.get().problemsOpen).toBe(true);
    expect(ui.get().toasts.map((t) => t.text).join()).toContain("3 losses");
  });

  it("names the place of a loss", () => {
    expect(lossPlace(losses[0])).toBe("node count");
    expect(lossPlace({ code: "x", severity: "warning", message: "m", pointer: "" })).toBe("document");
  });
});
