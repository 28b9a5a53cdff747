//! The unrolled graph: every bounded loop copied `max_iterations` times and each judge's
//! fallback added as one more way out, so that what is left is acyclic; its order and the join
//! of each parallel group.

use crate::graphmd::topology::{EdgeKind, Topology};
use std::collections::HashMap;

/// Most steps spent finding loop bodies while unrolling; past it the analysis is refused.
pub const MAX_UNROLL_WORK: usize = 20_000_000;
/// Most nodes the loop unrolling may create; past it the analysis is refused.
pub const MAX_UNROLLED_NODES: usize = 100_000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum XKind {
    Plain,
    Parallel,
    Loop(u64),
}

#[derive(Debug, Clone, Copy)]
pub(super) struct XEdge {
    pub(super) from: usize,
    pub(super) to: usize,
    pub(super) kind: XKind,
    /// Index in the document's `edges`; None for a judge fallback.
    pub(super) orig: Option<usize>,
}

pub(super) struct Unrolled {
    /// Topology node index of each unrolled node.
    pub(super) orig: Vec<usize>,
    pub(super) edges: Vec<XEdge>,
}

pub(super) fn unroll(t: &Topology) -> Result<Unrolled, String> {
    let mut work: usize = 0;
    let index: HashMap<&str, usize> = t.nodes.iter().enumerate().map(|(i, n)| (n.id.as_str(), i)).collect();
    let mut u = Unrolled { orig: (0..t.nodes.len()).collect(), edges: Vec::new() };
    for e in &t.edges {
        let (Some(&f), Some(&to)) = (index.get(e.from.as_str()), index.get(e.to.as_str())) else { continue };
        let kind = match e.kind {
            EdgeKind::Parallel => XKind::Parallel,
            EdgeKind::Loop => XKind::Loop(e.max_iterations.unwrap_or(1)),
            _ => XKind::Plain,
        };
        u.edges.push(XEdge { from: f, to, kind, orig: Some(e.index) });
    }
    for (i, n) in t.nodes.iter().enumerate() {
        if let Some(f) = n.judge.as_ref().and_then(|j| index.get(j.fallback.as_str())) {
            if !u.edges.iter().any(|e| e.from == i && e.to == *f && e.kind != XKind::Parallel) {
                u.edges.push(XEdge { from: i, to: *f, kind: XKind::Plain, orig: None });
            }
        }
    }
    // A loop edge that closes no cycle is a plain edge (the validator warned).
    let fwd = adjacency(&u);
    for e in &mut u.edges {
        if matches!(e.kind, XKind::Loop(_))
            && e.from != e.to
            && !crate::graphmd::digraph::reaches(&fwd, e.to, e.from)
        {
            e.kind = XKind::Plain;
        }
    }
    // Outer loops first: unrolling an outer loop copies the inner loops inside each pass (so
    // an inner bound applies per pass), whereas unrolling an inner loop first would copy the
    // outer loop edge and give each copy its own counter.
    loop {
        let loops: Vec<usize> =
            (0..u.edges.len()).filter(|i| matches!(u.edges[*i].kind, XKind::Loop(_))).collect();
        if loops.is_empty() {
            break;
        }
        let fwd = adjacency(&u);
        let mut rev: Vec<Vec<(usize, usize)>> = vec![Vec::new(); u.orig.len()];
        for (i, e) in u.edges.iter().enumerate().filter(|(_, e)| !matches!(e.kind, XKind::Loop(_))) {
            rev[e.to].push((e.from, i));
        }
        let body_of = |e: &XEdge| -> Vec<usize> {
            let from_h = crate::graphmd::digraph::reached_from(&fwd, e.to);
            let to_l = crate::graphmd::digraph::reached_from(&rev, e.from);
            (0..from_h.len()).filter(|v| from_h[*v] && to_l[*v]).collect()
        };
        let mut best: Option<(usize, Vec<usize>)> = None;
        work = work.saturating_add(loops.len().saturating_mul(u.orig.len() + u.edges.len()));
        if work > MAX_UNROLL_WORK {
            return Err(format!("unrolling the bounded loops needs more work than the limit ({} loop edges over {} nodes); lower the loop bounds", loops.len(), u.orig.len()));
        }
        for &i in &loops {
            let b = body_of(&u.edges[i]);
            if best.as_ref().is_none_or(|(_, bb)| b.len() > bb.len()) {
                best = Some((i, b));
            }
        }
        let Some((li, body)) = best else { break };
        let XEdge { from: l, to: h, kind, orig } = u.edges.remove(li);
        let XKind::Loop(n) = kind else { continue };
        let added = body.len().saturating_mul(usize::try_from(n).unwrap_or(usize::MAX));
        if u.orig.len().saturating_add(added) > MAX_UNROLLED_NODES {
            return Err(format!(
                "unrolling the bounded loops would make more than {} nodes (limit {MAX_UNROLLED_NODES}); lower the loop bounds",
                u.orig.len().saturating_add(added)
            ));
        }
        let body_edges: Vec<XEdge> =
            u.edges.iter().filter(|e| body.binary_search(&e.from).is_ok()).copied().collect();
        let mut prev: HashMap<usize, usize> = body.iter().map(|v| (*v, *v)).collect();
        for _ in 0..n {
            let copy: HashMap<usize, usize> = body
                .iter()
                .map(|v| {
                    u.orig.push(u.orig[*v]);
                    (*v, u.orig.len() - 1)
                })
                .collect();
            for e in &body_edges {
                let to = copy.get(&e.to).copied().unwrap_or(e.to);
                u.edges.push(XEdge { from: copy[&e.from], to, kind: e.kind, orig: e.orig });
            }
            u.edges.push(XEdge { from: prev[&l], to: copy[&h], kind: XKind::Plain, orig });
            prev = copy;
        }
    }
    Ok(u)
}

