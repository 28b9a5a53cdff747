// A diagnostic's fixes as buttons (problems panel, inspector, canvas badges). The fix itself is
// data from Rust (`Diagnostic.fixes`); the button only sends it back (`apply_fix`).
import type { Diagnostic, FixEdit } from "../bindings";
import { applyFix } from "../actions";

export function FixButtons({ diagnostic, docId }: { diagnostic: Diagnostic; docId?: string }) {
  const fixes = diagnostic.fixes ?? [];
  if (fixes.length === 0) return null;
  return (
    <span className="fixes">
      {fixes.map((f, i) => (
        <button
          key={i}
          className="fix"
          data-testid="fix"
          data-fix={f.edit.kind}
          title={f.title}
          onClick={(e) => {
            e.stopPropagation();
            void applyFix(f.edit, docId);
          }}
        >
          {f.title}
        </button>
      ))}
    </span>
  );
}

/** The findings of a node type no registry describes (a built-in type used otherwise is not one). */
const UNKNOWN_TYPE_CODES = new Set(["spec/unknown-type", "weaveflow/unknown-node-type"]);

/** Every unknown type the diagnostics offer to describe, once each, in order. */
export function typesToDescribe(diagnostics: readonly Diagnostic[]): string[] {
  const out: string[] = [];
  for (const d of diagnostics) {
    if (!UNKNOWN_TYPE_CODES.has(d.code)) continue;
    for (const f of d.fixes ?? []) if (f.edit.kind === "describe_types") for (const t of f.edit.types) if (!out.includes(t)) out.push(t);
  }
  return out;
}

/** One button for all the types a document's problems offer to describe. */
export function DescribeAllButton({ diagnostics, docId }: { diagnostics: readonly Diagnostic[]; docId?: string }) {
  const types = typesToDescribe(diagnostics);
  if (types.length < 2) return null;
  const fix: FixEdit = { kind: "describe_types", types };
  return (
    <button className="fix" data-testid="fix-describe-all" title={types.join(", ")} onClick={() => void applyFix(fix, docId)}>
      Describe all {types.length} unknown types in a project registry
    </button>
  );
}
