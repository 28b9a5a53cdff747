// Edge labels in the Mermaid export's style (the same text `trellis mermaid` and
// `predicate::label` in crates/spec produce): `intent == "buy"`, `truthy(items)`, ...
import type { Predicate } from "../bindings";

export type Operator = "eq" | "neq" | "in" | "gt" | "lt" | "truthy";

/** Operators in the engine's precedence order: the first one present is the one used. */
export const OPERATORS: readonly Operator[] = ["eq", "neq", "in", "gt", "lt", "truthy"];

const has = (p: object, k: string) => Object.hasOwn(p, k);

/** The operator the engine uses: the first present, a non-array `in` not counting. */
export function operatorOf(p: Predicate): Operator | null {
  for (const op of OPERATORS) {
    if (!has(p, op)) continue;
    if (op === "in" && !Array.isArray(p.in)) continue;
    return op;
  }
  return null;
}

/** `JSON.stringify` with `undefined` written as such (never thrown away silently). */
export function jsJson(v: unknown): string {
  if (v === undefined) return "undefined";
  try {
    return JSON.stringify(v) ?? String(v);
  } catch {
    return String(v);
  }
}

export function predicateLabel(p: Predicate | null | undefined): string {
  if (!p || typeof p !== "object") return "";
  const channel = typeof p.channel === "string" ? p.channel : p.channel === undefined ? "?" : jsJson(p.channel);
  switch (operatorOf(p)) {
    case "eq":
      return `${channel} == ${jsJson(p.eq)}`;
    case "neq":
      return `${channel} != ${jsJson(p.neq)}`;
    case "in":
      return `${channel} in [${(p.in as unknown[]).map(jsJson).join(", ")}]`;
    case "gt":
      return `${channel} > ${jsJson(p.gt)}`;
    case "lt":
      return `${channel} < ${jsJson(p.lt)}`;
    case "truthy":
      return isTruthy(p.truthy) ? `truthy(${channel})` : `not truthy(${channel})`;
    default:
      return `${channel} ?`;
  }
}

/** The reference's isTruthy: null, undefined, false, "", 0, NaN, [] and {} are falsy. */
export function isTruthy(v: unknown): boolean {
  if (v === null || v === undefined || v === false || v === "" || v === 0) return false;
  if (typeof v === "number" && Number.isNaN(v)) return false;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === "object") return Object.keys(v as object).length > 0;
  return true;
}

/** Shorten a label for the canvas; the full text stays in the tooltip and the inspector. */
export function shortLabel(label: string, max = 42): string {
  return label.length <= max ? label : `${label.slice(0, max - 1)}…`;
}
