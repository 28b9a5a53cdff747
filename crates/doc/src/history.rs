//! Undo and redo as lists of small reversible changes ("prims"), not snapshots: a step on a
//! 10,000-node graph stores the one node or edge it touched, so a long history stays small.
//!
//! Every edit is planned as a list of prims against the current document; applying the list
//! in order performs the edit (and redo), applying the inverses in reverse order undoes it.

use std::collections::HashSet;

use indexmap::IndexMap;
use trellis_spec::{ChannelSpec, EdgeSpec, GraphSpec, NodeSpec};

use crate::document::Document;
use crate::edit::{Changed, Position};
use crate::formats::view::canvas_spec;
use crate::layout::Layout;
use crate::list_edit::ListEdit;

/// One reversible change. `before: None` means "insert", `after: None` means "remove".
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Prim {
    Node {
        index: usize,
        before: Option<NodeSpec>,
        after: Option<NodeSpec>,
    },
    Edge {
        index: usize,
        before: Option<EdgeSpec>,
        after: Option<EdgeSpec>,
    },
    /// Channels are few: the whole map is kept (and a rename keeps its place).
    Channels {
        before: IndexMap<String, ChannelSpec>,
        after: IndexMap<String, ChannelSpec>,
    },
    Name {
        before: Option<String>,
        after: Option<String>,
    },
    Position {
        id: String,
        before: Option<Position>,
        after: Option<Position>,
    },
    /// All notes and groups (a few hundred at most, so kept whole, like channels).
    Annotations {
        before: Box<crate::annotations::Annotations>,
        after: Box<crate::annotations::Annotations>,
    },
    /// A whole new document (a reload from disk).
    Document {
        before: Box<GraphSpec>,
        after: Box<GraphSpec>,
    },
    /// Weaveflow and GRAPH.md: one small change of the format's own model (`formats::steps`).
    Format(Box<crate::formats::steps::FormatStep>),
    /// Weaveflow and GRAPH.md: the whole document and layout before and after the step, where
    /// no small change can say it: a reload from disk (a new document, perhaps of another
    /// format) and a GRAPH.md `replace_document` (the new document carries the text it was
    /// read from, to write it back byte for byte, which no field change can express). The
    /// session swaps them itself (`formats::swap`).
    Snapshot {
        before: Box<Snap>,
        after: Box<Snap>,
    },
    /// The reformatting of a hand-formatted file as a step of its own (`Edit::Reformat`): it
    /// changes neither the document nor the layout, only what the next save is said to write.
    Reformat,
    /// A change of the text pane's text (typing, or the text following an edit): not a change
    /// of the document; the session replays it on the text (`crate::text`).
    Text(Box<crate::text_changes::TextStep>),
}

impl Prim {
    pub(crate) fn inverse(&self) -> Prim {
        match self.clone() {
            Prim::Node { index, before, after } => Prim::Node { index, before: after, after: before },
            Prim::Edge { index, before, after } => Prim::Edge { index, before: after, after: before },
            Prim::Channels { before, after } => Prim::Channels { before: after, after: before },
            Prim::Name { before, after } => Prim::Name { before: after, after: before },
            Prim::Position { id, before, after } => Prim::Position { id, before: after, after: before },
            Prim::Annotations { before, after } => Prim::Annotations { before: after, after: before },
            Prim::Document { before, after } => Prim::Document { before: after, after: before },
            Prim::Snapshot { before, after } => Prim::Snapshot { before: after, after: before },
            // Applied with a direction instead (`replay`): never inverted by copy.
            Prim::Format(step) => Prim::Format(step),
            Prim::Reformat => Prim::Reformat,
            Prim::Text(step) => Prim::Text(step),
        }
    }

