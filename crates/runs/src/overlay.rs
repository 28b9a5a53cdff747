//! A run's path on the graph: which nodes it visited and how often, which edges it took and how
//! often, the graph's edges and nodes it left alone, and the nodes it visited that the graph
//! does not have (ghosts). Computed once per run and sent as data; the canvas draws it and
//! moves through the steps on its own.
//!
//! Which edge a step came in by: the steps of one superstep ran because the steps of the one
//! before planned them, so a step's edges are the graph's edges into its node from the nodes of
//! the superstep before (from `__start__` for the first). When none leads there (a code router,
//! another version of the graph), the edge is inferred from the step before, as Weaveflow's
//! replay does, and marked as not in the graph. A run that ended done takes its last nodes'
//! edges to `__end__`.

use indexmap::IndexMap;
use serde::Serialize;
use trellis_spec::{END, START};
use ts_rs::TS;

use crate::graph::GraphShape;
use crate::model::{Run, RunOutcome, StepStatus};

/// How far back (in supersteps) a node's predecessor is looked for before an edge is inferred.
const LOOK_BACK: usize = 3;

/// A node the run visited.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct NodeVisit {
    pub id: String,
    /// Tasks of this node (retries not counted again).
    pub visits: u32,
    pub errors: u32,
    pub retries: u32,
    pub interrupted: bool,
    /// Not a node of the graph.
    pub ghost: bool,
    /// The first step that ran it.
    pub first_step: u32,
}

/// An edge the run took.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct EdgeTraversal {
    pub from: String,
    pub to: String,
    pub count: u32,
    /// The graph has this edge (else it was inferred from consecutive steps).
    pub in_graph: bool,
}

/// An edge by its ends.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, TS)]
#[ts(export)]
pub struct EdgeEnds {
    pub from: String,
    pub to: String,
}

/// The run's path on a graph.
#[derive(Debug, Clone, Default, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct PathOverlay {
    pub nodes: Vec<NodeVisit>,
    pub edges: Vec<EdgeTraversal>,
    /// Per step (by index), the edges (indices into `edges`) it came in by.
    pub incoming: Vec<Vec<u32>>,
    /// The graph's edges the run never took (dimmed).
    pub untaken: Vec<EdgeEnds>,
    /// The graph's nodes the run never visited (dimmed).
    pub unvisited: Vec<String>,
}

struct Edges {
    index: IndexMap<(String, String), EdgeTraversal>,
}

impl Edges {
    fn take(&mut self, from: &str, to: &str, in_graph: bool) -> u32 {
        let key = (from.to_owned(), to.to_owned());
        let entry = self.index.entry(key);
        let i = entry.index();
        entry
            .or_insert_with(|| EdgeTraversal { from: from.to_owned(), to: to.to_owned(), count: 0, in_graph })
            .count += 1;
        i as u32
    }
}

/// The run's path on `graph`.
pub fn path(run: &Run, graph: &GraphShape) -> PathOverlay {
    let mut nodes: IndexMap<String, NodeVisit> = IndexMap::new();
    let mut edges = Edges { index: IndexMap::new() };
    let mut incoming: Vec<Vec<u32>> = vec![Vec::new(); run.steps.len()];

    // The path's steps grouped by superstep, in order; a step with no superstep is a group of
    // its own. The input step is `__start__`'s group.
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut current: Option<Option<u64>> = None;
    for (i, s) in run.steps.iter().enumerate() {
        if !s.on_path() {
            continue;
        }
        let key = s.superstep;
        match (current, groups.last_mut()) {
            (Some(k), Some(g)) if k == key && key.is_some() => g.push(i),
            _ => {
                groups.push(vec![i]);
                current = Some(key);
            }
        }
    }
    let node_of = |i: usize| run.steps[i].node.as_deref().unwrap_or("");
    let starts_with_input = groups.first().is_some_and(|g| g.iter().any(|&i| node_of(i) == START));

    for (gi, group) in groups.iter().enumerate() {
        for &i in group {
            let s = &run.steps[i];
            let id = node_of(i);
            let visit = nodes.entry(id.to_owned()).or_insert_with(|| NodeVisit {
                id: id.to_owned(),
                visits: 0,
                errors: 0,
                retries: 0,
                interrupted: false,
                ghost: !graph.has_node(id),
                first_step: i as u32,
            });
            match s.status {
                StepStatus::Error => visit.errors += 1,
                StepStatus::Retried => visit.retries += 1,
                StepStatus::Interrupted => visit.interrupted = true,
                _ => {}
            }
            if s.attempt > 1 {
                continue;
            }
            visit.visits += 1;
            if id == START {
                continue;
            }
            // Where it came from: the graph's edges from a recent superstep.
            let mut found = false;
            let first = gi == 0 || (gi == 1 && starts_with_input);
            if first && graph.has_edge(START, id) {
                incoming[i].push(edges.take(START, id, true));
                found = true;
            }
            for back in 1..=LOOK_BACK.min(gi) {
                if found {
                    break;
                }
                let mut preds: Vec<&str> = groups[gi - back].iter().map(|&p| node_of(p)).collect();
                preds.dedup();
                for p in preds {
                    if graph.has_edge(p, id)
                        && !incoming[i].iter().any(|&e| edges.index[e as usize].from == p)
                    {
                        incoming[i].push(edges.take(p, id, true));
                        found = true;
                    }
                }
            }
            if !found {
                // Inferred from the step before (the latest to end of the group before).
                let from = match gi.checked_sub(1) {
                    Some(prev) => groups[prev]
                        .iter()
                        .copied()
                        .max_by(|&a, &b| {
                            let end = |k: usize| run.steps[k].ended_ms.unwrap_or(f64::NEG_INFINITY);
                            end(a).total_cmp(&end(b)).then(a.cmp(&b))
                        })
                        .map(node_of),
                    None => Some(START),
                };
                if let Some(from) = from.filter(|f| *f != START || graph.has_node(id)) {
                    let in_graph = graph.has_edge(from, id);
                    incoming[i].push(edges.take(from, id, in_graph));
                }
            }
        }
    }
    if run.status == RunOutcome::Done {
        if let Some(last) = groups.last() {
            let mut ends: Vec<&str> = last.iter().map(|&i| node_of(i)).collect();
            ends.dedup();
            for n in ends {
                if graph.has_edge(n, END) {
                    edges.take(n, END, true);
                }
            }
        }
    }
    let untaken = graph
        .edges
        .iter()
        .filter(|(f, t)| !edges.index.contains_key(&(f.clone(), t.clone())))
        .map(|(f, t)| EdgeEnds { from: f.clone(), to: t.clone() })
        .collect();
    let unvisited = graph.nodes.iter().filter(|n| !nodes.contains_key(*n)).cloned().collect();
    PathOverlay {
        nodes: nodes.into_values().collect(),
        edges: edges.index.into_values().collect(),
        incoming,
        untaken,
        unvisited,
    }
}
