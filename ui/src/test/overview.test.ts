// The overview canvas's bitmap cache: zoom and pan frames only scale/copy it; the next bitmap
// is painted in slices between frames, and no more than two bitmaps hold pixels.
import { afterEach, describe, expect, it, vi } from "vitest";
import { OverviewRenderer, coverage } from "../canvas/overview";
import { buildScene } from "../canvas/scene";
import type { Theme } from "../canvas/scenePaint";
import { sceneChanges } from "../canvas/sceneChanges";
import { generateGraph } from "../perf/generate";
import { resolvePositions } from "../lib/geometry";

/** A canvas whose 2D context counts the calls that paint geometry. */
function fakeCanvas(client = { w: 900, h: 600 }) {
  const ops = { rect: 0, lineTo: 0, drawImage: 0 };
  let transform = { a: 1 };
  const ctx = {
    setTransform: (a: number) => (transform = { a }),
    getTransform: () => transform,
    clearRect() {},
    save() {},
    restore() {},
    clip() {},
    beginPath() {},
    moveTo() {},
    lineTo: () => ops.lineTo++,
    rect: () => ops.rect++,
    arc() {},
    fill() {},
    stroke() {},
    fillText() {},
    fillRect() {},
    setLineDash() {},
    drawImage: () => ops.drawImage++,
  } as unknown as CanvasRenderingContext2D;
  const c = { width: 0, height: 0, clientWidth: client.w, clientHeight: client.h, getContext: () => ctx } as unknown as HTMLCanvasElement;
  return { c, ops };
}

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

/** The scene of a generated graph (`refs`: each edge carries its document object, as the
 * app's scenes do). */
function sceneOf(
  spec: ReturnType<typeof generateGraph>["spec"],
  pos: Record<string, { x: number; y: number }>,
  problem: (id: string) => 0 | 1 | 2 = () => 0,
  refs = false,
) {
  return buildScene({
    order: spec.nodes.map((x) => x.id),
    positions: pos,
    color: () => "#4a4",
    problem,
    edges: spec.edges.map((e) => ({ from: e.from, to: e.to, guarded: !!e.when, ...(refs ? { ref: e } : {}) })),
  });
}

function setup(n = 5000) {
  const { spec, positions } = generateGraph(n, 3);
  const pos = resolvePositions(spec, positions);
  const screen = fakeCanvas();
  const bitmaps: ReturnType<typeof fakeCanvas>[] = [];
  const queue: (() => void)[] = [];
  let draws = 0;
  const r = new OverviewRenderer(
    screen.c,
    theme,
    () => draws++,
    (fn) => queue.push(fn),
    () => {
      const b = fakeCanvas();
      bitmaps.push(b);
      return b.c;
    },
  );
  r.setScene(sceneOf(spec, pos));
  const painted = () => bitmaps.reduce((a, b) => a + b.ops.rect + b.ops.lineTo, 0);
  const live = () => bitmaps.filter((b) => b.c.width > 0).length;
  const runSlices = () => {
    let k = 0;
    while (queue.length) {
      queue.shift()?.();
      k++;
    }
    return k;
  };
  return { r, spec, pos, screen, bitmaps, queue, painted, live, runSlices, draws: () => draws };
}

