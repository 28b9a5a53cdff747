#!/usr/bin/env node
// elk-layout.mjs GRAPHS.json OUT.json [LIMIT_S]: lays graphs out with elkjs's layered algorithm
// (left to right, labels placed by ELK), for the layout comparison in the benchmarks
// (crates/bench/examples/layout_quality.rs writes GRAPHS.json and measures OUT.json exactly
// as it measures Trellis's drawing).
//
// GRAPHS.json: [{name, nodes: [{w, h}], edges: [{from, to, label: {w, h} | null}]}] (indices).
// OUT.json: [{name, ms, nodes: [{x, y}], edges: [{points: [{x, y}], label: {x, y} | null}]}],
// or {name, error} for a graph ELK failed on or did not finish within LIMIT_S seconds.
// The options are the app's before the Rust engine (ui/src/lib/layout.ts); above 1,500 nodes
// the cheaper ones it used there.
import { readFileSync, writeFileSync } from "node:fs";
import ELK from "elkjs/lib/elk.bundled.js";

const [graphsPath, outPath, limitArg] = process.argv.slice(2);
if (!graphsPath || !outPath) {
  console.error("usage: elk-layout.mjs GRAPHS.json OUT.json [LIMIT_S]");
  process.exit(2);
}
const limitMs = 1000 * Number(limitArg ?? 300);
const base = {
  "elk.algorithm": "layered",
  "elk.direction": "RIGHT",
  "elk.spacing.nodeNode": "40",
  "elk.layered.spacing.nodeNodeBetweenLayers": "90",
  "elk.spacing.componentComponent": "80",
  "elk.layered.nodePlacement.strategy": "BRANDES_KOEPF",
  "elk.layered.cycleBreaking.strategy": "GREEDY",
  "elk.separateConnectedComponents": "true",
  "elk.edgeLabels.placement": "CENTER",
};
const large = {
  ...base,
  "elk.layered.crossingMinimization.strategy": "NONE",
  "elk.layered.thoroughness": "1",
  "elk.layered.nodePlacement.strategy": "SIMPLE",
};

function elkGraph(g) {
  return {
    id: "root",
    layoutOptions: g.nodes.length > 1500 ? large : base,
    children: g.nodes.map((n, i) => ({ id: `n${i}`, width: n.w, height: n.h })),
    edges: g.edges.map((e, i) => ({
      id: `e${i}`,
      sources: [`n${e.from}`],
      targets: [`n${e.to}`],
      labels: e.label ? [{ id: `l${i}`, text: "x", width: e.label.w, height: e.label.h }] : [],
    })),
  };
}

async function layOut(g) {
  const elk = new ELK();
  const t0 = performance.now();
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`gave up after ${limitMs / 1000} s`)), limitMs);
  });
  try {
    const out = await Promise.race([elk.layout(elkGraph(g)), late]);
    const ms = performance.now() - t0;
    const nodes = out.children.map((c) => ({ x: c.x, y: c.y }));
    const edges = out.edges.map((e) => {
      const s = e.sections?.[0];
      const points = s ? [s.startPoint, ...(s.bendPoints ?? []), s.endPoint] : [];
      const l = e.labels?.[0];
      return { points, label: l ? { x: l.x + l.width / 2, y: l.y + l.height / 2 } : null };
    });
    return { name: g.name, ms, nodes, edges };
  } catch (err) {
    return { name: g.name, error: String(err?.message ?? err) };
  } finally {
    clearTimeout(timer);
  }
}

const graphs = JSON.parse(readFileSync(graphsPath, "utf8"));
const results = [];
for (const g of graphs) results.push(await layOut(g));
writeFileSync(outPath, JSON.stringify(results));
const failed = results.filter((r) => r.error).length;
console.log(`elkjs: ${results.length - failed} graphs laid out, ${failed} failed; peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`);
// elkjs may leave its worker alive after a timeout.
process.exit(0);
