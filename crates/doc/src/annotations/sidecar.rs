//! Notes and groups read and written as JSON: in the layout sidecar (GraphSpec, GRAPH.md) and in
//! Weaveflow's `metadata.web`. Unknown fields are kept and written back; fields are written in
//! a fixed order.

use serde::Serialize;
use serde_json::{Map, Value};

use super::model::{Annotations, Group, Note};
use super::rules::{NOTE_HEIGHT, NOTE_WIDTH};

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
