//! Weaveflow -> GraphSpec (formats.md §4.1 "Weaveflow → Ilmek").
//!
//! * Every state binding path becomes a channel (named by its full path, `shared.demo.x`), so
//!   translated conditions have a channel to test; the port names are lost.
//! * `entry_point` becomes the `__start__` edge; `finish_point` an edge to `__end__`.
//! * Conditions that are one comparison of one bound input with a literal become `when`
//!   predicates; the default edge beside a single eq/neq/truthy guard gets the complement.
//!   Everything else is kept as an unconditional edge and reported.
//! * Failure routes are dropped (they are not a normal path) and reported.

use indexmap::IndexMap;
use serde_json::Value;
use trellis_spec::{ChannelSpec, EdgeSpec, GraphSpec, NodeSpec, Predicate, ReducerName, END, START};

use super::cel::{parse_cel, Test};
use super::loss::{codes, Conversion, Loss};
use crate::weaveflow::{EdgeCondition, GraphDefinition, WeaveflowDoc, END_NODE};

/// Converts a Weaveflow document to a GraphSpec, with what could not be carried over.
pub fn to_graphspec(doc: &WeaveflowDoc) -> Conversion<GraphSpec> {
    let def = doc.definition();
    let mut losses = Vec::new();
    graph_losses(def, &mut losses);

    let channels = channels(def, &mut losses);
    let nodes = nodes(def, &mut losses);
    let mut edges = Vec::new();
    let entry = def.entry_point.trim();
    if entry.is_empty() {
        losses.push(Loss::new(
            codes::ENTRY,
            "/entry_point",
            "the graph has no entry_point, so no __start__ edge was written",
        ));
    } else {
        edges.push(EdgeSpec { from: START.into(), to: entry.into(), when: None });
    }
    graph_edges(def, &mut edges, &mut losses);

    let finish = def.finish_point.trim();
    if !finish.is_empty() {
        losses.push(
            Loss::new(
                codes::FINISH_POINT,
                "/finish_point",
                format!("finish_point \"{finish}\" has no GraphSpec field; an edge \"{finish}\" -> __end__ stands for it"),
            )
            .on_node(finish),
        );
        if !edges.iter().any(|e| e.from == finish) {
            edges.push(EdgeSpec { from: finish.into(), to: END.into(), when: None });
        }
    }

    let name = Some(def.name.trim()).filter(|n| !n.is_empty()).map(str::to_owned);
    Conversion { output: GraphSpec { name, channels, nodes, edges }, losses }
}

fn graph_losses(def: &GraphDefinition, losses: &mut Vec<Loss>) {
    if !def.description.trim().is_empty() {
        losses.push(Loss::new(
            codes::DESCRIPTION,
            "/description",
            "the graph description has no GraphSpec field",
        ));
    }
    if !def.state_modules.is_empty() {
        let names: Vec<String> =
            def.state_modules.iter().map(|m| format!("{}@{}", m.name, m.version)).collect();
        losses.push(Loss::new(
            codes::STATE_MODULES,
            "/state_modules",
            format!(
                "state modules {} have no GraphSpec equivalent (channels are declared instead)",
                names.join(", ")
            ),
        ));
    }
    if def.policy.is_some() {
        losses.push(Loss::new(
            codes::POLICY,
            "/policy",
            "the graph policy (limits, node defaults) has no GraphSpec field",
        ));
    }
    if !def.metadata.is_empty() {
        let what = if def.metadata.contains_key("web") {
            "metadata (including the Workbench's node positions)"
        } else {
            "metadata"
        };
        losses.push(Loss::new(
            codes::METADATA,
            "/metadata",
            format!("{what} has no GraphSpec field (Trellis keeps GraphSpec positions in a layout sidecar)"),
        ));
    }
}

/// Channels from binding paths, in order of first appearance.
fn channels(def: &GraphDefinition, losses: &mut Vec<Loss>) -> IndexMap<String, ChannelSpec> {
    let mut out: IndexMap<String, ChannelSpec> = IndexMap::new();
    let node_bindings = def
        .nodes
        .iter()
        .enumerate()
        .flat_map(|(i, n)| n.state.iter().map(move |(port, b)| (format!("/nodes/{i}/state/{port}"), b)));
    let edge_bindings = def.edges.iter().enumerate().flat_map(|(i, e)| {
        e.condition.iter().flat_map(move |c| {
            c.state.iter().map(move |(port, b)| (format!("/edges/{i}/condition/state/{port}"), b))
        })
    });
    for (at, b) in node_bindings.chain(edge_bindings) {
        let path = b.path.trim();
        if path.is_empty() {
            continue;
        }
        out.entry(path.to_owned()).or_insert(ChannelSpec { reducer: ReducerName::LastWrite });
        let r = b.reducer.trim();
        if !r.is_empty() {
            losses.push(Loss::new(
                codes::REDUCER,
                format!("{at}/reducer"),
                format!(
                    "reducer \"{r}\" on \"{path}\" has no GraphSpec equivalent; the channel uses last_write"
                ),
            ));
        }
    }
    out
}

