// The inspector: the selected node, edge, or (nothing selected) the graph itself.
import { useDeferredValue, useEffect, useMemo, useState } from "react";
import type { DocumentView, ReducerName, TypeInfo } from "../bindings";
import { applyFix, edit } from "../actions";
import { categoryColor } from "../lib/colors";
import { configChannelUses } from "../lib/channelRefs";
import { count } from "../lib/counts";
import { END, START } from "../lib/ids";
import { unknownFields } from "../lib/schemaForm";
import { traceMark } from "../perf/editTrace";
import { useUi } from "../store";
import { ConditionBuilder } from "./ConditionBuilder";
import { GraphMdInspector } from "./GraphMdInspector";
import { WeaveflowInspector } from "./WeaveflowInspector";
import { SchemaForm } from "./SchemaForm";
import { FixButtons } from "./FixButtons";

const REDUCERS: ReducerName[] = ["last_write", "append", "merge"];

export function Inspector({ view }: { view: DocumentView }) {
  traceMark("render:inspector");
  const sel = useUi((s) => s.selection);
  // Weaveflow and GRAPH.md show their own fields (WeaveflowInspector / GraphMdInspector).
  if (view.weaveflow)
    return (
      <aside className="panel inspector" data-testid="inspector" data-kind="weaveflow">
        <WeaveflowInspector view={view} weaveflow={view.weaveflow} />
      </aside>
    );
  if (view.graphmd)
    return (
      <aside className="panel inspector" data-testid="inspector" data-kind="graphmd">
        <GraphMdInspector view={view} graphmd={view.graphmd} />
      </aside>
    );
  const nodes = sel.nodes.filter((n) => n !== START && n !== END);
  let body: React.ReactNode;
  let kind = "graph";
  if (nodes.length === 1) (kind = "node"), (body = <NodeInspector key={nodes[0]} view={view} id={nodes[0]} />);
  else if (nodes.length > 1)
    (kind = "selection"),
      (body = (
        <div className="muted pad">
          {nodes.length} nodes selected. Drag to move them together; Delete removes them;{" "}
          {navigator.platform.includes("Mac") ? "⌘" : "Ctrl"}+C copies them.
        </div>
      ));
  else if (sel.edges.length === 1 && view.spec.edges[sel.edges[0]])
    (kind = "edge"), (body = <EdgeInspector key={sel.edges[0]} view={view} index={sel.edges[0]} />);
  else if (sel.nodes.length === 1)
    (kind = "terminal"),
      (body = (
        <div className="muted pad">
          {sel.nodes[0] === START
            ? "__start__: where the graph begins. Edges from it are the entry edges."
            : "__end__: where the graph ends."}
        </div>
      ));
  else body = <GraphInspector view={view} />;
  return (
    <aside className="panel inspector" data-testid="inspector" data-kind={kind}>
      {body}
    </aside>
  );
}

/** A text input that commits on Enter or blur, and reverts on Escape. */
function CommitInput({
  value,
  onCommit,
  testid,
  placeholder,
  label,
}: {
  value: string;
  onCommit: (v: string) => void;
  testid: string;
  placeholder?: string;
  label?: string;
}) {
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  return (
    <input
      data-testid={testid}
      aria-label={label}
      value={text}
      placeholder={placeholder}
      onChange={(e) => setText(e.target.value)}
      onBlur={() => text !== value && onCommit(text)}
      onKeyDown={(e) => {
        if (e.key === "Enter" && text !== value) onCommit(text);
        if (e.key === "Escape") setText(value);
      }}
    />
  );
}

