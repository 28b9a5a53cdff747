//! Weaveflow documents in a session: edits on the typed view (merged into the raw value by
//! `WeaveflowDoc::set_definition`, so only what changed changes in the file), positions in
//! `metadata.web.positions`, validation with spans, and the save check.

use indexmap::IndexMap;
use serde_json::{Map, Value};
use trellis_formats::weaveflow::{
    self, EdgeCondition, ExecutionPolicy, FailureRoute, GraphDefinition, GraphEdge, GraphNode, GraphPolicy,
    StateBinding, StateModuleRef, ValidateOptions, WeaveflowDoc, END_NODE,
};
use trellis_spec::Diagnostic;

use super::{check_position, codes, refuse, typed, Applied};
use crate::annotations::{self, Annotations};
use crate::config_field::set_config_field;
use crate::edit::{Edit, Position};
use crate::ids::{fresh_id, id_base};
use crate::layout::Layout;
use crate::refusal::codes as edit_codes;
use crate::registries::Registries;

/// The session layout of a Weaveflow document: its `metadata.web.positions`; `true` when
/// some node has no position there (the UI lays the graph out; that layout is not written
/// into the file unless the user moves something).
pub fn layout_of(d: &WeaveflowDoc) -> (Layout, bool) {
    let mut layout = Layout::default();
    for (id, p) in d.definition().positions() {
        layout.positions.insert(id, Position { x: p.x, y: p.y });
    }
    if let Ok((a, _)) = annotations_of(d) {
        layout.set_annotations(a);
    }
    let missing = d.definition().nodes.iter().any(|n| !layout.positions.contains_key(&n.id));
    (layout, missing)
}

/// The notes and groups in `metadata.web` (beside `positions`), and what was repaired in
/// them; `Err` when they cannot be read at all (the document opens without them).
pub fn annotations_of(d: &WeaveflowDoc) -> Result<(Annotations, Vec<String>), String> {
    let Some(web) = d.definition().metadata.get("web").and_then(Value::as_object) else {
        return Ok(Default::default());
    };
    let mut obj: Map<String, Value> = ["notes", "groups"]
        .iter()
        .filter_map(|k| web.get(*k).map(|v| ((*k).to_owned(), v.clone())))
        .collect();
    let mut a = annotations::read_from(&mut obj)?;
    let problems = a.repair();
    Ok((a, problems))
}

/// What opening says about the notes and groups of `metadata.web` (nothing when they read).
pub(crate) fn annotation_notices(d: &WeaveflowDoc) -> Vec<Diagnostic> {
    let warn =
        |m: String| Diagnostic::warning(crate::layout::codes::BAD_LAYOUT, format!("metadata.web: {m}"));
    match annotations_of(d) {
        Ok((_, problems)) => problems.into_iter().map(warn).collect(),
        Err(e) => vec![warn(format!("the notes and groups were not used: {e}"))],
    }
}

/// Writes the notes and groups into `metadata.web` (removing the keys when there are none,
/// and `web` itself when nothing else is in it), leaving the rest of the metadata alone.
pub(crate) fn write_annotations(d: &mut WeaveflowDoc, layout: &Layout) -> Result<(), Diagnostic> {
    let mut def = d.definition().clone();
    let had_web = def.metadata.contains_key("web");
    let web = def.metadata.entry("web").or_insert_with(|| Value::Object(Map::new()));
    let Some(web) = web.as_object_mut() else {
        return Err(refuse(
            codes::BAD_VALUE,
            "`metadata.web` is not an object, so notes and groups have no place in this document",
        ));
    };
    let (notes, groups) = annotations::to_values(&layout.annotations());
    for (key, value, empty) in
        [("notes", notes, layout.notes.is_empty()), ("groups", groups, layout.groups.is_empty())]
    {
        if empty {
            web.shift_remove(key);
        } else {
            web.insert(key.to_owned(), value);
        }
    }
    if web.is_empty() && !had_web {
        def.metadata.shift_remove("web");
    }
    if def != *d.definition() {
        d.set_definition(def);
    }
    Ok(())
}

