//! Planning a GraphSpec edit: checks that the result can be stored (refusing with a diagnostic
//! that says why) and turns the edit into reversible prims. Nothing is changed here; the
//! session applies the plan, so an edit, its redo and its undo share one code path.

use std::collections::{HashMap, HashSet};

use indexmap::IndexMap;
use serde_json::{Map, Value};
use trellis_spec::diagnostic::Diagnostic;
use trellis_spec::{
    json, ChannelSpec, EdgeSpec, GraphSpec, Id, NodeSpec, Predicate, ReducerName, Registry, END, START,
};

use crate::config_field::set_config_field;
use crate::edit::{Edit, Position};
use crate::history::Prim;
use crate::ids::{fresh_id, id_base};
use crate::layout::Layout;
pub use crate::refusal::codes;
pub(crate) use crate::refusal::replacement_unreadable;
use crate::refusal::{check_position, refuse};

/// An edit turned into prims.
#[derive(Debug, Default)]
pub(crate) struct Plan {
    pub prims: Vec<Prim>,
    /// `(node, path)` for a `set_config_field`: lets typing coalesce into one undo step.
    pub coalesce: Option<(String, String)>,
    /// Things worth telling the user about the edit itself (not the document).
    pub notices: Vec<Diagnostic>,
}

fn node_index(spec: &GraphSpec, id: &str) -> Result<usize, Diagnostic> {
    spec.nodes
        .iter()
        .position(|n| n.id == id)
        .ok_or_else(|| refuse(codes::UNKNOWN_NODE, format!("there is no node \"{id}\"")).on_node(id))
}

fn check_new_id(spec: &GraphSpec, id: &str) -> Result<(), Diagnostic> {
    if id.is_empty() {
        return Err(refuse(codes::EMPTY_NAME, "a node id cannot be empty"));
    }
    if id == START || id == END {
        return Err(refuse(codes::RESERVED_ID, format!("\"{id}\" is reserved and implicit")));
    }
    if spec.nodes.iter().any(|n| n.id == id) {
        return Err(refuse(codes::NODE_EXISTS, format!("a node \"{id}\" already exists")).on_node(id));
    }
    Ok(())
}

fn check_reducer(r: &ReducerName) -> Result<(), Diagnostic> {
    match r {
        ReducerName::Unknown(s) => Err(refuse(
            codes::UNKNOWN_REDUCER,
            format!("unknown reducer \"{s}\"; the stored reducers are last_write, append and merge"),
        )),
        _ => Ok(()),
    }
}

fn edge_exists(spec: &GraphSpec, from: &str, to: &str, when: Option<&Predicate>) -> bool {
    spec.edges.iter().any(|e| e.from == from && e.to == to && e.when.as_ref() == when)
}

/// The one home of the rules on a new edge's ends: the canvas's drag, the keyboard's connect
/// and any other caller send `connect` and show the refusal's message.
fn check_edge_ends(
    spec: &GraphSpec,
    from: &str,
    to: &str,
    when: Option<&Predicate>,
) -> Result<(), Diagnostic> {
    if to == START {
        return Err(refuse(
            codes::EDGE_INTO_START,
            format!("nothing can connect into \"{START}\" (from \"{from}\"): it is where the graph begins"),
        ));
    }
    if from == END {
        return Err(refuse(
            codes::EDGE_OUT_OF_END,
            format!("nothing can leave \"{END}\" (to \"{to}\"): it is where the graph ends"),
        ));
    }
    if from == START && to == END && when.is_none() {
        return Err(refuse(
            codes::EDGE_START_TO_END,
            format!("\"{START}\" straight to \"{END}\" would be an empty graph"),
        ));
    }
    for end in [from, to] {
        if end != START && end != END && !spec.nodes.iter().any(|n| n.id == end) {
            return Err(refuse(codes::UNKNOWN_NODE, format!("there is no node \"{end}\" to connect")));
        }
    }
    Ok(())
}

fn edge_at(spec: &GraphSpec, index: usize) -> Result<&EdgeSpec, Diagnostic> {
    spec.edges.get(index).ok_or_else(|| {
        refuse(
            codes::UNKNOWN_EDGE,
            format!("there is no edge {index} (the document has {})", spec.edges.len()),
        )
    })
}

