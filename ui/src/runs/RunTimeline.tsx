// The timeline of the run under the canvas: the run in one line (source, how it ended, time,
// tokens, cost), a scrubber over every step, and the steps around the current one grouped by
// superstep. The scrubber and the arrow keys move through the steps here; nothing goes to Rust
// but the one step's detail the inspector asks for.
import { useEffect, useMemo, useRef } from "react";
import type { RunView } from "../bindings";
import { ui, useUi } from "../store";
import {
  closeCompareRun,
  closeRun,
  compareRun,
  continueToBreak,
  listenForRuns,
  refreshRun,
  saveRunLog,
  stepBy,
  stepTo,
  useRuns,
} from "./runState";
import { duration, money } from "./format";

/** Steps listed around the current one. */
const WINDOW = 30;

const STATUS_WORD: Record<string, string> = { o: "ok", e: "failed", r: "retried", i: "interrupted", u: "running", c: "cancelled" };
const STATUS_ICON: Record<string, string> = { o: "✓", e: "✖", r: "↻", i: "⏸", u: "…", c: "⊘" };

function stepName(v: RunView, i: number) {
  return v.steps.labels[v.steps.label[i]] ?? "";
}

/** Keeps the run beside the active document in step with Rust: asks once when the document is
 * shown (a run opened from the command line or a drop), again after each edit. */
export function useRunSync(docId: string | null, revision: unknown) {
  useEffect(() => {
    let off: (() => void) | null = null;
    let alive = true;
    void listenForRuns().then((f) => {
      if (alive) off = f;
      else f();
    });
    return () => {
      alive = false;
      off?.();
    };
  }, []);
  useEffect(() => {
    if (docId && ui.get().backend?.kind === "tauri") void refreshRun(docId);
  }, [docId, revision]);
}

