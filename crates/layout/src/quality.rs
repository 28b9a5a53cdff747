//! Measures of a drawing, for tests and the benchmark's comparison with other engines: node
//! overlaps (must be none), edge crossings, edges that point back (right to left), edges
//! drawn over a node, labels under a node or over another label, and the size. A drawing is
//! boxes and, per edge, the line it is drawn as and its label's box, so another engine's
//! output (ELK's bend points and label places) is measured exactly as ours.

use std::collections::{HashMap, HashSet};

use crate::geometry::{Point, Size};
use crate::route::draw::{pieces, polyline};
use crate::route::{anchors, Route};

/// A drawn edge: its ends (node indices), the line it is drawn as and its label's box.
#[derive(Debug, Clone, PartialEq)]
pub struct DrawnEdge {
    pub from: usize,
    pub to: usize,
    pub line: Vec<Point>,
    /// The label's middle and size.
    pub label: Option<(Point, Size)>,
}

/// What is measured: node boxes (top-left, size) and drawn edges.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Drawing {
    pub boxes: Vec<(Point, Size)>,
    pub edges: Vec<DrawnEdge>,
}

/// The measures of a drawing (see the module comment).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Measures {
    pub nodes: usize,
    pub edges: usize,
    /// Points where two edges without a common end cross.
    pub crossings: usize,
    /// Edges (self-loops aside) whose target's middle is not right of their source's.
    pub backward: usize,
    /// Pairs of node boxes that overlap.
    pub overlaps: usize,
    /// Edges whose line crosses a node other than their ends.
    pub edges_over_nodes: usize,
    /// Labels whose box overlaps a node.
    pub labels_under_nodes: usize,
    /// Pairs of labels that overlap.
    pub labels_overlapping: usize,
    pub width: f64,
    pub height: f64,
}

/// Our drawing: the positions and the routes, each curve cut into short segments.
pub fn drawing(
    pos: &[Point],
    sizes: &[Size],
    edges: &[(usize, usize)],
    labels: &[Option<Size>],
    routes: &[Route],
) -> Drawing {
    let n = pos.len().min(sizes.len());
    let boxes = pos.iter().zip(sizes).map(|(&p, &s)| (p, s)).collect();
    let edges = edges
        .iter()
        .zip(routes)
        .enumerate()
        .filter(|(_, (&(a, b), _))| a < n && b < n)
        .map(|(e, (&(a, b), r))| {
            let (s, t) = anchors(pos, sizes, a, b);
            let label = r.label.zip(labels.get(e).copied().flatten());
            DrawnEdge { from: a, to: b, line: polyline(&pieces(r, s, t), 8), label }
        })
        .collect();
    Drawing { boxes, edges }
}

/// Measures a drawing.
pub fn measure(d: &Drawing) -> Measures {
    let pos: Vec<Point> = d.boxes.iter().map(|b| b.0).collect();
    let sizes: Vec<Size> = d.boxes.iter().map(|b| b.1).collect();
    let (width, height) = bounds(&pos, &sizes).map_or((0.0, 0.0), |b| (b.2, b.3));
    let backward = d
        .edges
        .iter()
        .filter(|e| e.from != e.to)
        .filter(|e| {
            let (a, b) = (d.boxes[e.from], d.boxes[e.to]);
            b.0.x + b.1.w / 2.0 <= a.0.x + a.1.w / 2.0
        })
        .count();
    let nodes = Grid::of(d.boxes.iter().enumerate().map(|(i, &(p, s))| (i, p.x, p.y, p.x + s.w, p.y + s.h)));
    let edges_over_nodes = d
        .edges
        .iter()
        .filter(|e| {
            e.line.windows(2).any(|w| {
                nodes
                    .near(w[0].x.min(w[1].x), w[0].y.min(w[1].y), w[0].x.max(w[1].x), w[0].y.max(w[1].y))
                    .any(|i| i != e.from && i != e.to && segment_hits_box(w[0], w[1], d.boxes[i], 2.0))
            })
        })
        .count();
    let label_boxes: Vec<(f64, f64, f64, f64)> = d
        .edges
        .iter()
        .filter_map(|e| e.label)
        .map(|(c, s)| (c.x - s.w / 2.0, c.y - s.h / 2.0, c.x + s.w / 2.0, c.y + s.h / 2.0))
        .collect();
    let labels_under_nodes = label_boxes
        .iter()
        .filter(|l| {
            nodes.near(l.0, l.1, l.2, l.3).any(|i| {
                let (p, s) = d.boxes[i];
                l.0 < p.x + s.w && p.x < l.2 && l.1 < p.y + s.h && p.y < l.3
            })
        })
        .count();
    let labels = Grid::of(label_boxes.iter().enumerate().map(|(i, l)| (i, l.0, l.1, l.2, l.3)));
    let labels_overlapping = label_boxes
        .iter()
        .enumerate()
        .map(|(i, l)| {
            labels
                .near(l.0, l.1, l.2, l.3)
                .filter(|&j| j > i)
                .filter(|&j| {
                    let m = label_boxes[j];
                    l.0 < m.2 && m.0 < l.2 && l.1 < m.3 && m.1 < l.3
                })
                .count()
        })
        .sum();
    Measures {
        nodes: d.boxes.len(),
        edges: d.edges.len(),
        crossings: crossings(d),
        backward,
        overlaps: overlaps(&pos, &sizes).len(),
        edges_over_nodes,
        labels_under_nodes,
        labels_overlapping,
        width,
        height,
    }
}

