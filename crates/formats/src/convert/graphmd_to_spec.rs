//! GRAPH.md -> GraphSpec, with a loss report element by element (formats.md §4.1): judge
//! fields, estimates, budgets, exits, loop bounds, edge ids and the human/subgraph kinds have
//! no place in a GraphSpec.

use crate::convert::{Conversion, Loss};
use crate::graphmd::validate::{check, EdgeKind, Topology};
use crate::graphmd::yaml::Yaml;
use crate::graphmd::GraphMd;
use serde_json::{Map, Value};
use trellis_spec::{ChannelSpec, EdgeSpec, GraphSpec, NodeSpec, Predicate, ReducerName, END, START};

/// Loss codes of the GRAPH.md conversions (listed in `docs/diagnostics.md`).
pub mod codes {
    /// Judge fields (seat, decision model, questions, options, timeout, fallback, trigger,
    /// confidence threshold).
    pub const JUDGE_FIELDS: &str = "convert/judge-fields";
    /// Node `estimates` and state token estimates.
    pub const ESTIMATES: &str = "convert/estimates";
    /// `path_budget`.
    pub const BUDGET: &str = "convert/budget";
    /// `exits` (written as edges to `__end__`).
    pub const EXITS: &str = "convert/exits";
    /// A loop bound (`bounds.max_iterations`), or a GraphSpec cycle given a bound.
    pub const LOOP_BOUND: &str = "convert/loop-bound";
    /// An edge id.
    pub const EDGE_ID: &str = "convert/edge-id";
    /// The meaning of an edge kind that the target expresses differently.
    pub const EDGE_KIND: &str = "convert/edge-kind";
    /// The Markdown body.
    pub const BODY: &str = "convert/body";
    /// A field that has no place in the target (unknown fields, `reads`, `description`, node
    /// `config`).
    pub const FIELD: &str = "convert/field";
}

/// Converts a GRAPH.md document to a GraphSpec. Node `kind` becomes the GraphSpec `type` and
/// `model_key` goes into `config`; everything else the GraphSpec cannot hold is a [`Loss`].
pub fn to_graphspec(doc: &GraphMd) -> Conversion<GraphSpec> {
    let (t, _) = check(doc);
    let mut losses = Vec::new();
    let mut spec = GraphSpec { name: t.name.clone(), ..GraphSpec::default() };

    if t.budget.cost_usd.is_some() || t.budget.tokens.is_some() {
        losses.push(Loss::new(
            codes::BUDGET,
            "/path_budget",
            "`path_budget` has no place in a GraphSpec; it is dropped",
        ));
    }
    if !doc.body.trim().is_empty() {
        losses.push(Loss::new(
            codes::BODY,
            "",
            "the Markdown body has no place in a GraphSpec; it is dropped",
        ));
    }
    for key in ["description"] {
        if doc.front.get(key).is_some() {
            losses.push(Loss::new(
                codes::FIELD,
                format!("/{key}"),
                format!("the graph `{key}` has no place in a GraphSpec"),
            ));
        }
    }
    for (name, tokens) in &t.state {
        spec.channels.insert(name.clone(), ChannelSpec { reducer: ReducerName::LastWrite });
        losses.push(Loss::new(
            codes::ESTIMATES,
            trellis_spec::diagnostic::pointer(["state", name]),
            format!("state `{name}` becomes channel `{name}` (last_write); its estimate of {tokens} tokens is dropped"),
        ));
    }
    nodes(doc, &t, &mut spec, &mut losses);
    edges(doc, &t, &mut spec, &mut losses);
    Conversion { output: spec, losses }
}

