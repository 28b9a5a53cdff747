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

#![forbid(unsafe_code)]

pub mod clusters;
mod components;
mod cycles;
mod geometry;
mod layering;
mod model;
mod order;
mod pack;
mod place;
mod pool;
mod proper;
pub mod quality;
pub mod route;

pub use geometry::{Point, Size};
pub use model::{Cancelled, Graph, Options, Progress, Stage};

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
