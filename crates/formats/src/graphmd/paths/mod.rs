//! Path analysis of a GRAPH.md: deterministic, no model calls (docs/graphmd.md "Path
//! analysis").
//!
//! 1. The checked topology becomes an acyclic graph: every bounded loop is unrolled (its body
//!    copied `max_iterations` times, each copy able to leave the loop), and each judge gets
//!    its `fallback` as one more way out.
//! 2. Paths are walked from the entry. At a node, sequential, conditional and fallback edges
//!    are alternatives (one is taken); its parallel edges together are one alternative whose
//!    branches run to their join (the first node every branch reaches) and are charged
//!    together: tokens and cost add, latency is the slowest branch.
//! 3. When the number of paths passes [`MAX_PATHS`], the walk stops and a summary is made
//!    instead: the exact count (dynamic programming) and the worst path for tokens, for cost
//!    and for latency (exact, by dynamic programming as well). Work is linear in the size of
//!    the unrolled graph, so even 2^60 paths are summarized without walking them.
//!
//! One concern a file: the price table (`price`), what one visit of a node costs (`charge`),
//! the unrolled acyclic graph (`unroll`), a path as it is built (`partial`), the walk that lists
//! paths (`walker`), the count and worst paths past the listing limit (`summary`), and what the
//! analysis answers (`report`). [`analyse`] puts them together.

mod charge;
pub mod codes;
mod partial;
mod price;
mod report;
mod summary;
mod unroll;
mod walker;

pub use charge::{charge, Charge, DEFAULT_TOKENS_PER_OPTION, DEFAULT_TOKENS_PER_QUESTION};
pub use price::{Price, PriceTable};
pub use report::{Analysis, Contribution, Mode, PathReport};
pub use unroll::{MAX_UNROLLED_NODES, MAX_UNROLL_WORK};
pub use walker::{MAX_PATHS, MAX_WORK};

use crate::graphmd::topology::Topology;
use partial::Metric;
use report::worse;
use std::collections::{HashMap, HashSet};
use trellis_spec::Diagnostic;
use unroll::{adjacency, topo_order, unroll};
use walker::{Key, TooMany, Walker};

