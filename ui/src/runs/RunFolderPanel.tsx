// A folder of runs on the document: how often each edge was taken (the canvas draws it as a
// heat map), the edges no run took (dead branches), and per node the count, median and 95th
// percentile duration, tokens and cost. All figures are Rust's (trellis-runs' aggregate).
import { duration, money } from "./format";
import { closeFolder, useRuns } from "./runState";

const TOP_EDGES = 40;

export function RunFolderPanel({ docId }: { docId: string }) {
  const folder = useRuns((s) => (s.folder?.docId === docId ? s.folder.view : null));
  if (!folder) return null;
  const a = folder.aggregate;
  const edges = [...a.edges].sort((x, y) => y.count - x.count).slice(0, TOP_EDGES);
  return (
    <aside className="run-folder" data-testid="run-folder" data-runs={a.runs}>
      <div className="panel-head">
        Runs in <strong>{folder.title}</strong> <span className="muted">({a.runs})</span>
        <span className="grow" />
        <button type="button" className="link" onClick={closeFolder} aria-label="close the runs folder">
          ×
        </button>
      </div>
      <p className="muted">{a.outcomes.map(([o, n]) => `${o} ${n}`).join(" · ")}</p>
      {folder.unread.length > 0 && (
        <details className="run-value">
          <summary>{folder.unread.length} file(s) not read</summary>
          <ul>
            {folder.unread.map((u) => (
              <li key={u.file}>
                <code>{u.file}</code>: {u.message}
              </li>
            ))}
          </ul>
        </details>
      )}
      <h4>dead branches</h4>
      {a.dead.length === 0 ? (
        <p className="muted">none: every edge of the graph was taken by some run</p>
      ) : (
        <ul className="run-dead" data-testid="run-dead">
          {a.dead.map((e) => (
            <li key={`${e.from}|${e.to}`} data-testid="run-dead-row" data-from={e.from} data-to={e.to}>
              {e.from} → {e.to}
            </li>
          ))}
        </ul>
      )}
      {a.unvisited.length > 0 && <p className="muted">never visited: {a.unvisited.join(", ")}</p>}
      <h4>edges taken</h4>
      <table className="run-table">
        <thead>
          <tr>
            <th>edge</th>
            <th>times</th>
            <th>runs</th>
          </tr>
        </thead>
        <tbody>
          {edges.map((e) => (
            <tr key={`${e.from}|${e.to}`} data-testid="run-heat-row" data-from={e.from} data-to={e.to} data-count={e.count}>
              <td>
                {e.from} → {e.to}
              </td>
              <td>{e.count}</td>
              <td>{e.runs}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h4>nodes</h4>
      <table className="run-table">
        <thead>
          <tr>
            <th>node</th>
            <th>count</th>
            <th>median</th>
            <th>p95</th>
            <th>tokens</th>
            <th>cost</th>
          </tr>
        </thead>
        <tbody>
          {a.nodes.map((n) => (
            <tr key={n.id} data-testid="run-node-row" data-id={n.id} data-count={n.count}>
              <td>{n.id}</td>
              <td>
                {n.count}
                {n.errors > 0 && <span className="run-status error"> {n.errors} failed</span>}
              </td>
              <td>{n.median_ms !== undefined ? duration(n.median_ms) : "—"}</td>
              <td>{n.p95_ms !== undefined ? duration(n.p95_ms) : "—"}</td>
              <td>{n.tokens || "—"}</td>
              <td>{n.cost ? money(n.cost, n.currency) : "—"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </aside>
  );
}