/// The Weaveflow validator with the session's registry (project node types count) and the
/// accepted `version` setting, spans filled from the text a save would write now: the file's
/// own text (`source`) with the edits spliced in, so that a position shown in the app is the
/// position in the file, as `trellis validate` reports it (the writer's canonical text would
/// move every line of a file formatted by hand).
pub fn validate(d: &WeaveflowDoc, registries: &Registries, source: Option<&str>) -> Vec<Diagnostic> {
    let options = match &registries.weaveflow_version {
        Some(v) => ValidateOptions { expected_version: v.clone() },
        None => ValidateOptions::default(),
    };
    let mut out = weaveflow::validate(d.definition(), Some(&registries.registry), &options);
    if out.iter().any(|d| d.span.is_none() && !d.pointer.is_empty()) {
        weaveflow::fill_spans(d, &crate::document::weaveflow_text(d, source), &mut out);
    }
    out
}

/// Save steps 1-2 for Weaveflow: the writer's text, read back, must give the same document
/// and the same text again. `Err` says what differed.
/// `source` is the file's text when known: the edit is spliced into it.
pub fn roundtrip(d: &WeaveflowDoc, source: Option<&str>) -> Result<String, String> {
    let text = crate::document::weaveflow_text(d, source);
    let back = weaveflow::parse(&text);
    let Some(doc) = back.doc else {
        return Err("the written text could not be read back".into());
    };
    if doc.definition() != d.definition() || doc.value() != d.value() {
        return Err("the text read back holds another definition".into());
    }
    if weaveflow::to_string(&doc) != weaveflow::to_string(d) {
        return Err("writing the text read back gives another text".into());
    }
    Ok(text)
}

fn node_mut<'a>(def: &'a mut GraphDefinition, id: &str) -> Result<&'a mut GraphNode, Diagnostic> {
    def.nodes
        .iter_mut()
        .find(|n| n.id == id)
        .ok_or_else(|| refuse(edit_codes::UNKNOWN_NODE, format!("there is no node \"{id}\"")))
}

fn edge_mut(def: &mut GraphDefinition, index: usize) -> Result<&mut GraphEdge, Diagnostic> {
    let n = def.edges.len();
    def.edges.get_mut(index).ok_or_else(|| {
        refuse(edit_codes::UNKNOWN_EDGE, format!("there is no edge {index} (the graph has {n})"))
    })
}

fn check_new_id(def: &GraphDefinition, id: &str) -> Result<(), Diagnostic> {
    if id.trim().is_empty() {
        return Err(refuse(edit_codes::EMPTY_NAME, "a node id cannot be empty"));
    }
    if id == END_NODE {
        return Err(refuse(
            edit_codes::RESERVED_ID,
            format!("\"{END_NODE}\" is reserved for the end of the graph"),
        ));
    }
    if def.node(id).is_some() {
        return Err(refuse(edit_codes::NODE_EXISTS, format!("a node \"{id}\" already exists")));
    }
    Ok(())
}

fn string(field: &str, value: Option<&Value>) -> Result<String, Diagnostic> {
    typed::<String>(field, value)
}

fn unsupported(edit: &Edit, why: &str) -> Diagnostic {
    refuse(
        codes::UNSUPPORTED_EDIT,
        format!("`{}` cannot be applied to a Weaveflow document: {why}", edit.op()),
    )
}

/// Renames `metadata.web.positions.<from>` in place (keeping the key order of the file).
fn rename_position(def: &mut GraphDefinition, from: &str, to: &str) {
    if let Some(Value::Object(p)) = def.metadata.get_mut("web").and_then(|w| w.get_mut("positions")) {
        if p.contains_key(from) {
            let entries = std::mem::take(p);
            *p = entries.into_iter().map(|(k, v)| (if k == from { to.to_owned() } else { k }, v)).collect();
        }
    }
}

