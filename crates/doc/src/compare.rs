//! "Compare with...": an open document against another version of it (another file, or a Git
//! revision the shell read). The semantic diff (trellis-diff) from the other version to the
//! document as it is now becomes what the canvas and the change list show: nodes and edges
//! marked added (green), removed (ghosts at their old positions, red) or changed (amber), and
//! one row per change with its fields old -> new. Acting on a change ("revert" when the other
//! side is an older revision, "take theirs" otherwise) makes that element as the other side has
//! it and arrives as one ordinary edit (`Edit::ReplaceDocument`): one undo step, and the view
//! is recomputed from the document after it.

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use trellis_diff::diff::{Change, FieldChange};
use trellis_diff::document::{self as ddoc, ReadError};
use trellis_diff::take::{change_key, take_other};
use trellis_formats::detect::Format;
use trellis_spec::Diagnostic;
use ts_rs::TS;

use crate::document::DocFormat;
use crate::edit::{Edit, Position};
use crate::session::Session;

/// Codes of the compare view.
pub mod codes {
    /// The other version cannot be read as a document (missing, unknown revision, not UTF-8,
    /// too large, not a graph).
    pub const UNREADABLE: &str = "compare/unreadable";
    /// The other version is a binary file.
    pub const BINARY: &str = "compare/binary";
    /// The other version is in another format than the document.
    pub const OTHER_FORMAT: &str = "compare/other-format";
    /// A revision was asked for but the document is not in a Git repository (or has no file).
    pub const NOT_IN_GIT: &str = "compare/not-in-git";
    /// The change acted on is no longer there (the document changed since the list was made).
    pub const CHANGE_GONE: &str = "compare/change-gone";
    /// The element cannot be made as on the other side (the result would not be a document).
    pub const CANNOT_APPLY: &str = "compare/cannot-apply";
}

/// What acting on a change is called: "revert" against an older revision of the file, "take
/// theirs" against another file or branch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "kebab-case")]
#[ts(export)]
pub enum CompareAction {
    Revert,
    TakeTheirs,
}

/// How an element differs, seen from the document now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "kebab-case")]
#[ts(export)]
pub enum ChangeKind {
    /// Here, not on the other side.
    Added,
    /// On the other side, not here.
    Removed,
    Changed,
    /// The same node under another id.
    Renamed,
}

/// One field that differs, as compact JSON text (absent on the side that has none).
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export, rename = "CompareField")]
pub struct FieldRow {
    /// Relative to the element (`/config/model`; `""` for the whole element).
    pub pointer: String,
    /// The other side's value.
    #[ts(optional)]
    pub before: Option<String>,
    /// The value now.
    #[ts(optional)]
    pub after: Option<String>,
}

/// One row of the change list.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct CompareChange {
    /// Names the change when acting on it (stable while the element exists).
    pub key: String,
    pub kind: ChangeKind,
    /// `graph`, `channel`, `node`, `edge` or `body`.
    pub element: String,
    /// The element in words: a node id, `a → b`, a channel name, a graph field.
    pub label: String,
    /// What changed, in a few words.
    pub summary: String,
    pub fields: Vec<FieldRow>,
    /// The nodes to frame on the canvas when the row is chosen (ghosts included).
    pub nodes: Vec<String>,
}

/// A node mark on the canvas.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct NodeMark {
    pub id: String,
    pub kind: ChangeKind,
    /// The change's key.
    pub change: String,
}

/// An edge mark on the canvas (by its ends; a removed edge may end at a ghost).
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct EdgeMark {
    pub from: String,
    pub to: String,
    pub kind: ChangeKind,
    pub change: String,
}

/// A node the other side has and the document does not, drawn where the other side had it.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct Ghost {
    pub id: String,
    /// Its type (GRAPH.md: its kind), when it has one.
    #[ts(optional)]
    pub type_name: Option<String>,
    pub position: Position,
}

/// The compare view of a document.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct CompareView {
    /// What the document is compared with, in words.
    pub against: String,
    pub action: CompareAction,
    pub changes: Vec<CompareChange>,
    pub nodes: Vec<NodeMark>,
    pub edges: Vec<EdgeMark>,
    pub ghosts: Vec<Ghost>,
    /// One line about positions, when they differ (layout is not a change of the graph).
    #[ts(optional)]
    pub layout: Option<String>,
}

/// An open comparison: the other version, read once.
#[derive(Debug, Clone)]
pub struct Comparison {
    other: ddoc::Document,
    other_positions: IndexMap<String, Position>,
    against: String,
    action: CompareAction,
}

