//! How each edge is drawn, worked out from positions alone, so a layout file written by hand,
//! nodes moved by the user and the automatic layout are all drawn the same way; the canvas,
//! the picture export and the quality measures take the routes from here.
//!
//! The drawing is read as columns ([`columns`]): nodes whose boxes overlap horizontally. An
//! edge
//! - into the next column is a curve ([`RouteKind::Direct`]);
//! - into a column further right passes between the nodes of each column it crosses, at the
//!   free place nearest its way ([`RouteKind::Through`]; the automatic layout leaves such a
//!   place for it), or, past [`RouteOptions::long_span`] columns, runs along a lane;
//! - back to a column on the left (a loop) leaves its source to the right, runs along a lane
//!   under (or over) every column between, and comes into its target from the left
//!   ([`RouteKind::Around`], [`lanes`]): around the forward edges, never over them;
//! - from a node to itself loops over it ([`RouteKind::Loop`]).
//!
//! A label sits in the gap after its edge's source, where no node is (labels in one gap are
//! spread so none covers another, and the edge passes through its label), on its lane, or over
//! its loop. [`draw`] says how a route is drawn.

mod columns;
pub mod draw;
mod lanes;

use std::collections::HashMap;

use crate::geometry::{Point, Size};
use columns::Columns;
use lanes::MaxTree;

/// How an edge is drawn (see the module comment and [`draw`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RouteKind {
    Direct,
    Through,
    Around,
    Loop,
}

/// An edge's route: the points it passes between its source's anchor (the middle of the
/// right side) and its target's (the middle of the left side), and where its label's middle
/// is.
#[derive(Debug, Clone, PartialEq)]
pub struct Route {
    pub kind: RouteKind,
    pub points: Vec<Point>,
    pub label: Option<Point>,
}

impl Route {
    /// A curve straight from anchor to anchor, nothing on it.
    pub fn direct() -> Route {
        Route { kind: RouteKind::Direct, points: Vec::new(), label: None }
    }
}

/// Clearances of the routes.
#[derive(Debug, Clone, Copy)]
pub struct RouteOptions {
    /// A forward edge crossing more columns than this runs along a lane instead of between
    /// the nodes of every column.
    pub long_span: usize,
    /// Room kept between an edge passing a column and the nodes there.
    pub node_clear: f64,
    /// Room between edges side by side (passing a column, or on lanes).
    pub edge_gap: f64,
    /// Room between the nodes of a column and the first lane under (or over) it.
    pub lane_gap: f64,
    /// How far right of its column a lane's edge turns down (or up), and left of its target's
    /// column it turns back; each further edge turning in one gap turns `stub_step` further.
    pub stub: f64,
    pub stub_step: f64,
    /// How high a loop rises over its node.
    pub loop_rise: f64,
    /// Room between labels in one gap.
    pub label_gap: f64,
}

impl Default for RouteOptions {
    fn default() -> Self {
        RouteOptions {
            long_span: 40,
            node_clear: 10.0,
            edge_gap: 12.0,
            lane_gap: 24.0,
            stub: 16.0,
            stub_step: 8.0,
            loop_rise: 24.0,
            label_gap: 6.0,
        }
    }
}

/// The anchors of an edge from `a` to `b`: the middle of `a`'s right side, of `b`'s left side.
pub fn anchors(pos: &[Point], sizes: &[Size], a: usize, b: usize) -> (Point, Point) {
    let (pa, sa, pb, sb) = (pos[a], sizes[a], pos[b], sizes[b]);
    (Point { x: pa.x + sa.w, y: pa.y + sa.h / 2.0 }, Point { x: pb.x, y: pb.y + sb.h / 2.0 })
}

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Side {
    Below,
    Above,
}

