//! The checks of `fromSpec` and `compile` (formats.md §1.5), with the reference wording, as
//! functions that collect every problem instead of stopping at the first. Shared by
//! [`crate::graph::from_spec`], [`crate::graph::Graph::compile`] and [`crate::validate`], so the
//! one validator and the runtime can never disagree.

use std::collections::{HashMap, HashSet};

pub use crate::id::IdHasher;

use serde_json::Value;

use crate::diagnostic::{pointer, Diagnostic};
use crate::model::{GraphSpec, Predicate, ReducerName, END, START};
use crate::predicate::{self, js_json};
use crate::registry::{Built, Registry};
use crate::walk::Walk;

/// Codes of the `fromSpec` and `compile` checks.
pub mod codes {
    /// The document is not a JSON object (null, an array, a string, a number, a boolean).
    pub const NOT_AN_OBJECT: &str = "spec/not-an-object";
    /// A channel's declaration is not an object.
    pub const CHANNEL_NOT_OBJECT: &str = "spec/channel-not-object";
    /// A channel name is empty.
    pub const EMPTY_CHANNEL_NAME: &str = "spec/empty-channel-name";
    /// The same channel declared twice (code-built graphs; JSON refuses duplicate keys earlier).
    pub const DUPLICATE_CHANNEL: &str = "spec/duplicate-channel";
    /// A reducer other than last_write, append, merge.
    pub const UNKNOWN_REDUCER: &str = "spec/unknown-reducer";
    /// A node entry that is not an object.
    pub const NODE_NOT_OBJECT: &str = "spec/node-not-object";
    /// A node id that is missing, empty or not a string.
    pub const INVALID_NODE_ID: &str = "spec/invalid-node-id";
    /// A node id `__start__` or `__end__`.
    pub const RESERVED_NODE_ID: &str = "spec/reserved-node-id";
    /// Two nodes with the same id.
    pub const DUPLICATE_NODE: &str = "spec/duplicate-node";
    /// A node with no `type`.
    pub const MISSING_TYPE: &str = "spec/missing-type";
    /// A node type the registry does not know.
    pub const UNKNOWN_TYPE: &str = "spec/unknown-type";
    /// A registry factory that did not return a node function.
    pub const FACTORY_NOT_FUNCTION: &str = "spec/factory-not-function";
    /// An edge entry that is not an object.
    pub const EDGE_NOT_OBJECT: &str = "spec/edge-not-object";
    /// A `when` that is not an object with a string `channel`.
    pub const MALFORMED_PREDICATE: &str = "spec/malformed-predicate";
    /// A predicate on a channel the document does not declare.
    pub const UNDECLARED_CHANNEL: &str = "spec/undeclared-channel";
    /// A predicate with none of eq, neq, in (an array), gt, lt, truthy.
    pub const NO_OPERATOR: &str = "spec/no-operator";
    /// An edge from something that is neither a node nor `__start__`.
    pub const UNKNOWN_EDGE_SOURCE: &str = "spec/unknown-edge-source";
    /// An edge to something that is neither a node nor `__end__`.
    pub const UNKNOWN_EDGE_TARGET: &str = "spec/unknown-edge-target";
    /// A code router on something that is not a node.
    pub const UNKNOWN_ROUTER_SOURCE: &str = "spec/unknown-router-source";
    /// No edge leaves `__start__`.
    pub const NO_ENTRY_EDGE: &str = "spec/no-entry-edge";
}

/// `JSON.stringify` of a list of names: `["a","b"]`.
pub fn name_list<'a>(names: impl IntoIterator<Item = &'a str>) -> String {
    let parts: Vec<String> =
        names.into_iter().map(|n| serde_json::to_string(n).unwrap_or_default()).collect();
    format!("[{}]", parts.join(","))
}

fn idx(i: usize) -> String {
    i.to_string()
}

/// Channel names and reducers (`fromSpec`, channels step).
pub fn check_channels(spec: &GraphSpec) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for (name, ch) in &spec.channels {
        if name.is_empty() {
            out.push(
                Diagnostic::error(
                    codes::EMPTY_CHANNEL_NAME,
                    "channel name must be a non-empty string, got \"\"",
                )
                .at(pointer(["channels", name]))
                .on_channel(name),
            );
        }
        if let ReducerName::Unknown(r) = &ch.reducer {
            out.push(unknown_reducer(name, &serde_json::to_string(r).unwrap_or_default()));
        }
    }
    out
}

