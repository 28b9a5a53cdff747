//! What an edit makes of the notes and groups (note and group edits, and the node edits they
//! follow: removed, renamed, moved into or out of a group), and what a paste adds to them.

use std::collections::{HashMap, HashSet};

use serde_json::Map;
use trellis_spec::Diagnostic;

use super::codes;
use super::model::{Annotations, Group, Note};
use super::rules::{
    check_color, check_point, check_size, check_text, refuse, unknown_group, unknown_note, NOTE_HEIGHT,
    NOTE_WIDTH,
};
use crate::edit::{Edit, Position};
use crate::ids::fresh_id;

/// The deepest group every one of `chains` passes through (each chain innermost first).
fn common_parent(chains: &[Vec<&str>]) -> Option<String> {
    let first = chains.first()?;
    first.iter().find(|g| chains.iter().all(|c| c.contains(g))).map(|g| (*g).to_owned())
}

/// What `edit` makes of the notes and groups (the layout's `notes` and `groups` now), or
/// `None` when it leaves them as they are (or is not about them). `has_node` says which node
/// ids exist. Node edits are followed: a removed node leaves its group, a renamed one keeps
/// its place, a moved one may join or leave a group; a group left empty goes.
pub(crate) fn after_edit(
    notes: &[Note],
    groups: &[Group],
    edit: &Edit,
    has_node: &dyn Fn(&str) -> bool,
) -> Result<Option<Annotations>, Diagnostic> {
    let relevant = match edit {
        Edit::RemoveNodes { .. } | Edit::RenameNode { .. } => !groups.is_empty(),
        Edit::MoveNodes { notes, groups, .. } => !notes.is_empty() || !groups.is_empty(),
        other => only_annotations(other),
    };
    if !relevant {
        return Ok(None);
    }
    let now = Annotations { notes: notes.to_vec(), groups: groups.to_vec() };
    let mut a = now.clone();
    match edit {
        Edit::AddNote { id, text, color, position, size, group } => {
            let id = match id {
                Some(id) if id.trim().is_empty() => {
                    return Err(refuse(codes::BAD_ANNOTATION, "a note id cannot be empty"))
                }
                Some(id) if a.notes.iter().any(|n| n.id == *id) => {
                    return Err(refuse(codes::BAD_ANNOTATION, format!("a note \"{id}\" already exists")))
                }
                Some(id) => id.clone(),
                None => fresh_id("note", &|s| a.notes.iter().any(|n| n.id == s)),
            };
            check_point("the note", position)?;
            check_text(text)?;
            let color = color.clone().unwrap_or_else(|| "yellow".into());
            check_color(&color)?;
            let (width, height) = size.map_or((NOTE_WIDTH, NOTE_HEIGHT), |s| (s.width, s.height));
            check_size("a note", width, height)?;
            if let Some(g) = group {
                a.group_mut(g)?.notes.push(id.clone());
            }
            let note = Note {
                id,
                text: text.clone(),
                color,
                x: position.x,
                y: position.y,
                width,
                height,
                extra: Map::new(),
            };
            a.notes.push(note);
        }
        Edit::SetNote { id, text, color, position, size } => {
            let n = a.note_mut(id)?;
            if let Some(t) = text {
                check_text(t)?;
                n.text = t.clone();
            }
            if let Some(c) = color {
                check_color(c)?;
                n.color = c.clone();
            }
            if let Some(p) = position {
                check_point(&format!("note \"{id}\""), p)?;
                (n.x, n.y) = (p.x, p.y);
            }
            if let Some(s) = size {
                check_size(&format!("note \"{id}\""), s.width, s.height)?;
                (n.width, n.height) = (s.width, s.height);
            }
        }
        Edit::RemoveNotes { ids } => {
            for id in ids {
                a.note_mut(id)?;
            }
            a.notes.retain(|n| !ids.contains(&n.id));
            for id in ids {
                a.leave(None, Some(id));
            }
            a.prune();
        }
        Edit::AddGroup { id, name, color, nodes, notes, groups } => {
            if nodes.is_empty() && notes.is_empty() && groups.is_empty() {
                return Err(refuse(codes::BAD_ANNOTATION, "a group needs at least one node, note or group"));
            }
            for n in nodes {
                if !has_node(n) {
                    return Err(refuse(
                        crate::refusal::codes::UNKNOWN_NODE,
                        format!("there is no node \"{n}\""),
                    ));
                }
            }
            for n in notes {
                if !a.notes.iter().any(|m| m.id == *n) {
                    return Err(unknown_note(n));
                }
            }
            for g in groups {
                if a.group(g).is_none() {
                    return Err(unknown_group(g));
                }
            }
            let id = match id {
                Some(id) if id.trim().is_empty() => {
                    return Err(refuse(codes::BAD_ANNOTATION, "a group id cannot be empty"))
                }
                Some(id) if a.group(id).is_some() => {
                    return Err(refuse(codes::BAD_ANNOTATION, format!("a group \"{id}\" already exists")))
                }
                Some(id) => id.clone(),
                None => fresh_id("group", &|s| a.group(s).is_some()),
            };
            let name = name.clone().filter(|n| !n.trim().is_empty()).unwrap_or_else(|| "Group".into());
            let color = color.clone().unwrap_or_else(|| "blue".into());
            check_color(&color)?;
            // Nested in the deepest group that holds everything grouped now.
            let node_groups = a.node_groups();
            let note_group =
                |n: &str| a.groups.iter().find(|g| g.notes.iter().any(|m| m == n)).map(|g| g.id.as_str());
            let mut chains: Vec<Vec<&str>> = Vec::new();
            for n in nodes {
                chains.push(node_groups.get(n.as_str()).map(|g| a.chain(g)).unwrap_or_default());
            }
            for n in notes {
                chains.push(note_group(n).map(|g| a.chain(g)).unwrap_or_default());
            }
            for g in groups {
                chains.push(a.chain(g).into_iter().skip(1).collect());
            }
            let parent = common_parent(&chains);
            for n in nodes {
                a.leave(Some(n), None);
            }
            for n in notes {
                a.leave(None, Some(n));
            }
            for g in &mut a.groups {
                if groups.contains(&g.id) {
                    g.parent = Some(id.clone());
                }
            }
            a.groups.push(Group {
                id,
                name,
                color,
                nodes: dedup(nodes),
                notes: dedup(notes),
                parent,
                collapsed: false,
                extra: Map::new(),
            });
            a.prune();
        }
        Edit::SetGroup { id, name, color, collapsed } => {
            let g = a.group_mut(id)?;
            if let Some(n) = name {
                if n.trim().is_empty() {
                    return Err(refuse(codes::BAD_ANNOTATION, "a group's name cannot be empty"));
                }
                g.name = n.clone();
            }
            if let Some(c) = color {
                check_color(c)?;
                g.color = c.clone();
            }
            if let Some(c) = collapsed {
                g.collapsed = *c;
            }
        }
        Edit::Ungroup { id } => {
            let g = a.group(id).cloned().ok_or_else(|| unknown_group(id))?;
            a.groups.retain(|x| x.id != *id);
            for x in &mut a.groups {
                if x.parent.as_deref() == Some(id) {
                    x.parent = g.parent.clone();
                }
            }
            if let Some(p) = &g.parent {
                if let Ok(parent) = a.group_mut(p) {
                    parent.nodes.extend(g.nodes.iter().cloned());
                    parent.notes.extend(g.notes.iter().cloned());
                }
            }
        }
        Edit::RemoveNodes { ids } => {
            for id in ids {
                a.leave(Some(id), None);
            }
            a.prune();
        }
        Edit::RenameNode { from, to } => {
            for g in &mut a.groups {
                for n in &mut g.nodes {
                    if n == from {
                        *n = to.clone();
                    }
                }
            }
        }
        Edit::MoveNodes { notes, groups, .. } => {
            for (id, p) in notes {
                check_point(&format!("note \"{id}\""), p)?;
                let n = a.note_mut(id)?;
                (n.x, n.y) = (p.x, p.y);
            }
            for (node, group) in groups {
                if !has_node(node) {
                    return Err(refuse(
                        crate::refusal::codes::UNKNOWN_NODE,
                        format!("there is no node \"{node}\""),
                    ));
                }
                a.leave(Some(node), None);
                if let Some(g) = group {
                    a.group_mut(g)?.nodes.push(node.clone());
                }
            }
            a.prune();
        }
        _ => return Ok(None),
    }
    Ok((a != now).then_some(a))
}