fn nodes(doc: &GraphMd, t: &Topology, spec: &mut GraphSpec, losses: &mut Vec<Loss>) {
    for n in &t.nodes {
        let at = format!("/nodes/{}", n.index);
        let mut config = Map::new();
        if let Some(m) = &n.model_key {
            config.insert("model_key".into(), Value::String(m.clone()));
        }
        spec.nodes.push(NodeSpec {
            id: n.id.clone().into(),
            type_name: Some(n.kind.clone().into()),
            config: config.into(),
        });
        if matches!(n.kind.as_str(), "human" | "subgraph") {
            losses.push(
                Loss::new(
                    crate::convert::codes::NODE_TYPE,
                    format!("{at}/kind"),
                    format!("node `{}` is a {} step, which a GraphSpec cannot express; it is written as type `{}`, which a registry must provide", n.id, n.kind, n.kind),
                )
                .on_node(&n.id),
            );
        }
        let Some(m) = doc
            .front
            .get("nodes")
            .and_then(Yaml::as_seq)
            .and_then(|s| s.items.get(n.index))
            .and_then(Yaml::as_map)
        else {
            continue;
        };
        let judge_keys: Vec<&str> = m
            .entries
            .iter()
            .map(|e| e.key.value.as_str())
            .filter(|k| {
                n.kind == "judge"
                    && !matches!(*k, "id" | "kind" | "model_key" | "estimates" | "reads" | "description")
            })
            .collect();
        if !judge_keys.is_empty() {
            losses.push(
                Loss::new(
                    codes::JUDGE_FIELDS,
                    at.clone(),
                    format!(
                        "the judge fields of `{}` ({}) have no place in a GraphSpec; they are dropped",
                        n.id,
                        judge_keys.join(", ")
                    ),
                )
                .on_node(&n.id),
            );
        }
        if m.get("estimates").is_some() {
            losses.push(
                Loss::new(
                    codes::ESTIMATES,
                    format!("{at}/estimates"),
                    format!("the estimates of `{}` are dropped", n.id),
                )
                .on_node(&n.id),
            );
        }
        for e in &m.entries {
            let k = e.key.value.as_str();
            let handled = matches!(k, "id" | "kind" | "model_key" | "estimates")
                || (n.kind == "judge" && judge_keys.contains(&k));
            if !handled {
                losses.push(
                    Loss::new(
                        codes::FIELD,
                        trellis_spec::diagnostic::pointer_push(&at, k),
                        format!("field `{k}` of node `{}` has no place in a GraphSpec; it is dropped", n.id),
                    )
                    .on_node(&n.id),
                );
            }
        }
    }
}

