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
//!    the unrolled graph, so 2^60 paths are summarized in microseconds.

use crate::graphmd::validate::{Budget, EdgeKind, Items, NodeInfo, Topology};
use indexmap::IndexMap;
use serde::Serialize;
use serde_json::Value;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;
use trellis_spec::Diagnostic;

/// Most paths listed one by one; past it the analysis summarizes.
pub const MAX_PATHS: usize = 2_000;
/// Most partial paths built in all while listing paths; past it the analysis summarizes.
pub const MAX_WORK: usize = 200_000;
/// Most steps spent finding loop bodies while unrolling; past it the analysis is refused.
pub const MAX_UNROLL_WORK: usize = 20_000_000;
/// Most nodes the loop unrolling may create; past it the analysis is refused.
pub const MAX_UNROLLED_NODES: usize = 100_000;
/// Tokens charged per judge question in the count form (overridable per node with
/// `estimates.tokens_per_question`).
pub const DEFAULT_TOKENS_PER_QUESTION: u64 = 30;
/// Tokens charged per judge option in the count form (`estimates.tokens_per_option`).
pub const DEFAULT_TOKENS_PER_OPTION: u64 = 10;

pub mod codes {
    //! Diagnostic codes of path analysis.
    /// The price table is not valid (not JSON, wrong shape, negative price).
    pub const BAD_PRICE_TABLE: &str = "graphmd/bad-price-table";
    /// The document has errors, so its paths are not analysed.
    pub const NOT_ANALYSABLE: &str = "graphmd/not-analysable";
    /// Loop bounds are so large that unrolling would pass the work limit.
    pub const TOO_LARGE_TO_ANALYSE: &str = "graphmd/too-large-to-analyse";
}

/// USD per million tokens for one model.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, ts_rs::TS)]
#[ts(export, rename = "GraphMdPrice")]
pub struct Price {
    pub input_per_mtok: f64,
    pub output_per_mtok: f64,
}

/// `model_key` -> price. Read from the user's JSON file with [`PriceTable::parse`].
#[derive(Debug, Clone, Default, PartialEq, Serialize, ts_rs::TS)]
#[ts(export, rename = "GraphMdPriceTable")]
pub struct PriceTable {
    pub models: IndexMap<String, Price>,
}

impl PriceTable {
    /// Parses `{"models": {"openai:gpt-5-mini": {"input_per_mtok": 0.25, "output_per_mtok": 2.0}}}`.
    pub fn parse(text: &str) -> Result<PriceTable, Vec<Diagnostic>> {
        let v = trellis_spec::json::parse(text).map_err(|mut d| {
            d.code = codes::BAD_PRICE_TABLE.to_owned();
            vec![d]
        })?;
        let mut errs = Vec::new();
        let mut models = IndexMap::new();
        let bad = |msg: String, ptr: &str| Diagnostic::error(codes::BAD_PRICE_TABLE, msg).at(ptr);
        match v.as_object().and_then(|o| o.get("models")).and_then(Value::as_object) {
            None => errs.push(bad("a price table is an object with `models`: {\"<model_key>\": {\"input_per_mtok\": N, \"output_per_mtok\": N}}".into(), "")),
            Some(m) => {
                if let Some(o) = v.as_object() {
                    for k in o.keys().filter(|k| *k != "models" && *k != "currency" && *k != "$comment") {
                        errs.push(bad(format!("unknown key `{k}` in the price table"), &trellis_spec::diagnostic::pointer([k])));
                    }
                    if let Some(c) = o.get("currency") {
                        if c.as_str() != Some("USD") {
                            errs.push(bad("`currency` must be \"USD\" (budgets are in cost_usd)".into(), "/currency"));
                        }
                    }
                }
                for (key, p) in m {
                    let ptr = trellis_spec::diagnostic::pointer(["models", key]);
                    let get = |f: &str| p.get(f).and_then(Value::as_f64).filter(|x| x.is_finite() && *x >= 0.0);
                    match (get("input_per_mtok"), get("output_per_mtok")) {
                        (Some(i), Some(o)) => {
                            models.insert(key.clone(), Price { input_per_mtok: i, output_per_mtok: o });
                        }
                        _ => errs.push(bad(format!("model `{key}` needs `input_per_mtok` and `output_per_mtok` (USD per million tokens, 0 or more)"), &ptr)),
                    }
                }
            }
        }
        if errs.is_empty() {
            Ok(PriceTable { models })
        } else {
            trellis_spec::json::fill_spans(text, &mut errs);
            Err(errs)
        }
    }
}

