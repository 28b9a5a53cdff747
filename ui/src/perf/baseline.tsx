// The benchmark baseline: the same graph drawn by plain React Flow 12 with its defaults
// (default nodes, default edges, no culling).
//
// - `?n=1000`: the generated graph of `generate.ts` on its grid, whole graph in view.
// - `?external=1` (the real-file scenario): the page waits for the test to hand it the
//   document's nodes and edges (`window.__trellisBaseline(graph, limitMs)`), lays them out with
//   elkjs in a Web Worker (the engine and options the app used before it laid graphs out in
//   Rust), then draws them at zoom 1 around the first node, as the app opens a large document.
//   A layout that takes longer than `limitMs` is abandoned (the worker is terminated) and
//   reported as such. When elkjs gave up or failed (at 10,000 nodes its recursion overflows
//   WebKit's worker stack), React Flow draws the positions the test handed over with the graph
//   (trellis-layout's), so the drawing and the pan and zoom are still compared; the answer says
//   which layout was drawn.
import "@xyflow/react/dist/style.css";
import { type Edge, type Node, ReactFlow } from "@xyflow/react";
import type { ElkNode } from "elkjs/lib/elk-api";
import { createRoot } from "react-dom/client";
import type { GraphSpec, Point } from "../bindings";
import { toElkGraph } from "../lib/layout";
import { generateGraph } from "./generate";
import { FrameSampler, nextFrames } from "./hooks";

/** `positions`: where to draw the nodes when elkjs gives none (trellis-layout's); `labels`: what
 * each edge says (Rust's words, `DocumentView.edgeLabels`), for elkjs to leave room for. */
type Graph = { nodes: { id: string }[]; edges: GraphSpec["edges"]; positions?: Record<string, Point>; labels?: string[] };
/** `drawn`: whose layout React Flow drew; null when nothing was drawn. */
type Loaded = {
  layout_ms: number | null;
  timed_out: boolean;
  nodes: number;
  error?: string;
  drawn: "elkjs" | "trellis-layout" | null;
};

declare global {
  interface Window {
    __trellisBaseline?: (graph: Graph, limitMs: number) => Promise<Loaded>;
  }
}

const params = new URLSearchParams(location.search);
const external = params.get("external") === "1";
const sampler = new FrameSampler();
let count = 0;
let edgeTotal = 0;
let layoutMs: number | null = null;
const root = document.getElementById("root");

function flowOf(graph: Graph, positions: Record<string, Point>): { nodes: Node[]; edges: Edge[] } {
  const nodes: Node[] = graph.nodes.map((x) => ({ id: x.id, position: positions[x.id] ?? { x: 0, y: 0 }, data: { label: x.id } }));
  for (const t of ["__start__", "__end__"]) {
    if (positions[t]) nodes.push({ id: t, position: positions[t], data: { label: t }, type: t === "__start__" ? "input" : "output" });
  }
  const edges: Edge[] = graph.edges.map((e, i) => ({
    id: `e${i}`,
    source: e.from,
    target: e.to,
    label: e.when ? `${e.when.channel} == ${JSON.stringify(e.when.eq)}` : undefined,
  }));
  return { nodes, edges };
}

function draw(nodes: Node[], edges: Edge[], fit: boolean, at?: Point) {
  count = nodes.length - 2;
  edgeTotal = edges.length;
  if (!root) return;
  const viewport = at ? { x: 200 - at.x, y: 200 - at.y, zoom: 1 } : undefined;
  createRoot(root).render(<ReactFlow defaultNodes={nodes} defaultEdges={edges} fitView={fit} defaultViewport={viewport} minZoom={0.01} />);
}

/** elkjs in a worker, given up (terminated) after `limitMs`. */
function elkLayout(graph: Graph, limitMs: number): Promise<Record<string, Point> | null> {
  const worker = new Worker(new URL("../lib/elkWorker.ts", import.meta.url), { type: "module" });
  const spec = { nodes: graph.nodes, edges: graph.edges } as unknown as GraphSpec;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      worker.terminate();
      resolve(null);
    }, limitMs);
    worker.onmessage = (ev: MessageEvent<{ result?: ElkNode; error?: string }>) => {
      clearTimeout(timer);
      worker.terminate();
      if (ev.data.error !== undefined || !ev.data.result) return reject(new Error(ev.data.error ?? "no layout"));
      const positions: Record<string, Point> = {};
      for (const c of ev.data.result.children ?? []) positions[c.id] = { x: Math.round(c.x ?? 0), y: Math.round(c.y ?? 0) };
      resolve(positions);
    };
    worker.postMessage({
      id: 1,
      graph: toElkGraph(
        spec,
        spec.edges.map((_, i) => graph.labels?.[i] ?? ""),
      ),
    });
  });
}

if (external) {
  const drawAt = (graph: Graph, positions: Record<string, Point>) => {
    const { nodes, edges } = flowOf(graph, positions);
    draw(nodes, edges, false, positions[graph.nodes[0]?.id ?? ""] ?? { x: 0, y: 0 });
  };
  window.__trellisBaseline = async (graph, limitMs) => {
    const t0 = performance.now();
    let failed: Omit<Loaded, "drawn">;
    try {
      const positions = await elkLayout(graph, limitMs);
      if (positions) {
        layoutMs = performance.now() - t0;
        drawAt(graph, positions);
        return { layout_ms: layoutMs, timed_out: false, nodes: graph.nodes.length, drawn: "elkjs" };
      }
      failed = { layout_ms: null, timed_out: true, nodes: graph.nodes.length };
    } catch (e) {
      failed = { layout_ms: null, timed_out: false, nodes: graph.nodes.length, error: String(e) };
    }
    if (!graph.positions) return { ...failed, drawn: null };
    drawAt(graph, graph.positions);
    return { ...failed, drawn: "trellis-layout" };
  };
} else {
  const n = Number(params.get("n") ?? 1000);
  const { spec, positions } = generateGraph(n);
  positions.__start__ = { x: -250, y: 0 };
  positions.__end__ = { x: (positions[spec.nodes[spec.nodes.length - 1].id]?.x ?? 0) + 300, y: 0 };
  const { nodes, edges } = flowOf(spec, positions);
  draw(nodes, edges, true);
}

window.__trellisPerf = {
  startSampling: () => sampler.start(),
  stopSampling: () => sampler.stop(),
  nodeCount: () => count,
  edgeCount: () => edgeTotal,
  renderMode: () => "dom",
  domNodeCount: () => document.querySelectorAll(".react-flow__node").length,
  drawnNodes: () => document.querySelectorAll(".react-flow__node").length,
  lastCanvasDrawMs: () => 0,
  getViewport: () => ({ x: 0, y: 0, zoom: 1 }),
  setViewport: () => {},
  fitView: () => {},
  whenIdle: () => nextFrames(2),
  firstDrawnAt: () => null,
  layoutMs: () => layoutMs,
  // Every node is a DOM element here: a point where the pane itself is hit is empty.
  emptyPoint: () => {
    const pane = document.querySelector(".react-flow__pane");
    if (!pane) return null;
    const r = pane.getBoundingClientRect();
    for (let fy = 0.9; fy > 0.1; fy -= 0.031)
      for (let fx = 0.9; fx > 0.1; fx -= 0.037) {
        const x = r.left + r.width * fx;
        const y = r.top + r.height * fy;
        if (document.elementFromPoint(x, y) === pane && document.elementFromPoint(x - 30, y) === pane) return { x, y };
      }
    return null;
  },
};
