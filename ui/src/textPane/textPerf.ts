// `window.__trellisTextPerf`: what the app's scripted measurement (src-tauri/tests/perf) reads
// of the text pane, timed in the page: a keystroke to the frame that shows it, the end of the
// typing to the canvas showing what was typed, a canvas edit to the pane showing its text, and
// the pane's opening. A few numbers per event, so it is always on.
import type { Edit } from "../bindings";

type TextPerf = {
  /** Keydown to the frame after the editor took it (ms). */
  keys: number[];
  /** The last keystroke before a pause to the frame after the canvas took what Rust read. */
  reflect: number[];
  /** A canvas edit sent to the frame after the pane showed its text change. */
  reach: number[];
  /** The pane asked to open to the frame showing its text. */
  opened: number[];
  reset(): void;
  /** Sends `edit` as the canvas does (`actions.answer`) and answers the ms until the pane
   * shows its text change (set by the pane: actions are not imported here). */
  canvasEdit?(edit: Edit): Promise<number | null>;
};

declare global {
  interface Window {
    __trellisTextPerf?: TextPerf;
  }
}

export const textPerf: TextPerf = {
  keys: [],
  reflect: [],
  reach: [],
  opened: [],
  reset() {
    this.keys = [];
    this.reflect = [];
    this.reach = [];
    this.opened = [];
  },
};
if (typeof window !== "undefined") window.__trellisTextPerf = textPerf;

let keyAt = 0;
let typedAt = 0;

/** A key went down in the pane (its event's time). */
export function keyDown(at: number) {
  keyAt = at;
}

/** The editor took a keystroke's change. */
export function keystrokeSeen() {
  typedAt = performance.now();
  if (!keyAt) return;
  const t0 = keyAt;
  keyAt = 0;
  requestAnimationFrame(() => textPerf.keys.push(performance.now() - t0));
}

/** The canvas took what Rust read of the typing. */
export function typingReflected() {
  if (!typedAt) return;
  const t0 = typedAt;
  requestAnimationFrame(() => textPerf.reflect.push(performance.now() - t0));
}

/** A frame from now, the time since `t0` (ms). */
export function frameAfter(t0: number): Promise<number> {
  return new Promise((resolve) => requestAnimationFrame(() => resolve(performance.now() - t0)));
}