pub(super) fn adjacency(u: &Unrolled) -> Vec<Vec<(usize, usize)>> {
    let mut adj = vec![Vec::new(); u.orig.len()];
    for (i, e) in u.edges.iter().enumerate().filter(|(_, e)| !matches!(e.kind, XKind::Loop(_))) {
        adj[e.from].push((e.to, i));
    }
    adj
}

/// The join of a parallel group: the earliest node (topological order) that every branch
/// reaches. A search in rank order from the branch targets that stops at the first node every
/// branch has reached, so a near join is found without walking the whole graph. `work`
/// counts nodes visited over all groups and is bounded by [`MAX_UNROLL_WORK`].
pub(super) fn find_join(
    adj: &[Vec<(usize, usize)>],
    rank: &[usize],
    fork: &[(usize, usize)],
    work: &mut usize,
) -> Result<Option<usize>, String> {
    use std::cmp::Reverse;
    use std::collections::BinaryHeap;
    if fork.len() > 128 {
        return Err(format!("a node has {} parallel edges; at most 128 are analysed", fork.len()));
    }
    let full: u128 = if fork.len() == 128 { u128::MAX } else { (1u128 << fork.len()) - 1 };
    let mut mask: HashMap<usize, u128> = HashMap::new();
    let mut heap = BinaryHeap::new();
    for (i, (b, _)) in fork.iter().enumerate() {
        let m = mask.entry(*b).or_insert(0);
        if *m == 0 {
            heap.push(Reverse((rank[*b], *b)));
        }
        *m |= 1u128 << i;
    }
    while let Some(Reverse((_, v))) = heap.pop() {
        *work += 1;
        if *work > MAX_UNROLL_WORK {
            return Err("the parallel groups are too large to analyse".to_owned());
        }
        let m = mask.get(&v).copied().unwrap_or(0);
        if m == full {
            return Ok(Some(v));
        }
        for (w, _) in &adj[v] {
            let e = mask.entry(*w).or_insert(0);
            if *e == 0 {
                heap.push(Reverse((rank[*w], *w)));
            }
            *e |= m;
        }
    }
    Ok(None)
}

/// Kahn's order, taking ready nodes lowest index first. Kept written out rather than
/// petgraph's `toposort` (a depth-first order): fork joins are ranked by this order
/// (`find_join`), and another valid order can pick another join where two are unordered.
pub(super) fn topo_order(adj: &[Vec<(usize, usize)>]) -> Vec<usize> {
    let n = adj.len();
    let mut indeg = vec![0usize; n];
    for outs in adj {
        for (w, _) in outs {
            indeg[*w] += 1;
        }
    }
    let mut ready: Vec<usize> = (0..n).filter(|v| indeg[*v] == 0).rev().collect();
    let mut order = Vec::with_capacity(n);
    while let Some(v) = ready.pop() {
        order.push(v);
        for (w, _) in adj[v].iter().rev() {
            indeg[*w] -= 1;
            if indeg[*w] == 0 {
                ready.push(*w);
            }
        }
    }
    order
}
