//! The runnable graph: what `from_spec` builds from a document, what the builder builds from
//! code, what `compile` checks and what `to_spec` turns back into a document.
//!
//! A [`Graph`] may hold things a document cannot (closure nodes with no type, code routers,
//! hand-written guards, custom reducers); [`to_spec`] refuses exactly those four, naming the
//! node, edge or channel (formats.md §1.5).

use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

use indexmap::IndexMap;
use serde_json::{Map, Value};

use crate::checks;
use crate::diagnostic::{pointer, Diagnostic};
use crate::model::{ChannelSpec, EdgeSpec, GraphSpec, Id, NodeSpec, Predicate, ReducerName, START};
use crate::predicate;
use crate::registry::{Built, NodeFn, Registry, State, Update};

/// Codes emitted by [`to_spec`] when a graph holds something a document cannot.
pub mod codes {
    /// A node built from a function with no registry type.
    pub const UNTYPED_NODE: &str = "spec/untyped-node";
    /// A code router (`.router(from, fn, targets)`).
    pub const CODE_ROUTER: &str = "spec/code-router";
    /// A hand-written guard with no declarative `spec_when` twin.
    pub const CODE_GUARD: &str = "spec/code-guard";
    /// A channel with a custom reducer function.
    pub const CUSTOM_REDUCER: &str = "spec/custom-reducer";
}

/// A custom reducer: `(current, incoming) -> new`. `current` is `null` when the channel was
/// never written.
pub type ReducerFn = Arc<dyn Fn(&Value, &Value) -> Value + Send + Sync>;
/// A hand-written guard.
pub type GuardFn = Arc<dyn Fn(&State) -> bool + Send + Sync>;
/// A code router: returns the ids of the nodes to run next (`__end__` allowed).
pub type RouteFn = Arc<dyn Fn(&State) -> Vec<String> + Send + Sync>;

/// How a channel folds an incoming write into its value (formats.md §1.3).
#[derive(Clone)]
pub enum Reducer {
    /// The incoming value wins (the default).
    LastWrite,
    /// List concatenation; a single value is wrapped in a list first.
    Append,
    /// Shallow object merge; the incoming value wins per key.
    Merge,
    /// A code function. Cannot be serialized.
    Custom(ReducerFn),
}

impl fmt::Debug for Reducer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reducer::LastWrite => f.write_str("LastWrite"),
            Reducer::Append => f.write_str("Append"),
            Reducer::Merge => f.write_str("Merge"),
            Reducer::Custom(_) => f.write_str("Custom(..)"),
        }
    }
}

impl Reducer {
    /// The stored name, `None` for a custom reducer.
    pub fn name(&self) -> Option<ReducerName> {
        match self {
            Reducer::LastWrite => Some(ReducerName::LastWrite),
            Reducer::Append => Some(ReducerName::Append),
            Reducer::Merge => Some(ReducerName::Merge),
            Reducer::Custom(_) => None,
        }
    }

    /// The reducer a stored name stands for (`None` for an unknown name).
    pub fn from_name(name: &ReducerName) -> Option<Reducer> {
        match name {
            ReducerName::LastWrite => Some(Reducer::LastWrite),
            ReducerName::Append => Some(Reducer::Append),
            ReducerName::Merge => Some(Reducer::Merge),
            ReducerName::Unknown(_) => None,
        }
    }

    /// Folds `incoming` into `current` (absent when the channel was never written).
    pub fn apply(&self, current: Option<&Value>, incoming: &Value) -> Value {
        match self {
            Reducer::LastWrite => incoming.clone(),
            Reducer::Append => {
                // `[...(current ?? []), ...wrap(incoming)]`
                let mut out = match current {
                    None | Some(Value::Null) => Vec::new(),
                    Some(Value::Array(items)) => items.clone(),
                    Some(other) => vec![other.clone()],
                };
                match incoming {
                    Value::Array(items) => out.extend(items.iter().cloned()),
                    other => out.push(other.clone()),
                }
                Value::Array(out)
            }
            Reducer::Merge => {
                // `{...current, ...incoming}` with JavaScript's spread rules.
                let mut out = Map::new();
                if let Some(current) = current {
                    spread_into(&mut out, current);
                }
                spread_into(&mut out, incoming);
                Value::Object(out)
            }
            Reducer::Custom(f) => f(current.unwrap_or(&Value::Null), incoming),
        }
    }
}

