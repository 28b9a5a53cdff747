//! Order within layers: barycenter sweeps (each node moves to the mean relative position of
//! its neighbours in the layers already swept), down then up. Long edges get no dummy nodes:
//! a neighbour several layers away counts by its relative position in its own layer, which
//! keeps every sweep linear in the edges.

use crate::layering::{Adjacency, Dag};
use crate::Cancelled;

pub(crate) fn barycenter(
    layers: &[Vec<usize>],
    dag: &Dag,
    sweeps: usize,
    progress: &mut dyn FnMut(f64) -> bool,
) -> Result<Vec<Vec<usize>>, Cancelled> {
    let mut layers: Vec<Vec<usize>> = layers.to_vec();
    let n = layers.iter().map(Vec::len).sum::<usize>();
    // Relative position of each node in its layer, in (0, 1).
    let mut rel = vec![0.5f64; n];
    for layer in &layers {
        for (i, &v) in layer.iter().enumerate() {
            rel[v] = (i as f64 + 0.5) / layer.len() as f64;
        }
    }
    let mut keyed: Vec<(f64, usize)> = Vec::new();
    for sweep in 0..sweeps {
        for down in [true, false] {
            let adj: &Adjacency = if down { &dag.pred } else { &dag.succ };
            let range: Box<dyn Iterator<Item = usize>> = if down {
                Box::new(1..layers.len())
            } else {
                Box::new((0..layers.len().saturating_sub(1)).rev())
            };
            for l in range {
                let layer = &mut layers[l];
                if layer.len() < 2 {
                    continue;
                }
                keyed.clear();
                for &v in layer.iter() {
                    let (mut sum, mut count) = (0.0, 0usize);
                    for u in adj.of(v) {
                        sum += rel[u];
                        count += 1;
                    }
                    keyed.push((if count > 0 { sum / count as f64 } else { rel[v] }, v));
                }
                keyed.sort_by(|a, b| a.0.total_cmp(&b.0));
                let len = keyed.len() as f64;
                for (i, &(_, v)) in keyed.iter().enumerate() {
                    layer[i] = v;
                    rel[v] = (i as f64 + 0.5) / len;
                }
            }
            let done = (sweep * 2 + usize::from(!down) + 1) as f64 / (sweeps * 2) as f64;
            if !progress(done) {
                return Err(Cancelled);
            }
        }
    }
    Ok(layers)
}
