// A run on the canvas, over both drawings (React Flow's DOM nodes and the overview bitmap), from
// the viewport transform, as the compare marks are. What is drawn is Rust's (RunView.overlay,
// the comparison's edges, a folder's aggregate); this only paints it:
// - a <canvas> for the bulk: taken edges (thicker with more traversals), visited nodes outlined
//   by how they ended, nodes the run never reached dimmed, ghosts of nodes the document lacks;
//   a second run's edges in the second colour; a folder's edges as a heat map, dead ones dashed;
// - an <svg> for what is read and tested: visit counts, edge counts, ghost names and the current
//   step's ring, only for what is in view.
// The current step's node is kept in the middle of the view as the user steps.
import { useEffect, useMemo, useRef } from "react";
import { useReactFlow, useStore } from "@xyflow/react";
import type { Point, RunView } from "../bindings";
import { sizeOf } from "../lib/geometry";
import { nodeOfStep, useRuns } from "./runState";

/** Labels drawn at most (the rest are on the canvas layer only). */
const MAX_LABELS = 300;
const COLORS = {
  path: "#2563eb",
  second: "#ea580c",
  both: "#7c3aed",
  error: "#dc2626",
  interrupted: "#d97706",
  ghost: "#64748b",
  dead: "#dc2626",
};

type Seg = { from: string; to: string; count: number; color: string; dashed?: boolean; width?: number };

function clip(a: Point, b: Point, half: { w: number; h: number }): Point {
  // Where the segment from a's centre towards b leaves a's box.
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  if (!dx && !dy) return a;
  const t = Math.min(dx ? half.w / Math.abs(dx) : Infinity, dy ? half.h / Math.abs(dy) : Infinity);
  return { x: a.x + dx * Math.min(1, t), y: a.y + dy * Math.min(1, t) };
}

