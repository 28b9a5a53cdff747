//! Diagnostic codes of the GRAPH.md rules.

/// No `spec_version`: read with v1.0.0 rules.
pub const MISSING_SPEC_VERSION: &str = "graphmd/missing-spec-version";
/// `spec_version` is not "1.0.0" or "1.1.0".
pub const UNKNOWN_SPEC_VERSION: &str = "graphmd/unknown-spec-version";
/// A required field is absent.
pub const MISSING_FIELD: &str = "graphmd/missing-field";
/// A field holds the wrong type of value.
pub const WRONG_TYPE: &str = "graphmd/wrong-type";
/// A value is out of its allowed range (negative tokens, threshold outside 0..1, ...).
pub const INVALID_VALUE: &str = "graphmd/invalid-value";
/// A key this editor does not know (kept on write).
pub const UNKNOWN_FIELD: &str = "graphmd/unknown-field";
/// A node `kind` outside agent/tool/router/verifier/judge/human/subgraph.
pub const UNKNOWN_NODE_KIND: &str = "graphmd/unknown-node-kind";
/// An edge `kind` outside sequential/conditional/parallel/loop.
pub const UNKNOWN_EDGE_KIND: &str = "graphmd/unknown-edge-kind";
/// A judge `seat` outside router/gate/selector/verifier/advisor/triage.
pub const UNKNOWN_SEAT: &str = "graphmd/unknown-seat";
/// A judge node in a document that does not declare spec_version "1.1.0".
pub const JUDGE_NEEDS_V1_1: &str = "graphmd/judge-needs-v1-1";
/// A judge-only field on a node that is not a judge.
pub const JUDGE_FIELD_ON_NON_JUDGE: &str = "graphmd/judge-field-on-non-judge";
/// Two fields that say the same thing both given (`options` and `options_count`, ...).
pub const CONFLICTING_FIELDS: &str = "graphmd/conflicting-fields";
/// Two nodes share an id.
pub const DUPLICATE_ID: &str = "graphmd/duplicate-id";
/// Two edges share an id.
pub const DUPLICATE_EDGE_ID: &str = "graphmd/duplicate-edge-id";
/// A reference (entry, exits, edge ends, fallback) names no node.
pub const UNKNOWN_NODE: &str = "graphmd/unknown-node";
/// A node `reads` a state name that `state` does not declare.
pub const UNKNOWN_STATE: &str = "graphmd/unknown-state";
/// A conditional edge without a `condition`.
pub const MISSING_CONDITION: &str = "graphmd/missing-condition";
/// A loop edge without `bounds: {max_iterations: N}`.
pub const UNBOUNDED_LOOP: &str = "graphmd/unbounded-loop";
/// `condition` on an edge that is not conditional, or `bounds` on one that is not a loop.
pub const UNUSED_EDGE_FIELD: &str = "graphmd/unused-edge-field";
/// A cycle that no loop edge closes (it could run forever).
pub const UNBOUNDED_CYCLE: &str = "graphmd/unbounded-cycle";
/// A loop edge whose target cannot reach its source (it closes no cycle).
pub const LOOP_NOT_A_CYCLE: &str = "graphmd/loop-not-a-cycle";
/// An exit that cannot be reached from the entry.
pub const EXIT_UNREACHABLE: &str = "graphmd/exit-unreachable";
/// A node that cannot be reached from the entry.
pub const UNREACHABLE_NODE: &str = "graphmd/unreachable-node";
/// A node that is not an exit and has no way out.
pub const DEAD_END: &str = "graphmd/dead-end";