fn format_of(f: DocFormat) -> Format {
    match f {
        DocFormat::GraphSpec => Format::GraphSpec,
        DocFormat::Weaveflow => Format::Weaveflow,
        DocFormat::GraphMd => Format::GraphMd,
    }
}

/// The error for a version that cannot be read: `what` names it (`HEAD~1:flows/a.json`).
pub fn unreadable(what: &str, e: &ReadError) -> Diagnostic {
    let code = if matches!(e, ReadError::Binary) { codes::BINARY } else { codes::UNREADABLE };
    Diagnostic::error(code, format!("{what} cannot be compared: {e}"))
}

/// Positions from a layout value (`{positions: {id: {x, y}}}`).
fn positions_of(layout: Option<&Value>) -> IndexMap<String, Position> {
    let mut out = IndexMap::new();
    if let Some(Value::Object(m)) = layout.and_then(|l| l.get("positions")) {
        for (id, p) in m {
            if let Ok(p) = serde_json::from_value::<Position>(p.clone()) {
                if p.x.is_finite() && p.y.is_finite() {
                    out.insert(id.clone(), p);
                }
            }
        }
    }
    out
}

fn file_name(session: &Session) -> Option<String> {
    session.path().and_then(|p| p.file_name()).map(|n| n.to_string_lossy().into_owned())
}

fn compact(v: &Option<Value>) -> Option<String> {
    v.as_ref().map(|v| serde_json::to_string(v).unwrap_or_default())
}

fn rows(fields: &[FieldChange]) -> Vec<FieldRow> {
    fields
        .iter()
        .map(|f| FieldRow {
            pointer: f.pointer.clone(),
            before: compact(&f.before),
            after: compact(&f.after),
        })
        .collect()
}

fn whole(m: &serde_json::Map<String, Value>, before: bool) -> Vec<FieldRow> {
    m.iter()
        .map(|(k, v)| {
            let text = Some(serde_json::to_string(v).unwrap_or_default());
            FieldRow {
                pointer: trellis_diff::pointer::push("", k),
                before: if before { text.clone() } else { None },
                after: if before { None } else { text },
            }
        })
        .collect()
}

fn field_summary(fields: &[FieldRow]) -> String {
    let names: Vec<&str> = fields.iter().map(|f| f.pointer.as_str()).take(3).collect();
    let more = fields.len().saturating_sub(3);
    let mut s = format!("{} changed", names.join(", "));
    if more > 0 {
        s = format!("{}, {more} more changed", names.join(", "));
    }
    s
}

impl Comparison {
    /// Reads the other version for comparison with `session`. `what` names it in messages,
    /// `name` is its file name (GRAPH.md is recognised by name), `sidecar` its layout file
    /// (GraphSpec, GRAPH.md) when there is one.
    pub fn new(
        session: &Session,
        what: &str,
        name: Option<&str>,
        bytes: &[u8],
        sidecar: Option<&[u8]>,
        against: String,
        action: CompareAction,
    ) -> Result<Comparison, Diagnostic> {
        let other = ddoc::read(name, bytes, sidecar).map_err(|e| unreadable(what, &e))?;
        let mine = format_of(session.format());
        if other.graph.format != mine {
            return Err(Diagnostic::error(
                codes::OTHER_FORMAT,
                format!(
                    "{what} is a {} document and this one is {}: only documents of one format can be compared (convert one first)",
                    ddoc::format_name(other.graph.format),
                    ddoc::format_name(mine)
                ),
            ));
        }
        let layout = match other.graph.format {
            Format::Weaveflow => other.graph.layout.clone(),
            _ => sidecar.and_then(|b| serde_json::from_slice::<Value>(b).ok()),
        };
        let other_positions = positions_of(layout.as_ref());
        Ok(Comparison { other, other_positions, against, action })
    }

    pub fn against(&self) -> &str {
        &self.against
    }

    /// The document now, as trellis-diff sees it.
    fn current(&self, session: &Session) -> Result<ddoc::Document, Diagnostic> {
        let name = file_name(session);
        ddoc::read(name.as_deref(), session.text().as_bytes(), None).map_err(|e| {
            Diagnostic::error(codes::UNREADABLE, format!("the document cannot be compared now: {e}"))
        })
    }

