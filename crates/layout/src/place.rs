//! Coordinates. Each layer is a column, left to right; the gap after a column is wide enough
//! for the labels that sit in it (a label sits in the gap after its edge's source, so it
//! never lies under a node). Within a column every node and bend point keeps the order the
//! sweeps chose and sits as near the mean height of its neighbours as the gaps allow: a few
//! sweeps right and left, each column solved exactly by pool-adjacent-violators (the least
//! squares positions in that order, gaps kept). Bend points weigh most, so an edge that
//! passes several columns runs straight, and chains of nodes (lanes) line up.

use crate::geometry::Point;
use crate::layering::Dag;
use crate::model::{Graph, Options};
use crate::pool::pool_adjacent;
use crate::proper::Proper;

/// Rounds of sweeps (one right, one left each).
const ROUNDS: usize = 8;

/// Top-left positions of the graph's nodes.
pub(crate) fn place(
    graph: &Graph,
    dag: &Dag,
    p: &Proper,
    layers: &[Vec<usize>],
    layer: &[usize],
    o: &Options,
) -> Vec<Point> {
    let n = graph.sizes.len();
    let items = p.layer.len();
    // Room over a node for its loops and their labels.
    let mut loop_room = vec![0.0f64; n];
    for (e, &(a, b)) in graph.edges.iter().enumerate() {
        if a == b && a < n {
            let label = graph.label(e).map_or(0.0, |s| s.h);
            loop_room[a] = loop_room[a].max(o.route.loop_rise + label / 2.0 + o.edge_gap / 2.0);
        }
    }
    // Extent of each item above and below its anchor (the middle of a node: where its edges
    // attach).
    let above: Vec<f64> =
        (0..items).map(|v| if v < n { graph.sizes[v].h / 2.0 + loop_room[v] } else { 0.0 }).collect();
    let below: Vec<f64> = (0..items).map(|v| if v < n { graph.sizes[v].h / 2.0 } else { 0.0 }).collect();
    let gap = |a: usize, b: usize| match (p.is_dummy(a), p.is_dummy(b)) {
        (false, false) => o.node_gap,
        (true, true) => o.edge_gap,
        _ => (o.node_gap + o.edge_gap) / 2.0,
    };
    let sep = |a: usize, b: usize| below[a] + above[b] + gap(a, b);

    // First: every column stacked tightly, its middle at 0.
    let mut y = vec![0.0f64; items];
    for layer in layers {
        let mut at = 0.0;
        for (i, &v) in layer.iter().enumerate() {
            if i > 0 {
                at += sep(layer[i - 1], v);
            }
            y[v] = at;
        }
        for &v in layer {
            y[v] -= at / 2.0;
        }
    }
    let linked = links(p);
    let weight = |a: usize, b: usize| {
        if linked[b] == Some(a) || linked[a] == Some(b) {
            64.0
        } else if p.is_dummy(a) || p.is_dummy(b) {
            2.0
        } else {
            1.0
        }
    };
    let mut desired = Vec::new();
    let mut weights = Vec::new();
    let mut seps = Vec::new();
    let mut solved = Vec::new();
    let depth = layers.len();
    for round in 0..=ROUNDS {
        // The last round looks both ways, so a node between two others sits between them.
        let passes: &[(bool, bool)] =
            if round == ROUNDS { &[(true, true)] } else { &[(true, false), (false, true)] };
        for &(left, right) in passes {
            let order: Vec<usize> =
                if right && !left { (0..depth).rev().collect() } else { (0..depth).collect() };
            for l in order {
                let col = &layers[l];
                desired.clear();
                weights.clear();
                seps.clear();
                for (i, &v) in col.iter().enumerate() {
                    if i > 0 {
                        seps.push(sep(col[i - 1], v));
                    }
                    let (mut sum, mut total) = (0.0, 0.0);
                    let neighbours = left.then(|| p.pred.of(v)).into_iter().flatten();
                    let neighbours = neighbours.chain(right.then(|| p.succ.of(v)).into_iter().flatten());
                    for u in neighbours {
                        let w = weight(u, v);
                        sum += w * y[u];
                        total += w;
                    }
                    if total > 0.0 {
                        desired.push(sum / total);
                        weights.push(total);
                    } else {
                        // Nothing to follow: stay, but give way easily.
                        desired.push(y[v]);
                        weights.push(0.25);
                    }
                }
                pool_adjacent(&desired, &weights, &seps, &mut solved);
                for (&v, &at) in col.iter().zip(&solved) {
                    y[v] = at;
                }
            }
        }
    }

    straighten(layers, &linked, &mut y, &sep);

    // Columns left to right, each gap as wide as the widest label in it.
    let mut width = vec![0.0f64; depth];
    let mut need = vec![o.layer_gap; depth];
    for v in 0..n {
        width[layer[v]] = width[layer[v]].max(graph.sizes[v].w);
    }
    for (e, &(a, b)) in graph.edges.iter().enumerate() {
        let Some(label) = graph.label(e) else { continue };
        if a >= n || b >= n || a == b || dag.back[e] {
            continue;
        }
        let span = layer[b].saturating_sub(layer[a]);
        if (1..=o.route.long_span).contains(&span) {
            need[layer[a]] = need[layer[a]].max(label.w + 2.0 * o.label_pad);
        }
    }
    let mut column_x = vec![0.0f64; depth];
    for l in 1..depth {
        column_x[l] = column_x[l - 1] + width[l - 1] + need[l - 1];
    }
    let top = (0..n).map(|v| y[v] - above[v]).fold(f64::INFINITY, f64::min);
    let top = if top.is_finite() { top } else { 0.0 };
    (0..n)
        .map(|v| {
            let s = graph.sizes[v];
            let l = layer[v];
            Point { x: column_x[l] + (width[l] - s.w) / 2.0, y: y[v] - s.h / 2.0 - top }
        })
        .collect()
}

