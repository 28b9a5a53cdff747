// The Export confirmation: the losses listed one per element, nothing written until the user
// accepts, and Cancel writing nothing.
import { act } from "react";
import { createRoot } from "react-dom/client";
import { afterEach, describe, expect, it } from "vitest";
import type { Diagnostic, ExportAnswer, ImportAnswer } from "../bindings";
import { exportAs, importDocument } from "../actions";
import type { ExportFormat } from "../api/types";
import { ExportConfirm, lossPlace } from "../panels/ExportConfirm";
import { ui } from "../store";
import { RecordedBackend, rust } from "./recorded";

(globalThis as unknown as { IS_REACT_ACT_ENVIRONMENT: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: ReturnType<typeof createRoot> | null = null;
afterEach(() => {
  act(() => root?.unmount());
  root = null;
  document.body.innerHTML = "";
  ui.set({ exportConfirm: null, backend: null, docs: {}, order: [], activeId: null, toasts: [] });
});

// What Rust answers when the example is exported as Weaveflow (fixtures/documents.json).
const weaveflow = rust.exportExampleToWeaveflow;
const losses: Diagnostic[] = weaveflow.losses;

/** Rust's documents, with the export answers Rust gave (recorded per target format). */
class Recording extends RecordedBackend {
  calls: { format: ExportFormat; confirm: boolean }[] = [];
  async exportDocument(_docId: string, format: ExportFormat, confirm: boolean): Promise<ExportAnswer> {
    this.calls.push({ format, confirm });
    const answer = format === "weaveflow" ? weaveflow : rust.exportExampleToGraphspec;
    if (format === "graphmd" && !confirm) return { ...rust.exportExampleToGraphmd, written: false, path: null };
    return { ...answer, written: confirm, path: confirm ? "/tmp/out.json" : null };
  }
}

async function setup() {
  const backend = new Recording([rust.example.view]);
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
    expect(losses.length).toBeGreaterThan(0);
    expect(rows).toEqual(losses.map((d) => `${lossPlace(d)}: ${d.message}`));
    await act(async () => q("export-go")?.click());
    expect(backend.calls).toEqual([
      { format: "weaveflow", confirm: false },
      { format: "weaveflow", confirm: true },
    ]);
    expect(q("export-confirm")).toBeNull();
    expect(
      ui
        .get()
        .toasts.map((t) => t.text)
        .join(),
    ).toContain("/tmp/out.json");
  });

  it("Cancel closes the dialog and writes nothing", async () => {
    const { backend, q } = await setup();
    await act(async () => exportAs("graphmd"));
    await act(async () => q("export-cancel")?.click());
    expect(q("export-confirm")).toBeNull();
    expect(backend.calls).toEqual([{ format: "graphmd", confirm: false }]);
  });

  it("says so when nothing is lost", async () => {
    const backend = new Recording([rust.example.view]);
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
    class Importing extends RecordedBackend {
      async importDialog(): Promise<ImportAnswer | null> {
        return { view: rust.support.view, losses };
      }
    }
    const backend = new Importing([rust.support.view]);
    ui.set({ backend, problemsOpen: false });
    await act(async () => importDocument());
    const id = ui.get().activeId;
    expect(id).not.toBeNull();
    expect(ui.get().extraDiagnostics[id ?? ""]).toEqual(losses);
    expect(ui.get().problemsOpen).toBe(true);
    expect(
      ui
        .get()
        .toasts.map((t) => t.text)
        .join(),
    ).toContain(`${losses.length} loss`);
  });

  it("names the place of a loss", () => {
    expect(lossPlace({ code: "x", severity: "warning", message: "m", pointer: "/nodes/0", element: { kind: "node", id: "count" } })).toBe(
      "node count",
    );
    expect(
      lossPlace({
        code: "x",
        severity: "warning",
        message: "m",
        pointer: "/edges/1",
        element: { kind: "edge", index: 1, from: "a", to: "b" },
      }),
    ).toBe("edge a → b");
    expect(lossPlace({ code: "x", severity: "warning", message: "m", pointer: "" })).toBe("document");
  });
});
