// The whole UI rendered in happy-dom on Rust's documents and Rust's answers (replayed from
// fixtures a Rust test writes, see recorded.ts): panels, problems, inspector, and edits going
// through the backend. (The real app is driven end to end by src-tauri/tests/e2e.)
import { act } from "react";
import { createRoot } from "react-dom/client";
import { afterEach, describe, expect, it } from "vitest";
import { App } from "../App";
import { paste } from "../actions";
import type { DocumentView } from "../bindings";
import { ui } from "../store";
import { RecordedBackend, rust } from "./recorded";

(globalThis as unknown as { IS_REACT_ACT_ENVIRONMENT: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: ReturnType<typeof createRoot> | null = null;
afterEach(() => {
  act(() => root?.unmount());
  root = null;
  document.body.innerHTML = "";
  ui.set({ docs: {}, order: [], activeId: null, selection: { nodes: [], edges: [] }, extraDiagnostics: {}, toasts: [] });
});

async function mount(docs: DocumentView[], script: keyof typeof rust.scripts | null = null) {
  const backend = new RecordedBackend(docs, script ? rust.scripts[script] : []);
  const el = document.createElement("div");
  el.style.width = "1200px";
  el.style.height = "800px";
  document.body.appendChild(el);
  root = createRoot(el);
  await act(async () => {
    root?.render(<App backend={backend} />);
  });
  await act(async () => {
    await new Promise((r) => setTimeout(r, 50));
  });
  return { backend, q: (sel: string) => document.querySelector(sel), qa: (sel: string) => [...document.querySelectorAll(sel)] };
}

const support = rust.support.view;
const problemCodes = () => [...document.querySelectorAll('[data-testid="problem"]')].map((p) => p.getAttribute("data-code"));

describe("the app on Rust's documents and answers", () => {
  it("shows the document's problems, the registry grouped by category, and the graph inspector", async () => {
    const { q, qa } = await mount([support]);
    expect(support.diagnostics.map((d) => d.code)).toContain("spec/undeclared-channel");
    expect(problemCodes()).toEqual(support.diagnostics.map((d) => d.code));
    expect(q('[data-testid="problem-count"]')?.textContent).toBe(String(support.diagnostics.length));
    expect(qa('[data-testid="registry-item"]').length).toBe(support.registry.length);
    expect(q('[data-testid="inspector"]')?.getAttribute("data-kind")).toBe("graph");
    expect(qa('[data-testid="channel-row"]').map((r) => r.getAttribute("data-channel"))).toEqual(["messages", "cart"]);
    expect(q('[data-testid="declare-intent"]')).not.toBeNull();
  });

  it("declaring the missing channel from the inspector clears the problem; undo brings it back", async () => {
    const { q, qa, backend } = await mount([support], "declare-intent-then-undo");
    await act(async () => {
      (q('[data-testid="declare-intent"]') as HTMLButtonElement).click();
    });
    expect(problemCodes()).not.toContain("spec/undeclared-channel");
    expect(qa('[data-testid="channel-row"]').map((r) => r.getAttribute("data-channel"))).toEqual(["messages", "cart", "intent"]);
    await act(async () => {
      (q('[data-testid="btn-undo"]') as HTMLButtonElement).click();
    });
    expect(problemCodes()).toEqual(support.diagnostics.map((d) => d.code));
    expect(backend.unexpected).toEqual([]);
    expect(backend.remaining).toBe(0);
  });

  it("clicking a problem selects its edge and opens the condition builder", async () => {
    const { q } = await mount([support]);
    await act(async () => {
      (q('[data-testid="problem"][data-code="spec/undeclared-channel"]') as HTMLElement).click();
    });
    expect(q('[data-testid="inspector"]')?.getAttribute("data-kind")).toBe("edge");
    expect((q('[data-testid="condition-preview"]') as HTMLElement).textContent).toBe('intent == "buy"');
  });

  it("the registry's add button creates a node with a fresh id and the type's defaults, selected", async () => {
    const { q, backend } = await mount([support], "add-llm");
    await act(async () => {
      (q('[data-testid="registry-add-llm"]') as HTMLElement).click();
    });
    expect(backend.unexpected).toEqual([]);
    const v = ui.get().docs[support.id];
    expect(v.spec.nodes.map((n) => n.id)).toEqual(["agent", "checkout", "llm"]);
    expect(v.spec.nodes[2].config).toMatchObject({ model: "claude-opus-4-8", temperature: 0.7 });
    expect(q('[data-testid="inspector"]')?.getAttribute("data-kind")).toBe("node");
    expect((q('[data-testid="node-id-input"]') as HTMLInputElement).value).toBe("llm");
  });

  it("a pasted node whose id is taken is selected under the id Rust gave it, and Rust's note is shown", async () => {
    const { backend } = await mount([support], "paste-agent");
    const step = rust.scripts["paste-agent"][0];
    const fragment = (step.change as { fragment: unknown }).fragment;
    await act(async () => {
      await paste(JSON.stringify(fragment), { x: 0, y: 0 });
    });
    expect(backend.unexpected).toEqual([]);
    const created = step.answer?.created ?? [];
    expect(created).toHaveLength(1);
    expect(created[0]).not.toBe("agent");
    expect(ui.get().docs[support.id].spec.nodes.map((n) => n.id)).toContain(created[0]);
    expect(ui.get().selection.nodes).toEqual(created);
    const notes = step.answer?.notes.map((n) => n.message) ?? [];
    expect(notes.some((m) => m.includes(created[0]))).toBe(true);
    expect(ui.get().toasts.map((t) => t.text)).toEqual(expect.arrayContaining(notes));
  });
});
