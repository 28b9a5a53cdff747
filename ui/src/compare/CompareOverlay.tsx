// The compare view's marks on the canvas, drawn over both drawings (React Flow's DOM nodes and
// the overview bitmap) from the viewport transform, as the find outlines are: added nodes and
// edges green, changed amber, removed ones red, a removed node as a ghost at the place the
// other version had it. The marks are Rust's (CompareView.nodes / edges / ghosts); this only
// draws them. Nothing is drawn when no compare view is open: the canvas is the normal one.
import { useStore } from "@xyflow/react";
import type { Point } from "../bindings";
import { sizeOf } from "../lib/geometry";
import { useCompare } from "./compareState";

export function CompareOverlay({ docId, positions }: { docId: string; positions: Record<string, Point> }) {
  const cmp = useCompare((s) => (s.docId === docId ? s.view : null));
  const selected = useCompare((s) => s.selected);
  const [tx, ty, z] = useStore((s) => s.transform);
  const width = useStore((s) => s.width);
  const height = useStore((s) => s.height);
  if (!cmp) return null;

  const ghostAt: Record<string, Point> = {};
  for (const g of cmp.ghosts) ghostAt[g.id] = g.position;
  const at = (id: string) => positions[id] ?? ghostAt[id];
  const box = (p: Point, id: string) => {
    const s = sizeOf(id);
    return { x: p.x * z + tx, y: p.y * z + ty, w: s.w * z, h: s.h * z };
  };

  return (
    <svg className="compare-overlay" data-testid="compare-overlay" aria-hidden width={width} height={height}>
      {cmp.edges.map((e) => {
        const a = at(e.from);
        const b = at(e.to);
        if (!a || !b) return null;
        const ra = box(a, e.from);
        const rb = box(b, e.to);
        return (
          <line
            key={`${e.change}|${e.from}|${e.to}`}
            className={`compare-edge kind-${e.kind}${selected === e.change ? " selected" : ""}`}
            data-testid="compare-edge-mark"
            data-kind={e.kind}
            data-from={e.from}
            data-to={e.to}
            x1={ra.x + ra.w / 2}
            y1={ra.y + ra.h}
            x2={rb.x + rb.w / 2}
            y2={rb.y}
          />
        );
      })}
      {cmp.ghosts.map((g) => {
        const r = box(g.position, g.id);
        return (
          <g key={`ghost|${g.id}`} className="compare-ghost" data-testid="compare-ghost" data-id={g.id}>
            <rect x={r.x} y={r.y} width={r.w} height={r.h} rx={8} />
            <text x={r.x + 10} y={r.y + Math.min(22, r.h / 2 + 5)} fontSize={Math.max(9, 13 * z)}>
              {g.id}
            </text>
            {g.type_name && z > 0.5 && (
              <text x={r.x + 10} y={r.y + 40 * z} fontSize={Math.max(8, 11 * z)} className="compare-ghost-type">
                {g.type_name}
              </text>
            )}
          </g>
        );
      })}
      {cmp.nodes
        .filter((n) => n.kind !== "removed")
        .map((n) => {
          const p = positions[n.id];
          if (!p) return null;
          const r = box(p, n.id);
          return (
            <rect
              key={`mark|${n.id}`}
              className={`compare-node kind-${n.kind}${selected === n.change ? " selected" : ""}`}
              data-testid="compare-node-mark"
              data-kind={n.kind}
              data-id={n.id}
              x={r.x - 4}
              y={r.y - 4}
              width={r.w + 8}
              height={r.h + 8}
              rx={9}
            />
          );
        })}
    </svg>
  );
}