export function RunOverlay({ docId, positions }: { docId: string; positions: Record<string, Point> }) {
  const view = useRuns((s) => (s.docId === docId ? s.view : null));
  const current = useRuns((s) => s.current);
  const compare = useRuns((s) => (s.docId === docId ? s.compare : null));
  const folder = useRuns((s) => (s.folder?.docId === docId ? s.folder.view : null));
  const [tx, ty, z] = useStore((s) => s.transform);
  const width = useStore((s) => s.width);
  const height = useStore((s) => s.height);
  const rf = useReactFlow();
  const canvasRef = useRef<HTMLCanvasElement>(null);

  const at = useMemo(() => {
    const all: Record<string, Point> = { ...positions };
    for (const g of view?.ghosts ?? []) all[g.id] ??= g.position;
    for (const g of compare?.other.ghosts ?? []) all[g.id] ??= g.position;
    return all;
  }, [positions, view, compare]);

  const segs = useMemo<Seg[]>(() => {
    if (folder) {
      const max = Math.max(1, ...folder.aggregate.edges.map((e) => e.count));
      const heat = folder.aggregate.edges.map((e) => {
        const t = e.count / max;
        return { from: e.from, to: e.to, count: e.count, color: `hsl(${Math.round(210 - 210 * t)} 85% 48%)`, width: 2 + 8 * t };
      });
      const dead = folder.aggregate.dead.map((e) => ({ from: e.from, to: e.to, count: 0, color: COLORS.dead, dashed: true, width: 2 }));
      return [...heat, ...dead];
    }
    if (!view) return [];
    if (compare) {
      const c = compare.comparison;
      const count = (v: RunView, f: string, t: string) => v.overlay.edges.find((e) => e.from === f && e.to === t)?.count ?? 1;
      return [
        ...c.both.map((e) => ({ ...e, count: count(view, e.from, e.to), color: COLORS.both })),
        ...c.only_a.map((e) => ({ ...e, count: count(view, e.from, e.to), color: COLORS.path })),
        ...c.only_b.map((e) => ({ ...e, count: count(compare.other, e.from, e.to), color: COLORS.second })),
      ];
    }
    return view.overlay.edges.map((e) => ({ from: e.from, to: e.to, count: e.count, color: COLORS.path, dashed: !e.in_graph }));
  }, [view, compare, folder]);

  const currentNode = view && current >= 0 ? nodeOfStep(view, current) : null;
  const incoming = useMemo(() => {
    if (!view || current < 0) return new Set<number>();
    return new Set(view.overlay.incoming[current] ?? []);
  }, [view, current]);

  // Keep the current step's node in the middle of the view.
  useEffect(() => {
    if (!currentNode) return;
    const p = at[currentNode];
    if (!p) return;
    const s = sizeOf(currentNode);
    const { zoom } = rf.getViewport();
    void rf.setCenter(p.x + s.w / 2, p.y + s.h / 2, { zoom, duration: 0 });
  }, [currentNode, at, rf]);

  // While a run is shown, the graph's own edges step back (the run's are drawn over them).
  const shownNow = !!view || !!folder;
  useEffect(() => {
    const wrap = canvasRef.current?.closest(".canvas-wrap");
    wrap?.classList.toggle("run-open", shownNow);
    return () => wrap?.classList.remove("run-open");
  }, [shownNow]);

  // The canvas layer.
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const dpr = window.devicePixelRatio || 1;
    canvas.width = Math.round(width * dpr);
    canvas.height = Math.round(height * dpr);
    const ctx = canvas.getContext("2d");
    if (!ctx) return;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, width, height);
    if (!view && !folder) return;
    const bg = getComputedStyle(canvas).getPropertyValue("--run-dim").trim() || "rgba(241,245,249,0.72)";
    const inView = (p: Point, s: { w: number; h: number }) => {
      const x = p.x * z + tx;
      const y = p.y * z + ty;
      return x + s.w * z >= -50 && y + s.h * z >= -50 && x <= width + 50 && y <= height + 50;
    };
    const box = (id: string) => {
      const p = at[id];
      if (!p) return null;
      const s = sizeOf(id);
      return { x: p.x * z + tx, y: p.y * z + ty, w: s.w * z, h: s.h * z, p, s };
    };
    // Nodes the run never reached, dimmed.
    const unvisited = folder ? folder.aggregate.unvisited : (view?.overlay.unvisited ?? []);
    ctx.fillStyle = bg;
    for (const id of unvisited) {
      const b = box(id);
      if (b && inView(b.p, b.s)) ctx.fillRect(b.x - 2, b.y - 2, b.w + 4, b.h + 4);
    }
    // Edges.
    for (const [k, e] of segs.entries()) {
      const a = box(e.from);
      const b = box(e.to);
      if (!a || !b || (!inView(a.p, a.s) && !inView(b.p, b.s))) continue;
      const ca = { x: a.x + a.w / 2, y: a.y + a.h / 2 };
      const cb = { x: b.x + b.w / 2, y: b.y + b.h / 2 };
      const p1 = clip(ca, cb, { w: a.w / 2, h: a.h / 2 });
      const p2 = clip(cb, ca, { w: b.w / 2, h: b.h / 2 });
      const lit = !compare && !folder && incoming.has(k);
      ctx.strokeStyle = e.color;
      ctx.globalAlpha = lit ? 1 : 0.8;
      ctx.lineWidth = Math.max(1, (e.width ?? Math.min(9, 2 + Math.log2(e.count))) * Math.min(1, Math.max(0.4, z)) * (lit ? 1.6 : 1));
      ctx.setLineDash(e.dashed ? [6, 5] : []);
      ctx.beginPath();
      ctx.moveTo(p1.x, p1.y);
      ctx.lineTo(p2.x, p2.y);
      ctx.stroke();
      // An arrow head at the target.
      const ang = Math.atan2(p2.y - p1.y, p2.x - p1.x);
      const hl = 6 + ctx.lineWidth * 1.5;
      ctx.setLineDash([]);
      ctx.fillStyle = e.color;
      ctx.beginPath();
      ctx.moveTo(p2.x, p2.y);
      ctx.lineTo(p2.x - hl * Math.cos(ang - 0.45), p2.y - hl * Math.sin(ang - 0.45));
      ctx.lineTo(p2.x - hl * Math.cos(ang + 0.45), p2.y - hl * Math.sin(ang + 0.45));
      ctx.closePath();
      ctx.fill();
    }
    ctx.globalAlpha = 1;
    ctx.setLineDash([]);
    // Visited nodes outlined by how they ended; ghosts as dashed boxes.
    const visits = folder ? [] : (view?.overlay.nodes ?? []);
    for (const n of visits) {
      const b = box(n.id);
      if (!b || !inView(b.p, b.s)) continue;
      ctx.lineWidth = 3;
      ctx.strokeStyle = n.errors ? COLORS.error : n.interrupted ? COLORS.interrupted : n.ghost ? COLORS.ghost : COLORS.path;
      ctx.setLineDash(n.ghost ? [5, 4] : []);
      if (n.ghost) {
        ctx.fillStyle = "rgba(148,163,184,0.18)";
        ctx.fillRect(b.x, b.y, b.w, b.h);
      }
      ctx.strokeRect(b.x - 3, b.y - 3, b.w + 6, b.h + 6);
    }
    for (const n of compare?.other.overlay.nodes ?? []) {
      const b = box(n.id);
      if (!b || !inView(b.p, b.s)) continue;
      ctx.lineWidth = 2;
      ctx.setLineDash([4, 3]);
      ctx.strokeStyle = COLORS.second;
      ctx.strokeRect(b.x - 7, b.y - 7, b.w + 14, b.h + 14);
    }
    ctx.setLineDash([]);
  }, [view, folder, compare, segs, at, tx, ty, z, width, height, incoming]);

  if (!view && !folder) return null;
  // Labels for what is in view, as many as can be read.
  const visible = (id: string) => {
    const p = at[id];
    if (!p) return null;
    const s = sizeOf(id);
    const x = p.x * z + tx;
    const y = p.y * z + ty;
    if (x + s.w * z < 0 || y + s.h * z < 0 || x > width || y > height) return null;
    return { x, y, w: s.w * z, h: s.h * z };
  };
  const labels = z >= 0.3;
  const nodeBadges =
    labels && view && !folder
      ? view.overlay.nodes
          .map((n) => ({ n, r: visible(n.id) }))
          .filter((x) => x.r)
          .slice(0, MAX_LABELS)
      : [];
  const edgeBadges = labels
    ? segs
        .map((e) => {
          const a = visible(e.from) ?? (at[e.from] ? { x: at[e.from].x * z + tx, y: at[e.from].y * z + ty, w: 0, h: 0 } : null);
          const b = visible(e.to) ?? (at[e.to] ? { x: at[e.to].x * z + tx, y: at[e.to].y * z + ty, w: 0, h: 0 } : null);
          if (!a || !b || (!visible(e.from) && !visible(e.to))) return null;
          return { e, x: (a.x + a.w / 2 + b.x + b.w / 2) / 2, y: (a.y + a.h / 2 + b.y + b.h / 2) / 2 };
        })
        .filter((x): x is NonNullable<typeof x> => !!x)
        .slice(0, MAX_LABELS)
    : [];
  const ring = currentNode ? visible(currentNode) : null;
  const ghosts = [...(view?.ghosts ?? []), ...(compare?.other.ghosts ?? [])];
  return (
    <>
      <canvas ref={canvasRef} className="run-canvas" data-testid="run-canvas" style={{ width, height }} aria-hidden />
      <svg className="run-overlay" data-testid="run-overlay" aria-hidden width={width} height={height}>
        {edgeBadges.map(({ e, x, y }) => (
          <g
            key={`e|${e.from}|${e.to}|${e.color}`}
            data-testid={e.dashed && folder ? "run-dead-edge" : "run-edge"}
            data-from={e.from}
            data-to={e.to}
            data-count={e.count}
            data-color={e.color === COLORS.second ? "b" : e.color === COLORS.both ? "both" : "a"}
          >
            {e.count > 0 && (
              <>
                <rect x={x - 13} y={y - 9} width={26} height={18} rx={9} className="run-edge-count" />
                <text x={x} y={y + 4} textAnchor="middle" className="run-count-text">
                  {e.count}
                </text>
              </>
            )}
          </g>
        ))}
        {ghosts.map((g) => {
          const r = visible(g.id);
          if (!r) return null;
          return (
            <g key={`g|${g.id}`} data-testid="run-ghost" data-id={g.id}>
              <text x={r.x + 10} y={r.y + Math.min(24, r.h / 2 + 5)} className="run-ghost-text" fontSize={Math.max(9, 13 * z)}>
                {g.id}
              </text>
              {z > 0.5 && (
                <text x={r.x + 10} y={r.y + 44 * z} className="run-ghost-note" fontSize={Math.max(8, 10 * z)}>
                  not in this document
                </text>
              )}
            </g>
          );
        })}
        {nodeBadges.map(({ n, r }) =>
          r ? (
            <g
              key={`n|${n.id}`}
              data-testid="run-visit"
              data-id={n.id}
              data-visits={n.visits}
              data-errors={n.errors}
              data-interrupted={String(n.interrupted)}
              data-ghost={String(n.ghost)}
            >
              <rect
                x={r.x + r.w - 22}
                y={r.y - 11}
                width={34}
                height={20}
                rx={10}
                className={`run-badge${n.errors ? " error" : n.interrupted ? " interrupted" : ""}`}
              />
              <text x={r.x + r.w - 5} y={r.y + 3} textAnchor="middle" className="run-badge-text">
                {n.errors ? `!${n.visits}` : `×${n.visits}`}
              </text>
            </g>
          ) : null,
        )}
        {ring && (
          <rect
            data-testid="run-current"
            data-id={currentNode ?? ""}
            className="run-current"
            x={ring.x - 8}
            y={ring.y - 8}
            width={ring.w + 16}
            height={ring.h + 16}
            rx={12}
          />
        )}
      </svg>
    </>
  );
}
