//! The layered graph the ordering and the placement work on: the nodes, plus a bend point
//! (a "dummy") in every layer a forward edge crosses, so every edge joins adjacent layers.
//! Bend points are ordered and placed like nodes: the room they get is where their edge
//! passes between the nodes of that column ([`crate::route`] finds it there).
//!
//! Edges drawn back (loops) and forward edges longer than the router takes between columns
//! get no bend points: they are routed around the columns, on lanes of their own.

use crate::layering::Adjacency;

pub(crate) struct Proper {
    /// Items `0..n` are the nodes, `n..` the bend points.
    pub(crate) n: usize,
    /// The layer of every item.
    pub(crate) layer: Vec<u32>,
    /// Successors and predecessors of every item (always in the next and previous layer).
    pub(crate) succ: Adjacency,
    pub(crate) pred: Adjacency,
    /// The layers, each in a first order: the order a depth-first walk from the start meets
    /// the items, which already draws a tree without crossings.
    pub(crate) layers: Vec<Vec<usize>>,
}

impl Proper {
    /// `back` marks the edges drawn back; `long_span`: forward edges spanning more layers are
    /// routed around (no bend points). `split`: per layer, the layer it was split from
    /// (`layering::assign`): an edge into or out of a split layer's columns gets no bend points
    /// in that layer's other columns (a fan-out of 2,000 would fill them with its edges).
    pub(crate) fn new(
        n: usize,
        edges: &[(usize, usize)],
        back: &[bool],
        layer: &[usize],
        split: &[usize],
        first: Option<usize>,
        long_span: usize,
    ) -> Proper {
        let mut pairs: Vec<(usize, usize)> = Vec::with_capacity(edges.len());
        for (&(a, b), &is_back) in edges.iter().zip(back) {
            if a >= n || b >= n || a == b {
                continue;
            }
            let (u, v) = if is_back { (b, a) } else { (a, b) };
            let span = layer[v].saturating_sub(layer[u]);
            // A loop back between adjacent layers still pulls its ends together; a longer one
            // is drawn around and does not take part.
            let through_split =
                (layer[u] + 1..layer[v]).any(|l| split[l] == split[layer[u]] || split[l] == split[layer[v]]);
            if span == 1 || (!is_back && span <= long_span && !through_split) {
                pairs.push((u, v));
            }
        }
        pairs.sort_unstable();
        pairs.dedup();
        let mut item_layer: Vec<u32> = layer.iter().map(|&l| l as u32).collect();
        let mut links: Vec<(usize, usize)> = Vec::with_capacity(pairs.len());
        for (u, v) in pairs {
            let mut prev = u;
            for l in layer[u] + 1..layer[v] {
                let d = item_layer.len();
                item_layer.push(l as u32);
                links.push((prev, d));
                prev = d;
            }
            links.push((prev, v));
        }
        let items = item_layer.len();
        let flipped: Vec<(usize, usize)> = links.iter().map(|&(a, b)| (b, a)).collect();
        let succ = Adjacency::new(items, &links);
        let pred = Adjacency::new(items, &flipped);
        let layers = first_order(items, &item_layer, &succ, &pred, first);
        Proper { n, layer: item_layer, succ, pred, layers }
    }

    pub(crate) fn is_dummy(&self, item: usize) -> bool {
        item >= self.n
    }
}

/// Layers in the order a depth-first walk meets their items: from the start, then from every
/// other item without predecessors, then from the rest, successors in their order.
fn first_order(
    items: usize,
    layer: &[u32],
    succ: &Adjacency,
    pred: &Adjacency,
    first: Option<usize>,
) -> Vec<Vec<usize>> {
    let depth = layer.iter().copied().max().map_or(0, |m| m as usize + 1);
    let mut layers: Vec<Vec<usize>> = vec![Vec::new(); depth];
    let mut seen = vec![false; items];
    let mut stack: Vec<usize> = Vec::new();
    let roots = first
        .filter(|&f| f < items)
        .into_iter()
        .chain((0..items).filter(|&v| pred.degree(v) == 0))
        .chain(0..items);
    for root in roots {
        if seen[root] {
            continue;
        }
        stack.push(root);
        while let Some(v) = stack.pop() {
            if seen[v] {
                continue;
            }
            seen[v] = true;
            layers[layer[v] as usize].push(v);
            // Reversed, so the first successor is walked first.
            let next: Vec<usize> = succ.of(v).filter(|&w| !seen[w]).collect();
            stack.extend(next.into_iter().rev());
        }
    }
    layers
}
