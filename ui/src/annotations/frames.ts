// Where notes, group frames and collapsed boxes are, from the document's positions. A group
// has no geometry of its own: its frame is drawn around its members (nodes, notes, nested
// groups), so moving the members moves the frame; a collapsed group is one box at the frame's
// top-left corner, so expanding puts every member back where it was. What collapsing hides and
// the edges drawn for a box come from Rust (`DocumentView.collapsed`).
import type { DocumentView, Group, Note, Point } from "../bindings";
import type { Rect } from "../lib/geometry";
import { sizeOf } from "../lib/geometry";

/** Space around the members, and the title bar above them. */
export const PAD = 20;
export const TITLE = 28;
export const BOX_W = 200;
export const BOX_H = 60;
/** The id a collapsed group's box has among the canvas's nodes. */
export const BOX_PREFIX = "group:";

export const boxId = (group: string) => `${BOX_PREFIX}${group}`;
export const groupOfBox = (id: string) => (id.startsWith(BOX_PREFIX) ? id.slice(BOX_PREFIX.length) : null);

/** CSS colours of the palette Rust accepts (annotations/rules.rs PALETTE), light enough behind text. */
export const PALETTE: Record<string, { fill: string; line: string }> = {
  yellow: { fill: "#fef3c7", line: "#d97706" },
  orange: { fill: "#ffedd5", line: "#ea580c" },
  red: { fill: "#fee2e2", line: "#dc2626" },
  pink: { fill: "#fce7f3", line: "#db2777" },
  purple: { fill: "#ede9fe", line: "#7c3aed" },
  blue: { fill: "#dbeafe", line: "#2563eb" },
  teal: { fill: "#ccfbf1", line: "#0d9488" },
  green: { fill: "#dcfce7", line: "#16a34a" },
  gray: { fill: "#f1f5f9", line: "#64748b" },
};
export const COLORS = Object.keys(PALETTE);

