// The settings kept between runs (src-tauri/src/settings.rs): the theme and the widths of the
// resizable panes. Read once when the window starts (with the notices of a settings file that
// could not be read); every change is sent back, a pane's width when its drag ends. Only in the
// app: the browser build (fake backend) keeps nothing and starts with the defaults.
import { create } from "zustand";
import { applyTheme } from "../actions";
import { errorMessage } from "../api/types";
import type { Diagnostic } from "../bindings/Diagnostic";
import type { Settings } from "../bindings/Settings";
import type { SettingsAnswer } from "../bindings/SettingsAnswer";
import { ui, useUi } from "../store";

type Invoke = <T>(cmd: string, args?: Record<string, unknown>) => Promise<T>;

type Kept = {
  /** Pane widths in CSS pixels by pane name, as kept (a pane not here has its default). */
  splits: Record<string, number>;
  /** What the start has to say about the settings file (set aside, unreadable). */
  notices: Diagnostic[];
};

export const useKept = create<Kept>(() => ({ splits: {}, notices: [] }));

let invoke: Invoke | null = null;
let stopWatching: (() => void) | null = null;
/** Which start is current: a load that a stop overtook applies nothing. */
let generation = 0;

/** Reads the kept settings and applies them; from then on a theme change is kept too. */
export async function loadKeptSettings() {
  const mine = ++generation;
  const core = await import("@tauri-apps/api/core");
  const answer = await core.invoke<SettingsAnswer>("load_settings");
  if (mine !== generation) return;
  invoke = core.invoke;
  const splits: Record<string, number> = {};
  for (const [name, width] of Object.entries(answer.settings.splits)) if (typeof width === "number") splits[name] = width;
  useKept.setState({ splits, notices: answer.notices });
  ui.set({ theme: answer.settings.theme });
  applyTheme(answer.settings.theme);
  stopWatching?.();
  stopWatching = useUi.subscribe((s, prev) => {
    if (s.theme !== prev.theme) void keep();
  });
}

/** Stops keeping changes (the window's UI is going away). */
export function stopKeptSettings() {
  generation++;
  stopWatching?.();
  stopWatching = null;
  invoke = null;
}

function current(): Settings {
  return { theme: ui.get().theme, splits: useKept.getState().splits };
}

async function keep() {
  if (!invoke) return;
  try {
    await invoke("save_settings", { settings: current() });
  } catch (err) {
    ui.toast("error", `The settings could not be saved: ${errorMessage(err)}`);
  }
}

/** Sets a pane's width; `keep` when the change is done (the drag ended, a key moved it). */
export function setSplit(pane: string, width: number, keep_: boolean) {
  useKept.setState((s) => ({ splits: { ...s.splits, [pane]: Math.round(width) } }));
  if (keep_) void keep();
}

export function dismissSettingsNotice(index: number) {
  useKept.setState((s) => ({ notices: s.notices.filter((_, i) => i !== index) }));
}
