//! Components side by side: shelves (rows) of boxes, tallest first, with the shelf width
//! that gives the smallest box of the wanted aspect ratio.

use crate::geometry::{Point, Size};
use crate::model::Options;

/// Top-left offsets for boxes of `sizes` (in that order).
pub(crate) fn shelves(sizes: &[Size], o: &Options) -> Vec<Point> {
    if sizes.len() <= 1 {
        return vec![Point::default(); sizes.len()];
    }
    let mut by_height: Vec<usize> = (0..sizes.len()).collect();
    by_height.sort_by(|&a, &b| sizes[b].h.total_cmp(&sizes[a].h));
    let gap = o.component_gap;
    let area: f64 = sizes.iter().map(|s| (s.w + gap) * (s.h + gap)).sum();
    let widest = sizes.iter().map(|s| s.w).fold(0.0, f64::max);
    let ideal = (area * o.aspect).sqrt();
    let mut best: Option<(f64, Vec<Point>)> = None;
    for f in [0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.1, 1.25, 1.4, 1.6, 2.0] {
        let limit = (ideal * f).max(widest);
        let (pos, w, h) = pack(sizes, &by_height, limit, gap);
        let cost = (w / o.aspect).max(h);
        if best.as_ref().is_none_or(|(c, _)| cost < *c) {
            best = Some((cost, pos));
        }
    }
    best.map(|(_, p)| p).unwrap_or_default()
}

fn pack(sizes: &[Size], order: &[usize], limit: f64, gap: f64) -> (Vec<Point>, f64, f64) {
    let mut pos = vec![Point::default(); sizes.len()];
    let (mut x, mut y, mut shelf_h, mut width): (f64, f64, f64, f64) = (0.0, 0.0, 0.0, 0.0);
    for &i in order {
        let s = sizes[i];
        if x > 0.0 && x + s.w > limit {
            y += shelf_h + gap;
            x = 0.0;
            shelf_h = 0.0;
        }
        pos[i] = Point { x, y };
        x += s.w + gap;
        shelf_h = shelf_h.max(s.h);
        width = width.max(x - gap);
    }
    (pos, width, y + shelf_h)
}
