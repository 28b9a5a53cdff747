//! Figures of runs: per node how often it ran, how long it took (median and 95th percentile),
//! tokens and cost, errors; for one run its path; for many runs, how often each edge was taken
//! and which of the graph's edges no run took (dead branches).

use indexmap::IndexMap;
use rayon::prelude::*;
use serde::Serialize;
use ts_rs::TS;

use crate::graph::GraphShape;
use crate::model::{Run, RunOutcome, StepKind, StepStatus};
use crate::overlay::{self, EdgeEnds};

/// One node's figures.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct NodeStats {
    pub id: String,
    /// Tasks (retries not counted again).
    pub count: u32,
    pub errors: u32,
    pub retries: u32,
    #[ts(optional)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub median_ms: Option<f64>,
    #[ts(optional)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub p95_ms: Option<f64>,
    pub total_ms: f64,
    #[ts(type = "number")]
    pub tokens: u64,
    pub cost: f64,
    /// The currency, when every cost counted gave the same one.
    #[ts(optional)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub currency: Option<String>,
}

/// An error of a run, where it happened.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct ErrorAt {
    pub step: u32,
    pub name: String,
    pub message: String,
}

/// One run in figures.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct RunSummary {
    pub status: crate::model::RunOutcome,
    pub steps: u32,
    /// The nodes in the order they ran (`__start__` first when the input is recorded).
    pub path: Vec<String>,
    #[ts(optional)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<f64>,
    #[ts(type = "number")]
    pub tokens: u64,
    pub cost: f64,
    #[ts(optional)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub currency: Option<String>,
    pub errors: Vec<ErrorAt>,
    pub nodes: Vec<NodeStats>,
}

#[derive(Default)]
struct Acc {
    count: u32,
    errors: u32,
    retries: u32,
    durations: Vec<f64>,
    tokens: u64,
    cost: f64,
    currency: Option<Option<String>>,
}

impl Acc {
    fn add_run(&mut self, run: &Run, i: usize) {
        let s = &run.steps[i];
        if s.attempt <= 1 {
            self.count += 1;
        }
        match s.status {
            StepStatus::Error => self.errors += 1,
            StepStatus::Retried => self.retries += 1,
            _ => {}
        }
        if let Some(d) = s.duration_ms() {
            self.durations.push(d);
        }
        if let Some(t) = &s.tokens {
            self.tokens = self.tokens.saturating_add(t.sum());
        }
        if let Some(c) = &s.cost {
            self.cost += c.amount;
            self.currency = match self.currency.take() {
                None => Some(c.currency.clone()),
                Some(cur) if cur == c.currency => Some(cur),
                Some(_) => Some(None),
            };
        }
    }

    fn merge(&mut self, o: Acc) {
        self.count += o.count;
        self.errors += o.errors;
        self.retries += o.retries;
        self.durations.extend(o.durations);
        self.tokens = self.tokens.saturating_add(o.tokens);
        self.cost += o.cost;
        self.currency = match (self.currency.take(), o.currency) {
            (None, x) | (x, None) => x,
            (Some(a), Some(b)) if a == b => Some(a),
            _ => Some(None),
        };
    }

    fn stats(mut self, id: String) -> NodeStats {
        self.durations.sort_by(f64::total_cmp);
        let total_ms = self.durations.iter().sum();
        NodeStats {
            id,
            count: self.count,
            errors: self.errors,
            retries: self.retries,
            median_ms: percentile(&self.durations, 50.0),
            p95_ms: percentile(&self.durations, 95.0),
            total_ms,
            tokens: self.tokens,
            cost: self.cost,
            currency: self.currency.flatten(),
        }
    }
}

