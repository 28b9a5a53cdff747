// The run beside the active document, as the UI holds it: what Rust answered (src-tauri/src/
// runs.rs over trellis-runs), never computed here. The overlay, the step table and the figures
// come once when a run opens; moving through the steps is local (the current index), and the
// inspector asks Rust for that one step's detail (its state after, rebuilt there).
import { create } from "zustand";
import type { RunCompareView, RunFolderView, RunView, SavedRun, StepDetail } from "../bindings";
import { registerAction } from "../actions";
import { errorMessage } from "../api/types";
import { ui } from "../store";

export type RunUi = {
  /** The document the run belongs to. */
  docId: string | null;
  view: RunView | null;
  /** The step shown (index into the step table). */
  current: number;
  detail: StepDetail | null;
  /** A second run drawn in the second colour, and where the two part. */
  compare: RunCompareView | null;
  /** A folder of runs as a heat map (instead of one run). */
  folder: { docId: string; view: RunFolderView } | null;
  /** The simulator's panel: open, and the nodes it stops at. */
  simOpen: boolean;
  breakpoints: string[];
  busy: boolean;
};

export const useRuns = create<RunUi>(() => ({
  docId: null,
  view: null,
  current: 0,
  detail: null,
  compare: null,
  folder: null,
  simOpen: false,
  breakpoints: [],
  busy: false,
}));

async function invoke<T>(cmd: string, args: Record<string, unknown>): Promise<T> {
  if (ui.get().backend?.kind !== "tauri") throw new Error("Runs are opened in the desktop app.");
  const { invoke } = await import("@tauri-apps/api/core");
  return invoke<T>(cmd, args);
}

/** The run of `docId`, when it is the one shown. */
export function runOf(docId: string | null | undefined): RunView | null {
  const s = useRuns.getState();
  return docId && s.docId === docId ? s.view : null;
}

/** The first step on the graph's path (a node's, not the input), else the first. */
function firstStep(view: RunView): number {
  return Math.max(0, view.steps.kinds.indexOf("n"));
}

function shown(docId: string, view: RunView | null, at?: number) {
  if (!view) return;
  useRuns.setState({ docId, view, compare: null, folder: null, detail: null, current: -1 });
  for (const n of view.notices) {
    if (n.severity !== "info" || n.code === "runs/many-runs")
      ui.toast(n.severity === "error" ? "error" : n.severity === "warning" ? "warning" : "info", n.message, 8000);
  }
  void stepTo(at ?? firstStep(view));
}

function failed(err: unknown) {
  ui.toast("error", errorMessage(err));
}

/** File > Open Run…: a run record beside the active document. */
export async function openRun() {
  const id = ui.get().activeId;
  if (!id) return ui.toast("info", "Open the graph the run ran first, then the run.");
  useRuns.setState({ busy: true });
  try {
    shown(id, await invoke<RunView | null>("run_open_dialog", { docId: id }));
  } catch (err) {
    failed(err);
  } finally {
    useRuns.setState({ busy: false });
  }
}

/** Asks Rust for the run beside `docId` (after an edit, or when one was opened by a drop or
 * the command line). Keeps the current step when the run is the same. */
export async function refreshRun(docId: string) {
  try {
    const view = await invoke<RunView | null>("run_view", { docId });
    const s = useRuns.getState();
    if (!view) {
      if (s.docId === docId) useRuns.setState({ docId: null, view: null, detail: null, compare: null });
      return;
    }
    const same = s.docId === docId && s.view?.id === view.id && s.view?.title === view.title;
    if (same) {
      useRuns.setState({ view });
      void stepTo(s.current, true);
    } else shown(docId, view);
  } catch (err) {
    failed(err);
  }
}

let asked = 0;
/** Moves to step `i` (clamped): the canvas and the timeline follow at once; the inspector's
 * detail arrives from Rust. */
export async function stepTo(i: number, force = false) {
  const { view, docId, current } = useRuns.getState();
  if (!view || !docId) return;
  const n = view.steps.label.length;
  if (!n) return;
  const at = Math.max(0, Math.min(n - 1, i));
  if (at === current && !force) return;
  useRuns.setState({ current: at });
  const ticket = ++asked;
  try {
    const detail = await invoke<StepDetail>("run_step", { docId, index: at, second: false });
    if (ticket === asked) useRuns.setState({ detail });
  } catch (err) {
    if (ticket === asked) failed(err);
  }
}

export function stepBy(d: number) {
  void stepTo(useRuns.getState().current + d);
}

/** The step's node, when it is on the path (else the node it ran under). */
export function nodeOfStep(view: RunView, i: number): string | null {
  let k = i;
  for (let hops = 0; k >= 0 && hops < 64; hops++) {
    const kind = view.steps.kinds[k];
    if (kind === "n" || kind === "i") return view.steps.labels[view.steps.label[k]] ?? null;
    k = view.steps.parent[k] ?? -1;
  }
  return null;
}

