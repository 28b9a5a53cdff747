// `window.__trellisPerf`: hooks the benchmark scripts (WebDriver on the real app, Playwright in
// Chromium) call to measure frame times from requestAnimationFrame and to drive the viewport.
export type FrameStats = { frames: number; median: number; p95: number; max: number; mean: number };

export function stats(samples: number[]): FrameStats {
  if (!samples.length) return { frames: 0, median: 0, p95: 0, max: 0, mean: 0 };
  const s = [...samples].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)];
  return { frames: s.length, median: q(0.5), p95: q(0.95), max: s[s.length - 1], mean: s.reduce((a, b) => a + b, 0) / s.length };
}

export class FrameSampler {
  private samples: number[] = [];
  private busy: number[] = [];
  private last = 0;
  private raf = 0;
  private chan: MessageChannel | null = null;
  private frameT = 0;
  running = false;

  start() {
    this.samples = [];
    this.busy = [];
    this.running = true;
    this.last = performance.now();
    // The frame's own cost on the main thread: from the frame's rAF time to the first task
    // after that rendering update (rAF callbacks, our drawing, style, layout, paint/flush).
    // A message posted in the rAF callback runs only once the update has finished.
    if (!this.chan && typeof MessageChannel !== "undefined") {
      this.chan = new MessageChannel();
      this.chan.port1.onmessage = () => {
        if (this.running) this.busy.push(performance.now() - this.frameT);
      };
    }
    const tick = (t: number) => {
      if (!this.running) return;
      this.samples.push(t - this.last);
      this.last = t;
      this.frameT = t;
      this.chan?.port2.postMessage(0);
      this.raf = requestAnimationFrame(tick);
    };
    this.raf = requestAnimationFrame(tick);
  }

  stop(): FrameStats & { samples: number[]; busy: FrameStats & { samples: number[] } } {
    this.running = false;
    cancelAnimationFrame(this.raf);
    // The first interval includes whatever ran before sampling started.
    const s = this.samples.slice(1);
    const b = this.busy.slice(1);
    return { ...stats(s), samples: s, busy: { ...stats(b), samples: b } };
  }
}

export type PerfApi = {
  startSampling(): void;
  stopSampling(): FrameStats & { samples: number[] };
  nodeCount(): number;
  edgeCount(): number;
  renderMode(): "dom" | "canvas";
  domNodeCount(): number;
  drawnNodes(): number;
  lastCanvasDrawMs(): number;
  /** Node ids whose names the overview drawing shows now (empty in the DOM drawing). */
  overviewNames?(): string[];
  /** Client coordinates of the middle of document edge `index` as the canvas draws it. */
  edgePoint?(index: number): { x: number; y: number } | null;
  /** Client coordinates of the middle of node `id` as the canvas draws it (any layout). */
  nodePoint?(id: string): { x: number; y: number } | null;
  /** The baseline page: ms its elkjs layout took (null before it ran or when it gave up). */
  layoutMs?(): number | null;
  getViewport(): { x: number; y: number; zoom: number };
  setViewport(v: { x: number; y: number; zoom: number }): void;
  fitView(): void;
  /** Resolves after two animation frames with nothing pending (a drawn frame). */
  whenIdle(): Promise<void>;
  /** Time of the first frame that showed the current document (ms since navigation). */
  firstDrawnAt(): number | null;
  /** Client coordinates of a spot of the pane with no node under it (to start a pan), or null. */
  emptyPoint?(): { x: number; y: number } | null;
  /** Durations (ms) of the overview canvas draws since the last call with `reset`. */
  drawLog?(reset?: boolean): number[];
  /** The stages of the edits since the last call with `reset` (`perf/editTrace.ts`). */
  editTrace?(reset?: boolean): { stage: string; at: number; ms?: number }[];
  /** The view the page holds now. */
  activeView?(): unknown;
};

declare global {
  interface Window {
    __trellisPerf?: PerfApi;
  }
}

export function nextFrames(n = 2): Promise<void> {
  return new Promise((resolve) => {
    const step = (k: number) => (k <= 0 ? resolve() : requestAnimationFrame(() => step(k - 1)));
    step(n);
  });
}
