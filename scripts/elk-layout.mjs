#!/usr/bin/env node
// elk-layout.mjs SPEC.json OUT.json: lays a GraphSpec out with elkjs, with the options the app
// used before the Rust engine (ui/src/lib/layout.ts before issue 13: layered, left to right;
// cheaper settings above 1,500 nodes), and writes {positions: {id: {x, y}}}. The comparison
// in docs/BENCHMARKS.md measures this output with the Rust quality measures:
// `cargo run --release -p trellis-layout --example layout_file -- SPEC.json OUT.json`.
import { readFileSync, writeFileSync } from "node:fs";
import ELK from "elkjs/lib/elk.bundled.js";

const [specPath, outPath] = process.argv.slice(2);
if (!specPath || !outPath) {
  console.error("usage: elk-layout.mjs SPEC.json OUT.json");
  process.exit(2);
}
const spec = JSON.parse(readFileSync(specPath, "utf8"));
const base = {
  "elk.algorithm": "layered",
  "elk.direction": "RIGHT",
  "elk.spacing.nodeNode": "40",
  "elk.layered.spacing.nodeNodeBetweenLayers": "90",
  "elk.spacing.componentComponent": "80",
  "elk.layered.nodePlacement.strategy": "BRANDES_KOEPF",
  "elk.layered.cycleBreaking.strategy": "GREEDY",
  "elk.separateConnectedComponents": "true",
};
const large = { ...base, "elk.layered.crossingMinimization.strategy": "NONE", "elk.layered.thoroughness": "1", "elk.layered.nodePlacement.strategy": "SIMPLE" };
const ids = ["__start__", "__end__", ...spec.nodes.map((n) => n.id)];
const known = new Set(ids);
const graph = {
  id: "root",
  layoutOptions: ids.length > 1500 ? large : base,
  children: ids.map((id) => (id.startsWith("__") ? { id, width: 44, height: 44 } : { id, width: 200, height: 60 })),
  edges: spec.edges.filter((e) => known.has(e.from) && known.has(e.to)).map((e, i) => ({ id: `e${i}`, sources: [e.from], targets: [e.to] })),
};
const t0 = performance.now();
const out = await new ELK().layout(graph);
const ms = performance.now() - t0;
const positions = {};
for (const c of out.children) positions[c.id] = { x: Math.round(c.x), y: Math.round(c.y) };
writeFileSync(outPath, JSON.stringify({ positions }));
console.log(`elkjs ${ids.length} nodes: ${ms.toFixed(1)} ms, peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
