//! Notes and groups: what a canvas says about a graph that the graph itself cannot hold.
//!
//! A **note** is a sticky note with Markdown text, a colour and a rectangle. A **group** is a
//! named, coloured frame around nodes and notes; groups nest through `parent`. Neither is part
//! of any spec format, so they live beside the positions: in the layout sidecar for GraphSpec
//! and GRAPH.md (`crate::layout`), in `metadata.web` for Weaveflow. Their shapes and the
//! sidecar versions are documented in docs/notes-and-groups.md.
//!
//! Every change of them is an ordinary edit ([`after_edit`]): the GraphSpec session records
//! the notes and groups before and after as one prim; the other formats' snapshot steps hold
//! them with the layout.

use std::collections::{HashMap, HashSet};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use trellis_spec::Diagnostic;
use ts_rs::TS;

use crate::edit::{Edit, Position};
use crate::ids::fresh_id;

/// Diagnostic codes of this module.
pub mod codes {
    /// An edit named a note that does not exist.
    pub const UNKNOWN_NOTE: &str = "doc/unknown-note";
    /// An edit named a group that does not exist.
    pub const UNKNOWN_GROUP: &str = "doc/unknown-group";
    /// A note or group edit with a bad value (size, colour, empty group, nesting cycle).
    pub const BAD_ANNOTATION: &str = "doc/bad-annotation";
}

/// A note's size when none is given, and the smallest it can be.
pub const NOTE_WIDTH: f64 = 240.0;
pub const NOTE_HEIGHT: f64 = 160.0;
pub const NOTE_MIN: f64 = 40.0;
/// The longest note text kept (in bytes): a note is a note, not a document.
pub const NOTE_TEXT_MAX: usize = 100_000;
/// The colours a note or group may have: a name of the app's palette or `#rrggbb`.
pub const PALETTE: [&str; 9] = ["yellow", "orange", "red", "pink", "purple", "blue", "teal", "green", "gray"];

/// A sticky note (flow coordinates; `x`, `y` is the top-left corner).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Note {
    pub id: String,
    /// Markdown.
    pub text: String,
    pub color: String,
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
    /// Fields a newer Trellis wrote that this one does not know: written back as they were.
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    #[ts(skip)]
    pub extra: Map<String, Value>,
}

/// A named frame around nodes and notes. A node or note is in at most one group (its
/// innermost); a group is inside its `parent`. The frame is drawn around the members.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Group {
    pub id: String,
    pub name: String,
    pub color: String,
    /// Node ids directly in this group.
    pub nodes: Vec<String>,
    /// Note ids directly in this group.
    pub notes: Vec<String>,
    /// The group this one is nested in.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent: Option<String>,
    /// Drawn as one box (members hidden, edges aggregated: `crate::collapse`).
    #[serde(default)]
    pub collapsed: bool,
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    #[ts(skip)]
    pub extra: Map<String, Value>,
}

/// All notes and groups of a document (what a note or group edit replaces).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Annotations {
    pub notes: Vec<Note>,
    pub groups: Vec<Group>,
}

impl Annotations {
    pub fn is_empty(&self) -> bool {
        self.notes.is_empty() && self.groups.is_empty()
    }
    fn note_mut(&mut self, id: &str) -> Result<&mut Note, Diagnostic> {
        self.notes.iter_mut().find(|n| n.id == id).ok_or_else(|| unknown_note(id))
    }
    fn group_mut(&mut self, id: &str) -> Result<&mut Group, Diagnostic> {
        self.groups.iter_mut().find(|g| g.id == id).ok_or_else(|| unknown_group(id))
    }
    pub fn group(&self, id: &str) -> Option<&Group> {
        self.groups.iter().find(|g| g.id == id)
    }
    /// The group directly holding each node.
    pub fn node_groups(&self) -> HashMap<&str, &str> {
        self.groups.iter().flat_map(|g| g.nodes.iter().map(move |n| (n.as_str(), g.id.as_str()))).collect()
    }
    /// `id` and its ancestors, innermost first (a cycle, which reading never lets in, stops).
    pub fn chain<'a>(&'a self, id: &'a str) -> Vec<&'a str> {
        let mut out = vec![id];
        let mut at = id;
        while let Some(p) = self.group(at).and_then(|g| g.parent.as_deref()) {
            if out.contains(&p) {
                break;
            }
            out.push(p);
            at = p;
        }
        out
    }

