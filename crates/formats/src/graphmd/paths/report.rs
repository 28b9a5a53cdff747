//! What the analysis answers: each path reported with its totals, its budget overruns and the
//! node that weighs most, and the whole [`Analysis`].

use super::partial::{steps_of, Partial, Step};
use super::walker::Walker;
use crate::graphmd::topology::Budget;
use indexmap::IndexMap;
use serde::Serialize;
use trellis_spec::Diagnostic;

/// One node's share of a path.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
#[ts(export, rename = "GraphMdContribution")]
pub struct Contribution {
    pub node: String,
    pub visits: u32,
    #[ts(type = "number")]
    pub tokens: u64,
    pub cost_usd: Option<f64>,
    #[ts(type = "number")]
    pub latency_ms: u64,
}

/// One path from the entry to an exit.
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
#[ts(export, rename = "GraphMdPathReport")]
pub struct PathReport {
    /// The exit reached.
    pub exit: String,
    /// Node ids in visiting order (parallel branches one after the other).
    pub nodes: Vec<String>,
    /// Indexes (in the front matter's `edges`) of the edges taken, in order; a judge's
    /// fallback route has no edge and is not listed.
    pub edges: Vec<usize>,
    /// Judges whose `fallback` route this path takes, in order.
    pub fallbacks: Vec<String>,
    #[ts(type = "number")]
    pub tokens: u64,
    /// `None` when some model call on the path has no price.
    pub cost_usd: Option<f64>,
    #[ts(type = "number")]
    pub latency_ms: u64,
    /// Which budget limits this path passes: "tokens", "cost_usd".
    pub over_budget: Vec<String>,
    /// The node that contributes most (to cost when the budget limits cost and the cost is
    /// known, otherwise to tokens, otherwise to latency).
    pub top_node: Option<Contribution>,
    /// Every node's share, in first-visit order.
    pub contributions: Vec<Contribution>,
}

/// How the paths were covered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ts_rs::TS)]
#[ts(export, rename = "GraphMdMode")]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Every path is listed.
    Exhaustive,
    /// Too many paths: the count and the worst paths only.
    Summary,
}

/// The result of [`analyse`].
#[derive(Debug, Clone, PartialEq, Serialize, ts_rs::TS)]
#[ts(export, rename = "GraphMdAnalysis")]
pub struct Analysis {
    pub mode: Mode,
    /// How many entry-to-exit paths exist (exact; saturates at u128::MAX). Serialized as a
    /// string because it can exceed what a JSON number holds exactly.
    #[serde(serialize_with = "as_string")]
    #[ts(type = "string")]
    pub path_count: u128,
    pub budget: Budget,
    /// Exhaustive: every path. Summary: the worst paths for tokens, cost and latency.
    pub paths: Vec<PathReport>,
    /// Index in `paths` of the worst path.
    pub worst: Option<usize>,
    /// Indexes in `paths` of the paths over budget.
    pub over_budget: Vec<usize>,
    /// True when a price table was given.
    pub priced: bool,
    /// Nodes on some path with a model but no token estimate (charged 0 tokens).
    pub unestimated: Vec<String>,
    /// Plain-language remarks (for example why cost is unknown).
    pub notes: Vec<String>,
    /// Problems that prevented or limited the analysis.
    pub diagnostics: Vec<Diagnostic>,
}

fn as_string<S: serde::Serializer>(n: &u128, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&n.to_string())
}

impl Analysis {
    /// True when some path passes the budget.
    pub fn has_over_budget(&self) -> bool {
        !self.over_budget.is_empty()
    }
    pub(super) fn empty(budget: Budget, priced: bool, d: Diagnostic) -> Analysis {
        Analysis {
            mode: Mode::Exhaustive,
            path_count: 0,
            budget,
            paths: Vec::new(),
            worst: None,
            over_budget: Vec::new(),
            priced,
            unestimated: Vec::new(),
            notes: Vec::new(),
            diagnostics: vec![d],
        }
    }
}

impl Walker<'_> {
    /// The report of one walked path, measured against `budget`.
    pub(super) fn report(&self, p: &Partial, budget: &Budget) -> PathReport {
        let (mut nodes, mut edges, mut fallbacks) = (Vec::new(), Vec::new(), Vec::new());
        for step in steps_of(&p.steps) {
            match step {
                Step::Node(o) => nodes.push(o),
                Step::Edge(e) => edges.push(e),
                Step::Fallback(o) => fallbacks.push(o),
            }
        }
        let mut contrib: IndexMap<usize, Contribution> = IndexMap::new();
        for o in &nodes {
            let c = self.charges[*o];
            let e = contrib.entry(*o).or_insert_with(|| Contribution {
                node: self.t.nodes[*o].id.clone(),
                visits: 0,
                tokens: 0,
                cost_usd: Some(0.0),
                latency_ms: 0,
            });
            e.visits += 1;
            e.tokens = e.tokens.saturating_add(c.tokens());
            e.cost_usd = match (e.cost_usd, c.cost_usd) {
                (Some(a), Some(b)) => Some(a + b),
                _ => None,
            };
            e.latency_ms = e.latency_ms.saturating_add(c.latency_ms);
        }
        let cost_usd = p.cost_known.then_some(p.cost);
        let mut over = Vec::new();
        if budget.tokens.is_some_and(|b| p.tokens > b) {
            over.push("tokens".to_owned());
        }
        if let (Some(b), Some(c)) = (budget.cost_usd, cost_usd) {
            if c > b + 1e-12 {
                over.push("cost_usd".to_owned());
            }
        }
        let contributions: Vec<Contribution> = contrib.into_values().collect();
        let by_cost = budget.cost_usd.is_some() && cost_usd.is_some();
        let top_node = contributions
            .iter()
            .max_by(|a, b| {
                let key = |c: &Contribution| {
                    if by_cost {
                        (c.cost_usd.unwrap_or(0.0), c.tokens as f64, c.latency_ms as f64)
                    } else {
                        (c.tokens as f64, c.latency_ms as f64, 0.0)
                    }
                };
                key(a).partial_cmp(&key(b)).unwrap_or(std::cmp::Ordering::Equal)
            })
            .filter(|c| c.tokens > 0 || c.latency_ms > 0 || c.cost_usd.is_some_and(|x| x > 0.0))
            .cloned();
        PathReport {
            exit: p.exit.map(|x| self.t.nodes[self.u.orig[x]].id.clone()).unwrap_or_default(),
            nodes: nodes.iter().map(|o| self.t.nodes[*o].id.clone()).collect(),
            edges,
            fallbacks: fallbacks.iter().map(|o| self.t.nodes[*o].id.clone()).collect(),
            tokens: p.tokens,
            cost_usd,
            latency_ms: p.latency,
            over_budget: over,
            top_node,
            contributions,
        }
    }
}

/// Which path is worse: higher cost when both costs are known, otherwise more tokens, then
/// more latency.
pub(super) fn worse(a: &PathReport, b: &PathReport) -> bool {
    match (a.cost_usd, b.cost_usd) {
        (Some(x), Some(y)) if (x - y).abs() > 1e-12 => return x > y,
        _ => {}
    }
    (a.tokens, a.latency_ms) > (b.tokens, b.latency_ms)
}
