// The current step of the run in full: what ran, how it ended, its timing, tokens, cost and
// error, what it was given, what it wrote (its update or state change), and every channel after
// it (recorded by the source, or rebuilt by Rust with the graph's reducers).
import type { StepDetail } from "../bindings";
import { duration, jsonText, money, shortJson } from "./format";
import { toggleBreakpoint, useRuns } from "./runState";

function Value({ label, value, testid }: { label: string; value: unknown; testid: string }) {
  if (value === undefined || value === null) return null;
  return (
    <details className="run-value" open data-testid={testid}>
      <summary>{label}</summary>
      <pre>{jsonText(value)}</pre>
    </details>
  );
}

function Timing({ d, origin }: { d: StepDetail; origin?: number }) {
  const parts: string[] = [];
  if (d.started_ms !== undefined && origin !== undefined) parts.push(`started +${duration(Math.max(0, d.started_ms - origin))}`);
  if (d.duration_ms !== undefined) parts.push(`took ${duration(d.duration_ms)}`);
  if (!parts.length) parts.push("the record gives no time for this step");
  return <span data-testid="run-timing">{parts.join(" · ")}</span>;
}

export function RunInspector({ docId }: { docId: string }) {
  const view = useRuns((s) => (s.docId === docId ? s.view : null));
  const d = useRuns((s) => (s.docId === docId ? s.detail : null));
  const breakpoints = useRuns((s) => s.breakpoints);
  if (!view) return null;
  if (!d) {
    return (
      <aside className="run-inspector" data-testid="run-inspector">
        <div className="panel-head">Step</div>
        <p className="muted">Choose a step in the timeline.</p>
      </aside>
    );
  }
  const changed = new Set(d.state.changed);
  const channels = Object.entries(d.state.channels);
  const node = d.node;
  return (
    <aside className="run-inspector" data-testid="run-inspector" data-step={d.index} data-node={node ?? ""}>
      <div className="panel-head">
        Step {d.index + 1}: <strong data-testid="run-step-name">{d.name}</strong>
        {node && node !== "__start__" && (
          <label className="run-break" title="Stop here when continuing">
            <input
              type="checkbox"
              checked={breakpoints.includes(node)}
              onChange={() => toggleBreakpoint(node)}
              data-testid="run-breakpoint"
            />
            breakpoint
          </label>
        )}
      </div>
      <dl className="run-facts">
        <dt>status</dt>
        <dd className={`run-status ${d.status}`} data-testid="run-step-status">
          {d.status}
          {d.attempt > 1 && ` (attempt ${d.attempt})`}
        </dd>
        <dt>kind</dt>
        <dd>
          {d.kind}
          {d.superstep !== undefined && ` · superstep ${d.superstep}`}
          {d.parent && ` · under ${d.parent}`}
        </dd>
        <dt>time</dt>
        <dd>
          <Timing d={d} origin={view.started_ms} />
        </dd>
        {d.incoming.length > 0 && (
          <>
            <dt>came by</dt>
            <dd data-testid="run-incoming">{d.incoming.map((e) => `${e.from} → ${e.to}`).join(", ")}</dd>
          </>
        )}
        {d.tokens && (
          <>
            <dt>tokens</dt>
            <dd data-testid="run-tokens">
              {[
                d.tokens.input !== undefined && `${d.tokens.input} in`,
                d.tokens.output !== undefined && `${d.tokens.output} out`,
                d.tokens.total !== undefined && `${d.tokens.total} total`,
              ]
                .filter(Boolean)
                .join(" · ")}
            </dd>
          </>
        )}
        {d.cost && (
          <>
            <dt>cost</dt>
            <dd data-testid="run-cost">{money(d.cost.amount, d.cost.currency)}</dd>
          </>
        )}
      </dl>
      {d.error && (
        <div className="run-error" data-testid="run-error" role="alert">
          {d.error.kind && <strong>{d.error.kind}: </strong>}
          {d.error.message}
        </div>
      )}
      {d.interrupt && (
        <div className="run-interrupt" data-testid="run-interrupt">
          Paused for a human{d.interrupt.id ? ` (${d.interrupt.id})` : ""}: <code>{shortJson(d.interrupt.payload)}</code>
        </div>
      )}
      <Value label="input" value={d.input} testid="run-input" />
      {d.update && Object.keys(d.update).length > 0 && (
        <section data-testid="run-update">
          <h4>wrote</h4>
          <table className="run-table">
            <tbody>
              {Object.entries(d.update).map(([k, v]) => (
                <tr key={k} data-testid="run-change" data-channel={k}>
                  <th>{k}</th>
                  <td>
                    <code>{shortJson(v, 400)}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
      {d.update && Object.keys(d.update).length === 0 && <p className="muted">wrote nothing</p>}
      {d.changes.length > 0 && (
        <section data-testid="run-changes">
          <h4>changed</h4>
          <table className="run-table">
            <tbody>
              {d.changes.map((c) => (
                <tr key={c.path} data-testid="run-change" data-channel={c.path}>
                  <th>{c.path}</th>
                  <td>
                    <code>{shortJson(c.before, 200)}</code> → <code>{shortJson(c.after, 200)}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
      <Value label="output" value={d.output} testid="run-output" />
      <section data-testid="run-state" data-recorded={String(d.state.recorded)}>
        <h4>
          channels after this step{" "}
          <span className="muted">{d.state.recorded ? "(recorded)" : "(rebuilt from the changes with the graph's reducers)"}</span>
        </h4>
        {channels.length === 0 && <p className="muted">no channel written yet</p>}
        <table className="run-table">
          <tbody>
            {channels.map(([k, v]) => (
              <tr
                key={k}
                className={changed.has(k) ? "changed" : ""}
                data-testid="run-channel"
                data-channel={k}
                data-changed={String(changed.has(k))}
              >
                <th>{k}</th>
                <td>
                  <code>{shortJson(v, 400)}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      {d.events.length > 0 && (
        <details className="run-value" data-testid="run-events">
          <summary>events kept as recorded ({d.events.length})</summary>
          {d.events.map((e, i) => (
            <div key={`${e.place}|${i}`} className="run-raw" data-testid="run-raw-event" data-kind={e.kind}>
              <code>{e.kind}</code> <span className="muted">{e.place}</span>
              <pre>{jsonText(e.value)}</pre>
            </div>
          ))}
        </details>
      )}
    </aside>
  );
}
