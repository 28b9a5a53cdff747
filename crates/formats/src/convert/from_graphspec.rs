//! GraphSpec -> Weaveflow (formats.md §4.1 "Ilmek → Weaveflow").
//!
//! * One `__start__` edge sets `entry_point`; several get a fan-out node (`entry_point` is a
//!   single node), reported.
//! * Guards become `state_expression` conditions (`inputs.intent == "buy"`) whose input, named
//!   as the channel, is bound to `shared.<channel>`; a channel whose name is not a CEL
//!   identifier is read as `inputs.value` (reported); `truthy` is not translated (emptiness
//!   rules differ), reported.
//! * A node with guards and no static edge gets a default edge to `__end__`: in GraphSpec, when
//!   no guard holds the branch ends, which is exactly that. A node with no outgoing edge also
//!   gets an edge to `__end__` (GraphSpec ends the branch; Weaveflow requires the edge). Both
//!   added edges are reported: the user did not draw them.
//! * Channels and reducers have no place of their own; nodes get no state bindings (a GraphSpec
//!   does not say what a node reads or writes). Both reported.

use std::collections::HashSet;

use indexmap::IndexMap;
use serde_json::{Map, Value};
use trellis_spec::{GraphSpec, ReducerName, END, START};

use super::cel::Test;
use super::loss::{codes, Conversion, Loss};
use crate::weaveflow::{
    builtin, path_problem, EdgeCondition, GraphDefinition, GraphEdge, GraphNode, StateBinding,
    StateModuleRef, WeaveflowDoc, DEFAULT_VERSION, END_NODE,
};

/// Settings of the conversion.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FromGraphSpecOptions {
    /// The `version` written ("1.0" by default; "2.0" for the older runtime).
    pub version: String,
}

impl Default for FromGraphSpecOptions {
    fn default() -> Self {
        FromGraphSpecOptions { version: DEFAULT_VERSION.to_owned() }
    }
}

/// The state module every converted graph declares (the one all Weaveflow examples use).
const MODULE: (&str, &str) = ("weaveflow.protocols", "1");
/// The input a translated predicate reads its channel as when the channel's name cannot be one.
const ALIAS: &str = "value";

/// CEL's reserved words: never an input's name.
const CEL_RESERVED: &[&str] = &[
    "true",
    "false",
    "null",
    "in",
    "as",
    "break",
    "const",
    "continue",
    "else",
    "for",
    "function",
    "if",
    "import",
    "let",
    "loop",
    "package",
    "namespace",
    "return",
    "var",
    "void",
    "while",
];

/// The name a condition reads `channel` under: the channel's own name when it is a CEL
/// identifier, else [`ALIAS`].
fn input_name(channel: &str) -> &str {
    let mut chars = channel.chars();
    let identifier = chars.next().is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !CEL_RESERVED.contains(&channel);
    if identifier {
        channel
    } else {
        ALIAS
    }
}

/// Converts with the default options.
pub fn from_graphspec(spec: &GraphSpec) -> Conversion<WeaveflowDoc> {
    from_graphspec_with(spec, &FromGraphSpecOptions::default())
}

/// Converts a GraphSpec to a Weaveflow document, with what could not be carried over.
pub fn from_graphspec_with(spec: &GraphSpec, options: &FromGraphSpecOptions) -> Conversion<WeaveflowDoc> {
    let mut losses = Vec::new();
    let mut def = GraphDefinition {
        version: options.version.clone(),
        name: spec.name.clone().unwrap_or_default(),
        state_modules: vec![StateModuleRef { name: MODULE.0.into(), version: MODULE.1.into() }],
        ..GraphDefinition::default()
    };

    for (i, n) in spec.nodes.iter().enumerate() {
        let type_name = n.type_name.clone().unwrap_or_default();
        let at = format!("/nodes/{i}");
        // A type the newest Weaveflow registry replaced (`llm`) is no Weaveflow type either.
        let current = builtin::node_type(&type_name).is_some_and(|b| b.replaced.is_none());
        if !type_name.is_empty() && !current {
            losses.push(
                Loss::new(
                    codes::NODE_TYPE,
                    format!("{at}/type"),
                    format!("node \"{}\": type \"{type_name}\" is not a Weaveflow node type; the Weaveflow runtime must register it", n.id),
                )
                .on_node(&n.id),
            );
        }
        losses.push(
            Loss::new(
                codes::STATE_BINDINGS,
                &*at,
                format!("node \"{}\": a GraphSpec does not say which channels a node reads or writes, so it gets no state bindings", n.id),
            )
            .on_node(&n.id),
        );
        def.nodes.push(GraphNode {
            id: n.id.to_string(),
            name: n.id.to_string(),
            type_name: type_name.to_string(),
            config: n.config.as_map().clone(),
            ..GraphNode::default()
        });
    }

    let used_channels = edges(spec, &mut def, &mut losses);
    channel_losses(spec, &used_channels, &mut losses);
    ends(spec, &mut def, &mut losses);
    Conversion { output: WeaveflowDoc::from_definition(def), losses }
}