export function colorOf(c: string): { fill: string; line: string } {
  if (PALETTE[c]) return PALETTE[c];
  if (/^#[0-9a-fA-F]{6}$/.test(c)) return { fill: `${c}26`, line: c };
  return PALETTE.gray;
}

function union(a: Rect | null, b: Rect): Rect {
  if (!a) return b;
  const x = Math.min(a.x, b.x);
  const y = Math.min(a.y, b.y);
  return { x, y, w: Math.max(a.x + a.w, b.x + b.w) - x, h: Math.max(a.y + a.h, b.y + b.h) - y };
}

export type Frame = { group: Group; rect: Rect; depth: number; count: number };
export type Box = { group: Group; rect: Rect; count: number };

/** The frames of the expanded groups that are drawn and the boxes of the collapsed ones, from
 * the members' positions (the document's, or those of a drag in progress). */
export function framesOf(view: DocumentView, positions: Record<string, Point>): { frames: Frame[]; boxes: Box[] } {
  const groups = view.layout.groups;
  if (!groups.length) return { frames: [], boxes: [] };
  const byId = new Map(groups.map((g) => [g.id, g]));
  const notes = new Map(view.layout.notes.map((n) => [n.id, n]));
  const children = new Map<string, Group[]>();
  for (const g of groups) if (g.parent && byId.has(g.parent)) children.set(g.parent, [...(children.get(g.parent) ?? []), g]);
  const boxes = view.collapsed.boxes;
  const hidden = new Set(view.collapsed.groups);
  const rects = new Map<string, Rect | null>();
  // The frame of the members, whatever the group's state (a box sits at its corner).
  const membersRect = (g: Group, seen: Set<string>): Rect | null => {
    if (rects.has(g.id)) return rects.get(g.id) ?? null;
    if (seen.has(g.id)) return null;
    seen.add(g.id);
    let r: Rect | null = null;
    for (const id of g.nodes) {
      const p = positions[id];
      if (!p) continue;
      const s = sizeOf(id);
      r = union(r, { x: p.x, y: p.y, w: s.w, h: s.h });
    }
    for (const id of g.notes) {
      const n = notes.get(id);
      if (n) r = union(r, { x: n.x, y: n.y, w: n.width, h: n.height });
    }
    for (const c of children.get(g.id) ?? []) {
      const inner = membersRect(c, seen);
      if (!inner) continue;
      // A collapsed child takes the room of its box, an expanded one of its frame.
      r = union(r, c.collapsed ? { x: inner.x, y: inner.y, w: BOX_W, h: BOX_H } : inner);
    }
    const framed = r && { x: r.x - PAD, y: r.y - PAD - TITLE, w: r.w + 2 * PAD, h: r.h + 2 * PAD + TITLE };
    rects.set(g.id, framed);
    return framed;
  };
  const depthOf = (g: Group) => {
    let d = 0;
    let at = g.parent ? byId.get(g.parent) : undefined;
    while (at && d < 64) {
      d++;
      at = at.parent ? byId.get(at.parent) : undefined;
    }
    return d;
  };
  const countOf = (g: Group, seen = new Set<string>()): number => {
    if (seen.has(g.id)) return 0;
    seen.add(g.id);
    return g.nodes.length + g.notes.length + (children.get(g.id) ?? []).reduce((n, c) => n + countOf(c, seen), 0);
  };
  const frames: Frame[] = [];
  const out: Box[] = [];
  for (const g of groups) {
    if (hidden.has(g.id)) continue;
    const r = membersRect(g, new Set());
    if (!r) continue;
    if (g.id in boxes) out.push({ group: g, rect: { x: r.x, y: r.y, w: BOX_W, h: BOX_H }, count: boxes[g.id] ?? countOf(g) });
    else if (!g.collapsed) frames.push({ group: g, rect: r, depth: depthOf(g), count: countOf(g) });
  }
  // Outer frames first, so inner ones are drawn on top of them.
  frames.sort((a, b) => a.depth - b.depth);
  return { frames, boxes: out };
}

/** Every node and note inside a group, nested groups included. */
export function membersOf(view: DocumentView, groupId: string): { nodes: string[]; notes: string[]; groups: string[] } {
  const out = { nodes: [] as string[], notes: [] as string[], groups: [] as string[] };
  const todo = [groupId];
  const seen = new Set<string>();
  while (todo.length) {
    const id = todo.pop() as string;
    if (seen.has(id)) continue;
    seen.add(id);
    out.groups.push(id);
    const g = view.layout.groups.find((x) => x.id === id);
    if (!g) continue;
    out.nodes.push(...g.nodes);
    out.notes.push(...g.notes);
    for (const c of view.layout.groups) if (c.parent === id) todo.push(c.id);
  }
  return out;
}

/** The `move_nodes` fields that move whole groups (members, their notes) by `dx`, `dy`. */
export function moveGroups(
  view: DocumentView,
  positions: Record<string, Point>,
  groups: string[],
  dx: number,
  dy: number,
): { positions: Record<string, Point>; notes: Record<string, Point> } {
  const moved: Record<string, Point> = {};
  const notes: Record<string, Point> = {};
  const byNote = new Map(view.layout.notes.map((n) => [n.id, n]));
  for (const g of groups) {
    const m = membersOf(view, g);
    for (const id of m.nodes) {
      const p = positions[id];
      if (p) moved[id] = { x: p.x + dx, y: p.y + dy };
    }
    for (const id of m.notes) {
      const n = byNote.get(id);
      if (n) notes[id] = { x: n.x + dx, y: n.y + dy };
    }
  }
  return { positions: moved, notes };
}

/** The group each node is directly in. */
export function groupOfNode(view: DocumentView): Map<string, string> {
  const m = new Map<string, string>();
  for (const g of view.layout.groups) for (const n of g.nodes) m.set(n, g.id);
  return m;
}

/** After a drag of `dragged` nodes to `moved` positions: which of them joined or left a group.
 * A node dropped inside an expanded frame (the innermost, measured without the dragged nodes)
 * joins it; one dropped outside its own frame leaves it. Nodes dragged with the rest of their
 * group stay in it (the group moved). */
export function membershipAfterDrag(
  view: DocumentView,
  positions: Record<string, Point>,
  moved: Record<string, Point>,
): Record<string, string | null> {
  if (!view.layout.groups.length) return {};
  const dragged = new Set(Object.keys(moved));
  const current = groupOfNode(view);
  // Frames as they are without the dragged nodes.
  const rest: Record<string, Point> = {};
  for (const [id, p] of Object.entries(positions)) if (!dragged.has(id)) rest[id] = p;
  const { frames } = framesOf(view, rest);
  const out: Record<string, string | null> = {};
  for (const [id, p] of Object.entries(moved)) {
    const own = current.get(id);
    if (own) {
      const g = view.layout.groups.find((x) => x.id === own);
      if (g?.nodes.every((n) => dragged.has(n))) continue;
    }
    const s = sizeOf(id);
    const cx = p.x + s.w / 2;
    const cy = p.y + s.h / 2;
    let inner: Frame | null = null;
    for (const f of frames) {
      const r = f.rect;
      if (cx >= r.x && cx <= r.x + r.w && cy >= r.y && cy <= r.y + r.h && (!inner || f.depth >= inner.depth)) inner = f;
    }
    const target = inner?.group.id ?? null;
    if (target !== (own ?? null)) out[id] = target;
  }
  return out;
}

/** Notes in `r` (for box selection and the DOM window). */
export function notesIn(notes: Note[], r: Rect): Note[] {
  return notes.filter((n) => n.x < r.x + r.w && n.x + n.width > r.x && n.y < r.y + r.h && n.y + n.height > r.y);
}