/// The unknown-reducer diagnostic; `shown` is the reducer as JSON text.
pub fn unknown_reducer(channel: &str, shown: &str) -> Diagnostic {
    Diagnostic::error(
        codes::UNKNOWN_REDUCER,
        format!(
            "channel \"{channel}\": unknown reducer {shown}. A stored graph may only name a built-in reducer: \
             \"last_write\", \"append\", \"merge\"."
        ),
    )
    .at(pointer(["channels", channel, "reducer"]))
    .on_channel(channel)
}

/// Node ids and types (`fromSpec`, nodes step). With `None`, type lookups are skipped.
pub fn check_nodes(spec: &GraphSpec, registry: Option<&Registry>) -> Vec<Diagnostic> {
    check_nodes_keeping_ids(spec, registry).0
}

/// [`check_nodes`], and the set of every node id (empty and reserved ones too), which is what
/// [`check_topology`] takes: one set of 100,000 ids built for both instead of two.
pub fn check_nodes_keeping_ids<'a>(
    spec: &'a GraphSpec,
    registry: Option<&Registry>,
) -> (Vec<Diagnostic>, HashSet<&'a str, IdHasher>) {
    let mut seen: HashSet<&str, IdHasher> =
        HashSet::with_capacity_and_hasher(spec.nodes.len(), IdHasher::default());
    // Every id goes in, an empty or reserved one too: it is still an id edges may name.
    let out = nodes_checked(spec, registry, |_, id| !seen.insert(id));
    (out, seen)
}

/// [`check_nodes`] with the repeated ids read from the walk of the document (the validator's).
pub(crate) fn check_nodes_walked(
    spec: &GraphSpec,
    registry: Option<&Registry>,
    walk: &Walk<'_>,
) -> Vec<Diagnostic> {
    nodes_checked(spec, registry, |i, _| walk.first.get(i).is_some_and(Option::is_none))
}

/// The node checks, in document order; `repeated(i, id)` says whether an earlier node has the id
/// of node `i` (asked for every node, in order).
fn nodes_checked<'a>(
    spec: &'a GraphSpec,
    registry: Option<&Registry>,
    mut repeated: impl FnMut(usize, &'a str) -> bool,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    // The registry's names, listed once for the first unknown type ("did you mean" fixes).
    let mut known: Option<Vec<&str>> = None;
    for (i, n) in spec.nodes.iter().enumerate() {
        // Pointers are built only for a problem: building one per node is an allocation per
        // node on every validation (each edit of a 100,000-node document).
        if let Some(d) = check_id(&n.id, repeated(i, &n.id)) {
            out.push(d.at(pointer(["nodes", &idx(i), "id"])).on_node(&n.id));
        }
        match n.type_name.as_deref().filter(|t| !t.is_empty()) {
            None => out.push(
                Diagnostic::error(
                    codes::MISSING_TYPE,
                    format!(
                        "node \"{}\" has no \"type\" — a stored graph resolves behaviour through the registry, \
                         so every node needs one.",
                        n.id
                    ),
                )
                .at(pointer(["nodes", &idx(i)]))
                .on_node(&n.id),
            ),
            Some(t) => {
                if let Some(registry) = registry {
                    if let Some(mut d) = check_type(registry, &n.id, t, &n.config, i) {
                        if d.code == codes::UNKNOWN_TYPE {
                            let known = known.get_or_insert_with(|| registry.type_names().collect());
                            d.fixes = crate::fixes::unknown_type(&n.id, t, known);
                        }
                        out.push(d);
                    }
                }
            }
        }
    }
    out
}

fn check_type(
    registry: &Registry,
    id: &str,
    t: &str,
    config: &crate::model::Config,
    i: usize,
) -> Option<Diagnostic> {
    let at_type = || pointer(["nodes", &idx(i), "type"]);
    let Some(node_type) = registry.get(t) else {
        return Some(
            Diagnostic::error(
                codes::UNKNOWN_TYPE,
                format!(
                    "node \"{id}\" has type \"{t}\", which is not in the registry. Known types: {}",
                    name_list(registry.type_names())
                ),
            )
            .at(at_type())
            .on_node(id)
            .naming_type(t),
        );
    };
    let factory = node_type.factory.as_ref()?;
    // Only a code registry has factories; the config is copied only to call one.
    match factory(&Value::Object(config.as_map().clone())) {
        Built::Node(_) => None,
        Built::NotAFunction(what) => Some(
            Diagnostic::error(
                codes::FACTORY_NOT_FUNCTION,
                format!("registry entry \"{t}\" returned {what}; expected a node function (state, ctx)."),
            )
            .at(at_type())
            .on_node(id),
        ),
    }
}