describe("overview bitmap cache", () => {
  vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
  afterEach(() => vi.clearAllTimers());
  it("paints the scene in the frame only when it has nothing to show", () => {
    const t = setup();
    t.r.draw(0, 0, 0.1);
    expect(t.r.syncRepaints).toBe(1);
    expect(t.painted()).toBeGreaterThan(1000);
  });

  it("zooms by scaling the cached bitmap and repaints it between frames, in slices", () => {
    const t = setup();
    t.r.draw(0, 0, 0.1);
    const first = t.painted();
    // Wheel steps of 1.087x about the centre, well past the drift threshold (1.25x).
    let z = 0.1;
    for (let i = 0; i < 4; i++) {
      const nz = z * 1.087;
      t.r.draw(450 - (450 * nz) / z, 300 - (300 * nz) / z, nz);
      z = nz;
    }
    // No frame painted the scene: each drew only the (stale) bitmap.
    expect(t.r.syncRepaints).toBe(1);
    expect(t.painted()).toBe(first);
    expect(t.queue.length).toBe(1);
    const slices = t.runSlices();
    expect(slices).toBeGreaterThanOrEqual(1);
    expect(t.painted()).toBeGreaterThan(first);
    expect(t.draws()).toBe(1); // asks for a frame to show the new bitmap
    // The old bitmap is kept for the next repaint while the view moves, freed once it rests.
    expect(t.live()).toBe(2);
    // The zoom rests (160 ms): a sharp bitmap for it, in the background again, in the spare.
    vi.advanceTimersByTime(200);
    expect(t.queue.length).toBe(1);
    t.runSlices();
    expect(t.r.syncRepaints).toBe(1);
    vi.advanceTimersByTime(2500);
    expect(t.live()).toBe(1);
    expect(t.bitmaps.length).toBe(2);
  });

  it("pans by copying the bitmap and prefetches the next one before the view leaves it", () => {
    const t = setup();
    t.r.draw(0, 0, 0.1);
    const first = t.painted();
    // 0.5 view of margin each side: after a third of a view the view nears the edge.
    for (let x = 0; x >= -300; x -= 30) t.r.draw(x, 0, 0.1);
    expect(t.r.syncRepaints).toBe(1);
    expect(t.painted()).toBe(first);
    expect(t.queue.length).toBe(1);
    t.runSlices();
    expect(t.painted()).toBeGreaterThan(first);
    // Panning on reuses the retired bitmap: no third canvas.
    for (let x = -300; x >= -700; x -= 30) t.r.draw(x, 0, 0.1);
    t.runSlices();
    expect(t.r.syncRepaints).toBe(1);
    expect(t.bitmaps.length).toBe(2);
  });

  it("does not repaint while the view stays within half the margin", () => {
    const t = setup();
    t.r.draw(0, 0, 0.1);
    for (let x = 0; x >= -200; x -= 20) t.r.draw(x, x / 2, 0.1);
    expect(t.queue.length).toBe(0);
    expect(t.bitmaps.length).toBe(1);
  });

  it("paints in the frame when the view jumps out of the bitmap", () => {
    const t = setup();
    t.r.draw(0, 0, 0.1);
    t.r.draw(-5000, -5000, 0.1);
    expect(t.r.syncRepaints).toBe(2);
    vi.advanceTimersByTime(2500);
    expect(t.live()).toBe(1);
  });

  it("measures how much of a view a bitmap covers", () => {
    expect(coverage({ x: 0, y: 0, w: 10, h: 10 }, { x: 5, y: 0, w: 10, h: 10 })).toBe(0.5);
    expect(coverage({ x: 0, y: 0, w: 10, h: 10 }, { x: 20, y: 0, w: 10, h: 10 })).toBe(0);
  });

  it("paints only the places an edit changed into the cached bitmap", () => {
    const t = setup();
    t.r.draw(0, 0, 0.1);
    const whole = t.painted();
    // Delete a node: it and its edges go, the later edges' indices shift.
    const gone = t.spec.nodes[3].id;
    const spec = {
      ...t.spec,
      nodes: t.spec.nodes.filter((x) => x.id !== gone),
      edges: t.spec.edges.filter((e) => e.from !== gone && e.to !== gone),
    };
    t.r.setScene(sceneOf(spec, t.pos));
    expect(t.r.partialRepaints).toBe(1);
    t.r.draw(0, 0, 0.1);
    expect(t.r.syncRepaints).toBe(1); // the frame after the edit copies the bitmap
    const again = t.painted() - whole;
    expect(again).toBeGreaterThan(0);
    expect(again).toBeLessThan(whole / 10);
    // A problem shown on one node: one more partial repaint.
    t.r.setScene(sceneOf(spec, t.pos, (id) => (id === spec.nodes[0].id ? 2 : 0)));
    expect(t.r.partialRepaints).toBe(2);
  });

  it("repaints everything when an edit changed too much", () => {
    const t = setup();
    t.r.draw(0, 0, 0.1);
    const moved = Object.fromEntries(Object.entries(t.pos).map(([id, p]) => [id, { x: p.x + 40, y: p.y }]));
    t.r.setScene(sceneOf(t.spec, moved));
    expect(t.r.partialRepaints).toBe(0);
    t.r.draw(0, 0, 0.1);
    expect(t.r.syncRepaints).toBe(2);
  });
});

