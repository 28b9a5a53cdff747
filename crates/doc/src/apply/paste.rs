//! A paste: the clipboard's fragment read, its nodes given fresh ids where theirs are taken,
//! its edges kept where both ends exist, its nodes, notes and groups placed at the paste point.

use std::collections::{HashMap, HashSet};

use indexmap::IndexMap;
use serde_json::{Map, Value};
use trellis_spec::diagnostic::Diagnostic;
use trellis_spec::{json, ChannelSpec, EdgeSpec, GraphSpec, Id, NodeSpec, END, START};

use super::checks::{check_reducer, edge_exists};
use super::planned::Plan;
use crate::edit::Position;
use crate::history::Prim;
use crate::ids::fresh_id;
use crate::layout::Layout;
use crate::refusal::{check_position, codes, refuse};

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

pub(super) fn plan_paste(
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