/// Plans `edit` against the current document.
pub(crate) fn plan(
    edit: &Edit,
    spec: &GraphSpec,
    layout: &Layout,
    registry: Option<&Registry>,
) -> Result<Plan, Diagnostic> {
    let mut plan = Plan::default();
    let has_node = |id: &str| spec.nodes.iter().any(|n| n.id == id);
    let annotations = crate::annotations::after_edit(&layout.notes, &layout.groups, edit, &has_node)?;
    if crate::annotations::only_annotations(edit) {
        push_annotations(&mut plan, layout, annotations);
        return Ok(plan);
    }
    plan_spec_edit(&mut plan, edit, spec, layout, registry)?;
    push_annotations(&mut plan, layout, annotations);
    Ok(plan)
}

/// The notes and groups after an edit, as one prim (when they changed).
fn push_annotations(plan: &mut Plan, layout: &Layout, after: Option<crate::annotations::Annotations>) {
    if let Some(after) = after {
        plan.prims.push(Prim::Annotations { before: Box::new(layout.annotations()), after: Box::new(after) });
    }
}

fn plan_spec_edit(
    plan: &mut Plan,
    edit: &Edit,
    spec: &GraphSpec,
    layout: &Layout,
    registry: Option<&Registry>,
) -> Result<(), Diagnostic> {
    match edit {
        Edit::AddNode { id, type_name, config, position } => {
            if type_name.is_empty() {
                return Err(refuse(codes::EMPTY_NAME, "a node needs a type"));
            }
            let id = match id {
                Some(id) => {
                    check_new_id(spec, id)?;
                    id.clone()
                }
                None => {
                    let ids: HashSet<&str> = spec.nodes.iter().map(|n| n.id.as_str()).collect();
                    fresh_id(&id_base(type_name), &|s| ids.contains(s))
                }
            };
            check_position(&id, position)?;
            let config = match config {
                Some(c) => c.clone(),
                None => registry
                    .and_then(|r| r.get(type_name))
                    .and_then(|t| t.info.defaults.as_ref())
                    .and_then(Value::as_object)
                    .cloned()
                    .unwrap_or_default(),
            };
            let node = NodeSpec {
                id: id.clone().into(),
                type_name: Some(type_name.clone().into()),
                config: config.into(),
            };
            let before = layout.positions.get(&id).copied();
            // A fresh node starts clean: the channels its config names are declared with it,
            // and the first node of an empty graph is where the graph starts.
            if let Some((prim, notice)) =
                registry.and_then(|r| crate::channel_configs::declared_for_new(spec, r, &node))
            {
                plan.prims.push(prim);
                plan.notices.push(notice);
            }
            let first = spec.nodes.is_empty() && !spec.edges.iter().any(|e| e.from == START);
            plan.prims.push(Prim::Node { index: spec.nodes.len(), before: None, after: Some(node) });
            if first {
                let edge = EdgeSpec { from: START.into(), to: id.clone().into(), when: None };
                plan.prims.push(Prim::Edge { index: spec.edges.len(), before: None, after: Some(edge) });
                plan.notices.push(
                    Diagnostic::info(
                        codes::CONNECTED_START,
                        format!("connected the start to \"{id}\", the graph's first node"),
                    )
                    .on_node(id.as_str()),
                );
            }
            plan.prims.push(Prim::Position { id, before, after: Some(*position) });
        }
        Edit::RemoveNodes { ids } => {
            let mut doomed = HashSet::new();
            for id in ids {
                node_index(spec, id)?;
                doomed.insert(id.as_str());
            }
            for (index, e) in spec.edges.iter().enumerate().rev() {
                if doomed.contains(e.from.as_str()) || doomed.contains(e.to.as_str()) {
                    plan.prims.push(Prim::Edge { index, before: Some(e.clone()), after: None });
                }
            }
            for (index, n) in spec.nodes.iter().enumerate().rev() {
                if doomed.contains(n.id.as_str()) {
                    plan.prims.push(Prim::Node { index, before: Some(n.clone()), after: None });
                    if let Some(p) = layout.positions.get(n.id.as_str()) {
                        plan.prims.push(Prim::Position {
                            id: n.id.to_string(),
                            before: Some(*p),
                            after: None,
                        });
                    }
                }
            }
        }
        Edit::RenameNode { from, to } => {
            let index = node_index(spec, from)?;
            if from == to {
                return Ok(());
            }
            check_new_id(spec, to)?;
            let before = spec.nodes.get(index).cloned();
            let after = before.clone().map(|mut n| {
                n.id = to.clone().into();
                n
            });
            plan.prims.push(Prim::Node { index, before, after });
            for (i, e) in spec.edges.iter().enumerate() {
                if e.from == *from || e.to == *from {
                    let mut ne = e.clone();
                    if ne.from == *from {
                        ne.from = to.clone().into();
                    }
                    if ne.to == *from {
                        ne.to = to.clone().into();
                    }
                    plan.prims.push(Prim::Edge { index: i, before: Some(e.clone()), after: Some(ne) });
                }
            }
            if let Some(p) = layout.positions.get(from) {
                plan.prims.push(Prim::Position { id: from.clone(), before: Some(*p), after: None });
                plan.prims.push(Prim::Position {
                    id: to.clone(),
                    before: layout.positions.get(to).copied(),
                    after: Some(*p),
                });
            }
        }
        Edit::SetNodeType { id, type_name } => {
            let index = node_index(spec, id)?;
            if type_name.is_empty() {
                return Err(refuse(codes::EMPTY_NAME, format!("node \"{id}\" needs a type")).on_node(id));
            }
            replace_node(plan, spec, index, |n| n.type_name = Some(type_name.clone().into()));
        }
        Edit::SetConfigField { id, path, value } => {
            let index = node_index(spec, id)?;
            let config = spec.nodes.get(index).map(|n| n.config.as_map().clone()).unwrap_or_default();
            let new_config = set_config_field(config, path, value.clone())
                .map_err(|m| refuse(codes::BAD_CONFIG_PATH, format!("node \"{id}\": {m}")).on_node(id))?;
            if let Some(new_config) = new_config {
                replace_node(plan, spec, index, |n| n.config = new_config.into());
                plan.coalesce = Some((id.clone(), path.clone()));
            }
        }
        Edit::SetConfig { id, config } => {
            let index = node_index(spec, id)?;
            replace_node(plan, spec, index, |n| n.config = config.clone().into());
        }
        Edit::Connect { from, to, when } => {
            check_edge_ends(spec, from, to, when.as_ref())?;
            if edge_exists(spec, from, to, when.as_ref()) {
                return Err(refuse(
                    codes::DUPLICATE_EDGE,
                    format!("there is already an edge from \"{from}\" to \"{to}\" with this condition"),
                ));
            }
            let edge = EdgeSpec { from: from.clone().into(), to: to.clone().into(), when: when.clone() };
            plan.prims.push(Prim::Edge { index: spec.edges.len(), before: None, after: Some(edge) });
        }
        Edit::Disconnect { index } => {
            let e = edge_at(spec, *index)?;
            plan.prims.push(Prim::Edge { index: *index, before: Some(e.clone()), after: None });
        }
        Edit::SetWhen { index, when } => {
            let e = edge_at(spec, *index)?;
            if e.when == *when {
                return Ok(());
            }
            if edge_exists(spec, &e.from, &e.to, when.as_ref()) {
                return Err(refuse(
                    codes::DUPLICATE_EDGE,
                    format!("the edge \"{}\" -> \"{}\" with this condition already exists", e.from, e.to),
                )
                .on_edge(*index, &e.from, &e.to));
            }
            let mut ne = e.clone();
            ne.when = when.clone();
            plan.prims.push(Prim::Edge { index: *index, before: Some(e.clone()), after: Some(ne) });
        }
        Edit::AddChannel { name, reducer } => {
            if name.is_empty() {
                return Err(refuse(codes::EMPTY_NAME, "a channel name cannot be empty"));
            }
            if spec.channels.contains_key(name) {
                return Err(refuse(codes::CHANNEL_EXISTS, format!("a channel \"{name}\" already exists"))
                    .on_channel(name));
            }
            check_reducer(reducer)?;
            let mut after = spec.channels.clone();
            after.insert(name.clone(), ChannelSpec { reducer: reducer.clone() });
            plan.prims.push(Prim::Channels { before: spec.channels.clone(), after });
        }
        Edit::RenameChannel { from, to } => {
            if !spec.channels.contains_key(from) {
                return Err(refuse(codes::UNKNOWN_CHANNEL, format!("there is no channel \"{from}\"")));
            }
            if from == to {
                return Ok(());
            }
            if to.is_empty() {
                return Err(refuse(codes::EMPTY_NAME, "a channel name cannot be empty"));
            }
            if spec.channels.contains_key(to) {
                return Err(refuse(codes::CHANNEL_EXISTS, format!("a channel \"{to}\" already exists"))
                    .on_channel(to));
            }
            let after: IndexMap<String, ChannelSpec> = spec
                .channels
                .iter()
                .map(|(k, v)| (if k == from { to.clone() } else { k.clone() }, v.clone()))
                .collect();
            plan.prims.push(Prim::Channels { before: spec.channels.clone(), after });
            // Predicates follow the rename: a guard keeps reading the same channel.
            for (i, e) in spec.edges.iter().enumerate() {
                if let Some(w) = &e.when {
                    if w.channel() == Some(from.as_str()) {
                        let mut ne = e.clone();
                        let mut map = w.to_map();
                        map.insert("channel".into(), Value::String(to.clone()));
                        ne.when = Some(Predicate::from(map));
                        plan.prims.push(Prim::Edge { index: i, before: Some(e.clone()), after: Some(ne) });
                    }
                }
            }
            // Config fields that name the channel follow too (same undo step).
            if let Some(registry) = registry {
                plan.prims.extend(crate::channel_configs::renamed(spec, registry, from, to));
            }
        }
        Edit::RemoveChannel { name } => {
            if !spec.channels.contains_key(name) {
                return Err(refuse(codes::UNKNOWN_CHANNEL, format!("there is no channel \"{name}\"")));
            }
            let users: Vec<String> = spec
                .edges
                .iter()
                .enumerate()
                .filter(|(_, e)| e.when.as_ref().and_then(Predicate::channel) == Some(name.as_str()))
                .map(|(i, e)| format!("#{i} \"{}\" -> \"{}\"", e.from, e.to))
                .collect();
            if !users.is_empty() {
                return Err(refuse(
                    codes::CHANNEL_IN_USE,
                    format!(
                        "channel \"{name}\" is read by the condition of edge{} {}; change or clear those conditions first",
                        if users.len() == 1 { "" } else { "s" },
                        users.join(", ")
                    ),
                )
                .on_channel(name));
            }
            if let Some(registry) = registry {
                crate::channel_configs::refuse_removal(spec, registry, name)?;
            }
            let mut after = spec.channels.clone();
            after.shift_remove(name);
            plan.prims.push(Prim::Channels { before: spec.channels.clone(), after });
        }
        Edit::SetReducer { name, reducer } => {
            let Some(current) = spec.channels.get(name) else {
                return Err(refuse(codes::UNKNOWN_CHANNEL, format!("there is no channel \"{name}\"")));
            };
            check_reducer(reducer)?;
            if current.reducer != *reducer {
                let mut after = spec.channels.clone();
                after.insert(name.clone(), ChannelSpec { reducer: reducer.clone() });
                plan.prims.push(Prim::Channels { before: spec.channels.clone(), after });
            }
        }
        Edit::RenameGraph { name } => {
            // An empty name is no name: the document stores `null` rather than `""`.
            let name = name.as_ref().filter(|n| !n.trim().is_empty()).cloned();
            if name != spec.name {
                plan.prims.push(Prim::Name { before: spec.name.clone(), after: name });
            }
        }
        Edit::MoveNodes { positions, .. } | Edit::ApplyLayout { positions, .. } => {
            let strict = matches!(edit, Edit::MoveNodes { .. });
            let ids: HashSet<&str> = spec.nodes.iter().map(|n| n.id.as_str()).collect();
            for (id, p) in positions {
                if !ids.contains(id.as_str()) {
                    // A layout engine may place __start__/__end__ too: those are skipped.
                    if strict {
                        return Err(refuse(
                            codes::UNKNOWN_NODE,
                            format!("there is no node \"{id}\" to move"),
                        ));
                    }
                    continue;
                }
                check_position(id, p)?;
                let before = layout.positions.get(id).copied();
                if before != Some(*p) {
                    plan.prims.push(Prim::Position { id: id.clone(), before, after: Some(*p) });
                }
            }
        }
        Edit::Paste { fragment, at } => plan_paste(plan, spec, layout, fragment, *at)?,
        Edit::ReplaceDocument { text, positions } => {
            let after = match crate::document::parse_document(None, text) {
                Ok((crate::document::Document::GraphSpec(after), _)) => after,
                Ok((other, _)) => {
                    return Err(refuse(
                        codes::UNSUPPORTED_EDIT,
                        format!("the replacement is a {:?} document, not a GraphSpec", other.format()),
                    ))
                }
                Err(ds) => return Err(replacement_unreadable(ds)),
            };
            if after != *spec {
                plan.prims.push(Prim::Document { before: Box::new(spec.clone()), after: Box::new(after) });
            }
            for (id, p) in positions {
                check_position(id, p)?;
                let before = layout.positions.get(id).copied();
                if before != Some(*p) {
                    plan.prims.push(Prim::Position { id: id.clone(), before, after: Some(*p) });
                }
            }
        }
        // Handled by the session itself, never planned.
        Edit::SetViewport { .. } | Edit::Reformat => {}
        // Planned by `crate::annotations` before.
        Edit::AddNote { .. }
        | Edit::SetNote { .. }
        | Edit::RemoveNotes { .. }
        | Edit::AddGroup { .. }
        | Edit::SetGroup { .. }
        | Edit::Ungroup { .. } => {}
        // The format-specific edits have no GraphSpec meaning.
        Edit::SetNodeField { .. }
        | Edit::SetEdgeField { .. }
        | Edit::SetBody { .. }
        | Edit::SetDocField { .. } => {
            return Err(refuse(
                codes::UNSUPPORTED_EDIT,
                format!(
                    "`{}` is for Weaveflow and GRAPH.md documents; a GraphSpec has no such field",
                    edit.op()
                ),
            ));
        }
    }
    Ok(())
}

