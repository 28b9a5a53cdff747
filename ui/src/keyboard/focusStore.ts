// Where the keyboard focus is on the canvas (a node or an edge, or nowhere) and whether a
// connection is being made from it: written by the keyboard's navigation, read by the commands
// that act on "the focused node" (open a subgraph, connect) and by the overlays that draw it.
import { create } from "zustand";
import type { Focus } from "./focusModel";

export const useFocus = create<{ focus: Focus; connecting: boolean }>(() => ({ focus: null, connecting: false }));
