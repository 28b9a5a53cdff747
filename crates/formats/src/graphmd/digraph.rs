//! The graph questions GRAPH.md validation and path analysis ask (can one node reach another,
//! which nodes the entry reaches: petgraph; one cycle and the edges that close it) over an
//! adjacency list whose edges carry the document's edge index.

use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::visit::Bfs;

/// Node `i` of the adjacency list is node `i` of the graph (the edge weights are the edges'
/// indices in the document).
fn graph(adj: &[Vec<(usize, usize)>]) -> DiGraph<(), usize> {
    let mut g = DiGraph::with_capacity(adj.len(), adj.iter().map(Vec::len).sum());
    for _ in adj {
        g.add_node(());
    }
    for (v, out) in adj.iter().enumerate() {
        for &(w, e) in out {
            g.add_edge(NodeIndex::new(v), NodeIndex::new(w), e);
        }
    }
    g
}

/// True when `to` is reachable from `from` along `adj` (a node reaches itself).
pub(crate) fn reaches(adj: &[Vec<(usize, usize)>], from: usize, to: usize) -> bool {
    petgraph::algo::has_path_connecting(&graph(adj), NodeIndex::new(from), NodeIndex::new(to), None)
}

/// Which nodes `start` reaches along `adj` (itself included).
pub(crate) fn reached_from(adj: &[Vec<(usize, usize)>], start: usize) -> Vec<bool> {
    let g = graph(adj);
    let mut seen = vec![false; adj.len()];
    let mut bfs = Bfs::new(&g, NodeIndex::new(start));
    while let Some(v) = bfs.next(&g) {
        seen[v.index()] = true;
    }
    seen
}

/// One cycle as (node, index of the edge leaving it along the cycle), the first a depth-first
/// search from node 0, 1, ... meets, or None when `adj` is acyclic. Written out rather than
/// petgraph's `depth_first_search`, which recurses once per node on the path: a hostile
/// 100,000-node chain would overflow the stack, and this loop keeps its stack on the heap.
pub(crate) fn find_cycle(adj: &[Vec<(usize, usize)>]) -> Option<Vec<(usize, usize)>> {
    let n = adj.len();
    let mut color = vec![0u8; n]; // 0 new, 1 on stack, 2 done
    for s in 0..n {
        if color[s] != 0 {
            continue;
        }
        // Stack of (node, next child index); `path` holds the edge used to enter each node.
        let mut stack: Vec<(usize, usize)> = vec![(s, 0)];
        let mut via: Vec<usize> = Vec::new();
        color[s] = 1;
        while let Some(&mut (v, ref mut k)) = stack.last_mut() {
            if let Some(&(w, e)) = adj[v].get(*k) {
                *k += 1;
                if color[w] == 1 {
                    // The cycle is the stack from w up to v, then e back to w.
                    let pos = stack.iter().position(|(x, _)| *x == w).unwrap_or(0);
                    let mut cyc: Vec<(usize, usize)> = Vec::new();
                    for i in pos..stack.len() {
                        let edge = if i + 1 < stack.len() { via[i] } else { e };
                        cyc.push((stack[i].0, edge));
                    }
                    return Some(cyc);
                }
                if color[w] == 0 {
                    color[w] = 1;
                    stack.push((w, 0));
                    via.push(e);
                }
            } else {
                color[v] = 2;
                stack.pop();
                via.pop();
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reachability_and_the_first_cycle_in_document_order() {
        // 0 -> 1 -> 2 -> 0 (edges 10, 11, 12) and 2 -> 3 (13); 1 -> 2 twice (11, then 14).
        let adj = vec![vec![(1, 10)], vec![(2, 11), (2, 14)], vec![(3, 13), (0, 12)], vec![]];
        assert!(reaches(&adj, 0, 3) && reaches(&adj, 3, 3) && !reaches(&adj, 3, 0));
        assert_eq!(reached_from(&adj, 2), vec![true, true, true, true]);
        assert_eq!(reached_from(&adj, 3), vec![false, false, false, true]);
        assert_eq!(find_cycle(&adj), Some(vec![(0, 10), (1, 11), (2, 12)]));
        // A self loop, found after nodes 0 and 1 (acyclic) are done.
        let self_loop = vec![vec![(1, 1)], vec![], vec![(2, 7)]];
        assert_eq!(find_cycle(&self_loop), Some(vec![(2, 7)]));
        assert_eq!(find_cycle(&[vec![(1, 0)], vec![]]), None);
    }
}
