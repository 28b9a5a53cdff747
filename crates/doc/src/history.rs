//! Undo and redo as lists of small reversible changes ("prims"), not snapshots: a step on a
//! 10,000-node graph stores the one node or edge it touched, so a long history stays small.
//!
//! Every edit is planned as a list of prims against the current document; applying the list
//! in order performs the edit (and redo), applying the inverses in reverse order undoes it.

use indexmap::IndexMap;
use trellis_spec::{ChannelSpec, EdgeSpec, GraphSpec, NodeSpec};

use crate::edit::{Changed, Position};
use crate::layout::Layout;

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
                match (before, after) {
                    (None, Some(n)) => spec.nodes.insert((*index).min(spec.nodes.len()), n.clone()),
                    (Some(_), None) => {
                        if *index < spec.nodes.len() {
                            spec.nodes.remove(*index);
                        }
                    }
                    (Some(_), Some(n)) => {
                        if let Some(slot) = spec.nodes.get_mut(*index) {
                            *slot = n.clone();
                        }
                    }
                    (None, None) => {}
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
                match (before, after) {
                    (None, Some(e)) => spec.edges.insert((*index).min(spec.edges.len()), e.clone()),
                    (Some(_), None) => {
                        if *index < spec.edges.len() {
                            spec.edges.remove(*index);
                        }
                    }
                    (Some(_), Some(e)) => {
                        if let Some(slot) = spec.edges.get_mut(*index) {
                            *slot = e.clone();
                        }
                    }
                    (None, None) => {}
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
            Prim::Document { after, .. } => {
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
        matches!(self, Prim::Position { .. })
    }
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