/// The nearest-rank percentile of sorted values.
pub fn percentile(sorted: &[f64], p: f64) -> Option<f64> {
    if sorted.is_empty() {
        return None;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    Some(sorted[rank.clamp(1, sorted.len()) - 1])
}

fn per_node(run: &Run) -> IndexMap<String, Acc> {
    let mut nodes: IndexMap<String, Acc> = IndexMap::new();
    for (i, s) in run.steps.iter().enumerate() {
        if s.kind != StepKind::Node {
            continue;
        }
        let Some(node) = &s.node else { continue };
        nodes.entry(node.clone()).or_default().add_run(run, i);
    }
    nodes
}

/// One run's figures.
pub fn summarize(run: &Run) -> RunSummary {
    let nodes = per_node(run);
    let mut total = Acc::default();
    let mut path = Vec::new();
    let mut errors = Vec::new();
    for (i, s) in run.steps.iter().enumerate() {
        if s.on_path() && s.attempt <= 1 {
            path.push(s.node.clone().unwrap_or_default());
        }
        if let Some(e) = &s.error {
            if matches!(s.status, StepStatus::Error | StepStatus::Retried) {
                errors.push(ErrorAt {
                    step: i as u32,
                    name: s.node.clone().unwrap_or(s.name.clone()),
                    message: e.message.clone(),
                });
            }
        }
        // Count each node step once (sub-steps are in their node's figures already); top-level
        // calls that belong to no node count for the run.
        if s.kind == StepKind::Node || (s.parent.is_none() && s.kind != StepKind::Input) {
            let mut acc = Acc::default();
            acc.add_run(run, i);
            total.merge(acc);
        }
    }
    if let (Some(e), true) = (&run.error, run.status == RunOutcome::Error) {
        if errors.is_empty() {
            errors.push(ErrorAt {
                step: run.steps.len() as u32,
                name: "run".into(),
                message: e.message.clone(),
            });
        }
    }
    RunSummary {
        status: run.status,
        steps: run.steps.len() as u32,
        path,
        duration_ms: run.duration_ms(),
        tokens: total.tokens,
        cost: total.cost,
        currency: total.currency.flatten(),
        errors,
        nodes: nodes.into_iter().map(|(id, a)| a.stats(id)).collect(),
    }
}

/// An edge's traffic over many runs.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct EdgeHeat {
    pub from: String,
    pub to: String,
    /// Times taken, over every run.
    pub count: u32,
    /// Runs that took it at least once.
    pub runs: u32,
    pub in_graph: bool,
}

/// Many runs in figures (a folder of runs as a heat map).
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct Aggregate {
    pub runs: u32,
    /// Runs by how they ended.
    pub outcomes: Vec<(crate::model::RunOutcome, u32)>,
    pub edges: Vec<EdgeHeat>,
    /// The graph's edges no run took.
    pub dead: Vec<EdgeEnds>,
    /// The graph's nodes no run visited.
    pub unvisited: Vec<String>,
    pub nodes: Vec<NodeStats>,
}

/// Figures of many runs on one graph (`graph`: the document's, else each run's own path).
pub fn aggregate(runs: &[Run], graph: &GraphShape) -> Aggregate {
    struct Part {
        edges: IndexMap<(String, String), (u32, u32, bool)>,
        nodes: IndexMap<String, Acc>,
        outcomes: IndexMap<RunOutcome, u32>,
    }
    let empty = || Part { edges: IndexMap::new(), nodes: IndexMap::new(), outcomes: IndexMap::new() };
    let merge = |mut a: Part, b: Part| {
        for (k, (c, r, g)) in b.edges {
            let e = a.edges.entry(k).or_insert((0, 0, g));
            e.0 += c;
            e.1 += r;
        }
        for (k, acc) in b.nodes {
            a.nodes.entry(k).or_default().merge(acc);
        }
        for (k, n) in b.outcomes {
            *a.outcomes.entry(k).or_insert(0) += n;
        }
        a
    };
    let total = runs
        .par_iter()
        .map(|run| {
            let mut part = empty();
            let path = overlay::path(run, graph);
            for e in path.edges {
                part.edges.insert((e.from, e.to), (e.count, 1, e.in_graph));
            }
            part.nodes = per_node(run);
            part.outcomes.insert(run.status, 1);
            part
        })
        .reduce(empty, merge);
    let dead = graph
        .edges
        .iter()
        .filter(|k| !total.edges.contains_key(*k))
        .map(|(f, t)| EdgeEnds { from: f.clone(), to: t.clone() })
        .collect();
    let unvisited = graph.nodes.iter().filter(|n| !total.nodes.contains_key(*n)).cloned().collect();
    // Edges and nodes in the graph's order, then what the graph lacks.
    let mut edges: Vec<EdgeHeat> = total
        .edges
        .into_iter()
        .map(|((from, to), (count, runs, in_graph))| EdgeHeat { from, to, count, runs, in_graph })
        .collect();
    edges.sort_by_key(|e| graph.edges.get_index_of(&(e.from.clone(), e.to.clone())).unwrap_or(usize::MAX));
    let mut nodes: Vec<NodeStats> = total.nodes.into_iter().map(|(id, a)| a.stats(id)).collect();
    nodes.sort_by_key(|n| graph.nodes.get_index_of(&n.id).unwrap_or(usize::MAX));
    Aggregate {
        runs: runs.len() as u32,
        outcomes: total.outcomes.into_iter().collect(),
        edges,
        dead,
        unvisited,
        nodes,
    }
}