/// The route of every edge (same index). An edge with an end out of range or without a
/// finite position gets a plain [`Route::direct`].
pub fn routes(
    pos: &[Point],
    sizes: &[Size],
    edges: &[(usize, usize)],
    labels: &[Option<Size>],
    o: &RouteOptions,
) -> Vec<Route> {
    let label = |e: usize| labels.get(e).copied().flatten();
    let n = pos.len().min(sizes.len());
    let mut parts = petgraph::unionfind::UnionFind::<usize>::new(n);
    for &(a, b) in edges {
        if a < n && b < n {
            parts.union(a, b);
        }
    }
    let mut cols = Columns::new(pos, sizes, &parts.into_labeling(), o.node_clear);
    let mut out = vec![Route::direct(); edges.len()];
    let (mut through, mut around, mut loops, mut direct) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for (e, &(a, b)) in edges.iter().enumerate() {
        let (Some(ca), Some(cb)) = (cols.col(a), cols.col(b)) else { continue };
        if a == b {
            loops.push(e);
        } else if cb == ca + 1 {
            if label(e).is_some() {
                direct.push(e);
            }
        } else if cb > ca + 1 && cb - ca <= o.long_span {
            through.push((cb - ca, e));
        } else if cb != ca {
            around.push(e);
        }
        // In one column (a drawing made by hand, top to bottom): a plain curve.
    }

    // Between the columns, shortest first: they keep nearest their nodes.
    through.sort_unstable();
    let half = o.edge_gap / 2.0;
    for &(_, e) in &through {
        let (a, b) = edges[e];
        let (s, t) = anchors(pos, sizes, a, b);
        let (ca, cb) = (cols.of[a] as usize, cols.of[b] as usize);
        let mut y = s.y;
        let mut points = Vec::with_capacity(2 * (cb - ca - 1));
        for c in ca + 1..cb {
            let want = y + (t.y - y) / (cb - c) as f64;
            let col = &mut cols.cols[c];
            y = col.nearest_free(want, half, t.y);
            col.take(y - half, y + half);
            points.push(Point { x: col.left, y });
            points.push(Point { x: col.right, y });
        }
        out[e] = Route { kind: RouteKind::Through, points, label: None };
    }

    lanes_around(pos, sizes, edges, labels, o, &cols, &around, &mut out);
    loops_over(pos, sizes, edges, labels, o, &loops, &mut out);

    // Labels in the gap after their source's column, spread so none covers another; the
    // edge passes through its label.
    let mut in_gap: Vec<(usize, f64, usize, f64)> = Vec::new();
    for &e in direct.iter().chain(through.iter().map(|(_, e)| e)) {
        let Some(size) = label(e) else { continue };
        let (a, b) = edges[e];
        let (s, t) = anchors(pos, sizes, a, b);
        let next = out[e].points.first().copied().unwrap_or(t);
        in_gap.push((cols.of[a] as usize, (s.y + next.y) / 2.0, e, size.h));
    }
    in_gap.sort_by(|x, y| x.0.cmp(&y.0).then(x.1.total_cmp(&y.1)).then(x.2.cmp(&y.2)));
    let mut at = 0;
    while at < in_gap.len() {
        let gap = in_gap[at].0;
        let end = at + in_gap[at..].iter().take_while(|x| x.0 == gap).count();
        let group = &in_gap[at..end];
        let x = (cols.cols[gap].right + cols.cols[gap + 1].left) / 2.0;
        let desired: Vec<f64> = group.iter().map(|g| g.1).collect();
        let seps: Vec<f64> = group.windows(2).map(|w| (w[0].3 + w[1].3) / 2.0 + o.label_gap).collect();
        let mut ys = Vec::new();
        crate::pool::pool_adjacent(&desired, &vec![1.0; group.len()], &seps, &mut ys);
        for (g, y) in group.iter().zip(ys) {
            let p = Point { x, y };
            let r = &mut out[g.2];
            r.points.insert(0, p);
            r.label = Some(p);
        }
        at = end;
    }
    out
}

/// The edges sharing a lane: into one node (its index), on one side of the columns, in one
/// direction (true: left to right).
type LaneKey = (usize, Side, bool);
/// A lane's first and last column and its edges.
type Lane = (usize, usize, Vec<usize>);

