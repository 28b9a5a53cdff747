// The graph as elkjs takes it (layered, left to right), for the benchmark baseline: plain React
// Flow laid out by elkjs in a worker (`perf/baseline.tsx`, `elkWorker.ts`), the way such apps
// lay a graph out. The app's own layout is Rust's (`layout_document`).
import type { ElkNode } from "elkjs/lib/elk-api";
import type { GraphSpec } from "../bindings";
import { sizeOf, terminalsInUse } from "./geometry";
import { shortLabel } from "./shortLabel";

export const LAYOUT_OPTIONS: Record<string, string> = {
  "elk.algorithm": "layered",
  "elk.direction": "RIGHT",
  "elk.spacing.nodeNode": "40",
  "elk.layered.spacing.nodeNodeBetweenLayers": "90",
  "elk.spacing.componentComponent": "80",
  "elk.layered.nodePlacement.strategy": "BRANDES_KOEPF",
  "elk.layered.cycleBreaking.strategy": "GREEDY",
  "elk.separateConnectedComponents": "true",
  "elk.edgeLabels.placement": "CENTER",
  "elk.layered.edgeLabels.sideSelection": "ALWAYS_UP",
};

/** Options for very large graphs: cheaper crossing minimisation and placement. */
export const LARGE_LAYOUT_OPTIONS: Record<string, string> = {
  ...LAYOUT_OPTIONS,
  "elk.layered.crossingMinimization.strategy": "NONE",
  "elk.layered.thoroughness": "1",
  "elk.layered.nodePlacement.strategy": "SIMPLE",
};

/** `labels`: what each edge says (`DocumentView.edgeLabels`, same index), so the layered
 * algorithm leaves room for it between layers. */
export function toElkGraph(spec: GraphSpec, labels: readonly string[] = []): ElkNode {
  const ids = [...spec.nodes.map((n) => n.id), ...terminalsInUse(spec)];
  const known = new Set(ids);
  const seen = new Set<string>();
  const children = [];
  for (const id of ids) {
    if (seen.has(id)) continue; // duplicate ids: Rust reports them; lay out the first
    seen.add(id);
    const s = sizeOf(id);
    children.push({ id, width: s.w, height: s.h });
  }
  const edges = spec.edges
    .map((e, i) => {
      const label = shortLabel(labels[i] ?? "");
      return {
        id: `e${i}`,
        sources: [e.from],
        targets: [e.to],
        ...(label ? { labels: [{ id: `l${i}`, text: label, width: Math.min(320, 12 + label.length * 7), height: 20 }] } : {}),
      };
    })
    .filter((e) => known.has(e.sources[0]) && known.has(e.targets[0]));
  return {
    id: "root",
    layoutOptions: ids.length > 1500 ? LARGE_LAYOUT_OPTIONS : LAYOUT_OPTIONS,
    children,
    edges,
  };
}
