//! Placing items of a column in order, each as near where it wants to be as the gaps between
//! them allow (the columns' nodes in `place`, the lanes of edges in `route`).

/// Positions for items in this order nearest `desired` (least squares, by `weights`) with
/// item `i + 1` at least `seps[i]` after item `i`: pool-adjacent-violators on the positions
/// less the gaps before them, which turns the gaps into plain order constraints.
pub(crate) fn pool_adjacent(desired: &[f64], weights: &[f64], seps: &[f64], out: &mut Vec<f64>) {
    let k = desired.len();
    out.clear();
    // Blocks of pooled items: (weighted sum, weight, count).
    let mut blocks: Vec<(f64, f64, usize)> = Vec::with_capacity(k);
    let mut offset = 0.0;
    let mut offsets = Vec::with_capacity(k);
    for i in 0..k {
        if i > 0 {
            offset += seps[i - 1];
        }
        offsets.push(offset);
        let w = weights[i].max(1e-6);
        blocks.push((w * (desired[i] - offset), w, 1));
        while blocks.len() > 1 {
            let (s1, w1, c1) = blocks[blocks.len() - 1];
            let (s0, w0, c0) = blocks[blocks.len() - 2];
            if s0 / w0 < s1 / w1 {
                break;
            }
            blocks.pop();
            let last = blocks.len() - 1;
            blocks[last] = (s0 + s1, w0 + w1, c0 + c1);
        }
    }
    for (s, w, c) in blocks {
        let z = s / w;
        for _ in 0..c {
            out.push(z + offsets[out.len()]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pooling_keeps_the_gaps_and_the_nearest_positions() {
        let mut out = Vec::new();
        // Both want 0: they share the gap around 0.
        pool_adjacent(&[0.0, 0.0], &[1.0, 1.0], &[100.0], &mut out);
        assert_eq!(out, vec![-50.0, 50.0]);
        // The first is free; the last two pool, the heavier one moving less.
        pool_adjacent(&[0.0, 300.0, 310.0], &[1.0, 1.0, 3.0], &[100.0, 20.0], &mut out);
        assert_eq!(out, vec![0.0, 292.5, 312.5]);
    }
}
