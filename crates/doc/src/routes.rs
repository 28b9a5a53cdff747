//! The routes the canvas draws a document's edges along (`trellis_layout::route`): for each
//! edge of the canvas graph and each edge drawn for the reader only, how it runs (a curve into
//! the next column, a path between the nodes of the columns it crosses, a lane around them for
//! a loop back, a loop over its node) and where its label sits. Worked out from the layout's
//! positions with the canvas's sizes (nodes, terminals, label plates), so both drawing modes
//! of the canvas, the picture export and whatever draws over the edges (a run) share them.
//! The view carries them ([`crate::view::DocumentView::routes`]); an edit that moves nodes or
//! changes edges answers what changed in them ([`RoutesDelta`]).

use std::collections::HashMap;
use std::sync::Arc;

use serde::Serialize;
use trellis_layout::route::{self, RouteKind, RouteOptions};
use trellis_layout::{Point, Size};
use trellis_spec::{END, START};
use ts_rs::TS;

use crate::canvas_sizes::{label_size, NODE, TERMINAL};
use crate::document::Document;
use crate::drawn_edges::DrawnEdges;
use crate::edit::{Changed, Position};
use crate::formats::view::canvas_spec;
use crate::layout::Layout;
use crate::list_edit::ListEdit;

/// How a route is drawn (`trellis_layout::route::draw`, `ui/src/canvas/routePath.ts`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "lowercase")]
#[ts(export)]
pub enum EdgeRouteKind {
    /// A curve into the next column, through its label when it has one.
    Direct,
    /// A curve through points between the nodes of the columns it crosses.
    Through,
    /// Right angles: out of the source, along a lane under or over the columns, into the target.
    Around,
    /// Right angles: a loop over its node.
    Loop,
}

/// One edge's route: the points between its source's anchor (the middle of the right side)
/// and its target's (the middle of the left side), and its label's middle.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct EdgeRoute {
    pub kind: EdgeRouteKind,
    pub points: Vec<Position>,
    pub label: Option<Position>,
}

/// The routes of the drawn edges. `null`: a plain curve from anchor to anchor (most edges of a
/// large graph, four bytes each).
#[derive(Debug, Clone, Default, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct EdgeRoutes {
    /// One per edge of the canvas graph (`spec.edges`), same order.
    pub edges: Vec<Option<EdgeRoute>>,
    /// One per edge drawn for the reader only (`extraEdges`), same order.
    pub extra: Vec<Option<EdgeRoute>>,
}

/// How the routes changed with an edit.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct RoutesDelta {
    /// Changes of `routes.edges`, in order.
    pub edges: Vec<ListEdit<Option<EdgeRoute>>>,
    /// `routes.extra` now, when it changed.
    pub extra: Option<Vec<Option<EdgeRoute>>>,
}

fn at(p: Point) -> Position {
    // A tenth of a pixel is plenty, and keeps the view's text short.
    Position { x: (p.x * 10.0).round() / 10.0, y: (p.y * 10.0).round() / 10.0 }
}

fn kind(k: RouteKind) -> EdgeRouteKind {
    match k {
        RouteKind::Direct => EdgeRouteKind::Direct,
        RouteKind::Through => EdgeRouteKind::Through,
        RouteKind::Around => EdgeRouteKind::Around,
        RouteKind::Loop => EdgeRouteKind::Loop,
    }
}