fn replace_node(plan: &mut Plan, spec: &GraphSpec, index: usize, change: impl FnOnce(&mut NodeSpec)) {
    if let Some(before) = spec.nodes.get(index) {
        let mut after = before.clone();
        change(&mut after);
        if after != *before {
            plan.prims.push(Prim::Node { index, before: Some(before.clone()), after: Some(after) });
        }
    }
}

/// The fragment the clipboard holds: GraphSpec-shaped, every part optional.
#[derive(Debug, Default, serde::Deserialize)]
struct Fragment {
    #[serde(default)]
    nodes: Vec<FragmentNode>,
    #[serde(default)]
    edges: Vec<EdgeSpec>,
    #[serde(default)]
    channels: IndexMap<String, ChannelSpec>,
    /// Positions by node id, either directly or as a layout sidecar object (which may hold
    /// notes and groups too).
    #[serde(default)]
    positions: IndexMap<String, Position>,
    #[serde(default)]
    layout: Option<Map<String, Value>>,
    #[serde(default)]
    #[allow(dead_code)]
    name: Option<Value>,
}

#[derive(Debug, serde::Deserialize)]
struct FragmentNode {
    id: String,
    #[serde(default, rename = "type")]
    type_name: Option<String>,
    #[serde(default)]
    config: Map<String, Value>,
}

