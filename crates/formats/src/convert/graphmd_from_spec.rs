//! GraphSpec -> GRAPH.md, with a loss report element by element. Channels become `state`
//! (estimates unknown: 0), types become node kinds (agent when the type is not a kind),
//! `__start__` edges the `entry` (a fan-out router when there are several), `__end__` edges
//! and nodes with no way out the `exits`, several unguarded edges out of a node `parallel`
//! edges, guarded edges `conditional` ones (the predicate kept as the condition), and every
//! edge that closes a cycle a `loop` bounded by Ilmek's default recursion limit (25).

use crate::convert::graphmd_to_spec::codes;
use crate::convert::{Conversion, Loss};
use crate::graphmd::model::NODE_KINDS;
use crate::graphmd::yaml::{Map, Yaml};
use crate::graphmd::GraphMd;
use serde_json::Value;
use std::collections::{HashMap, HashSet};
use trellis_spec::{GraphSpec, END, START};

/// The bound given to a GraphSpec cycle: Ilmek's default `recursionLimit`.
pub const DEFAULT_LOOP_BOUND: u64 = 25;

/// Converts a GraphSpec to a GRAPH.md document (spec_version "1.1.0", empty body).
pub fn from_graphspec(spec: &GraphSpec) -> Conversion<GraphMd> {
    let mut losses = Vec::new();
    let mut doc = GraphMd::new(spec.name.as_deref().unwrap_or("graph"));
    if spec.name.is_none() {
        doc.remove_field("name");
    }
    let ids: HashSet<&str> = spec.nodes.iter().map(|n| n.id.as_str()).collect();

    if !spec.channels.is_empty() {
        let mut state = Map::new();
        for (name, ch) in &spec.channels {
            let mut m = Map::new();
            m.flow = true;
            m.set("tokens", Yaml::plain("0"));
            state.set(name, Yaml::map(m));
            let ptr = trellis_spec::diagnostic::pointer(["channels", name]);
            losses.push(Loss::new(codes::ESTIMATES, ptr.clone(), format!("channel `{name}` becomes state `{name}` with an unknown token estimate, written as 0")).on(trellis_spec::Element::Channel { name: name.clone() }));
            losses.push(
                Loss::new(
                    crate::convert::codes::REDUCER,
                    format!("{ptr}/reducer"),
                    format!(
                        "the reducer `{}` of channel `{name}` has no place in GRAPH.md",
                        ch.reducer.as_str()
                    ),
                )
                .on(trellis_spec::Element::Channel { name: name.clone() }),
            );
        }
        doc.set_field("state", Yaml::map(state));
    }

    // The ids written so far: `GraphMd::add_node` looks for a repeated id through every node,
    // which made converting 10,000 nodes take seconds and 100,000 nodes more than a quarter of
    // an hour.
    let mut added: HashSet<&str> = HashSet::with_capacity(spec.nodes.len());
    for (i, n) in spec.nodes.iter().enumerate() {
        let at = format!("/nodes/{i}");
        let ty = n.type_name.as_deref().unwrap_or("");
        let kind = if NODE_KINDS.contains(&ty) && ty != "judge" { ty } else { "agent" };
        if kind != ty {
            losses.push(
                Loss::new(
                    crate::convert::codes::NODE_TYPE,
                    format!("{at}/type"),
                    format!(
                        "node `{}` has type `{ty}`, which is not a GRAPH.md kind; it is written as an agent",
                        n.id
                    ),
                )
                .on_node(&n.id),
            );
        }
        // A repeated id (an error of the GraphSpec) is written once; an empty one not at all.
        if n.id.is_empty() || !added.insert(n.id.as_str()) {
            continue;
        }
        let mut node = Map::new();
        node.set("id", Yaml::string(&n.id));
        node.set("kind", Yaml::string(kind));
        for (k, v) in &n.config {
            if k == "model_key" {
                if let Value::String(s) = v {
                    node.set("model_key", Yaml::string(s));
                    continue;
                }
            }
            losses.push(
                Loss::new(
                    codes::FIELD,
                    trellis_spec::diagnostic::pointer(["nodes", &i.to_string(), "config", k]),
                    format!("config `{k}` of node `{}` has no place in GRAPH.md", n.id),
                )
                .on_node(&n.id),
            );
        }
        doc.append_node(node);
    }

    // The entry.
    let starts: Vec<(usize, &trellis_spec::EdgeSpec)> =
        spec.edges.iter().enumerate().filter(|(_, e)| e.from == START).collect();
    let mut entry: Option<String> = None;
    match starts.as_slice() {
        [] => losses.push(Loss::new(
            crate::convert::codes::ENTRY,
            "/edges",
            "no edge leaves __start__, so the GRAPH.md has no entry",
        )),
        [(_, e)] if e.when.is_none() => entry = Some(e.to.to_string()),
        _ => {
            let mut id = "start".to_owned();
            while ids.contains(id.as_str()) {
                id.push('_');
            }
            let _ = doc.add_node(&id, "router");
            entry = Some(id.clone());
            losses.push(Loss::new(
                crate::convert::codes::ENTRY,
                format!("/edges/{}", starts[0].0),
                format!(
                    "GRAPH.md has one entry; a router `{id}` was added to fan out to {}",
                    starts.iter().map(|(_, e)| e.to.as_str()).collect::<Vec<_>>().join(", ")
                ),
            ));
        }
    }
    if let Some(e) = &entry {
        doc.set_field("entry", Yaml::string(e));
    }

    // Exits: edges to __end__, and nodes with no way out (both end a GraphSpec run).
    let mut exits: Vec<String> = Vec::new();
    let mut is_exit: HashSet<&str> = HashSet::new();
    for e in spec.edges.iter().filter(|e| e.to == END && e.from != START) {
        if is_exit.insert(e.from.as_str()) {
            exits.push(e.from.to_string());
        }
    }
    let sources: HashSet<&str> = spec.edges.iter().map(|e| e.from.as_str()).collect();
    for n in &spec.nodes {
        if !sources.contains(n.id.as_str()) && is_exit.insert(n.id.as_str()) {
            exits.push(n.id.to_string());
        }
    }
    doc.set_field("exits", Yaml::seq(exits.iter().map(Yaml::string).collect(), true));

    // Edges.
    let back = back_edges(spec, entry.as_deref());
    let mut unguarded: HashMap<&str, usize> = HashMap::new();
    for e in spec.edges.iter().filter(|e| e.when.is_none() && e.to != END) {
        *unguarded.entry(e.from.as_str()).or_default() += 1;
    }
    for (i, e) in spec.edges.iter().enumerate() {
        if e.to == END && e.from != START {
            if e.when.is_some() {
                losses.push(
                    Loss::new(crate::convert::codes::CONDITION, format!("/edges/{i}/when"), format!("the guard on the edge {} -> __end__ is dropped: a GRAPH.md exit is unconditional", e.from))
                        .on_edge(i, &e.from, &e.to),
                );
            }
            continue;
        }
        let from = if e.from == START {
            match &entry {
                Some(x) if starts.len() > 1 || e.when.is_some() => x.clone(),
                _ => continue,
            }
        } else {
            e.from.to_string()
        };
        let kind = if back.contains(&i) {
            "loop"
        } else if e.when.is_some() {
            "conditional"
        } else if unguarded.get(e.from.as_str()).copied().unwrap_or(0) > 1
            || (e.from == START && starts.len() > 1)
        {
            "parallel"
        } else {
            "sequential"
        };
        let Ok(ix) = doc.add_edge(None, &from, &e.to, Some(kind)) else { continue };
        if let Some(p) = &e.when {
            let cond = crate::graphmd::emit::json_to_yaml(&Value::Object(p.to_map()), true);
            let _ = doc.set_edge_field(ix, "condition", cond);
            if kind == "loop" {
                losses.push(
                    Loss::new(crate::convert::codes::CONDITION, format!("/edges/{i}/when"), format!("the guard on the loop edge {} -> {} is dropped (a GRAPH.md loop has bounds, not a condition)", e.from, e.to))
                        .on_edge(i, &e.from, &e.to),
                );
                let _ = doc.remove_edge_field(ix, "condition");
            } else {
                losses.push(
                    Loss::new(
                        crate::convert::codes::CONDITION_APPROXIMATE,
                        format!("/edges/{i}/when"),
                        format!("the predicate of edge {} -> {} is kept as its condition, but GRAPH.md does not say how a condition is evaluated", e.from, e.to),
                    )
                    .on_edge(i, &e.from, &e.to),
                );
            }
        }
        if kind == "loop" {
            let mut b = Map::new();
            b.flow = true;
            b.set("max_iterations", Yaml::plain(DEFAULT_LOOP_BOUND.to_string()));
            let _ = doc.set_edge_field(ix, "bounds", Yaml::map(b));
            losses.push(
                Loss::new(
                    codes::LOOP_BOUND,
                    format!("/edges/{i}"),
                    format!("the edge {} -> {} closes a cycle; it is written as a loop bounded by {DEFAULT_LOOP_BOUND} iterations (the default run-time recursion limit), which the GraphSpec did not state", e.from, e.to),
                )
                .on_edge(i, &e.from, &e.to),
            );
        }
    }
    Conversion { output: doc, losses }
}

