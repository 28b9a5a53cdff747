//! What an edit, an undo or a redo answers the UI: only what changed in its [`DocumentView`]
//! (list edits of the canvas's nodes, edges and diagnostics, the positions that moved, the
//! small fields whole), never the whole view. On a 10,000-node graph a whole view is megabytes
//! of JSON; a delta is the node touched. The UI applies it to the view it holds
//! (`ui/src/api/delta.ts`); a property test checks that this gives the view a full reload
//! gives, after any sequence of edits, undos and redos.

use indexmap::IndexMap;
use serde::Serialize;
use trellis_spec::{ChannelSpec, Diagnostic, EdgeSpec, GraphSpec, NodeSpec};
use ts_rs::TS;

use crate::annotations::Annotations;
use crate::collapse::CollapsedView;
use crate::document::Document;
use crate::drawn_edges::{DrawnEdges, EdgeLabel, ExtraEdge};
use crate::edit::{Changed, Edit, EditOutcome, Position, Viewport};
use crate::formats::view::canvas_spec;
use crate::formats::view::{GraphMdView, WeaveflowView};
use crate::list_edit::ListEdit;
use crate::routes::RoutesDelta;
use crate::session::Session;
use crate::subgraphs::SubgraphLink;
use crate::view::{id_string, Notice};

/// The answer to `apply_edit`, `undo` and `redo`: what changed in the document's view.
/// Lists change by [`ListEdit`]s applied in order; the small fields come whole.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct ViewDelta {
    /// The document's id (as in `DocumentView.id`).
    pub id: String,
    /// Changes of `spec.nodes`, in order.
    pub nodes: Vec<ListEdit<NodeSpec>>,
    /// Changes of `spec.edges`, in order (an edge index means the same edge afterwards).
    pub edges: Vec<ListEdit<EdgeSpec>>,
    /// Changes of `edgeLabels`, in order (applied after `edges`, they keep the two lists one
    /// for one).
    pub edge_labels: Vec<ListEdit<Option<EdgeLabel>>>,
    /// `extraEdges` now, when they may have changed (absent: unchanged).
    pub extra_edges: Option<Vec<ExtraEdge>>,
    /// `spec.name` now.
    pub name: Option<String>,
    /// `spec.channels` now (a handful).
    pub channels: IndexMap<String, ChannelSpec>,
    /// Positions set (or removed: `null`) in `layout.positions`, by node id.
    pub positions: IndexMap<String, Option<Position>>,
    /// `layout.viewport` now.
    pub viewport: Option<Viewport>,
    /// `layout.notes` and `layout.groups` now, when they changed (absent: unchanged).
    pub annotations: Option<Annotations>,
    /// `collapsed` now, when it may have changed (absent: unchanged).
    pub collapsed: Option<CollapsedView>,
    /// How `routes` changed (absent: unchanged).
    pub routes: Option<RoutesDelta>,
    pub layout_missing: bool,
    /// The change of `diagnostics`, if any.
    pub diagnostics: Option<ListEdit<Diagnostic>>,
    pub dirty: bool,
    pub can_undo: bool,
    pub can_redo: bool,
    /// `notices` now (a handful).
    pub notices: Vec<Notice>,
    /// Weaveflow: the format's view part, when the document changed (absent: unchanged).
    pub weaveflow: Option<WeaveflowView>,
    /// GRAPH.md: the format's view part, when the document changed (absent: unchanged).
    pub graphmd: Option<GraphMdView>,
    /// The subgraph nodes' links (`DocumentView.subgraphs`), when they changed (absent:
    /// unchanged).
    pub subgraphs: Option<Vec<SubgraphLink>>,
    /// Messages about the edit itself (ids a paste renamed): shown once, not part of the view.
    pub notes: Vec<Diagnostic>,
    /// The nodes an `add_node` or a `paste` made, by the ids the document gave them (a fresh
    /// id from the type, a pasted id renamed on a clash): the UI selects them. Rust alone
    /// chooses ids, so the UI never guesses the one a node will get.
    pub created: Vec<String>,
    /// The text pane's part, while a pane is open (`crate::text`): how its text changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub text: Option<crate::text::TextDelta>,
    /// Why the text typed in the pane does not read, while it does not: the canvas shows the
    /// last text that read (`DocumentView.textError`; absent: it reads).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub text_error: Option<Diagnostic>,
}