/** The next step (after the current one) whose node has a breakpoint; the last step when none. */
export function nextBreak(view: RunView, from: number, breakpoints: string[]): number {
  const n = view.steps.label.length;
  for (let i = from + 1; i < n; i++) {
    const kind = view.steps.kinds[i];
    if ((kind === "n" || kind === "i") && breakpoints.includes(view.steps.labels[view.steps.label[i]])) return i;
  }
  return n - 1;
}

export async function closeRun() {
  const { docId } = useRuns.getState();
  useRuns.setState({ docId: null, view: null, detail: null, compare: null, folder: null, current: 0 });
  if (docId) await invoke("run_close", { docId, secondOnly: false }).catch(() => {});
}

/** Compare With Run…: a second run, its path in the second colour, where they part. */
export async function compareRun() {
  const { docId } = useRuns.getState();
  if (!docId || docId !== ui.get().activeId) return ui.toast("info", "Open a run first, then a second one to compare with it.");
  try {
    const compare = await invoke<RunCompareView | null>("run_compare_dialog", { docId });
    if (!compare) return;
    useRuns.setState({ compare });
    const d = compare.comparison.divergence;
    if (d) {
      ui.toast("info", d.message, 9000);
      if (d.a !== undefined) void stepTo(d.a);
    } else ui.toast("info", "The two runs took the same steps.");
  } catch (err) {
    failed(err);
  }
}

export async function closeCompareRun() {
  const { docId } = useRuns.getState();
  useRuns.setState({ compare: null });
  if (docId) await invoke("run_close", { docId, secondOnly: true }).catch(() => {});
}

/** Open Runs Folder…: every run in a folder as a heat map on the active document. */
export async function openRunsFolder() {
  const id = ui.get().activeId;
  if (!id) return ui.toast("info", "Open the graph the runs ran first.");
  useRuns.setState({ busy: true });
  try {
    const view = await invoke<RunFolderView | null>("run_folder_dialog", { docId: id });
    if (view) useRuns.setState({ folder: { docId: id, view } });
  } catch (err) {
    failed(err);
  } finally {
    useRuns.setState({ busy: false });
  }
}

export function closeFolder() {
  useRuns.setState({ folder: null });
}

/** Runs the active document on the simulator and opens the result as its run. */
export async function simulate(input: string, mocks: string, limit: number): Promise<boolean> {
  const id = ui.get().activeId;
  if (!id) return false;
  useRuns.setState({ busy: true });
  try {
    const view = await invoke<RunView>("run_simulate", { docId: id, input, mocks, limit });
    const { breakpoints } = useRuns.getState();
    // With breakpoints, the run stops at the first one, as a debugger does.
    shown(id, view, breakpoints.length ? nextBreak(view, -1, breakpoints) : undefined);
    return true;
  } catch (err) {
    failed(err);
    return false;
  } finally {
    useRuns.setState({ busy: false });
  }
}

export function toggleBreakpoint(node: string) {
  useRuns.setState((s) => ({
    breakpoints: s.breakpoints.includes(node) ? s.breakpoints.filter((b) => b !== node) : [...s.breakpoints, node],
  }));
}

/** Continues to the next breakpoint (the end when there is none). */
export function continueToBreak() {
  const { view, current, breakpoints } = useRuns.getState();
  if (view) void stepTo(nextBreak(view, current, breakpoints));
}

export async function saveRunLog() {
  const { docId } = useRuns.getState();
  if (!docId) return;
  try {
    const saved = await invoke<SavedRun | null>("run_save_log", { docId });
    if (saved) ui.toast("info", `Saved the run as ${saved.path}.`);
  } catch (err) {
    failed(err);
  }
}

/** Listens for runs Rust opened by itself (a drop, the command line). */
export async function listenForRuns(): Promise<() => void> {
  if (ui.get().backend?.kind !== "tauri") return () => {};
  const { listen } = await import("@tauri-apps/api/event");
  const off = await listen<string>("run-opened", (e) => void refreshRun(e.payload));
  return off;
}

registerAction("open-run", () => openRun());
registerAction("compare-run", () => compareRun());
registerAction("open-runs-folder", () => openRunsFolder());
registerAction("simulate", () => useRuns.setState({ simOpen: true }));
registerAction("run-close", () => closeRun());

/** The run controls the app measurements and end-to-end scripts drive (`window.__trellisRuns`):
 * the same functions the menu and the timeline call. */
declare global {
  interface Window {
    __trellisRuns?: {
      open: typeof openRun;
      openFolder: typeof openRunsFolder;
      stepTo: typeof stepTo;
      state: () => RunUi;
    };
  }
}
if (typeof window !== "undefined") {
  window.__trellisRuns = { open: openRun, openFolder: openRunsFolder, stepTo, state: () => useRuns.getState() };
}
