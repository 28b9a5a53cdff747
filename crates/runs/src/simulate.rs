//! The simulator's runs: a GraphSpec run on trellis-spec's deterministic executor with mocked
//! nodes, recorded as Ilmek's events in Trellis's run log, so a simulated run is read back into
//! the same model as a captured one (the command line's `simulate --record` and the app's
//! step-through both go through here).
//!
//! Each node returns the update its mock gives (by node id, else by node type; an id wins), or
//! no update. The executor keeps no per-node record of what it ran, so every node's function
//! is wrapped to note its update as it returns; the state after each superstep is folded from
//! those with the same reducers the executor uses.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};

use serde_json::{json, Map, Value};
use trellis_spec::executor::{self, RunResult, RunStatus};
use trellis_spec::graph::{from_spec, CompiledGraph, Graph};
use trellis_spec::registry::{Built, NodeFn, Registry, State};
use trellis_spec::{Diagnostic, GraphSpec};

use crate::graph::Reducers;
use crate::log::{self, LogHeader};

/// A mock: what a node (by id) or every node of a type returns.
pub type Mock = (String, Map<String, Value>);

fn no_update() -> NodeFn {
    Arc::new(|_: &State| Ok(Map::new()))
}

/// The graph with every node's behaviour replaced by its mock (later mocks win for one key).
pub fn mocked_graph(spec: &GraphSpec, mocks: &[Mock]) -> Result<Graph, Vec<Diagnostic>> {
    // Every type the document names runs as a mock, whatever a registry says it does.
    let mut registry = Registry::new();
    let mut seen = HashSet::new();
    for t in spec.nodes.iter().filter_map(|n| n.type_name.as_deref()) {
        if seen.insert(t) {
            registry.register(t, |_| Built::Node(no_update()));
        }
    }
    let mut graph = from_spec(spec, &registry)?;
    for node in &mut graph.nodes {
        let by_id = mocks.iter().rev().find(|(k, _)| *k == node.id);
        let by_type = || mocks.iter().rev().find(|(k, _)| Some(k.as_str()) == node.type_name.as_deref());
        node.run = match by_id.or_else(by_type) {
            Some((_, update)) => {
                let update = update.clone();
                Arc::new(move |_: &State| Ok(update.clone()))
            }
            None => no_update(),
        };
    }
    Ok(graph)
}

/// A simulated run: the executor's trace and the events that record it.
#[derive(Debug, Clone)]
pub struct Simulation {
    pub result: RunResult,
    /// Ilmek's events, in order.
    pub events: Vec<Value>,
}

/// Runs `graph` (with its mocks in place) on `input`, noting each node's update.
pub fn run(
    graph: Graph,
    spec: &GraphSpec,
    input: Map<String, Value>,
    limit: usize,
    run_id: &str,
    thread_id: &str,
) -> Result<Simulation, Vec<Diagnostic>> {
    // The update each node returned, in the order they ran.
    type Noted = Vec<(String, Map<String, Value>)>;
    let noted: Arc<Mutex<Noted>> = Arc::new(Mutex::new(Vec::new()));
    let mut graph = graph;
    for node in &mut graph.nodes {
        let inner = node.run.clone();
        let id = node.id.clone();
        let noted = noted.clone();
        node.run = Arc::new(move |state: &State| {
            let update = inner(state)?;
            noted.lock().unwrap_or_else(|e| e.into_inner()).push((id.clone(), update.clone()));
            Ok(update)
        });
    }
    let compiled: CompiledGraph = graph.compile()?;
    let result = executor::run(&compiled, input.clone().into_iter().collect(), limit);
    let noted = std::mem::take(&mut *noted.lock().unwrap_or_else(|e| e.into_inner()));
    let events = events_of(&result, &noted, spec, &input, run_id, thread_id);
    Ok(Simulation { result, events })
}

fn envelope(kind: &str, run_id: &str, thread_id: &str, seq: &mut u64, fields: Value) -> Value {
    *seq += 1;
    let mut e = json!({"type": kind, "runId": run_id, "threadId": thread_id, "seq": *seq, "ns": []});
    if let (Some(e), Value::Object(f)) = (e.as_object_mut(), fields) {
        e.extend(f);
    }
    e
}

fn error_value(d: &Diagnostic, name: &str) -> Value {
    json!({"name": name, "message": d.message})
}

/// The events Ilmek would emit for this trace (superstep numbers from 0, as Ilmek counts).
fn events_of(
    result: &RunResult,
    noted: &[(String, Map<String, Value>)],
    spec: &GraphSpec,
    input: &Map<String, Value>,
    run_id: &str,
    thread_id: &str,
) -> Vec<Value> {
    let reducers = Reducers::from_spec(spec);
    let mut seq = 0u64;
    let mut ev = |kind: &str, fields: Value| envelope(kind, run_id, thread_id, &mut seq, fields);
    let mut out = vec![ev("run_start", json!({}))];
    let mut state = Map::new();
    reducers.fold(&mut state, input);
    let mut updates = noted.iter();
    let failed = result.status == RunStatus::Error;
    let steps = &result.steps;
    for (k, step) in steps.iter().enumerate().skip(1) {
        let superstep = (k - 1) as u64;
        let plan = if k == 1 { "root".to_owned() } else { format!("s{superstep}") };
        out.push(ev("step_start", json!({"step": superstep, "tasks": step.ran})));
        for node in &step.ran {
            out.push(ev("node_start", json!({"node": node, "taskId": format!("{thread_id}:{plan}:{node}")})));
        }
        let mut wrote = Vec::new();
        for node in &step.ran {
            match updates.next() {
                Some((id, update)) if id == node => {
                    out.push(ev("node_end", json!({"node": node, "update": update})));
                    wrote.push(update);
                }
                _ => {}
            }
        }
        let last = k + 1 == steps.len();
        if last && failed {
            if let Some(e) = &result.error {
                let node = match &e.element {
                    Some(trellis_spec::Element::Node { id }) => id.clone(),
                    _ => String::new(),
                };
                let error = error_value(e, "GraphError");
                out.push(ev("node_error", json!({"node": node, "error": error})));
                out.push(ev("run_end", json!({"status": "error", "errors": [[node, error]]})));
                return out;
            }
        }
        for u in wrote {
            reducers.fold(&mut state, u);
        }
        out.push(ev("state", json!({"channels": ordered(&state, &reducers)})));
    }
    match (&result.status, &result.error) {
        (RunStatus::Done, _) => out.push(ev("run_end", json!({"status": "done", "state": result.state}))),
        (_, Some(e)) => {
            let name =
                if result.status == RunStatus::StepLimit { "RecursionLimitError" } else { "GraphError" };
            out.push(ev("run_end", json!({"status": "error", "errors": [["", error_value(e, name)]]})));
        }
        (_, None) => {}
    }
    out
}

/// The channels in declaration order (as Ilmek's `materialize` lists them), then any other.
fn ordered(state: &Map<String, Value>, reducers: &Reducers) -> Map<String, Value> {
    let mut out = Map::new();
    for name in reducers.declared() {
        if let Some(v) = state.get(name) {
            out.insert(name.to_owned(), v.clone());
        }
    }
    for (k, v) in state {
        if !out.contains_key(k) {
            out.insert(k.clone(), v.clone());
        }
    }
    out
}

/// The run log of a simulation: its header, then each event stamped by `now`.
pub fn log_text(sim: &Simulation, header: &LogHeader, now: &mut dyn FnMut() -> f64) -> String {
    let mut text = log::header_line(header);
    for e in &sim.events {
        text.push_str(&log::event_line(now(), e));
    }
    text
}