/// What to do to a document.
#[derive(Debug, Clone, Copy)]
pub enum Change<'a> {
    Edit(&'a Edit),
    Undo,
    Redo,
    /// The text pane's typing (`crate::text`).
    Text(&'a crate::text::TextEdit),
}

impl Session {
    /// Applies an edit, an undo or a redo and answers what changed in the view. A refused
    /// edit changes nothing and says why.
    pub fn answer(&mut self, change: Change<'_>) -> Result<ViewDelta, Diagnostic> {
        let before = self.diagnostics().to_vec();
        let links_before = self.subgraph_links().to_vec();
        // The routes the UI holds: known already, from the view or the answer before.
        let (revision, routes_before) = (self.revision(), self.routes());
        let text_from = match change {
            Change::Text(t) => t.version,
            _ => self.text_pane.version,
        };
        let outcome = match change {
            Change::Edit(edit) => {
                crate::text::check_edit(self, edit)?;
                let step = (self.state, self.history.undo.last().map(|s| s.prims.len()));
                let outcome = self.apply(edit)?;
                let stepped = step != (self.state, self.history.undo.last().map(|s| s.prims.len()));
                if crate::text::changes_document(&outcome.changed) {
                    crate::text::follow(self, stepped, false);
                }
                outcome
            }
            Change::Undo => {
                let done = self.history.redo.len();
                let outcome = self.undo();
                if self.history.redo.len() > done {
                    let moved = self.history.redo.last().map(|s| crate::text::text_of(&s.prims));
                    crate::text::replayed(self, moved.unwrap_or_default(), true);
                }
                outcome
            }
            Change::Redo => {
                let done = self.history.undo.len();
                let outcome = self.redo();
                if self.history.undo.len() > done {
                    let moved = self.history.undo.last().map(|s| crate::text::text_of(&s.prims));
                    crate::text::replayed(self, moved.unwrap_or_default(), false);
                }
                outcome
            }
            Change::Text(edit) => self.type_text(edit)?,
        };
        let mut delta = ViewDelta::of(self, &outcome, &before);
        if crate::routes::may_change(&outcome.changed) {
            delta.routes = RoutesDelta::between(&routes_before, &self.routes(), &outcome.changed);
        } else {
            self.routes.carry(revision, self.revision());
        }
        delta.text = crate::text::delta_for(self, text_from, delta.diagnostics.as_ref());
        if let Change::Edit(Edit::AddNode { .. } | Edit::Paste { .. }) = change {
            // Both only append nodes: what the node list gained is what they made.
            delta.created =
                delta.nodes.iter().flat_map(|e| e.insert.iter().map(|n| n.id.to_string())).collect();
        }
        if self.subgraph_links() != links_before.as_slice() {
            delta.subgraphs = Some(self.subgraph_links().to_vec());
        }
        Ok(delta)
    }
}

impl Session {
    /// What changed in the view when the document itself did not (a save, a refused save): the
    /// small fields and the findings, which were `before`. A large document's save answered with
    /// the whole view would make the page read it and draw it again.
    pub fn delta_since(&self, before: &[Diagnostic]) -> ViewDelta {
        let outcome = EditOutcome {
            changed: Changed::default(),
            diagnostics: Vec::new(),
            dirty: self.is_dirty(),
            can_undo: self.can_undo(),
            can_redo: self.can_redo(),
            notes: Vec::new(),
        };
        ViewDelta::of(self, &outcome, before)
    }
}

impl ViewDelta {
    /// The delta of `outcome`, which turned the session's diagnostics from `before` into what
    /// they are now.
    pub fn of(session: &Session, outcome: &EditOutcome, before: &[Diagnostic]) -> ViewDelta {
        let changed = &outcome.changed;
        let spec = canvas_spec(session.document());
        let layout = session.layout();
        let positions =
            changed.positions.iter().map(|id| (id.clone(), layout.positions.get(id).copied())).collect();
        // The view lists the registries' problems first, then the session's.
        let offset = session.registries().diagnostics.len();
        let (edge_labels, extra_edges) = drawn_edges_delta(session.document(), &spec, changed);
        ViewDelta {
            id: id_string(session),
            nodes: changed.node_edits.clone(),
            edges: changed.edge_edits.clone(),
            edge_labels,
            extra_edges,
            name: spec.name.clone(),
            channels: spec.channels.clone(),
            positions,
            viewport: layout.viewport,
            annotations: (changed.annotations || changed.full).then(|| layout.annotations()),
            collapsed: (changed.annotations
                || changed.full
                || !changed.node_edits.is_empty()
                || !changed.edge_edits.is_empty())
            .then(|| CollapsedView::of(&spec, layout)),
            routes: None,
            layout_missing: session.layout_missing(),
            diagnostics: ListEdit::between(before, session.diagnostics()).map(|e| e.shifted(offset)),
            dirty: session.is_dirty(),
            can_undo: session.can_undo(),
            can_redo: session.can_redo(),
            notices: session.notices().iter().map(Notice::from).collect(),
            weaveflow: session.weaveflow().filter(|_| changed.format_view).map(WeaveflowView::of),
            graphmd: session.graphmd().filter(|_| changed.format_view).map(GraphMdView::of),
            subgraphs: None,
            notes: outcome.notes.clone(),
            created: Vec::new(),
            text: None,
            text_error: session.text_error().cloned(),
        }
    }
}

/// How the drawn edges changed. A GraphSpec edge's label depends on the edge alone, so its
/// labels follow the edge edits one for one. A Weaveflow or GRAPH.md label depends on the
/// document around the edge (a condition, a loop bound, a judge), so when that document
/// changed the labels and extra edges go out again whole, as its view part does.
fn drawn_edges_delta(
    document: &Document,
    spec: &GraphSpec,
    changed: &Changed,
) -> (Vec<ListEdit<Option<EdgeLabel>>>, Option<Vec<ExtraEdge>>) {
    if let Document::GraphSpec(_) = document {
        let labels = changed
            .edge_edits
            .iter()
            .map(|e| ListEdit {
                at: e.at,
                remove: e.remove,
                insert: e.insert.iter().map(EdgeLabel::of_edge).collect(),
            })
            .collect();
        return (labels, None);
    }
    if !changed.format_view && !changed.full && changed.edge_edits.is_empty() {
        return (Vec::new(), None);
    }
    // The edge edits turn the list the UI holds into `spec.edges`: undone, they give its length.
    let added: isize = changed.edge_edits.iter().map(|e| e.insert.len() as isize - e.remove as isize).sum();
    let held = (spec.edges.len() as isize - added).max(0) as usize;
    let drawn = DrawnEdges::of(document, spec);
    (vec![ListEdit { at: 0, remove: held, insert: drawn.labels }], Some(drawn.extra))
}
