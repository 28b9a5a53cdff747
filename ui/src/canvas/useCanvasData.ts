// What the canvas derives from the document view and the selection, once per change: the
// types by name, where every node is drawn, the problems per element, the collapsed groups,
// and each node's category colour.
import { useMemo } from "react";
import type { DocumentView, TypeInfo } from "../bindings";
import { categoryColor } from "../lib/colors";
import { resolvePositions } from "../lib/geometry";
import { useUi } from "../store";
import { timed, traceMark } from "../perf/editTrace";
import { problemsOf } from "./buildFlow";
import { collapsedOf } from "../annotations/collapsedCanvas";

export type CanvasData = ReturnType<typeof useCanvasData>;

export function useCanvasData(view: DocumentView) {
  const selection = useUi((s) => s.selection);
  const types = useMemo(() => new Map<string, TypeInfo>(view.registry.map((t) => [t.type, t])), [view.registry]);
  const basePositions = useMemo(
    () => timed("positions", () => resolvePositions(view.spec, view.layout.positions)),
    [view.spec, view.layout.positions],
  );
  const problems = useMemo(() => problemsOf(view.diagnostics), [view.diagnostics]);
  // Collapsed groups: their boxes stand for the members (issue 16).
  const collapsed = useMemo(() => timed("collapsed", () => collapsedOf(view, basePositions)), [view, basePositions]);
  const selNodes = useMemo(() => new Set(selection.nodes), [selection.nodes]);
  const selEdges = useMemo(() => new Set(selection.edges), [selection.edges]);
  const colorById = useMemo(
    () =>
      timed("colors", () => {
        // One colour per type, worked out once, not per node.
        const byType = new Map<string, string>();
        const none = categoryColor(undefined);
        const m = new Map<string, string>();
        for (const n of view.spec.nodes) {
          let c = n.type ? byType.get(n.type) : none;
          if (c === undefined && n.type) byType.set(n.type, (c = categoryColor(types.get(n.type)?.category)));
          m.set(n.id, c ?? none);
        }
        return (id: string) => m.get(id) ?? "#475569";
      }),
    [view.spec.nodes, types],
  );
  traceMark("data");
  return { selection, types, basePositions, problems, collapsed, selNodes, selEdges, colorById };
}
