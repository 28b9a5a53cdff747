//! GRAPH.md documents in a session: edits through the `GraphMd` setters (which touch only
//! what they change, so the writer changes only the edited lines and never the body unless
//! it is edited), JSON <-> YAML for values coming from the UI, and the save check.
//!
//! A node's "config" here is its front-matter mapping minus `id`: `set_config_field` with
//! `/timeout_ms` sets the node's `timeout_ms` line.

use serde_json::{Map as JsonMap, Value};
use trellis_formats::graphmd::yaml::{Map, Yaml};
use trellis_formats::graphmd::{self, EditError, GraphMd};
use trellis_spec::diagnostic::pointer_segments;
use trellis_spec::Diagnostic;

use super::{check_position, codes, refuse, Applied};
use crate::config_field::set_config_field;
use crate::edit::Edit;
use crate::ids::{fresh_id, id_base};
use crate::layout::Layout;
use crate::refusal::codes as edit_codes;

/// Save steps 1-2 for GRAPH.md: the writer's text, read back, must give the same document and
/// the same text again.
pub fn roundtrip(d: &GraphMd) -> Result<String, String> {
    let text = graphmd::to_string(d);
    let back = graphmd::read(&text);
    let Some(doc) = back.doc else {
        return Err("the written text could not be read back".into());
    };
    if doc != *d {
        return Err("the text read back holds another document".into());
    }
    if graphmd::to_string(&doc) != text {
        return Err("writing the text read back gives another text".into());
    }
    Ok(text)
}

/// A JSON value as a YAML tree for a block position (a field's value).
pub fn json_to_yaml(v: &Value) -> Yaml {
    trellis_formats::graphmd::emit::json_to_yaml(v, false)
}

/// A YAML tree as JSON (one converter, in trellis-formats, shared with the semantic diff).
pub fn yaml_to_json(y: &Yaml) -> Value {
    trellis_formats::graphmd::emit::yaml_to_json(y)
}

/// A YAML mapping as a JSON object.
pub fn map_to_json(m: &Map) -> JsonMap<String, Value> {
    m.entries.iter().map(|e| (e.key.value.clone(), yaml_to_json(&e.value))).collect()
}

fn bad(e: EditError) -> Diagnostic {
    refuse(codes::BAD_VALUE, e.0)
}

fn node_map<'a>(d: &'a GraphMd, id: &str) -> Result<&'a Map, Diagnostic> {
    d.node_index(id)
        .and_then(|i| d.node_maps().find(|(j, _)| *j == i).map(|(_, m)| m))
        .ok_or_else(|| refuse(edit_codes::UNKNOWN_NODE, format!("there is no node \"{id}\"")))
}

fn edge_count(d: &GraphMd) -> usize {
    d.front.get("edges").and_then(Yaml::as_seq).map_or(0, |s| s.items.len())
}

fn unsupported(edit: &Edit, why: &str) -> Diagnostic {
    refuse(
        codes::UNSUPPORTED_EDIT,
        format!("`{}` cannot be applied to a GRAPH.md document: {why}", edit.op()),
    )
}

/// Sets (or removes) one node field, by a pointer relative to the node (`/timeout_ms`,
/// `/estimates/tokens_in`). A one-segment path replaces just that line's value; a deeper one
/// rewrites the field it lies in.
fn set_node_path(d: &mut GraphMd, id: &str, path: &str, value: Option<&Value>) -> Result<(), Diagnostic> {
    if !path.starts_with('/') {
        return Err(refuse(
            edit_codes::BAD_CONFIG_PATH,
            format!("the field path \"{path}\" is not a JSON Pointer"),
        ));
    }
    let segments = pointer_segments(path);
    let Some(first) = segments.first() else {
        return Err(refuse(edit_codes::BAD_CONFIG_PATH, "an empty path names the whole node"));
    };
    if first == "id" {
        return Err(refuse(codes::UNKNOWN_FIELD, "a node's id changes with rename_node"));
    }
    let node = node_map(d, id)?;
    if segments.len() == 1 {
        return match value {
            Some(v) => d.set_node_field(id, first, json_to_yaml(v)).map_err(bad),
            None => d.remove_node_field(id, first).map(|_| ()).map_err(bad),
        };
    }
    let mut holder = JsonMap::new();
    if let Some(current) = node.get(first) {
        holder.insert(first.clone(), yaml_to_json(current));
    }
    match set_config_field(holder, path, value.cloned()) {
        Ok(Some(new)) => match new.get(first) {
            Some(v) => d.set_node_field(id, first, json_to_yaml(v)).map_err(bad),
            None => d.remove_node_field(id, first).map(|_| ()).map_err(bad),
        },
        Ok(None) => Ok(()),
        Err(msg) => Err(refuse(edit_codes::BAD_CONFIG_PATH, msg)),
    }
}

