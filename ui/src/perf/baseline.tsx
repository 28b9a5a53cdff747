// The benchmark baseline (issue 8): the same generated graph drawn by plain React Flow 12 with
// its defaults (default nodes, default edges, no culling), whole graph in view. `?n=1000`.
import "@xyflow/react/dist/style.css";
import { ReactFlow, type Edge, type Node } from "@xyflow/react";
import { createRoot } from "react-dom/client";
import { FrameSampler, nextFrames } from "./hooks";
import { generateGraph } from "./generate";

const n = Number(new URLSearchParams(location.search).get("n") ?? 1000);
const { spec, positions } = generateGraph(n);
const nodes: Node[] = spec.nodes.map((x) => ({ id: x.id, position: positions[x.id], data: { label: x.id } }));
nodes.push({ id: "__start__", position: { x: -250, y: 0 }, data: { label: "__start__" }, type: "input" });
nodes.push({
  id: "__end__",
  position: { x: (positions[spec.nodes[spec.nodes.length - 1].id]?.x ?? 0) + 300, y: 0 },
  data: { label: "__end__" },
  type: "output",
});
const edges: Edge[] = spec.edges.map((e, i) => ({
  id: `e${i}`,
  source: e.from,
  target: e.to,
  label: e.when ? `${e.when.channel} == ${JSON.stringify(e.when.eq)}` : undefined,
}));

const sampler = new FrameSampler();
window.__trellisPerf = {
  startSampling: () => sampler.start(),
  stopSampling: () => sampler.stop(),
  nodeCount: () => n,
  edgeCount: () => edges.length,
  renderMode: () => "dom",
  domNodeCount: () => document.querySelectorAll(".react-flow__node").length,
  drawnNodes: () => document.querySelectorAll(".react-flow__node").length,
  lastCanvasDrawMs: () => 0,
  getViewport: () => ({ x: 0, y: 0, zoom: 1 }),
  setViewport: () => {},
  fitView: () => {},
  whenIdle: () => nextFrames(2),
  firstDrawnAt: () => null,
};

const root = document.getElementById("root");
if (root) createRoot(root).render(<ReactFlow defaultNodes={nodes} defaultEdges={edges} fitView minZoom={0.01} />);
