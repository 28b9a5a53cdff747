// The overview draws what a reader needs at every zoom: node names from ~8 px up, then types
// and config summaries; condition labels; edges (lines and labels) can be clicked. Framing
// keeps the framed nodes clear of the minimap; a document opens readable.
import { describe, expect, it } from "vitest";
import type { DocumentView } from "../bindings";
import { MINIMAP, frameRect, openingView } from "../canvas/framing";
import { OverviewRenderer } from "../canvas/overview";
import { edgeFont, nodeText } from "../canvas/overviewText";
import { buildScene } from "../canvas/scene";
import type { Theme } from "../canvas/scenePaint";
import { nodeFields, sceneInput } from "../canvas/sceneInput";
import { configSummary } from "../canvas/overviewText";
import { problemsOf } from "../canvas/buildFlow";
import deltas from "./fixtures/edit-deltas.json?raw";
import { shortLabel } from "../lib/shortLabel";

const theme = (): Theme => ({
  edge: "#888",
  guarded: "#a60",
  selected: "#36f",
  error: "#d00",
  warning: "#d80",
  terminal: "#333",
  text: "#000",
  nodeBg: "#fff",
});

function recordingCanvas() {
  const texts: string[] = [];
  let transform = { a: 1 };
  const ctx = {
    setTransform: (a: number) => (transform = { a }),
    getTransform: () => transform,
    clearRect() {},
    beginPath() {},
    moveTo() {},
    lineTo() {},
    rect() {},
    arc() {},
    fill() {},
    stroke() {},
    fillRect() {},
    setLineDash() {},
    fillText: (t: string) => texts.push(t),
    drawImage() {},
  } as unknown as CanvasRenderingContext2D;
  const c = { width: 0, height: 0, clientWidth: 1000, clientHeight: 700, getContext: () => ctx } as unknown as HTMLCanvasElement;
  return { c, texts };
}

function renderer() {
  const screen = recordingCanvas();
  const bitmap = recordingCanvas();
  const r = new OverviewRenderer(
    screen.c,
    theme,
    () => {},
    (fn) => fn(),
    () => bitmap.c,
  );
  r.setScene(
    buildScene({
      order: ["fetch", "judge", "__start__"],
      positions: { fetch: { x: 0, y: 0 }, judge: { x: 400, y: 200 }, __start__: { x: -100, y: 8 } },
      color: () => "#4a4",
      problem: () => 0,
      edges: [
        { from: "fetch", to: "judge", guarded: true, label: 'intent == "buy"', index: 0 },
        { from: "__start__", to: "fetch", guarded: false, label: "", dashed: false, index: -1 },
      ],
      type: (id) => (id === "fetch" ? "HTTP request" : "Judge"),
      config: () => ({ url: "https://x" }),
    }),
  );
  return { r, texts: [...screen.texts], bitmap };
}

describe("overview text", () => {
  it("draws names from about 8 px up, then the type, then the config summary", () => {
    expect(nodeText(0.2)).toBeNull();
    for (const z of [0.25, 0.3, 0.45, 0.9]) {
      const t = nodeText(z);
      expect(t).not.toBeNull();
      expect((t?.name ?? 0) * z).toBeGreaterThanOrEqual(8);
    }
    expect(nodeText(0.3)?.type).toBe(0);
    expect(nodeText(0.5)?.type).toBeGreaterThan(0);
    expect(nodeText(0.5)?.summary).toBe(0);
    expect(nodeText(0.9)?.summary).toBeGreaterThan(0);
    expect(edgeFont(0.1)).toBe(0);
    expect(edgeFont(0.4) * 0.4).toBeGreaterThanOrEqual(7);
  });

  it("paints names, types and condition labels into the drawing and reports the names", () => {
    const { r, bitmap } = renderer();
    r.draw(200, 100, 0.5);
    expect([...r.drawnNames].sort()).toEqual(["fetch", "judge"]);
    expect(bitmap.texts).toContain("fetch");
    expect(bitmap.texts).toContain("HTTP request");
    expect(bitmap.texts).toContain('intent == "buy"');
    // The config summary only closer in, worked out from the config when drawn.
    expect(bitmap.texts).not.toContain("url: https://x");
    const near = renderer();
    near.r.draw(200, 100, 1);
    expect(near.bitmap.texts).toContain("url: https://x");
    const far = renderer();
    far.r.draw(200, 100, 0.1);
    expect(far.r.drawnNames.size).toBe(0);
  });

  it("hit-tests edge lines and labels, never a drawn-only edge", () => {
    const { r } = renderer();
    // fetch's right middle (200, 30) to judge's left middle (400, 230): the middle is (300, 130).
    expect(r.hitEdge({ x: 300, y: 130 }, 0.5)).toBe(0);
    expect(r.hitEdge({ x: 250, y: 80 }, 0.5)).toBe(0);
    expect(r.hitEdge({ x: 300, y: 20 }, 0.5)).toBeNull();
    // The start mark's edge is drawn but is no document edge.
    expect(r.hitEdge({ x: -28, y: 30 }, 0.5)).toBeNull();
  });
});

