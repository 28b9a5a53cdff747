//! Automatic layout of Trellis graphs, left to right, in linear-ish time.
//!
//! A layered (Sugiyama-style) layout in the usual stages, each chosen to stay near linear so
//! 100,000 nodes take seconds, not minutes (elkjs took four minutes and 8 GB at 10,000):
//! 1. split into connected components ([`components`]);
//! 2. break cycles with petgraph's greedy feedback arc set (Eades, Lin, Smyth), then assign
//!    layers by longest path ([`layering`]);
//! 3. order each layer by barycenters of the neighbours in earlier and later layers, a few
//!    sweeps ([`order`]);
//! 4. place: a layer becomes a column; columns longer than the chosen row count wrap into
//!    several columns, and the sequence of columns wraps into bands, both chosen so that the
//!    component fits the smallest 16:10 box; nodes sit near their neighbours within their
//!    column ([`place`]);
//! 5. pack the components' boxes into shelves, again for the smallest 16:10 box ([`pack`]).
//!
//! [`clusters`] keeps groups of nodes together: each group is laid out inside a box that is
//! laid out with the rest as one node.
//!
//! The crate is pure: sizes and edges in, top-left positions out. [`quality`] measures a
//! result (overlaps, aspect ratio, crossings, edge length) for tests and benchmarks.

pub mod clusters;
mod components;
mod layering;
mod order;
mod pack;
mod place;
pub mod quality;

/// A node's box size in canvas pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Size {
    pub w: f64,
    pub h: f64,
}

/// A node's top-left corner in canvas pixels.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Point {
    pub x: f64,
    pub y: f64,
}

/// The graph to lay out: node `i` has size `sizes[i]`; edges are `(from, to)` node indices
/// (self-loops, duplicates and out-of-range ends are ignored).
#[derive(Debug, Clone, Default)]
pub struct Graph {
    pub sizes: Vec<Size>,
    pub edges: Vec<(usize, usize)>,
}

/// Spacing and shape. The defaults match the canvas (nodes 200 x 60).
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Vertical gap between nodes of one column.
    pub node_gap: f64,
    /// Horizontal gap between columns (room for edges and their labels).
    pub layer_gap: f64,
    /// Vertical gap between bands when a long graph wraps.
    pub band_gap: f64,
    /// Gap between connected components.
    pub component_gap: f64,
    /// The width / height of the box the whole graph should fit (16:10).
    pub aspect: f64,
    /// No wrapping while the unwrapped graph fits a box of the wanted aspect this tall: a
    /// small graph reads best as one left-to-right flow, and Fit shows it readably anyway.
    pub wrap_above: f64,
    /// Barycenter sweeps (each sweep is one pass down and one pass up).
    pub sweeps: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            node_gap: 40.0,
            layer_gap: 90.0,
            band_gap: 120.0,
            component_gap: 80.0,
            aspect: 1.6,
            wrap_above: 1200.0,
            sweeps: 4,
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
    Pack,
}

impl Stage {
    /// Overall progress in [0, 1] when this stage has done `part` of its work.
    pub fn overall(self, part: f64) -> f64 {
        // Rough shares of the run time measured at 10,000 nodes.
        let (start, share) = match self {
            Stage::Cycles => (0.0, 0.25),
            Stage::Layers => (0.25, 0.1),
            Stage::Order => (0.35, 0.4),
            Stage::Place => (0.75, 0.2),
            Stage::Pack => (0.95, 0.05),
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

/// Lays the graph out with the default options and no progress reporting.
pub fn layout(graph: &Graph) -> Vec<Point> {
    // Without a callback that can cancel, there is nothing to cancel.
    layout_with(graph, &Options::default(), &mut |_| true).unwrap_or_default()
}

/// Lays the graph out; `progress` is called between steps and cancels by answering `false`.
pub fn layout_with(
    graph: &Graph,
    options: &Options,
    progress: &mut Progress<'_>,
) -> Result<Vec<Point>, Cancelled> {
    let n = graph.sizes.len();
    let edges: Vec<(usize, usize)> =
        graph.edges.iter().copied().filter(|&(a, b)| a != b && a < n && b < n).collect();
    let comps = components::split(n, &edges);
    let total = comps.len().max(1) as f64;
    let mut blocks = Vec::with_capacity(comps.len());
    for (k, comp) in comps.iter().enumerate() {
        let mut sub = |stage: Stage, part: f64| progress((k as f64 + stage.overall(part)) / total);
        let block = lay_component(graph, comp, options, &mut sub)?;
        blocks.push(block);
    }
    let offsets = pack::shelves(&blocks.iter().map(|b| b.size).collect::<Vec<_>>(), options);
    let mut out = vec![Point::default(); n];
    for ((comp, block), off) in comps.iter().zip(&blocks).zip(offsets) {
        for (local, &node) in comp.nodes.iter().enumerate() {
            let p = block.positions[local];
            out[node] = Point { x: (p.x + off.x).round(), y: (p.y + off.y).round() };
        }
    }
    if !progress(1.0) {
        return Err(Cancelled);
    }
    Ok(out)
}

/// A laid out component: positions of its nodes (in the component's order) within a box of
/// `size` whose top-left is the origin.
pub(crate) struct Block {
    positions: Vec<Point>,
    size: Size,
}

fn lay_component(
    graph: &Graph,
    comp: &components::Component,
    options: &Options,
    progress: &mut dyn FnMut(Stage, f64) -> bool,
) -> Result<Block, Cancelled> {
    let sizes: Vec<Size> = comp.nodes.iter().map(|&i| graph.sizes[i]).collect();
    check(progress, Stage::Cycles, 0.0)?;
    let dag = layering::acyclic(sizes.len(), &comp.edges);
    check(progress, Stage::Layers, 0.0)?;
    let layers = layering::longest_path(sizes.len(), &dag);
    check(progress, Stage::Order, 0.0)?;
    let ordered = order::barycenter(&layers, &dag, options.sweeps, &mut |part| progress(Stage::Order, part))?;
    check(progress, Stage::Place, 0.0)?;
    let (positions, size) = place::columns(&ordered, &sizes, &dag, options);
    Ok(Block { positions, size })
}

fn check(progress: &mut dyn FnMut(Stage, f64) -> bool, stage: Stage, part: f64) -> Result<(), Cancelled> {
    if progress(stage, part) {
        Ok(())
    } else {
        Err(Cancelled)
    }
}

#[cfg(test)]
mod tests;