/// Object spread as JavaScript does it: objects copy their keys, arrays and strings their
/// indices, everything else (null, numbers, booleans) contributes nothing.
fn spread_into(out: &mut Map<String, Value>, v: &Value) {
    match v {
        Value::Object(o) => {
            for (k, v) in o {
                out.insert(k.clone(), v.clone());
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                out.insert(i.to_string(), v.clone());
            }
        }
        Value::String(s) => {
            // JS strings spread by UTF-16 code unit; a char is the honest Rust equivalent.
            for (i, c) in s.chars().enumerate() {
                out.insert(i.to_string(), Value::String(c.to_string()));
            }
        }
        _ => {}
    }
}

/// A declared state channel.
#[derive(Debug, Clone)]
pub struct Channel {
    pub name: String,
    pub reducer: Reducer,
}

/// A node: an id, the registry type it was built from (`None` for a closure node), the config
/// it was built with, and its behaviour.
#[derive(Clone)]
pub struct Node {
    pub id: String,
    pub type_name: Option<String>,
    pub config: Map<String, Value>,
    pub run: NodeFn,
}

impl fmt::Debug for Node {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Node")
            .field("id", &self.id)
            .field("type_name", &self.type_name)
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

/// A guard on an edge.
#[derive(Clone)]
pub enum Guard {
    /// A declarative predicate (stored verbatim).
    Spec(Predicate),
    /// A hand-written function, optionally with a declarative twin that `to_spec` writes.
    Code { test: GuardFn, spec_when: Option<Predicate> },
}

impl fmt::Debug for Guard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Guard::Spec(p) => f.debug_tuple("Spec").field(p).finish(),
            Guard::Code { spec_when, .. } => {
                f.debug_struct("Code").field("spec_when", spec_when).finish_non_exhaustive()
            }
        }
    }
}

impl Guard {
    /// Whether the guard lets the edge fire in `state`.
    pub fn test(&self, state: &State) -> bool {
        match self {
            Guard::Spec(p) => predicate::evaluate(p, p.channel().and_then(|c| state.get(c))),
            Guard::Code { test, .. } => test(state),
        }
    }

    /// The declarative form, when there is one.
    pub fn spec_when(&self) -> Option<&Predicate> {
        match self {
            Guard::Spec(p) => Some(p),
            Guard::Code { spec_when, .. } => spec_when.as_ref(),
        }
    }
}

/// An edge `from -> to`, optionally guarded.
#[derive(Debug, Clone)]
pub struct Edge {
    pub from: String,
    pub to: String,
    pub guard: Option<Guard>,
}

/// A code router on a node: decides the next nodes at run time.
#[derive(Clone)]
pub struct Router {
    pub from: String,
    pub route: RouteFn,
    /// The targets the router declared (for drawing), `None` when it declared none.
    pub targets: Option<Vec<String>>,
}

impl fmt::Debug for Router {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Router")
            .field("from", &self.from)
            .field("targets", &self.targets)
            .finish_non_exhaustive()
    }
}

/// A graph before `compile`: may still have dangling edges or no entry edge.
#[derive(Debug, Clone, Default)]
pub struct Graph {
    pub name: Option<String>,
    pub channels: IndexMap<String, Channel>,
    /// In task order (the reducer fold order).
    pub nodes: Vec<Node>,
    pub edges: Vec<Edge>,
    pub routers: Vec<Router>,
}

