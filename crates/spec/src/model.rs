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

pub use crate::config::Config;
pub use crate::id::Id;
pub use condition::{Entries, Predicate};

pub(crate) mod condition;

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
    #[schemars(length(min = 1), with = "String")]
    #[ts(type = "string")]
    pub id: Id,
    /// `None` when the document gave no type (an error: every stored node needs one).
    #[serde(rename = "type")]
    #[schemars(with = "String", length(min = 1))]
    #[ts(type = "string | null")]
    pub type_name: Option<Id>,
    /// Passed to the registry factory uninterpreted; key order and number text kept as read
    /// (as the text it was read from, until it is changed: [`Config`]).
    #[ts(type = "Record<string, unknown>")]
    #[schemars(default, with = "Map<String, Value>")]
    pub config: Config,
}

/// An edge: `{from, to, when?}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS, JsonSchema)]
#[ts(export)]
pub struct EdgeSpec {
    /// A node id or `__start__`.
    #[schemars(with = "String")]
    #[ts(type = "string")]
    pub from: Id,
    /// A node id or `__end__`.
    #[schemars(with = "String")]
    #[ts(type = "string")]
    pub to: Id,
    /// A declarative guard; the edge fires when it holds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub when: Option<Predicate>,
}

impl GraphSpec {
    /// Equal *and* in the same order everywhere (channels, config and predicate keys).
    ///
    /// `==` compares maps as sets of entries (that is how `IndexMap` and serde_json's `Map`
    /// compare), so two documents that differ only in key order are `==` but are written
    /// differently. Two identical documents are written to the same text by any writer, so the
    /// save pipeline can check "the text reads back to this document" with this one walk instead
    /// of writing the text a second time. It does not hash, so it is also faster than `==`.
    pub fn identical(&self, other: &GraphSpec) -> bool {
        self.name == other.name
            && self.channels.len() == other.channels.len()
            && self.channels.iter().zip(&other.channels).all(|(a, b)| a == b)
            && self.nodes.len() == other.nodes.len()
            && self.nodes.iter().zip(&other.nodes).all(|(a, b)| {
                a.id == b.id && a.type_name == b.type_name && identical_configs(&a.config, &b.config)
            })
            && self.edges.len() == other.edges.len()
            && self
                .edges
                .iter()
                .zip(&other.edges)
                .all(|(a, b)| a.from == b.from && a.to == b.to && identical_whens(&a.when, &b.when))
    }
}

/// Identical conditions: both absent, or identical maps.
fn identical_whens(a: &Option<Predicate>, b: &Option<Predicate>) -> bool {
    match (a, b) {
        (None, None) => true,
        (Some(x), Some(y)) => {
            x.len() == y.len()
                && x.iter().zip(y).all(|((ka, va), (kb, vb))| ka == kb && identical_values(va, vb))
        }
        _ => false,
    }
}

/// Identical configs: the same text, or identical maps.
fn identical_configs(a: &Config, b: &Config) -> bool {
    match (a.raw_text(), b.raw_text()) {
        (Some(x), Some(y)) if x == y => true,
        _ => identical_maps(a, b),
    }
}

/// Same keys in the same order, with identical values.
fn identical_maps(a: &Map<String, Value>, b: &Map<String, Value>) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|((ka, va), (kb, vb))| ka == kb && identical_values(va, vb))
}

/// `==` with key order taken into account. Recursion is bounded by the shallower value, and a
/// value read from text is at most `json::MAX_DEPTH` deep.
fn identical_values(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => identical_maps(x, y),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| identical_values(p, q))
        }
        // Scalars: numbers compare by their text (`arbitrary_precision`).
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::parse_spec;

    fn spec(text: &str) -> GraphSpec {
        parse_spec(text).spec.unwrap_or_default()
    }

    #[test]
    fn identical_sees_key_order_that_eq_does_not() {
        let a = spec(r#"{"nodes":[{"id":"a","type":"t","config":{"x":1,"y":{"p":[1,{"q":2,"r":3}]}}}]}"#);
        let b = spec(r#"{"nodes":[{"id":"a","type":"t","config":{"x":1,"y":{"p":[1,{"r":3,"q":2}]}}}]}"#);
        assert_eq!(a, b);
        assert!(!a.identical(&b));
        assert!(a.identical(&a.clone()));
        let c = spec(
            r#"{"channels":{"u":{},"v":{}},"edges":[{"from":"a","to":"b","when":{"channel":"v","eq":1}}]}"#,
        );
        let d = spec(
            r#"{"channels":{"v":{},"u":{}},"edges":[{"from":"a","to":"b","when":{"channel":"v","eq":1}}]}"#,
        );
        let e = spec(
            r#"{"channels":{"u":{},"v":{}},"edges":[{"from":"a","to":"b","when":{"eq":1,"channel":"v"}}]}"#,
        );
        assert!(c.identical(&c.clone()));
        assert!(!c.identical(&d) && !c.identical(&e));
        // Number text counts: 1.0 and 1 are different documents.
        let f = spec(r#"{"nodes":[{"id":"a","type":"t","config":{"x":1.0}}]}"#);
        let g = spec(r#"{"nodes":[{"id":"a","type":"t","config":{"x":1}}]}"#);
        assert!(!f.identical(&g));
    }
}
