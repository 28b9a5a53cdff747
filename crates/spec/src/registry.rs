//! The registry: type name -> what a node of that type is.
//!
//! In the model (as in the reference implementation) a registry maps a type name to a factory
//! `(config) -> node function`. A builder cannot run code, so each type also carries descriptive
//! metadata ([`TypeInfo`]: title, category, docs, config schema, defaults) read from a manifest.
//! Code-defined registries and manifest registries are one thing to the validator: a type may
//! have a factory, metadata, or both.

use std::fmt;
use std::sync::Arc;

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use ts_rs::TS;

/// The state a node reads: channel name -> current value (absent when never written).
pub type State = IndexMap<String, Value>;

/// What a node returns: channel name -> value, folded in by each channel's reducer.
pub type Update = Map<String, Value>;

/// A node function: reads the state, returns an update or an error message.
pub type NodeFn = Arc<dyn Fn(&State) -> Result<Update, String> + Send + Sync>;

/// What a factory produced. `NotAFunction` models a registry entry that returns something that
/// is not a node function; `from_spec` reports it with the reference wording
/// (`registry entry "<t>" returned <what>; expected a node function (state, ctx).`).
pub enum Built {
    Node(NodeFn),
    NotAFunction(String),
}

impl fmt::Debug for Built {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Built::Node(_) => f.write_str("Built::Node(..)"),
            Built::NotAFunction(what) => write!(f, "Built::NotAFunction({what})"),
        }
    }
}

/// A factory from a node's config to its behaviour.
pub type Factory = Arc<dyn Fn(&Value) -> Built + Send + Sync>;

/// Descriptive metadata of a node type, as a manifest states it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct TypeInfo {
    /// The type name stored in a document's `nodes[].type`.
    #[serde(rename = "type")]
    pub type_name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub title: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub category: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub description: Option<String>,
    /// Markdown documentation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub docs: Option<String>,
    /// JSON Schema (2020-12) of the node's `config`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "unknown")]
    pub config_schema: Option<Value>,
    /// The config a newly created node starts with. Never applied on load.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "unknown")]
    pub defaults: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub version: Option<String>,
    /// `true`, or a sentence saying what to use instead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "boolean | string")]
    pub deprecated: Option<Value>,
    /// Who defines the type: a runtime's package (at a version), or Trellis's own example.
    /// Absent for a project's types (the project is its own source).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub origin: Option<TypeOrigin>,
}

/// Where a type's definition comes from, so the app can say whether a runtime publishes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS, schemars::JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
#[ts(export)]
pub enum TypeOrigin {
    /// Published by a runtime: described as that runtime defines it (its config keys,
    /// defaults and build-time refusals), at the version named.
    Runtime {
        /// The runtime ("Ilmek", "Weaveflow").
        runtime: String,
        /// The package that publishes the type ("@ilmek/mcp"), when it has one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        package: Option<String>,
        /// The version followed: a package version ("0.2.0") or a commit.
        version: String,
        /// Where the definition was read (repository, path and commit), for people checking it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        source: Option<String>,
    },
    /// Trellis's own example type: no runtime publishes it. It serves the example graph and
    /// people starting from scratch; a runtime's type of the same name replaces it.
    Example,
}

impl TypeOrigin {
    /// "@ilmek/mcp 0.2.0 (Ilmek)", or "Trellis example".
    pub fn label(&self) -> String {
        match self {
            TypeOrigin::Runtime { runtime, package: Some(p), version, .. } => {
                format!("{p} {version} ({runtime})")
            }
            TypeOrigin::Runtime { runtime, package: None, version, .. } => format!("{runtime} {version}"),
            TypeOrigin::Example => "Trellis example".to_owned(),
        }
    }
}

impl TypeInfo {
    pub fn named(type_name: impl Into<String>) -> Self {
        TypeInfo { type_name: type_name.into(), ..Default::default() }
    }
}

/// One registered type: its metadata, where it came from, and (for code registries) its factory.
#[derive(Clone)]
pub struct NodeType {
    /// Shared: a registry is layered from others (the built-in one under every project's) and
    /// cloned per document folder, and its types are never changed in place.
    pub info: Arc<TypeInfo>,
    /// Where the definition came from: `built-in`, a manifest path, or `code`.
    pub source: String,
    pub factory: Option<Factory>,
}

impl fmt::Debug for NodeType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("NodeType")
            .field("info", &self.info)
            .field("source", &self.source)
            .field("factory", &self.factory.as_ref().map(|_| ".."))
            .finish()
    }
}

/// Type name -> node type, in registration order (the order "Known types" lists them).
#[derive(Debug, Clone, Default)]
pub struct Registry {
    /// Looked up for every node by several checks: hashed as the id sets are (`IdHasher`).
    types: IndexMap<String, NodeType, crate::id::IdHasher>,
}

impl Registry {
    pub fn new() -> Self {
        Self::default()
    }

    /// Registers a code-defined type with a factory. A later registration of the same name
    /// replaces the earlier one.
    pub fn register<F>(&mut self, type_name: impl Into<String>, factory: F) -> &mut Self
    where
        F: Fn(&Value) -> Built + Send + Sync + 'static,
    {
        let type_name = type_name.into();
        let node = NodeType {
            info: Arc::new(TypeInfo::named(type_name.clone())),
            source: "code".into(),
            factory: Some(Arc::new(factory)),
        };
        self.types.insert(type_name, node);
        self
    }

    /// Registers a type described by metadata only (a manifest entry).
    pub fn describe(&mut self, info: impl Into<Arc<TypeInfo>>, source: impl Into<String>) -> &mut Self {
        let info = info.into();
        let name = info.type_name.clone();
        self.types.insert(name, NodeType { info, source: source.into(), factory: None });
        self
    }

    /// Inserts a fully formed node type (used when layering registries).
    pub fn insert(&mut self, node: NodeType) -> Option<NodeType> {
        self.types.insert(node.info.type_name.clone(), node)
    }

    pub fn get(&self, type_name: &str) -> Option<&NodeType> {
        self.types.get(type_name)
    }

    pub fn contains(&self, type_name: &str) -> bool {
        self.types.contains_key(type_name)
    }

    /// Type names in registration order.
    pub fn type_names(&self) -> impl Iterator<Item = &str> {
        self.types.keys().map(String::as_str)
    }

    pub fn types(&self) -> impl Iterator<Item = &NodeType> {
        self.types.values()
    }

    pub fn len(&self) -> usize {
        self.types.len()
    }

    pub fn is_empty(&self) -> bool {
        self.types.is_empty()
    }
}
