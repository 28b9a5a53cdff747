//! Undo and redo as lists of small reversible changes ("prims"), not snapshots: a step on a
//! 10,000-node graph stores the one node or edge it touched, so a long history stays small.
//!
//! Every edit is planned as a list of prims against the current document; applying the list
//! in order performs the edit (and redo), applying the inverses in reverse order undoes it.

use std::collections::HashSet;

use indexmap::IndexMap;
use trellis_spec::{ChannelSpec, EdgeSpec, GraphSpec, NodeSpec};

use crate::edit::{Changed, Position};
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
    /// Weaveflow and GRAPH.md: the whole document and layout before and after the step (the
    /// session swaps them itself; see `crate::formats`).
    Snapshot {
        before: Box<crate::formats::Snap>,
        after: Box<crate::formats::Snap>,
    },
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
                        changed.removed_nodes.push(b.id.clone());
                    }
                }
                if let Some(a) = after {
                    changed.nodes.push(a.id.clone());
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
            Prim::Document { after, .. } => {
                changed.merge(spec_changes(spec, after));
                *spec = (**after).clone();
                changed.full = true;
            }
            // Not a GraphSpec change: the session applies snapshots to its document.
            Prim::Snapshot { .. } => changed.full = true,
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
        before.nodes.iter().filter(|n| !now.contains(n.id.as_str())).map(|n| n.id.clone()).collect();
    changed.nodes = changed.node_edits.iter().flat_map(|e| e.insert.iter().map(|n| n.id.clone())).collect();
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
