//! Automatic layout of a document's canvas with `trellis-layout`: what a document opened
//! without positions is drawn at (once, before the first view: on open, while the window
//! shows the open's progress), and what the "Auto layout" action computes. Node sizes are the canvas's (`ui/src/lib/geometry.ts`: nodes 200 x 60,
//! the `__start__` and `__end__` circles 44 across); both terminals are always laid out, as
//! the canvas always draws both.

use indexmap::IndexMap;
use std::collections::HashMap;

use trellis_layout::clusters::{layout_clustered, Clusters, Frame as ClusterFrame};
use trellis_layout::{Cancelled, Graph, Options};
use trellis_spec::{END, START};

use crate::canvas_sizes::{label_size, NODE, TERMINAL};
use crate::document::Document;
use crate::drawn_edges::DrawnEdges;
use crate::formats::view::display_spec;
use crate::layout::Layout;
use crate::session::Session;
use crate::Position;

/// The canvas graph of a document, ready to lay out: its ids (nodes, then both terminals)
/// and the graph in indices of those ids. Owned, so the layout can run without the session.
#[derive(Debug, Clone, Default)]
pub struct CanvasGraph {
    pub ids: Vec<String>,
    pub graph: Graph,
    /// The groups (`crate::annotations`): their members are laid out together.
    pub clusters: Clusters,
}

impl CanvasGraph {
    pub fn of(document: &Document) -> CanvasGraph {
        let projection;
        let spec = match document {
            Document::GraphSpec(s) => s,
            other => {
                projection = display_spec(other).unwrap_or_default();
                &projection
            }
        };
        let mut ids: Vec<String> = Vec::with_capacity(spec.nodes.len() + 2);
        let mut index: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
        for id in spec.nodes.iter().map(|n| n.id.as_str()).chain([START, END]) {
            // A duplicate id is reported by the validator; the first one is laid out.
            if !index.contains_key(id) {
                index.insert(id, ids.len());
                ids.push(id.to_owned());
            }
        }
        let sizes = ids.iter().map(|id| if id == START || id == END { TERMINAL } else { NODE }).collect();
        // The edges drawn for the reader only (entry, finish, exits, fallbacks) are laid out
        // with the rest, so the marks sit next to what they point at. Labels get room in the
        // gap after their edge's source, so none lies under a node.
        let drawn = DrawnEdges::of(document, spec);
        let labelled = spec
            .edges
            .iter()
            .zip(&drawn.labels)
            .map(|(e, l)| (e.from.as_str(), e.to.as_str(), l.as_ref().map(|l| label_size(&l.text))))
            .chain(drawn.extra.iter().map(|x| {
                (x.from.as_str(), x.to.as_str(), (!x.label.is_empty()).then(|| label_size(&x.label)))
            }));
        let mut graph = Graph { sizes, ..Graph::default() };
        for (a, b, label) in labelled {
            if let (Some(&a), Some(&b)) = (index.get(a), index.get(b)) {
                graph.edges.push((a, b));
                graph.labels.push(label);
            }
        }
        graph.first = index.get(START).copied();
        graph.last = index.get(END).copied();
        CanvasGraph { ids, graph, clusters: Clusters::default() }
    }

    /// The same, with the layout's groups as clusters: the automatic layout keeps each group's
    /// members together, in a box their frame is drawn around (nested groups nested).
    pub fn with_groups(mut self, layout: &Layout) -> CanvasGraph {
        if layout.groups.is_empty() {
            return self;
        }
        let index: HashMap<&str, usize> =
            layout.groups.iter().enumerate().map(|(i, g)| (g.id.as_str(), i)).collect();
        let parent =
            layout.groups.iter().map(|g| g.parent.as_deref().and_then(|p| index.get(p).copied())).collect();
        let mut of = vec![None; self.ids.len()];
        let node: HashMap<&str, usize> =
            self.ids.iter().enumerate().map(|(i, id)| (id.as_str(), i)).collect();
        for (k, g) in layout.groups.iter().enumerate() {
            for n in &g.nodes {
                if let Some(&i) = node.get(n.as_str()) {
                    of[i] = Some(k);
                }
            }
        }
        self.clusters = Clusters { of, parent };
        self
    }

    /// Positions by id; `progress` gets the fraction done and cancels by answering `false`.
    pub fn layout(
        &self,
        progress: &mut dyn FnMut(f64) -> bool,
    ) -> Result<IndexMap<String, Position>, Cancelled> {
        let points = layout_clustered(
            &self.graph,
            &self.clusters,
            &Options::default(),
            ClusterFrame::default(),
            progress,
        )?;
        Ok(self.ids.iter().zip(points).map(|(id, p)| (id.clone(), Position { x: p.x, y: p.y })).collect())
    }
}