/// Empty, reserved and duplicate ids (`repeated`: an earlier node has this id). Returns the
/// problem without a pointer.
fn check_id(id: &str, repeated: bool) -> Option<Diagnostic> {
    if id.is_empty() {
        return Some(Diagnostic::error(
            codes::INVALID_NODE_ID,
            "node name must be a non-empty string, got \"\"",
        ));
    }
    if id == START || id == END {
        return Some(Diagnostic::error(
            codes::RESERVED_NODE_ID,
            format!("\"{id}\" is reserved and implicit"),
        ));
    }
    if repeated {
        return Some(Diagnostic::error(codes::DUPLICATE_NODE, format!("duplicate node \"{id}\"")));
    }
    None
}

/// Every `when` of the document (`fromSpec`, edges step).
pub fn check_predicates(spec: &GraphSpec) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for (i, e) in spec.edges.iter().enumerate() {
        if let Some(p) = &e.when {
            let declared = |c: &str| spec.channels.contains_key(c);
            let names = || name_list(spec.channels.keys().map(String::as_str));
            out.extend(
                check_predicate(p, declared, names)
                    .into_iter()
                    .map(|(d, sub)| d.at(pointer_when(i, sub)).on_edge(i, &e.from, &e.to)),
            );
        }
    }
    out
}

fn pointer_when(i: usize, sub: Option<&str>) -> String {
    match sub {
        Some(s) => pointer(["edges", &idx(i), "when", s]),
        None => pointer(["edges", &idx(i), "when"]),
    }
}

/// The problems of one predicate, each with the key it is about (`channel`, or the whole).
pub fn check_predicate(
    p: &Predicate,
    declared: impl Fn(&str) -> bool,
    declared_list: impl Fn() -> String,
) -> Vec<(Diagnostic, Option<&'static str>)> {
    let whole = || js_json(&Value::Object(p.to_map()));
    let Some(channel) = p.channel() else {
        return vec![(
            Diagnostic::error(
                codes::MALFORMED_PREDICATE,
                format!(
                    "predicate {} is malformed — expected an object with a \"channel\" key, e.g. \
                     {{ channel: \"intent\", eq: \"buy\" }}.",
                    whole()
                ),
            ),
            None,
        )];
    };
    let mut out = Vec::new();
    if !declared(channel) {
        out.push((
            Diagnostic::error(
                codes::UNDECLARED_CHANNEL,
                format!(
                    "predicate references channel \"{channel}\", which this spec does not declare. Declared: {}",
                    declared_list()
                ),
            )
            .naming_channel(channel)
            .with_fix(crate::fixes::declare_channel(channel)),
            Some("channel"),
        ));
    }
    if predicate::operator(p).is_none() {
        out.push((
            Diagnostic::error(
                codes::NO_OPERATOR,
                format!(
                    "predicate on channel \"{channel}\" has no known operator: {}. Supported: eq, neq, in, gt, lt, truthy.",
                    whole()
                ),
            ),
            None,
        ));
    }
    out
}

/// The `compile` checks on edge ends and the entry edge. `edges` yields `(from, to)` in
/// document order (pointers use that index); `routers` yields each router's node.
pub fn check_topology<'a, S: std::hash::BuildHasher>(
    ids: &HashSet<&str, S>,
    edges: impl Iterator<Item = (&'a str, &'a str)>,
    routers: impl Iterator<Item = &'a str>,
) -> Vec<Diagnostic> {
    let known = |_: usize, name: &str| ids.contains(name);
    topology_checked(edges, routers, known, known, |name| ids.contains(name))
}

/// [`check_topology`] of a document's edges, with the ends read from its walk (the validator's).
pub(crate) fn check_topology_walked(spec: &GraphSpec, walk: &Walk<'_>) -> Vec<Diagnostic> {
    topology_checked(
        spec.edges.iter().map(|e| (e.from.as_str(), e.to.as_str())),
        std::iter::empty(),
        |i, from| walk.source_is_node(i, from),
        |i, to| walk.target_is_node(i, to),
        |name| walk.names_node(name),
    )
}

