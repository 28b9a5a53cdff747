// The first minutes' texts and places, on Rust's documents (fixtures a Rust test writes): counts
// said with their word, one count of the problems for the status bar and the panel, a document
// never saved says so, a node or note added without a place lands on a free spot, and many
// notices are one line in the status bar and a list on demand.
import { act } from "react";
import { createRoot } from "react-dom/client";
import { afterEach, describe, expect, it } from "vitest";
import { App } from "../App";
import type { DocumentView, Notice } from "../bindings";
import { count, problemCounts, problemSummary } from "../lib/counts";
import { freeSpot, occupiedBoxes } from "../lib/freeSpot";
import { type Rect, resolvePositions } from "../lib/geometry";
import { StatusNotices } from "../panels/StatusNotices";
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

async function render(node: React.ReactNode) {
  const el = document.createElement("div");
  document.body.appendChild(el);
  root = createRoot(el);
  await act(async () => {
    root?.render(node);
  });
  await act(async () => {
    await new Promise((r) => setTimeout(r, 50));
  });
  return (sel: string) => document.querySelector(sel);
}

const overlaps = (a: Rect, b: Rect) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

describe("the first minutes' texts", () => {
  it("says every count with its word", () => {
    expect(count(1, "node")).toBe("1 node");
    expect(count(0, "node")).toBe("0 nodes");
    expect(count(2, "edge")).toBe("2 edges");
    expect(count(10000, "node")).toBe("10,000 nodes");
    expect(count(3, "match", "matches")).toBe("3 matches");
  });

  it("counts the problems once: the status bar and the panel's heading agree", async () => {
    const view: DocumentView = rust.ownTypes.view;
    const q = await render(<App backend={new RecordedBackend([view], [])} />);
    const c = problemCounts(view.diagnostics);
    expect(c.errors).toBeGreaterThan(0);
    expect(q('[data-testid="problem-count"]')?.textContent).toBe(String(c.errors));
    const summary = q('[data-testid="problems-summary"]');
    expect(summary?.getAttribute("data-errors")).toBe(String(c.errors));
    expect(summary?.textContent).toBe(`(${problemSummary(c)})`);
    expect(problemSummary(c)).toBe(count(c.errors, "error"));
  });

  it("a document never saved says so, not 'saved'", async () => {
    const view: DocumentView = rust.example.view;
    expect(view.path).toBeNull();
    expect(view.dirty).toBe(false);
    const q = await render(<App backend={new RecordedBackend([view], [])} />);
    expect(q('[data-testid="status-dirty"]')?.textContent).toBe("not saved yet");
    expect(q('[data-testid="status-size"]')?.textContent).toBe(
      `${count(view.spec.nodes.length, "node")} · ${count(view.spec.edges.length, "edge")}`,
    );
  });
});

describe("where a node or a note goes without a place", () => {
  it("two adds at the centre of Rust's example land apart and off every node", () => {
    const view: DocumentView = rust.example.view;
    const taken = [...occupiedBoxes(view)];
    expect(taken.length).toBe(Object.keys(resolvePositions(view.spec, view.layout.positions)).length);
    // The centre of the graph: on its nodes.
    const b = taken.reduce(
      (a, r) => ({ x: Math.min(a.x, r.x), y: Math.min(a.y, r.y), w: Math.max(a.w, r.x + r.w), h: Math.max(a.h, r.y + r.h) }),
      {
        x: Infinity,
        y: Infinity,
        w: -Infinity,
        h: -Infinity,
      },
    );
    const want = { x: Math.round((b.x + b.w) / 2 - 100), y: Math.round((b.y + b.h) / 2 - 30) };
    const size = { w: 200, h: 60 };
    const first = freeSpot(want, size, taken);
    const firstBox = { ...first, ...size };
    expect(taken.some((r) => overlaps(firstBox, r))).toBe(false);
    const second = freeSpot(want, size, [...taken, firstBox]);
    const secondBox = { ...second, ...size };
    expect(overlaps(firstBox, secondBox)).toBe(false);
    expect(taken.some((r) => overlaps(secondBox, r))).toBe(false);
    // Near where it was asked for (a ring or two away, not across the canvas).
    expect(Math.hypot(second.x - want.x, second.y - want.y)).toBeLessThan(600);
  });

  it("an empty place is used as it is", () => {
    expect(freeSpot({ x: 10, y: 20 }, { w: 200, h: 60 }, [])).toEqual({ x: 10, y: 20 });
  });
});

describe("many notices", () => {
  it("are one line and a count, and all of them in a list on demand", async () => {
    // Rust's losses of exporting the example to Weaveflow, as the notices an import leaves.
    const losses = rust.exportExampleToWeaveflow.losses as { code: string; message: string; severity: string }[];
    expect(losses.length).toBeGreaterThan(5);
    const notices: Notice[] = losses.map((l) => ({ level: l.severity, message: l.message, code: l.code }));
    const q = await render(<StatusNotices notices={notices} />);
    expect(document.querySelectorAll('[data-testid="notice"]')).toHaveLength(1);
    const toggle = q('[data-testid="notices-toggle"]') as HTMLButtonElement;
    expect(toggle.textContent).toBe(`+${losses.length - 1} more`);
    expect(q('[data-testid="notices-list"]')).toBeNull();
    await act(async () => toggle.click());
    const items = [...document.querySelectorAll('[data-testid="notice-item"]')].map((e) => e.textContent?.trim());
    expect(items.sort()).toEqual(losses.map((l) => l.message).sort());
    expect(q('[data-testid="notices-list"]')?.getAttribute("aria-label")).toBe(count(losses.length, "notice"));
  });
});