    /// Removes a node or note from whatever group holds it.
    fn leave(&mut self, node: Option<&str>, note: Option<&str>) {
        for g in &mut self.groups {
            if let Some(n) = node {
                g.nodes.retain(|m| m != n);
            }
            if let Some(n) = note {
                g.notes.retain(|m| m != n);
            }
        }
    }

    /// Drops groups left with nothing in them (no node, note or nested group), repeatedly.
    fn prune(&mut self) {
        loop {
            let parents: HashSet<String> = self.groups.iter().filter_map(|g| g.parent.clone()).collect();
            let before = self.groups.len();
            self.groups.retain(|g| !g.nodes.is_empty() || !g.notes.is_empty() || parents.contains(&g.id));
            if self.groups.len() == before {
                return;
            }
        }
    }

    /// Makes what was read consistent, saying what it dropped: notes with a bad rectangle,
    /// ids twice, members in two groups (the first keeps them), parents that do not exist or
    /// make a cycle (the group is then top-level).
    pub fn repair(&mut self) -> Vec<String> {
        let mut problems = Vec::new();
        let mut seen = HashSet::new();
        self.notes.retain(|n| {
            let ok = seen.insert(n.id.clone()) && !n.id.is_empty();
            let finite = [n.x, n.y, n.width, n.height].iter().all(|v| v.is_finite());
            if !ok || !finite || n.width <= 0.0 || n.height <= 0.0 {
                problems.push(format!("note \"{}\" dropped (id twice or a bad rectangle)", n.id));
                return false;
            }
            true
        });
        let notes: HashSet<String> = self.notes.iter().map(|n| n.id.clone()).collect();
        let mut seen = HashSet::new();
        self.groups.retain(|g| {
            let ok = !g.id.is_empty() && seen.insert(g.id.clone());
            if !ok {
                problems.push(format!("group \"{}\" dropped (its id is empty or used twice)", g.id));
            }
            ok
        });
        let (mut in_node, mut in_note) = (HashSet::new(), HashSet::new());
        for g in &mut self.groups {
            let before = g.nodes.len() + g.notes.len();
            g.nodes.retain(|n| in_node.insert(n.clone()));
            g.notes.retain(|n| notes.contains(n) && in_note.insert(n.clone()));
            if g.nodes.len() + g.notes.len() != before {
                problems.push(format!(
                    "group \"{}\": members that are in another group or missing dropped",
                    g.id
                ));
            }
        }
        let ids: HashSet<String> = self.groups.iter().map(|g| g.id.clone()).collect();
        for i in 0..self.groups.len() {
            let Some(parent) = self.groups[i].parent.clone() else { continue };
            let cyclic = {
                let mut at = Some(parent.clone());
                let mut steps = 0;
                let me = self.groups[i].id.clone();
                let mut cycle = false;
                while let Some(p) = at {
                    if p == me || steps > self.groups.len() {
                        cycle = true;
                        break;
                    }
                    steps += 1;
                    at = self.group(&p).and_then(|g| g.parent.clone());
                }
                cycle
            };
            if !ids.contains(&parent) || cyclic {
                problems.push(format!(
                    "group \"{}\": its parent \"{parent}\" is missing or nests it in itself",
                    self.groups[i].id
                ));
                self.groups[i].parent = None;
            }
        }
        problems
    }
}