export function RunTimeline({ docId }: { docId: string }) {
  const view = useRuns((s) => (s.docId === docId ? s.view : null));
  const current = useRuns((s) => s.current);
  const compare = useRuns((s) => (s.docId === docId ? s.compare : null));
  const breakpoints = useRuns((s) => s.breakpoints);
  const revision = useUi((s) => s.docs[docId]?.spec);
  useRunSync(docId, revision);
  const list = useRef<HTMLDivElement>(null);

  const rows = useMemo(() => {
    if (!view) return [];
    const n = view.steps.label.length;
    const from = Math.max(0, Math.min(current - Math.floor(WINDOW / 2), n - WINDOW));
    const out: { i: number; superstep: number; head: boolean }[] = [];
    for (let i = from; i < Math.min(n, from + WINDOW); i++) {
      const s = view.steps.superstep[i];
      out.push({ i, superstep: s, head: i === from || s !== view.steps.superstep[i - 1] });
    }
    return out;
  }, [view, current]);

  if (!view) return null;
  const n = view.steps.label.length;
  const d = compare?.comparison.divergence;
  const s = view.summary;
  const onKey = (e: React.KeyboardEvent) => {
    const k = e.key;
    if (k === "ArrowLeft" || k === "ArrowUp") stepBy(-1);
    else if (k === "ArrowRight" || k === "ArrowDown") stepBy(1);
    else if (k === "PageUp") stepBy(-10);
    else if (k === "PageDown") stepBy(10);
    else if (k === "Home") void stepTo(0);
    else if (k === "End") void stepTo(n - 1);
    else return;
    e.preventDefault();
    e.stopPropagation();
  };
  return (
    <section className="run-timeline" data-testid="run-timeline" aria-label="Run timeline">
      <div className="panel-head run-head">
        <span className="run-title" data-testid="run-title">
          {view.title}
        </span>
        <span className="muted">{view.source_label}</span>
        <span className={`run-status ${view.status}`} data-testid="run-status" data-status={view.status}>
          {view.status}
        </span>
        {view.duration_ms !== undefined && <span className="muted">{duration(view.duration_ms)}</span>}
        {s.tokens > 0 && <span className="muted">{s.tokens.toLocaleString()} tokens</span>}
        {s.cost > 0 && <span className="muted">{money(s.cost, s.currency)}</span>}
        <span className="grow" />
        <span className="muted" data-testid="run-position">
          step {current + 1} of {n}
        </span>
        <button type="button" onClick={() => stepBy(-1)} disabled={current <= 0} title="Previous step (←)" aria-label="previous step">
          ◀
        </button>
        <button
          type="button"
          onClick={() => stepBy(1)}
          disabled={current >= n - 1}
          title="Next step (→)"
          aria-label="next step"
          data-testid="run-next"
        >
          ▶
        </button>
        {(view.simulated || breakpoints.length > 0) && (
          <button type="button" onClick={continueToBreak} data-testid="run-continue" title="Continue to the next breakpoint">
            ⏭ to breakpoint
          </button>
        )}
        {view.simulated && (
          <button type="button" onClick={() => void saveRunLog()} data-testid="run-save-log">
            Save run log…
          </button>
        )}
        {compare ? (
          <button type="button" onClick={() => void closeCompareRun()} data-testid="run-compare-close">
            Hide {compare.other.title}
          </button>
        ) : (
          <button type="button" onClick={() => void compareRun()} data-testid="run-compare" title="Compare with another run">
            Compare…
          </button>
        )}
        <button type="button" className="link" onClick={() => void closeRun()} aria-label="close the run" data-testid="run-close">
          ×
        </button>
      </div>
      {view.matched.verdict !== "same" && (
        <div className={`run-match ${view.matched.verdict}`} data-testid="run-match" data-verdict={view.matched.verdict}>
          {view.matched.message}
        </div>
      )}
      {compare && (
        <div className="run-legend" data-testid="run-divergence">
          <span className="key a">A: {view.title}</span>
          <span className="key b">B: {compare.other.title}</span>
          <span className="key both">both</span>
          <span>{d ? d.message : "The two runs took the same steps."}</span>
          {compare.comparison.value && <span className="muted">{compare.comparison.value.message}</span>}
        </div>
      )}
      <input
        type="range"
        className="run-scrubber"
        data-testid="run-scrubber"
        aria-label="Step"
        min={0}
        max={Math.max(0, n - 1)}
        value={Math.max(0, current)}
        onChange={(e) => void stepTo(Number(e.target.value))}
      />
      <div
        className="run-steps"
        ref={list}
        role="listbox"
        tabIndex={0}
        onKeyDown={onKey}
        data-testid="run-steps"
        aria-label="Steps: arrows move through them"
        aria-activedescendant={`run-step-${current}`}
      >
        {rows.map(({ i, superstep, head }) => {
          const st = view.steps.statuses[i];
          const kind = view.steps.kinds[i];
          const dur = view.steps.duration_ms[i];
          return (
            <div key={i} className="run-step-group">
              {head && <div className="run-superstep">{superstep >= 0 ? `superstep ${superstep}` : kind === "i" ? "input" : "—"}</div>}
              <button
                type="button"
                role="option"
                id={`run-step-${i}`}
                aria-selected={i === current}
                tabIndex={-1}
                className={`run-step status-${st} kind-${kind}${i === current ? " current" : ""}${view.steps.parent[i] >= 0 ? " sub" : ""}`}
                data-testid="run-step"
                data-index={i}
                data-node={stepName(view, i)}
                data-status={STATUS_WORD[st]}
                data-current={String(i === current)}
                onClick={() => void stepTo(i)}
              >
                <span className="n">{i + 1}</span>
                <span className="icon" title={STATUS_WORD[st]}>
                  {STATUS_ICON[st]}
                </span>
                <span className="name">{stepName(view, i)}</span>
                {view.steps.attempt[i] > 1 && <span className="muted">attempt {view.steps.attempt[i]}</span>}
                <span className="grow" />
                <span className="muted">{dur >= 0 ? duration(dur) : ""}</span>
              </button>
            </div>
          );
        })}
      </div>
    </section>
  );
}