/// The notes and groups after pasting `frag`'s: notes and groups get fresh ids where theirs
/// are taken; members follow the pasted nodes' new ids (`nodes`: old id -> new id; members
/// not pasted are dropped, and a group left empty with them); notes are moved by `shift`.
pub(crate) fn pasted(
    now: &Annotations,
    mut frag: Annotations,
    nodes: &HashMap<String, String>,
    shift: &dyn Fn(Position) -> Position,
) -> Result<Annotations, Diagnostic> {
    let problems = frag.repair();
    if let Some(p) = problems.first() {
        return Err(refuse(crate::refusal::codes::BAD_FRAGMENT, format!("the pasted fragment: {p}")));
    }
    let mut out = now.clone();
    let mut note_ids = HashMap::new();
    for mut n in frag.notes {
        let id = fresh_id(&n.id, &|s| out.notes.iter().any(|m| m.id == s));
        note_ids.insert(n.id.clone(), id.clone());
        let p = shift(Position { x: n.x, y: n.y });
        check_point("a pasted note", &p)?;
        check_color(&n.color)?;
        check_text(&n.text)?;
        (n.id, n.x, n.y) = (id, p.x, p.y);
        out.notes.push(n);
    }
    let mut group_ids = HashMap::new();
    for g in &frag.groups {
        let id = fresh_id(&g.id, &|s| out.group(s).is_some() || group_ids.values().any(|v: &String| v == s));
        group_ids.insert(g.id.clone(), id);
    }
    for mut g in frag.groups {
        check_color(&g.color)?;
        g.id = group_ids[&g.id].clone();
        g.nodes = g.nodes.iter().filter_map(|n| nodes.get(n).cloned()).collect();
        g.notes = g.notes.iter().filter_map(|n| note_ids.get(n).cloned()).collect();
        g.parent = g.parent.as_ref().and_then(|p| group_ids.get(p).cloned());
        out.groups.push(g);
    }
    out.prune();
    Ok(out)
}

/// True for the edits that change only notes and groups.
pub(crate) fn only_annotations(edit: &Edit) -> bool {
    matches!(
        edit,
        Edit::AddNote { .. }
            | Edit::SetNote { .. }
            | Edit::RemoveNotes { .. }
            | Edit::AddGroup { .. }
            | Edit::SetGroup { .. }
            | Edit::Ungroup { .. }
    )
}

fn dedup(ids: &[String]) -> Vec<String> {
    let mut seen = HashSet::new();
    ids.iter().filter(|i| seen.insert(i.as_str())).cloned().collect()
}