/// What one visit of a node costs.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, ts_rs::TS)]
#[ts(export, rename = "GraphMdCharge")]
pub struct Charge {
    #[ts(type = "number")]
    pub input_tokens: u64,
    #[ts(type = "number")]
    pub output_tokens: u64,
    /// `None` when unknown (a model call with no price and no explicit `cost_usd`).
    pub cost_usd: Option<f64>,
    #[ts(type = "number")]
    pub latency_ms: u64,
}

impl Charge {
    pub fn tokens(&self) -> u64 {
        self.input_tokens.saturating_add(self.output_tokens)
    }
}

fn text_tokens(s: &str) -> u64 {
    (s.chars().count() as u64).div_ceil(4).max(1)
}

fn items_tokens(items: &Items, per: u64) -> u64 {
    match items {
        Items::Count(n) => n.saturating_mul(per),
        Items::List(l) => l.iter().map(|s| text_tokens(s)).sum(),
    }
}

/// The charge of one visit of `n` (docs/graphmd.md "What a node is charged").
pub fn charge(n: &NodeInfo, t: &Topology, prices: Option<&PriceTable>) -> Charge {
    let e = &n.estimates;
    let price = |model: Option<&str>, input: u64, output: u64| -> Option<f64> {
        if let Some(c) = e.cost_usd {
            return Some(c);
        }
        let Some(model) = model else { return Some(0.0) };
        let p = prices?.models.get(model)?;
        Some(input as f64 * p.input_per_mtok / 1e6 + output as f64 * p.output_per_mtok / 1e6)
    };
    if let Some(j) = &n.judge {
        let per_q = e.tokens_per_question.unwrap_or(DEFAULT_TOKENS_PER_QUESTION);
        let per_o = e.tokens_per_option.unwrap_or(DEFAULT_TOKENS_PER_OPTION);
        let input = j
            .state_tokens
            .saturating_add(items_tokens(&j.questions, per_q))
            .saturating_add(items_tokens(&j.options, per_o));
        let model = n.model_key.as_deref().or(Some(j.decision_model.as_str()));
        return Charge {
            input_tokens: input,
            output_tokens: 0,
            cost_usd: price(model, input, 0),
            latency_ms: e.latency_ms.unwrap_or(j.timeout_ms).min(j.timeout_ms),
        };
    }
    let reads: u64 = n.reads.iter().filter_map(|r| t.state.get(r)).sum();
    let input = e.input_tokens.unwrap_or(0).saturating_add(e.state_tokens.unwrap_or(0)).saturating_add(reads);
    let output = e.output_tokens.unwrap_or(0);
    Charge {
        input_tokens: input,
        output_tokens: output,
        cost_usd: price(n.model_key.as_deref(), input, output),
        latency_ms: e.latency_ms.unwrap_or(0),
    }
}

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
    fn empty(budget: Budget, priced: bool, d: Diagnostic) -> Analysis {
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

// ---------------------------------------------------------------------------------------
// The unrolled graph.

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum XKind {
    Plain,
    Parallel,
    Loop(u64),
}

#[derive(Debug, Clone, Copy)]
struct XEdge {
    from: usize,
    to: usize,
    kind: XKind,
    /// Index in the document's `edges`; None for a judge fallback.
    orig: Option<usize>,
}

struct Unrolled {
    /// Topology node index of each unrolled node.
    orig: Vec<usize>,
    edges: Vec<XEdge>,
}

fn unroll(t: &Topology) -> Result<Unrolled, String> {
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

fn adjacency(u: &Unrolled) -> Vec<Vec<(usize, usize)>> {
    let mut adj = vec![Vec::new(); u.orig.len()];
    for (i, e) in u.edges.iter().enumerate().filter(|(_, e)| !matches!(e.kind, XKind::Loop(_))) {
        adj[e.from].push((e.to, i));
    }
    adj
}

// ---------------------------------------------------------------------------------------
// Walking.

/// One way out of a node.
#[derive(Debug, Clone)]
enum Alt {
    Edge { to: usize, orig: Option<usize> },
    Fork { branches: Vec<(usize, usize)>, join: Option<usize> },
}

struct Walker<'a> {
    t: &'a Topology,
    u: Unrolled,
    charges: Vec<Charge>,
    exits: Vec<bool>,
    alts: Vec<Vec<Alt>>,
    /// Partial paths built so far: listing stops past [`MAX_WORK`] even when no single
    /// list is long (many short lists on a big unrolled graph).
    work: std::cell::Cell<usize>,
}

/// One step of a path.
#[derive(Debug, Clone, Copy)]
enum Step {
    /// A visit of a topology node.
    Node(usize),
    /// A document edge taken.
    Edge(usize),
    /// The judge (topology node) left by its fallback route.
    Fallback(usize),
}

/// An immutable list of steps. Partial paths share their tails, so putting a node in front of
/// the paths that follow it costs O(1): a long chain is not copied quadratically.
#[derive(Debug)]
struct StepCell {
    step: Step,
    next: List,
}

type List = Option<Rc<StepCell>>;

impl Drop for StepCell {
    // Unlink iteratively: dropping a long list recursively would overflow the stack.
    fn drop(&mut self) {
        let mut next = self.next.take();
        while let Some(rc) = next {
            match Rc::try_unwrap(rc) {
                Ok(mut cell) => next = cell.next.take(),
                Err(_) => break,
            }
        }
    }
}

fn prepend(items: &[Step], tail: List) -> List {
    items.iter().rev().fold(tail, |next, step| Some(Rc::new(StepCell { step: *step, next })))
}

fn steps_of(list: &List) -> Vec<Step> {
    let mut out = Vec::new();
    let mut at = list.as_deref();
    while let Some(c) = at {
        out.push(c.step);
        at = c.next.as_deref();
    }
    out
}

/// A partial path: steps and totals.
#[derive(Debug, Clone, Default)]
struct Partial {
    steps: List,
    tokens: u64,
    cost: f64,
    cost_known: bool,
    latency: u64,
    exit: Option<usize>,
}

impl Partial {
    fn empty() -> Partial {
        Partial { cost_known: true, ..Partial::default() }
    }
    fn start(w: &Walker<'_>, x: usize) -> Partial {
        let o = w.u.orig[x];
        let c = w.charges[o];
        Partial {
            steps: prepend(&[Step::Node(o)], None),
            tokens: c.tokens(),
            cost: c.cost_usd.unwrap_or(0.0),
            cost_known: c.cost_usd.is_some(),
            latency: c.latency_ms,
            exit: None,
        }
    }
    /// This partial path, then `extra` steps, then `rest` (whose steps are shared, not copied).
    fn then_with(&self, extra: &[Step], rest: &Partial) -> Partial {
        let mut items = steps_of(&self.steps);
        items.extend_from_slice(extra);
        Partial {
            steps: prepend(&items, rest.steps.clone()),
            tokens: self.tokens.saturating_add(rest.tokens),
            cost: self.cost + rest.cost,
            cost_known: self.cost_known && rest.cost_known,
            latency: self.latency.saturating_add(rest.latency),
            exit: rest.exit,
        }
    }
    fn then(&self, edge: Option<usize>, rest: &Partial) -> Partial {
        let extra: Vec<Step> = edge.map(Step::Edge).into_iter().collect();
        self.then_with(&extra, rest)
    }
    /// Branches run together: tokens and cost add, latency is the slowest.
    fn together(parts: &[(Option<usize>, &Partial)]) -> Partial {
        let mut p = Partial::empty();
        let mut items = Vec::new();
        for (edge, b) in parts {
            items.extend(edge.map(Step::Edge));
            items.extend(steps_of(&b.steps));
            p.tokens = p.tokens.saturating_add(b.tokens);
            p.cost += b.cost;
            p.cost_known &= b.cost_known;
            p.latency = p.latency.max(b.latency);
            p.exit = p.exit.or(b.exit);
        }
        p.steps = prepend(&items, None);
        p
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Metric {
    Tokens,
    Cost,
    Latency,
}

fn metric(p: &Partial, m: Metric) -> f64 {
    match m {
        Metric::Tokens => p.tokens as f64,
        Metric::Cost => p.cost,
        Metric::Latency => p.latency as f64,
    }
}

#[derive(Debug, Clone, Copy)]
struct TooMany;

/// A memo key: (unrolled node, where to stop, whether this is the top level rather than a
/// parallel branch).
type Key = (usize, Option<usize>, bool);
/// Partial paths per (node, stop), or "too many".
type WalkMemo = HashMap<(usize, Option<usize>), Result<Rc<Vec<Partial>>, TooMany>>;

/// Worst partial path per (node, stop, top level).
type BestMemo = HashMap<(usize, Option<usize>, bool), Option<Rc<Partial>>>;

impl<'a> Walker<'a> {
    fn new(t: &'a Topology, u: Unrolled, prices: Option<&PriceTable>) -> Result<Walker<'a>, String> {
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

    /// `head` (the visit of `x`), then `rest` reached by the edge `orig` (None: the judge's
    /// fallback route).
    fn via(&self, head: &Partial, x: usize, orig: Option<usize>, rest: &Partial) -> Partial {
        let step = match orig {
            Some(e) => Step::Edge(e),
            None => Step::Fallback(self.u.orig[x]),
        };
        head.then_with(&[step], rest)
    }

    /// Every partial path from `x` until `stop` (exclusive), an exit, or a dead end. Memoized,
    /// including the "too many" answer. Call [`Walker::warm`] first so that the recursion
    /// below only ever finds memoized answers (a long chain must not overflow the stack).
    fn walk(&self, x: usize, stop: Option<usize>, memo: &mut WalkMemo) -> Result<Rc<Vec<Partial>>, TooMany> {
        if let Some(r) = memo.get(&(x, stop)) {
            return r.clone();
        }
        let r = self.walk_uncached(x, stop, memo);
        memo.insert((x, stop), r.clone());
        r
    }

    fn walk_uncached(
        &self,
        x: usize,
        stop: Option<usize>,
        memo: &mut WalkMemo,
    ) -> Result<Rc<Vec<Partial>>, TooMany> {
        if self.work.get() > MAX_WORK {
            return Err(TooMany);
        }
        let head = Partial::start(self, x);
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
    fn deps(&self, (x, stop, top): Key) -> Vec<Key> {
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
    fn warm(&self, root: Key, mut visit: impl FnMut(Key)) {
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

    /// How many partial paths `walk` would return (saturating).
    fn count(
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
    fn best(
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
        let head = Partial::start(self, x);
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

    fn report(&self, p: &Partial, budget: &Budget) -> PathReport {
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

/// The join of a parallel group: the earliest node (topological order) that every branch
/// reaches. A search in rank order from the branch targets that stops at the first node every
/// branch has reached, so a near join is found without walking the whole graph. `work`
/// counts nodes visited over all groups and is bounded by [`MAX_UNROLL_WORK`].
fn find_join(
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
fn topo_order(adj: &[Vec<(usize, usize)>]) -> Vec<usize> {
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

/// Which path is worse: higher cost when both costs are known, otherwise more tokens, then
/// more latency.
fn worse(a: &PathReport, b: &PathReport) -> bool {
    match (a.cost_usd, b.cost_usd) {
        (Some(x), Some(y)) if (x - y).abs() > 1e-12 => return x > y,
        _ => {}
    }
    (a.tokens, a.latency_ms) > (b.tokens, b.latency_ms)
}

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
