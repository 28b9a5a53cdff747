// The document's problems in the pane: each one underlined where Rust placed it (`TextMark`: the
// place its pointer names, the same the problems panel shows), with its message and the fixes
// the problems panel offers (applied as edits, through Rust). The reader's error, while the
// text does not read, is one more, at the place the reader stopped.
import type { Action, Diagnostic as Underline } from "@codemirror/lint";
import type { Diagnostic, TextProblem, TextRange } from "../bindings";

/** What applying a fix means here (the app's `applyFix`). */
export type FixRunner = (fix: NonNullable<Diagnostic["fixes"]>[number]) => void;

/** At most this many problems are underlined (a document with 100,000 unknown types would
 * make the editor slow to draw); the problems panel lists them all. */
export const UNDERLINE_LIMIT = 20_000;

function clamp(n: number, length: number): number {
  return Math.max(0, Math.min(n, length));
}

/** The underlines of the view's `diagnostics` at their places (`places[i]` is where
 * `diagnostics[i]` is in the text of `length`; null: not in the text). */
export function underlines(
  places: readonly (TextRange | null)[],
  diagnostics: readonly Diagnostic[],
  error: TextProblem | null,
  length: number,
  runFix: FixRunner,
): Underline[] {
  const out: Underline[] = [];
  for (const [i, m] of places.entries()) {
    const d = diagnostics[i];
    if (!d || !m) continue;
    if (out.length >= UNDERLINE_LIMIT) break;
    const actions: Action[] = (d.fixes ?? []).map((f) => ({ name: f.title, apply: () => runFix(f) }));
    out.push({
      from: clamp(m.from, length),
      to: clamp(m.to, length),
      severity: d.severity === "info" ? "info" : d.severity,
      message: d.message,
      source: d.code,
      actions,
    });
  }
  if (error) {
    const span = error.diagnostic.span;
    const from = clamp(error.from, length);
    // A place of no width (the end of the text) is underlined on the character before it.
    const to = error.to > error.from ? clamp(error.to, length) : Math.min(from + 1, length);
    out.push({
      from: to > from ? from : Math.max(0, from - 1),
      to,
      severity: "error",
      message: `The text does not read${span ? ` (line ${span.line}, column ${span.column})` : ""}: ${error.diagnostic.message}. The canvas shows the last text that read; saving waits until this is fixed.`,
      source: error.diagnostic.code,
    });
  }
  return out.sort((a, b) => a.from - b.from || a.to - b.to);
}
