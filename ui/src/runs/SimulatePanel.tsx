// Run > Simulate…: the active GraphSpec document on the simulator (trellis-spec's executor,
// through Rust), with an input, what each node returns (a JSON update; none: it writes nothing),
// and the nodes to stop at. The result opens as the document's run, like an imported one, and
// can be saved as a run log from the timeline.
import { useState } from "react";
import type { DocumentView } from "../bindings";
import { simulate, toggleBreakpoint, useRuns } from "./runState";

export function SimulatePanel({ view }: { view: DocumentView }) {
  const open = useRuns((s) => s.simOpen);
  const busy = useRuns((s) => s.busy);
  const breakpoints = useRuns((s) => s.breakpoints);
  const [input, setInput] = useState("{}");
  const [mocks, setMocks] = useState<Record<string, string>>({});
  const [limit, setLimit] = useState(25);
  const [problem, setProblem] = useState<string | null>(null);
  if (!open) return null;
  const close = () => useRuns.setState({ simOpen: false });
  const run = async () => {
    const updates: Record<string, unknown> = {};
    for (const [id, text] of Object.entries(mocks)) {
      if (!text.trim()) continue;
      try {
        updates[id] = JSON.parse(text);
      } catch {
        setProblem(`What ${id} returns is not JSON.`);
        return;
      }
    }
    setProblem(null);
    if (await simulate(input, JSON.stringify(updates), limit)) close();
  };
  return (
    <div className="overlay" data-testid="simulate-panel">
      <div className="simulate" role="dialog" aria-label="Simulate the graph">
        <div className="panel-head">
          Simulate <strong>{view.fileName}</strong>
          <span className="grow" />
          <button type="button" className="link" onClick={close} aria-label="close">
            ×
          </button>
        </div>
        <p className="muted">
          Runs the graph's routing offline: each node returns the update you give it (as JSON), the channels fold them with their reducers,
          and the edges' conditions decide where it goes. Breakpoints stop the step-through at a node.
        </p>
        <label className="simulate-field">
          input (channel values, JSON)
          <textarea data-testid="simulate-input" value={input} onChange={(e) => setInput(e.target.value)} rows={3} spellCheck={false} />
        </label>
        <table className="run-table simulate-nodes">
          <thead>
            <tr>
              <th>node</th>
              <th>returns (JSON update)</th>
              <th>stop</th>
            </tr>
          </thead>
          <tbody>
            {view.spec.nodes.map((n) => (
              <tr key={n.id}>
                <th>
                  {n.id} <span className="muted">{n.type}</span>
                </th>
                <td>
                  <input
                    data-testid="simulate-mock"
                    data-node={n.id}
                    value={mocks[n.id] ?? ""}
                    placeholder="{}"
                    spellCheck={false}
                    onChange={(e) => setMocks((m) => ({ ...m, [n.id]: e.target.value }))}
                  />
                </td>
                <td>
                  <input
                    type="checkbox"
                    data-testid="simulate-break"
                    data-node={n.id}
                    checked={breakpoints.includes(n.id)}
                    onChange={() => toggleBreakpoint(n.id)}
                    aria-label={`stop at ${n.id}`}
                  />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <label className="simulate-field inline">
          at most
          <input type="number" min={1} max={100000} value={limit} onChange={(e) => setLimit(Math.max(1, Number(e.target.value) || 1))} />
          supersteps
        </label>
        {problem && (
          <p className="run-error" role="alert">
            {problem}
          </p>
        )}
        <div className="simulate-actions">
          <button type="button" onClick={close}>
            Cancel
          </button>
          <button type="button" className="primary" onClick={() => void run()} disabled={busy} data-testid="simulate-run">
            Run
          </button>
        </div>
      </div>
    </div>
  );
}
