//! The typed view of a Weaveflow Graph Definition (formats.md §2.2, `dsl/dsl.go@9ae3512`).
//!
//! The view follows Go's semantics: a missing string is `""`, a missing list or map is empty,
//! so code can read it without unwrapping. Field order here is Go's struct order, which is the
//! order a *new* document is written in; an edited document keeps its own key order (see
//! `doc.rs`). Values are kept as read (no trimming, no `name := id`): normalization is what
//! `validate` applies to its own copy, so a document round-trips unchanged.
//!
//! Numbers in policies are kept as `serde_json::Value` so their text ("25", "1.50") survives
//! and the validator can say exactly what is wrong with them.

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The only target that is not a node (`dsl.EndNodeRef`).
pub const END_NODE: &str = "__end__";

/// A whole Graph Definition.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct GraphDefinition {
    pub version: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    #[serde(default)]
    pub state_modules: Vec<StateModuleRef>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub entry_point: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub finish_point: String,
    #[serde(default)]
    pub nodes: Vec<GraphNode>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub edges: Vec<GraphEdge>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub policy: Option<GraphPolicy>,
    /// Owned by the application; the Workbench keeps positions in `web.positions`.
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub metadata: Map<String, Value>,
}

/// `{name, version}` of a state module.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StateModuleRef {
    pub name: String,
    pub version: String,
}

/// A node. `name` and `state` are always written (not `omitempty` in Go).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct GraphNode {
    pub id: String,
    pub name: String,
    #[serde(rename = "type")]
    pub type_name: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub config: Map<String, Value>,
    #[serde(default)]
    pub state: IndexMap<String, StateBinding>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub policy: Option<ExecutionPolicy>,
}

/// A state port bound to a path (`shared.…` or `scopes.…`), with an optional versioned
/// reducer id (`sum.v1`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct StateBinding {
    pub path: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub reducer: String,
}

/// An edge: plain, conditional (`condition`) or a failure route (`failure`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct GraphEdge {
    pub from: String,
    pub to: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub condition: Option<EdgeCondition>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure: Option<FailureRoute>,
}

impl GraphEdge {
    /// A default (fallback) edge: neither a condition nor a failure route.
    pub fn is_default(&self) -> bool {
        self.condition.is_none() && self.failure.is_none()
    }
}

/// `condition: {id?, type, config?, state?}`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct EdgeCondition {
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub id: String,
    #[serde(rename = "type")]
    pub type_name: String,
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub config: Map<String, Value>,
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub state: IndexMap<String, StateBinding>,
}

/// `failure: {stages?, error_classes?, catch_all?}`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct FailureRoute {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stages: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub error_classes: Vec<String>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub catch_all: bool,
}

/// Graph `policy: {limits, node_defaults}`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct GraphPolicy {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limits: Option<Limits>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node_defaults: Option<ExecutionPolicy>,
}

/// Run limits. Integers must be >= 1; `max_wall_time` is a Go duration ("90m").
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Limits {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_super_steps: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_node_executions: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_fan_out: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_concurrent_runs: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_concurrent_nodes: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_concurrent_tools: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_state_bytes: Option<Value>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub max_wall_time: String,
}

/// `ExecutionPolicy {timeout, max_concurrency, retry}` (node `policy`, `node_defaults`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ExecutionPolicy {
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub timeout: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_concurrency: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retry: Option<RetryPolicy>,
}

/// The retry part of an execution policy.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RetryPolicy {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_attempts: Option<Value>,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub initial_interval: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub max_interval: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub backoff_multiplier: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub jitter: Option<Value>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub retryable_error_classes: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub non_retryable_error_classes: Vec<String>,
}

/// A node position on the canvas, as the Workbench stores it.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Position {
    pub x: f64,
    pub y: f64,
}

impl GraphDefinition {
    /// The node with this id (exact match).
    pub fn node(&self, id: &str) -> Option<&GraphNode> {
        self.nodes.iter().find(|n| n.id == id)
    }

    /// `metadata.web.positions`, by node id; entries that are not `{x, y}` numbers are skipped.
    pub fn positions(&self) -> IndexMap<String, Position> {
        let mut out = IndexMap::new();
        let Some(Value::Object(positions)) = self.metadata.get("web").and_then(|w| w.get("positions")) else {
            return out;
        };
        for (id, p) in positions {
            let x = p.get("x").and_then(Value::as_f64);
            let y = p.get("y").and_then(Value::as_f64);
            if let (Some(x), Some(y)) = (x, y) {
                out.insert(id.clone(), Position { x, y });
            }
        }
        out
    }

    /// Sets `metadata.web.positions.<id>`, creating the objects on the way (other metadata is
    /// left alone). Whole numbers are written without a fraction, as the Workbench does.
    pub fn set_position(&mut self, id: &str, position: Position) {
        let web = self.metadata.entry("web").or_insert_with(|| Value::Object(Map::new()));
        if !web.is_object() {
            *web = Value::Object(Map::new());
        }
        let Some(web) = web.as_object_mut() else { return };
        let positions = web.entry("positions").or_insert_with(|| Value::Object(Map::new()));
        if !positions.is_object() {
            *positions = Value::Object(Map::new());
        }
        if let Some(positions) = positions.as_object_mut() {
            let mut p = Map::new();
            p.insert("x".into(), number(position.x));
            p.insert("y".into(), number(position.y));
            positions.insert(id.to_owned(), Value::Object(p));
        }
    }

    /// Removes `metadata.web.positions.<id>`.
    pub fn remove_position(&mut self, id: &str) {
        if let Some(Value::Object(p)) = self.metadata.get_mut("web").and_then(|w| w.get_mut("positions")) {
            p.shift_remove(id);
        }
    }
}

/// A JSON number for a coordinate: integral values as integers (`360`, not `360.0`).
fn number(v: f64) -> Value {
    if v.is_finite() && v.fract() == 0.0 && v.abs() < 9.0e15 {
        // The range check above makes the cast exact.
        #[allow(clippy::cast_possible_truncation)]
        return Value::from(v as i64);
    }
    serde_json::Number::from_f64(v).map_or(Value::from(0), Value::Number)
}