/// Which item each item is lined up with in the layer before (its chain): a bend point with the
/// bend point before it (an edge crossing columns runs straight), and a node with a node when
/// each is the other's only node neighbour on that side (a lane: edges leaving or joining it
/// from further away do not break it). A split, a join or a fan-out is lined up with none.
fn links(p: &Proper) -> Vec<Option<usize>> {
    let items = p.layer.len();
    let real = |it: &mut dyn Iterator<Item = usize>| it.filter(|&u| !p.is_dummy(u)).count();
    (0..items)
        .map(|v| {
            if p.is_dummy(v) {
                return p.pred.of(v).next().filter(|&u| p.is_dummy(u));
            }
            let mut preds = p.pred.of(v).filter(|&u| !p.is_dummy(u));
            let u = preds.next()?;
            (preds.next().is_none() && real(&mut p.succ.of(u)) == 1).then_some(u)
        })
        .collect()
}

/// Puts every chain of lined-up items (`links`) on one line, at its mean height, where that
/// keeps every gap in every column it crosses; longest chains first.
fn straighten(
    layers: &[Vec<usize>],
    linked: &[Option<usize>],
    y: &mut [f64],
    sep: &dyn Fn(usize, usize) -> f64,
) {
    let items = y.len();
    let mut next: Vec<Option<usize>> = vec![None; items];
    for (v, &u) in linked.iter().enumerate() {
        if let Some(u) = u {
            next[u] = Some(v);
        }
    }
    let mut chains: Vec<Vec<usize>> = (0..items)
        .filter(|&v| linked[v].is_none() && next[v].is_some())
        .map(|root| {
            let mut chain = vec![root];
            while let Some(v) = next[*chain.last().unwrap_or(&root)] {
                chain.push(v);
            }
            chain
        })
        .collect();
    chains.sort_by_key(|c| std::cmp::Reverse(c.len()));
    // Each item's neighbours in its column.
    let mut above = vec![None; items];
    let mut below = vec![None; items];
    for layer in layers {
        for w in layer.windows(2) {
            below[w[0]] = Some(w[1]);
            above[w[1]] = Some(w[0]);
        }
    }
    for chain in chains {
        let fits = |line: f64, y: &[f64]| {
            chain.iter().all(|&v| {
                above[v].is_none_or(|a| y[a] + sep(a, v) <= line + 1e-6)
                    && below[v].is_none_or(|b| line + sep(v, b) <= y[b] + 1e-6)
            })
        };
        // The mean height, else the height of one of its items nearest the mean.
        let mean = chain.iter().map(|&v| y[v]).sum::<f64>() / chain.len() as f64;
        let mut heights: Vec<f64> = chain.iter().map(|&v| y[v]).collect();
        heights.sort_by(|a, b| (a - mean).abs().total_cmp(&(b - mean).abs()));
        if let Some(line) = std::iter::once(mean).chain(heights).find(|&line| fits(line, y)) {
            for &v in &chain {
                y[v] = line;
            }
        }
    }
}