/// Edges, entry and conditions. Returns the channels that conditions bind.
fn edges(spec: &GraphSpec, def: &mut GraphDefinition, losses: &mut Vec<Loss>) -> HashSet<String> {
    let mut used = HashSet::new();
    let starts: Vec<usize> = (0..spec.edges.len()).filter(|&i| spec.edges[i].from == START).collect();
    for &i in &starts {
        if spec.edges[i].when.is_some() {
            losses.push(
                Loss::new(codes::ENTRY, format!("/edges/{i}/when"), format!("the guard on the entry edge to \"{}\" is dropped: Weaveflow's entry point is unconditional", spec.edges[i].to))
                    .on_edge(i, START, &spec.edges[i].to),
            );
        }
    }
    match starts.as_slice() {
        [] => losses.push(Loss::new(
            codes::ENTRY,
            "/edges",
            "the graph has no __start__ edge, so entry_point is not set",
        )),
        [one] => def.entry_point = spec.edges[*one].to.to_string(),
        many => {
            let id = unique_id(spec, "start");
            let targets: Vec<&str> = many.iter().map(|&i| spec.edges[i].to.as_str()).collect();
            losses.push(Loss::new(
                codes::ENTRY,
                format!("/edges/{}", many[0]),
                format!(
                    "several __start__ edges ({}): entry_point is a single node, so a fan-out node \"{id}\" (state_set writing shared.{id}) was added",
                    targets.join(", ")
                ),
            ));
            let mut config = Map::new();
            config.insert("value".into(), Value::Bool(true));
            let mut state = IndexMap::new();
            state.insert(
                "target".to_owned(),
                StateBinding { path: format!("shared.{id}"), reducer: String::new() },
            );
            def.nodes.insert(
                0,
                GraphNode {
                    id: id.clone(),
                    name: id.clone(),
                    type_name: "state_set".into(),
                    description: String::new(),
                    config,
                    state,
                    policy: None,
                },
            );
            def.entry_point = id.clone();
            for t in targets {
                def.edges.push(GraphEdge { from: id.clone(), to: t.to_owned(), ..GraphEdge::default() });
            }
        }
    }

    let mut pairs: HashSet<(String, String)> = HashSet::new();
    for (i, e) in spec.edges.iter().enumerate() {
        if e.from == START {
            continue;
        }
        let to = if e.to == END { END_NODE.to_owned() } else { e.to.to_string() };
        if !pairs.insert((e.from.to_string(), to.clone())) {
            losses.push(
                Loss::new(
                    codes::EDGE,
                    format!("/edges/{i}"),
                    format!(
                        "a second edge \"{}\" -> \"{}\" is dropped: Weaveflow refuses duplicate pairs",
                        e.from, e.to
                    ),
                )
                .on_edge(i, &e.from, &e.to),
            );
            continue;
        }
        let mut condition = None;
        if let Some(p) = &e.when {
            let channel = p.channel().unwrap_or_default();
            let input = input_name(channel);
            let test = Test::of_predicate(&p.to_map());
            let cel = test.as_ref().and_then(|t| t.to_cel(input));
            let known = spec.channels.contains_key(channel);
            match (cel, test, known) {
                (Some(expression), Some(test), true) => {
                    used.insert(channel.to_owned());
                    if input != channel {
                        losses.push(
                            Loss::new(codes::CHANNEL, format!("/edges/{i}/when/channel"), format!(
                                "guard on \"{}\" -> \"{}\": channel \"{channel}\" is not a CEL name, so the condition reads it as inputs.{input} (bound to shared.{channel})",
                                e.from, e.to
                            ))
                            .on_edge(i, &e.from, &e.to),
                        );
                    }
                    let mut config = Map::new();
                    config.insert("expression".into(), Value::String(expression));
                    let mut state = IndexMap::new();
                    state.insert(
                        input.to_owned(),
                        StateBinding { path: format!("shared.{channel}"), reducer: String::new() },
                    );
                    condition = Some(EdgeCondition {
                        type_name: "state_expression".into(),
                        config,
                        state,
                        ..Default::default()
                    });
                    if matches!(test, Test::Neq(_)) {
                        losses.push(
                            Loss::new(codes::CONDITION_APPROXIMATE, format!("/edges/{i}/when"), format!(
                                "guard on \"{}\" -> \"{}\": an unset channel matches neq in GraphSpec, but a missing input makes a Weaveflow condition false",
                                e.from, e.to
                            ))
                            .on_edge(i, &e.from, &e.to),
                        );
                    }
                }
                (_, test, known) => {
                    let why = if !known {
                        format!("it tests channel \"{channel}\", which the spec does not declare")
                    } else if matches!(test, Some(Test::Truthy(_))) {
                        "truthy has different emptiness rules in CEL and needs a hand translation".to_owned()
                    } else {
                        "it has no known operator".to_owned()
                    };
                    losses.push(
                        Loss::new(codes::CONDITION, format!("/edges/{i}/when"), format!(
                            "guard on \"{}\" -> \"{}\" is not translated ({why}); the edge is written unconditional",
                            e.from, e.to
                        ))
                        .on_edge(i, &e.from, &e.to),
                    );
                }
            }
        }
        def.edges.push(GraphEdge { from: e.from.to_string(), to, condition, failure: None });
    }
    branch_rules(spec, def, losses);
    used
}

