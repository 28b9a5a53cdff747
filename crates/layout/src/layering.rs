//! The graph made acyclic (its loops turned around, [`crate::cycles`]) and its layers: every
//! edge of the result points from a lower layer to a higher one.

/// Compressed adjacency: the neighbours of `v` are `targets[start[v]..start[v + 1]]`.
#[derive(Debug)]
pub(crate) struct Adjacency {
    start: Vec<u32>,
    targets: Vec<u32>,
}

impl Adjacency {
    pub(crate) fn new(n: usize, edges: &[(usize, usize)]) -> Adjacency {
        let mut start = vec![0u32; n + 1];
        for &(a, _) in edges {
            start[a + 1] += 1;
        }
        for i in 0..n {
            start[i + 1] += start[i];
        }
        let mut fill = start.clone();
        let mut targets = vec![0u32; edges.len()];
        for &(a, b) in edges {
            targets[fill[a] as usize] = b as u32;
            fill[a] += 1;
        }
        Adjacency { start, targets }
    }

    pub(crate) fn of(&self, v: usize) -> impl Iterator<Item = usize> + '_ {
        self.targets[self.start[v] as usize..self.start[v + 1] as usize].iter().map(|&t| t as usize)
    }

    pub(crate) fn degree(&self, v: usize) -> usize {
        (self.start[v + 1] - self.start[v]) as usize
    }
}

/// The acyclic graph: the document's edges with loops turned around, self-loops and duplicates
/// left out.
pub(crate) struct Dag {
    pub(crate) n: usize,
    /// Per edge of the graph: it closes a loop (drawn back, laid out turned around).
    pub(crate) back: Vec<bool>,
    pub(crate) succ: Adjacency,
    pub(crate) pred: Adjacency,
}

impl Dag {
    pub(crate) fn new(n: usize, edges: &[(usize, usize)], back: &[bool]) -> Dag {
        let mut dag: Vec<(usize, usize)> = edges
            .iter()
            .zip(back)
            .filter(|(&(a, b), _)| a < n && b < n && a != b)
            .map(|(&(a, b), &r)| if r { (b, a) } else { (a, b) })
            .collect();
        dag.sort_unstable();
        dag.dedup();
        let flipped: Vec<(usize, usize)> = dag.iter().map(|&(a, b)| (b, a)).collect();
        Dag { n, back: back.to_vec(), succ: Adjacency::new(n, &dag), pred: Adjacency::new(n, &flipped) }
    }

    /// The nodes in topological order (Kahn's, from the sources in index order).
    pub(crate) fn topological(&self) -> Vec<usize> {
        let n = self.n;
        let mut indeg: Vec<usize> = (0..n).map(|v| self.pred.degree(v)).collect();
        let mut topo = Vec::with_capacity(n);
        let mut queue: std::collections::VecDeque<usize> = (0..n).filter(|&v| indeg[v] == 0).collect();
        while let Some(v) = queue.pop_front() {
            topo.push(v);
            for w in self.succ.of(v) {
                indeg[w] -= 1;
                if indeg[w] == 0 {
                    queue.push_back(w);
                }
            }
        }
        // The loops were turned around, so every node was reached; keep any straggler anyway.
        if topo.len() < n {
            let mut seen = vec![false; n];
            for &v in &topo {
                seen[v] = true;
            }
            topo.extend((0..n).filter(|&v| !seen[v]));
        }
        topo
    }
}

/// The layer of every node, numbered from 0 with no layer empty:
/// - by longest path from the sources, so each node comes after everything that leads to it;
/// - a source other than the start is pulled right next to its first successor (a side input
///   does not sit far left of where it is used);
/// - the end (`last`) goes to the last layer;
/// - a layer of more than `tall` nodes is split into columns side by side.
///
/// Also answers, per layer, the layer it was split from (its own number when not split, the
/// first column's otherwise), so the columns of a split layer are known as one.
pub(crate) fn assign(
    dag: &Dag,
    first: Option<usize>,
    last: Option<usize>,
    tall: usize,
) -> (Vec<usize>, Vec<usize>) {
    let n = dag.n;
    let topo = dag.topological();
    let mut layer = vec![0usize; n];
    for &v in &topo {
        for w in dag.succ.of(v) {
            layer[w] = layer[w].max(layer[v] + 1);
        }
    }
    for &v in topo.iter().rev() {
        if dag.pred.degree(v) == 0 && Some(v) != first {
            if let Some(m) = dag.succ.of(v).map(|w| layer[w]).min() {
                layer[v] = m.saturating_sub(1);
            }
        }
    }
    if let Some(end) = last.filter(|&v| v < n && dag.succ.degree(v) == 0) {
        let deepest = (0..n).filter(|&v| v != end).map(|v| layer[v]).max().unwrap_or(0);
        layer[end] = layer[end].max(deepest);
    }
    compact(&mut layer);
    let split = split_tall(&mut layer, &topo, tall.max(1));
    (layer, split)
}