impl Graph {
    /// Checks the graph (nodes, edge ends, the entry edge, predicates) and freezes it.
    /// Every problem is reported, not only the first.
    pub fn compile(self) -> Result<CompiledGraph, Vec<Diagnostic>> {
        let channels: Vec<&str> = self.channels.keys().map(String::as_str).collect();
        let mut problems =
            checks::check_graph_nodes(channels.iter().copied(), self.nodes.iter().map(|n| n.id.as_str()));
        let guards = self
            .edges
            .iter()
            .map(|e| (e.from.as_str(), e.to.as_str(), e.guard.as_ref().and_then(|g| g.spec_when())));
        problems.extend(checks::check_graph_guards(guards, &channels));
        let ids: std::collections::HashSet<&str> = self.nodes.iter().map(|n| n.id.as_str()).collect();
        problems.extend(checks::check_topology(
            &ids,
            self.edges.iter().map(|e| (e.from.as_str(), e.to.as_str())),
            self.routers.iter().map(|r| r.from.as_str()),
        ));
        if !problems.is_empty() {
            return Err(problems);
        }
        Ok(CompiledGraph::new(self))
    }
}

/// A checked graph: every edge end exists, there is an entry edge. Read-only.
#[derive(Debug, Clone)]
pub struct CompiledGraph {
    graph: Graph,
    index: HashMap<String, usize>,
    /// Edge indices leaving each node (by node position); the last slot is `__start__`.
    out_edges: Vec<Vec<u32>>,
    /// Router indices on each node (by node position); the last slot is `__start__`.
    out_routers: Vec<Vec<u32>>,
}

impl CompiledGraph {
    fn new(graph: Graph) -> Self {
        let n = graph.nodes.len();
        let mut index = HashMap::with_capacity(n);
        for (i, node) in graph.nodes.iter().enumerate() {
            index.insert(node.id.clone(), i);
        }
        let slot = |id: &str| if id == START { Some(n) } else { index.get(id).copied() };
        let mut out_edges: Vec<Vec<u32>> = vec![Vec::new(); n + 1];
        for (i, e) in graph.edges.iter().enumerate() {
            if let Some(s) = slot(&e.from) {
                out_edges[s].push(i as u32);
            }
        }
        let mut out_routers: Vec<Vec<u32>> = vec![Vec::new(); n + 1];
        for (i, r) in graph.routers.iter().enumerate() {
            if let Some(s) = slot(&r.from) {
                out_routers[s].push(i as u32);
            }
        }
        CompiledGraph { graph, index, out_edges, out_routers }
    }

    fn slot(&self, id: &str) -> Option<usize> {
        if id == START {
            Some(self.graph.nodes.len())
        } else {
            self.index.get(id).copied()
        }
    }

    /// The checked graph.
    pub fn graph(&self) -> &Graph {
        &self.graph
    }

    /// Gives the graph back (to extend it and compile again).
    pub fn into_graph(self) -> Graph {
        self.graph
    }

    pub fn name(&self) -> Option<&str> {
        self.graph.name.as_deref()
    }

    /// The position of a node in task order.
    pub fn node_index(&self, id: &str) -> Option<usize> {
        self.index.get(id).copied()
    }

    pub fn node(&self, id: &str) -> Option<&Node> {
        self.node_index(id).map(|i| &self.graph.nodes[i])
    }

    /// Edges leaving `from` (a node id or `__start__`), in document order.
    pub fn edges_from<'a>(&'a self, from: &str) -> impl Iterator<Item = &'a Edge> + 'a {
        let list = self.slot(from).map(|s| self.out_edges[s].as_slice()).unwrap_or(&[]);
        list.iter().map(move |&i| &self.graph.edges[i as usize])
    }

    /// Routers on `from`, in the order they were added.
    pub fn routers_from<'a>(&'a self, from: &str) -> impl Iterator<Item = &'a Router> + 'a {
        let list = self.slot(from).map(|s| self.out_routers[s].as_slice()).unwrap_or(&[]);
        list.iter().map(move |&i| &self.graph.routers[i as usize])
    }
}

/// A node function that returns no update: what a type described only by a manifest (no
/// factory) builds, since the desktop app cannot run a node's code.
pub fn noop_node() -> NodeFn {
    Arc::new(|_: &State| Ok(Update::new()))
}

/// Builds a graph from a document and a registry (formats.md §1.5, the `fromSpec` checks).
/// Every problem is reported, not only the first. Edge ends and the entry edge are checked
/// later, by [`Graph::compile`].
pub fn from_spec(spec: &GraphSpec, registry: &Registry) -> Result<Graph, Vec<Diagnostic>> {
    from_spec_checked(spec, registry)?;
    build(spec.clone(), registry)
}

