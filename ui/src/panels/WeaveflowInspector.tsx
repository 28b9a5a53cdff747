// The inspector of a Weaveflow Graph Definition: node name, description, type, config, state
// bindings (paths checked by Rust's `path_problem` through the validator; its diagnostics show
// under the field), execution policy; edge condition (type and config) and failure route; the
// graph's entry and finish points. Every change is one edit (set_node_field, set_edge_field,
// set_doc_field), merged by Rust into the file's own text.
import type { Diagnostic, DocumentView, Edit, WeaveflowView } from "../bindings";
import { useEffect, useState } from "react";
import { edit, setWeaveflowVersion } from "../actions";
import { useUi } from "../store";
import { Choice, Field } from "./formatFields";

type Send = (e: Edit) => unknown;
type Obj = Record<string, unknown>;

function obj(v: unknown): Obj {
  return v && typeof v === "object" && !Array.isArray(v) ? (v as Obj) : {};
}
function arr(v: unknown): Obj[] {
  return Array.isArray(v) ? v.map(obj) : [];
}
/** The first diagnostic message at or under a JSON pointer. */
export function problemAt(diags: Diagnostic[], pointer: string): string | null {
  const d = diags.find((x) => x.pointer === pointer || x.pointer.startsWith(`${pointer}/`));
  return d ? d.message : null;
}

export function WeaveflowInspector({ view, weaveflow, send = edit }: { view: DocumentView; weaveflow: WeaveflowView; send?: Send }) {
  const sel = useUi((s) => s.selection);
  const def = weaveflow.definition;
  const nodes = arr(def.nodes);
  const edges = arr(def.edges);
  const ni = sel.nodes.length === 1 ? nodes.findIndex((n) => n.id === sel.nodes[0]) : -1;
  let body: React.ReactNode;
  if (ni >= 0) body = <NodeFields key={sel.nodes[0]} index={ni} node={nodes[ni]} diags={view.diagnostics} send={send} />;
  else if (sel.nodes.length === 0 && sel.edges.length === 1 && edges[sel.edges[0]])
    body = <EdgeFields key={sel.edges[0]} index={sel.edges[0]} edge={edges[sel.edges[0]]} diags={view.diagnostics} send={send} />;
  else body = <GraphFields weaveflow={weaveflow} ids={nodes.map((n) => String(n.id))} diags={view.diagnostics} send={send} />;
  return (
    <div className="weaveflow-inspector" data-testid="weaveflow-inspector">
      {body}
    </div>
  );
}

function NodeFields({ index, node, diags, send }: { index: number; node: Obj; diags: Diagnostic[]; send: Send }) {
  const id = String(node.id);
  const set = (field: string) => (value: unknown) => send({ op: "set_node_field", id, field, value });
  const state = obj(node.state);
  const at = `/nodes/${index}`;
  const setBinding = (name: string, key: "path" | "reducer", value: unknown) => {
    const next: Obj = { ...state, [name]: { ...obj(state[name]), [key]: value ?? "" } };
    if (key === "reducer" && value === undefined) delete (next[name] as Obj).reducer;
    send({ op: "set_node_field", id, field: "state", value: next });
  };
  const removeBinding = (name: string) => {
    const next = { ...state };
    delete next[name];
    send({ op: "set_node_field", id, field: "state", value: next });
  };
  return (
    <div data-testid="weaveflow-node">
      <div className="panel-head">Node {id}</div>
      <Field
        label="id"
        value={id}
        testid="wf-node-id"
        onCommit={async (v) => {
          if (typeof v === "string" && v && (await send({ op: "rename_node", from: id, to: v })))
            useUi.setState({ selection: { nodes: [v], edges: [] } });
        }}
      />
      <Field label="name" value={node.name} testid="wf-node-name" onCommit={set("name")} problem={problemAt(diags, `${at}/name`)} />
      <Field label="description" value={node.description} testid="wf-node-description" onCommit={set("description")} />
      <Field label="type" value={node.type} testid="wf-node-type" onCommit={set("type")} problem={problemAt(diags, `${at}/type`)} />
      <Field
        label="config (JSON)"
        kind="json"
        multiline
        value={node.config ?? {}}
        testid="wf-node-config"
        onCommit={set("config")}
        problem={problemAt(diags, `${at}/config`)}
      />
      <div className="panel-head small">State bindings</div>
      {Object.entries(state).map(([name, b]) => (
        <div key={name} className="binding" data-testid={`wf-binding-${name}`}>
          <Field
            label={`${name}: path`}
            value={obj(b).path}
            testid={`wf-binding-${name}-path`}
            onCommit={(v) => setBinding(name, "path", v)}
            problem={problemAt(diags, `${at}/state/${name}`)}
          />
          <Field
            label={`${name}: reducer`}
            value={obj(b).reducer}
            testid={`wf-binding-${name}-reducer`}
            onCommit={(v) => setBinding(name, "reducer", v)}
          />
          <button data-testid={`wf-binding-${name}-remove`} onClick={() => removeBinding(name)}>
            Remove binding
          </button>
        </div>
      ))}
      <Field
        label="new binding (port name)"
        value=""
        testid="wf-binding-new"
        onCommit={(v) => typeof v === "string" && v.trim() && setBinding(v.trim(), "path", "shared.")}
      />
      <Field
        label="policy (JSON)"
        kind="json"
        multiline
        value={node.policy}
        testid="wf-node-policy"
        onCommit={set("policy")}
        problem={problemAt(diags, `${at}/policy`)}
      />
    </div>
  );
}

