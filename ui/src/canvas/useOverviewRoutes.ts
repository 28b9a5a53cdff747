// The routes Rust gave the edges (`DocumentView.routes`) to the overview canvas: it draws the
// edges along them and paints again where they changed.
import { type MutableRefObject, useEffect } from "react";
import type { DocumentView } from "../bindings";
import type { OverviewRenderer } from "./overview";

export function useOverviewRoutes(view: DocumentView, renderer: MutableRefObject<OverviewRenderer | null>, scheduleDraw: () => void) {
  useEffect(() => {
    renderer.current?.setRoutes(view);
    scheduleDraw();
    // The routes and the edges drawn for the reader only are what it reads.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [view.routes, view.extraEdges, renderer, scheduleDraw]);
}
