// GRAPH.md path panel: every analysed path from the entry to an exit with its tokens, cost and
// latency (Rust's `graphmd::paths::analyse`, sent in the document view). Paths over the
// `path_budget` are marked; choosing a path selects its nodes and edges, which the canvas
// highlights.
import type { GraphMdView } from "../bindings";
import { useUi } from "../store";

function cost(c: number | null): string {
  return c === null ? "—" : `$${c.toFixed(4)}`;
}

export function PathsPanel({ graphmd }: { graphmd: GraphMdView }) {
  const sel = useUi((s) => s.selection);
  const a = graphmd.analysis;
  const chosen = (nodes: string[], edges: number[]) =>
    sel.nodes.length === nodes.length && nodes.every((n) => sel.nodes.includes(n)) && edges.every((e) => sel.edges.includes(e));
  const budget = [
    a.budget.tokens != null ? `${a.budget.tokens} tokens` : null,
    a.budget.cost_usd != null ? `$${a.budget.cost_usd}` : null,
  ].filter(Boolean);
  return (
    <section className="paths-panel" data-testid="paths-panel">
      <div className="panel-head">
        Paths{" "}
        <span className="muted">
          ({a.path_count}
          {a.mode === "summary" ? ", worst shown" : ""})
        </span>
      </div>
      <div className="muted small" data-testid="paths-budget">
        Budget: {budget.length ? budget.join(", ") : "none"}
      </div>
      {a.diagnostics.map((d, i) => (
        <div key={i} className="diag error small">
          {d.message}
        </div>
      ))}
      <ol className="paths-list">
        {a.paths.map((p, i) => {
          const over = a.over_budget.includes(i);
          return (
            <li
              key={i}
              data-testid={`path-${i}`}
              data-over-budget={over ? "true" : "false"}
              className={`path-row${over ? " over-budget" : ""}${chosen(p.nodes, p.edges) ? " chosen" : ""}`}
              onClick={() => useUi.setState({ selection: { nodes: [...new Set(p.nodes)], edges: [...p.edges] } })}
              title={p.nodes.join(" → ")}
            >
              <div className="path-nodes">
                {p.nodes.join(" → ")}
                {p.fallbacks.length ? ` (fallback: ${p.fallbacks.join(", ")})` : ""}
              </div>
              <div className="path-metrics">
                <span data-testid={`path-${i}-tokens`}>{p.tokens} tokens</span> ·{" "}
                <span data-testid={`path-${i}-cost`}>{cost(p.cost_usd)}</span> ·{" "}
                <span data-testid={`path-${i}-latency`}>{p.latency_ms} ms</span>
                {over && <span className="badge error"> over budget ({p.over_budget.join(", ")})</span>}
                {a.worst === i && <span className="badge"> worst</span>}
              </div>
            </li>
          );
        })}
      </ol>
      {a.notes.map((n, i) => (
        <div key={i} className="muted small">
          {n}
        </div>
      ))}
    </section>
  );
}
