// Keyboard focus on the canvas: one tab stop (the canvas), a roving focus inside it that arrows
// move (focusModel.ts), Enter to inspect, Space to add to the selection, Alt+arrows to move
// the selection, C to connect by typed name, E for edges, Delete for what is focused or
// selected. Keys are taken only while the canvas itself has the keyboard focus.
import { isSubgraphNode } from "../subgraphs/mark";
import { openSubgraph } from "../subgraphs/open";
import type { DocumentView, Point } from "../bindings";
import { edit, editOrReason, registerAction } from "../actions";
import { reveal } from "../canvas/viewportAccess";
import { problemsOf } from "../canvas/buildFlow";
import { resolvePositions, sizeOf } from "../lib/geometry";
import { END, START } from "../lib/ids";
import { ui } from "../store";
import { useFocus } from "./focusStore";
import { type Dir, type Focus, alongEdges, centres, describeFocus, nearestInDirection, nextEdge } from "./focusModel";

const cache = new WeakMap<DocumentView, { positions: Record<string, Point>; centres: Map<string, Point> }>();
function geometryOf(view: DocumentView) {
  let g = cache.get(view);
  if (!g) {
    const positions = resolvePositions(view.spec, view.layout.positions);
    cache.set(view, (g = { positions, centres: centres(positions) }));
  }
  return g;
}

/** The canvas element that holds the keyboard focus. */
export function canvasElement(): HTMLElement | null {
  return document.querySelector<HTMLElement>('[data-testid="canvas"]');
}

/** Gives the canvas the keyboard focus (F6, or the palette's "Focus the canvas"). */
export function focusCanvas() {
  canvasElement()?.focus();
  if (!useFocus.getState().focus) setFocus(firstFocus());
}

function firstFocus(): Focus {
  const v = ui.active();
  if (!v) return null;
  const sel = ui.get().selection;
  if (sel.nodes.length) return { kind: "node", id: sel.nodes[0] };
  if (sel.edges.length) return { kind: "edge", index: sel.edges[0] };
  const { positions } = geometryOf(v);
  if (positions[START]) return { kind: "node", id: START };
  const first = v.spec.nodes[0]?.id;
  return first ? { kind: "node", id: first } : null;
}

/** Moves the focus and keeps it in view (panning only when it left the view). */
export function setFocus(f: Focus) {
  useFocus.setState({ focus: f });
  const v = ui.active();
  if (!v || !f) return;
  const { positions } = geometryOf(v);
  const ids = f.kind === "node" ? [f.id] : [v.spec.edges[f.index]?.from, v.spec.edges[f.index]?.to].filter((x): x is string => !!x);
  const rect = rectOf(positions, ids);
  if (rect) reveal(rect);
}

function rectOf(positions: Record<string, Point>, ids: string[]) {
  let r: { x: number; y: number; w: number; h: number } | null = null;
  for (const id of ids) {
    const p = positions[id];
    if (!p) continue;
    const s = sizeOf(id);
    if (!r) r = { x: p.x, y: p.y, w: s.w, h: s.h };
    else {
      const x1 = Math.max(r.x + r.w, p.x + s.w);
      const y1 = Math.max(r.y + r.h, p.y + s.h);
      r.x = Math.min(r.x, p.x);
      r.y = Math.min(r.y, p.y);
      r.w = x1 - r.x;
      r.h = y1 - r.y;
    }
  }
  return r;
}

/** The sentence for the live region. */
export function announce(view: DocumentView, f: Focus): string {
  const probs = problemsOf(view.diagnostics);
  return describeFocus(
    view.spec,
    f,
    (id) => probs.nodes.get(id) ?? { errors: 0, warnings: 0 },
    (i) => view.edgeLabels[i]?.text ?? "",
  );
}

const ARROWS: Record<string, Dir> = { ArrowLeft: "left", ArrowRight: "right", ArrowUp: "up", ArrowDown: "down" };

/** Selects the focused element and moves the keyboard into the inspector. */
function inspect(f: Focus) {
  if (!f) return;
  if (f.kind === "node") ui.select({ nodes: [f.id], edges: [] });
  else ui.select({ nodes: [], edges: [f.index] });
  setTimeout(() => {
    const first = document.querySelector<HTMLElement>(
      '[data-testid="inspector"] input, [data-testid="inspector"] select, [data-testid="inspector"] textarea',
    );
    first?.focus();
  }, 0);
}