/// Weaveflow wants exactly one default edge beside conditional ones and takes one branch.
fn branch_rules(spec: &GraphSpec, def: &mut GraphDefinition, losses: &mut Vec<Loss>) {
    // Edge indices by source, and the first guarded GraphSpec edge of each source, in one pass.
    let mut by_source: IndexMap<String, Vec<usize>> = IndexMap::new();
    for (i, e) in def.edges.iter().enumerate() {
        by_source.entry(e.from.clone()).or_default().push(i);
    }
    let mut first_guard: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for (i, e) in spec.edges.iter().enumerate() {
        if e.when.is_some() {
            first_guard.entry(e.from.as_str()).or_insert(i);
        }
    }
    let mut added = Vec::new();
    for (from, idx) in &by_source {
        let conditional: Vec<&GraphEdge> =
            idx.iter().map(|&i| &def.edges[i]).filter(|e| e.condition.is_some()).collect();
        if conditional.is_empty() {
            continue;
        }
        let defaults = idx.iter().filter(|&&i| def.edges[i].condition.is_none()).count();
        let to_end = idx.iter().any(|&i| def.edges[i].to == END_NODE);
        let spec_index = first_guard.get(from.as_str()).copied().unwrap_or(0);
        if conditional.len() > 1 && !exclusive(&conditional) {
            losses.push(
                Loss::new(codes::GUARD_OVERLAP, format!("/edges/{spec_index}"), format!(
                    "node \"{from}\": GraphSpec fires every true guard, Weaveflow takes only the first matching condition, and these guards are not shown to exclude each other"
                ))
                .on_node(from),
            );
        }
        match defaults {
            0 if !to_end => {
                added.push(GraphEdge { from: from.clone(), to: END_NODE.into(), ..GraphEdge::default() });
                losses.push(
                    Loss::new(codes::ADDED_EDGE, format!("/edges/{spec_index}"), format!(
                        "node \"{from}\" has guards but no static edge: an edge \"{from}\" -> __end__ was added as the default edge Weaveflow requires (taken when no condition holds, where the GraphSpec branch ends)"
                    ))
                    .on_node(from),
                );
            }
            0 => losses.push(
                Loss::new(codes::DEFAULT_EDGE, format!("/edges/{spec_index}"), format!(
                    "node \"{from}\" has guards but no static edge, and its guarded edge to __end__ leaves no room for the default edge Weaveflow requires"
                ))
                .on_node(from),
            ),
            1 => losses.push(
                Loss::new(codes::DEFAULT_EDGE, format!("/edges/{spec_index}"), format!(
                    "node \"{from}\": its static edge fires beside the guards in GraphSpec, but is only the fallback (taken when no condition holds) in Weaveflow"
                ))
                .on_node(from),
            ),
            _ => losses.push(
                Loss::new(codes::DEFAULT_EDGE, format!("/edges/{spec_index}"), format!(
                    "node \"{from}\" has guards and several static edges; Weaveflow refuses more than one default edge beside conditions"
                ))
                .on_node(from),
            ),
        }
    }
    def.edges.extend(added);
}

