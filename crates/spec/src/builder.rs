//! Building graphs in code, as the reference's fluent builder does. A code-built graph may hold
//! what a document cannot (closure nodes with no type, code routers, hand-written guards,
//! custom reducers); it runs on the same executor, and `to_spec` refuses those four by name.
//!
//! Methods never panic: a problem (a duplicate channel, say) is remembered and returned by
//! [`GraphBuilder::build`] / [`GraphBuilder::compile`] together with the compile checks.

use std::sync::Arc;

use serde_json::{Map, Value};

use crate::checks::codes;
use crate::diagnostic::Diagnostic;
use crate::graph::{Channel, CompiledGraph, Edge, Graph, Guard, Node, Reducer, Router};
use crate::model::Predicate;
use crate::registry::{Built, NodeFn, Registry, State, Update};

/// A fluent builder for [`Graph`].
#[derive(Debug, Default)]
pub struct GraphBuilder {
    graph: Graph,
    problems: Vec<Diagnostic>,
}

impl GraphBuilder {
    /// An unnamed graph (`to_spec` writes `"name": null`).
    pub fn new() -> Self {
        Self::default()
    }

    /// A named graph.
    pub fn named(name: impl Into<String>) -> Self {
        GraphBuilder { graph: Graph { name: Some(name.into()), ..Graph::default() }, problems: Vec::new() }
    }

    /// Declares a channel.
    pub fn channel(mut self, name: impl Into<String>, reducer: Reducer) -> Self {
        let name = name.into();
        if self.graph.channels.contains_key(&name) {
            self.problems.push(
                Diagnostic::error(codes::DUPLICATE_CHANNEL, format!("duplicate channel \"{name}\""))
                    .on_channel(&name),
            );
            return self;
        }
        self.graph.channels.insert(name.clone(), Channel { name, reducer });
        self
    }

    /// A channel with a custom reducer function (cannot be serialized).
    pub fn custom_channel<F>(self, name: impl Into<String>, reduce: F) -> Self
    where
        F: Fn(&Value, &Value) -> Value + Send + Sync + 'static,
    {
        self.channel(name, Reducer::Custom(Arc::new(reduce)))
    }

    /// A node from a closure, with no type (runs, cannot be serialized).
    pub fn node<F>(mut self, id: impl Into<String>, run: F) -> Self
    where
        F: Fn(&State) -> Result<Update, String> + Send + Sync + 'static,
    {
        self.graph.nodes.push(Node {
            id: id.into(),
            type_name: None,
            config: Map::new(),
            run: Arc::new(run),
        });
        self
    }

    /// A node with a type and config and an explicit behaviour.
    pub fn typed_node(
        mut self,
        id: impl Into<String>,
        type_name: impl Into<String>,
        config: Map<String, Value>,
        run: NodeFn,
    ) -> Self {
        self.graph.nodes.push(Node { id: id.into(), type_name: Some(type_name.into()), config, run });
        self
    }

    /// A node built by a registry factory, as `from_spec` would build it.
    pub fn registry_node(
        mut self,
        id: impl Into<String>,
        type_name: &str,
        config: Map<String, Value>,
        registry: &Registry,
    ) -> Self {
        let id = id.into();
        let run = match registry.get(type_name) {
            None => {
                self.problems.push(
                    Diagnostic::error(
                        codes::UNKNOWN_TYPE,
                        format!(
                            "node \"{id}\" has type \"{type_name}\", which is not in the registry. Known types: {}",
                            crate::checks::name_list(registry.type_names())
                        ),
                    )
                    .on_node(&id)
                    .naming_type(type_name),
                );
                return self;
            }
            Some(t) => match &t.factory {
                None => crate::graph::noop_node(),
                Some(f) => match f(&Value::Object(config.clone())) {
                    Built::Node(run) => run,
                    Built::NotAFunction(what) => {
                        self.problems.push(
                            Diagnostic::error(
                                codes::FACTORY_NOT_FUNCTION,
                                format!(
                                    "registry entry \"{type_name}\" returned {what}; expected a node function (state, ctx)."
                                ),
                            )
                            .on_node(&id),
                        );
                        return self;
                    }
                },
            },
        };
        self.graph.nodes.push(Node { id, type_name: Some(type_name.to_owned()), config, run });
        self
    }

    /// A static edge.
    pub fn edge(mut self, from: impl Into<String>, to: impl Into<String>) -> Self {
        self.graph.edges.push(Edge { from: from.into(), to: to.into(), guard: None });
        self
    }

    /// An edge guarded by a declarative predicate.
    pub fn edge_when(mut self, from: impl Into<String>, to: impl Into<String>, when: Predicate) -> Self {
        self.graph.edges.push(Edge { from: from.into(), to: to.into(), guard: Some(Guard::Spec(when)) });
        self
    }

    /// An edge guarded by a hand-written function, with an optional declarative twin that
    /// `to_spec` writes in its place (without one, `to_spec` refuses the edge).
    pub fn edge_guard<F>(
        mut self,
        from: impl Into<String>,
        to: impl Into<String>,
        test: F,
        spec_when: Option<Predicate>,
    ) -> Self
    where
        F: Fn(&State) -> bool + Send + Sync + 'static,
    {
        let guard = Guard::Code { test: Arc::new(test), spec_when };
        self.graph.edges.push(Edge { from: from.into(), to: to.into(), guard: Some(guard) });
        self
    }

    /// A code router on `from`: returns the next node ids at run time. `targets` declares
    /// where it may go (for drawing only).
    pub fn router<F>(mut self, from: impl Into<String>, route: F, targets: Option<Vec<String>>) -> Self
    where
        F: Fn(&State) -> Vec<String> + Send + Sync + 'static,
    {
        self.graph.routers.push(Router { from: from.into(), route: Arc::new(route), targets });
        self
    }

    /// The graph, unchecked except for the problems met while building.
    pub fn build(self) -> Result<Graph, Vec<Diagnostic>> {
        if self.problems.is_empty() {
            Ok(self.graph)
        } else {
            Err(self.problems)
        }
    }

    /// Builds and compiles, reporting building and compile problems together.
    pub fn compile(self) -> Result<CompiledGraph, Vec<Diagnostic>> {
        let mut problems = self.problems;
        match self.graph.compile() {
            Ok(c) if problems.is_empty() => Ok(c),
            Ok(_) => Err(problems),
            Err(more) => {
                problems.extend(more);
                Err(problems)
            }
        }
    }
}

/// A predicate from a JSON object value (anything else gives an empty, malformed predicate).
pub fn when(v: Value) -> Predicate {
    match v {
        Value::Object(m) => Predicate::from(m),
        _ => Predicate::from(Map::new()),
    }
}
