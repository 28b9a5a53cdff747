//! Diagnostic codes of the Weaveflow reader and validator (all listed in `docs/diagnostics.md`).
//! One code per rule of formats.md §2.4, so fixtures and the UI can tell them apart; the
//! message text is the reference's own wording where it has one.

// --- reading (`DeserializeGraphDefinition`) ---
/// The document is not a JSON object.
pub const NOT_AN_OBJECT: &str = "weaveflow/not-an-object";
/// A key the Go struct does not have (`json: unknown field "<k>"`).
pub const UNKNOWN_FIELD: &str = "weaveflow/unknown-field";
/// A key that matches a field only case-insensitively (Go accepts it; other tools may not).
pub const FIELD_CASE: &str = "weaveflow/field-case";
/// More than one JSON value in the file (`graph definition contains multiple JSON values`).
pub const MULTIPLE_VALUES: &str = "weaveflow/multiple-values";
/// A `state_schema`: the early "1.0" generation, which the current runtime refuses (its
/// `json: unknown field` with the reason).
pub const EARLY_GENERATION: &str = "weaveflow/early-generation";
/// A value of the wrong JSON type (`json: cannot unmarshal …`).
pub const WRONG_TYPE: &str = "weaveflow/wrong-type";

// --- `GraphDefinition.Validate()`, in its order ---
/// `version` is not the accepted version.
pub const VERSION: &str = "weaveflow/version";
/// No state module.
pub const NO_STATE_MODULES: &str = "weaveflow/no-state-modules";
/// A state module without name or version.
pub const STATE_MODULE_INCOMPLETE: &str = "weaveflow/state-module-incomplete";
/// The same (name, version) state module twice.
pub const STATE_MODULE_DUPLICATE: &str = "weaveflow/state-module-duplicate";
/// No node.
pub const NO_NODES: &str = "weaveflow/no-nodes";
/// A node without an id.
pub const NODE_ID_REQUIRED: &str = "weaveflow/node-id-required";
/// A node without a type.
pub const NODE_TYPE_REQUIRED: &str = "weaveflow/node-type-required";
/// Two nodes with the same id.
pub const NODE_ID_DUPLICATE: &str = "weaveflow/node-id-duplicate";
/// `entry_point` names no node.
pub const ENTRY_POINT_NOT_FOUND: &str = "weaveflow/entry-point-not-found";
/// `finish_point` names no node.
pub const FINISH_POINT_NOT_FOUND: &str = "weaveflow/finish-point-not-found";
/// An edge without `from` or `to`.
pub const EDGE_ENDS_REQUIRED: &str = "weaveflow/edge-ends-required";
/// The same from/to pair twice (plain, conditional or failure alike).
pub const EDGE_DUPLICATE: &str = "weaveflow/edge-duplicate";
/// An edge from a node that does not exist.
pub const EDGE_SOURCE_NOT_FOUND: &str = "weaveflow/edge-source-not-found";
/// An edge to a node that does not exist (and is not `__end__`).
pub const EDGE_TARGET_NOT_FOUND: &str = "weaveflow/edge-target-not-found";
/// A condition without a type.
pub const CONDITION_TYPE_REQUIRED: &str = "weaveflow/condition-type-required";
/// An edge with both a condition and a failure route.
pub const CONDITION_AND_FAILURE: &str = "weaveflow/condition-and-failure";
/// A failure route with no stage, no error class and no catch_all.
pub const FAILURE_ROUTE_EMPTY: &str = "weaveflow/failure-route-empty";
/// A failure stage other than `node` or `condition`.
pub const FAILURE_STAGE_INVALID: &str = "weaveflow/failure-stage-invalid";
/// A failure error class that is not one of Weaveflow's error classes.
pub const FAILURE_ERROR_CLASS_INVALID: &str = "weaveflow/failure-error-class-invalid";

