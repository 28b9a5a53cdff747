// The text pane's UI state: whether it is shown and how wide (for this run of the app: the
// kept settings live in Rust, `src-tauri/src/settings.rs`, and the pane is not among them yet),
// and what the pane of the active document says (its status line).
import { create } from "zustand";
import type { Diagnostic } from "../bindings";

export const MIN_WIDTH = 260;
const DEFAULT_WIDTH = 520;

type Shown = { open: boolean; width: number };

/** What the pane's status line says. */
export type PaneStatus = {
  /** The document whose text is shown. */
  docId: string | null;
  /** "loading", "synced", "typing" (changes not yet read), or "behind" (the text does not read). */
  state: "loading" | "synced" | "typing" | "behind";
  /** Why the pane is read-only, if it is. */
  readOnly: string | null;
  /** A message said once (a save reformatted the text). */
  notice: string | null;
  /** Why the pane could not open. */
  failed: string | null;
  /** Where a problem of the document is in the pane now ("line:column"), for the problems
   * panel to say the same place; `tick` moves when the places may have moved. */
  locate: ((d: Diagnostic) => string | undefined) | null;
  tick: number;
  /** How many problems have a place in the text, when more than are underlined. */
  overLimit: number | null;
};

export type TextPaneState = Shown & PaneStatus;

export const useTextPane = create<TextPaneState>(() => ({
  open: false,
  width: DEFAULT_WIDTH,
  docId: null,
  state: "loading",
  readOnly: null,
  notice: null,
  failed: null,
  locate: null,
  tick: 0,
  overLimit: null,
}));

export const textPane = {
  get: useTextPane.getState,
  set: useTextPane.setState,
  toggle(open?: boolean) {
    const next = open ?? !useTextPane.getState().open;
    useTextPane.setState({ open: next });
  },
  resize(width: number) {
    const w = Math.max(MIN_WIDTH, Math.round(width));
    useTextPane.setState({ width: w });
  },
};