fn plan_paste(
    plan: &mut Plan,
    spec: &GraphSpec,
    layout: &Layout,
    fragment: &Value,
    at: Option<Position>,
) -> Result<(), Diagnostic> {
    let value = match fragment {
        Value::String(text) => json::parse(text).map_err(|d| {
            refuse(codes::BAD_FRAGMENT, format!("the pasted text is not JSON: {}", d.message))
        })?,
        other => other.clone(),
    };
    let frag: Fragment = serde_json::from_value(value).map_err(|e| {
        refuse(codes::BAD_FRAGMENT, format!("the pasted fragment is not a graph fragment: {e}"))
    })?;
    if let Some(at) = at {
        check_position("the paste point", &at)?;
    }

    // Fresh ids for clashes (with the document, with reserved ids, or inside the fragment).
    let mut taken: HashSet<String> = spec.nodes.iter().map(|n| n.id.to_string()).collect();
    let mut map: HashMap<String, String> = HashMap::new();
    let mut renamed = Vec::new();
    let mut new_nodes = Vec::new();
    for n in &frag.nodes {
        if n.id.is_empty() {
            return Err(refuse(codes::BAD_FRAGMENT, "a pasted node has an empty id"));
        }
        if map.contains_key(&n.id) {
            return Err(refuse(
                codes::BAD_FRAGMENT,
                format!("the pasted fragment has node \"{}\" twice", n.id),
            ));
        }
        let id = if taken.contains(&n.id) || n.id == START || n.id == END {
            let id = fresh_id(&n.id, &|s| taken.contains(s) || s == START || s == END);
            renamed.push(format!("\"{}\" -> \"{id}\"", n.id));
            id
        } else {
            n.id.clone()
        };
        taken.insert(id.clone());
        map.insert(n.id.clone(), id.clone());
        new_nodes.push(NodeSpec {
            id: id.into(),
            type_name: n.type_name.as_deref().map(Id::from),
            config: n.config.clone().into(),
        });
    }
    let doc_ids: HashSet<&str> = spec.nodes.iter().map(|n| n.id.as_str()).collect();
    let resolve = |end: &str| -> Option<String> {
        if let Some(new) = map.get(end) {
            Some(new.clone())
        } else if end == START || end == END || doc_ids.contains(end) {
            Some(end.to_owned())
        } else {
            None
        }
    };
    let mut new_edges: Vec<EdgeSpec> = Vec::new();
    let mut dropped = Vec::new();
    for e in &frag.edges {
        let ends = resolve(&e.from).zip(resolve(&e.to));
        let Some((from, to)) = ends.filter(|(f, t)| t != START && f != END) else {
            dropped.push(format!("\"{}\" -> \"{}\"", e.from, e.to));
            continue;
        };
        let edge = EdgeSpec { from: from.into(), to: to.into(), when: e.when.clone() };
        let dup = edge_exists(spec, &edge.from, &edge.to, edge.when.as_ref()) || new_edges.contains(&edge);
        if !dup {
            new_edges.push(edge);
        }
    }

    // Positions: the fragment's own, shifted so its top-left corner lands on `at`; nodes
    // without one are lined up below. Notes count for the corner too.
    let mut frag_layout = frag.layout.clone().unwrap_or_default();
    let frag_annotations = crate::annotations::read_from(&mut frag_layout)
        .map_err(|e| refuse(codes::BAD_FRAGMENT, format!("the pasted notes and groups: {e}")))?;
    let frag_positions: IndexMap<String, Position> = match frag_layout.shift_remove("positions") {
        Some(v) => serde_json::from_value(v).map_err(|e| {
            refuse(codes::BAD_FRAGMENT, format!("the pasted fragment's positions are not positions: {e}"))
        })?,
        None => IndexMap::new(),
    };
    let given = |old: &str| frag.positions.get(old).or_else(|| frag_positions.get(old)).copied();
    let mut known: Vec<Position> = frag.nodes.iter().filter_map(|n| given(&n.id)).collect();
    known.extend(frag_annotations.notes.iter().map(|n| Position { x: n.x, y: n.y }));
    let min_x = known.iter().map(|p| p.x).fold(f64::INFINITY, f64::min);
    let min_y = known.iter().map(|p| p.y).fold(f64::INFINITY, f64::min);
    let (min_x, min_y) = if known.is_empty() { (0.0, 0.0) } else { (min_x, min_y) };
    // Without a point, offset from the originals so the copy is visible beside them.
    let beside = if known.is_empty() {
        Position { x: 0.0, y: 0.0 }
    } else {
        Position { x: min_x + 40.0, y: min_y + 40.0 }
    };
    let origin = at.unwrap_or(beside);
    let mut next_free = 0.0;
    for (old, node) in frag.nodes.iter().zip(&new_nodes) {
        let p = match given(&old.id) {
            Some(p) => Position { x: origin.x + (p.x - min_x), y: origin.y + (p.y - min_y) },
            None => {
                let p = Position { x: origin.x, y: origin.y + next_free };
                next_free += 120.0;
                p
            }
        };
        check_position(&node.id, &p)?;
        plan.prims.push(Prim::Position {
            id: node.id.to_string(),
            before: layout.positions.get(node.id.as_str()).copied(),
            after: Some(p),
        });
    }

    if !frag_annotations.is_empty() {
        let shift = |p: Position| Position { x: origin.x + (p.x - min_x), y: origin.y + (p.y - min_y) };
        let pasted = crate::annotations::pasted(&layout.annotations(), frag_annotations, &map, &shift)?;
        plan.prims
            .push(Prim::Annotations { before: Box::new(layout.annotations()), after: Box::new(pasted) });
    }

    let mut channels = spec.channels.clone();
    for (name, c) in &frag.channels {
        check_reducer(&c.reducer)?;
        channels.entry(name.clone()).or_insert_with(|| c.clone());
    }
    if channels != spec.channels {
        plan.prims.push(Prim::Channels { before: spec.channels.clone(), after: channels });
    }
    for (i, n) in new_nodes.into_iter().enumerate() {
        plan.prims.push(Prim::Node { index: spec.nodes.len() + i, before: None, after: Some(n) });
    }
    for (i, e) in new_edges.into_iter().enumerate() {
        plan.prims.push(Prim::Edge { index: spec.edges.len() + i, before: None, after: Some(e) });
    }
    if !renamed.is_empty() {
        plan.notices.push(Diagnostic::info(
            codes::PASTE_RENAMED,
            format!("pasted nodes renamed: {}", renamed.join(", ")),
        ));
    }
    if !dropped.is_empty() {
        plan.notices.push(Diagnostic::info(
            codes::PASTE_DROPPED_EDGES,
            format!(
                "pasted edges dropped (an end is neither pasted nor in the graph): {}",
                dropped.join(", ")
            ),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn fresh_ids_count_up() {
        let taken: HashSet<&str> = ["llm", "llm_2", "a_9"].into_iter().collect();
        assert_eq!(fresh_id("llm", &|s| taken.contains(s)), "llm_3");
        assert_eq!(fresh_id("a_9", &|s| taken.contains(s)), "a_10");
        assert_eq!(fresh_id("new", &|s| taken.contains(s)), "new");
        assert_eq!(fresh_id("__start__", &|s| taken.contains(s)), "__start___2");
    }

    #[test]
    fn config_fields_set_and_remove() {
        let c = json!({"a": 1, "b": {"c": [1, 2]}}).as_object().cloned().unwrap_or_default();
        let set = |c: &Map<String, Value>, p: &str, v: Option<Value>| set_config_field(c.clone(), p, v);
        let r = set(&c, "/b/c/1", Some(json!(5))).expect("ok").expect("changed");
        assert_eq!(Value::Object(r), json!({"a": 1, "b": {"c": [1, 5]}}));
        let r = set(&c, "/b/c/-", Some(json!(3))).expect("ok").expect("changed");
        assert_eq!(Value::Object(r), json!({"a": 1, "b": {"c": [1, 2, 3]}}));
        let r = set(&c, "/x/y", Some(json!("z"))).expect("ok").expect("changed");
        assert_eq!(Value::Object(r), json!({"a": 1, "b": {"c": [1, 2]}, "x": {"y": "z"}}));
        let r = set(&c, "/a", None).expect("ok").expect("changed");
        assert_eq!(Value::Object(r), json!({"b": {"c": [1, 2]}}));
        assert!(set(&c, "/a", Some(json!(1))).expect("ok").is_none());
        assert!(set(&c, "/zz", None).expect("ok").is_none());
        assert!(set(&c, "/a/b", Some(json!(1))).is_err());
        assert!(set(&c, "a", Some(json!(1))).is_err());
        assert!(set(&c, "", Some(json!(1))).is_err());
        assert!(set(&c, "/b/c/7", Some(json!(1))).is_err());
        assert!(set(&c, "/b/c/01", Some(json!(1))).is_err());
        let r = set(&c, "/a~1b", Some(json!(2))).expect("ok").expect("changed");
        assert_eq!(r.get("a/b"), Some(&json!(2)));
    }
}
