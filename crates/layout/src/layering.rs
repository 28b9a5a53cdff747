//! Cycles broken, then layers: every edge of the result points from a lower layer to a higher
//! one.

use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::EdgeRef;

/// The graph made acyclic: duplicate edges merged, the edges of a feedback arc set reversed.
/// Adjacency in both directions (compressed rows) for the later stages.
pub(crate) struct Dag {
    pub(crate) succ: Adjacency,
    pub(crate) pred: Adjacency,
}

/// Compressed adjacency: the neighbours of `v` are `targets[start[v]..start[v + 1]]`.
pub(crate) struct Adjacency {
    start: Vec<u32>,
    targets: Vec<u32>,
}

impl Adjacency {
    fn new(n: usize, edges: &[(usize, usize)]) -> Adjacency {
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

/// Reverses a feedback arc set (petgraph's greedy heuristic of Eades, Lin and Smyth: linear
/// time, few reversed edges) so that the graph has no cycle.
pub(crate) fn acyclic(n: usize, edges: &[(usize, usize)]) -> Dag {
    let mut uniq: Vec<(usize, usize)> = edges.to_vec();
    uniq.sort_unstable();
    uniq.dedup();
    let mut g: DiGraph<(), (), u32> = DiGraph::with_capacity(n, uniq.len());
    for _ in 0..n {
        g.add_node(());
    }
    for &(a, b) in &uniq {
        g.add_edge(NodeIndex::new(a), NodeIndex::new(b), ());
    }
    let mut reversed = vec![false; uniq.len()];
    for e in petgraph::algo::greedy_feedback_arc_set(&g) {
        reversed[e.id().index()] = true;
    }
    let mut dag: Vec<(usize, usize)> =
        uniq.iter().zip(&reversed).map(|(&(a, b), &r)| if r { (b, a) } else { (a, b) }).collect();
    // A reversed edge may now duplicate one in the other direction.
    dag.sort_unstable();
    dag.dedup();
    let flipped: Vec<(usize, usize)> = dag.iter().map(|&(a, b)| (b, a)).collect();
    Dag { succ: Adjacency::new(n, &dag), pred: Adjacency::new(n, &flipped) }
}

/// Layers by longest path from the sources (Kahn's order), then sources pulled right next to
/// their first successor so a side input does not sit far left of where it is used. Nodes in
/// each layer keep the topological order they were reached in, a good first ordering.
pub(crate) fn longest_path(n: usize, dag: &Dag) -> Vec<Vec<usize>> {
    let mut indeg: Vec<usize> = (0..n).map(|v| dag.pred.degree(v)).collect();
    let mut layer = vec![0usize; n];
    let mut topo = Vec::with_capacity(n);
    let mut queue: std::collections::VecDeque<usize> = (0..n).filter(|&v| indeg[v] == 0).collect();
    while let Some(v) = queue.pop_front() {
        topo.push(v);
        for w in dag.succ.of(v) {
            layer[w] = layer[w].max(layer[v] + 1);
            indeg[w] -= 1;
            if indeg[w] == 0 {
                queue.push_back(w);
            }
        }
    }
    // `acyclic` leaves no cycle, so every node was reached; keep any stragglers regardless.
    if topo.len() < n {
        let mut seen = vec![false; n];
        for &v in &topo {
            seen[v] = true;
        }
        topo.extend((0..n).filter(|&v| !seen[v]));
    }
    for &v in &topo {
        if dag.pred.degree(v) == 0 {
            if let Some(m) = dag.succ.of(v).map(|w| layer[w]).min() {
                layer[v] = m.saturating_sub(1);
            }
        }
    }
    let depth = layer.iter().copied().max().map_or(0, |m| m + 1);
    let mut layers = vec![Vec::new(); depth];
    for &v in &topo {
        layers[layer[v]].push(v);
    }
    layers.retain(|l| !l.is_empty());
    layers
}
