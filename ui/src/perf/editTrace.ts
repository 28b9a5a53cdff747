// Where the time of one edit goes, from the request to the drawn frame: each stage stamps
// `performance.now()` here and the benchmark reads the stamps after the frame it timed
// (`__trellisPerf.editTrace`). A handful of numbers per edit, so it is always on.
export type TraceMark = { stage: string; at: number; ms?: number };

const marks: TraceMark[] = [];

/** Stamps `stage` now; `ms`: how long the stage itself took, when it is one piece of work. */
export function traceMark(stage: string, ms?: number) {
  if (marks.length < 2000) marks.push(ms === undefined ? { stage, at: performance.now() } : { stage, at: performance.now(), ms });
}

/** The stamps since the last call with `reset`. */
export function editTrace(reset = false): TraceMark[] {
  const out = marks.slice();
  if (reset) marks.length = 0;
  return out;
}

/** Runs `fn`, stamping `stage` with how long it took. */
export function timed<T>(stage: string, fn: () => T): T {
  const t0 = performance.now();
  const out = fn();
  traceMark(stage, performance.now() - t0);
  return out;
}
