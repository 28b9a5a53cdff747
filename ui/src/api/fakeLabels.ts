// The browser demo's stand-in for Rust's edge labels (crates/doc `drawn_edges.rs`), for the
// in-memory backend only, which has no Rust to ask: GraphSpec guards in a plain style. The app
// and the UI tests draw what Rust sends (`DocumentView.edgeLabels`); nothing else imports this.
import type { EdgeLabel, EdgeSpec, Predicate, PredicateOperator } from "../bindings";

const IN_ORDER: PredicateOperator[] = ["eq", "neq", "in", "gt", "lt", "truthy"];
const SYMBOL: Record<PredicateOperator, string> = { eq: "==", neq: "!=", in: "in", gt: ">", lt: "<", truthy: "truthy" };

/** The operator the demo takes a guard to use: the first present (a non-array `in` not counting). */
export function fakeOperator(p: Predicate): PredicateOperator | null {
  return IN_ORDER.find((op) => Object.hasOwn(p, op) && (op !== "in" || Array.isArray(p.in))) ?? null;
}

export function fakeEdgeLabel(e: EdgeSpec): EdgeLabel | null {
  if (!e.when) return null;
  const operator = fakeOperator(e.when);
  const text = operator ? `${e.when.channel} ${SYMBOL[operator]} ${JSON.stringify(e.when[operator])}` : `${e.when.channel} ?`;
  return { text, operator };
}
