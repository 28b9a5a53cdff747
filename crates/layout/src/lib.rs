//! Automatic layout of Trellis graphs: left to right in layers, drawn as a person would draw a
//! flow, and the routes its edges take.
//!
//! A layered (Sugiyama) layout in the usual stages, each near linear so 100,000 nodes take
//! seconds:
//! 1. split into connected components ([`components`]);
//! 2. break cycles the way a reader expects: a depth-first walk from the start, in document
//!    order, whose edges back to the walk's path are the loops ([`cycles`]);
//! 3. layers by longest path, the start in the first layer and the end in the last; a layer
//!    too tall to read is split into several columns ([`layering`]);
//! 4. edges spanning several layers get a bend point in each layer they cross, so they are
//!    ordered and placed like nodes and pass between nodes, not over them ([`proper`]);
//! 5. order within layers: barycenter sweeps with adjacent swaps, the order with the fewest
//!    crossings kept ([`order`]);
//! 6. place: each layer is a column, with a gap after it wide enough for the labels in it; in
//!    a column, every node and bend point as near its neighbours as the order allows, bend
//!    points weighing most so long edges and lanes run straight ([`place`]);
//! 7. pack the components' boxes into shelves ([`pack`]).
//!
//! Nothing wraps: a flow reads left to right however long it is; only a layer of many nodes
//! (a fan-out) is split into columns, and separate components are packed side by side.
//!
//! [`route`] works out, from positions alone, how each edge is drawn (a curve into the next
//! column, a path between the nodes of the columns it crosses, a lane around the columns for
//! a loop back, a loop over its node) and where its label sits: the layout reserves the room
//! these take, and the canvas and the picture export draw them. [`clusters`] keeps groups of
//! nodes together. [`quality`] measures a drawing (overlaps, crossings, edges pointing back,
//! labels under nodes) for tests and benchmarks. The crate is pure: sizes and edges in,
//! positions and routes out.

pub mod clusters;
mod components;
mod cycles;
mod layering;
mod order;
mod pack;
mod place;
mod proper;
pub mod quality;
pub mod route;

/// A node's (or a label's) box size in canvas pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Size {
    pub w: f64,
    pub h: f64,
}

/// A node's top-left corner (or a point of a route) in canvas pixels.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Point {
    pub x: f64,
    pub y: f64,
}

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

/// Which edges are loops (drawn back, right to left): the edge of each cycle that returns to
/// the path a walk from the start took, in document order ([`cycles`]). An acyclic graph has
/// none; the layout points every other edge right.
pub fn loops(graph: &Graph) -> Vec<bool> {
    cycles::back_edges(graph.sizes.len(), &graph.edges, graph.first)
}

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
    let comps = components::split(graph);
    let total: f64 = comps.iter().map(|c| c.graph.sizes.len() as f64).sum::<f64>().max(1.0);
    let mut blocks = Vec::with_capacity(comps.len());
    let mut done = 0.0;
    for comp in &comps {
        let share = comp.graph.sizes.len() as f64 / total;
        let mut sub = |stage: Stage, part: f64| progress(done + share * stage.overall(part));
        blocks.push(lay_component(&comp.graph, options, &mut sub)?);
        done += share;
    }
    check(&mut |s, p| progress(Stage::overall(s, p)), Stage::Pack, 0.0)?;
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
/// `size` whose top-left is the origin; the box holds the edges' routes and labels too.
pub(crate) struct Block {
    positions: Vec<Point>,
    size: Size,
}

fn lay_component(
    graph: &Graph,
    options: &Options,
    progress: &mut dyn FnMut(Stage, f64) -> bool,
) -> Result<Block, Cancelled> {
    let n = graph.sizes.len();
    check(progress, Stage::Cycles, 0.0)?;
    let back = cycles::back_edges(n, &graph.edges, graph.first);
    check(progress, Stage::Layers, 0.0)?;
    let dag = layering::Dag::new(n, &graph.edges, &back);
    let (layer, split) = layering::assign(&dag, graph.first, graph.last, options.tall_layer);
    check(progress, Stage::Layers, 0.5)?;
    let proper =
        proper::Proper::new(n, &graph.edges, &dag.back, &layer, &split, graph.first, options.route.long_span);
    check(progress, Stage::Order, 0.0)?;
    let layers =
        order::minimise_crossings(&proper, options.sweeps, &mut |part| progress(Stage::Order, part))?;
    check(progress, Stage::Place, 0.0)?;
    let positions = place::place(graph, &dag, &proper, &layers, &layer, options);
    check(progress, Stage::Route, 0.0)?;
    // The routes take room too (lanes under the columns, loops over their node): the box holds
    // them, so a component packed next to this one stays clear of them.
    let routes = route::routes(&positions, &graph.sizes, &graph.edges, &graph.labels, &options.route);
    let drawn = route::extent(&positions, &graph.sizes, &graph.edges, &graph.labels, &routes);
    let (x0, y0, w, h) = drawn.unwrap_or((0.0, 0.0, 0.0, 0.0));
    let positions = positions.iter().map(|p| Point { x: p.x - x0, y: p.y - y0 }).collect();
    Ok(Block { positions, size: Size { w, h } })
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
