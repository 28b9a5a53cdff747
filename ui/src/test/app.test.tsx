// The whole UI rendered in happy-dom with the fake backend: panels, problems, inspector, and
// edits going through the backend. (Drawing, dragging and the clipboard are covered in a real
// browser by scripts/browser-test.mjs.)
import { act } from "react";
import { createRoot } from "react-dom/client";
import { afterEach, describe, expect, it } from "vitest";
import { App } from "../App";
import { FakeBackend } from "../api/fake";
import { ui } from "../store";

(globalThis as unknown as { IS_REACT_ACT_ENVIRONMENT: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: ReturnType<typeof createRoot> | null = null;
afterEach(() => {
  act(() => root?.unmount());
  root = null;
  document.body.innerHTML = "";
  ui.set({ docs: {}, order: [], activeId: null, selection: { nodes: [], edges: [] }, extraDiagnostics: {}, toasts: [] });
});

async function mount(docs: string[]) {
  const backend = new FakeBackend(docs);
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

describe("the app with the fake backend", () => {
  it("shows the document's problems, the registry grouped by category, and the graph inspector", async () => {
    const { q, qa } = await mount(["support"]);
    const problems = qa('[data-testid="problem"]');
    expect(problems.map((p) => p.getAttribute("data-code"))).toEqual(["spec/undeclared-channel"]);
    expect(q('[data-testid="problem-count"]')?.textContent).toBe("1");
    expect(qa('[data-testid="registry-item"]').length).toBe(15);
    expect(q('[data-testid="inspector"]')?.getAttribute("data-kind")).toBe("graph");
    expect(qa('[data-testid="channel-row"]').map((r) => r.getAttribute("data-channel"))).toEqual(["messages", "cart"]);
    expect(q('[data-testid="declare-intent"]')).not.toBeNull();
  });

  it("declaring the missing channel from the inspector clears the problem; undo brings it back", async () => {
    const { q, qa } = await mount(["support"]);
    await act(async () => {
      (q('[data-testid="declare-intent"]') as HTMLButtonElement).click();
    });
    expect(qa('[data-testid="problem"]')).toHaveLength(0);
    expect(qa('[data-testid="channel-row"]').map((r) => r.getAttribute("data-channel"))).toEqual(["messages", "cart", "intent"]);
    await act(async () => {
      (q('[data-testid="btn-undo"]') as HTMLButtonElement).click();
    });
    expect(qa('[data-testid="problem"]')).toHaveLength(1);
  });

  it("clicking a problem selects its edge and opens the condition builder", async () => {
    const { q } = await mount(["support"]);
    await act(async () => {
      (q('[data-testid="problem"]') as HTMLElement).click();
    });
    expect(q('[data-testid="inspector"]')?.getAttribute("data-kind")).toBe("edge");
    expect((q('[data-testid="condition-preview"]') as HTMLElement).textContent).toBe('intent == "buy"');
  });

  it("the registry's add button creates a node with a fresh id and the type's defaults, selected", async () => {
    const { q, backend } = await mount(["support"]);
    await act(async () => {
      (q('[data-testid="registry-add-llm"]') as HTMLButtonElement).click();
    });
    const v = await backend.getDocument("doc-1");
    expect(v.spec.nodes.map((n) => n.id)).toEqual(["agent", "checkout", "llm"]);
    expect(v.spec.nodes[2].config).toMatchObject({ model: "claude-opus-4-8", temperature: 0.7 });
    expect(q('[data-testid="inspector"]')?.getAttribute("data-kind")).toBe("node");
    expect((q('[data-testid="node-id-input"]') as HTMLInputElement).value).toBe("llm");
  });
});
