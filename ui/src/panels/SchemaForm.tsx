// The config form generated from the type's JSON Schema. Each field commits on blur / Enter /
// change (one undo step per committed field); values that cannot be stored at all get an inline
// message at once, and Rust's diagnostics whose pointer names the field show under it.
import { useEffect, useState } from "react";
import type { Diagnostic } from "../bindings";
import { edit } from "../actions";
import { type FieldDef, coerce, configFieldOf, display, fieldsFromSchema, jsonKey, pointerSegment, unknownFields } from "../lib/schemaForm";

type Props = { nodeId: string; nodeIndex: number; config: Record<string, unknown>; schema: unknown; diagnostics: Diagnostic[] };

export function SchemaForm({ nodeId, nodeIndex, config, schema, diagnostics }: Props) {
  const fields = fieldsFromSchema(schema);
  const extra = unknownFields(config, schema);
  const byField = new Map<string | null, Diagnostic[]>();
  for (const d of diagnostics) {
    const f = configFieldOf(d.pointer, nodeIndex);
    if (f === undefined) continue;
    byField.set(f, [...(byField.get(f) ?? []), d]);
  }
  const extraFields: FieldDef[] = extra.map((name) => ({
    name,
    kind: "json",
    title: name,
    required: false,
    schema: {},
    description: "Not described by this type's schema.",
  }));
  const schemaless = fields.length === 0 && !(schema && typeof schema === "object");
  return (
    <div className="schema-form" data-testid="config-form">
      {(byField.get(null) ?? []).map((d, i) => (
        <div key={i} className={`inline-${d.severity}`} data-testid="config-error">
          {d.message}
        </div>
      ))}
      {schemaless && <div className="muted">This type has no config schema; edit the config as JSON below.</div>}
      {[...fields, ...extraFields].map((f) => (
        <Field
          key={`${nodeId}/${f.name}`}
          nodeId={nodeId}
          f={f}
          value={config[f.name]}
          present={f.name in config}
          problems={byField.get(f.name) ?? []}
        />
      ))}
    </div>
  );
}

function Field({
  nodeId,
  f,
  value,
  present,
  problems,
}: {
  nodeId: string;
  f: FieldDef;
  value: unknown;
  present: boolean;
  problems: Diagnostic[];
}) {
  const shown = display(f, value);
  const [text, setText] = useState(shown);
  const [local, setLocal] = useState<string | null>(null);
  useEffect(() => {
    setText(shown);
    setLocal(null);
  }, [shown]);
  const path = `/${pointerSegment(f.name)}`;
  const commit = (raw: string | boolean) => {
    const c = coerce(f, raw);
    if (!c.ok) return setLocal(c.error);
    setLocal(null);
    if ("remove" in c) {
      if (present) void edit({ op: "set_config_field", id: nodeId, path });
      return;
    }
    if (present && JSON.stringify(c.value) === JSON.stringify(value)) return;
    void edit({ op: "set_config_field", id: nodeId, path, value: c.value });
  };
  const id = `cfg-${nodeId}-${f.name}`;
  const testid = `config-field-${f.name}`;
  const range = f.minimum !== undefined || f.maximum !== undefined ? `${f.minimum ?? "…"} – ${f.maximum ?? "…"}` : "";
  let input: React.ReactNode;
  switch (f.kind) {
    case "boolean":
      input = <input id={id} data-testid={testid} type="checkbox" checked={value === true} onChange={(e) => commit(e.target.checked)} />;
      break;
    case "enum":
      input = (
        <select id={id} data-testid={testid} value={present ? jsonKey(value) : ""} onChange={(e) => commit(e.target.value)}>
          <option value="">{f.required ? "— choose —" : "(not set)"}</option>
          {(f.enumValues ?? []).map((v) => (
            <option key={jsonKey(v)} value={jsonKey(v)}>
              {typeof v === "string" ? v : JSON.stringify(v)}
            </option>
          ))}
          {present && !(f.enumValues ?? []).some((v) => jsonKey(v) === jsonKey(value)) && (
            <option value={jsonKey(value)}>{jsonKey(value)} (not allowed)</option>
          )}
        </select>
      );
      break;
    case "text":
    case "string-list":
    case "string-map":
    case "json":
      input = (
        <textarea
          id={id}
          data-testid={testid}
          rows={f.kind === "json" ? 4 : 3}
          value={text}
          placeholder={
            f.kind === "string-list"
              ? "one item per line"
              : f.kind === "string-map"
                ? "key: value (one per line)"
                : f.kind === "json"
                  ? "JSON"
                  : ""
          }
          onChange={(e) => setText(e.target.value)}
          onBlur={() => commit(text)}
          onKeyDown={(e) => {
            if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) commit(text);
          }}
        />
      );
      break;
    default:
      input = (
        <input
          id={id}
          data-testid={testid}
          type={f.kind === "number" || f.kind === "integer" ? "text" : f.format === "uri" ? "url" : "text"}
          inputMode={f.kind === "number" ? "decimal" : f.kind === "integer" ? "numeric" : undefined}
          value={text}
          placeholder={f.default !== undefined ? `default ${JSON.stringify(f.default)}` : range}
          onChange={(e) => setText(e.target.value)}
          onBlur={() => commit(text)}
          onKeyDown={(e) => {
            if (e.key === "Enter") commit(text);
            if (e.key === "Escape") setText(shown);
          }}
        />
      );
  }
  const invalid = !!local || problems.some((d) => d.severity === "error");
  return (
    <div className={`field${invalid ? " invalid" : ""}`} data-testid="config-field" data-path={path} data-field={f.name}>
      <label htmlFor={id}>
        {f.title}
        {f.required ? (
          <span className="req" title="required">
            *
          </span>
        ) : null}
        {range ? <span className="muted"> {range}</span> : null}
        {f.title !== f.name ? <code className="muted"> {f.name}</code> : null}
      </label>
      {input}
      {f.hostResolved ? (
        <div className="hint host-resolved" data-testid={`host-resolved-${f.name}`}>
          Resolved by the host when it builds the graph: Trellis cannot know the valid names, so it accepts any.
        </div>
      ) : null}
      {f.description ? <div className="hint">{f.description}</div> : null}
      {local ? (
        <div className="inline-error" data-testid={`field-error-${f.name}`}>
          {local}
        </div>
      ) : null}
      {problems.map((d, i) => (
        <div key={i} className={`inline-${d.severity}`} data-testid={`field-error-${f.name}`}>
          {d.message}
        </div>
      ))}
    </div>
  );
}