function EdgeFields({ index, edge, diags, send }: { index: number; edge: Obj; diags: Diagnostic[]; send: Send }) {
  const cond = edge.condition === undefined || edge.condition === null ? null : obj(edge.condition);
  const failure = edge.failure === undefined || edge.failure === null ? null : obj(edge.failure);
  const at = `/edges/${index}`;
  const setCond = (key: string, value: unknown) => {
    const next: Obj = { ...(cond ?? {}) };
    if (value === undefined) delete next[key];
    else next[key] = value;
    send({ op: "set_edge_field", index, field: "condition", value: next.type ? next : undefined });
  };
  const setFailure = (key: string, value: unknown) => {
    const next: Obj = { ...(failure ?? {}) };
    if (value === undefined || value === false) delete next[key];
    else next[key] = value;
    send({ op: "set_edge_field", index, field: "failure", value: Object.keys(next).length ? next : undefined });
  };
  return (
    <div data-testid="weaveflow-edge">
      <div className="panel-head">
        Edge {String(edge.from)} → {String(edge.to)}
      </div>
      <div className="panel-head small">Condition</div>
      <Field
        label="condition type (empty: none)"
        value={cond?.type}
        testid="wf-cond-type"
        onCommit={(v) => setCond("type", v)}
        problem={problemAt(diags, `${at}/condition`)}
      />
      {cond && (
        <Field
          label="condition config (JSON)"
          kind="json"
          multiline
          value={cond.config ?? {}}
          testid="wf-cond-config"
          onCommit={(v) => setCond("config", v)}
        />
      )}
      <div className="panel-head small">Failure route</div>
      <Field
        label="stages (JSON list)"
        kind="json"
        value={failure?.stages}
        testid="wf-failure-stages"
        onCommit={(v) => setFailure("stages", v)}
        problem={problemAt(diags, `${at}/failure`)}
      />
      <Field
        label="error classes (JSON list)"
        kind="json"
        value={failure?.error_classes}
        testid="wf-failure-classes"
        onCommit={(v) => setFailure("error_classes", v)}
      />
      <label className="field">
        <input
          type="checkbox"
          data-testid="wf-failure-catch-all"
          checked={failure?.catch_all === true}
          onChange={(e) => setFailure("catch_all", e.target.checked)}
        />{" "}
        catch all
      </label>
    </div>
  );
}

function GraphFields({ weaveflow, ids, diags, send }: { weaveflow: WeaveflowView; ids: string[]; diags: Diagnostic[]; send: Send }) {
  const def = weaveflow.definition;
  const doc = (field: string) => (value: unknown) => send({ op: "set_doc_field", field, value });
  return (
    <div data-testid="weaveflow-graph">
      <div className="panel-head">Weaveflow graph</div>
      <div className="hint pad" data-testid="wf-generation">
        Generation: {weaveflow.generation}
      </div>
      {weaveflow.transfer && (
        <div className="td-origin" data-testid="wf-transfer">
          This file is {weaveflow.transfer.kind}. The canvas edits the definition it carries; positions go to{" "}
          <code>{weaveflow.transfer.positionsIn}</code>.
          {weaveflow.transfer.kept.length > 0 && (
            <>
              {" "}
              Kept as they are:{" "}
              {weaveflow.transfer.kept.map((k, i) => (
                <span key={k}>
                  {i ? ", " : ""}
                  <code>{k}</code>
                </span>
              ))}
              .
            </>
          )}
        </div>
      )}
      <Field label="name" value={def.name} testid="wf-graph-name" onCommit={doc("name")} />
      <Field label="description" value={def.description} testid="wf-graph-description" onCommit={doc("description")} />
      <Choice
        label="entry_point"
        value={weaveflow.entryPoint}
        options={ids}
        testid="wf-entry-point"
        onChange={(v) => send({ op: "set_doc_field", field: "entry_point", value: v })}
      />
      {problemAt(diags, "/entry_point") && <div className="diag error small">{problemAt(diags, "/entry_point")}</div>}
      <Choice
        label="finish_point"
        value={weaveflow.finishPoint}
        options={ids}
        allowEmpty
        testid="wf-finish-point"
        onChange={(v) => send({ op: "set_doc_field", field: "finish_point", value: v || undefined })}
      />
      <Field
        label="policy (JSON)"
        kind="json"
        multiline
        value={def.policy}
        testid="wf-graph-policy"
        onCommit={doc("policy")}
        problem={problemAt(diags, "/policy")}
      />
      <AcceptedVersion problem={problemAt(diags, "/version")} />
    </div>
  );
}

/** The app setting: which `version` a Weaveflow document must declare ("1.0" today; the
 * format has used "2.0"). Changing it revalidates every open document. */
function AcceptedVersion({ problem }: { problem: string | null }) {
  const [version, setVersion] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    const b = useUi.getState().backend;
    b?.weaveflowVersion().then(
      (v) => live && setVersion(v),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  if (version === null) return null;
  return (
    <Field
      key={version}
      label="accepted version (app setting)"
      value={version}
      testid="wf-accepted-version"
      problem={problem}
      onCommit={(v) => {
        void setWeaveflowVersion(String(v ?? "")).then((now) => now && setVersion(now));
      }}
    />
  );
}