/// True when every condition is `inputs.<input> == <literal>` on the same path with distinct
/// literals.
fn exclusive(edges: &[&GraphEdge]) -> bool {
    let mut seen: HashSet<String> = HashSet::new();
    let mut path: Option<&str> = None;
    for e in edges {
        let Some(c) = &e.condition else { return false };
        let expr = c.config.get("expression").and_then(Value::as_str).unwrap_or_default();
        let Some((input, Test::Eq(v))) = super::cel::parse_cel(expr) else { return false };
        let p = c.state.get(&input).map(|b| b.path.as_str()).unwrap_or_default();
        if path.is_some_and(|q| q != p) || !seen.insert(v.to_string()) {
            return false;
        }
        path = Some(p);
    }
    true
}

/// A node with no outgoing edge ends its branch in GraphSpec; Weaveflow needs the edge, which
/// is added and reported.
fn ends(spec: &GraphSpec, def: &mut GraphDefinition, losses: &mut Vec<Loss>) {
    let with_edges: HashSet<String> = def.edges.iter().map(|e| e.from.clone()).collect();
    let missing: Vec<String> =
        def.nodes.iter().map(|n| n.id.clone()).filter(|id| !with_edges.contains(id)).collect();
    for id in missing {
        let at = spec
            .nodes
            .iter()
            .position(|n| n.id == id.as_str())
            .map_or_else(|| "/nodes".to_owned(), |i| format!("/nodes/{i}"));
        losses.push(
            Loss::new(codes::ADDED_EDGE, at, format!(
                "node \"{id}\" has no outgoing edge (its GraphSpec branch ends there): an edge \"{id}\" -> __end__ was added, which Weaveflow requires"
            ))
            .on_node(&id),
        );
        def.edges.push(GraphEdge { from: id, to: END_NODE.into(), ..GraphEdge::default() });
    }
}

fn channel_losses(spec: &GraphSpec, used: &HashSet<String>, losses: &mut Vec<Loss>) {
    for (name, c) in &spec.channels {
        let at = format!("/channels/{}", name.replace('~', "~0").replace('/', "~1"));
        if let Some(problem) = path_problem(&format!("shared.{name}")) {
            losses.push(
                Loss::new(
                    codes::CHANNEL,
                    &*at,
                    format!("channel \"{name}\" cannot be a state path: {problem}"),
                )
                .on(trellis_spec::Element::Channel { name: name.clone() }),
            );
        }
        if !used.contains(name) {
            losses.push(
                Loss::new(codes::CHANNEL, &*at, format!("channel \"{name}\" is not bound anywhere: Weaveflow declares state through state modules and bindings, not channels"))
                    .on(trellis_spec::Element::Channel { name: name.clone() }),
            );
        }
        if c.reducer != ReducerName::LastWrite {
            losses.push(
                Loss::new(codes::REDUCER, format!("{at}/reducer"), format!(
                    "channel \"{name}\": reducer \"{}\" is decided by the Weaveflow node type's port (merge strategy), not stored in the graph",
                    c.reducer.as_str()
                ))
                .on(trellis_spec::Element::Channel { name: name.clone() }),
            );
        }
    }
}

/// `base`, or `base_2`, `base_3`… whichever is not a node id.
fn unique_id(spec: &GraphSpec, base: &str) -> String {
    let taken = |id: &str| spec.nodes.iter().any(|n| n.id == id);
    if !taken(base) {
        return base.to_owned();
    }
    (2..).map(|i| format!("{base}_{i}")).find(|id| !taken(id)).unwrap_or_else(|| base.to_owned())
}
