//! The GraphSpec edits planned one by one: nodes, configs, edges and conditions, channels, the
//! name, positions and a replaced document.

use std::collections::HashSet;

use indexmap::IndexMap;
use serde_json::Value;
use trellis_spec::diagnostic::Diagnostic;
use trellis_spec::{ChannelSpec, EdgeSpec, GraphSpec, NodeSpec, Predicate, Registry, START};

use super::checks::{check_edge_ends, check_new_id, check_reducer, edge_at, edge_exists, node_index};
use super::paste::plan_paste;
use super::planned::Plan;
use crate::config_field::set_config_field;
use crate::edit::Edit;
use crate::history::Prim;
use crate::ids::{fresh_id, id_base};
use crate::layout::Layout;
use crate::refusal::{check_position, codes, refuse, replacement_unreadable};

pub(super) fn plan_spec_edit(
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

pub(super) fn replace_node(
    plan: &mut Plan,
    spec: &GraphSpec,
    index: usize,
    change: impl FnOnce(&mut NodeSpec),
) {
    if let Some(before) = spec.nodes.get(index) {
        let mut after = before.clone();
        change(&mut after);
        if after != *before {
            plan.prims.push(Prim::Node { index, before: Some(before.clone()), after: Some(after) });
        }
    }
}
