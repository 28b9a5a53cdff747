// What the canvas derives from the document view and the selection, once per change: the
// types by name, where every node is drawn, the problems per element, the collapsed groups,
// and each node's category colour (by type).
import { useMemo } from "react";
import type { DocumentView, NodeSpec, TypeInfo } from "../bindings";
import { categoryColor } from "../lib/colors";
import { resolvePositions } from "../lib/geometry";
import { useUi } from "../store";
import { timed, traceMark } from "../perf/editTrace";
import { problemsOf } from "./buildFlow";
import { collapsedOf } from "../annotations/collapsedCanvas";

/** The colour of an id that is no node of the document. */
const NO_NODE = "#475569";

export type CanvasData = ReturnType<typeof useCanvasData>;

export function useCanvasData(view: DocumentView) {
  const selection = useUi((s) => s.selection);
  const types = useMemo(() => new Map<string, TypeInfo>(view.registry.map((t) => [t.type, t])), [view.registry]);
  const basePositions = useMemo(
    () => timed("positions", () => resolvePositions(view.spec, view.layout.positions)),
    [view.spec, view.layout.positions],
  );
  const problems = useMemo(() => problemsOf(view.diagnostics), [view.diagnostics]);
  // Collapsed groups: their boxes stand for the members.
  const collapsed = useMemo(() => timed("collapsed", () => collapsedOf(view, basePositions)), [view, basePositions]);
  const selNodes = useMemo(() => new Set(selection.nodes), [selection.nodes]);
  const selEdges = useMemo(() => new Set(selection.edges), [selection.edges]);
  // A node's category colour, one per type, worked out when first asked (the scene asks per
  // node it builds: every node for a full build, a handful for an edit's patch).
  const nodeColor = useMemo(() => {
    const byType = new Map<string, string>();
    const none = categoryColor(undefined);
    return (n: NodeSpec | undefined) => {
      if (!n) return NO_NODE;
      if (!n.type) return none;
      let c = byType.get(n.type);
      if (c === undefined) byType.set(n.type, (c = categoryColor(types.get(n.type)?.category)));
      return c;
    };
  }, [types]);
  traceMark("data");
  return { selection, types, basePositions, problems, collapsed, selNodes, selEdges, nodeColor };
}
