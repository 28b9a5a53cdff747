// The edge condition builder: a declared channel, an operator (Rust's: eq, neq, in, gt, lt,
// truthy), a typed value. Applies as one `set_when` edit; "Remove condition" clears it. The
// stored condition is read with the operator Rust says it uses, and shown in Rust's words.
import { useEffect, useState } from "react";
import type { EdgeLabel, EdgeSpec } from "../bindings";
import { edit } from "../actions";
import {
  type ConditionModel,
  OPERATORS,
  OPERATOR_TEXT,
  type ValueType,
  fromPredicate,
  parseValue,
  toPredicate,
  withOperator,
} from "../lib/condition";

export function ConditionBuilder({
  index,
  e,
  label,
  channels,
}: {
  index: number;
  e: EdgeSpec;
  label: EdgeLabel | undefined;
  channels: string[];
}) {
  const operator = label?.operator ?? null;
  const [m, setM] = useState<ConditionModel>(() => fromPredicate(e.when, operator, channels[0] ?? ""));
  useEffect(() => setM(fromPredicate(e.when, operator, channels[0] ?? "")), [e.when, operator, channels]);
  const parsed = parseValue(m);
  const result = toPredicate(m);
  const undeclared = m.channel && !channels.includes(m.channel);
  // Each control applies at once when the condition it makes is complete (selects on change,
  // the value box on Enter or blur); the button does the same explicitly.
  const commit = (next: ConditionModel, explicit = false) => {
    // A new condition waits for its value: `intent == ""` is rarely what is meant.
    if (!explicit && !e.when && (next.op === "eq" || next.op === "neq") && next.valueType === "string" && next.text === "") return;
    const r = toPredicate(next);
    if (r.ok && JSON.stringify(r.predicate) !== JSON.stringify(e.when ?? null)) void edit({ op: "set_when", index, when: r.predicate });
  };
  const change = (next: ConditionModel, now: boolean) => {
    setM(next);
    if (now) commit(next);
  };
  const apply = () => commit(m);
  // The builder's condition is the stored one: Rust's label shows what the edge says.
  const stored = result.ok && !!e.when && JSON.stringify(result.predicate) === JSON.stringify(e.when);
  const applyExplicit = () => commit(m, true);
  return (
    <div className="cond" data-testid="condition-builder">
      <div className="cond-row">
        <label>
          channel
          <select data-testid="condition-channel" value={m.channel} onChange={(ev) => change({ ...m, channel: ev.target.value }, true)}>
            {!m.channel && <option value="">— choose —</option>}
            {channels.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
            {undeclared && <option value={m.channel}>{m.channel} (not declared)</option>}
          </select>
        </label>
        <label>
          operator
          <select
            data-testid="condition-operator"
            value={m.op}
            onChange={(ev) => change(withOperator(m, ev.target.value as ConditionModel["op"]), true)}
          >
            {OPERATORS.map((o) => (
              <option key={o} value={o}>
                {OPERATOR_TEXT[o]}
              </option>
            ))}
          </select>
        </label>
      </div>
      {m.op === "truthy" ? (
        <label>
          value
          <select data-testid="condition-value" value={m.text} onChange={(ev) => change({ ...m, text: ev.target.value }, true)}>
            <option value="true">truthy</option>
            <option value="false">not truthy</option>
          </select>
        </label>
      ) : (
        <div className="cond-row">
          {(m.op === "eq" || m.op === "neq") && (
            <label>
              type
              <select
                data-testid="condition-value-type"
                value={m.valueType}
                onChange={(ev) =>
                  change(
                    {
                      ...m,
                      valueType: ev.target.value as ValueType,
                      text: ev.target.value === "boolean" ? "true" : ev.target.value === "null" ? "null" : m.text,
                    },
                    true,
                  )
                }
              >
                <option value="string">string</option>
                <option value="number">number</option>
                <option value="boolean">boolean</option>
                <option value="null">null</option>
                <option value="json">JSON</option>
              </select>
            </label>
          )}
          <label className="grow">
            value
            {m.valueType === "boolean" && (m.op === "eq" || m.op === "neq") ? (
              <select data-testid="condition-value" value={m.text} onChange={(ev) => change({ ...m, text: ev.target.value }, true)}>
                <option value="true">true</option>
                <option value="false">false</option>
              </select>
            ) : (
              <input
                data-testid="condition-value"
                value={m.valueType === "null" ? "null" : m.text}
                disabled={m.valueType === "null"}
                placeholder={m.op === "in" ? 'a, b, 3   or   ["a", "b", 3]' : m.op === "gt" || m.op === "lt" ? "a number" : ""}
                onChange={(ev) => setM({ ...m, text: ev.target.value })}
                onBlur={apply}
                onKeyDown={(ev) => ev.key === "Enter" && apply()}
              />
            )}
          </label>
        </div>
      )}
      {!parsed.ok && (
        <div className="inline-error" data-testid="condition-error">
          {parsed.error}
        </div>
      )}
      {parsed.ok && !result.ok && (
        <div className="inline-error" data-testid="condition-error">
          {result.error}
        </div>
      )}
      {channels.length === 0 && (
        <div className="inline-warning">No channels are declared: add one in the graph inspector (click the empty canvas).</div>
      )}
      <div className="cond-preview">
        {stored ? (
          <code data-testid="condition-preview">{label?.text}</code>
        ) : (
          <span className="muted">{result.ok ? "not applied yet" : "—"}</span>
        )}
      </div>
      <div className="row">
        <button data-testid="condition-apply" disabled={!result.ok} onClick={applyExplicit}>
          {e.when ? "Update condition" : "Set condition"}
        </button>
        {e.when && (
          <button data-testid="condition-clear" onClick={() => void edit({ op: "set_when", index })}>
            Remove condition
          </button>
        )}
      </div>
    </div>
  );
}