impl Session {
    /// A document without a layout gets the automatic one before its first view, so it is
    /// drawn once, at its final place. Not an undo step and not dirty; `layout_missing` stays
    /// true so the next save writes the layout file. (A Weaveflow document keeps these
    /// positions beside it, as the automatic `apply_layout` did: the file is not changed.)
    ///
    /// A document whose nodes are all placed but whose terminals are not (a Weaveflow file
    /// keeps node positions only; an older layout file) gets its terminals placed beside their
    /// neighbours where no node is.
    pub fn lay_out_if_missing(&mut self) {
        self.lay_out_if_missing_with(&mut |_| true);
    }

    /// [`Session::lay_out_if_missing`] telling `progress` the fraction done (in [0, 1]); it
    /// answers whether to go on. Answers false when it was stopped: nothing is placed then.
    pub fn lay_out_if_missing_with(&mut self, progress: &mut dyn FnMut(f64) -> bool) -> bool {
        if self.document.node_ids().is_empty() {
            return true;
        }
        // A layout file that places both terminals leaves nothing to do: the canvas graph
        // (every id and edge, costly on a large document) is not built for nothing.
        let positions = &self.layout.positions;
        if !self.layout_missing && positions.contains_key(START) && positions.contains_key(END) {
            return true;
        }
        let canvas = CanvasGraph::of(&self.document).with_groups(&self.layout);
        if self.layout_missing {
            return match canvas.layout(progress) {
                Ok(positions) => {
                    self.layout.positions = positions;
                    true
                }
                Err(_) => false,
            };
        }
        place_terminals(&canvas, &mut self.layout.positions);
        true
    }
}

/// Puts each unplaced terminal left (`__start__`) or right (`__end__`) of the nodes it is
/// connected to, at their mean height, then moves it down until it overlaps no box.
fn place_terminals(canvas: &CanvasGraph, positions: &mut IndexMap<String, Position>) {
    let placed: Vec<(f64, f64, f64, f64)> = canvas
        .ids
        .iter()
        .zip(&canvas.graph.sizes)
        .filter_map(|(id, s)| positions.get(id).map(|p| (p.x, p.y, s.w, s.h)))
        .collect();
    if placed.is_empty() {
        return;
    }
    let min_x = placed.iter().map(|b| b.0).fold(f64::INFINITY, f64::min);
    let max_x = placed.iter().map(|b| b.0 + b.2).fold(f64::NEG_INFINITY, f64::max);
    let min_y = placed.iter().map(|b| b.1).fold(f64::INFINITY, f64::min);
    for (t, start) in [(START, true), (END, false)] {
        if positions.contains_key(t) {
            continue;
        }
        let Some(ti) = canvas.ids.iter().position(|i| i == t) else { continue };
        let neighbours: Vec<&Position> = canvas
            .graph
            .edges
            .iter()
            .filter_map(|&(a, b)| {
                if a == ti {
                    Some(b)
                } else if b == ti {
                    Some(a)
                } else {
                    None
                }
            })
            .filter_map(|i| positions.get(&canvas.ids[i]))
            .collect();
        let (x, mut y) = if neighbours.is_empty() {
            (if start { min_x - 120.0 } else { max_x + 76.0 }, min_y)
        } else {
            let y = neighbours.iter().map(|p| p.y).sum::<f64>() / neighbours.len() as f64
                + (NODE.h - TERMINAL.h) / 2.0;
            let x = if start {
                neighbours.iter().map(|p| p.x).fold(f64::INFINITY, f64::min) - 120.0
            } else {
                neighbours.iter().map(|p| p.x + NODE.w).fold(f64::NEG_INFINITY, f64::max) + 76.0
            };
            (x, y)
        };
        let clear = 16.0;
        let hits = |y: f64, boxes: &[(f64, f64, f64, f64)]| {
            boxes
                .iter()
                .find(|b| {
                    x < b.0 + b.2 + clear
                        && b.0 < x + TERMINAL.w + clear
                        && y < b.1 + b.3 + clear
                        && b.1 < y + TERMINAL.h + clear
                })
                .map(|b| b.1 + b.3 + clear)
        };
        let mut boxes = placed.clone();
        for (id, s) in [(START, TERMINAL), (END, TERMINAL)] {
            if let Some(p) = positions.get(id) {
                boxes.push((p.x, p.y, s.w, s.h));
            }
        }
        // Each step moves below the box in the way: ends after at most one step per box.
        for _ in 0..=boxes.len() {
            match hits(y, &boxes) {
                Some(below) => y = below,
                None => break,
            }
        }
        positions.insert(t.to_owned(), Position { x: x.round(), y: y.round() });
    }
}
