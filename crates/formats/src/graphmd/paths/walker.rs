//! The walk that lists paths: from each node its alternatives (one edge, or a parallel group
//! run to its join), memoized per (node, stop), and stopped past [`MAX_PATHS`] or [`MAX_WORK`].

use super::charge::{charge, Charge};
use super::partial::{Partial, Step};
use super::price::PriceTable;
use super::unroll::{adjacency, find_join, topo_order, Unrolled, XEdge, XKind};
use crate::graphmd::topology::Topology;
use std::collections::HashMap;
use std::collections::HashSet;
use std::rc::Rc;

/// Most paths listed one by one; past it the analysis summarizes.
pub const MAX_PATHS: usize = 2_000;
/// Most partial paths built in all while listing paths; past it the analysis summarizes.
pub const MAX_WORK: usize = 200_000;

/// One way out of a node.
#[derive(Debug, Clone)]
pub(super) enum Alt {
    Edge { to: usize, orig: Option<usize> },
    Fork { branches: Vec<(usize, usize)>, join: Option<usize> },
}

pub(super) struct Walker<'a> {
    pub(super) t: &'a Topology,
    pub(super) u: Unrolled,
    pub(super) charges: Vec<Charge>,
    pub(super) exits: Vec<bool>,
    pub(super) alts: Vec<Vec<Alt>>,
    /// Partial paths built so far: listing stops past [`MAX_WORK`] even when no single
    /// list is long (many short lists on a big unrolled graph).
    pub(super) work: std::cell::Cell<usize>,
}

#[derive(Debug, Clone, Copy)]
pub(super) struct TooMany;

/// A memo key: (unrolled node, where to stop, whether this is the top level rather than a
/// parallel branch).
pub(super) type Key = (usize, Option<usize>, bool);
/// Partial paths per (node, stop), or "too many".
pub(super) type WalkMemo = HashMap<(usize, Option<usize>), Result<Rc<Vec<Partial>>, TooMany>>;

