// Where keyboard focus goes on the canvas, as pure functions of the graph and the positions:
// arrows go to the nearest node in that direction; with Ctrl (⌘) they follow edges (right:
// a successor, left: a predecessor, down/up: the next/previous sibling reached from the same
// node); E walks the focused node's outgoing edges. No DOM: the same rules in both drawings.
import type { GraphSpec, Point } from "../bindings";
import { sizeOf } from "../lib/geometry";

export type Dir = "left" | "right" | "up" | "down";
export type Focus = { kind: "node"; id: string; via?: string } | { kind: "edge"; index: number } | null;

/** The centre of each placed node. */
export function centres(positions: Record<string, Point>): Map<string, Point> {
  const m = new Map<string, Point>();
  for (const [id, p] of Object.entries(positions)) {
    const s = sizeOf(id);
    m.set(id, { x: p.x + s.w / 2, y: p.y + s.h / 2 });
  }
  return m;
}

/** The nearest node from `from` in direction `dir`: among the nodes ahead (within 60° of the
 * direction first, any ahead when none is), the one with the least distance, sideways distance
 * counting twice. Null at the edge of the graph. */
export function nearestInDirection(c: Map<string, Point>, from: string, dir: Dir): string | null {
  const o = c.get(from);
  if (!o) return null;
  let best: string | null = null;
  let bestScore = Infinity;
  let bestCone = false;
  for (const [id, p] of c) {
    if (id === from) continue;
    const dx = p.x - o.x;
    const dy = p.y - o.y;
    const ahead = dir === "right" ? dx : dir === "left" ? -dx : dir === "down" ? dy : -dy;
    const side = Math.abs(dir === "left" || dir === "right" ? dy : dx);
    if (ahead <= 0.5) continue;
    const cone = side <= ahead * 1.732;
    const score = ahead + 2 * side;
    if ((cone && !bestCone) || (cone === bestCone && score < bestScore)) {
      best = id;
      bestScore = score;
      bestCone = cone;
    }
  }
  return best;
}

/** Successors (edge targets) and predecessors (edge sources) of `id`, each once, in edge order. */
export function neighbours(spec: GraphSpec, id: string): { out: string[]; in: string[] } {
  const out: string[] = [];
  const inn: string[] = [];
  for (const e of spec.edges) {
    if (e.from === id && !out.includes(e.to)) out.push(e.to);
    if (e.to === id && !inn.includes(e.from)) inn.push(e.from);
  }
  return { out, in: inn };
}

/** Ctrl+arrow: along the edges. Right: the first successor (remembering where it came from);
 * left: the node it came from, else the first predecessor; down/up: the next/previous sibling
 * among the successors of the node it came from. */
export function alongEdges(spec: GraphSpec, focus: { id: string; via?: string }, dir: Dir): { id: string; via?: string } | null {
  const { out, in: inn } = neighbours(spec, focus.id);
  if (dir === "right") return out.length ? { id: out[0], via: focus.id } : null;
  if (dir === "left") {
    const back = focus.via && inn.includes(focus.via) ? focus.via : inn[0];
    return back ? { id: back } : null;
  }
  const parent = focus.via && inn.includes(focus.via) ? focus.via : inn[0];
  if (!parent) return null;
  const siblings = neighbours(spec, parent).out;
  const i = siblings.indexOf(focus.id);
  if (siblings.length < 2 || i < 0) return null;
  const j = (i + (dir === "down" ? 1 : -1) + siblings.length) % siblings.length;
  return { id: siblings[j], via: parent };
}

/** E: the next outgoing edge of the focused node (or, from an edge, the next one leaving the
 * same node), by edge index. */
export function nextEdge(spec: GraphSpec, focus: Focus): number | null {
  if (!focus) return null;
  const from = focus.kind === "node" ? focus.id : spec.edges[focus.index]?.from;
  if (from === undefined) return null;
  const mine = spec.edges.map((e, i) => (e.from === from ? i : -1)).filter((i) => i >= 0);
  if (!mine.length) return null;
  if (focus.kind === "node") return mine[0];
  return mine[(mine.indexOf(focus.index) + 1) % mine.length];
}

/** What a screen reader says for the focus: "node planner, type planner, 2 errors". */
export function describeFocus(
  spec: GraphSpec,
  focus: Focus,
  problems: (id: string) => { errors: number; warnings: number },
  condition: (i: number) => string,
): string {
  if (!focus) return "";
  const count = (n: number, what: string) => (n ? `, ${n} ${what}${n === 1 ? "" : "s"}` : "");
  if (focus.kind === "node") {
    if (focus.id === "__start__") return "start node";
    if (focus.id === "__end__") return "end node";
    const n = spec.nodes.find((x) => x.id === focus.id);
    const p = problems(focus.id);
    return `node ${focus.id}, type ${n?.type ?? "none"}${count(p.errors, "error")}${count(p.warnings, "warning")}`;
  }
  const e = spec.edges[focus.index];
  if (!e) return "";
  const cond = condition(focus.index);
  return `edge from ${e.from} to ${e.to}${cond ? `, when ${cond}` : ""}`;
}
