// The canvas. Two drawings of one graph:
// - "dom": React Flow with custom memoized nodes, only what is in view rendered
//   (`onlyRenderVisibleElements`), for what is close enough to read and edit;
// - "canvas": zoomed out, or too many nodes in view: React Flow keeps the viewport (pan and
//   zoom) but renders no elements; the whole graph is drawn on one <canvas> (overview.ts), and
//   select / box select / drag are handled here by hit testing.
import {
  Background,
  BackgroundVariant,
  type Connection,
  ControlButton,
  Controls,
  type EdgeChange,
  type NodeChange,
  ReactFlow,
  ReactFlowProvider,
  useReactFlow,
  useStoreApi,
} from "@xyflow/react";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { DocumentView, Point, TypeInfo } from "../bindings";
import { addNode, autoLayout, edit, setCanvasController } from "../actions";
import { categoryColor } from "../lib/colors";
import { type Rect, boundsOf, resolvePositions, sizeOf } from "../lib/geometry";
import { START } from "../lib/ids";
import { CanvasOverlays } from "../keyboard/CanvasOverlays";
import { CompareOverlay } from "../compare/CompareOverlay";
import { FrameSampler, nextFrames } from "../perf/hooks";
import { ui, useUi } from "../store";
import { FlowCache, type FlowEdge, type FlowNode, problemsOf } from "./buildFlow";
import { GraphNode, TerminalNode } from "./GraphNode";
import { GuardEdge } from "./GuardEdge";
import { MiniMap } from "./MiniMap";
import { isSubgraphNode } from "../subgraphs/mark";
import { openSubgraph } from "../subgraphs/open";
import { frameRect, openingView } from "./framing";
import { OverviewRenderer, type Theme, buildScene } from "./overview";
import { sceneInput } from "./sceneInput";
import { AnnotationLayer } from "../annotations/AnnotationLayer";
import { GroupBox } from "../annotations/GroupBox";
import { annotationUnderlay, collapsedFlow, collapsedOf, collapsedScene } from "../annotations/collapsedCanvas";
import { groupOfBox, membershipAfterDrag, moveGroups } from "../annotations/frames";
import { setCollapsed } from "../annotations/actions";

const nodeTypes = { graph: GraphNode, terminal: TerminalNode, groupBox: GroupBox };
/** Durations of the overview draws, read by the benchmarks (`__trellisPerf.drawLog`). */
const drawLog: number[] = [];
const edgeTypes = { guard: GuardEdge };

/** Below this zoom, or above this many nodes in view, the graph is drawn on the canvas. */
export const CANVAS_ZOOM = 0.45;
export const CANVAS_COUNT = 260;
const HYSTERESIS = 1.15;

export const DRAG_MIME = "application/x-trellis-type";

/** The dotted grid repaints the whole pane on every pan frame, which software painting
 * (WebKitGTK under X11 without GPU) pays dearly for: off unless asked for (`?grid=1`). */
const showGrid = typeof location !== "undefined" && new URLSearchParams(location.search).get("grid") === "1";

export function Canvas({ view }: { view: DocumentView }) {
  return (
    <ReactFlowProvider>
      <CanvasInner view={view} />
    </ReactFlowProvider>
  );
}

function readTheme(el: HTMLElement): Theme {
  const cs = getComputedStyle(el);
  const v = (n: string, d: string) => cs.getPropertyValue(n).trim() || d;
  return {
    edge: v("--edge", "rgba(100,116,139,0.55)"),
    guarded: v("--edge-guarded", "rgba(217,119,6,0.7)"),
    selected: v("--accent", "#3b82f6"),
    error: v("--error", "#dc2626"),
    warning: v("--warning", "#d97706"),
    terminal: v("--terminal", "#334155"),
    text: v("--fg", "#0f172a"),
    nodeBg: v("--node-bg", "#ffffff"),
  };
}

