//! The small deterministic executor (formats.md §1.4/§1.5, MODEL.md §4): enough of the
//! reference engine to try a graph's routing without a model. The same code runs spec-built
//! and code-built graphs.
//!
//! The loop, as the reference runs it:
//! 1. The input is folded into the channels by their reducers (an undeclared channel is an
//!    error), then `__start__` plans the first superstep. The trace records this as step 0
//!    (`ran: ["__start__"]`), so every edge that fired appears in the trace.
//! 2. Each superstep runs its nodes against the state as it was before the step (siblings never
//!    see each other's writes), then folds their updates into the channels in task order (the
//!    order nodes are declared), each channel by its own reducer.
//! 3. From every node that ran, in task order: every static edge and every true guard fires (no
//!    first match, no else), then every router's result. Targets are deduplicated (a node
//!    reached twice runs once) and `__end__` drops out. A router target that is not a node is
//!    an error.
//! 4. No targets left: `done`. More supersteps than the limit: `step_limit`.
//!
//! No hash map is ever iterated: order comes from the graph's vectors only.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

use crate::diagnostic::Diagnostic;
use crate::graph::CompiledGraph;
use crate::model::{END, START};
use crate::registry::State;

/// The reference's default superstep budget (`recursionLimit`).
pub const DEFAULT_LIMIT: usize = 25;

/// Codes of run-time problems.
pub mod codes {
    /// A node (or the input) wrote to a channel the graph does not declare.
    pub const UNDECLARED_CHANNEL: &str = "run/undeclared-channel";
    /// A router produced a target that is not a node of the graph.
    pub const UNKNOWN_TARGET: &str = "run/unknown-target";
    /// A node function returned an error.
    pub const NODE_FAILED: &str = "run/node-failed";
    /// The run needed more supersteps than the limit.
    pub const STEP_LIMIT: &str = "run/step-limit";
}

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum RunStatus {
    /// Nothing left to schedule.
    Done,
    /// Still scheduling nodes after `limit` supersteps.
    StepLimit,
    /// A node failed, wrote an undeclared channel, or a router named an unknown node.
    Error,
}

/// One edge that fired: `from` ran and `to` was scheduled (or `__end__` reached).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Fired {
    pub from: String,
    pub to: String,
}

/// One superstep of the trace. Step 0 is the input step (`ran: ["__start__"]`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct StepRecord {
    pub step: usize,
    /// The nodes that ran, in task order.
    pub ran: Vec<String>,
    /// The edges that fired after they ran: per node in task order, its edges in document order,
    /// then its routers' results.
    pub fired: Vec<Fired>,
}

/// The outcome of [`run`]: the JSON shape `trellis simulate` prints.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct RunResult {
    pub status: RunStatus,
    pub steps: Vec<StepRecord>,
    /// The channels written so far, in declaration order.
    #[ts(type = "Record<string, unknown>")]
    pub state: State,
    /// Why the run stopped, when it did not end `done`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub error: Option<Diagnostic>,
}

/// Runs `graph` on `input` for at most `limit` supersteps.
pub fn run(graph: &CompiledGraph, input: State, limit: usize) -> RunResult {
    let mut run = Run { graph, state: State::new(), steps: Vec::new() };
    let input_update: serde_json::Map<String, Value> = input.into_iter().collect();
    if let Err(e) = run.fold(&[(START, &input_update)]) {
        return run.finish(RunStatus::Error, Some(e));
    }
    let mut next = match run.plan(0, &[START]) {
        Ok(next) => next,
        Err(e) => return run.finish(RunStatus::Error, Some(e)),
    };
    let mut step = 0usize;
    loop {
        if next.is_empty() {
            return run.finish(RunStatus::Done, None);
        }
        if step >= limit {
            let names: Vec<&str> = next.iter().map(|&i| graph.graph().nodes[i].id.as_str()).collect();
            let message = format!(
                "exceeded {limit} supersteps (still scheduling {}). Raise the limit or check for a cycle.",
                serde_json::to_string(&names).unwrap_or_default()
            );
            return run.finish(RunStatus::StepLimit, Some(Diagnostic::error(codes::STEP_LIMIT, message)));
        }
        step += 1;
        next = match run.superstep(step, &next) {
            Ok(next) => next,
            Err(e) => return run.finish(RunStatus::Error, Some(e)),
        };
    }
}

struct Run<'g> {
    graph: &'g CompiledGraph,
    state: State,
    steps: Vec<StepRecord>,
}