/// Applies an edit to a GRAPH.md document and its layout (positions live in the sidecar).
pub(crate) fn apply(d: &mut GraphMd, layout: &mut Layout, edit: &Edit) -> Result<Applied, Diagnostic> {
    let mut out = Applied::default();
    match edit {
        Edit::AddNode { id, type_name, config, position } => {
            let id = match id {
                Some(id) => id.clone(),
                None => fresh_id(&id_base(type_name), &|c| d.node_index(c).is_some()),
            };
            if d.node_index(&id).is_some() {
                return Err(refuse(edit_codes::NODE_EXISTS, format!("a node \"{id}\" already exists")));
            }
            check_position(&id, position)?;
            d.add_node(&id, type_name).map_err(bad)?;
            for (k, v) in config.iter().flatten().filter(|(k, _)| k.as_str() != "id" && k.as_str() != "kind")
            {
                d.set_node_field(&id, k, json_to_yaml(v)).map_err(bad)?;
            }
            layout.positions.insert(id.clone(), *position);
            out.changed.nodes.push(id.clone());
            out.changed.positions.push(id);
        }
        Edit::RemoveNodes { ids } => {
            for id in ids {
                node_map(d, id)?;
            }
            for id in ids {
                if d.remove_node(id).map_err(bad)? > 0 {
                    out.changed.edges = true;
                }
                layout.positions.shift_remove(id);
                out.changed.removed_nodes.push(id.clone());
            }
        }
        Edit::RenameNode { from, to } => {
            if from == to {
                return Ok(out);
            }
            node_map(d, from)?;
            if d.node_index(to).is_some() {
                return Err(refuse(edit_codes::NODE_EXISTS, format!("a node \"{to}\" already exists")));
            }
            d.rename_node(from, to).map_err(bad)?;
            if let Some(p) = layout.positions.shift_remove(from) {
                layout.positions.insert(to.clone(), p);
            }
            out.changed.removed_nodes.push(from.clone());
            out.changed.nodes.push(to.clone());
            out.changed.edges = true;
        }
        Edit::SetNodeType { id, type_name } => {
            node_map(d, id)?;
            d.set_node_field(id, "kind", Yaml::string(type_name.clone())).map_err(bad)?;
            out.changed.nodes.push(id.clone());
        }
        Edit::SetConfigField { id, path, value } => {
            set_node_path(d, id, path, value.as_ref())?;
            out.changed.nodes.push(id.clone());
            out.coalesce = Some((id.clone(), path.clone()));
        }
        Edit::SetConfig { id, config } => {
            let current = map_to_json(node_map(d, id)?);
            for key in current.keys().filter(|k| k.as_str() != "id" && !config.contains_key(*k)) {
                d.remove_node_field(id, key).map_err(bad)?;
            }
            for (k, v) in config.iter().filter(|(k, _)| k.as_str() != "id") {
                if current.get(k) != Some(v) {
                    d.set_node_field(id, k, json_to_yaml(v)).map_err(bad)?;
                }
            }
            out.changed.nodes.push(id.clone());
        }
        Edit::Connect { from, to, when } => {
            if when.is_some() {
                return Err(unsupported(
                    edit,
                    "GRAPH.md edges have a `condition` and a `kind`; connect, then set them",
                ));
            }
            node_map(d, from)?;
            node_map(d, to)?;
            d.add_edge(None, from, to, None).map_err(bad)?;
            out.changed.edges = true;
        }
        Edit::Disconnect { index } => {
            if *index >= edge_count(d) {
                return Err(refuse(edit_codes::UNKNOWN_EDGE, format!("there is no edge {index}")));
            }
            d.remove_edge(*index).map_err(bad)?;
            out.changed.edges = true;
        }
        Edit::SetWhen { .. } => return Err(unsupported(edit, "use set_edge_field `condition` and `kind`")),
        Edit::AddChannel { .. }
        | Edit::RenameChannel { .. }
        | Edit::RemoveChannel { .. }
        | Edit::SetReducer { .. } => return Err(unsupported(edit, "GRAPH.md has no channels")),
        Edit::Paste { .. } => {
            return Err(unsupported(edit, "pasting GraphSpec fragments is not supported here"))
        }
        Edit::RenameGraph { name } => {
            match name {
                Some(n) => d.set_field("name", Yaml::string(n.clone())),
                None => {
                    d.remove_field("name");
                }
            }
            out.changed.name = true;
        }
        Edit::MoveNodes { positions, .. } | Edit::ApplyLayout { positions, .. } => {
            let strict = matches!(edit, Edit::MoveNodes { .. });
            for (id, p) in positions {
                if d.node_index(id).is_none() {
                    if strict {
                        return Err(refuse(edit_codes::UNKNOWN_NODE, format!("there is no node \"{id}\"")));
                    }
                    continue;
                }
                check_position(id, p)?;
                layout.positions.insert(id.clone(), *p);
                out.changed.positions.push(id.clone());
            }
        }
        // Notes and groups: applied to the layout by `formats::apply`.
        Edit::SetViewport { .. }
        | Edit::Reformat
        | Edit::AddNote { .. }
        | Edit::SetNote { .. }
        | Edit::RemoveNotes { .. }
        | Edit::AddGroup { .. }
        | Edit::SetGroup { .. }
        | Edit::Ungroup { .. } => {}
        Edit::SetNodeField { id, field, value } => {
            if field.contains('/') {
                return Err(refuse(
                    codes::UNKNOWN_FIELD,
                    "a field name, not a path (use set_config_field for paths)",
                ));
            }
            set_node_path(d, id, &format!("/{}", field.replace('~', "~0")), value.as_ref())?;
            out.changed.nodes.push(id.clone());
            out.coalesce = Some((id.clone(), format!("/{field}")));
        }
        Edit::SetEdgeField { index, field, value } => {
            if *index >= edge_count(d) {
                return Err(refuse(edit_codes::UNKNOWN_EDGE, format!("there is no edge {index}")));
            }
            match (field.as_str(), value) {
                ("kind", Some(Value::String(k))) => d.set_edge_kind(*index, k).map_err(bad)?,
                (_, Some(v)) => d.set_edge_field(*index, field, json_to_yaml(v)).map_err(bad)?,
                (_, None) => {
                    d.remove_edge_field(*index, field).map_err(bad)?;
                }
            }
            out.changed.edges = true;
            out.coalesce = Some((format!("#edge{index}"), field.clone()));
        }
        Edit::ReplaceDocument { text, positions } => {
            let read = trellis_formats::graphmd::read(text);
            let Some(doc) = read.doc else {
                return Err(crate::refusal::replacement_unreadable(read.diagnostics));
            };
            *d = doc;
            for (id, p) in positions {
                check_position(id, p)?;
                layout.positions.insert(id.clone(), *p);
            }
            out.changed.full = true;
        }
        Edit::SetBody { text } => {
            d.set_body(text.clone());
            out.changed.full = true;
            out.coalesce = Some(("#body".into(), String::new()));
        }
        Edit::SetDocField { field, value } => {
            if field == "nodes" || field == "edges" {
                return Err(refuse(
                    codes::UNKNOWN_FIELD,
                    format!("`{field}` changes through the node and edge edits"),
                ));
            }
            match value {
                Some(v) => d.set_field(field, json_to_yaml(v)),
                None => {
                    d.remove_field(field);
                }
            }
            out.changed.full = true;
            out.coalesce = Some(("#doc".into(), field.clone()));
        }
    }
    Ok(out)
}