    /// Performs the change and says what it changed. Indices come from planning against this
    /// very state, so they are in range; they are clamped anyway so a bug cannot panic.
    pub(crate) fn apply(&self, spec: &mut GraphSpec, layout: &mut Layout) -> Changed {
        let mut changed = Changed::default();
        match self {
            Prim::Node { index, before, after } => {
                if let Some(e) = list_edit(*index, before, after, spec.nodes.len()) {
                    e.apply_to(&mut spec.nodes);
                    changed.node_edits.push(e);
                }
                if let Some(b) = before {
                    if after.as_ref().is_none_or(|a| a.id != b.id) {
                        changed.removed_nodes.push(b.id.to_string());
                    }
                }
                if let Some(a) = after {
                    changed.nodes.push(a.id.to_string());
                }
            }
            Prim::Edge { index, before, after } => {
                if let Some(e) = list_edit(*index, before, after, spec.edges.len()) {
                    e.apply_to(&mut spec.edges);
                    changed.edge_edits.push(e);
                }
                changed.edges = true;
            }
            Prim::Channels { after, .. } => {
                spec.channels = after.clone();
                changed.channels = true;
            }
            Prim::Name { after, .. } => {
                spec.name = after.clone();
                changed.name = true;
            }
            Prim::Position { .. } | Prim::Annotations { .. } => return self.apply_to_layout(layout),
            Prim::Document { after, .. } => {
                changed.merge(spec_changes(spec, after));
                *spec = (**after).clone();
                changed.full = true;
            }
            // Not a GraphSpec change: the session applies these to its document.
            Prim::Snapshot { .. } => changed.full = true,
            Prim::Format(_) | Prim::Reformat | Prim::Text(_) => {}
        }
        changed
    }

    /// Performs a layout change (positions, notes and groups), in any format.
    fn apply_to_layout(&self, layout: &mut Layout) -> Changed {
        let mut changed = Changed::default();
        match self {
            Prim::Position { id, after, .. } => {
                match after {
                    Some(p) => {
                        layout.positions.insert(id.clone(), *p);
                    }
                    None => {
                        layout.positions.shift_remove(id);
                    }
                }
                changed.positions.push(id.clone());
            }
            Prim::Annotations { after, .. } => {
                layout.set_annotations((**after).clone());
                changed.annotations = true;
            }
            _ => {}
        }
        changed
    }

    /// True when the prim changes only positions (the spec text stays the same).
    pub(crate) fn is_layout_only(&self) -> bool {
        matches!(self, Prim::Position { .. } | Prim::Annotations { .. })
    }
}

/// The list edit a node or edge prim makes: insert at `index`, remove there, or replace there
/// (clamped to the list, as planning guarantees anyway). `None` when it changes nothing.
fn list_edit<T: Clone + PartialEq>(
    index: usize,
    before: &Option<T>,
    after: &Option<T>,
    len: usize,
) -> Option<ListEdit<T>> {
    let insert: Vec<T> = after.iter().cloned().collect();
    match before {
        None if insert.is_empty() => None,
        None => Some(ListEdit { at: index.min(len), remove: 0, insert }),
        Some(_) if index >= len => None,
        Some(_) => Some(ListEdit { at: index, remove: 1, insert }),
    }
}

/// What replacing the canvas graph `before` with `after` changes, as list edits and flags
/// (a reload, or a Weaveflow or GRAPH.md step, whose canvas graph is a projection).
pub(crate) fn spec_changes(before: &GraphSpec, after: &GraphSpec) -> Changed {
    let mut changed = Changed::default();
    changed.node_edits.extend(ListEdit::between(&before.nodes, &after.nodes));
    changed.edge_edits.extend(ListEdit::between(&before.edges, &after.edges));
    let now: HashSet<&str> = after.nodes.iter().map(|n| n.id.as_str()).collect();
    changed.removed_nodes =
        before.nodes.iter().filter(|n| !now.contains(n.id.as_str())).map(|n| n.id.to_string()).collect();
    changed.nodes =
        changed.node_edits.iter().flat_map(|e| e.insert.iter().map(|n| n.id.to_string())).collect();
    changed.edges = !changed.edge_edits.is_empty();
    changed.channels = before.channels != after.channels;
    changed.name = before.name != after.name;
    changed
}

/// What lets the next edit merge into this step instead of starting a new one.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct CoalesceKey {
    pub node: String,
    pub path: String,
    /// When the step was last extended.
    pub at_ms: u64,
}

/// One undo step.
#[derive(Debug, Clone)]
pub(crate) struct Step {
    /// Unique in the session: the state reached after this step is "state `id`".
    pub id: u64,
    pub prims: Vec<Prim>,
    pub coalesce: Option<CoalesceKey>,
}

/// The undo and redo stacks.
#[derive(Debug, Default)]
pub(crate) struct History {
    pub undo: Vec<Step>,
    pub redo: Vec<Step>,
}

/// Most undo steps kept; older ones are forgotten (the journal and the file keep the work).
pub(crate) const HISTORY_LIMIT: usize = 1000;

/// Two `set_config_field` edits of the same node and field closer than this merge.
pub(crate) const COALESCE_MS: u64 = 1000;

