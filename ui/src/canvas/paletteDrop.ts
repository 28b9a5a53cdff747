// Dropping a type from the registry panel onto the canvas adds a node of it there (Rust gives
// it its id). The panel puts the type name in the drag data under `DRAG_MIME`.
import { useCallback } from "react";
import type { useReactFlow } from "@xyflow/react";
import type { TypeInfo } from "../bindings";
import { addNode } from "../actions";

export const DRAG_MIME = "application/x-trellis-type";

export function usePaletteDrop(rf: ReturnType<typeof useReactFlow>, types: Map<string, TypeInfo>) {
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
  return { onDragOver, onDrop };
}