impl EdgeRoutes {
    /// The routes of `document` drawn at `layout`'s positions.
    pub fn of(document: &Document, layout: &Layout) -> EdgeRoutes {
        let spec = canvas_spec(document);
        let drawn = DrawnEdges::of(document, &spec);
        let mut ids: Vec<&str> = Vec::with_capacity(spec.nodes.len() + 2);
        let mut index: HashMap<&str, usize> = HashMap::with_capacity(spec.nodes.len() + 2);
        for id in spec.nodes.iter().map(|n| n.id.as_str()).chain([START, END]) {
            if !index.contains_key(id) {
                index.insert(id, ids.len());
                ids.push(id);
            }
        }
        let nowhere = Point { x: f64::NAN, y: f64::NAN };
        let pos: Vec<Point> = ids
            .iter()
            .map(|id| layout.positions.get(*id).map_or(nowhere, |p| Point { x: p.x, y: p.y }))
            .collect();
        let sizes: Vec<Size> =
            ids.iter().map(|id| if *id == START || *id == END { TERMINAL } else { NODE }).collect();
        let end = |id: &str| index.get(id).copied().unwrap_or(usize::MAX);
        let mut edges: Vec<(usize, usize)> = Vec::with_capacity(spec.edges.len() + drawn.extra.len());
        let mut labels: Vec<Option<Size>> = Vec::with_capacity(edges.capacity());
        for (e, l) in spec.edges.iter().zip(&drawn.labels) {
            edges.push((end(&e.from), end(&e.to)));
            labels.push(l.as_ref().map(|l| label_size(&l.text)));
        }
        for x in &drawn.extra {
            edges.push((end(&x.from), end(&x.to)));
            labels.push((!x.label.is_empty()).then(|| label_size(&x.label)));
        }
        let routes = route::routes(&pos, &sizes, &edges, &labels, &RouteOptions::default());
        let mut out: Vec<Option<EdgeRoute>> = routes
            .into_iter()
            .map(|r| {
                (r.kind != RouteKind::Direct || !r.points.is_empty() || r.label.is_some()).then(|| {
                    EdgeRoute {
                        kind: kind(r.kind),
                        points: r.points.into_iter().map(at).collect(),
                        label: r.label.map(at),
                    }
                })
            })
            .collect();
        let extra = out.split_off(spec.edges.len());
        EdgeRoutes { edges: out, extra }
    }
}

/// The routes of a session's state, kept by the state's revision: an edit's answer compares
/// the routes before it with those after it without working either out twice.
#[derive(Debug, Default)]
pub(crate) struct RoutesCache(std::sync::Mutex<Option<(u64, Arc<EdgeRoutes>)>>);

impl RoutesCache {
    /// The routes at `revision`, worked out by `make` unless known.
    pub(crate) fn get(&self, revision: u64, make: impl FnOnce() -> EdgeRoutes) -> Arc<EdgeRoutes> {
        let mut slot = self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some((r, routes)) = slot.as_ref() {
            if *r == revision {
                return routes.clone();
            }
        }
        let routes = Arc::new(make());
        *slot = Some((revision, routes.clone()));
        routes
    }

    /// The routes known for revision `from`, now known to hold at `to` too (an edit that moved
    /// no route).
    pub(crate) fn carry(&self, from: u64, to: u64) {
        let mut slot = self.0.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some((r, _)) = slot.as_mut() {
            if *r == from {
                *r = to;
            }
        }
    }
}

/// Whether an edit's changes can move a route: positions, edges, labels, the drawn extras.
pub(crate) fn may_change(changed: &Changed) -> bool {
    changed.full
        || changed.format_view
        || !changed.positions.is_empty()
        || !changed.edge_edits.is_empty()
        || !changed.node_edits.is_empty()
}

impl RoutesDelta {
    /// What turns `before` into `after`, given the edge edits that turned the edge list the
    /// routes `before` were for into the one `after` are for. `None` when nothing changed.
    pub(crate) fn between(before: &EdgeRoutes, after: &EdgeRoutes, changed: &Changed) -> Option<RoutesDelta> {
        let mut edits: Vec<ListEdit<Option<EdgeRoute>>> = Vec::new();
        let mut held = before.edges.clone();
        if changed.full {
            edits.push(ListEdit { at: 0, remove: held.len(), insert: after.edges.clone() });
            held = after.edges.clone();
        } else {
            // The edges' own changes first, with empty routes in the new places.
            for e in &changed.edge_edits {
                let edit = ListEdit { at: e.at, remove: e.remove, insert: vec![None; e.insert.len()] };
                edit.apply_to(&mut held);
                edits.push(edit);
            }
            if held.len() != after.edges.len() {
                edits.push(ListEdit { at: 0, remove: held.len(), insert: after.edges.clone() });
                held = after.edges.clone();
            }
        }
        // Then every run of routes that changed.
        let mut i = 0;
        while i < held.len() {
            if held[i] == after.edges[i] {
                i += 1;
                continue;
            }
            let start = i;
            while i < held.len() && held[i] != after.edges[i] {
                i += 1;
            }
            edits.push(ListEdit { at: start, remove: i - start, insert: after.edges[start..i].to_vec() });
        }
        let extra = (before.extra != after.extra).then(|| after.extra.clone());
        if extra.is_none() && edits.iter().all(|e| e.remove == 0 && e.insert.is_empty()) {
            return None;
        }
        Some(RoutesDelta { edges: edits, extra })
    }
}
