//! The GraphSpec document as the editor holds it (formats.md §1.1).
//!
//! This model is *tolerant*: it can hold a document that does not compile yet (a node with no
//! type, an unknown reducer, an edge to a missing node, a predicate on an undeclared channel),
//! because the editor must open such a file, show its problems and let the user fix them.
//! What it cannot hold is structural junk (a node that is not an object, an id that is not a
//! string): reading reports those and yields no document.
//!
//! Serializing this model with serde gives the canonical `to_spec` shape:
//! `{name, channels:{<n>:{reducer}}, nodes:[{id,type,config}], edges:[{from,to[,when]}]}`.

use indexmap::IndexMap;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use ts_rs::TS;

/// The implicit entry node.
pub const START: &str = "__start__";
/// The implicit exit node.
pub const END: &str = "__end__";

/// A whole GraphSpec document.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS, JsonSchema)]
#[ts(export)]
#[schemars(title = "Ilmek GraphSpec", extend("$id" = "https://trellis.dev/schema/graphspec.json"))]
pub struct GraphSpec {
    /// `null` for an unnamed graph (written as `null`, never omitted).
    #[schemars(default)]
    pub name: Option<String>,
    /// Channel name -> declaration, in document order.
    #[schemars(default)]
    pub channels: IndexMap<String, ChannelSpec>,
    /// In document order: this is the task order that fixes the reducer fold order.
    #[schemars(default)]
    pub nodes: Vec<NodeSpec>,
    /// In document order.
    #[schemars(default)]
    pub edges: Vec<EdgeSpec>,
}

/// A channel declaration.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS, JsonSchema)]
#[ts(export)]
pub struct ChannelSpec {
    /// How writes are folded in; `last_write` when absent.
    #[schemars(default)]
    pub reducer: ReducerName,
}

/// The name of a stored reducer. `Unknown` keeps what a document said so the editor can show
/// it (and `from_spec` refuses it with the reference message).
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, TS)]
#[ts(export, type = "string")]
pub enum ReducerName {
    #[default]
    LastWrite,
    Append,
    Merge,
    Unknown(String),
}

impl ReducerName {
    pub fn parse(s: &str) -> ReducerName {
        match s {
            "last_write" => ReducerName::LastWrite,
            "append" => ReducerName::Append,
            "merge" => ReducerName::Merge,
            other => ReducerName::Unknown(other.to_owned()),
        }
    }
    pub fn as_str(&self) -> &str {
        match self {
            ReducerName::LastWrite => "last_write",
            ReducerName::Append => "append",
            ReducerName::Merge => "merge",
            ReducerName::Unknown(s) => s,
        }
    }
}

impl Serialize for ReducerName {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for ReducerName {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        String::deserialize(d).map(|s| ReducerName::parse(&s))
    }
}

/// A node: `{id, type, config}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, JsonSchema)]
#[ts(export)]
pub struct NodeSpec {
    /// Unique, non-empty, not `__start__` or `__end__`.
    #[schemars(length(min = 1))]
    pub id: String,
    /// `None` when the document gave no type (an error: every stored node needs one).
    #[serde(rename = "type")]
    #[schemars(with = "String", length(min = 1))]
    pub type_name: Option<String>,
    /// Passed to the registry factory uninterpreted; key order and number text kept as read.
    #[ts(type = "Record<string, unknown>")]
    #[schemars(default)]
    pub config: Map<String, Value>,
}

/// An edge: `{from, to, when?}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, JsonSchema)]
#[ts(export)]
pub struct EdgeSpec {
    /// A node id or `__start__`.
    pub from: String,
    /// A node id or `__end__`.
    pub to: String,
    /// A declarative guard; the edge fires when it holds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub when: Option<Predicate>,
}

/// A declarative guard, stored verbatim (key order and unknown keys kept) so that `to_spec`
/// writes back exactly what was read (formats.md §1.2). Its meaning is read through
/// `crate::predicate`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(transparent)]
#[ts(
    export,
    type = "{ channel: string, eq?: unknown, neq?: unknown, in?: unknown[], gt?: number, lt?: number, truthy?: boolean } & Record<string, unknown>"
)]
pub struct Predicate(pub Map<String, Value>);

impl Predicate {
    /// The `channel` key, when it is a string.
    pub fn channel(&self) -> Option<&str> {
        self.0.get("channel").and_then(Value::as_str)
    }
}