    /// The compare view of the document as it is now.
    pub fn view(&self, session: &Session) -> Result<CompareView, Diagnostic> {
        let current = self.current(session)?;
        let d = trellis_diff::diff(&self.other.graph, &current.graph);
        let mut view = CompareView {
            against: self.against.clone(),
            action: self.action,
            changes: Vec::with_capacity(d.changes.len()),
            nodes: Vec::new(),
            edges: Vec::new(),
            ghosts: Vec::new(),
            layout: None,
        };
        let here = &session.layout().positions;
        let mut spare = ghost_column(here);
        for c in &d.changes {
            let key = change_key(c);
            let mut node =
                |id: &str, kind| view.nodes.push(NodeMark { id: id.to_owned(), kind, change: key.clone() });
            let row = match c {
                Change::Graph(f) => {
                    let fields = rows(std::slice::from_ref(f));
                    CompareChange {
                        key: key.clone(),
                        kind: match (&f.before, &f.after) {
                            (None, _) => ChangeKind::Added,
                            (_, None) => ChangeKind::Removed,
                            _ => ChangeKind::Changed,
                        },
                        element: "graph".into(),
                        label: format!("graph {}", f.pointer.trim_start_matches('/')),
                        summary: "graph field changed".into(),
                        fields,
                        nodes: Vec::new(),
                    }
                }
                Change::ChannelAdded { name, channel } => CompareChange {
                    key: key.clone(),
                    kind: ChangeKind::Added,
                    element: "channel".into(),
                    label: format!("channel {name}"),
                    summary: "channel added".into(),
                    fields: whole(channel, false),
                    nodes: Vec::new(),
                },
                Change::ChannelRemoved { name, channel } => CompareChange {
                    key: key.clone(),
                    kind: ChangeKind::Removed,
                    element: "channel".into(),
                    label: format!("channel {name}"),
                    summary: "channel removed".into(),
                    fields: whole(channel, true),
                    nodes: Vec::new(),
                },
                Change::ChannelChanged { name, fields } => {
                    let fields = rows(fields);
                    CompareChange {
                        key: key.clone(),
                        kind: ChangeKind::Changed,
                        element: "channel".into(),
                        label: format!("channel {name}"),
                        summary: field_summary(&fields),
                        fields,
                        nodes: Vec::new(),
                    }
                }
                Change::NodeAdded { id, node: n } => {
                    node(id, ChangeKind::Added);
                    CompareChange {
                        key: key.clone(),
                        kind: ChangeKind::Added,
                        element: "node".into(),
                        label: id.clone(),
                        summary: format!("node added{}", type_words(&current.graph, n)),
                        fields: whole(n, false),
                        nodes: vec![id.clone()],
                    }
                }
                Change::NodeRemoved { id, node: n } => {
                    node(id, ChangeKind::Removed);
                    let position = self.other_positions.get(id).copied().unwrap_or_else(&mut spare);
                    view.ghosts.push(Ghost {
                        id: id.clone(),
                        type_name: self.other.graph.node_type(n).map(str::to_owned),
                        position,
                    });
                    CompareChange {
                        key: key.clone(),
                        kind: ChangeKind::Removed,
                        element: "node".into(),
                        label: id.clone(),
                        summary: format!("node removed{}", type_words(&self.other.graph, n)),
                        fields: whole(n, true),
                        nodes: vec![id.clone()],
                    }
                }
                Change::NodeRenamed { from, to, edges } => {
                    node(to, ChangeKind::Renamed);
                    CompareChange {
                        key: key.clone(),
                        kind: ChangeKind::Renamed,
                        element: "node".into(),
                        label: to.clone(),
                        summary: format!(
                            "renamed from {from} ({edges} edge{} follow{})",
                            plural(*edges as u64),
                            if *edges == 1 { "s" } else { "" }
                        ),
                        fields: vec![FieldRow {
                            pointer: "/id".into(),
                            before: Some(Value::from(from.as_str()).to_string()),
                            after: Some(Value::from(to.as_str()).to_string()),
                        }],
                        nodes: vec![to.clone()],
                    }
                }
                Change::NodeChanged { id, fields } => {
                    node(id, ChangeKind::Changed);
                    let fields = rows(fields);
                    CompareChange {
                        key: key.clone(),
                        kind: ChangeKind::Changed,
                        element: "node".into(),
                        label: id.clone(),
                        summary: field_summary(&fields),
                        fields,
                        nodes: vec![id.clone()],
                    }
                }
                Change::EdgeAdded { edge, fields } | Change::EdgeRemoved { edge, fields } => {
                    let added = matches!(c, Change::EdgeAdded { .. });
                    let kind = if added { ChangeKind::Added } else { ChangeKind::Removed };
                    view.edges.push(EdgeMark {
                        from: edge.from.clone(),
                        to: edge.to.clone(),
                        kind,
                        change: key.clone(),
                    });
                    CompareChange {
                        key: key.clone(),
                        kind,
                        element: "edge".into(),
                        label: edge.to_string().replace(" -> ", " → "),
                        summary: if added { "edge added" } else { "edge removed" }.into(),
                        fields: whole(fields, !added),
                        nodes: vec![edge.from.clone(), edge.to.clone()],
                    }
                }
                Change::EdgeChanged { edge, fields } => {
                    view.edges.push(EdgeMark {
                        from: edge.from.clone(),
                        to: edge.to.clone(),
                        kind: ChangeKind::Changed,
                        change: key.clone(),
                    });
                    let fields = rows(fields);
                    CompareChange {
                        key: key.clone(),
                        kind: ChangeKind::Changed,
                        element: "edge".into(),
                        label: edge.to_string().replace(" -> ", " → "),
                        summary: field_summary(&fields),
                        fields,
                        nodes: vec![edge.from.clone(), edge.to.clone()],
                    }
                }
                Change::Body { removed, added, before, after } => CompareChange {
                    key: key.clone(),
                    kind: ChangeKind::Changed,
                    element: "body".into(),
                    label: "Markdown body".into(),
                    summary: format!("{removed} line{} removed, {added} added", plural(*removed as u64)),
                    fields: vec![FieldRow {
                        pointer: "/body".into(),
                        before: Some(before.clone()),
                        after: Some(after.clone()),
                    }],
                    nodes: Vec::new(),
                },
            };
            view.changes.push(row);
        }
        // Without positions on the other side (no sidecar there) there is nothing to compare.
        if !self.other_positions.is_empty() {
            view.layout = trellis_diff::layout::summary(
                Some(&layout_value(&self.other_positions)),
                Some(&layout_value(here)),
            );
        }
        Ok(view)
    }