impl History {
    /// Pushes a step (clearing redo). Returns the id of the newest forgotten step when the
    /// limit made the history drop old ones.
    pub(crate) fn push(&mut self, step: Step) -> Option<u64> {
        self.redo.clear();
        self.undo.push(step);
        if self.undo.len() > HISTORY_LIMIT {
            let excess = self.undo.len() - HISTORY_LIMIT;
            return self.undo.drain(..excess).next_back().map(|s| s.id);
        }
        None
    }
}

/// Redoes (`undo` false) or undoes a step in a document of any format: GraphSpec prims on the
/// spec, layout prims on the layout, format steps on the Weaveflow or GRAPH.md model. What a
/// format step changed in the canvas is worked out from the canvas graph before and after
/// (it is a projection of the format's model), so the answer is list edits, not a reload.
pub(crate) fn replay(prims: &[Prim], document: &mut Document, layout: &mut Layout, undo: bool) -> Changed {
    if let Document::GraphSpec(spec) = document {
        return if undo { unapply_all(prims, spec, layout) } else { apply_all(prims, spec, layout) };
    }
    let has_format = prims.iter().any(|p| matches!(p, Prim::Format(_)));
    let canvas_before = has_format.then(|| canvas_spec(document).into_owned());
    let mut changed = Changed::default();
    let mut run = |p: &Prim| match p {
        Prim::Format(step) => step.apply(document, undo),
        p if undo => changed.merge(p.inverse().apply_to_layout(layout)),
        p => changed.merge(p.apply_to_layout(layout)),
    };
    if undo {
        prims.iter().rev().for_each(&mut run);
    } else {
        prims.iter().for_each(&mut run);
    }
    if let Some(before) = canvas_before {
        changed.merge(spec_changes(&before, &canvas_spec(document)));
        changed.format_view = true;
    }
    changed
}

/// Applies prims in order.
pub(crate) fn apply_all(prims: &[Prim], spec: &mut GraphSpec, layout: &mut Layout) -> Changed {
    let mut changed = Changed::default();
    for p in prims {
        changed.merge(p.apply(spec, layout));
    }
    changed
}

/// Undoes prims: inverses in reverse order.
pub(crate) fn unapply_all(prims: &[Prim], spec: &mut GraphSpec, layout: &mut Layout) -> Changed {
    let mut changed = Changed::default();
    for p in prims.iter().rev() {
        changed.merge(p.inverse().apply(spec, layout));
    }
    changed
}

/// The document and layout around a snapshot step.
#[derive(Debug, Clone, PartialEq)]
pub struct Snap {
    pub(crate) document: Document,
    pub(crate) layout: Layout,
}

/// True when a step is a snapshot step (applied by [`swap`], not by [`replay`]).
pub(crate) fn is_snapshot(prims: &[Prim]) -> bool {
    prims.iter().any(|p| matches!(p, Prim::Snapshot { .. }))
}

/// Undoes (`undo`) or redoes a snapshot step.
pub(crate) fn swap(prims: &[Prim], undo: bool, document: &mut Document, layout: &mut Layout) -> Changed {
    let mut order: Vec<&Prim> = prims.iter().collect();
    if undo {
        order.reverse();
    }
    let mut changed = Changed::full();
    for p in order {
        if let Prim::Snapshot { before, after } = p {
            let (from, to) = if undo { (after, before) } else { (before, after) };
            changed.merge(snapshot_changed(from, to));
            *document = to.document.clone();
            *layout = to.layout.clone();
        }
    }
    changed
}

/// What a snapshot step changes, worked out from the two states: the canvas graph's list
/// edits, the positions and viewport, and whether the format's own view part changed.
pub(crate) fn snapshot_changed(before: &Snap, after: &Snap) -> Changed {
    changed_between(&before.document, &before.layout, &after.document, &after.layout)
}

/// What turning one document and layout into another changes (see `snapshot_changed`).
pub(crate) fn changed_between(
    before_document: &Document,
    before_layout: &Layout,
    after_document: &Document,
    after_layout: &Layout,
) -> Changed {
    let mut changed = spec_changes(&canvas_spec(before_document), &canvas_spec(after_document));
    let (old, new) = (&before_layout.positions, &after_layout.positions);
    changed.positions = new
        .iter()
        .filter(|(id, p)| old.get(*id) != Some(*p))
        .map(|(id, _)| id.clone())
        .chain(old.keys().filter(|id| !new.contains_key(*id)).cloned())
        .collect();
    changed.viewport = before_layout.viewport != after_layout.viewport;
    changed.annotations =
        before_layout.notes != after_layout.notes || before_layout.groups != after_layout.groups;
    changed.format_view = before_document != after_document;
    changed
}
