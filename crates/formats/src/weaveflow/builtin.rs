//! Weaveflow's own node types and condition resolvers (formats.md §2.2, §2.3), with the config
//! shapes and state ports the reference documents.
//!
//! Only what the reference states is enforced as an error (a required key, a key's JSON type,
//! an enum value); where the reference does not list a type's config or ports, the type is
//! "open" and only its name is checked. A port the type does not declare is a warning: the
//! real registry may know more ports than the reference shows.

/// The JSON type a config key must have.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Any value.
    Any,
    String,
    /// A string that is not empty after trimming.
    NonEmptyString,
    Bool,
    /// An integer >= 1.
    PositiveInteger,
    Array,
    StringArray,
    Object,
    /// One of the listed strings.
    OneOf(&'static [&'static str]),
}

impl Kind {
    /// A short description for messages ("a non-empty string").
    pub fn describe(self) -> String {
        match self {
            Kind::Any => "any value".into(),
            Kind::String => "a string".into(),
            Kind::NonEmptyString => "a non-empty string".into(),
            Kind::Bool => "a boolean".into(),
            Kind::PositiveInteger => "an integer >= 1".into(),
            Kind::Array => "an array".into(),
            Kind::StringArray => "an array of strings".into(),
            Kind::Object => "an object".into(),
            Kind::OneOf(v) => {
                format!("one of {}", v.iter().map(|s| format!("\"{s}\"")).collect::<Vec<_>>().join(", "))
            }
        }
    }

    /// True when `v` has this kind.
    pub fn accepts(self, v: &serde_json::Value) -> bool {
        use serde_json::Value as V;
        match (self, v) {
            (Kind::Any, _) => true,
            (Kind::String, V::String(_)) => true,
            (Kind::NonEmptyString, V::String(s)) => !s.trim().is_empty(),
            (Kind::Bool, V::Bool(_)) => true,
            (Kind::PositiveInteger, V::Number(n)) => n.as_u64().is_some_and(|u| u >= 1),
            (Kind::Array, V::Array(_)) => true,
            (Kind::StringArray, V::Array(a)) => a.iter().all(serde_json::Value::is_string),
            (Kind::Object, V::Object(_)) => true,
            (Kind::OneOf(allowed), V::String(s)) => allowed.contains(&s.as_str()),
            _ => false,
        }
    }
}

/// One config key of a type.
#[derive(Debug, Clone, Copy)]
pub struct ConfigKey {
    pub key: &'static str,
    pub kind: Kind,
    pub required: bool,
    /// The runtime's own refusal of a wrong value, when its source gives one (`%q` is the
    /// node's id, quoted).
    pub refusal: Option<&'static str>,
}

const fn req(key: &'static str, kind: Kind) -> ConfigKey {
    ConfigKey { key, kind, required: true, refusal: None }
}
const fn opt(key: &'static str, kind: Kind) -> ConfigKey {
    ConfigKey { key, kind, required: false, refusal: None }
}

impl ConfigKey {
    /// The key with the runtime's words for a refused value.
    const fn refused(self, words: &'static str) -> ConfigKey {
        ConfigKey { refusal: Some(words), ..self }
    }
}

/// A node type the newest registry no longer has, and what replaced it.
#[derive(Debug, Clone, Copy)]
pub struct Replaced {
    /// The type to use instead.
    pub by: &'static str,
    /// More to say (another type for another use), or "".
    pub note: &'static str,
}

/// The state ports a type declares.
#[derive(Debug, Clone, Copy)]
pub enum Ports {
    /// Exactly these names; `required` ones must be bound.
    Fixed { names: &'static [&'static str], required: &'static [&'static str] },
    /// Any alias (at least `min` of them).
    Dynamic { min: usize },
    /// The reference does not say: not checked.
    Unchecked,
}

/// A config shape: the known keys, and whether other keys are expected.
#[derive(Debug, Clone, Copy)]
pub struct Shape {
    pub keys: &'static [ConfigKey],
    /// False when the reference lists the whole config (other keys get a warning).
    pub open: bool,
}

