// Outlines of the find bar's matches, drawn over both drawings of the canvas (React Flow's DOM
// nodes and the overview bitmap) from the viewport transform: only the matches in view, so a
// query that matches 100,000 nodes draws no more than the screen holds.
import { useMemo } from "react";
import type { Point } from "../bindings";
import { sizeOf } from "../lib/geometry";
import { activeIndex, useFind } from "./findState";

const MAX_DRAWN = 3000;

export type Transform = { tx: number; ty: number; z: number; width: number; height: number };

export function FindHighlights({ positions, t }: { positions: Record<string, Point>; t: Transform }) {
  const hits = useFind((s) => s.hits);
  const open = useFind((s) => s.open);
  const { tx, ty, z, width, height } = t;

  const rects = useMemo(() => {
    // The index of a large document costs a pass over it: built only when there are matches.
    if (!open || !hits.length) return [];
    const index = activeIndex();
    if (!index) return [];
    const vx = -tx / z;
    const vy = -ty / z;
    const vw = width / z;
    const vh = height / z;
    const out: { id: string; x: number; y: number; w: number; h: number }[] = [];
    const seen = new Set<string>();
    for (const i of hits) {
      for (const id of index.items[i].nodes) {
        const p = positions[id];
        if (!p || seen.has(id)) continue;
        const s = sizeOf(id);
        if (p.x > vx + vw || p.x + s.w < vx || p.y > vy + vh || p.y + s.h < vy) continue;
        seen.add(id);
        out.push({ id, x: p.x * z + tx, y: p.y * z + ty, w: s.w * z, h: s.h * z });
      }
      if (out.length >= MAX_DRAWN) break;
    }
    return out;
  }, [open, hits, positions, tx, ty, z, width, height]);

  if (!rects.length) return null;
  return (
    <svg className="find-highlights" data-testid="find-highlights" data-count={rects.length} aria-hidden width={width} height={height}>
      {rects.map((r) => (
        <rect key={r.id} x={r.x - 3} y={r.y - 3} width={r.w + 6} height={r.h + 6} rx={8} />
      ))}
    </svg>
  );
}