impl Run<'_> {
    /// Runs the scheduled nodes (indices in task order) and plans the next step.
    fn superstep(&mut self, step: usize, scheduled: &[usize]) -> Result<Vec<usize>, Diagnostic> {
        let nodes = &self.graph.graph().nodes;
        let ran: Vec<&str> = scheduled.iter().map(|&i| nodes[i].id.as_str()).collect();
        // Every node reads the state as it was before the step.
        let mut updates = Vec::with_capacity(scheduled.len());
        for &i in scheduled {
            let node = &nodes[i];
            let update = (node.run)(&self.state).map_err(|message| {
                self.steps.push(StepRecord { step, ran: to_owned(&ran), fired: Vec::new() });
                Diagnostic::error(codes::NODE_FAILED, format!("node \"{}\" failed: {message}", node.id))
                    .on_node(&node.id)
            })?;
            updates.push((node.id.as_str(), update));
        }
        let borrowed: Vec<(&str, &serde_json::Map<String, Value>)> =
            updates.iter().map(|(n, u)| (*n, u)).collect();
        if let Err(e) = self.fold(&borrowed) {
            self.steps.push(StepRecord { step, ran: to_owned(&ran), fired: Vec::new() });
            return Err(e);
        }
        self.plan(step, &ran)
    }

    /// Folds updates into the state, in the order given (task order). Atomic: every channel is
    /// checked before anything is written, so on an undeclared channel nothing of the step is
    /// applied.
    fn fold(&mut self, updates: &[(&str, &serde_json::Map<String, Value>)]) -> Result<(), Diagnostic> {
        let channels = &self.graph.graph().channels;
        for (writer, update) in updates {
            if let Some(name) = update.keys().find(|name| !channels.contains_key(*name)) {
                let d = Diagnostic::error(
                    codes::UNDECLARED_CHANNEL,
                    format!("undeclared channel {}", quote(name)),
                )
                .naming_channel(name.as_str());
                return Err(if *writer == START { d } else { d.on_node(*writer) });
            }
        }
        for (_, update) in updates {
            for (name, value) in update.iter() {
                if let Some(channel) = channels.get(name) {
                    let folded = channel.reducer.apply(self.state.get(name), value);
                    self.state.insert(name.clone(), folded);
                }
            }
        }
        Ok(())
    }

    /// Records what fires from `ran` (in order) against the current state and returns the
    /// deduplicated targets in task order.
    fn plan(&mut self, step: usize, ran: &[&str]) -> Result<Vec<usize>, Diagnostic> {
        let mut fired = Vec::new();
        let mut targets: Vec<usize> = Vec::new();
        let mut seen: HashSet<usize> = HashSet::new();
        let mut result = Ok(());
        'nodes: for &from in ran {
            for edge in self.graph.edges_from(from) {
                if edge.guard.as_ref().is_none_or(|g| g.test(&self.state)) {
                    fired.push(Fired { from: from.to_owned(), to: edge.to.clone() });
                    if let Some(i) = self.graph.node_index(&edge.to) {
                        if seen.insert(i) {
                            targets.push(i);
                        }
                    }
                }
            }
            for router in self.graph.routers_from(from) {
                for target in (router.route)(&self.state) {
                    if target == END {
                        fired.push(Fired { from: from.to_owned(), to: target });
                        continue;
                    }
                    let Some(i) = self.graph.node_index(&target) else {
                        result = Err(self.unknown_target(from, &target));
                        break 'nodes;
                    };
                    fired.push(Fired { from: from.to_owned(), to: target });
                    if seen.insert(i) {
                        targets.push(i);
                    }
                }
            }
        }
        self.steps.push(StepRecord { step, ran: to_owned(ran), fired });
        result?;
        // A step runs its nodes in task order, whatever order they were reached in.
        targets.sort_unstable();
        Ok(targets)
    }

    fn unknown_target(&self, from: &str, target: &str) -> Diagnostic {
        let known: Vec<&str> = self.graph.graph().nodes.iter().map(|n| n.id.as_str()).collect();
        let message = format!(
            "routing from {} produced {}, which is not a node in this graph. Known nodes: {}",
            quote(from),
            quote(target),
            serde_json::to_string(&known).unwrap_or_default()
        );
        let d = Diagnostic::error(codes::UNKNOWN_TARGET, message);
        if from == START {
            d
        } else {
            d.on_node(from)
        }
    }

    fn finish(self, status: RunStatus, error: Option<Diagnostic>) -> RunResult {
        // Declaration order, not write order: the same run always prints the same state.
        let mut state = State::new();
        for name in self.graph.graph().channels.keys() {
            if let Some(v) = self.state.get(name) {
                state.insert(name.clone(), v.clone());
            }
        }
        RunResult { status, steps: self.steps, state, error }
    }
}

fn to_owned(names: &[&str]) -> Vec<String> {
    names.iter().map(|s| (*s).to_owned()).collect()
}

/// `JSON.stringify` of a name, as the reference quotes names in messages.
fn quote(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

#[cfg(test)]
mod tests;