fn edges(doc: &GraphMd, t: &Topology, spec: &mut GraphSpec, losses: &mut Vec<Loss>) {
    if let Some(entry) = &t.entry {
        spec.edges.push(EdgeSpec { from: START.into(), to: entry.clone().into(), when: None });
    }
    // Several sequential/conditional edges out of one node are alternatives in GRAPH.md;
    // in a GraphSpec every unguarded edge fires.
    let mut alternatives: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for e in t.edges.iter().filter(|e| matches!(e.kind, EdgeKind::Sequential | EdgeKind::Conditional)) {
        *alternatives.entry(e.from.as_str()).or_default() += 1;
    }
    for e in &t.edges {
        let at = format!("/edges/{}", e.index);
        let mut when = None;
        if e.id.is_some() {
            losses.push(
                Loss::new(
                    codes::EDGE_ID,
                    format!("{at}/id"),
                    format!("edge id `{}` has no place in a GraphSpec", e.id.as_deref().unwrap_or("")),
                )
                .on_edge(e.index, &e.from, &e.to),
            );
        }
        match e.kind {
            EdgeKind::Conditional => {
                let cond = e.condition.clone().unwrap_or_default();
                let written = doc
                    .front
                    .get("edges")
                    .and_then(Yaml::as_seq)
                    .and_then(|s| s.items.get(e.index))
                    .and_then(Yaml::as_map)
                    .and_then(|m| m.get("condition"));
                let is_name = written.and_then(Yaml::as_str).is_some_and(|s| !s.contains(char::is_whitespace));
                // A mapping that is a GraphSpec predicate (as GraphSpec -> GRAPH.md writes a
                // guard) comes back as that very predicate: the round trip keeps the guard.
                let predicate = written
                    .filter(|y| y.as_map().is_some())
                    .map(crate::graphmd::emit::yaml_to_json)
                    .and_then(|v| match v {
                        Value::Object(m) => Some(m),
                        _ => None,
                    })
                    .filter(|m| {
                        m.get("channel").and_then(Value::as_str).is_some_and(|c| !c.is_empty())
                            && super::cel::Test::of_predicate(m).is_some()
                    });
                if let Some(p) = predicate {
                    let channel = p.get("channel").and_then(Value::as_str).unwrap_or_default().to_owned();
                    declare_for_condition(spec, losses, &channel, e);
                    when = Some(Predicate::from(p));
                } else if is_name {
                    let mut p = Map::new();
                    p.insert("channel".into(), Value::String(cond.clone()));
                    p.insert("truthy".into(), Value::Bool(true));
                    when = Some(Predicate::from(p));
                    declare_for_condition(spec, losses, &cond, e);
                    losses.push(
                        Loss::new(
                            crate::convert::codes::CONDITION_APPROXIMATE,
                            format!("{at}/condition"),
                            format!("condition `{cond}` of edge {} ({} -> {}) is written as the predicate {{channel: {cond}, truthy: true}}; GRAPH.md does not say how a condition is evaluated", e.index, e.from, e.to),
                        )
                        .on_edge(e.index, &e.from, &e.to),
                    );
                } else {
                    losses.push(
                        Loss::new(
                            crate::convert::codes::CONDITION,
                            format!("{at}/condition"),
                            format!("condition `{cond}` of edge {} ({} -> {}) is not a GraphSpec predicate; the edge is written unguarded", e.index, e.from, e.to),
                        )
                        .on_edge(e.index, &e.from, &e.to),
                    );
                }
            }
            EdgeKind::Loop => losses.push(
                Loss::new(
                    codes::LOOP_BOUND,
                    format!("{at}/bounds"),
                    format!("the loop {} -> {} loses its bound of {} iterations: a GraphSpec bounds cycles only by the run-time recursion limit", e.from, e.to, e.max_iterations.unwrap_or(0)),
                )
                .on_edge(e.index, &e.from, &e.to),
            ),
            EdgeKind::Sequential if alternatives.get(e.from.as_str()).copied().unwrap_or(0) > 1 => losses.push(
                Loss::new(
                    codes::EDGE_KIND,
                    at.clone(),
                    format!("edge {} -> {} is one of several alternatives out of `{}` in GRAPH.md, but an unguarded GraphSpec edge always fires", e.from, e.to, e.from),
                )
                .on_edge(e.index, &e.from, &e.to),
            ),
            _ => {}
        }
        spec.edges.push(EdgeSpec { from: e.from.clone().into(), to: e.to.clone().into(), when });
    }
    for (i, x) in t.exits.iter().enumerate() {
        spec.edges.push(EdgeSpec { from: x.clone().into(), to: END.into(), when: None });
        losses.push(Loss::new(codes::EXITS, format!("/exits/{i}"), format!("exit `{x}` is written as an edge to __end__; a GraphSpec does not mark successful terminals")).on_node(x));
    }
    for n in &t.nodes {
        if let Some(f) = &n.fallback {
            if n.judge.is_none() {
                losses.push(
                    Loss::new(
                        codes::JUDGE_FIELDS,
                        format!("/nodes/{}/fallback", n.index),
                        format!("the fallback `{f}` of `{}` is dropped", n.id),
                    )
                    .on_node(&n.id),
                );
            }
        }
    }
}

/// Declares `channel`, which the condition of edge `e` tests, when no `state` entry did: the
/// GraphSpec would refuse a predicate on an undeclared channel. Reported, since the GRAPH.md did
/// not declare it.
fn declare_for_condition(
    spec: &mut GraphSpec,
    losses: &mut Vec<Loss>,
    channel: &str,
    e: &crate::graphmd::validate::EdgeInfo,
) {
    if spec.channels.contains_key(channel) {
        return;
    }
    spec.channels.insert(channel.to_owned(), ChannelSpec { reducer: ReducerName::LastWrite });
    losses.push(
        Loss::new(
            crate::convert::codes::CHANNEL,
            format!("/edges/{}/condition", e.index),
            format!(
                "channel `{channel}` (last_write) was declared for the condition of edge {} ({} -> {}): the GRAPH.md `state` does not list it",
                e.index, e.from, e.to
            ),
        )
        .on_edge(e.index, &e.from, &e.to),
    );
}
