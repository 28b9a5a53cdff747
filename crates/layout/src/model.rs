//! What a layout is asked: the graph, the spacing, and how it reports progress or is
//! cancelled.

use crate::geometry::Size;
use crate::route;

/// The graph to lay out: node `i` has size `sizes[i]`; edges are `(from, to)` node indices
/// (duplicates and out-of-range ends are ignored; a self-loop gets room over its node).
#[derive(Debug, Clone, Default)]
pub struct Graph {
    pub sizes: Vec<Size>,
    pub edges: Vec<(usize, usize)>,
    /// The size of each edge's label, by edge index (missing or `None`: no label).
    pub labels: Vec<Option<Size>>,
    /// The node the flow starts at: the walk that finds loops starts there, and it sits in the
    /// first layer.
    pub first: Option<usize>,
    /// The node the flow ends at: it sits in the last layer.
    pub last: Option<usize>,
}

impl Graph {
    /// A graph of `sizes` and `edges` without labels, start or end.
    pub fn new(sizes: Vec<Size>, edges: Vec<(usize, usize)>) -> Graph {
        Graph { sizes, edges, ..Graph::default() }
    }

    /// The label of edge `e`, if it has one.
    pub fn label(&self, e: usize) -> Option<Size> {
        self.labels.get(e).copied().flatten()
    }
}

/// Spacing. The defaults match the canvas (nodes 200 x 60).
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Vertical gap between nodes of one column.
    pub node_gap: f64,
    /// Vertical gap between edges passing through a column side by side.
    pub edge_gap: f64,
    /// The narrowest horizontal gap between columns (room for the edges' curves).
    pub layer_gap: f64,
    /// Room left and right of a label in the gap it sits in.
    pub label_pad: f64,
    /// Gap between connected components.
    pub component_gap: f64,
    /// The width / height of the box separate components are packed into.
    pub aspect: f64,
    /// A layer of more nodes than this is split into several columns side by side.
    pub tall_layer: usize,
    /// Barycenter sweeps (each sweep is one pass down and one pass up).
    pub sweeps: usize,
    /// How edges are routed (the layout reserves their room).
    pub route: route::RouteOptions,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            node_gap: 40.0,
            edge_gap: 16.0,
            layer_gap: 90.0,
            label_pad: 16.0,
            component_gap: 80.0,
            aspect: 1.6,
            tall_layer: 40,
            sweeps: 6,
            route: route::RouteOptions::default(),
        }
    }
}

/// Where the layout is, for a progress bar: stages in order, with a fraction within.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    Cycles,
    Layers,
    Order,
    Place,
    Route,
    Pack,
}

impl Stage {
    /// Overall progress in [0, 1] when this stage has done `part` of its work.
    pub fn overall(self, part: f64) -> f64 {
        // Rough shares of the run time measured at 100,000 nodes.
        let (start, share) = match self {
            Stage::Cycles => (0.0, 0.05),
            Stage::Layers => (0.05, 0.1),
            Stage::Order => (0.15, 0.5),
            Stage::Place => (0.65, 0.2),
            Stage::Route => (0.85, 0.13),
            Stage::Pack => (0.98, 0.02),
        };
        start + share * part.clamp(0.0, 1.0)
    }
}

/// The layout was cancelled by the progress callback.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cancelled;

impl std::fmt::Display for Cancelled {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the layout was cancelled")
    }
}

impl std::error::Error for Cancelled {}

/// Reports progress (the fraction of the whole run done, in [0, 1]) and asks whether to go
/// on: answers `false` to cancel.
pub type Progress<'a> = dyn FnMut(f64) -> bool + 'a;