fn nodes(def: &GraphDefinition, losses: &mut Vec<Loss>) -> Vec<NodeSpec> {
    let mut out = Vec::with_capacity(def.nodes.len());
    for (i, n) in def.nodes.iter().enumerate() {
        let id = n.id.trim();
        let at = format!("/nodes/{i}");
        let name = n.name.trim();
        if (!name.is_empty() && name != id) || !n.description.trim().is_empty() {
            losses.push(
                Loss::new(
                    codes::NODE_LABEL,
                    &*at,
                    format!("node \"{id}\": its name and description have no GraphSpec field"),
                )
                .on_node(id),
            );
        }
        if !n.state.is_empty() {
            let ports: Vec<String> =
                n.state.iter().map(|(p, b)| format!("{p} -> {}", b.path.trim())).collect();
            losses.push(
                Loss::new(
                    codes::STATE_BINDINGS,
                    format!("{at}/state"),
                    format!(
                        "node \"{id}\": state bindings {} are lost (the paths became channels; which port reads or writes which is not stored)",
                        ports.join(", ")
                    ),
                )
                .on_node(id),
            );
        }
        if n.policy.is_some() {
            losses.push(
                Loss::new(
                    codes::POLICY,
                    format!("{at}/policy"),
                    format!("node \"{id}\": its execution policy has no GraphSpec field"),
                )
                .on_node(id),
            );
        }
        if n.type_name.trim() == "subgraph" {
            losses.push(
                Loss::new(
                    codes::NODE_TYPE,
                    format!("{at}/type"),
                    format!("node \"{id}\": subgraphs have no GraphSpec equivalent"),
                )
                .on_node(id),
            );
        }
        let type_name = Some(n.type_name.trim()).filter(|t| !t.is_empty()).map(str::to_owned);
        out.push(NodeSpec {
            id: id.into(),
            type_name: type_name.map(trellis_spec::Id::from),
            config: n.config.clone().into(),
        });
    }
    out
}

/// A condition as a test on one channel, when it is one.
fn translate(c: &EdgeCondition) -> Result<(String, Test, Option<String>), String> {
    let t = c.type_name.trim();
    match t {
        "state_expression" => {
            let expr = c.config.get("expression").and_then(Value::as_str).unwrap_or_default();
            let Some((alias, test)) = parse_cel(expr) else {
                return Err(format!(
                    "the CEL expression `{expr}` is not a single comparison of one input with a literal"
                ));
            };
            let Some(b) = c.state.get(&alias) else {
                return Err(format!("the expression reads inputs.{alias}, which is not bound"));
            };
            let approx = matches!(
                test,
                Test::Eq(Value::Array(_) | Value::Object(_)) | Test::Neq(Value::Array(_) | Value::Object(_))
            )
            .then(|| {
                "GraphSpec compares lists and objects by reference, so this equality never holds there"
                    .to_owned()
            });
            Ok((b.path.trim().to_owned(), test, approx))
        }
        "expression_conditions" => {
            let exprs = c.config.get("expressions").and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
            let [leaf] = exprs else {
                return Err("only a single expression can become a predicate".into());
            };
            let op = leaf.get("op").and_then(Value::as_str).unwrap_or_default();
            let value1 = leaf.get("value1").and_then(Value::as_str).unwrap_or_default().trim();
            let value2 = leaf.get("value2").cloned().unwrap_or(Value::Null);
            if leaf.get("logic").is_some() || !matches!(value1, "." | "$") {
                return Err("only a comparison of the whole bound value can become a predicate".into());
            }
            let Some(b) = c.state.get("state") else { return Err("the `state` port is not bound".into()) };
            let value2 = match value2 {
                Value::String(s) => Value::String(s),
                other => return Err(format!("value2 {other} is not text")),
            };
            let test = match op {
                "equals" => Test::Eq(value2),
                "not_equals" => Test::Neq(value2),
                _ => return Err(format!("the operator \"{op}\" has no predicate equivalent")),
            };
            let approx = "Weaveflow compares as text, GraphSpec strictly: they agree only when the channel holds a string";
            Ok((b.path.trim().to_owned(), test, Some(approx.to_owned())))
        }
        other => Err(format!("the condition type \"{other}\" has no predicate equivalent")),
    }
}