/// [`from_spec`] taking the document by value: nothing is copied (configs move into the
/// nodes). For pipelines that no longer need the document (a save, the benchmarks).
pub fn from_spec_owned(spec: GraphSpec, registry: &Registry) -> Result<Graph, Vec<Diagnostic>> {
    from_spec_checked(&spec, registry)?;
    build(spec, registry)
}

/// [`from_spec_owned`] for a document that [`crate::validate()`] has just found free of errors
/// with this same registry. `validate` runs every check `from_spec` runs (the same three
/// functions: channels, nodes with their factories, predicates), so they are not run a second
/// time: on a 100,000-node document that is a pass calling every factory on a copy of its
/// config. A factory that answers differently the second time is still reported by the build.
pub fn from_spec_validated(spec: GraphSpec, registry: &Registry) -> Result<Graph, Vec<Diagnostic>> {
    build(spec, registry)
}

fn from_spec_checked(spec: &GraphSpec, registry: &Registry) -> Result<(), Vec<Diagnostic>> {
    let mut problems = checks::check_channels(spec);
    problems.extend(checks::check_nodes(spec, Some(registry)));
    problems.extend(checks::check_predicates(spec));
    if problems.is_empty() {
        Ok(())
    } else {
        Err(problems)
    }
}

fn build(spec: GraphSpec, registry: &Registry) -> Result<Graph, Vec<Diagnostic>> {
    let mut graph = Graph { name: spec.name, ..Graph::default() };
    graph.channels.reserve(spec.channels.len());
    for (name, ch) in spec.channels {
        let reducer = Reducer::from_name(&ch.reducer).unwrap_or(Reducer::LastWrite);
        graph.channels.insert(name.clone(), Channel { name, reducer });
    }
    graph.nodes.reserve(spec.nodes.len());
    for (i, n) in spec.nodes.into_iter().enumerate() {
        // The factory reads the config as a Value; it moves in and back out, uncopied.
        let config = Value::Object(n.config.into_map());
        let run = match n.type_name.as_deref().and_then(|t| registry.get(t)).and_then(|t| t.factory.as_ref())
        {
            Some(factory) => match factory(&config) {
                Built::Node(f) => f,
                // check_nodes already reported this; a factory that changes its answer is a bug.
                Built::NotAFunction(what) => {
                    return Err(vec![Diagnostic::error(
                        checks::codes::FACTORY_NOT_FUNCTION,
                        format!(
                            "registry entry \"{}\" returned {what}; expected a node function (state, ctx).",
                            n.type_name.as_deref().unwrap_or_default()
                        ),
                    )
                    .at(pointer(["nodes", &i.to_string(), "type"]))
                    .on_node(&n.id)])
                }
            },
            None => noop_node(),
        };
        let config = match config {
            Value::Object(m) => m,
            _ => Map::new(),
        };
        graph.nodes.push(Node { id: n.id.into(), type_name: n.type_name.map(String::from), config, run });
    }
    graph.edges.reserve(spec.edges.len());
    for e in spec.edges {
        graph.edges.push(Edge { from: e.from.into(), to: e.to.into(), guard: e.when.map(Guard::Spec) });
    }
    Ok(graph)
}

