//! Coordinates. Each layer is a column, left to right. A graph that is long (thousands of
//! layers of one node: a pipeline) or tall (one layer of thousands: a fan-out) would be a
//! sliver that Fit shows at 1 %, so two wraps are chosen together, by trying row counts:
//! - a layer of more than `rows` nodes is split into several adjacent columns;
//! - the sequence of columns is cut into bands stacked top to bottom, like lines of text;
//!
//! keeping the pair whose result fits the smallest box of the wanted aspect ratio (16:10),
//! and no wrap at all unless wrapping makes that box clearly smaller. Within its column a node
//! sits near the mean height of its neighbours placed already (in earlier columns of its
//! band), without overlapping and in the order the sweeps chose.

use crate::layering::Dag;
use crate::{Options, Point, Size};

/// Positions (top-left) and the size of the box they fill.
pub(crate) fn columns(layers: &[Vec<usize>], sizes: &[Size], dag: &Dag, o: &Options) -> (Vec<Point>, Size) {
    let n = sizes.len();
    let mut pos = vec![Point::default(); n];
    if n == 0 {
        return (pos, Size { w: 0.0, h: 0.0 });
    }
    let row_h = sizes.iter().map(|s| s.h).fold(0.0, f64::max) + o.node_gap;
    let layer_w: Vec<f64> =
        layers.iter().map(|l| l.iter().map(|&v| sizes[v].w).fold(0.0, f64::max)).collect();
    let (rows, bands) = choose_wrap(layers, &layer_w, row_h, o);

    // The columns: each layer split evenly into ceil(len / rows) parts.
    let mut cols: Vec<(&[usize], f64)> = Vec::new();
    for (layer, &w) in layers.iter().zip(&layer_w) {
        let parts = layer.len().div_ceil(rows);
        for k in 0..parts {
            let (a, b) = (k * layer.len() / parts, (k + 1) * layer.len() / parts);
            cols.push((&layer[a..b], w));
        }
    }
    let per_band = cols.len().div_ceil(bands);
    let tight = |col: &[usize]| col.iter().map(|&v| sizes[v].h + o.node_gap).sum::<f64>() - o.node_gap;
    let cap = rows as f64 * row_h - o.node_gap;

    let mut placed = vec![false; n];
    let mut band_y = 0.0;
    let mut width: f64 = 0.0;
    let mut desired = Vec::new();
    for band in cols.chunks(per_band.max(1)) {
        let band_h = band.iter().map(|(c, _)| tight(c)).fold(cap, f64::max);
        let mut x = 0.0;
        let mut bottom: f64 = 0.0;
        for &(col, w) in band {
            // Where the neighbours placed already would like each node (its centre), or its
            // slot in the column stacked tightly and centred when it has none.
            let start = (band_h - tight(col)) / 2.0;
            let mut slot = start;
            desired.clear();
            for &v in col {
                let (mut sum, mut count) = (0.0, 0usize);
                for u in dag.pred.of(v).chain(dag.succ.of(v)) {
                    if placed[u] {
                        sum += pos[u].y - band_y + sizes[u].h / 2.0;
                        count += 1;
                    }
                }
                let centre = if count > 0 { sum / count as f64 } else { slot + sizes[v].h / 2.0 };
                desired.push(centre - sizes[v].h / 2.0);
                slot += sizes[v].h + o.node_gap;
            }
            let heights: Vec<f64> = col.iter().map(|&v| sizes[v].h).collect();
            let ys = spread(&desired, &heights, o.node_gap, 0.0, band_h);
            for (&v, y) in col.iter().zip(ys) {
                pos[v] = Point { x: x + (w - sizes[v].w) / 2.0, y: band_y + y };
                placed[v] = true;
                bottom = bottom.max(y + sizes[v].h);
            }
            x += w + o.layer_gap;
        }
        width = width.max(x - o.layer_gap);
        band_y += bottom + o.band_gap;
    }
    (pos, Size { w: width, h: band_y - o.band_gap })
}

/// Tops for boxes of `heights`, in this order, each `gap` below the previous, within
/// [lo, hi] when they fit, as near `desired` as two greedy passes get: one pushing down from
/// the top, one pushing up from the bottom, averaged (both keep the gaps, so their mean does).
fn spread(desired: &[f64], heights: &[f64], gap: f64, lo: f64, hi: f64) -> Vec<f64> {
    let k = desired.len();
    let mut down = vec![0.0; k];
    let mut up = vec![0.0; k];
    // Push down, then pull back up from the bottom limit.
    let mut next = lo;
    for i in 0..k {
        down[i] = desired[i].max(next);
        next = down[i] + heights[i] + gap;
    }
    let mut limit = hi;
    for i in (0..k).rev() {
        down[i] = down[i].min(limit - heights[i]);
        limit = down[i] - gap;
    }
    // Push up, then push back down from the top limit.
    let mut limit = hi;
    for i in (0..k).rev() {
        up[i] = desired[i].min(limit - heights[i]);
        limit = up[i] - gap;
    }
    let mut next = lo;
    for i in 0..k {
        up[i] = up[i].max(next);
        next = up[i] + heights[i] + gap;
    }
    down.iter().zip(&up).map(|(a, b)| (a + b) / 2.0).collect()
}

/// The row count (longest column) and the band count whose layout fits the smallest box of
/// the wanted aspect, estimated from column counts (linear in the layers per candidate).
fn choose_wrap(layers: &[Vec<usize>], layer_w: &[f64], row_h: f64, o: &Options) -> (usize, usize) {
    let tallest = layers.iter().map(Vec::len).max().unwrap_or(1).max(1);
    let cost = |rows: usize, bands: usize| -> f64 {
        let mut cols = 0usize;
        let mut widths = 0.0;
        for (l, &w) in layers.iter().zip(layer_w) {
            let c = l.len().div_ceil(rows);
            cols += c;
            widths += c as f64 * (w + o.layer_gap);
        }
        let per_band = cols.div_ceil(bands);
        let w = widths / cols as f64 * per_band as f64 - o.layer_gap;
        let h =
            bands as f64 * (rows.min(tallest) as f64 * row_h - o.node_gap) + (bands - 1) as f64 * o.band_gap;
        (w / o.aspect).max(h)
    };
    let unwrapped = cost(tallest, 1);
    if unwrapped <= o.wrap_above {
        return (tallest, 1);
    }
    let mut best = (unwrapped, tallest, 1);
    let mut candidates: Vec<usize> = (1..=tallest.min(64)).collect();
    let mut r = 64.0f64;
    while (r as usize) < tallest {
        r *= 1.15;
        candidates.push((r as usize).min(tallest));
    }
    for rows in candidates {
        let cols: usize = layers.iter().map(|l| l.len().div_ceil(rows)).sum();
        // The band count that balances width and height, and its neighbours.
        let mean_w = layer_w.iter().sum::<f64>() / layer_w.len().max(1) as f64 + o.layer_gap;
        let ideal = ((cols as f64 * mean_w) / (o.aspect * (rows as f64 * row_h + o.band_gap))).sqrt();
        let centre = ideal.round() as usize;
        for bands in centre.saturating_sub(2).max(1)..=(centre + 2).min(cols.max(1)) {
            let c = cost(rows, bands);
            if c < best.0 {
                best = (c, rows, bands);
            }
        }
    }
    // Wrapping reads worse than a plain left-to-right flow: only when it pays clearly.
    if best.0 > unwrapped * 0.85 {
        return (tallest, 1);
    }
    (best.1, best.2)
}