/// A built-in node type or condition resolver.
#[derive(Debug, Clone, Copy)]
pub struct BuiltinType {
    pub name: &'static str,
    pub description: &'static str,
    pub config: Shape,
    pub ports: Ports,
    /// The Weaveflow source that registers it (`file@commit`).
    pub source: &'static str,
    /// Set when the newest registry read (00aca43) no longer has the type.
    pub replaced: Option<Replaced>,
}

const OPEN: Shape = Shape { keys: &[], open: true };
const SOURCE_TARGET: Ports = Ports::Fixed { names: &["source", "target"], required: &[] };

/// The commit of the newest Weaveflow node registry read (formats.md §5.3).
pub const NEWEST_REGISTRY: &str = "00aca43";

/// The roles of a conversation message.
const ROLES: Kind = Kind::OneOf(&["human", "system", "ai", "tool"]);

/// `llm_turn`'s reasoning efforts (`node/llm_turn.go@00aca43`).
pub const REASONING_EFFORTS: &[&str] = &["auto", "none", "minimal", "low", "medium", "high", "xhigh", "max"];

const DOCS: &str = "internal/website/docs/public/concepts/nodes-and-tools.md@2e88796";

/// Weaveflow's node types: the newest registry read (`node/spec.go@00aca43` with
/// `node/supervisor/register.go@00aca43`; formats.md §5.3), the docs (`nodes-and-tools.md@2e88796`,
/// `node/plan`, `node/supervisor`; shapes from the examples at 9ae3512 and 986f8ac), and the four
/// types of the 3da5022 registry that the newest one replaced (`replaced`), which the Workbench's
/// examples of that time still use.
pub const NODE_TYPES: &[BuiltinType] = &[
    BuiltinType {
        name: "llm_turn",
        description: "One model call on a conversation.",
        config: Shape {
            keys: &[
                opt("model_id", Kind::String),
                opt("tool_ids", Kind::StringArray),
                opt("system_prompt", Kind::String),
                opt("prompt_max_chars", Kind::PositiveInteger),
                opt("reasoning_effort", Kind::OneOf(REASONING_EFFORTS)).refused(
                    "build llm turn node %q: reasoning_effort must be one of auto, none, minimal, low, medium, high, xhigh, or max",
                ),
            ],
            open: false,
        },
        ports: Ports::Fixed { names: &["conversation", "output"], required: &["conversation"] },
        source: "node/llm_turn.go@00aca43",
        replaced: None,
    },
    BuiltinType {
        name: "agent",
        description: "A model with tools, looping until it answers.",
        config: OPEN,
        ports: Ports::Unchecked,
        source: DOCS,
        replaced: None,
    },
    BuiltinType {
        name: "tool_execution",
        description: "Runs the tool calls of the last model message.",
        config: Shape { keys: &[opt("tool_ids", Kind::StringArray)], open: true },
        ports: Ports::Unchecked,
        source: "node/spec.go@00aca43",
        replaced: None,
    },
    BuiltinType {
        name: "user_input",
        description: "Pauses the run until the user gives input.",
        config: Shape { keys: &[opt("prompt", Kind::String)], open: false },
        ports: Ports::Fixed { names: &["value", "pending_input"], required: &[] },
        source: "node/user_input.go@00aca43",
        replaced: None,
    },
    BuiltinType {
        name: "conversation_message",
        description: "Adds a message (fixed content or the input) to a conversation.",
        config: Shape { keys: &[opt("role", ROLES), opt("content", Kind::String)], open: false },
        ports: Ports::Fixed { names: &["input", "conversation"], required: &["conversation"] },
        source: "node/conversation_message.go@00aca43",
        replaced: None,
    },
    BuiltinType {
        name: "subgraph",
        description: "Runs another graph.",
        config: OPEN,
        ports: Ports::Unchecked,
        source: DOCS,
        replaced: None,
    },
    BuiltinType {
        name: "supervisor",
        description: "Routes work to worker nodes and decides when to finish.",
        config: Shape {
            keys: &[
                req("members", Kind::Array),
                opt("max_turns", Kind::PositiveInteger),
                opt("route_attempts", Kind::PositiveInteger),
            ],
            open: true,
        },
        ports: Ports::Fixed { names: &["objective", "supervisor"], required: &[] },
        source: "node/supervisor/register.go@00aca43",
        replaced: None,
    },
    BuiltinType {
        name: "supervisor_worker",
        description: "A worker the supervisor delegates to.",
        config: Shape {
            keys: &[
                req("worker_id", Kind::NonEmptyString),
                opt("role", Kind::String),
                opt("tool_ids", Kind::StringArray),
                opt("max_iterations", Kind::PositiveInteger),
                opt("parallel", Kind::Bool),
            ],
            open: true,
        },
        ports: Ports::Fixed { names: &["supervisor", "conversation"], required: &[] },
        source: "node/supervisor/register.go@00aca43",
        replaced: None,
    },
    BuiltinType {
        name: "supervisor_synthesis",
        description: "Writes the supervisor's final answer.",
        config: Shape { keys: &[opt("model_id", Kind::String), opt("system_prompt", Kind::String)], open: false },
        ports: Ports::Fixed { names: &["supervisor", "result"], required: &["supervisor", "result"] },
        source: "node/supervisor/synthesis.go@00aca43",
        replaced: None,
    },
    BuiltinType {
        name: "plan_generator",
        description: "Writes a plan.",
        config: OPEN,
        ports: Ports::Unchecked,
        source: DOCS,
        replaced: None,
    },
    BuiltinType {
        name: "state_set",
        description: "Writes a constant value to a path.",
        config: Shape { keys: &[req("value", Kind::Any)], open: false },
        ports: Ports::Fixed { names: &["target"], required: &["target"] },
        source: DOCS,
        replaced: None,
    },
    BuiltinType {
        name: "state_copy",
        description: "Copies a value from one path to another.",
        config: Shape { keys: &[], open: false },
        ports: SOURCE_TARGET,
        source: DOCS,
        replaced: None,
    },
    BuiltinType {
        name: "state_merge",
        description: "Merges an object into another.",
        config: Shape { keys: &[], open: false },
        ports: SOURCE_TARGET,
        source: DOCS,
        replaced: None,
    },
    BuiltinType {
        name: "state_append",
        description: "Appends a value to a list.",
        config: Shape { keys: &[], open: false },
        ports: SOURCE_TARGET,
        source: DOCS,
        replaced: None,
    },
    BuiltinType {
        name: "state_delete",
        description: "Deletes a path.",
        config: Shape { keys: &[], open: false },
        ports: Ports::Fixed { names: &["target"], required: &["target"] },
        source: DOCS,
        replaced: None,
    },
    BuiltinType {
        name: "state_transform",
        description: "Computes a value with a CEL expression over its inputs.",
        config: Shape { keys: &[req("expression", Kind::NonEmptyString)], open: false },
        ports: Ports::Dynamic { min: 1 },
        source: DOCS,
        replaced: None,
    },
    // The 3da5022 registry (`node/spec.go@3da5022`): gone from the newest one.
    BuiltinType {
        name: "conversation_input",
        description: "Adds the input (or fixed content) to a conversation, waiting for input when there is none.",
        config: Shape {
            keys: &[opt("role", ROLES), opt("content", Kind::String), opt("interrupt_message", Kind::String)],
            open: false,
        },
        ports: Ports::Fixed { names: &["input", "conversation", "pending_input"], required: &["conversation"] },
        source: "node/builtin.go@3da5022",
        replaced: Some(Replaced {
            by: "conversation_message",
            note: "for a message; \"user_input\" waits for input",
        }),
    },
    BuiltinType {
        name: "llm",
        description: "One model call (the 3da5022 registry's name for llm_turn).",
        config: OPEN,
        ports: Ports::Unchecked,
        source: "node/spec.go@3da5022",
        replaced: Some(Replaced { by: "llm_turn", note: "" }),
    },
    BuiltinType {
        name: "tools",
        description: "Runs tool calls (the 3da5022 registry's name for tool_execution).",
        config: OPEN,
        ports: Ports::Unchecked,
        source: "node/spec.go@3da5022",
        replaced: Some(Replaced { by: "tool_execution", note: "" }),
    },
    BuiltinType {
        name: "supervisor_finalize",
        description: "Writes the supervisor's final answer (renamed supervisor_synthesis).",
        config: Shape { keys: &[opt("model_id", Kind::String), opt("system_prompt", Kind::String)], open: false },
        ports: Ports::Fixed { names: &["supervisor", "result"], required: &["supervisor", "result"] },
        source: "node/supervisor_finalize.go@3da5022",
        replaced: Some(Replaced { by: "supervisor_synthesis", note: "" }),
    },
];