/// What `to_spec` refuses in a graph: closure nodes with no type, code routers, hand-written
/// guards with no `spec_when` twin and custom reducers, each named (all of them, not the first).
pub fn serialization_problems(g: &Graph) -> Vec<Diagnostic> {
    let mut problems = Vec::new();
    for (name, ch) in &g.channels {
        if ch.reducer.name().is_none() {
            problems.push(
                Diagnostic::error(
                    codes::CUSTOM_REDUCER,
                    format!(
                        "channel \"{name}\" uses a custom reducer function, which cannot be serialized. \
                         A stored graph may only name a built-in reducer: \"last_write\", \"append\", \"merge\"."
                    ),
                )
                .at(pointer(["channels", name]))
                .on_channel(name),
            );
        }
    }
    for (i, n) in g.nodes.iter().enumerate() {
        if n.type_name.is_none() {
            problems.push(
                Diagnostic::error(
                    codes::UNTYPED_NODE,
                    format!(
                        "node \"{}\" has no type, so it cannot be serialized — it was built from a function, \
                         and a stored graph resolves behaviour through the registry. Register a type for it \
                         and build the node from a spec.",
                        n.id
                    ),
                )
                .at(pointer(["nodes", &i.to_string()]))
                .on_node(&n.id),
            );
        }
    }
    for (i, e) in g.edges.iter().enumerate() {
        if e.guard.as_ref().is_some_and(|guard| guard.spec_when().is_none()) {
            problems.push(
                Diagnostic::error(
                    codes::CODE_GUARD,
                    format!(
                        "the guard on the edge from \"{}\" is a hand-written function with no declarative \
                         equivalent, so it cannot be serialized. Build the edge from a spec, or pass \
                         specWhen alongside it.",
                        e.from
                    ),
                )
                .at(pointer(["edges", &i.to_string()]))
                .on_edge(i, &e.from, &e.to),
            );
        }
    }
    for r in &g.routers {
        let at = g.nodes.iter().position(|n| n.id == r.from).map(|i| pointer(["nodes", &i.to_string()]));
        problems.push(
            Diagnostic::error(
                codes::CODE_ROUTER,
                format!(
                    "the router on \"{}\" cannot be serialized — it is code, and a stored graph must not carry \
                     executable text (MODEL.md §9). Express each branch as an edge with a declarative \"when\" \
                     predicate instead.",
                    r.from
                ),
            )
            .at(at.unwrap_or_default())
            .on_node(&r.from),
        );
    }
    problems
}

/// Turns a compiled graph back into a document. Refuses (all at once, each named) closure
/// nodes with no type, code routers, hand-written guards with no `spec_when` twin and custom
/// reducers. A code guard with a twin is written as the twin.
pub fn to_spec(compiled: &CompiledGraph) -> Result<GraphSpec, Vec<Diagnostic>> {
    let problems = serialization_problems(&compiled.graph);
    if !problems.is_empty() {
        return Err(problems);
    }
    let g = &compiled.graph;
    let mut spec = GraphSpec { name: g.name.clone(), ..GraphSpec::default() };
    spec.channels.reserve(g.channels.len());
    for (name, ch) in &g.channels {
        spec.channels.insert(name.clone(), ChannelSpec { reducer: ch.reducer.name().unwrap_or_default() });
    }
    spec.nodes = g
        .nodes
        .iter()
        .map(|n| NodeSpec {
            id: n.id.clone().into(),
            type_name: n.type_name.as_deref().map(Id::from),
            config: n.config.clone().into(),
        })
        .collect();
    spec.edges = g
        .edges
        .iter()
        .map(|e| EdgeSpec {
            from: e.from.clone().into(),
            to: e.to.clone().into(),
            when: e.guard.as_ref().and_then(Guard::spec_when).cloned(),
        })
        .collect();
    Ok(spec)
}

impl CompiledGraph {
    /// [`to_spec`] consuming the graph: nothing is copied. On refusal the graph is given back
    /// with the problems.
    pub fn into_spec(self) -> Result<GraphSpec, (CompiledGraph, Vec<Diagnostic>)> {
        let problems = serialization_problems(&self.graph);
        if !problems.is_empty() {
            return Err((self, problems));
        }
        let g = self.graph;
        let channels = g
            .channels
            .into_iter()
            .map(|(name, ch)| (name, ChannelSpec { reducer: ch.reducer.name().unwrap_or_default() }))
            .collect();
        let nodes = g
            .nodes
            .into_iter()
            .map(|n| NodeSpec {
                id: n.id.into(),
                type_name: n.type_name.map(Id::from),
                config: n.config.into(),
            })
            .collect();
        let edges = g
            .edges
            .into_iter()
            .map(|e| {
                let when = match e.guard {
                    Some(Guard::Spec(p)) => Some(p),
                    Some(Guard::Code { spec_when, .. }) => spec_when,
                    None => None,
                };
                EdgeSpec { from: e.from.into(), to: e.to.into(), when }
            })
            .collect();
        Ok(GraphSpec { name: g.name, channels, nodes, edges })
    }
}