describe("scene changes", () => {
  const { spec, positions } = generateGraph(400, 5);
  const pos = resolvePositions(spec, positions);
  const inside = (p: { x: number; y: number }, r: { x: number; y: number; w: number; h: number }) =>
    p.x >= r.x && p.x <= r.x + r.w && p.y >= r.y && p.y <= r.y + r.h;

  it("finds nothing between equal scenes", () => {
    expect(sceneChanges(sceneOf(spec, pos), sceneOf(spec, pos), 0.5)).toEqual({ places: [], removed: [] });
  });

  it.each([false, true])(
    "covers a removed node and both ends of each of its edges, and nothing for shifted edges (edge objects: %s)",
    (refs) => {
      const gone = spec.nodes[7].id;
      const prev = sceneOf(spec, pos, () => 0, refs);
      const next = sceneOf(
        { ...spec, nodes: spec.nodes.filter((x) => x.id !== gone), edges: spec.edges.filter((e) => e.from !== gone && e.to !== gone) },
        pos,
        () => 0,
        refs,
      );
      const c = sceneChanges(prev, next, 0.5);
      expect(c?.removed).toEqual([gone]);
      const touching = spec.edges.filter((e) => e.from === gone || e.to === gone);
      // The node's box and one box per edge it had: the edges after it only changed index.
      expect(c?.places.length).toBe(1 + touching.length);
      const i = prev.index.get(gone) as number;
      expect(c?.places.some((r) => inside({ x: prev.x[i] + 1, y: prev.y[i] + 1 }, r))).toBe(true);
      for (const e of touching) {
        const a = prev.index.get(e.from) as number;
        const b = prev.index.get(e.to) as number;
        const start = { x: prev.x[a] + prev.w[a], y: prev.y[a] + prev.h[a] / 2 };
        const end = { x: prev.x[b], y: prev.y[b] + prev.h[b] / 2 };
        expect(c?.places.some((r) => inside(start, r) && inside(end, r))).toBe(true);
      }
    },
  );

  it("covers a moved node's old and new place and its edges", () => {
    const id = spec.nodes[2].id;
    const moved = { ...pos, [id]: { x: pos[id].x + 500, y: pos[id].y + 300 } };
    const c = sceneChanges(sceneOf(spec, pos), sceneOf(spec, moved), 0.5);
    const edges = spec.edges.filter((e) => e.from === id || e.to === id).length;
    expect(c?.places.length).toBe(2 + 2 * edges);
    expect(c?.places.some((r) => inside({ x: moved[id].x + 1, y: moved[id].y + 1 }, r))).toBe(true);
    expect(c?.places.some((r) => inside({ x: pos[id].x + 1, y: pos[id].y + 1 }, r))).toBe(true);
  });

  it("gives up (a whole repaint) when most of the graph changed", () => {
    const shifted = Object.fromEntries(Object.entries(pos).map(([id, p]) => [id, { x: p.x, y: p.y + 10 }]));
    expect(sceneChanges(sceneOf(spec, pos), sceneOf(spec, shifted), 0.5)).toBeNull();
  });
});