/// Plan statuses for `plan_status_equals`.
pub const PLAN_STATUSES: &[&str] = &["planning", "executing", "replan", "finalizing", "done"];

/// Weaveflow's condition resolvers (`builtin/conditions.go@00aca43`). `state_expression` and
/// `expression_conditions` have their own rules in `conditions.rs` on top of these shapes.
pub const CONDITION_TYPES: &[BuiltinType] = &[
    BuiltinType {
        name: "state_expression",
        description: "A restricted CEL expression over the bound inputs.",
        config: Shape { keys: &[req("expression", Kind::NonEmptyString)], open: false },
        ports: Ports::Dynamic { min: 1 },
        source: "builtin/conditions.go@00aca43",
        replaced: None,
    },
    BuiltinType {
        name: "expression_conditions",
        description: "Textual comparisons on the bound state, combined with and/or/not.",
        config: Shape {
            keys: &[opt("match", Kind::OneOf(&["all", "any"])), req("expressions", Kind::Array)],
            open: false,
        },
        ports: Ports::Fixed { names: &["state"], required: &["state"] },
        source: "builtin/conditions.go@00aca43",
        replaced: None,
    },
    BuiltinType {
        name: "conversation_has_tool_calls",
        description: "True when the last AI message has a tool call.",
        config: Shape { keys: &[], open: false },
        ports: Ports::Fixed { names: &["conversation"], required: &["conversation"] },
        source: "builtin/conditions.go@00aca43",
        replaced: None,
    },
    BuiltinType {
        name: "conversation_has_final_answer",
        description: "True when the final answer is not empty.",
        config: Shape { keys: &[], open: false },
        ports: Ports::Fixed { names: &["conversation"], required: &["conversation"] },
        source: "builtin/conditions.go@00aca43",
        replaced: None,
    },
    BuiltinType {
        name: "plan_status_equals",
        description: "True when the plan has this status.",
        config: Shape { keys: &[req("status", Kind::OneOf(PLAN_STATUSES))], open: false },
        ports: Ports::Fixed { names: &["plan"], required: &["plan"] },
        source: "builtin/conditions.go@00aca43",
        replaced: None,
    },
    BuiltinType {
        name: "supervisor_route_equals",
        description: "True when the supervisor routed to this worker (`__finish__` = finish).",
        config: Shape { keys: &[req("worker_id", Kind::NonEmptyString)], open: false },
        ports: Ports::Fixed { names: &["supervisor"], required: &["supervisor"] },
        source: "builtin/conditions.go@00aca43",
        replaced: None,
    },
];

/// Condition names of the older generation and what replaced them (`conditions.go@30f0e7f`).
pub const RENAMED_CONDITIONS: &[(&str, &str)] = &[
    ("last_message_has_tool_calls", "conversation_has_tool_calls"),
    ("has_final_answer", "conversation_has_final_answer"),
];

/// The error classes (`core/execution_error.go@1a0502a`).
pub const ERROR_CLASSES: &[&str] = &[
    "unknown",
    "invalid_input",
    "invalid_output",
    "timeout",
    "canceled",
    "rate_limited",
    "unavailable",
    "permission_denied",
    "side_effect_failed",
    "resource_exhausted",
    "non_retryable",
];

/// Failure route stages.
pub const FAILURE_STAGES: &[&str] = &["node", "condition"];

/// State modules the reference names, as (name, version).
pub const STATE_MODULES: &[(&str, &str)] = &[("weaveflow.protocols", "1")];

/// A built-in node type by name.
pub fn node_type(name: &str) -> Option<&'static BuiltinType> {
    NODE_TYPES.iter().find(|t| t.name == name)
}

/// A built-in condition resolver by name.
pub fn condition_type(name: &str) -> Option<&'static BuiltinType> {
    CONDITION_TYPES.iter().find(|t| t.name == name)
}