impl<'a> Walker<'a> {
    pub(super) fn new(
        t: &'a Topology,
        u: Unrolled,
        prices: Option<&PriceTable>,
    ) -> Result<Walker<'a>, String> {
        let charges = t.nodes.iter().map(|n| charge(n, t, prices)).collect();
        let exit_ids: HashSet<&str> = t.exits.iter().map(String::as_str).collect();
        let exits = u.orig.iter().map(|o| exit_ids.contains(t.nodes[*o].id.as_str())).collect();
        let n = u.orig.len();
        let adj = adjacency(&u);
        let order = topo_order(&adj);
        let mut rank = vec![0usize; n];
        for (i, v) in order.iter().enumerate() {
            rank[*v] = i;
        }
        let mut alts: Vec<Vec<Alt>> = vec![Vec::new(); n];
        let mut work = 0usize;
        let mut out_edges: Vec<Vec<XEdge>> = vec![Vec::new(); n];
        for e in &u.edges {
            out_edges[e.from].push(*e);
        }
        for (x, x_alts) in alts.iter_mut().enumerate() {
            let mut fork = Vec::new();
            for e in &out_edges[x] {
                match e.kind {
                    XKind::Parallel => fork.push((e.to, e.orig.unwrap_or(usize::MAX))),
                    _ => x_alts.push(Alt::Edge { to: e.to, orig: e.orig }),
                }
            }
            match fork.len() {
                0 => {}
                1 => x_alts.push(Alt::Edge { to: fork[0].0, orig: Some(fork[0].1) }),
                _ => {
                    let join = find_join(&adj, &rank, &fork, &mut work)?;
                    x_alts.push(Alt::Fork { branches: fork, join });
                }
            }
        }
        Ok(Walker { t, u, charges, exits, alts, work: std::cell::Cell::new(0) })
    }

    /// The visit of unrolled node `x` alone.
    pub(super) fn head(&self, x: usize) -> Partial {
        let o = self.u.orig[x];
        Partial::start(o, self.charges[o])
    }

    /// `head` (the visit of `x`), then `rest` reached by the edge `orig` (None: the judge's
    /// fallback route).
    pub(super) fn via(&self, head: &Partial, x: usize, orig: Option<usize>, rest: &Partial) -> Partial {
        let step = match orig {
            Some(e) => Step::Edge(e),
            None => Step::Fallback(self.u.orig[x]),
        };
        head.then_with(&[step], rest)
    }

    /// Every partial path from `x` until `stop` (exclusive), an exit, or a dead end. Memoized,
    /// including the "too many" answer. Call [`Walker::warm`] first so that the recursion
    /// below only ever finds memoized answers (a long chain must not overflow the stack).
    pub(super) fn walk(
        &self,
        x: usize,
        stop: Option<usize>,
        memo: &mut WalkMemo,
    ) -> Result<Rc<Vec<Partial>>, TooMany> {
        if let Some(r) = memo.get(&(x, stop)) {
            return r.clone();
        }
        let r = self.walk_uncached(x, stop, memo);
        memo.insert((x, stop), r.clone());
        r
    }

    pub(super) fn walk_uncached(
        &self,
        x: usize,
        stop: Option<usize>,
        memo: &mut WalkMemo,
    ) -> Result<Rc<Vec<Partial>>, TooMany> {
        if self.work.get() > MAX_WORK {
            return Err(TooMany);
        }
        let head = self.head(x);
        let mut out: Vec<Partial> = Vec::new();
        if self.exits[x] || self.alts[x].is_empty() {
            let mut p = head.clone();
            p.exit = self.exits[x].then_some(x);
            out.push(p);
        }
        for alt in &self.alts[x] {
            match alt {
                Alt::Edge { to, orig } => {
                    if Some(*to) == stop {
                        out.push(self.via(&head, x, *orig, &Partial::empty()));
                        continue;
                    }
                    for rest in self.walk(*to, stop, memo)?.iter() {
                        out.push(self.via(&head, x, *orig, rest));
                        if out.len() > MAX_PATHS {
                            return Err(TooMany);
                        }
                    }
                }
                Alt::Fork { branches, join } => {
                    let until = join.or(stop);
                    let mut combos: Vec<Partial> = vec![Partial::empty()];
                    let mut first = true;
                    for (b, edge) in branches {
                        let ways = if Some(*b) == until {
                            Rc::new(vec![Partial::empty()])
                        } else {
                            self.walk(*b, until, memo)?
                        };
                        let mut next = Vec::new();
                        for c in &combos {
                            for w in ways.iter() {
                                let prev = if first { None } else { Some((None, c)) };
                                let parts: Vec<(Option<usize>, &Partial)> =
                                    prev.into_iter().chain([(Some(*edge), w)]).collect();
                                next.push(Partial::together(&parts));
                                if next.len() > MAX_PATHS {
                                    return Err(TooMany);
                                }
                            }
                        }
                        first = false;
                        combos = next;
                    }
                    let rests = match join {
                        Some(j) if Some(*j) != stop => self.walk(*j, stop, memo)?,
                        _ => Rc::new(vec![Partial::empty()]),
                    };
                    for c in &combos {
                        let mid = head.then(None, c);
                        for r in rests.iter() {
                            let mut p = mid.then(None, r);
                            p.exit = r.exit.or(c.exit);
                            out.push(p);
                            if out.len() > MAX_PATHS {
                                return Err(TooMany);
                            }
                        }
                    }
                }
            }
        }
        self.work.set(self.work.get().saturating_add(out.len()));
        if self.work.get() > MAX_WORK {
            return Err(TooMany);
        }
        Ok(Rc::new(out))
    }

    /// The memo keys `(node, stop, top level)` that answering `key` needs.
    pub(super) fn deps(&self, (x, stop, top): Key) -> Vec<Key> {
        let mut out = Vec::new();
        for alt in &self.alts[x] {
            match alt {
                Alt::Edge { to, .. } if Some(*to) != stop => out.push((*to, stop, top)),
                Alt::Edge { .. } => {}
                Alt::Fork { branches, join } => {
                    let until = join.or(stop);
                    for (b, _) in branches {
                        if Some(*b) != until {
                            out.push((*b, until, join.is_some() || !top));
                        }
                    }
                    if let Some(j) = join.filter(|j| Some(*j) != stop) {
                        out.push((j, stop, top));
                    }
                }
            }
        }
        out
    }

    /// Calls `visit` on every key `root` depends on, dependencies first, without recursion:
    /// afterwards the memoized recursive functions answer `root` one level deep.
    pub(super) fn warm(&self, root: Key, mut visit: impl FnMut(Key)) {
        let mut done: HashSet<Key> = HashSet::new();
        let mut stack = vec![(root, false)];
        while let Some((k, expanded)) = stack.pop() {
            if done.contains(&k) {
                continue;
            }
            if expanded {
                visit(k);
                done.insert(k);
                continue;
            }
            stack.push((k, true));
            for d in self.deps(k) {
                if !done.contains(&d) {
                    stack.push((d, false));
                }
            }
        }
    }
}
