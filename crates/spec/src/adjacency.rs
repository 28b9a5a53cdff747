//! A graph's out-edges by node in two flat arrays (compressed rows), for the two questions the
//! analysis asks of every document on every validation: which nodes a walk from `__start__`
//! reaches, and whether the unguarded edges hold a cycle at all. On a 100,000-node document a
//! petgraph `DiGraph` (edges in linked lists) plus Kosaraju's two passes and one `Vec` per
//! component was most of the analysis; nearly every document has no unguarded cycle, so the
//! components are only worked out (with petgraph, `crate::analysis`) when this says there is one.

/// Out-edges of nodes `0..n`: those of node `a` are `to[start[a]..start[a + 1]]`.
#[derive(Debug)]
pub struct Adjacency {
    start: Vec<u32>,
    to: Vec<u32>,
}

impl Adjacency {
    /// From `(from, to)` pairs of node indices below `nodes`.
    pub fn new(nodes: usize, edges: &[(u32, u32)]) -> Adjacency {
        let mut start = vec![0u32; nodes + 1];
        for &(a, _) in edges {
            start[a as usize + 1] += 1;
        }
        for i in 0..nodes {
            start[i + 1] += start[i];
        }
        let mut next = start.clone();
        let mut to = vec![0u32; edges.len()];
        for &(a, b) in edges {
            let slot = &mut next[a as usize];
            to[*slot as usize] = b;
            *slot += 1;
        }
        Adjacency { start, to }
    }

    fn nodes(&self) -> usize {
        self.start.len() - 1
    }

    fn out(&self, a: usize) -> &[u32] {
        &self.to[self.start[a] as usize..self.start[a + 1] as usize]
    }

    /// Which nodes a walk from `from` reaches (`from` itself included). Iterative: a chain of
    /// 100,000 nodes is no deeper for it than a star.
    pub fn reachable_from(&self, from: usize) -> Vec<bool> {
        let mut seen = vec![false; self.nodes()];
        let mut stack = vec![from];
        seen[from] = true;
        while let Some(a) = stack.pop() {
            for &b in self.out(a) {
                if !seen[b as usize] {
                    seen[b as usize] = true;
                    stack.push(b as usize);
                }
            }
        }
        seen
    }

    /// Whether the edges hold a cycle (a self-loop counts): Kahn's order, which removes every
    /// node exactly when there is none.
    pub fn has_cycle(&self) -> bool {
        let n = self.nodes();
        let mut incoming = vec![0u32; n];
        for &b in &self.to {
            incoming[b as usize] += 1;
        }
        let mut ready: Vec<usize> = (0..n).filter(|&a| incoming[a] == 0).collect();
        let mut removed = 0;
        while let Some(a) = ready.pop() {
            removed += 1;
            for &b in self.out(a) {
                let left = &mut incoming[b as usize];
                *left -= 1;
                if *left == 0 {
                    ready.push(b as usize);
                }
            }
        }
        removed < n
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reaches_along_the_edges_only() {
        // 0 -> 1 -> 2, 3 -> 2, 4 alone.
        let g = Adjacency::new(5, &[(0, 1), (1, 2), (3, 2)]);
        assert_eq!(g.reachable_from(0), vec![true, true, true, false, false]);
        assert_eq!(g.reachable_from(3), vec![false, false, true, true, false]);
    }

    #[test]
    fn finds_cycles_self_loops_included() {
        assert!(!Adjacency::new(4, &[(0, 1), (1, 2), (0, 2), (3, 2)]).has_cycle());
        assert!(Adjacency::new(4, &[(0, 1), (1, 2), (2, 1)]).has_cycle());
        assert!(Adjacency::new(2, &[(1, 1)]).has_cycle());
        assert!(!Adjacency::new(0, &[]).has_cycle());
    }

    #[test]
    fn a_long_chain_is_walked_without_recursion() {
        let n = 200_000u32;
        let edges: Vec<(u32, u32)> = (1..n).map(|i| (i - 1, i)).collect();
        let g = Adjacency::new(n as usize, &edges);
        assert!(g.reachable_from(0).iter().all(|&r| r));
        assert!(!g.has_cycle());
        let mut looped = edges;
        looped.push((n - 1, 0));
        assert!(Adjacency::new(n as usize, &looped).has_cycle());
    }
}
