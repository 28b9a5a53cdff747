//! Measures of a layout, for tests and the benchmark's comparison with other engines: overlaps
//! (must be none), the bounding box and its aspect ratio, edge crossings and edge length, with
//! edges drawn as the canvas draws them (a straight line from the middle of the source's right
//! side to the middle of the target's left side).

use crate::{Point, Size};

/// The bounding box `(x, y, w, h)` of the boxes, or `None` when there are none.
pub fn bounds(pos: &[Point], sizes: &[Size]) -> Option<(f64, f64, f64, f64)> {
    let mut b: Option<(f64, f64, f64, f64)> = None;
    for (p, s) in pos.iter().zip(sizes) {
        let (x0, y0, x1, y1) = b.unwrap_or((p.x, p.y, p.x + s.w, p.y + s.h));
        b = Some((x0.min(p.x), y0.min(p.y), x1.max(p.x + s.w), y1.max(p.y + s.h)));
    }
    b.map(|(x0, y0, x1, y1)| (x0, y0, x1 - x0, y1 - y0))
}

/// Pairs of boxes that overlap (touching does not count), through a uniform grid.
pub fn overlaps(pos: &[Point], sizes: &[Size]) -> Vec<(usize, usize)> {
    let cell = 256.0;
    let mut grid: std::collections::HashMap<(i64, i64), Vec<usize>> = std::collections::HashMap::new();
    let mut out = Vec::new();
    for (i, (p, s)) in pos.iter().zip(sizes).enumerate() {
        let mut seen = std::collections::HashSet::new();
        for cx in (p.x / cell).floor() as i64..=((p.x + s.w) / cell).floor() as i64 {
            for cy in (p.y / cell).floor() as i64..=((p.y + s.h) / cell).floor() as i64 {
                let bucket = grid.entry((cx, cy)).or_default();
                for &j in bucket.iter() {
                    let (q, t) = (pos[j], sizes[j]);
                    if seen.insert(j)
                        && p.x < q.x + t.w
                        && q.x < p.x + s.w
                        && p.y < q.y + t.h
                        && q.y < p.y + s.h
                    {
                        out.push((j, i));
                    }
                }
                bucket.push(i);
            }
        }
    }
    out
}

fn segment(pos: &[Point], sizes: &[Size], (a, b): (usize, usize)) -> ((f64, f64), (f64, f64)) {
    ((pos[a].x + sizes[a].w, pos[a].y + sizes[a].h / 2.0), (pos[b].x, pos[b].y + sizes[b].h / 2.0))
}

/// Mean length of the drawn edges (self-loops left out).
pub fn mean_edge_length(pos: &[Point], sizes: &[Size], edges: &[(usize, usize)]) -> f64 {
    let lens: Vec<f64> = edges
        .iter()
        .filter(|(a, b)| a != b)
        .map(|&e| {
            let ((x0, y0), (x1, y1)) = segment(pos, sizes, e);
            (x1 - x0).hypot(y1 - y0)
        })
        .collect();
    if lens.is_empty() {
        0.0
    } else {
        lens.iter().sum::<f64>() / lens.len() as f64
    }
}

/// Pairs of drawn edges that cross (edges sharing an end do not count). Quadratic: for the
/// benchmark's quality column on graphs of up to a few thousand edges.
pub fn crossings(pos: &[Point], sizes: &[Size], edges: &[(usize, usize)]) -> usize {
    let segs: Vec<_> = edges.iter().filter(|(a, b)| a != b).map(|&e| (e, segment(pos, sizes, e))).collect();
    let mut count = 0;
    for (i, &((a, b), s)) in segs.iter().enumerate() {
        for &((c, d), t) in &segs[i + 1..] {
            if a == c || a == d || b == c || b == d {
                continue;
            }
            if cross(s, t) {
                count += 1;
            }
        }
    }
    count
}

fn cross((p, q): ((f64, f64), (f64, f64)), (r, s): ((f64, f64), (f64, f64))) -> bool {
    let orient =
        |a: (f64, f64), b: (f64, f64), c: (f64, f64)| (b.0 - a.0) * (c.1 - a.1) - (b.1 - a.1) * (c.0 - a.0);
    let (d1, d2) = (orient(p, q, r), orient(p, q, s));
    let (d3, d4) = (orient(r, s, p), orient(r, s, q));
    d1 * d2 < 0.0 && d3 * d4 < 0.0
}