/// The bounding box `(x, y, w, h)` of the boxes, or `None` when there are none.
pub fn bounds(pos: &[Point], sizes: &[Size]) -> Option<(f64, f64, f64, f64)> {
    let mut b: Option<(f64, f64, f64, f64)> = None;
    for (p, s) in pos.iter().zip(sizes) {
        let (x0, y0, x1, y1) = b.unwrap_or((p.x, p.y, p.x + s.w, p.y + s.h));
        b = Some((x0.min(p.x), y0.min(p.y), x1.max(p.x + s.w), y1.max(p.y + s.h)));
    }
    b.map(|(x0, y0, x1, y1)| (x0, y0, x1 - x0, y1 - y0))
}

/// Pairs of boxes that overlap (touching does not count).
pub fn overlaps(pos: &[Point], sizes: &[Size]) -> Vec<(usize, usize)> {
    let grid =
        Grid::of(pos.iter().zip(sizes).enumerate().map(|(i, (p, s))| (i, p.x, p.y, p.x + s.w, p.y + s.h)));
    let mut out = Vec::new();
    for (i, (p, s)) in pos.iter().zip(sizes).enumerate() {
        for j in grid.near(p.x, p.y, p.x + s.w, p.y + s.h) {
            let (q, t) = (pos[j], sizes[j]);
            if j > i && p.x < q.x + t.w && q.x < p.x + s.w && p.y < q.y + t.h && q.y < p.y + s.h {
                out.push((i, j));
            }
        }
    }
    out
}

/// Crossing points of edges without a common end, found cell by cell of a grid.
fn crossings(d: &Drawing) -> usize {
    let mut segs: Vec<(usize, Point, Point)> = Vec::new();
    for (k, e) in d.edges.iter().enumerate() {
        for w in e.line.windows(2) {
            segs.push((k, w[0], w[1]));
        }
    }
    let grid = Grid::of(
        segs.iter()
            .enumerate()
            .map(|(i, &(_, a, b))| (i, a.x.min(b.x), a.y.min(b.y), a.x.max(b.x), a.y.max(b.y))),
    );
    let mut seen: HashSet<(usize, usize)> = HashSet::new();
    for cell in grid.cells.values() {
        for (x, &i) in cell.iter().enumerate() {
            for &j in &cell[x + 1..] {
                let (ei, a, b) = segs[i];
                let (ej, c, dd) = segs[j];
                if ei == ej {
                    continue;
                }
                let (p, q) = (&d.edges[ei], &d.edges[ej]);
                if p.from == q.from || p.from == q.to || p.to == q.from || p.to == q.to {
                    continue;
                }
                if cross(a, b, c, dd) {
                    seen.insert((i.min(j), i.max(j)));
                }
            }
        }
    }
    seen.len()
}

fn cross(p: Point, q: Point, r: Point, s: Point) -> bool {
    let orient = |a: Point, b: Point, c: Point| (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);
    let (d1, d2) = (orient(p, q, r), orient(p, q, s));
    let (d3, d4) = (orient(r, s, p), orient(r, s, q));
    d1 * d2 < 0.0 && d3 * d4 < 0.0
}

/// Whether segment `a`-`b` enters the box shrunk by `inset` on every side.
fn segment_hits_box(a: Point, b: Point, (p, s): (Point, Size), inset: f64) -> bool {
    let (x0, y0, x1, y1) = (p.x + inset, p.y + inset, p.x + s.w - inset, p.y + s.h - inset);
    if x0 >= x1 || y0 >= y1 {
        return false;
    }
    // Liang-Barsky clipping.
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for (pp, qq) in [(-dx, a.x - x0), (dx, x1 - a.x), (-dy, a.y - y0), (dy, y1 - a.y)] {
        if pp == 0.0 {
            if qq < 0.0 {
                return false;
            }
        } else {
            let r = qq / pp;
            if pp < 0.0 {
                t0 = t0.max(r);
            } else {
                t1 = t1.min(r);
            }
            if t0 > t1 {
                return false;
            }
        }
    }
    true
}

/// Items by grid cell, to find what is near a box without looking at everything.
struct Grid {
    cells: HashMap<(i64, i64), Vec<usize>>,
}

impl Grid {
    const CELL: f64 = 256.0;

    fn of(items: impl Iterator<Item = (usize, f64, f64, f64, f64)>) -> Grid {
        let mut cells: HashMap<(i64, i64), Vec<usize>> = HashMap::new();
        for (i, x0, y0, x1, y1) in items {
            if !(x0.is_finite() && y0.is_finite() && x1.is_finite() && y1.is_finite()) {
                continue;
            }
            for cx in Self::at(x0)..=Self::at(x1) {
                for cy in Self::at(y0)..=Self::at(y1) {
                    cells.entry((cx, cy)).or_default().push(i);
                }
            }
        }
        Grid { cells }
    }

    fn at(v: f64) -> i64 {
        (v / Self::CELL).floor() as i64
    }

    /// Items filed in a cell the box touches (an item may come more than once).
    fn near(&self, x0: f64, y0: f64, x1: f64, y1: f64) -> impl Iterator<Item = usize> + '_ {
        let mut found: Vec<usize> = Vec::new();
        if x0.is_finite() && y0.is_finite() && x1.is_finite() && y1.is_finite() {
            for cx in Self::at(x0)..=Self::at(x1) {
                for cy in Self::at(y0)..=Self::at(y1) {
                    if let Some(c) = self.cells.get(&(cx, cy)) {
                        found.extend(c);
                    }
                }
            }
        }
        found.sort_unstable();
        found.dedup();
        found.into_iter()
    }
}
