// Counts as the UI says them, from one place: "1 node", "2 nodes", "10,000 nodes"; and the
// document's problems counted once, so the status bar, the problems panel and the save message
// never disagree.
import type { Diagnostic } from "../bindings";

/** `n` and the word for it: `count(1, "node")` is "1 node", `count(3, "match", "matches")`
 * "3 matches". Thousands are grouped as the rest of the UI writes them (10,000). */
export function count(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;
}

export type ProblemCounts = { errors: number; warnings: number; infos: number; total: number };

/** The problems of a list of findings, by severity (what the status bar, the problems panel's
 * heading and a save's message all show). */
export function problemCounts(all: readonly Diagnostic[]): ProblemCounts {
  let errors = 0;
  let warnings = 0;
  let infos = 0;
  for (const d of all) {
    if (d.severity === "error") errors++;
    else if (d.severity === "warning") warnings++;
    else infos++;
  }
  return { errors, warnings, infos, total: all.length };
}

/** "3 errors, 1 warning" (the kinds there are; "no problems" when none). */
export function problemSummary(c: ProblemCounts): string {
  const parts = [
    c.errors ? count(c.errors, "error") : "",
    c.warnings ? count(c.warnings, "warning") : "",
    c.infos ? count(c.infos, "note") : "",
  ].filter(Boolean);
  return parts.length ? parts.join(", ") : "no problems";
}
