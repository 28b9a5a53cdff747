// The edge condition builder's model: one channel, one operator, one typed value. Converts to
// and from a stored predicate. Unknown keys of an existing predicate are kept (Rust stores the
// object verbatim), but a second operator is dropped since the builder edits exactly one. Which
// operator a stored predicate uses is Rust's answer (`EdgeLabel.operator`), never worked out
// here, and the operators are Rust's type (`PredicateOperator`).
import type { Predicate, PredicateOperator } from "../bindings";

export type Operator = PredicateOperator;

/** What the operator select says of each operator. Keyed by Rust's type: an operator Rust adds
 * fails the type check until it has its words here. */
export const OPERATOR_TEXT: Record<Operator, string> = {
  eq: "equals (==)",
  neq: "differs (!=)",
  in: "is one of (in)",
  gt: "greater than (>)",
  lt: "less than (<)",
  truthy: "truthiness",
};

/** Every operator, in the select's order. */
export const OPERATORS = Object.keys(OPERATOR_TEXT) as Operator[];

/** A value as the value box shows it: `JSON.stringify`, `undefined` written as such. */
function jsJson(v: unknown): string {
  if (v === undefined) return "undefined";
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}

export type ValueType = "string" | "number" | "boolean" | "null" | "json";

export type ConditionModel = {
  channel: string;
  op: Operator;
  valueType: ValueType;
  /** The text in the value box (for `in`: a JSON array, or comma-separated items). */
  text: string;
  /** Keys of the stored predicate that are neither `channel` nor an operator. */
  extra: Record<string, unknown>;
};

export function typeOfValue(v: unknown): ValueType {
  if (v === null) return "null";
  if (typeof v === "string") return "string";
  if (typeof v === "number") return "number";
  if (typeof v === "boolean") return "boolean";
  return "json";
}

function textOf(v: unknown, t: ValueType): string {
  if (t === "string") return v as string;
  if (t === "null") return "null";
  return jsJson(v);
}

/** The model of a stored predicate; `operator` is the one Rust says it uses (null: none). */
export function fromPredicate(p: Predicate | undefined, operator: Operator | null, defaultChannel = ""): ConditionModel {
  const extra: Record<string, unknown> = {};
  if (!p) return { channel: defaultChannel, op: "eq", valueType: "string", text: "", extra };
  for (const [k, v] of Object.entries(p)) {
    if (k !== "channel" && !(OPERATORS as readonly string[]).includes(k)) extra[k] = v;
  }
  const channel = typeof p.channel === "string" ? p.channel : defaultChannel;
  const op = operator ?? "eq";
  const v = p[op];
  if (op === "in") return { channel, op, valueType: "json", text: jsJson(v), extra };
  if (op === "truthy") return { channel, op, valueType: "boolean", text: v === false ? "false" : "true", extra };
  if (op === "gt" || op === "lt") return { channel, op, valueType: "number", text: v === undefined ? "" : jsJson(v), extra };
  const t = typeOfValue(v);
  return { channel, op, valueType: t, text: v === undefined ? "" : textOf(v, t), extra };
}

/** Reads one item of a comma-separated list: numbers, true/false/null and quoted strings keep
 * their type; anything else is a string. */
export function autoValue(raw: string): unknown {
  const s = raw.trim();
  if (s === "true") return true;
  if (s === "false") return false;
  if (s === "null") return null;
  if (s !== "" && /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(s)) return Number(s);
  if (s.length >= 2 && s.startsWith('"') && s.endsWith('"')) {
    try {
      return JSON.parse(s);
    } catch {
      return s.slice(1, -1);
    }
  }
  return s;
}

/** Splits `a, "b, c", 3` on commas outside quotes. */
function splitList(s: string): string[] {
  const out: string[] = [];
  let cur = "";
  let quoted = false;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    if (ch === '"' && s[i - 1] !== "\\") quoted = !quoted;
    if (ch === "," && !quoted) {
      out.push(cur);
      cur = "";
    } else cur += ch;
  }
  if (cur.trim() !== "" || out.length > 0) out.push(cur);
  return out;
}

export type ValueResult = { ok: true; value: unknown } | { ok: false; error: string };

export function parseValue(m: Pick<ConditionModel, "op" | "valueType" | "text">): ValueResult {
  const { op, text } = m;
  if (op === "truthy") {
    if (text === "true" || text === "false") return { ok: true, value: text === "true" };
    return { ok: false, error: "Choose truthy or not truthy." };
  }
  if (op === "gt" || op === "lt") {
    const s = text.trim();
    const n = Number(s);
    if (s === "" || !Number.isFinite(n)) return { ok: false, error: `${op} compares numbers: enter a number.` };
    return { ok: true, value: n };
  }
  if (op === "in") {
    const s = text.trim();
    if (s.startsWith("[")) {
      try {
        const v = JSON.parse(s);
        if (Array.isArray(v)) return { ok: true, value: v };
      } catch (e) {
        return { ok: false, error: `Not a JSON list: ${(e as Error).message}` };
      }
      return { ok: false, error: "in needs a list." };
    }
    if (s === "") return { ok: false, error: "in needs at least one value (comma-separated, or a JSON list)." };
    return { ok: true, value: splitList(s).map(autoValue) };
  }
  switch (m.valueType) {
    case "string":
      return { ok: true, value: text };
    case "number": {
      const s = text.trim();
      const n = Number(s);
      if (s === "" || !Number.isFinite(n)) return { ok: false, error: "Enter a number." };
      return { ok: true, value: n };
    }
    case "boolean":
      if (text === "true" || text === "false") return { ok: true, value: text === "true" };
      return { ok: false, error: "Choose true or false." };
    case "null":
      return { ok: true, value: null };
    case "json":
      try {
        return { ok: true, value: JSON.parse(text) };
      } catch (e) {
        return { ok: false, error: `Not JSON: ${(e as Error).message}` };
      }
  }
}

export type PredicateResult = { ok: true; predicate: Predicate } | { ok: false; error: string };

export function toPredicate(m: ConditionModel): PredicateResult {
  if (!m.channel) return { ok: false, error: "Choose a channel (declare one in the graph inspector first)." };
  const v = parseValue(m);
  if (!v.ok) return v;
  return { ok: true, predicate: { channel: m.channel, [m.op]: v.value, ...m.extra } as Predicate };
}

/** When the operator changes, a sensible value type and text follow. */
export function withOperator(m: ConditionModel, op: Operator): ConditionModel {
  if (op === m.op) return m;
  if (op === "truthy") return { ...m, op, valueType: "boolean", text: "true" };
  if (op === "gt" || op === "lt") return { ...m, op, valueType: "number", text: m.valueType === "number" ? m.text : "" };
  if (op === "in") {
    const cur = parseValue(m);
    const text = m.op === "eq" || m.op === "neq" ? (cur.ok && m.text !== "" ? jsJson([cur.value]) : "") : m.text;
    return { ...m, op, valueType: "json", text };
  }
  if (m.op === "in" || m.op === "truthy" || m.op === "gt" || m.op === "lt")
    return {
      ...m,
      op,
      valueType: m.op === "gt" || m.op === "lt" ? "number" : "string",
      text: m.op === "gt" || m.op === "lt" ? m.text : "",
    };
  return { ...m, op };
}