function CanvasInner({ view }: { view: DocumentView }) {
  const rf = useReactFlow();
  const store = useStoreApi();
  const wrapper = useRef<HTMLDivElement>(null);
  const overlay = useRef<HTMLCanvasElement>(null);
  const renderer = useRef<OverviewRenderer | null>(null);
  const themeRef = useRef<Theme | null>(null);
  const selection = useUi((s) => s.selection);
  const mode = useUi((s) => s.renderMode);
  const theme = useUi((s) => s.theme);
  const [drag, setDrag] = useState<Record<string, Point> | null>(null);
  const cache = useMemo(() => new FlowCache(), [view.id]); // eslint-disable-line react-hooks/exhaustive-deps

  const types = useMemo(() => new Map<string, TypeInfo>(view.registry.map((t) => [t.type, t])), [view.registry]);
  const basePositions = useMemo(() => resolvePositions(view.spec, view.layout.positions), [view.spec, view.layout.positions]);
  const problems = useMemo(() => problemsOf(view.diagnostics), [view.diagnostics]);
  // Collapsed groups: their boxes stand for the members (issue 16).
  const collapsed = useMemo(() => collapsedOf(view, basePositions), [view, basePositions]);
  // The minimap shows what the canvas shows: a collapsed group's box, not its members.
  const miniPositions = useMemo(() => {
    if (!collapsed) return basePositions;
    const out: Record<string, Point> = { ...collapsed.boxPositions };
    for (const [id, p] of Object.entries(basePositions)) if (!collapsed.hidden.has(id)) out[id] = p;
    return out;
  }, [collapsed, basePositions]);
  const selNodes = useMemo(() => new Set(selection.nodes), [selection.nodes]);
  const selEdges = useMemo(() => new Set(selection.edges), [selection.edges]);
  const colorById = useMemo(() => {
    const m = new Map<string, string>();
    for (const n of view.spec.nodes) m.set(n.id, categoryColor(n.type ? types.get(n.type)?.category : undefined));
    return (id: string) => m.get(id) ?? "#475569";
  }, [view.spec.nodes, types]);

  // React Flow slows down with every node in its store, drawn or not (5,000 nodes: ~200 ms per
  // pan frame, 2.7 s to switch to the DOM drawing). So it gets only a window around the view:
  // the nodes in it, the edges touching them, and those edges' far ends (not rendered, but
  // needed to draw the edge). The window is recomputed when the view leaves it. Only that
  // subset is ever built as React Flow objects (none at all while the canvas draws the graph),
  // from the stored positions only: a drag must not rebuild them per frame (the dragged ones
  // are overlaid below).
  const [win, setWin] = useState<Rect | null>(null);
  const winRef = useRef<Rect | null>(null);
  const domSubset = useMemo(() => {
    if (mode !== "dom" || !win || !renderer.current) return { nodes: [] as FlowNode[], edges: [] as FlowEdge[] };
    const inWin = new Set(renderer.current.idsIn(win));
    // A selection stays in the store so a drag moves all of it (up to a size that stays fast).
    if (selNodes.size <= 400) for (const id of selNodes) inWin.add(id);
    const keep = new Set(inWin);
    const es = cache.buildEdges(view, selEdges, problems, (e) => inWin.has(e.from) || inWin.has(e.to));
    for (const e of es) {
      keep.add(e.source);
      keep.add(e.target);
    }
    return collapsedFlow(cache.buildNodes(view, basePositions, selNodes, problems, types, keep), es, collapsed, selNodes);
  }, [mode, win, cache, view, basePositions, selNodes, selEdges, problems, types, collapsed]);
  const flowNodes = useMemo(
    () => (drag ? domSubset.nodes.map((n) => (drag[n.id] ? { ...n, position: drag[n.id] } : n)) : domSubset.nodes),
    [domSubset, drag],
  );

  // ---- the overview canvas -------------------------------------------------------------
  const redraw = useCallback(() => {
    const r = renderer.current;
    if (!r || ui.get().renderMode !== "canvas") return;
    const [tx, ty, z] = store.getState().transform;
    r.draw(tx, ty, z);
    if (drawLog.length < 10000) drawLog.push(r.lastDrawMs);
  }, [store]);
  const rafRef = useRef(0);
  const scheduleDraw = useCallback(() => {
    if (!rafRef.current) rafRef.current = requestAnimationFrame(() => ((rafRef.current = 0), redraw()));
  }, [redraw]);

  useEffect(() => {
    if (!overlay.current || !wrapper.current) return;
    const getTheme = () => (themeRef.current ??= readTheme(wrapper.current as HTMLElement));
    renderer.current = new OverviewRenderer(overlay.current, getTheme, () => scheduleDraw());
    // `?cache=0`: paint the scene every frame (to compare engines in benchmarks).
    if (new URLSearchParams(location.search).get("cache") === "0") renderer.current.useCache = false;
    const mq = window.matchMedia?.("(prefers-color-scheme: dark)");
    const onTheme = () => {
      themeRef.current = null;
      renderer.current?.invalidate();
      scheduleDraw();
    };
    mq?.addEventListener?.("change", onTheme);
    return () => mq?.removeEventListener?.("change", onTheme);
  }, [scheduleDraw]);
  useEffect(() => {
    themeRef.current = null;
    renderer.current?.invalidate();
    scheduleDraw();
  }, [theme, scheduleDraw]);

  useEffect(() => {
    const r = renderer.current;
    if (!r) return;
    const inp = collapsedScene(sceneInput(view, basePositions, colorById, problems, types), collapsed);
    r.setScene(buildScene({ ...inp, underlay: annotationUnderlay(view, basePositions) }));
    r.setSelected(selection.nodes);
    r.setSelectedEdges(selection.edges);
    winRef.current = null; // the scene changed: recompute the DOM window
    updateMode();
    scheduleDraw();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [
    basePositions,
    view.spec,
    view.weaveflow,
    view.graphmd,
    problems,
    colorById,
    types,
    collapsed,
    view.layout.notes,
    view.layout.groups,
  ]);

  useEffect(() => {
    renderer.current?.setSelected(selection.nodes);
    renderer.current?.setSelectedEdges(selection.edges);
    scheduleDraw();
  }, [selection.nodes, selection.edges, scheduleDraw]);

  /** Chooses the drawing from the zoom and how many nodes are in view (with hysteresis). */
  const updateMode = useCallback(() => {
    const r = renderer.current;
    const st = store.getState();
    const [tx, ty, z] = st.transform;
    if (!r || !st.width) return;
    const vp = { x: -tx / z, y: -ty / z, w: st.width / z, h: st.height / z };
    const count = r.countIn(vp);
    const cur = ui.get().renderMode;
    const toCanvas = z < CANVAS_ZOOM || count > CANVAS_COUNT;
    const toDom = z >= CANVAS_ZOOM * HYSTERESIS && count < CANVAS_COUNT / HYSTERESIS;
    const next = cur === "dom" ? (toCanvas ? "canvas" : "dom") : toDom ? "dom" : "canvas";
    // The DOM window only matters for the DOM drawing: keep it still while on the canvas.
    const w = winRef.current;
    if (next === "dom" && (!w || vp.x < w.x || vp.y < w.y || vp.x + vp.w > w.x + w.w || vp.y + vp.h > w.y + w.h)) {
      const m = 0.3;
      const nw = { x: vp.x - vp.w * m, y: vp.y - vp.h * m, w: vp.w * (1 + 2 * m), h: vp.h * (1 + 2 * m) };
      winRef.current = nw;
      setWin(nw);
    }
    if (next !== cur) ui.set({ renderMode: next });
    if (Math.abs(ui.get().zoom - z) > 0.01) ui.set({ zoom: z });
  }, [store]);

  useEffect(() => {
    let last = store.getState().transform;
    return store.subscribe((st) => {
      if (st.transform === last) return;
      last = st.transform;
      updateMode();
      scheduleDraw();
    });
  }, [store, updateMode, scheduleDraw]);

  useEffect(() => {
    scheduleDraw();
  }, [mode, scheduleDraw]);

  // ---- viewport: fit on open, controller for the rest of the UI ------------------------
  const frame = useCallback(
    (r: Rect, maxZoom = 1.5) => {
      const { width, height, minZoom } = store.getState();
      if (!width || !height) return;
      void rf.setViewport(frameRect(r, { width, height }, minZoom, maxZoom));
    },
    [rf, store],
  );
  const fit = useCallback(() => {
    const b = boundsOf(basePositions);
    if (b) frame(b, 1.2);
    else void rf.setViewport({ x: 0, y: 0, zoom: 1 });
  }, [basePositions, frame, rf]);

  const fitRef = useRef(fit);
  fitRef.current = fit;
  useEffect(() => {
    setCanvasController({
      fit: () => fitRef.current(),
      frame,
      centre: () => {
        const { width, height, transform } = store.getState();
        const [tx, ty, z] = transform;
        return { x: (width / 2 - tx) / z, y: (height / 2 - ty) / z };
      },
      zoomIn: () => void rf.zoomIn({ duration: 120 }),
      zoomOut: () => void rf.zoomOut({ duration: 120 }),
      viewport: () => {
        const [x, y, zoom] = store.getState().transform;
        return { x, y, zoom };
      },
    });
    return () => setCanvasController(null);
  }, [frame, rf, store]);

  // On open: the stored viewport, or fit; and an automatic layout when there is none.
  const opened = useRef<string | null>(null);
  const firstDrawn = useRef<number | null>(null);
  useEffect(() => {
    if (opened.current === view.id) return;
    const ready = () => store.getState().width > 0;
    const go = () => {
      opened.current = view.id;
      const vp = view.layout.viewport;
      const b = boundsOf(basePositions);
      const { width, height, minZoom } = store.getState();
      const start = basePositions[START];
      if (vp && Number.isFinite(vp.zoom) && vp.zoom > 0) void rf.setViewport(vp);
      // Readable from the first frame: fitted when that is at least ~60 %, else 100 % at the entry.
      else if (b) void rf.setViewport(openingView(b, start ? { x: start.x, y: start.y, w: 44, h: 44 } : null, { width, height }, minZoom));
      else fitRef.current();
      updateMode();
      scheduleDraw();
      // Rust lays out a document that came without positions before its first view, so it
      // is drawn once, at its final place; only a backend that did not (the in-memory fake)
      // leaves every node unplaced and gets the automatic layout here.
      const placed = view.spec.nodes.some((n) => view.layout.positions[n.id]);
      const needsLayout = view.spec.nodes.length > 0 && !placed;
      // Ready (`data-ready`, the open-time measurement) once the first real frame is drawn.
      void (needsLayout ? autoLayout(view.id, true) : Promise.resolve())
        .then(() => nextFrames(2))
        .then(() => {
          firstDrawn.current = performance.now();
          ui.set({ readyDoc: view.id });
        });
    };
    if (ready()) go();
    else {
      const unsub = store.subscribe(() => {
        if (ready() && opened.current !== view.id) {
          unsub();
          go();
        }
      });
      return unsub;
    }
  }, [view.id, view.layout, view.spec.nodes, basePositions, rf, store, updateMode, scheduleDraw]);

  // ---- perf hooks -------------------------------------------------------------------------
  useEffect(() => {
    const sampler = new FrameSampler();
    window.__trellisPerf = {
      startSampling: () => sampler.start(),
      stopSampling: () => sampler.stop(),
      nodeCount: () => ui.active()?.spec.nodes.length ?? 0,
      edgeCount: () => ui.active()?.spec.edges.length ?? 0,
      renderMode: () => ui.get().renderMode,
      domNodeCount: () => document.querySelectorAll(".react-flow__node").length,
      drawnNodes: () =>
        ui.get().renderMode === "canvas" ? (renderer.current?.lastDrawn ?? 0) : document.querySelectorAll(".react-flow__node").length,
      lastCanvasDrawMs: () => renderer.current?.lastDrawMs ?? 0,
      overviewNames: () => (ui.get().renderMode === "canvas" ? [...(renderer.current?.drawnNames ?? [])] : []),
      edgePoint: (index: number) => {
        // Client coordinates of the middle of document edge `index` as drawn (for a real click).
        const v = ui.active();
        const e = v?.spec.edges[index];
        const el = wrapper.current;
        const a = e && renderer.current?.positionOf(e.from);
        const b = e && renderer.current?.positionOf(e.to);
        if (!e || !el || !a || !b) return null;
        const [tx, ty, z] = store.getState().transform;
        const box = el.getBoundingClientRect();
        const sa = sizeOf(e.from);
        const sb = sizeOf(e.to);
        const fx = (a.x + sa.w + b.x) / 2;
        const fy = (a.y + sa.h / 2 + b.y + sb.h / 2) / 2;
        return { x: box.left + tx + fx * z, y: box.top + ty + fy * z };
      },
      nodePoint: (id: string) => {
        const el = wrapper.current;
        const p = renderer.current?.positionOf(id);
        if (!el || !p) return null;
        const [tx, ty, z] = store.getState().transform;
        const box = el.getBoundingClientRect();
        const s = sizeOf(id);
        return { x: box.left + tx + (p.x + s.w / 2) * z, y: box.top + ty + (p.y + s.h / 2) * z };
      },
      drawLog: (reset) => {
        const out = drawLog.slice();
        if (reset) drawLog.length = 0;
        return out;
      },
      getViewport: () => rf.getViewport(),
      setViewport: (v) => void rf.setViewport(v),
      fitView: () => fitRef.current(),
      whenIdle: () => nextFrames(2),
      firstDrawnAt: () => firstDrawn.current,
      emptyPoint: () => {
        // A point of the pane (client coordinates) with no node under it, to start a pan.
        const el = wrapper.current;
        const r = renderer.current;
        if (!el || !r) return null;
        const box = el.getBoundingClientRect();
        for (let fy = 0.5; fy < 0.95; fy += 0.037)
          for (let fx = 0.5; fx < 0.95; fx += 0.041) {
            for (const [x, y] of [
              [box.left + box.width * fx, box.top + box.height * fy],
              [box.left + box.width * (1 - fx), box.top + box.height * (1 - fy)],
            ]) {
              const p = rf.screenToFlowPosition({ x, y });
              if (!r.hit(p) && !r.hit({ x: p.x - 30, y: p.y }) && !r.hit({ x: p.x + 30, y: p.y })) return { x, y };
            }
          }
        return null;
      },
    };
  }, [rf]);

  // ---- React Flow events (dom mode) -----------------------------------------------------
  const onNodesChange = useCallback((changes: NodeChange<FlowNode>[]) => {
    let sel: Set<string> | null = null;
    let moved: Record<string, Point> | null = null;
    for (const c of changes) {
      if (c.type === "select") {
        sel ??= new Set(ui.get().selection.nodes);
        if (c.selected) sel.add(c.id);
        else sel.delete(c.id);
      } else if (c.type === "position" && c.position && c.dragging) {
        moved ??= {};
        moved[c.id] = { x: Math.round(c.position.x), y: Math.round(c.position.y) };
      }
    }
    if (sel) ui.select({ nodes: [...sel], edges: ui.get().selection.edges });
    if (moved) {
      const m = moved;
      setDrag((d) => ({ ...(d ?? {}), ...m }));
    }
  }, []);

  const onEdgesChange = useCallback((changes: EdgeChange[]) => {
    let sel: Set<number> | null = null;
    for (const c of changes) {
      if (c.type === "select") {
        sel ??= new Set(ui.get().selection.edges);
        const i = Number(c.id.slice(1));
        if (c.selected) sel.add(i);
        else sel.delete(i);
      }
    }
    if (sel) ui.select({ nodes: ui.get().selection.nodes, edges: [...sel] });
  }, []);

  const onNodeDragStop = useCallback(
    (_e: unknown, _n: unknown, dragged: FlowNode[]) => {
      const d = drag ?? {};
      const moved: Record<string, Point> = {};
      const notes: Record<string, Point> = {};
      for (const n of dragged) {
        const p = d[n.id] ?? { x: Math.round(n.position.x), y: Math.round(n.position.y) };
        const group = groupOfBox(n.id);
        if (group) {
          // A collapsed group's box: its members move with it.
          const from = collapsed?.boxPositions[n.id];
          if (from && (from.x !== p.x || from.y !== p.y)) {
            const m = moveGroups(view, basePositions, [group], p.x - from.x, p.y - from.y);
            Object.assign(moved, m.positions);
            Object.assign(notes, m.notes);
          }
          continue;
        }
        const old = basePositions[n.id];
        if (!old || old.x !== p.x || old.y !== p.y) moved[n.id] = p;
      }
      if (Object.keys(moved).length === 0) return setDrag(null);
      // Dropped into a frame: joins that group; out of its own frame: leaves it.
      const groups = membershipAfterDrag(view, basePositions, moved);
      void edit({ op: "move_nodes", positions: moved, notes, groups }).finally(() => setDrag(null));
    },
    [drag, basePositions, view, collapsed],
  );

  // Rust decides which edges can be stored; a refusal comes back as a toast with its reason.
  const onConnect = useCallback((c: Connection) => void edit({ op: "connect", from: c.source, to: c.target }), []);

  const onDragOver = useCallback((e: React.DragEvent) => {
    if (e.dataTransfer.types.includes(DRAG_MIME) || e.dataTransfer.types.includes("text/plain")) {
      e.preventDefault();
      e.dataTransfer.dropEffect = "copy";
    }
  }, []);
  const onDrop = useCallback(
    (e: React.DragEvent) => {
      const name = e.dataTransfer.getData(DRAG_MIME) || e.dataTransfer.getData("text/plain");
      const t = types.get(name);
      if (!t) return;
      e.preventDefault();
      const p = rf.screenToFlowPosition({ x: e.clientX, y: e.clientY });
      void addNode(t, { x: Math.round(p.x - 100), y: Math.round(p.y - 30) });
    },
    [rf, types],
  );

  // ---- canvas mode interactions ------------------------------------------------------------
  const gesture = useRef<{ kind: "drag" | "box"; start: Point; ids: string[]; moved: boolean } | null>(null);
  const toFlow = useCallback((e: { clientX: number; clientY: number }) => rf.screenToFlowPosition({ x: e.clientX, y: e.clientY }), [rf]);

  const onPointerDownCapture = useCallback(
    (e: React.PointerEvent) => {
      if (ui.get().renderMode !== "canvas" || e.button !== 0) return;
      const target = e.target as HTMLElement;
      if (target.closest(".react-flow__controls, .minimap, .react-flow__panel")) return;
      const r = renderer.current;
      if (!r) return;
      const p = toFlow(e);
      const hit = r.hit(p);
      const sel = ui.get().selection.nodes;
      if (hit) {
        e.stopPropagation();
        e.preventDefault();
        if (e.ctrlKey || e.metaKey) {
          ui.select({ nodes: sel.includes(hit) ? sel.filter((x) => x !== hit) : [...sel, hit], edges: [] });
          return;
        }
        const ids = sel.includes(hit) ? sel : [hit];
        if (!sel.includes(hit)) ui.select({ nodes: [hit], edges: [] });
        gesture.current = { kind: "drag", start: p, ids, moved: false };
      } else if (!e.shiftKey && r.hitEdge(p, store.getState().transform[2]) !== null) {
        // An edge or its label: selected (the inspector shows it), Ctrl toggles.
        e.stopPropagation();
        e.preventDefault();
        const k = r.hitEdge(p, store.getState().transform[2]) as number;
        const cur = ui.get().selection.edges;
        if (e.ctrlKey || e.metaKey) ui.select({ nodes: [], edges: cur.includes(k) ? cur.filter((x) => x !== k) : [...cur, k] });
        else ui.select({ nodes: [], edges: [k] });
        return;
      } else if (e.shiftKey) {
        e.stopPropagation();
        e.preventDefault();
        gesture.current = { kind: "box", start: p, ids: [], moved: false };
      } else return;
      (e.currentTarget as HTMLElement).setPointerCapture(e.pointerId);
    },
    [toFlow],
  );
  const onPointerMove = useCallback(
    (e: React.PointerEvent) => {
      const g = gesture.current;
      const r = renderer.current;
      if (!g || !r) return;
      const p = toFlow(e);
      const dx = p.x - g.start.x;
      const dy = p.y - g.start.y;
      const z = store.getState().transform[2];
      if (!g.moved && Math.hypot(dx, dy) * z < 3) return;
      g.moved = true;
      if (g.kind === "drag") r.setDragOffset(g.ids, dx, dy);
      else r.setBox({ x: Math.min(p.x, g.start.x), y: Math.min(p.y, g.start.y), w: Math.abs(dx), h: Math.abs(dy) });
      scheduleDraw();
    },
    [toFlow, store, scheduleDraw],
  );
  const onPointerUp = useCallback(
    (e: React.PointerEvent) => {
      const g = gesture.current;
      const r = renderer.current;
      gesture.current = null;
      if (!g || !r) return;
      const p = toFlow(e);
      if (g.kind === "box") {
        r.setBox(null);
        if (g.moved) {
          const box = {
            x: Math.min(p.x, g.start.x),
            y: Math.min(p.y, g.start.y),
            w: Math.abs(p.x - g.start.x),
            h: Math.abs(p.y - g.start.y),
          };
          const ids = r.idsIn(box).filter((id) => !groupOfBox(id));
          ui.select({ nodes: [...new Set([...ui.get().selection.nodes, ...ids])], edges: [] });
        }
        scheduleDraw();
        return;
      }
      if (!g.moved) return;
      const dx = Math.round(p.x - g.start.x);
      const dy = Math.round(p.y - g.start.y);
      const moved: Record<string, Point> = {};
      const notes: Record<string, Point> = {};
      for (const id of g.ids) {
        const group = groupOfBox(id);
        if (group) {
          const m = moveGroups(view, basePositions, [group], dx, dy);
          Object.assign(moved, m.positions);
          Object.assign(notes, m.notes);
          continue;
        }
        const q = basePositions[id];
        if (q) moved[id] = { x: q.x + dx, y: q.y + dy };
      }
      const groups = membershipAfterDrag(view, basePositions, moved);
      void edit({ op: "move_nodes", positions: moved, notes, groups }).finally(() => {
        r.setDragOffset(null);
        scheduleDraw();
      });
    },
    [toFlow, basePositions, scheduleDraw, view],
  );
  const onDoubleClick = useCallback(
    (e: React.MouseEvent) => {
      if (ui.get().renderMode !== "canvas") return;
      const hit = renderer.current?.hit(toFlow(e));
      const boxed = hit ? groupOfBox(hit) : null;
      if (boxed) {
        e.stopPropagation();
        void setCollapsed(boxed, false);
        return;
      }
      const p = hit ? basePositions[hit] : null;
      if (hit && isSubgraphNode(view, hit)) {
        e.stopPropagation();
        void openSubgraph(hit);
        return;
      }
      if (hit && p) {
        e.stopPropagation();
        ui.select({ nodes: [hit], edges: [] });
        frame({ x: p.x - 200, y: p.y - 150, w: 600, h: 360 }, 1);
      }
    },
    [toFlow, basePositions, frame, view],
  );

  const dom = mode === "dom";
  return (
    <div
      ref={wrapper}
      className={`canvas-wrap mode-${mode}`}
      data-testid="canvas"
      data-render-mode={mode}
      tabIndex={0}
      role="application"
      aria-roledescription="graph canvas"
      aria-label="Graph canvas. Arrows move between nodes, Ctrl+arrows follow edges, E the edges, Enter inspects (opens a subgraph node; Shift+Enter inspects it), C connects, Alt+arrows move, Delete deletes."
      onDragOver={onDragOver}
      onDrop={onDrop}
      onPointerDownCapture={onPointerDownCapture}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onDoubleClickCapture={onDoubleClick}
    >
      <ReactFlow
        nodes={flowNodes}
        edges={domSubset.edges}
        nodeTypes={nodeTypes}
        edgeTypes={edgeTypes}
        onNodesChange={onNodesChange}
        onEdgesChange={onEdgesChange}
        onNodeDragStop={onNodeDragStop}
        onConnect={onConnect}
        onPaneClick={(e) => {
          // In canvas mode a click on a drawn node reaches the pane too (after its pointerdown
          // selected the node): only a click on empty space clears the selection.
          if (ui.get().renderMode === "canvas" && renderer.current?.hit(toFlow(e))) return;
          if (ui.get().renderMode === "canvas" && renderer.current?.hitEdge(toFlow(e), store.getState().transform[2]) != null) return;
          ui.select({ nodes: [], edges: [] });
        }}
        onMoveEnd={(_e, vp) => {
          // Kept in the layout sidecar by Rust (not an undo step, not dirty).
          const b = ui.get().backend;
          if (b && opened.current === view.id)
            b.setViewport(view.id, { x: Math.round(vp.x), y: Math.round(vp.y), zoom: Math.round(vp.zoom * 1000) / 1000 });
        }}
        onlyRenderVisibleElements
        colorMode={theme}
        minZoom={0.01}
        maxZoom={2.5}
        deleteKeyCode={null}
        selectionKeyCode="Shift"
        multiSelectionKeyCode={["Meta", "Control"]}
        connectionRadius={28}
        elevateEdgesOnSelect={false}
        nodesFocusable={false}
        edgesFocusable={false}
        disableKeyboardA11y
        proOptions={{ hideAttribution: true }}
        defaultEdgeOptions={{ markerEnd: { type: "arrowclosed" as never, width: 16, height: 16 } }}
      >
        {dom && showGrid && <Background variant={BackgroundVariant.Dots} gap={24} size={1} />}
        {/* Zoomed out, the overview canvas draws the frames and notes into its bitmap. */}
        {dom && <AnnotationLayer view={view} positions={basePositions} window={win} />}
        <Controls showFitView={false} showInteractive={false} position="bottom-left">
          <ControlButton onClick={() => fitRef.current()} title="Fit the graph (F)" aria-label="fit view" data-testid="fit-view">
            ⤢
          </ControlButton>
        </Controls>
      </ReactFlow>
      <canvas ref={overlay} className="overview" data-testid="overview-canvas" style={{ display: dom ? "none" : "block" }} />
      <CanvasOverlays view={view} positions={basePositions} />
      <CompareOverlay docId={view.id} positions={basePositions} />
      <MiniMap positions={miniPositions} colorOf={colorById} />
    </div>
  );
}
