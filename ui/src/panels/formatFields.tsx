// Small inputs shared by the Weaveflow and GRAPH.md inspectors: text fields that commit on
// Enter or blur (Escape reverts), and the parsing of what was typed into a JSON value.
import { useEffect, useState } from "react";

/** Typed text -> the value to send: "" removes the field, numbers and booleans stay typed. */
export function parseScalar(text: string, kind: "text" | "number" | "json"): { ok: true; value: unknown } | { ok: false; error: string } {
  const t = text.trim();
  if (t === "") return { ok: true, value: undefined };
  if (kind === "number") {
    const n = Number(t);
    return Number.isFinite(n) ? { ok: true, value: n } : { ok: false, error: `“${t}” is not a number` };
  }
  if (kind === "json") {
    try {
      return { ok: true, value: JSON.parse(t) };
    } catch (e) {
      return { ok: false, error: `not JSON: ${(e as Error).message}` };
    }
  }
  return { ok: true, value: text };
}

export function shown(v: unknown): string {
  if (v === undefined || v === null) return "";
  return typeof v === "string" ? v : JSON.stringify(v);
}

/** A labelled field that commits on Enter or blur; a parse error is shown, nothing sent. */
export function Field(props: {
  label: string;
  value: unknown;
  kind?: "text" | "number" | "json";
  testid: string;
  multiline?: boolean;
  problem?: string | null;
  onCommit: (value: unknown) => void;
}) {
  const kind = props.kind ?? "text";
  const initial = shown(props.value);
  const [text, setText] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    setText(initial);
    setError(null);
  }, [initial]);
  const commit = () => {
    if (text === initial) return;
    const r = parseScalar(text, kind);
    if (!r.ok) return setError(r.error);
    setError(null);
    props.onCommit(r.value);
  };
  const common = {
    "data-testid": props.testid,
    value: text,
    onBlur: commit,
  };
  return (
    <div className="field">
      <label>{props.label}</label>
      {props.multiline ? (
        <textarea {...common} rows={8} onChange={(e) => setText(e.target.value)} />
      ) : (
        <input
          {...common}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter") commit();
            if (e.key === "Escape") setText(initial);
          }}
        />
      )}
      {(error ?? props.problem) && (
        <div className="diag error small" data-testid={`${props.testid}-problem`}>
          {error ?? props.problem}
        </div>
      )}
    </div>
  );
}

/** A select; `allowEmpty` offers "—" (the field unset). A value not among the options is kept
 * (shown first) so a document's odd value is visible, not silently replaced. */
export function Choice(props: {
  label: string;
  value: string;
  options: readonly string[];
  testid: string;
  allowEmpty?: boolean;
  onChange: (v: string) => void;
}) {
  const base = props.options.filter((o) => o !== "");
  const options = base.includes(props.value) || props.value === "" ? base : [props.value, ...base];
  return (
    <div className="field">
      <label>{props.label}</label>
      <select data-testid={props.testid} value={props.value} onChange={(e) => props.onChange(e.target.value)}>
        {(props.value === "" || props.allowEmpty) && <option value="">—</option>}
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    </div>
  );
}
