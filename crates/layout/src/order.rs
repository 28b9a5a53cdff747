//! Order within layers, for few crossings: sweeps down and up the layers, each layer sorted by
//! the barycenter of its neighbours in the layer before (down) or after (up), then adjacent
//! items swapped wherever that removes crossings (the "transpose" step). The order with the
//! fewest crossings seen is kept; crossings between two layers are counted by inversions
//! (Barth, Jünger and Mutzel's bilayer count, on a Fenwick tree).

use crate::model::Cancelled;
use crate::proper::Proper;

/// Swapping two items costs the product of their degrees; above this it is skipped (a hub
/// next to a hub), so a sweep stays near linear.
const SWAP_WORK: usize = 4096;

pub(crate) fn minimise_crossings(
    p: &Proper,
    sweeps: usize,
    progress: &mut dyn FnMut(f64) -> bool,
) -> Result<Vec<Vec<usize>>, Cancelled> {
    let mut layers = p.layers.clone();
    let mut pos = vec![0u32; p.layer.len()];
    for layer in &layers {
        for (i, &v) in layer.iter().enumerate() {
            pos[v] = i as u32;
        }
    }
    let mut best_count = crossings(p, &layers, &pos);
    let mut best = layers.clone();
    let depth = layers.len();
    let steps = (sweeps * 2 * depth).max(1);
    let mut step = 0usize;
    let report = (steps / 50).max(1);
    let mut keyed: Vec<(f64, usize)> = Vec::new();
    'sweeps: for _ in 0..sweeps {
        if best_count == 0 {
            break;
        }
        for down in [true, false] {
            let order: Vec<usize> =
                if down { (1..depth).collect() } else { (0..depth.saturating_sub(1)).rev().collect() };
            for l in order {
                step += 1;
                if step % report == 0 && !progress(step as f64 / steps as f64) {
                    return Err(Cancelled);
                }
                if layers[l].len() < 2 {
                    continue;
                }
                keyed.clear();
                for &v in &layers[l] {
                    let adj = if down { p.pred.of(v) } else { p.succ.of(v) };
                    let (mut sum, mut count) = (0.0, 0usize);
                    for u in adj {
                        sum += f64::from(pos[u]);
                        count += 1;
                    }
                    keyed.push((if count > 0 { sum / count as f64 } else { f64::from(pos[v]) }, v));
                }
                keyed.sort_by(|a, b| a.0.total_cmp(&b.0));
                for (i, &(_, v)) in keyed.iter().enumerate() {
                    layers[l][i] = v;
                    pos[v] = i as u32;
                }
                transpose(p, &mut layers[l], &mut pos);
            }
            let count = crossings(p, &layers, &pos);
            if count < best_count {
                best_count = count;
                best.clone_from(&layers);
                if count == 0 {
                    break 'sweeps;
                }
            }
        }
    }
    Ok(best)
}

/// Swaps neighbours in `layer` while that lowers the crossings with both adjacent layers.
fn transpose(p: &Proper, layer: &mut [usize], pos: &mut [u32]) {
    for _ in 0..4 {
        let mut improved = false;
        for i in 0..layer.len().saturating_sub(1) {
            let (v, w) = (layer[i], layer[i + 1]);
            let work = (p.pred.degree(v) + p.succ.degree(v)) * (p.pred.degree(w) + p.succ.degree(w));
            if work == 0 || work > SWAP_WORK {
                continue;
            }
            let keep = pair_crossings(p, v, w, pos);
            let swap = pair_crossings(p, w, v, pos);
            if swap < keep {
                layer.swap(i, i + 1);
                pos[v] = (i + 1) as u32;
                pos[w] = i as u32;
                improved = true;
            }
        }
        if !improved {
            break;
        }
    }
}

/// Crossings between the edges of `v` and those of `w` when `v` is just above `w`.
fn pair_crossings(p: &Proper, v: usize, w: usize, pos: &[u32]) -> usize {
    let mut count = 0;
    for a in p.pred.of(v) {
        count += p.pred.of(w).filter(|&b| pos[a] > pos[b]).count();
    }
    for a in p.succ.of(v) {
        count += p.succ.of(w).filter(|&b| pos[a] > pos[b]).count();
    }
    count
}

/// All crossings between adjacent layers.
pub(crate) fn crossings(p: &Proper, layers: &[Vec<usize>], pos: &[u32]) -> usize {
    let mut total = 0;
    let mut targets: Vec<u32> = Vec::new();
    let mut tree: Vec<u32> = Vec::new();
    for l in 0..layers.len().saturating_sub(1) {
        let below = layers[l + 1].len();
        targets.clear();
        for &v in &layers[l] {
            let start = targets.len();
            targets.extend(p.succ.of(v).map(|w| pos[w]));
            targets[start..].sort_unstable();
        }
        // Inversions of the target sequence: pairs of edges whose ends are in opposite order.
        tree.clear();
        tree.resize(below + 1, 0);
        for (seen, &t) in targets.iter().enumerate() {
            // Earlier edges with a target after this one's.
            let mut not_after = 0u32;
            let mut i = t as usize + 1;
            while i > 0 {
                not_after += tree[i];
                i &= i - 1;
            }
            total += seen - not_after as usize;
            let mut i = t as usize + 1;
            while i <= below {
                tree[i] += 1;
                i += i & i.wrapping_neg();
            }
        }
    }
    total
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_crossing_that_a_swap_removes_is_removed() {
        // 0 -> 3, 1 -> 2 in the first order cross; the sweeps uncross them.
        let edges = [(0, 3), (1, 2)];
        let layer = [0, 0, 1, 1];
        let p = Proper::new(4, &edges, &[false, false], &layer, &[0, 1], None, 40);
        let mut pos = vec![0u32; 4];
        let crossed = vec![vec![0, 1], vec![2, 3]];
        for l in &crossed {
            for (i, &v) in l.iter().enumerate() {
                pos[v] = i as u32;
            }
        }
        assert_eq!(crossings(&p, &crossed, &pos), 1);
        let best = minimise_crossings(&p, 4, &mut |_| true).expect("not cancelled");
        let mut pos = vec![0u32; 4];
        for l in &best {
            for (i, &v) in l.iter().enumerate() {
                pos[v] = i as u32;
            }
        }
        assert_eq!(crossings(&p, &best, &pos), 0);
    }
}
