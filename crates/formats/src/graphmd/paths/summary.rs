//! Past the listing limit: the exact number of paths and the worst path for each metric, both
//! by dynamic programming over the same alternatives the walk follows.

use super::partial::{metric, Metric, Partial};
use super::walker::{Alt, Walker};
use std::collections::HashMap;
use std::rc::Rc;

/// Worst partial path per (node, stop, top level).
pub(super) type BestMemo = HashMap<(usize, Option<usize>, bool), Option<Rc<Partial>>>;

impl Walker<'_> {
    /// How many partial paths `walk` would return (saturating).
    pub(super) fn count(
        &self,
        x: usize,
        stop: Option<usize>,
        top: bool,
        memo: &mut HashMap<(usize, Option<usize>, bool), u128>,
    ) -> u128 {
        if let Some(c) = memo.get(&(x, stop, top)) {
            return *c;
        }
        // An exit ends a path; when it also has a way on, runs may continue through it.
        let mut total: u128 = 0;
        if self.exits[x] {
            total = 1;
        } else if self.alts[x].is_empty() {
            total = u128::from(!top);
        }
        for alt in &self.alts[x] {
            let n = match alt {
                Alt::Edge { to, .. } if Some(*to) == stop => 1,
                Alt::Edge { to, .. } => self.count(*to, stop, top, memo),
                Alt::Fork { branches, join } => {
                    let until = join.or(stop);
                    let mut n: u128 = 1;
                    for (b, _) in branches {
                        let c = if Some(*b) == until {
                            1
                        } else {
                            self.count(*b, until, join.is_some() || !top, memo)
                        };
                        n = n.saturating_mul(c);
                    }
                    match join {
                        Some(j) if Some(*j) != stop => n.saturating_mul(self.count(*j, stop, top, memo)),
                        _ => n,
                    }
                }
            };
            total = total.saturating_add(n);
        }
        memo.insert((x, stop, top), total);
        total
    }

    /// The partial path from `x` that is worst for `m` (exact: every metric adds along a path
    /// and adds or takes the maximum across parallel branches, both monotone).
    pub(super) fn best(
        &self,
        x: usize,
        stop: Option<usize>,
        top: bool,
        m: Metric,
        memo: &mut BestMemo,
    ) -> Option<Rc<Partial>> {
        if let Some(c) = memo.get(&(x, stop, top)) {
            return c.clone();
        }
        let head = self.head(x);
        let mut best: Option<Partial> = None;
        let mut consider = |p: Partial| {
            if best.as_ref().is_none_or(|b| metric(&p, m) > metric(b, m)) {
                best = Some(p);
            }
        };
        if self.exits[x] || (self.alts[x].is_empty() && !top) {
            let mut p = head.clone();
            p.exit = self.exits[x].then_some(x);
            consider(p);
        }
        for alt in &self.alts[x] {
            match alt {
                Alt::Edge { to, orig } if Some(*to) == stop => {
                    consider(self.via(&head, x, *orig, &Partial::empty()));
                }
                Alt::Edge { to, orig } => {
                    if let Some(r) = self.best(*to, stop, top, m, memo) {
                        consider(self.via(&head, x, *orig, &r));
                    }
                }
                Alt::Fork { branches, join } => {
                    let until = join.or(stop);
                    let mut parts: Vec<(Option<usize>, Rc<Partial>)> = Vec::new();
                    let mut ok = true;
                    for (b, e) in branches {
                        let w = if Some(*b) == until {
                            Some(Rc::new(Partial::empty()))
                        } else {
                            self.best(*b, until, join.is_some() || !top, m, memo)
                        };
                        match w {
                            Some(w) => parts.push((Some(*e), w)),
                            None => ok = false,
                        }
                    }
                    if !ok {
                        continue;
                    }
                    let refs: Vec<(Option<usize>, &Partial)> =
                        parts.iter().map(|(e, p)| (*e, p.as_ref())).collect();
                    let together = Partial::together(&refs);
                    if top && join.is_none() && together.exit.is_none() {
                        continue;
                    }
                    let mid = head.then(None, &together);
                    match join {
                        Some(j) if Some(*j) != stop => {
                            if let Some(r) = self.best(*j, stop, top, m, memo) {
                                let mut p = mid.then(None, &r);
                                p.exit = r.exit.or(together.exit);
                                consider(p);
                            }
                        }
                        _ => {
                            let mut p = mid;
                            p.exit = together.exit;
                            consider(p);
                        }
                    }
                }
            }
        }
        let r = best.map(Rc::new);
        memo.insert((x, stop, top), r.clone());
        r
    }
}