/// The checks of [`check_topology`]: `source_known(i, from)` and `target_known(i, to)` say whether
/// edge `i`'s end is a node (asked only for a source other than `__start__` and a target other
/// than `__end__`), `names_node` whether a router's node is one.
fn topology_checked<'a>(
    edges: impl Iterator<Item = (&'a str, &'a str)>,
    routers: impl Iterator<Item = &'a str>,
    source_known: impl Fn(usize, &str) -> bool,
    target_known: impl Fn(usize, &str) -> bool,
    names_node: impl Fn(&str) -> bool,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut has_entry = false;
    for (i, (from, to)) in edges.enumerate() {
        if from == START {
            has_entry = true;
        } else if !source_known(i, from) {
            out.push(
                Diagnostic::error(codes::UNKNOWN_EDGE_SOURCE, format!("edge from unknown node \"{from}\""))
                    .at(pointer(["edges", &idx(i), "from"]))
                    .on_edge(i, from, to),
            );
        }
        if to != END && !target_known(i, to) {
            out.push(
                Diagnostic::error(
                    codes::UNKNOWN_EDGE_TARGET,
                    format!("edge \"{from}\" -> unknown node \"{to}\""),
                )
                .at(pointer(["edges", &idx(i), "to"]))
                .on_edge(i, from, to),
            );
        }
    }
    for from in routers {
        if from == START {
            has_entry = true;
        } else if !names_node(from) {
            out.push(Diagnostic::error(
                codes::UNKNOWN_ROUTER_SOURCE,
                format!("router from unknown node \"{from}\""),
            ));
        }
    }
    if !has_entry {
        out.push(
            Diagnostic::error(
                codes::NO_ENTRY_EDGE,
                "graph has no entry edge — add .edge(START, \"someNode\")",
            )
            .at(pointer(["edges"])),
        );
    }
    out
}

/// Node ids and channel names of a graph built in code (a spec-built graph passes trivially).
pub fn check_graph_nodes<'a>(
    channels: impl IntoIterator<Item = &'a str>,
    node_ids: impl ExactSizeIterator<Item = &'a str>,
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for name in channels {
        if name.is_empty() {
            out.push(
                Diagnostic::error(
                    codes::EMPTY_CHANNEL_NAME,
                    "channel name must be a non-empty string, got \"\"",
                )
                .on_channel(name),
            );
        }
    }
    let mut seen = HashSet::with_capacity_and_hasher(node_ids.len(), IdHasher::default());
    for (i, id) in node_ids.enumerate() {
        if let Some(d) = check_id(id, !seen.insert(id)) {
            out.push(d.at(pointer(["nodes", &idx(i), "id"])).on_node(id));
        }
    }
    out
}

/// Declarative guards (and twins) of a graph built in code: each edge's ends and declarative
/// guard, in order, and the graph's channel names.
pub fn check_graph_guards<'a>(
    edges: impl IntoIterator<Item = (&'a str, &'a str, Option<&'a Predicate>)>,
    channels: &[&str],
) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let set: HashSet<&str, IdHasher> = channels.iter().copied().collect();
    for (i, (from, to, when)) in edges.into_iter().enumerate() {
        if let Some(p) = when {
            let declared = |c: &str| set.contains(c);
            let names = || name_list(channels.iter().copied());
            out.extend(
                check_predicate(p, declared, names)
                    .into_iter()
                    .map(|(d, sub)| d.at(pointer_when(i, sub)).on_edge(i, from, to)),
            );
        }
    }
    out
}

/// Node id -> position, for analyses that need it.
pub fn node_positions(spec: &GraphSpec) -> HashMap<&str, usize> {
    spec.nodes.iter().enumerate().map(|(i, n)| (n.id.as_str(), i)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_id_set_kept_holds_every_id_the_edges_may_name() {
        let spec = crate::read::parse_spec(
            r#"{"nodes": [{"id": "a", "type": "t"}, {"id": "", "type": "t"}, {"id": "__start__", "type": "t"},
                          {"id": "a", "type": "t"}, {"id": "", "type": "t"}, {"id": "__end__"}]}"#,
        )
        .spec
        .expect("a spec");
        let (found, ids) = check_nodes_keeping_ids(&spec, None);
        assert_eq!(found, check_nodes(&spec, None));
        let all: HashSet<&str> = spec.nodes.iter().map(|n| n.id.as_str()).collect();
        assert_eq!(ids.into_iter().collect::<HashSet<&str>>(), all);
    }
}