async function moveSelection(dir: Dir, big: boolean) {
  const v = ui.active();
  if (!v) return;
  const f = useFocus.getState().focus;
  let ids = ui.get().selection.nodes;
  if (!ids.length && f?.kind === "node") ids = [f.id];
  const { positions } = geometryOf(v);
  const step = big ? 100 : 20;
  const d = { left: [-step, 0], right: [step, 0], up: [0, -step], down: [0, step] }[dir];
  const moved: Record<string, Point> = {};
  for (const id of ids) {
    const p = positions[id];
    if (p) moved[id] = { x: Math.round(p.x + d[0]), y: Math.round(p.y + d[1]) };
  }
  if (Object.keys(moved).length) await edit({ op: "move_nodes", positions: moved });
}

/** One key on the focused canvas. Answers whether it was used. */
export function onCanvasKey(e: KeyboardEvent): boolean {
  const v = ui.active();
  if (!v) return false;
  const mod = e.ctrlKey || e.metaKey;
  const f = useFocus.getState().focus ?? null;
  const dir = ARROWS[e.key];
  if (dir && e.altKey) {
    void moveSelection(dir, e.shiftKey);
    return true;
  }
  if (dir) {
    if (!f) return (setFocus(firstFocus()), true);
    if (f.kind === "edge") {
      const edge = v.spec.edges[f.index];
      if (edge) setFocus({ kind: "node", id: dir === "left" || dir === "up" ? edge.from : edge.to });
      return true;
    }
    if (mod) {
      const to = alongEdges(v.spec, f, dir);
      if (to) setFocus({ kind: "node", ...to });
      return true;
    }
    const to = nearestInDirection(geometryOf(v).centres, f.id, dir);
    if (to) setFocus({ kind: "node", id: to });
    return true;
  }
  if (mod || e.altKey) return false;
  switch (e.key) {
    case "Enter":
      // On a subgraph node Enter opens its graph (Shift+Enter inspects it, as Enter does
      // elsewhere); a reference that cannot be opened is explained and the node inspected,
      // where the reference is fixed.
      if (!e.shiftKey && f?.kind === "node" && isSubgraphNode(v, f.id)) {
        const id = f.id;
        void openSubgraph(id).then((opened) => {
          if (!opened) inspect({ kind: "node", id });
        });
        return true;
      }
      inspect(f);
      return !!f;
    case " ": {
      if (f?.kind !== "node") return false;
      const sel = ui.get().selection.nodes;
      ui.select({ nodes: sel.includes(f.id) ? sel.filter((x) => x !== f.id) : [...sel, f.id], edges: [] });
      return true;
    }
    case "e":
    case "E": {
      const i = nextEdge(v.spec, f);
      if (i !== null) setFocus({ kind: "edge", index: i });
      return true;
    }
    case "c":
    case "C":
      if (f?.kind === "node" && f.id !== END) useFocus.setState({ connecting: true });
      return true;
    case "Delete":
    case "Backspace": {
      // Nothing selected: the focused element is what goes (the delete action runs next).
      const sel = ui.get().selection;
      if (!sel.nodes.length && !sel.edges.length && f) {
        if (f.kind === "node" && f.id !== START && f.id !== END) ui.select({ nodes: [f.id], edges: [] });
        else if (f.kind === "edge") ui.select({ nodes: [], edges: [f.index] });
      }
      if (f?.kind === "edge") useFocus.setState({ focus: { kind: "node", id: v.spec.edges[f.index]?.from ?? START } });
      else if (f?.kind === "node" && ui.get().selection.nodes.includes(f.id)) useFocus.setState({ focus: null });
      return false;
    }
  }
  return false;
}

/** Connects the focused node to `target` (a node id, or `__end__`); answers an error or null. */
export async function connectTo(target: string): Promise<string | null> {
  const v = ui.active();
  const f = useFocus.getState().focus;
  if (!v || f?.kind !== "node") return "Focus a node first.";
  const t = target.trim();
  // Rust decides which edges can be stored and says why not.
  const refused = await editOrReason({ op: "connect", from: f.id, to: t });
  if (refused !== null) return refused;
  useFocus.setState({ connecting: false });
  const after = ui.active();
  const index = after ? after.spec.edges.findIndex((e) => e.from === f.id && e.to === t) : -1;
  if (index >= 0) useFocus.setState({ focus: { kind: "edge", index } });
  canvasElement()?.focus();
  return null;
}

/** Installs the key handler (capture phase: before the global shortcuts, so Delete can take
 * the focused element first); returns its remover. */
export function installCanvasKeys(): () => void {
  const onKey = (e: KeyboardEvent) => {
    const c = canvasElement();
    if (!c || document.activeElement !== c) return;
    if (onCanvasKey(e)) {
      e.preventDefault();
      e.stopPropagation();
    }
  };
  document.addEventListener("keydown", onKey, true);
  return () => document.removeEventListener("keydown", onKey, true);
}

registerAction("focus-canvas", focusCanvas);
