// Collapsed groups in both drawings: the members Rust says are hidden leave the canvas, each
// box takes their place as one node (its id `group:<id>`), and the edges Rust aggregated are
// drawn to it once per outside neighbour, labelled with how many edges they stand for.
import type { DocumentView, End, Point } from "../bindings";
import type { FlowEdge, FlowNode } from "../canvas/buildFlow";
import type { SceneInput, Underlay } from "../canvas/scene";
import { type Box, boxId, colorOf, framesOf } from "./frames";
import type { GroupBoxData } from "./GroupBox";
import { count } from "../lib/counts";

export type Collapsed = {
  hidden: Set<string>;
  hiddenEdges: Set<number>;
  boxes: Box[];
  boxPositions: Record<string, Point>;
  edges: { from: string; to: string; count: number }[];
};

const endId = (e: End) => (e.group ? boxId(e.id) : e.id);

/** The collapsed part of the drawing, or null when no group is collapsed. */
export function collapsedOf(view: DocumentView, positions: Record<string, Point>): Collapsed | null {
  const c = view.collapsed;
  if (!Object.keys(c.boxes).length) return null;
  const { boxes } = framesOf(view, positions);
  const boxPositions: Record<string, Point> = {};
  for (const b of boxes) boxPositions[boxId(b.group.id)] = { x: b.rect.x, y: b.rect.y };
  return {
    hidden: new Set(Object.keys(c.nodes)),
    hiddenEdges: new Set(c.hiddenEdges),
    boxes,
    boxPositions,
    edges: c.edges.map((e) => ({ from: endId(e.from), to: endId(e.to), count: e.edges.length })),
  };
}

const countLabel = (n: number) => (n > 1 ? `×${n}` : "");

/** The overview canvas's input with the boxes in place of their members. */
export function collapsedScene(inp: SceneInput, c: Collapsed | null): SceneInput {
  if (!c) return inp;
  const names = new Map(c.boxes.map((b) => [boxId(b.group.id), b]));
  return {
    ...inp,
    order: [...inp.order.filter((id) => !c.hidden.has(id)), ...names.keys()],
    positions: { ...inp.positions, ...c.boxPositions },
    color: (id) => (names.has(id) ? "#64748b" : inp.color(id)),
    edges: [
      ...inp.edges.filter(
        (e) => !(e.index !== undefined && e.index >= 0 ? c.hiddenEdges.has(e.index) : c.hidden.has(e.from) || c.hidden.has(e.to)),
      ),
      ...c.edges.map((e) => ({ from: e.from, to: e.to, guarded: false, label: countLabel(e.count), index: -1 })),
    ],
    type: (id) => {
      const b = names.get(id);
      return b ? `${count(b.count, "member")} (collapsed)` : (inp.type?.(id) ?? "");
    },
    name: (id) => names.get(id)?.group.name ?? id,
  };
}

/** React Flow's nodes and edges with the boxes in place of their members. */
export function collapsedFlow(nodes: FlowNode[], edges: FlowEdge[], c: Collapsed | null, selected: ReadonlySet<string>) {
  if (!c) return { nodes, edges };
  const boxNodes = c.boxes.map((b) => {
    const id = boxId(b.group.id);
    const data: GroupBoxData = { group: b.group.id, name: b.group.name, color: b.group.color, count: b.count };
    return {
      id,
      type: "groupBox",
      position: c.boxPositions[id],
      width: b.rect.w,
      height: b.rect.h,
      selected: selected.has(id),
      data,
    } as unknown as FlowNode;
  });
  const aggregated: FlowEdge[] = c.edges.map((e, k) => ({
    id: `g${k}`,
    source: e.from,
    target: e.to,
    type: "guard",
    selectable: false,
    data: { index: -1, label: countLabel(e.count), guarded: false, errors: 0 },
  }));
  return {
    nodes: [...nodes.filter((n) => !c.hidden.has(n.id)), ...boxNodes],
    edges: [
      ...edges.filter((e) =>
        (e.data?.index ?? -1) >= 0 ? !c.hiddenEdges.has(e.data?.index ?? -1) : !c.hidden.has(e.source) && !c.hidden.has(e.target),
      ),
      ...aggregated,
    ],
  };
}

/** The frames and notes the overview canvas draws into its bitmap (under the nodes): panning
 * and zooming then cost nothing more than without them, where DOM elements under a
 * transparent canvas were repainted on every frame. */
export function annotationUnderlay(view: DocumentView, positions: Record<string, Point>): Underlay[] {
  if (!view.layout.groups.length && !view.layout.notes.length) return [];
  const out: Underlay[] = [];
  for (const f of framesOf(view, positions).frames) {
    const c = colorOf(f.group.color);
    out.push({ kind: "frame", ...f.rect, fill: c.fill, line: c.line, title: `${f.group.name}  (${f.count})` });
  }
  const hidden = view.collapsed.notes;
  for (const n of view.layout.notes) {
    if (n.id in hidden) continue;
    const c = colorOf(n.color);
    const first = (n.text.split("\n").find((l) => l.trim()) ?? "").replace(/^#+\s*/, "");
    out.push({ kind: "note", x: n.x, y: n.y, w: n.width, h: n.height, fill: c.fill, line: c.line, title: first });
  }
  return out;
}