fn refuse(code: &str, message: impl Into<String>) -> Diagnostic {
    Diagnostic::error(code, message)
}
fn unknown_note(id: &str) -> Diagnostic {
    refuse(codes::UNKNOWN_NOTE, format!("there is no note \"{id}\""))
}
fn unknown_group(id: &str) -> Diagnostic {
    refuse(codes::UNKNOWN_GROUP, format!("there is no group \"{id}\""))
}

/// A colour of the palette or `#rrggbb`.
pub fn check_color(color: &str) -> Result<(), Diagnostic> {
    let hex = color.len() == 7 && color.starts_with('#') && color[1..].bytes().all(|b| b.is_ascii_hexdigit());
    if hex || PALETTE.contains(&color) {
        Ok(())
    } else {
        Err(refuse(
            codes::BAD_ANNOTATION,
            format!("\"{color}\" is not a colour here (one of {} or #rrggbb)", PALETTE.join(", ")),
        ))
    }
}

fn check_point(what: &str, p: &Position) -> Result<(), Diagnostic> {
    if p.x.is_finite() && p.y.is_finite() {
        Ok(())
    } else {
        Err(refuse(codes::BAD_ANNOTATION, format!("the position of {what} is not a pair of finite numbers")))
    }
}

fn check_size(what: &str, w: f64, h: f64) -> Result<(), Diagnostic> {
    if w.is_finite() && h.is_finite() && w >= NOTE_MIN && h >= NOTE_MIN && w <= 1e6 && h <= 1e6 {
        Ok(())
    } else {
        Err(refuse(
            codes::BAD_ANNOTATION,
            format!("the size of {what} must be between {NOTE_MIN} and 1000000"),
        ))
    }
}

fn check_text(text: &str) -> Result<(), Diagnostic> {
    if text.len() > NOTE_TEXT_MAX {
        return Err(refuse(
            codes::BAD_ANNOTATION,
            format!("a note holds at most {NOTE_TEXT_MAX} bytes of text"),
        ));
    }
    Ok(())
}

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

// ---- Reading and writing (the sidecar and Weaveflow's `metadata.web`) ----

const NOTE_FIELDS: [&str; 7] = ["id", "text", "color", "x", "y", "width", "height"];
const GROUP_FIELDS: [&str; 7] = ["id", "name", "color", "nodes", "notes", "parent", "collapsed"];

/// An object's fields.
type Fields = Map<String, Value>;

/// Takes the known fields out of an object; the rest is kept as `extra`.
fn split(value: Value, known: &[&str], what: &str) -> Result<(Fields, Fields), String> {
    let Value::Object(obj) = value else { return Err(format!("a {what} is not an object")) };
    let (mut mine, mut extra) = (Map::new(), Map::new());
    for (k, v) in obj {
        if known.contains(&k.as_str()) {
            mine.insert(k, v);
        } else {
            extra.insert(k, v);
        }
    }
    Ok((mine, extra))
}

fn field<T: serde::de::DeserializeOwned>(
    m: &mut Map<String, Value>,
    key: &str,
    what: &str,
) -> Result<Option<T>, String> {
    match m.shift_remove(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => serde_json::from_value(v).map(Some).map_err(|e| format!("{what}: `{key}`: {e}")),
    }
}

/// Reads a note as the sidecar holds it (unknown fields kept). Missing fields take defaults.
pub fn note_from_value(value: Value) -> Result<Note, String> {
    let (mut m, extra) = split(value, &NOTE_FIELDS, "note")?;
    let id: String = field(&mut m, "id", "a note")?.ok_or("a note has no `id`")?;
    let what = format!("note \"{id}\"");
    Ok(Note {
        text: field(&mut m, "text", &what)?.unwrap_or_default(),
        color: field(&mut m, "color", &what)?.unwrap_or_else(|| "yellow".into()),
        x: field(&mut m, "x", &what)?.unwrap_or(0.0),
        y: field(&mut m, "y", &what)?.unwrap_or(0.0),
        width: field(&mut m, "width", &what)?.unwrap_or(NOTE_WIDTH),
        height: field(&mut m, "height", &what)?.unwrap_or(NOTE_HEIGHT),
        id,
        extra,
    })
}