/// Lanes for the edges going around the columns (see [`lanes`]).
#[allow(clippy::too_many_arguments)]
fn lanes_around(
    pos: &[Point],
    sizes: &[Size],
    edges: &[(usize, usize)],
    labels: &[Option<Size>],
    o: &RouteOptions,
    cols: &Columns,
    around: &[usize],
    out: &mut [Route],
) {
    if around.is_empty() {
        return;
    }
    let spans: Vec<Option<(f64, f64)>> = cols.cols.iter().map(|c| c.span()).collect();
    let bottoms: Vec<f64> = spans.iter().map(|s| s.map_or(f64::NEG_INFINITY, |s| s.1)).collect();
    let tops: Vec<f64> = spans.iter().map(|s| s.map_or(f64::NEG_INFINITY, |s| -s.0)).collect();
    let mut below = MaxTree::new(&bottoms);
    let mut above = MaxTree::new(&tops);
    // Each edge takes the side of the columns it spans that its ends are nearer; edges into
    // one node on one side, in one direction, share a lane.
    let mut groups: HashMap<LaneKey, Lane> = HashMap::new();
    for &e in around {
        let (a, b) = edges[e];
        let (ca, cb) = (cols.of[a] as usize, cols.of[b] as usize);
        let (lo, hi) = (ca.min(cb), ca.max(cb));
        let (s, t) = anchors(pos, sizes, a, b);
        let middle = (below.query(lo, hi) - above.query(lo, hi)) / 2.0;
        let side = if (s.y + t.y) / 2.0 < middle { Side::Above } else { Side::Below };
        let g = groups.entry((b, side, cb > ca)).or_insert((lo, hi, Vec::new()));
        g.0 = g.0.min(lo);
        g.1 = g.1.max(hi);
        g.2.push(e);
    }
    let mut order: Vec<(LaneKey, Lane)> = groups.into_iter().collect();
    order.sort_by_key(|((b, side, fwd), (lo, hi, _))| (hi - lo, *b, *side == Side::Above, *fwd));
    let mut stubs: HashMap<(usize, Side, bool), usize> = HashMap::new();
    let mut stub = |col: usize, side: Side, out_of: bool| {
        let k = stubs.entry((col, side, out_of)).or_insert(0);
        *k += 1;
        o.stub + o.stub_step * (*k - 1) as f64
    };
    for ((b, side, _), (lo, hi, members)) in order {
        let lh =
            members.iter().filter_map(|&e| labels.get(e).copied().flatten()).map(|s| s.h).fold(0.0, f64::max);
        let room = lh.max(o.edge_gap) / 2.0;
        let lane = match side {
            Side::Below => {
                let lane = below.query(lo, hi) + o.lane_gap + room;
                below.raise(lo, hi, lane + room);
                lane
            }
            Side::Above => {
                let lane = -above.query(lo, hi) - o.lane_gap - room;
                above.raise(lo, hi, -(lane - room));
                lane
            }
        };
        let cb = cols.of[b] as usize;
        let x_in = cols.cols[cb].left - stub(cb, side, false);
        for e in members {
            let (a, _) = edges[e];
            let ca = cols.of[a] as usize;
            let (s, t) = anchors(pos, sizes, a, b);
            let x_out = cols.cols[ca].right + stub(ca, side, true);
            let points = vec![
                Point { x: x_out, y: s.y },
                Point { x: x_out, y: lane },
                Point { x: x_in, y: lane },
                Point { x: x_in, y: t.y },
            ];
            // The label on the lane just past the turn, towards the target.
            let label = labels.get(e).copied().flatten().map(|size| {
                let run = (x_in - x_out).abs();
                let x = if run < size.w + 4.0 * o.label_gap {
                    (x_in + x_out) / 2.0
                } else if x_in > x_out {
                    x_out + 2.0 * o.label_gap + size.w / 2.0
                } else {
                    x_out - 2.0 * o.label_gap - size.w / 2.0
                };
                Point { x, y: lane }
            });
            out[e] = Route { kind: RouteKind::Around, points, label };
        }
    }
}

/// Loops over their node, one over the other when a node has several.
fn loops_over(
    pos: &[Point],
    sizes: &[Size],
    edges: &[(usize, usize)],
    labels: &[Option<Size>],
    o: &RouteOptions,
    loops: &[usize],
    out: &mut [Route],
) {
    let mut count: HashMap<usize, usize> = HashMap::new();
    for &e in loops {
        let a = edges[e].0;
        let k = count.entry(a).or_insert(0);
        let (p, s) = (pos[a], sizes[a]);
        let top = p.y - o.loop_rise - o.edge_gap * *k as f64;
        let (right, left, mid) = (p.x + s.w + o.stub, p.x - o.stub, p.y + s.h / 2.0);
        let points = vec![
            Point { x: right, y: mid },
            Point { x: right, y: top },
            Point { x: left, y: top },
            Point { x: left, y: mid },
        ];
        let label = labels.get(e).copied().flatten().map(|_| Point { x: p.x + s.w / 2.0, y: top });
        out[e] = Route { kind: RouteKind::Loop, points, label };
        *k += 1;
    }
}

/// The box `(x, y, w, h)` around the nodes, the routes and the labels, if there is any.
pub fn extent(
    pos: &[Point],
    sizes: &[Size],
    edges: &[(usize, usize)],
    labels: &[Option<Size>],
    routes: &[Route],
) -> Option<(f64, f64, f64, f64)> {
    let (mut x0, mut y0, mut x1, mut y1) =
        (f64::INFINITY, f64::INFINITY, f64::NEG_INFINITY, f64::NEG_INFINITY);
    let mut grow = |x: f64, y: f64, w: f64, h: f64| {
        if x.is_finite() && y.is_finite() {
            x0 = x0.min(x);
            y0 = y0.min(y);
            x1 = x1.max(x + w);
            y1 = y1.max(y + h);
        }
    };
    for (p, s) in pos.iter().zip(sizes) {
        grow(p.x, p.y, s.w, s.h);
    }
    for (e, r) in routes.iter().enumerate().take(edges.len()) {
        for p in &r.points {
            grow(p.x, p.y, 0.0, 0.0);
        }
        if let (Some(c), Some(s)) = (r.label, labels.get(e).copied().flatten()) {
            grow(c.x - s.w / 2.0, c.y - s.h / 2.0, s.w, s.h);
        }
    }
    x0.is_finite().then_some((x0, y0, x1 - x0, y1 - y0))
}

#[cfg(test)]
mod tests;