function NodeInspector({ view, id }: { view: DocumentView; id: string }) {
  const index = view.spec.nodes.findIndex((n) => n.id === id);
  const node = view.spec.nodes[index];
  const types = useMemo(() => new Map<string, TypeInfo>(view.registry.map((t) => [t.type, t])), [view.registry]);
  const [pendingType, setPendingType] = useState<string | null>(null);
  const [rawOpen, setRawOpen] = useState(true);
  if (!node) return <div className="muted pad">The node “{id}” no longer exists.</div>;
  const t = node.type ? types.get(node.type) : undefined;
  const diags = view.diagnostics.filter((d) => d.element?.kind === "node" && d.element.id === id);
  const nodeLevel = diags.filter((d) => !d.pointer.startsWith(`/nodes/${index}/config`));
  const target = pendingType ? types.get(pendingType) : undefined;
  const dropped = pendingType ? unknownFields(node.config, target?.config_schema) : [];
  return (
    <div className="node-inspector">
      <div className="panel-head">
        <span className="dot" style={{ background: categoryColor(t?.category) }} /> Node
      </div>
      <div className="field">
        <label>id</label>
        <CommitInput
          testid="node-id-input"
          label="node id"
          value={node.id}
          onCommit={async (v) => {
            if (await edit({ op: "rename_node", from: node.id, to: v })) useUi.setState({ selection: { nodes: [v], edges: [] } });
          }}
        />
      </div>
      <div className="field">
        <label>type</label>
        <select
          data-testid="node-type-select"
          aria-label="node type"
          value={pendingType ?? node.type ?? ""}
          onChange={(e) => {
            const next = e.target.value;
            const warn = unknownFields(node.config, types.get(next)?.config_schema);
            if (warn.length) setPendingType(next);
            else void edit({ op: "set_node_type", id: node.id, type: next });
          }}
        >
          {!t && <option value={node.type ?? ""}>{node.type ?? "(none)"} (not in the registry)</option>}
          {view.registry.map((x) => (
            <option key={x.type} value={x.type}>
              {x.title ? `${x.title} (${x.type})` : x.type}
            </option>
          ))}
        </select>
      </div>
      {pendingType && (
        <div className="warn-box" data-testid="type-change-warning">
          Type “{pendingType}” does not know these config fields:{" "}
          {dropped.map((f) => (
            <code key={f}>{f} </code>
          ))}
          . They are kept, but will be reported until you remove them.
          <div className="row">
            <button
              data-testid="type-change-confirm"
              onClick={() => {
                void edit({ op: "set_node_type", id: node.id, type: pendingType });
                setPendingType(null);
              }}
            >
              Change type
            </button>
            <button onClick={() => setPendingType(null)}>Cancel</button>
          </div>
        </div>
      )}
      {nodeLevel.map((d, i) => (
        <div key={i} className={`inline-${d.severity}`} data-testid="node-problem" data-code={d.code}>
          {d.message} <FixButtons diagnostic={d} docId={view.id} />
        </div>
      ))}
      {diags
        .filter((d) => !nodeLevel.includes(d) && (d.fixes?.length ?? 0) > 0)
        .map((d, i) => (
          <div key={`f${i}`} className={`inline-${d.severity}`} data-testid="node-problem" data-code={d.code}>
            {d.message} <FixButtons diagnostic={d} docId={view.id} />
          </div>
        ))}
      {t?.description && <p className="muted small">{t.description}</p>}
      <div className="panel-sub">Config</div>
      <SchemaForm nodeId={node.id} nodeIndex={index} config={node.config} schema={t?.config_schema} diagnostics={diags} />
      <details open={rawOpen} onToggle={(e) => setRawOpen((e.target as HTMLDetailsElement).open)}>
        <summary data-testid="config-raw-toggle">Raw JSON</summary>
        {rawOpen && <RawConfig id={node.id} config={node.config} />}
      </details>
    </div>
  );
}

function RawConfig({ id, config }: { id: string; config: Record<string, unknown> }) {
  const shown = JSON.stringify(config, null, 2);
  const [text, setText] = useState(shown);
  const [err, setErr] = useState<string | null>(null);
  useEffect(() => setText(shown), [shown]);
  const apply = () => {
    try {
      const v = JSON.parse(text);
      if (!v || typeof v !== "object" || Array.isArray(v)) return setErr("A config is a JSON object.");
      setErr(null);
      if (JSON.stringify(v) !== JSON.stringify(config)) void edit({ op: "set_config", id, config: v });
    } catch (e) {
      setErr(`Not JSON: ${(e as Error).message}`);
    }
  };
  return (
    <div className="raw">
      <textarea
        data-testid="config-raw"
        aria-label="config as JSON"
        rows={8}
        value={text}
        spellCheck={false}
        onChange={(e) => setText(e.target.value)}
      />
      {err && <div className="inline-error">{err}</div>}
      <div className="row">
        <button data-testid="config-raw-apply" disabled={text === shown} onClick={apply}>
          Apply JSON
        </button>
        <button disabled={text === shown} onClick={() => setText(shown)}>
          Revert
        </button>
      </div>
    </div>
  );
}

function EdgeInspector({ view, index }: { view: DocumentView; index: number }) {
  const e = view.spec.edges[index];
  const channels = Object.keys(view.spec.channels);
  const diags = view.diagnostics.filter((d) => d.element?.kind === "edge" && d.element.index === index);
  return (
    <div className="edge-inspector" data-testid="edge-inspector">
      <div className="panel-head">Edge</div>
      <div className="pad">
        <code>{e.from}</code> → <code>{e.to}</code>
        {e.when && <div className="muted small">when {view.edgeLabels[index]?.text}</div>}
      </div>
      {diags.map((d, i) => (
        <div key={i} className={`inline-${d.severity}`}>
          {d.message}
        </div>
      ))}
      <div className="panel-sub">Condition</div>
      <ConditionBuilder index={index} e={e} label={view.edgeLabels[index] ?? undefined} channels={channels} />
      <div className="row pad">
        <button
          className="danger"
          data-testid="edge-delete"
          onClick={() => void edit({ op: "disconnect", index }).then(() => useUi.setState({ selection: { nodes: [], edges: [] } }))}
        >
          Delete edge
        </button>
      </div>
    </div>
  );
}