/// Renumbers layers so none is empty (pulling sources right can empty one).
fn compact(layer: &mut [usize]) {
    let depth = layer.iter().copied().max().map_or(0, |m| m + 1);
    let mut used = vec![false; depth];
    for &l in layer.iter() {
        used[l] = true;
    }
    let mut new = vec![0usize; depth];
    let mut next = 0;
    for l in 0..depth {
        new[l] = next;
        next += usize::from(used[l]);
    }
    for l in layer.iter_mut() {
        *l = new[*l];
    }
}

/// A layer of more than `tall` nodes becomes several columns of at most `tall`, side by side,
/// in topological order; later layers move right to make room. Answers, per new layer, the
/// first column of the layer it came from.
fn split_tall(layer: &mut [usize], topo: &[usize], tall: usize) -> Vec<usize> {
    let depth = layer.iter().copied().max().map_or(0, |m| m + 1);
    let mut count = vec![0usize; depth];
    for &l in layer.iter() {
        count[l] += 1;
    }
    if count.iter().all(|&c| c <= tall) {
        return (0..depth).collect();
    }
    let parts: Vec<usize> = count.iter().map(|&c| c.div_ceil(tall).max(1)).collect();
    let mut base = vec![0usize; depth];
    for l in 1..depth {
        base[l] = base[l - 1] + parts[l - 1];
    }
    let split: Vec<usize> = (0..depth).flat_map(|l| std::iter::repeat_n(base[l], parts[l])).collect();
    let mut seen = vec![0usize; depth];
    for &v in topo {
        let l = layer[v];
        let per = count[l].div_ceil(parts[l]);
        layer[v] = base[l] + seen[l] / per;
        seen[l] += 1;
    }
    split
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layers_of(
        n: usize,
        edges: &[(usize, usize)],
        first: Option<usize>,
        last: Option<usize>,
    ) -> Vec<usize> {
        let back = crate::cycles::back_edges(n, edges, first);
        let dag = Dag::new(n, edges, &back);
        assign(&dag, first, last, 40).0
    }

    #[test]
    fn every_edge_points_to_a_later_layer_and_the_end_is_last() {
        // 0 start, 1..4 chain, 5 end; 2 -> 5 early exit; 4 -> 1 loop back.
        let edges = [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5), (2, 5), (4, 1)];
        let layer = layers_of(6, &edges, Some(0), Some(5));
        assert_eq!(layer, vec![0, 1, 2, 3, 4, 5]);
        // A dead end at the deepest layer leaves the end beside it, not before it.
        let edges = [(0, 1), (1, 2), (0, 3)];
        let layer = layers_of(4, &edges, Some(0), Some(3));
        assert_eq!(layer[3], 2);
    }

    #[test]
    fn a_side_input_sits_next_to_where_it_is_used() {
        // 0 -> 1 -> 2 -> 3, and 4 (no input) -> 3.
        let layer = layers_of(5, &[(0, 1), (1, 2), (2, 3), (4, 3)], Some(0), None);
        assert_eq!(layer[4], 2);
    }

    #[test]
    fn a_tall_layer_is_split_into_columns() {
        let edges: Vec<(usize, usize)> = (1..=100).map(|i| (0, i)).collect();
        let back = crate::cycles::back_edges(101, &edges, Some(0));
        let dag = Dag::new(101, &edges, &back);
        let (layer, split) = assign(&dag, Some(0), None, 40);
        assert_eq!(split, vec![0, 1, 1, 1]);
        let mut count = std::collections::BTreeMap::new();
        for &l in &layer[1..] {
            *count.entry(l).or_insert(0) += 1;
        }
        assert_eq!(count.len(), 3);
        assert!(count.values().all(|&c| c <= 40));
        assert_eq!(layer[0], 0);
    }
}
