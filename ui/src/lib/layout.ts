// Automatic layout with elkjs (layered, left to right). The result is sent to Rust as one
// `apply_layout` edit, so it is a single undo step. Large graphs run in a Web Worker so the
// canvas stays responsive; tests call `layoutGraph` with the in-process engine.
import type { ElkNode } from "elkjs/lib/elk-api";
import type { GraphSpec, Point } from "../bindings";
import { sizeOf, terminalsInUse } from "./geometry";
import { shortLabel } from "./shortLabel";

export type ElkLike = { layout(graph: ElkNode): Promise<ElkNode> };

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

export async function layoutGraph(spec: GraphSpec, elk: ElkLike, labels: readonly string[] = []): Promise<Record<string, Point>> {
  const out = await elk.layout(toElkGraph(spec, labels));
  const positions: Record<string, Point> = {};
  for (const c of out.children ?? []) positions[c.id] = { x: Math.round(c.x ?? 0), y: Math.round(c.y ?? 0) };
  return positions;
}

let engine: ElkLike | null = null;

/** elkjs in a Web Worker, behind the same `layout()` call. */
function workerElk(): ElkLike {
  const w = new Worker(new URL("./elkWorker.ts", import.meta.url), { type: "module" });
  let next = 1;
  const pending = new Map<number, { resolve: (g: ElkNode) => void; reject: (e: Error) => void }>();
  w.onmessage = (ev: MessageEvent<{ id: number; result?: ElkNode; error?: string }>) => {
    const p = pending.get(ev.data.id);
    if (!p) return;
    pending.delete(ev.data.id);
    if (ev.data.error !== undefined) p.reject(new Error(ev.data.error));
    else p.resolve(ev.data.result as ElkNode);
  };
  w.onerror = (ev) => {
    for (const p of pending.values()) p.reject(new Error(ev.message || "the layout worker failed"));
    pending.clear();
  };
  return {
    layout(graph) {
      const id = next++;
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        w.postMessage({ id, graph });
      });
    },
  };
}

/** The engine the app uses: a Web Worker when workers exist, in-process otherwise. */
export async function appElk(): Promise<ElkLike> {
  if (engine) return engine;
  if (typeof Worker !== "undefined") engine = workerElk();
  else {
    const { default: ELK } = await import("elkjs/lib/elk.bundled.js");
    engine = new ELK() as unknown as ElkLike;
  }
  return engine;
}