// --- graph build (`graph/validation.go`) ---
/// No `entry_point` (the build requires one).
pub const ENTRY_POINT_NOT_SET: &str = "weaveflow/entry-point-not-set";
/// A node with conditional edges and more than one default edge.
pub const MULTIPLE_DEFAULT_EDGES: &str = "weaveflow/multiple-default-edges";
/// A node with conditional edges and no default edge (finish point excepted).
pub const NO_DEFAULT_EDGE: &str = "weaveflow/no-default-edge";
/// A condition whose config or state does not suit its resolver.
pub const CONDITION_INVALID: &str = "weaveflow/condition-invalid";
/// A node the entry point cannot reach.
pub const UNREACHABLE_NODE: &str = "weaveflow/unreachable-node";
/// The finish point has outgoing edges.
pub const FINISH_POINT_HAS_EDGES: &str = "weaveflow/finish-point-has-edges";
/// A node (not the finish point) with no outgoing edge.
pub const NO_OUTGOING_EDGE: &str = "weaveflow/no-outgoing-edge";
/// A node from which neither `__end__` nor the finish point can be reached.
pub const CANNOT_REACH_END: &str = "weaveflow/cannot-reach-end";

// --- registry and contracts ---
/// A node type that is neither a Weaveflow built-in nor in the project registry.
pub const UNKNOWN_NODE_TYPE: &str = "weaveflow/unknown-node-type";
/// A condition type that is not a known condition resolver.
pub const UNKNOWN_CONDITION_TYPE: &str = "weaveflow/unknown-condition-type";
/// A node type the newest Weaveflow registry replaced (`supervisor_finalize`, now
/// `supervisor_synthesis`): a warning naming the new type, with the fix to change to it.
pub const REPLACED_NODE_TYPE: &str = "weaveflow/replaced-node-type";
/// A node config that does not match its type's config shape.
pub const NODE_CONFIG_INVALID: &str = "weaveflow/node-config-invalid";
/// A state port the node or condition type does not declare (warning).
pub const UNKNOWN_PORT: &str = "weaveflow/unknown-port";
/// A state binding path that is not under `shared.` or `scopes.`, or is malformed.
pub const BINDING_PATH_INVALID: &str = "weaveflow/binding-path-invalid";
/// A binding reducer that is not a versioned reducer id (`sum.v1`).
pub const BINDING_REDUCER_INVALID: &str = "weaveflow/binding-reducer-invalid";
/// A state module Trellis does not know (warning: the runtime may have it).
pub const UNKNOWN_STATE_MODULE: &str = "weaveflow/unknown-state-module";
/// An execution policy or limit that does not parse (durations, counts, jitter, classes).
pub const POLICY_INVALID: &str = "weaveflow/policy-invalid";

// --- transfer files (formats.md §5.2): pointers into the file, not the definition ---
/// A bundle's `format` or `format_version` is not the Workbench's
/// (`Unsupported graph export format: …`, `Unsupported graph export version: …`).
pub const BUNDLE_FORMAT: &str = "weaveflow/bundle-format";
/// A key a bundle does not have (`Invalid graph file: graph export contains unknown field …`).
pub const BUNDLE_UNKNOWN_FIELD: &str = "weaveflow/bundle-unknown-field";
/// A bundle without `exported_at`, `graph_id` or `graph_version` (`… is required.`).
pub const BUNDLE_REQUIRED: &str = "weaveflow/bundle-required";
/// A bundle's `contents` that does not declare what is present, or declares what is not.
pub const BUNDLE_CONTENTS: &str = "weaveflow/bundle-contents";
/// A bundle whose definition keeps `metadata.web` (it belongs in `ui.web`).
pub const BUNDLE_WEB: &str = "weaveflow/bundle-web";
/// A key an upload envelope does not have (`invalid graph upload: json: unknown field …`),
/// among them the 2.0-era envelope's `graph_id`.
pub const UPLOAD_UNKNOWN_FIELD: &str = "weaveflow/upload-unknown-field";
/// An upload envelope without its definition or settings.
pub const UPLOAD_REQUIRED: &str = "weaveflow/upload-required";