/// Applies an edit to a Weaveflow document and its session layout.
pub(crate) fn apply(d: &mut WeaveflowDoc, layout: &mut Layout, edit: &Edit) -> Result<Applied, Diagnostic> {
    let mut def = d.definition().clone();
    let mut out = Applied::default();
    if let Edit::ReplaceDocument { text, .. } = edit {
        let parsed = weaveflow::parse(text);
        let Some(doc) = parsed.doc else {
            return Err(crate::refusal::replacement_unreadable(parsed.diagnostics));
        };
        // The file's positions win; a node the file does not place keeps the one the canvas
        // gave it (an automatic layout that was never written).
        let (placed, _) = layout_of(&doc);
        // Notes and groups live in the document's `metadata.web` too: the new text's.
        layout.notes = placed.notes;
        layout.groups = placed.groups;
        for (id, p) in placed.positions {
            layout.positions.insert(id, p);
        }
        let ids: std::collections::HashSet<&str> =
            doc.definition().nodes.iter().map(|n| n.id.as_str()).collect();
        layout.positions.retain(|id, _| ids.contains(id.as_str()));
        *d = doc;
        out.changed.full = true;
        return Ok(out);
    }
    match edit {
        Edit::AddNode { id, type_name, config, position } => {
            if type_name.trim().is_empty() {
                return Err(refuse(edit_codes::EMPTY_NAME, "a node needs a type"));
            }
            let id = match id {
                Some(id) => id.clone(),
                None => fresh_id(&id_base(type_name), &|c| def.node(c).is_some() || c == END_NODE),
            };
            check_new_id(&def, &id)?;
            check_position(&id, position)?;
            def.nodes.push(GraphNode {
                id: id.clone(),
                name: id.clone(),
                type_name: type_name.clone(),
                config: config.clone().unwrap_or_default(),
                ..GraphNode::default()
            });
            def.set_position(&id, weaveflow::Position { x: position.x, y: position.y });
            layout.positions.insert(id.clone(), *position);
            out.changed.nodes.push(id.clone());
            out.changed.positions.push(id);
        }
        Edit::RemoveNodes { ids } => {
            for id in ids {
                node_mut(&mut def, id)?;
            }
            let gone = |x: &str| ids.iter().any(|i| i == x);
            def.nodes.retain(|n| !gone(&n.id));
            let before = def.edges.len();
            def.edges.retain(|e| !gone(&e.from) && !gone(&e.to));
            out.changed.edges = before != def.edges.len();
            for id in ids {
                def.remove_position(id);
                layout.positions.shift_remove(id);
                out.changed.removed_nodes.push(id.clone());
            }
        }
        Edit::RenameNode { from, to } => {
            if from == to {
                return Ok(out);
            }
            node_mut(&mut def, from)?;
            check_new_id(&def, to)?;
            node_mut(&mut def, from)?.id = to.clone();
            for e in &mut def.edges {
                if e.from == *from {
                    e.from = to.clone();
                }
                if e.to == *from {
                    e.to = to.clone();
                }
            }
            if def.entry_point == *from {
                def.entry_point = to.clone();
            }
            if def.finish_point == *from {
                def.finish_point = to.clone();
            }
            rename_position(&mut def, from, to);
            if let Some(p) = layout.positions.shift_remove(from) {
                layout.positions.insert(to.clone(), p);
            }
            out.changed.removed_nodes.push(from.clone());
            out.changed.nodes.push(to.clone());
            out.changed.edges = true;
        }
        Edit::SetNodeType { id, type_name } => {
            node_mut(&mut def, id)?.type_name = type_name.clone();
            out.changed.nodes.push(id.clone());
        }
        Edit::SetConfigField { id, path, value } => {
            let node = node_mut(&mut def, id)?;
            let config = std::mem::take(&mut node.config);
            match set_config_field(config.clone(), path, value.clone()) {
                Ok(Some(new)) => node.config = new,
                Ok(None) => node.config = config,
                Err(msg) => return Err(refuse(edit_codes::BAD_CONFIG_PATH, msg)),
            }
            out.changed.nodes.push(id.clone());
            out.coalesce = Some((id.clone(), format!("config{path}")));
        }
        Edit::SetConfig { id, config } => {
            node_mut(&mut def, id)?.config = config.clone();
            out.changed.nodes.push(id.clone());
        }
        Edit::Connect { from, to, when } => {
            if when.is_some() {
                return Err(unsupported(
                    edit,
                    "Weaveflow edges have conditions, not `when`; connect, then set the edge's `condition`",
                ));
            }
            node_mut(&mut def, from)?;
            if to != END_NODE {
                node_mut(&mut def, to)?;
            }
            def.edges.push(GraphEdge { from: from.clone(), to: to.clone(), ..GraphEdge::default() });
            out.changed.edges = true;
        }
        Edit::Disconnect { index } => {
            edge_mut(&mut def, *index)?;
            def.edges.remove(*index);
            out.changed.edges = true;
        }
        Edit::SetWhen { .. } => {
            return Err(unsupported(edit, "Weaveflow edges have conditions; use set_edge_field `condition`"))
        }
        Edit::AddChannel { .. }
        | Edit::RenameChannel { .. }
        | Edit::RemoveChannel { .. }
        | Edit::SetReducer { .. } => {
            return Err(unsupported(
                edit,
                "Weaveflow has no channels (state lives in state modules; bind it with a node's `state`)",
            ))
        }
        Edit::Paste { .. } => {
            return Err(unsupported(edit, "pasting GraphSpec fragments is not supported here"))
        }
        Edit::SetBody { .. } => return Err(unsupported(edit, "a Weaveflow document has no Markdown body")),
        Edit::RenameGraph { name } => {
            def.name = name.clone().unwrap_or_default();
            out.changed.name = true;
        }
        Edit::MoveNodes { positions, .. } | Edit::ApplyLayout { positions, .. } => {
            let strict = matches!(edit, Edit::MoveNodes { .. });
            let automatic = matches!(edit, Edit::ApplyLayout { automatic: true, .. });
            for (id, p) in positions {
                if def.node(id).is_none() {
                    if strict {
                        return Err(refuse(edit_codes::UNKNOWN_NODE, format!("there is no node \"{id}\"")));
                    }
                    continue;
                }
                check_position(id, p)?;
                layout.positions.insert(id.clone(), *p);
                // An automatic layout stands for a missing one: the file is not changed by it.
                if !automatic {
                    def.set_position(id, weaveflow::Position { x: p.x, y: p.y });
                }
                out.changed.positions.push(id.clone());
            }
        }
        // Notes and groups: `formats::apply` writes them into `metadata.web`.
        Edit::SetViewport { .. }
        | Edit::Reformat
        | Edit::AddNote { .. }
        | Edit::SetNote { .. }
        | Edit::RemoveNotes { .. }
        | Edit::AddGroup { .. }
        | Edit::SetGroup { .. }
        | Edit::Ungroup { .. } => {}
        Edit::SetNodeField { id, field, value } => {
            let v = value.as_ref();
            let node = node_mut(&mut def, id)?;
            match field.as_str() {
                "name" => node.name = string(field, v)?,
                "description" => node.description = string(field, v)?,
                "type" => node.type_name = string(field, v)?,
                "config" => node.config = typed::<Map<String, Value>>(field, v)?,
                "state" => node.state = typed::<IndexMap<String, StateBinding>>(field, v)?,
                "policy" => node.policy = typed::<Option<ExecutionPolicy>>(field, v)?,
                "id" => return Err(refuse(codes::UNKNOWN_FIELD, "a node's id changes with rename_node")),
                other => {
                    return Err(refuse(
                        codes::UNKNOWN_FIELD,
                        format!("a Weaveflow node has no field `{other}` (name, description, type, config, state, policy)"),
                    ))
                }
            }
            out.changed.nodes.push(id.clone());
            out.coalesce = Some((id.clone(), format!("#{field}")));
        }
        Edit::SetEdgeField { index, field, value } => {
            let v = value.as_ref();
            let e = edge_mut(&mut def, *index)?;
            match field.as_str() {
                "from" => e.from = string(field, v)?,
                "to" => e.to = string(field, v)?,
                "condition" => e.condition = typed::<Option<EdgeCondition>>(field, v)?,
                "failure" => e.failure = typed::<Option<FailureRoute>>(field, v)?,
                other => {
                    return Err(refuse(
                        codes::UNKNOWN_FIELD,
                        format!("a Weaveflow edge has no field `{other}` (from, to, condition, failure)"),
                    ))
                }
            }
            out.changed.edges = true;
            out.coalesce = Some((format!("#edge{index}"), field.clone()));
        }
        Edit::ReplaceDocument { .. } => {}
        Edit::SetDocField { field, value } => {
            let v = value.as_ref();
            match field.as_str() {
                "entry_point" => def.entry_point = string(field, v)?,
                "finish_point" => def.finish_point = string(field, v)?,
                "name" => def.name = string(field, v)?,
                "description" => def.description = string(field, v)?,
                "version" => def.version = string(field, v)?,
                "state_modules" => def.state_modules = typed::<Vec<StateModuleRef>>(field, v)?,
                "policy" => def.policy = typed::<Option<GraphPolicy>>(field, v)?,
                "metadata" => def.metadata = typed::<Map<String, Value>>(field, v)?,
                other => {
                    return Err(refuse(
                        codes::UNKNOWN_FIELD,
                        format!(
                            "`{other}` cannot be set this way (entry_point, finish_point, name, description, version, state_modules, policy, metadata)"
                        ),
                    ))
                }
            }
            out.changed.full = true;
            out.coalesce = Some(("#doc".into(), field.clone()));
        }
    }
    if def != *d.definition() {
        d.set_definition(def);
    }
    Ok(out)
}