/// Reads a group as the sidecar holds it (unknown fields kept).
pub fn group_from_value(value: Value) -> Result<Group, String> {
    let (mut m, extra) = split(value, &GROUP_FIELDS, "group")?;
    let id: String = field(&mut m, "id", "a group")?.ok_or("a group has no `id`")?;
    let what = format!("group \"{id}\"");
    Ok(Group {
        name: field(&mut m, "name", &what)?.unwrap_or_else(|| "Group".into()),
        color: field(&mut m, "color", &what)?.unwrap_or_else(|| "blue".into()),
        nodes: field(&mut m, "nodes", &what)?.unwrap_or_default(),
        notes: field(&mut m, "notes", &what)?.unwrap_or_default(),
        parent: field(&mut m, "parent", &what)?,
        collapsed: field(&mut m, "collapsed", &what)?.unwrap_or(false),
        id,
        extra,
    })
}

/// Reads the `notes` and `groups` arrays of an object (sidecar or `metadata.web`).
pub fn read_from(obj: &mut Map<String, Value>) -> Result<Annotations, String> {
    let list = |v: Option<Value>, what: &str| -> Result<Vec<Value>, String> {
        match v {
            None | Some(Value::Null) => Ok(Vec::new()),
            Some(Value::Array(items)) => Ok(items),
            Some(_) => Err(format!("`{what}` is not a list")),
        }
    };
    let notes = list(obj.shift_remove("notes"), "notes")?
        .into_iter()
        .map(note_from_value)
        .collect::<Result<_, _>>()?;
    let groups = list(obj.shift_remove("groups"), "groups")?
        .into_iter()
        .map(group_from_value)
        .collect::<Result<_, _>>()?;
    Ok(Annotations { notes, groups })
}

/// A note as written: its fields in a fixed order, then what a newer Trellis added.
#[derive(Serialize)]
pub(crate) struct NoteOut<'a> {
    id: &'a str,
    text: &'a str,
    color: &'a str,
    x: f64,
    y: f64,
    width: f64,
    height: f64,
    #[serde(flatten)]
    extra: &'a Map<String, Value>,
}

impl<'a> From<&'a Note> for NoteOut<'a> {
    fn from(n: &'a Note) -> Self {
        NoteOut {
            id: &n.id,
            text: &n.text,
            color: &n.color,
            x: n.x,
            y: n.y,
            width: n.width,
            height: n.height,
            extra: &n.extra,
        }
    }
}

/// A group as written. Members are only those `keep` says exist (a deleted node's id is not
/// written).
#[derive(Serialize)]
pub(crate) struct GroupOut<'a> {
    id: &'a str,
    name: &'a str,
    color: &'a str,
    nodes: Vec<&'a str>,
    notes: Vec<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    parent: Option<&'a str>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    collapsed: bool,
    #[serde(flatten)]
    extra: &'a Map<String, Value>,
}

impl<'a> GroupOut<'a> {
    pub(crate) fn of(g: &'a Group, keep: &dyn Fn(&str) -> bool) -> Self {
        GroupOut {
            id: &g.id,
            name: &g.name,
            color: &g.color,
            nodes: g.nodes.iter().map(String::as_str).filter(|n| keep(n)).collect(),
            notes: g.notes.iter().map(String::as_str).collect(),
            parent: g.parent.as_deref(),
            collapsed: g.collapsed,
            extra: &g.extra,
        }
    }
}

/// Notes and groups as JSON values (for `metadata.web`).
pub(crate) fn to_values(a: &Annotations) -> (Value, Value) {
    let notes =
        a.notes.iter().map(|n| serde_json::to_value(NoteOut::from(n)).unwrap_or(Value::Null)).collect();
    let groups = a
        .groups
        .iter()
        .map(|g| serde_json::to_value(GroupOut::of(g, &|_| true)).unwrap_or(Value::Null))
        .collect();
    (Value::Array(notes), Value::Array(groups))
}