/** What the channel counts start from before the first deferred render. */
const NO_GRAPH: DocumentView["spec"] = { name: null, channels: {}, nodes: [], edges: [] };

function GraphInspector({ view }: { view: DocumentView }) {
  const [name, setName] = useState("");
  const [reducer, setReducer] = useState<ReducerName>("last_write");
  const channelDiags = useMemo(() => view.diagnostics.filter((d) => d.element?.kind === "channel"), [view.diagnostics]);
  // The conditions' undeclared channels, as Rust's checker found them (with its fix).
  const undeclared = useMemo(
    () => [
      ...new Set(
        view.diagnostics
          .filter((d) => d.code === "spec/undeclared-channel" && d.element?.kind === "edge")
          .flatMap((d) => (d.names?.channel === undefined ? [] : [d.names.channel])),
      ),
    ],
    [view.diagnostics],
  );
  // Counted once per change of the edges or nodes, not at every render (every edge and
  // every node config of a large graph), and after the edit is on screen: the counts follow
  // in a render of their own (kept out of an edit's answer and out of an open's first frame).
  const spec = useDeferredValue(view.spec, NO_GRAPH);
  const used = useMemo(() => {
    const out = new Map<string, number>();
    for (const e of spec.edges) if (typeof e.when?.channel === "string") out.set(e.when.channel, (out.get(e.when.channel) ?? 0) + 1);
    // Config fields that name channels count as uses too.
    for (const [c, k] of configChannelUses(spec.nodes, view.registry)) out.set(c, (out.get(c) ?? 0) + k);
    return out;
  }, [spec.edges, spec.nodes, view.registry]);
  const add = async (n: string) => {
    if (await edit({ op: "add_channel", name: n.trim(), reducer })) setName("");
  };
  return (
    <div className="graph-inspector" data-testid="graph-inspector">
      <div className="panel-head">Graph</div>
      <div className="field">
        <label>name</label>
        <CommitInput
          testid="graph-name"
          value={view.spec.name ?? ""}
          placeholder="(unnamed)"
          onCommit={(v) => void edit({ op: "rename_graph", name: v === "" ? null : v })}
        />
      </div>
      <div className="panel-sub">Channels</div>
      <table className="channels" data-testid="channel-table">
        <thead>
          <tr>
            <th>name</th>
            <th>reducer</th>
            <th title="edge conditions that read it and config fields that name it">used</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {Object.entries(view.spec.channels).map(([c, spec]) => (
            <tr key={c} data-testid="channel-row" data-channel={c}>
              <td>
                <CommitInput
                  testid={`channel-name-${c}`}
                  value={c}
                  onCommit={(v) => void edit({ op: "rename_channel", from: c, to: v.trim() })}
                />
              </td>
              <td>
                <select
                  data-testid={`channel-reducer-${c}`}
                  value={spec.reducer}
                  onChange={(e) => void edit({ op: "set_reducer", name: c, reducer: e.target.value as ReducerName })}
                >
                  {REDUCERS.map((r) => (
                    <option key={r} value={r}>
                      {r}
                    </option>
                  ))}
                  {!REDUCERS.includes(spec.reducer as ReducerName) && <option value={spec.reducer}>{spec.reducer}</option>}
                </select>
              </td>
              <td className="num">{used.get(c) ?? 0}</td>
              <td>
                <button
                  className="link danger"
                  title="Delete channel"
                  data-testid={`channel-delete-${c}`}
                  onClick={() => void edit({ op: "remove_channel", name: c })}
                >
                  ×
                </button>
              </td>
            </tr>
          ))}
          <tr>
            <td>
              <input
                data-testid="channel-new-name"
                placeholder="new channel"
                value={name}
                onChange={(e) => setName(e.target.value)}
                onKeyDown={(e) => e.key === "Enter" && name.trim() && void add(name)}
              />
            </td>
            <td>
              <select data-testid="channel-new-reducer" value={reducer} onChange={(e) => setReducer(e.target.value as ReducerName)}>
                {REDUCERS.map((r) => (
                  <option key={r} value={r}>
                    {r}
                  </option>
                ))}
              </select>
            </td>
            <td />
            <td>
              <button data-testid="channel-add" disabled={!name.trim()} onClick={() => void add(name)}>
                Add
              </button>
            </td>
          </tr>
        </tbody>
      </table>
      {undeclared.map((c) => (
        <div key={c} className="inline-error">
          Conditions read “{c}”, which is not declared.{" "}
          <button className="link" data-testid={`declare-${c}`} onClick={() => void applyFix({ kind: "declare_channel", name: c })}>
            Declare it (last_write)
          </button>
        </div>
      ))}
      {channelDiags.map((d, i) => (
        <div key={i} className={`inline-${d.severity}`}>
          {d.message}
        </div>
      ))}
      <p className="muted small pad">
        {count(view.spec.nodes.length, "node")}, {count(view.spec.edges.length, "edge")}. Format: {view.format}.{" "}
        {view.path ?? "Not saved yet."}
      </p>
    </div>
  );
}