    /// The edit that makes the element of change `key` as the other side has it.
    pub fn edit_for(&self, session: &Session, key: &str) -> Result<Edit, Diagnostic> {
        let current = self.current(session)?;
        let d = trellis_diff::diff(&self.other.graph, &current.graph);
        let Some(change) = d.changes.iter().find(|c| change_key(c) == key) else {
            return Err(Diagnostic::error(
                codes::CHANGE_GONE,
                "that change is no longer there (the document changed since the list was made)",
            ));
        };
        let graph = take_other(&current.graph, &self.other.graph, change);
        let text = current.with_graph(graph).to_text().map_err(|why| {
            Diagnostic::error(codes::CANNOT_APPLY, format!("the change cannot be taken: {why}"))
        })?;
        let mut positions = IndexMap::new();
        // Weaveflow keeps positions in the document (taken with it); the others in the layout.
        if session.format() != DocFormat::Weaveflow {
            let here = &session.layout().positions;
            match change {
                Change::NodeRemoved { id, .. } => {
                    let p = self.other_positions.get(id).copied().unwrap_or_else(|| ghost_column(here)());
                    positions.insert(id.clone(), p);
                }
                Change::NodeRenamed { from, to, .. } => {
                    if let Some(p) = here.get(to) {
                        positions.insert(from.clone(), *p);
                    }
                }
                _ => {}
            }
        }
        Ok(Edit::ReplaceDocument { text, positions })
    }
}

fn type_words(g: &trellis_diff::Graph, n: &serde_json::Map<String, Value>) -> String {
    g.node_type(n).map(|t| format!(" ({t})")).unwrap_or_default()
}

fn layout_value(p: &IndexMap<String, Position>) -> Value {
    serde_json::json!({ "positions": serde_json::to_value(p).unwrap_or_default() })
}

/// Places for ghosts the other side gives no position: a column right of the graph.
fn ghost_column(here: &IndexMap<String, Position>) -> impl FnMut() -> Position {
    let x = here.values().map(|p| p.x).fold(f64::NEG_INFINITY, f64::max);
    let y = here.values().map(|p| p.y).fold(f64::INFINITY, f64::min);
    let (x, mut y) = if x.is_finite() { (x + 320.0, y) } else { (0.0, 0.0) };
    move || {
        let p = Position { x, y };
        y += 120.0;
        p
    }
}

#[cfg(test)]
mod tests;

/// The plural ending of a count said in a summary ("1 line", "2 lines").
fn plural(n: u64) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}
