// React Flow's change events in the DOM drawing, turned into the app's state: selecting and
// deselecting nodes and edges (the store holds the selection, React Flow only reports it), the
// positions of a drag in progress, and a new connection, which Rust accepts or refuses (a
// refusal comes back as a toast with its reason).
import { useCallback } from "react";
import type { Connection, EdgeChange, NodeChange } from "@xyflow/react";
import type { Point } from "../bindings";
import { edit } from "../actions";
import { ui } from "../store";
import type { FlowNode } from "./buildFlow";

export function useFlowChanges(dragged: (moved: Record<string, Point>) => void) {
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
    if (moved) dragged(moved);
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

  const onConnect = useCallback((c: Connection) => void edit({ op: "connect", from: c.source, to: c.target }), []);

  return { onNodesChange, onEdgesChange, onConnect };
}