fn graph_edges(def: &GraphDefinition, edges: &mut Vec<EdgeSpec>, losses: &mut Vec<Loss>) {
    // Translated tests by edge index, for the default-edge complement below.
    let mut tests: Vec<Option<(String, Test)>> = vec![None; def.edges.len()];
    for (i, e) in def.edges.iter().enumerate() {
        let (from, to) = (e.from.trim(), e.to.trim());
        let at = format!("/edges/{i}");
        if e.failure.is_some() {
            losses.push(
                Loss::new(
                    codes::FAILURE_ROUTE,
                    format!("{at}/failure"),
                    format!(
                        "failure route \"{from}\" -> \"{to}\" is dropped: GraphSpec has no error routing"
                    ),
                )
                .on_edge(i, from, to),
            );
            continue;
        }
        let to_spec = if to == END_NODE { END } else { to };
        let mut when = None;
        if let Some(c) = &e.condition {
            match translate(c) {
                Ok((channel, test, approx)) => {
                    when = Some(Predicate::from(test.to_predicate(&channel)));
                    if let Some(note) = approx {
                        losses.push(
                            Loss::new(codes::CONDITION_APPROXIMATE, format!("{at}/condition"), format!("condition on \"{from}\" -> \"{to}\": {note}"))
                                .on_edge(i, from, to),
                        );
                    }
                    tests[i] = Some((channel, test));
                }
                Err(why) => losses.push(
                    Loss::new(
                        codes::CONDITION,
                        format!("{at}/condition"),
                        format!("condition on \"{from}\" -> \"{to}\" cannot be a GraphSpec predicate ({why}); the edge is written unconditional"),
                    )
                    .on_edge(i, from, to),
                ),
            }
        }
        edges.push(EdgeSpec { from: from.into(), to: to_spec.into(), when });
    }
    default_edges(def, &tests, edges, losses);
}

/// Weaveflow takes one branch: the first true condition, else the default edge. GraphSpec fires
/// every true guard and every static edge. A default edge can keep its meaning only beside a
/// single translated eq/neq/truthy guard (as the complement); otherwise the difference is
/// reported.
fn default_edges(
    def: &GraphDefinition,
    tests: &[Option<(String, Test)>],
    edges: &mut [EdgeSpec],
    losses: &mut Vec<Loss>,
) {
    // Non-failure edge indices by source, in document order, in one pass.
    let mut by_source: IndexMap<&str, Vec<usize>> = IndexMap::new();
    for (i, e) in def.edges.iter().enumerate() {
        if e.failure.is_none() {
            by_source.entry(e.from.trim()).or_default().push(i);
        }
    }
    for (from, idx) in by_source {
        let conditional: Vec<usize> =
            idx.iter().copied().filter(|&i| def.edges[i].condition.is_some()).collect();
        if conditional.is_empty() {
            continue;
        }
        let defaults: Vec<usize> =
            idx.iter().copied().filter(|&i| def.edges[i].condition.is_none()).collect();
        // Only translated guards can fire together; untranslated ones were reported already.
        let translated: Vec<usize> = conditional.iter().copied().filter(|&i| tests[i].is_some()).collect();
        if translated.len() > 1 && !exclusive(translated.iter().map(|&i| tests[i].as_ref())) {
            losses.push(
                Loss::new(
                    codes::GUARD_OVERLAP,
                    format!("/edges/{}", translated[0]),
                    format!("node \"{from}\": Weaveflow takes only the first matching conditional edge, GraphSpec takes every matching one, and these conditions are not shown to exclude each other"),
                )
                .on_node(from),
            );
        }
        for &d in &defaults {
            let single = match conditional.as_slice() {
                [c] => tests[*c].as_ref().and_then(|(ch, t)| t.complement().map(|t| (ch.clone(), t))),
                _ => None,
            };
            let spec_index = edge_index(def, d);
            let (f, t) = (def.edges[d].from.trim(), def.edges[d].to.trim());
            match (single, spec_index.and_then(|j| edges.get_mut(j))) {
                (Some((channel, test)), Some(edge)) => edge.when = Some(Predicate::from(test.to_predicate(&channel))),
                _ => losses.push(
                    Loss::new(
                        codes::DEFAULT_EDGE,
                        format!("/edges/{d}"),
                        format!("default edge \"{f}\" -> \"{t}\" is taken in Weaveflow only when no condition matches; in GraphSpec it fires always, beside the guards"),
                    )
                    .on_edge(d, f, t),
                ),
            }
        }
    }
}

/// The index in the GraphSpec edge list of Weaveflow edge `i` (failure routes were skipped and
/// the `__start__` edge comes first when there is an entry point).
fn edge_index(def: &GraphDefinition, i: usize) -> Option<usize> {
    let start = usize::from(!def.entry_point.trim().is_empty());
    let skipped = def.edges[..i].iter().filter(|e| e.failure.is_some()).count();
    Some(start + i - skipped)
}

/// True when the tests are all `eq` on the same channel with different values.
fn exclusive<'a>(tests: impl Iterator<Item = Option<&'a (String, Test)>>) -> bool {
    let mut channel: Option<&str> = None;
    let mut values: Vec<&Value> = Vec::new();
    for t in tests {
        let Some((ch, Test::Eq(v))) = t else { return false };
        if channel.is_some_and(|c| c != ch) || values.contains(&v) {
            return false;
        }
        channel = Some(ch);
        values.push(v);
    }
    true
}