/// Edges (by index) that close a cycle: a depth-first search from the entry (then from every
/// node not yet seen, in document order) finds an edge to a node still on the stack.
fn back_edges(spec: &GraphSpec, entry: Option<&str>) -> HashSet<usize> {
    let mut out_edges: HashMap<&str, Vec<(usize, &str)>> = HashMap::new();
    for (i, e) in spec.edges.iter().enumerate() {
        if e.from != START && e.to != END {
            out_edges.entry(e.from.as_str()).or_default().push((i, e.to.as_str()));
        }
    }
    let mut state: HashMap<&str, u8> = HashMap::new();
    let mut back = HashSet::new();
    let roots = entry
        .into_iter()
        .chain(spec.edges.iter().filter(|e| e.from == START).map(|e| e.to.as_str()))
        .chain(spec.nodes.iter().map(|n| n.id.as_str()));
    for root in roots {
        if state.contains_key(root) {
            continue;
        }
        let mut stack: Vec<(&str, usize)> = vec![(root, 0)];
        state.insert(root, 1);
        while let Some((v, k)) = stack.last_mut() {
            let v: &str = v;
            let next = out_edges.get(v).and_then(|o| o.get(*k)).copied();
            *k += 1;
            match next {
                Some((i, w)) => match state.get(w) {
                    Some(1) => {
                        back.insert(i);
                    }
                    Some(_) => {}
                    None => {
                        state.insert(w, 1);
                        stack.push((w, 0));
                    }
                },
                None => {
                    state.insert(v, 2);
                    stack.pop();
                }
            }
        }
    }
    back
}
