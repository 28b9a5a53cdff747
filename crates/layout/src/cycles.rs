//! Cycles broken the way a reader of a flow expects. A depth-first walk starts at the flow's
//! start, then at every other node without inputs, then at whatever is left, each in document
//! order, and follows edges in document order; an edge into a node still on the walk's path
//! closes a loop and is the one drawn back. So in `start -> a -> b -> a` the loop is `b -> a`,
//! where a feedback-arc heuristic may as well pick `a -> b` and draw the flow backwards.
//!
//! The walk keeps its own stack: a 100,000-node chain would overflow a recursive one.

/// Per edge: whether it closes a loop (is drawn back). Self-loops are not marked (they are
/// drawn over their node); edges with an end out of range neither.
pub(crate) fn back_edges(n: usize, edges: &[(usize, usize)], first: Option<usize>) -> Vec<bool> {
    let valid = |&(a, b): &(usize, usize)| a < n && b < n && a != b;
    // Edge indices by source, in document order.
    let mut start = vec![0usize; n + 1];
    let mut indegree = vec![0usize; n];
    for &(a, b) in edges.iter().filter(|e| valid(e)) {
        start[a + 1] += 1;
        indegree[b] += 1;
    }
    for i in 0..n {
        start[i + 1] += start[i];
    }
    let mut fill = start.clone();
    let mut out = vec![0usize; start[n]];
    for (e, &(a, _)) in edges.iter().enumerate().filter(|(_, e)| valid(e)) {
        out[fill[a]] = e;
        fill[a] += 1;
    }

    const NEW: u8 = 0;
    const ON_PATH: u8 = 1;
    const DONE: u8 = 2;
    let mut state = vec![NEW; n];
    let mut back = vec![false; edges.len()];
    let mut stack: Vec<(usize, usize)> = Vec::new();
    let roots = first.filter(|&f| f < n).into_iter().chain((0..n).filter(|&v| indegree[v] == 0)).chain(0..n);
    for root in roots {
        if state[root] != NEW {
            continue;
        }
        state[root] = ON_PATH;
        stack.push((root, start[root]));
        while let Some(top) = stack.last_mut() {
            let (v, cursor) = *top;
            if cursor == start[v + 1] {
                state[v] = DONE;
                stack.pop();
                continue;
            }
            top.1 += 1;
            let e = out[cursor];
            let w = edges[e].1;
            match state[w] {
                NEW => {
                    state[w] = ON_PATH;
                    stack.push((w, start[w]));
                }
                ON_PATH => back[e] = true,
                _ => {}
            }
        }
    }
    back
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_edge_closing_the_loop_is_the_one_drawn_back() {
        // start(0) -> a(1) -> b(2) -> a(1), b -> end(3)
        let edges = [(0, 1), (1, 2), (2, 1), (2, 3)];
        assert_eq!(back_edges(4, &edges, Some(0)), vec![false, false, true, false]);
        // Listed in another order, the walk still follows the flow from the start.
        let edges = [(2, 1), (2, 3), (1, 2), (0, 1)];
        assert_eq!(back_edges(4, &edges, Some(0)), vec![true, false, false, false]);
    }

    #[test]
    fn a_cycle_without_a_start_is_cut_once_and_bad_edges_are_ignored() {
        let edges = [(0, 1), (1, 2), (2, 0), (1, 1), (5, 0)];
        let back = back_edges(3, &edges, None);
        assert_eq!(back.iter().filter(|b| **b).count(), 1);
        assert!(!back[3] && !back[4]);
    }

    #[test]
    fn a_long_chain_does_not_overflow() {
        let n = 300_000;
        let edges: Vec<(usize, usize)> = (1..n).map(|i| (i - 1, i)).chain([(n - 1, 0)]).collect();
        let back = back_edges(n, &edges, Some(0));
        assert_eq!(back.iter().filter(|b| **b).count(), 1);
        assert!(back[n - 1]);
    }
}