describe("edge labels in every format", () => {
  // The documents Rust's delta test opens (crates/doc tests/delta.rs), as Rust sends them: the
  // canvas draws Rust's labels and reader-only edges as they are, in every format.
  const fixture = JSON.parse(deltas) as Record<string, { initial: DocumentView }>;
  it.each(["graphspec", "weaveflow", "graphmd"])("%s: the scene's edges are Rust's", (format) => {
    const view = fixture[format].initial;
    const edges = sceneInput(
      view,
      nodeFields(view, view.layout.positions, () => "#888", problemsOf(view.diagnostics), new Map()),
    ).edges;
    const own = edges.filter((e) => (e.index ?? -1) >= 0);
    expect(own.map((e) => e.label)).toEqual(view.edgeLabels.map((l) => l?.text ?? ""));
    expect(edges.filter((e) => (e.index ?? -1) < 0).map(({ from, to, label, dashed }) => ({ from, to, label, dashed }))).toEqual(
      view.extraEdges,
    );
  });
  it("shortens long labels for the canvas only", () => {
    expect(shortLabel("a".repeat(50), 10)).toBe(`${"a".repeat(9)}…`);
    expect(shortLabel("short")).toBe("short");
  });
  it("the formats' labels are there to draw", () => {
    expect(fixture.graphspec.initial.edgeLabels.some((l) => l?.operator)).toBe(true);
    expect(fixture.weaveflow.initial.extraEdges.map((e) => e.from)).toContain("__start__");
    expect(fixture.graphmd.initial.edgeLabels.map((l) => l?.text)).toContain("known_issue");
    expect(fixture.graphmd.initial.extraEdges).toContainEqual({ from: "route", to: "close", label: "fallback", dashed: true });
  });
  it("summarises a config by its first scalar fields", () => {
    expect(configSummary({ model: "gpt-5-mini", tools: ["a"], max_tokens: 512, t: 1 })).toBe("model: gpt-5-mini, max_tokens: 512");
  });
});

describe("framing", () => {
  const pane = { width: 1200, height: 800 };
  it("keeps the framed rectangle clear of the minimap", () => {
    for (const r of [
      { x: 0, y: 0, w: 4000, h: 400 },
      { x: 0, y: 0, w: 400, h: 4000 },
      { x: -50, y: 30, w: 900, h: 700 },
    ]) {
      const v = frameRect(r, pane, 0.01, 2);
      const right = v.x + (r.x + r.w) * v.zoom;
      const bottom = v.y + (r.y + r.h) * v.zoom;
      const underMinimap = right > pane.width - MINIMAP.w && bottom > pane.height - MINIMAP.h;
      expect(underMinimap).toBe(false);
      expect(right).toBeLessThanOrEqual(pane.width);
      expect(bottom).toBeLessThanOrEqual(pane.height);
    }
  });
  it("opens fitted when readable, else at 100 % around the entry", () => {
    const small = openingView({ x: 0, y: 0, w: 800, h: 300 }, { x: 0, y: 100, w: 44, h: 44 }, pane, 0.01);
    expect(small.zoom).toBeGreaterThanOrEqual(0.6);
    const big = openingView({ x: 0, y: 0, w: 20000, h: 12000 }, { x: 5000, y: 6000, w: 44, h: 44 }, pane, 0.01);
    expect(big.zoom).toBe(1);
    const ex = big.x + 5000;
    const ey = big.y + 6022;
    expect(ex).toBeGreaterThan(0);
    expect(ex).toBeLessThan(pane.width / 2);
    expect(ey).toBeGreaterThan(0);
    expect(ey).toBeLessThan(pane.height);
  });
});
