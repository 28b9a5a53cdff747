// The inspector of a GRAPH.md document: node kind, model and judge fields; edge kind, condition
// and loop bounds; the document's entry, exits, budget and Markdown body; and the path panel.
// Every change is one edit sent to Rust (set_node_field / set_edge_field / set_doc_field /
// set_body), which writes only the lines it changes.
import type { DocumentView, Edit, GraphMdView } from "../bindings";
import { edit } from "../actions";
import { useUi } from "../store";
import { Choice, Field } from "./formatFields";
import { PathsPanel } from "./PathsPanel";

export const NODE_KINDS = ["agent", "tool", "router", "verifier", "judge", "human", "subgraph"] as const;
export const EDGE_KINDS = ["sequential", "conditional", "parallel", "loop"] as const;
export const JUDGE_SEATS = ["router", "gate", "selector", "verifier", "advisor", "triage"] as const;
/** Judge fields and how they are typed. */
export const JUDGE_FIELDS: [string, "text" | "number"][] = [
  ["decision_model", "text"],
  ["questions", "number"],
  ["options_count", "number"],
  ["state_tokens", "number"],
  ["timeout_ms", "number"],
  ["fallback", "text"],
  ["fires_on", "text"],
  ["confidence_threshold", "number"],
];

type Send = (e: Edit) => unknown;

function list(v: unknown): Record<string, unknown>[] {
  return Array.isArray(v) ? (v.filter((x) => x && typeof x === "object") as Record<string, unknown>[]) : [];
}

export function GraphMdInspector({ view, graphmd, send = edit }: { view: DocumentView; graphmd: GraphMdView; send?: Send }) {
  const sel = useUi((s) => s.selection);
  const nodes = list(graphmd.front.nodes);
  const edges = list(graphmd.front.edges);
  let body: React.ReactNode;
  if (sel.nodes.length === 1 && nodes.some((n) => String(n.id) === sel.nodes[0])) {
    const node = nodes.find((n) => String(n.id) === sel.nodes[0]) ?? {};
    body = <NodeFields key={sel.nodes[0]} id={sel.nodes[0]} node={node} send={send} view={view} />;
  } else if (sel.nodes.length === 0 && sel.edges.length === 1 && edges[sel.edges[0]]) {
    body = <EdgeFields key={sel.edges[0]} index={sel.edges[0]} edge={edges[sel.edges[0]]} send={send} />;
  } else {
    body = <DocFields graphmd={graphmd} send={send} />;
  }
  return (
    <div className="graphmd-inspector" data-testid="graphmd-inspector">
      {body}
      <PathsPanel graphmd={graphmd} />
    </div>
  );
}

function NodeFields({ id, node, send, view }: { id: string; node: Record<string, unknown>; send: Send; view: DocumentView }) {
  const kind = String(node.kind ?? "");
  const problems = view.diagnostics.filter((d) => d.element?.kind === "node" && d.element.id === id);
  const set = (field: string) => (value: unknown) => send({ op: "set_node_field", id, field, value });
  return (
    <div data-testid="graphmd-node">
      <div className="panel-head">Node {id}</div>
      <Field
        label="id"
        value={id}
        testid="graphmd-node-id"
        onCommit={async (v) => {
          if (typeof v === "string" && v && (await send({ op: "rename_node", from: id, to: v })))
            useUi.setState({ selection: { nodes: [v], edges: [] } });
        }}
      />
      <Choice
        label="kind"
        value={kind}
        options={NODE_KINDS}
        testid="graphmd-kind"
        onChange={(v) => send({ op: "set_node_field", id, field: "kind", value: v })}
      />
      {kind !== "judge" && <Field label="model_key" value={node.model_key} testid="graphmd-model-key" onCommit={set("model_key")} />}
      {kind === "judge" && (
        <>
          <Choice
            label="seat"
            value={String(node.seat ?? "")}
            options={JUDGE_SEATS}
            testid="graphmd-seat"
            onChange={(v) => send({ op: "set_node_field", id, field: "seat", value: v })}
          />
          {JUDGE_FIELDS.map(([f, k]) => (
            <Field key={f} label={f} kind={k} value={node[f]} testid={`graphmd-${f.replace(/_/g, "-")}`} onCommit={set(f)} />
          ))}
        </>
      )}
      {problems.map((d, i) => (
        <div key={i} className={`diag ${d.severity} small`}>
          {d.message}
        </div>
      ))}
    </div>
  );
}

function EdgeFields({ index, edge, send }: { index: number; edge: Record<string, unknown>; send: Send }) {
  const kind = String(edge.kind ?? "sequential");
  const bounds = (edge.bounds ?? {}) as Record<string, unknown>;
  return (
    <div data-testid="graphmd-edge">
      <div className="panel-head">
        Edge {String(edge.from)} → {String(edge.to)}
      </div>
      <Choice
        label="kind"
        value={kind}
        options={EDGE_KINDS}
        testid="graphmd-edge-kind"
        onChange={(v) => send({ op: "set_edge_field", index, field: "kind", value: v })}
      />
      {(kind === "conditional" || edge.condition !== undefined) && (
        <Field
          label="condition"
          value={edge.condition}
          testid="graphmd-condition"
          onCommit={(value) => send({ op: "set_edge_field", index, field: "condition", value })}
        />
      )}
      {kind === "loop" && (
        <Field
          label="max_iterations"
          kind="number"
          value={bounds.max_iterations}
          testid="graphmd-max-iterations"
          onCommit={(value) =>
            send({
              op: "set_edge_field",
              index,
              field: "bounds",
              value: value === undefined ? undefined : { ...bounds, max_iterations: value },
            })
          }
        />
      )}
    </div>
  );
}

function DocFields({ graphmd, send }: { graphmd: GraphMdView; send: Send }) {
  const f = graphmd.front;
  const budget = (f.path_budget ?? {}) as Record<string, unknown>;
  const setBudget = (key: string) => (value: unknown) => {
    const next = { ...budget };
    if (value === undefined) delete next[key];
    else next[key] = value;
    send({ op: "set_doc_field", field: "path_budget", value: Object.keys(next).length ? next : undefined });
  };
  return (
    <div data-testid="graphmd-doc">
      <div className="panel-head">GRAPH.md</div>
      <Field
        label="entry"
        value={f.entry}
        testid="graphmd-entry"
        onCommit={(value) => send({ op: "set_doc_field", field: "entry", value })}
      />
      <Field
        label="exits (JSON list)"
        kind="json"
        value={f.exits}
        testid="graphmd-exits"
        onCommit={(value) => send({ op: "set_doc_field", field: "exits", value })}
      />
      <Field label="budget: tokens" kind="number" value={budget.tokens} testid="graphmd-budget-tokens" onCommit={setBudget("tokens")} />
      <Field label="budget: cost_usd" kind="number" value={budget.cost_usd} testid="graphmd-budget-cost" onCommit={setBudget("cost_usd")} />
      <Field
        label="body (Markdown)"
        multiline
        value={graphmd.body}
        testid="graphmd-body"
        onCommit={(value) => send({ op: "set_body", text: typeof value === "string" ? value : "" })}
      />
    </div>
  );
}