/// Analyses the paths of a checked document. `diagnostics` are the validator's: with any
/// error the analysis is refused (a diagnostic says why).
pub fn analyse(t: &Topology, diagnostics: &[Diagnostic], prices: Option<&PriceTable>) -> Analysis {
    let budget = t.budget;
    if let Some(first) = diagnostics.iter().find(|d| d.is_error()) {
        return Analysis::empty(
            budget,
            prices.is_some(),
            Diagnostic::error(
                codes::NOT_ANALYSABLE,
                format!(
                    "the paths are not analysed because the document has errors (first: {})",
                    first.message
                ),
            ),
        );
    }
    let Some(entry) = t.entry.as_deref().and_then(|e| t.nodes.iter().position(|n| n.id == e)) else {
        return Analysis::empty(
            budget,
            prices.is_some(),
            Diagnostic::error(codes::NOT_ANALYSABLE, "the document has no entry node"),
        );
    };
    let u = match unroll(t) {
        Ok(u) => u,
        Err(message) => {
            return Analysis::empty(
                budget,
                prices.is_some(),
                Diagnostic::error(codes::TOO_LARGE_TO_ANALYSE, message),
            );
        }
    };
    // The validator guarantees an acyclic graph once loops are unrolled; check anyway, since
    // walking a cycle would never end.
    if topo_order(&adjacency(&u)).len() != u.orig.len() {
        return Analysis::empty(
            budget,
            prices.is_some(),
            Diagnostic::error(
                codes::NOT_ANALYSABLE,
                "the graph has a cycle that no bounded loop edge closes",
            ),
        );
    }
    let w = match Walker::new(t, u, prices) {
        Ok(w) => w,
        Err(message) => {
            return Analysis::empty(
                budget,
                prices.is_some(),
                Diagnostic::error(codes::TOO_LARGE_TO_ANALYSE, message),
            );
        }
    };
    let mut notes = Vec::new();
    let mut memo = HashMap::new();
    let root: Key = (entry, None, true);
    w.warm(root, |(x, stop, _)| {
        let _ = w.walk(x, stop, &mut memo);
    });
    let (mode, mut paths, path_count) = match w.walk(entry, None, &mut memo) {
        Ok(all) => {
            let reports: Vec<PathReport> =
                all.iter().filter(|p| p.exit.is_some()).map(|p| w.report(p, &budget)).collect();
            let n = reports.len() as u128;
            (Mode::Exhaustive, reports, n)
        }
        Err(TooMany) => {
            let mut counts = HashMap::new();
            w.warm(root, |(x, stop, top)| {
                w.count(x, stop, top, &mut counts);
            });
            let count = w.count(entry, None, true, &mut counts);
            let mut reports: Vec<PathReport> = Vec::new();
            for m in [Metric::Cost, Metric::Tokens, Metric::Latency] {
                let mut bests = HashMap::new();
                w.warm(root, |(x, stop, top)| {
                    w.best(x, stop, top, m, &mut bests);
                });
                if let Some(p) = w.best(entry, None, true, m, &mut bests) {
                    let r = w.report(&p, &budget);
                    if !reports.iter().any(|x| x.nodes == r.nodes && x.edges == r.edges) {
                        reports.push(r);
                    }
                }
            }
            notes.push(format!(
                "{} paths: too many to list (limit {MAX_PATHS}); shown are the worst paths for cost, tokens and latency, and only those are checked against the budget",
                if count == u128::MAX { "more than 10^38".to_owned() } else { count.to_string() }
            ));
            (Mode::Summary, reports, count)
        }
    };
    if paths.is_empty() {
        notes.push("no path from the entry reaches an exit".to_owned());
    }
    let mut worst: Option<usize> = None;
    for (i, p) in paths.iter().enumerate() {
        if worst.is_none_or(|w| worse(p, &paths[w])) {
            worst = Some(i);
        }
    }
    let over_budget: Vec<usize> =
        paths.iter().enumerate().filter(|(_, p)| !p.over_budget.is_empty()).map(|(i, _)| i).collect();
    let on_paths: HashSet<&str> = paths.iter().flat_map(|p| p.nodes.iter().map(String::as_str)).collect();
    let unestimated: Vec<String> = t
        .nodes
        .iter()
        .filter(|n| on_paths.contains(n.id.as_str()) && n.judge.is_none() && n.model_key.is_some())
        .filter(|n| {
            n.estimates.input_tokens.is_none()
                && n.estimates.output_tokens.is_none()
                && n.estimates.cost_usd.is_none()
        })
        .map(|n| n.id.clone())
        .collect();
    if !unestimated.is_empty() {
        notes.push(format!(
            "nodes with a model but no token estimate are charged 0 tokens: {}",
            unestimated.join(", ")
        ));
    }
    if paths.iter().any(|p| p.cost_usd.is_none()) {
        let unpriced: Vec<String> = t
            .nodes
            .iter()
            .filter(|n| on_paths.contains(n.id.as_str()) && w.charges[n_index(t, &n.id)].cost_usd.is_none())
            .map(|n| {
                format!(
                    "{} ({})",
                    n.id,
                    n.model_key
                        .as_deref()
                        .or(n.judge.as_ref().map(|j| j.decision_model.as_str()))
                        .unwrap_or("?")
                )
            })
            .collect();
        notes.push(if prices.is_none() {
            format!("cost is unknown: no price table was given (nodes with a model: {})", unpriced.join(", "))
        } else {
            format!("cost is unknown where the price table has no price for: {}", unpriced.join(", "))
        });
        if budget.cost_usd.is_some() {
            notes.push("the cost budget cannot be checked on paths whose cost is unknown".to_owned());
        }
    }
    if mode == Mode::Summary {
        paths.truncate(3);
    }
    Analysis {
        mode,
        path_count,
        budget,
        paths,
        worst,
        over_budget,
        priced: prices.is_some(),
        unestimated,
        notes,
        diagnostics: Vec::new(),
    }
}

fn n_index(t: &Topology, id: &str) -> usize {
    t.nodes.iter().position(|n| n.id == id).unwrap_or(0)
}
