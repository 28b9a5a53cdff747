// The text pane's UI state: whether it is shown and how wide (one setting for the app, kept
// in the webview's storage), and what the pane of the active document says (its status line).
import { create } from "zustand";
import type { Diagnostic } from "../bindings";

const KEY = "trellis.textPane";
export const MIN_WIDTH = 260;
const DEFAULT_WIDTH = 520;

type Stored = { open: boolean; width: number };

function load(): Stored {
  try {
    const raw = globalThis.localStorage?.getItem(KEY);
    const v = raw ? (JSON.parse(raw) as Partial<Stored>) : {};
    const width = typeof v.width === "number" && Number.isFinite(v.width) ? Math.max(MIN_WIDTH, v.width) : DEFAULT_WIDTH;
    return { open: v.open === true, width };
  } catch {
    return { open: false, width: DEFAULT_WIDTH };
  }
}

function store(s: Stored) {
  try {
    globalThis.localStorage?.setItem(KEY, JSON.stringify(s));
  } catch {
    /* storage off: the setting lasts this run only */
  }
}

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

export type TextPaneState = Stored & PaneStatus;

export const useTextPane = create<TextPaneState>(() => ({
  ...load(),
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
    store({ open: next, width: useTextPane.getState().width });
  },
  resize(width: number) {
    const w = Math.max(MIN_WIDTH, Math.round(width));
    useTextPane.setState({ width: w });
    store({ open: useTextPane.getState().open, width: w });
  },
};
