//! LangSmith runs as LangGraph's tracer records them (reference runs.md §3): JSON lines of runs
//! (`list_runs` dumped one a line), or one run with its `child_runs` loaded. One trace is one
//! run of the graph; its root is the graph's invocation.
//!
//! LangGraph puts the node and superstep in `extra.metadata` (`langgraph_node`,
//! `langgraph_step`); children inherit the metadata, so a node's step is the highest run that
//! carries it and the model and tool calls beneath are its sub-steps. Runs are ordered by
//! `dotted_order` (`<start>Z<uuid>` segments joined by dots: a tree walk in time order).

use std::collections::HashMap;

use indexmap::IndexMap;
use serde_json::{Map, Value};
use trellis_spec::Diagnostic;

use crate::codes;
use crate::fields::{self, string};
use crate::json_text::Item;
use crate::model::{
    Cost, GraphIdentity, Run, RunOutcome, RunSource, Step, StepError, StepKind, StepStatus, Tokens,
};
use crate::time;

/// Whether a value is a LangSmith run.
pub fn is_run(v: &Value) -> bool {
    let Some(o) = v.as_object() else { return false };
    o.contains_key("dotted_order")
        || o.contains_key("child_runs")
        || (o.contains_key("run_type") && o.contains_key("id"))
}

fn flatten(v: &Value, place: &str, out: &mut Vec<(Map<String, Value>, String)>) {
    let Some(o) = v.as_object() else { return };
    let mut own = o.clone();
    let children = own.shift_remove("child_runs");
    out.push((own, place.to_owned()));
    if let Some(Value::Array(children)) = children {
        for (i, c) in children.iter().enumerate() {
            flatten(c, &format!("{place}/child_runs/{i}"), out);
        }
    }
}

fn metadata(o: &Map<String, Value>) -> Option<&Map<String, Value>> {
    o.get("extra")?.get("metadata")?.as_object()
}

/// Reads runs (lines, or documents with their children); `wanted` picks a trace.
pub fn read(
    items: &[Item],
    wanted: Option<&str>,
) -> Result<(Run, Vec<String>, Vec<Diagnostic>), Vec<Diagnostic>> {
    let mut out = Vec::new();
    let mut all = Vec::new();
    for item in items {
        match &item.value {
            Value::Array(a) => {
                for (i, v) in a.iter().enumerate() {
                    flatten(v, &format!("{}/{i}", item.place), &mut all);
                }
            }
            v => flatten(v, &item.place, &mut all),
        }
    }
    // Per trace: its runs, each with the place it was read from.
    type Runs = Vec<(Map<String, Value>, String)>;
    let mut traces: IndexMap<String, Runs> = IndexMap::new();
    let ids: HashMap<String, String> = all
        .iter()
        .filter_map(|(o, _)| Some((string(o, "id")?, string(o, "parent_run_id").unwrap_or_default())))
        .collect();
    for (o, place) in all {
        // A run's trace is its `trace_id`, else the root its parents lead to.
        let trace = string(&o, "trace_id").unwrap_or_else(|| {
            let mut id = string(&o, "id").unwrap_or_default();
            let mut hops = 0;
            while let Some(p) = ids.get(&id).filter(|p| !p.is_empty() && hops < 10_000) {
                id = p.clone();
                hops += 1;
            }
            id
        });
        traces.entry(trace).or_default().push((o, place));
    }
    if traces.is_empty() {
        return Err(vec![Diagnostic::error(codes::NO_STEPS, "the file holds no LangSmith run")]);
    }
    let chosen = match wanted {
        Some(w) => traces.get_index_of(w).ok_or_else(|| {
            vec![Diagnostic::error(
                codes::NO_SUCH_RUN,
                format!(
                    "no trace {w} in the file; it holds {}",
                    traces.keys().cloned().collect::<Vec<_>>().join(", ")
                ),
            )]
        })?,
        None => (0..traces.len()).max_by_key(|&i| (traces[i].len(), std::cmp::Reverse(i))).unwrap_or(0),
    };
    let others: Vec<String> =
        traces.keys().enumerate().filter(|(i, _)| *i != chosen).map(|(_, k)| k.clone()).collect();
    if !others.is_empty() && wanted.is_none() {
        out.push(Diagnostic::info(
            codes::MANY_RUNS,
            format!("the file holds {} traces; the one with most runs is shown", others.len() + 1),
        ));
    }
    let (trace, runs) = traces.swap_remove_index(chosen).unwrap_or_default();
    Ok((build(&trace, runs), others, out))
}

fn status_of(o: &Map<String, Value>) -> StepStatus {
    match string(o, "status").as_deref() {
        Some("error") => StepStatus::Error,
        Some("pending") | Some("running") => StepStatus::Running,
        _ if o.get("error").is_some_and(|e| !e.is_null()) => StepStatus::Error,
        _ => StepStatus::Ok,
    }
}

fn build(trace: &str, mut runs: Vec<(Map<String, Value>, String)>) -> Run {
    let key = |o: &Map<String, Value>| {
        string(o, "dotted_order").unwrap_or_else(|| string(o, "start_time").unwrap_or_default())
    };
    runs.sort_by_key(|(o, _)| key(o));
    let mut run = Run::new(RunSource::Langsmith, trace);
    let present: HashMap<String, usize> =
        runs.iter().enumerate().filter_map(|(i, (o, _))| Some((string(o, "id")?, i))).collect();
    let is_root =
        |o: &Map<String, Value>| string(o, "parent_run_id").is_none_or(|p| !present.contains_key(&p));
    let root = runs.iter().position(|(o, _)| is_root(o));
    let root_is_node =
        root.is_some_and(|r| metadata(&runs[r].0).is_some_and(|m| m.contains_key("langgraph_node")));
    let frame = root.filter(|_| !root_is_node);
    if let Some((o, _)) = frame.map(|r| &runs[r]) {
        run.id = string(o, "id").unwrap_or_else(|| trace.to_owned());
        run.graph = GraphIdentity { name: string(o, "name"), ..GraphIdentity::default() };
        run.started_ms = o.get("start_time").and_then(time::millis);
        run.ended_ms = o.get("end_time").and_then(time::millis);
        run.input = o.get("inputs").and_then(Value::as_object).cloned();
        run.thread = metadata(o).and_then(|m| string(m, "thread_id"));
        run.status = match status_of(o) {
            StepStatus::Error => RunOutcome::Error,
            StepStatus::Running => RunOutcome::Running,
            _ => RunOutcome::Done,
        };
        run.error = o.get("error").and_then(|e| (!e.is_null()).then(|| fields::error_of(e)));
    }
    let mut step_of: HashMap<usize, usize> = HashMap::new();
    // Each step's inherited (node, superstep), to tell a node's own run from its children.
    let mut meta_of: Vec<(Option<String>, Option<u64>)> = Vec::new();
    for (i, (o, _)) in runs.iter().enumerate() {
        if Some(i) == frame {
            continue;
        }
        let meta = metadata(o);
        let node = meta.and_then(|m| string(m, "langgraph_node"));
        let superstep = meta.and_then(|m| m.get("langgraph_step")).and_then(fields::uint);
        let parent = string(o, "parent_run_id")
            .and_then(|p| present.get(&p).copied())
            .and_then(|p| step_of.get(&p).copied());
        // Children inherit the metadata: the node's step is the highest run that has it.
        let inherited = node.is_some() && parent.is_some_and(|p| meta_of[p] == (node.clone(), superstep));
        let run_type = string(o, "run_type").unwrap_or_default();
        let kind = if node.is_some() && !inherited {
            StepKind::Node
        } else {
            match run_type.as_str() {
                "llm" | "embedding" => StepKind::Llm,
                "tool" | "retriever" => StepKind::Tool,
                _ => StepKind::Other,
            }
        };
        let name = string(o, "name").unwrap_or_else(|| run_type.clone());
        let mut s = Step::new(string(o, "id").unwrap_or_default(), name, kind);
        s.node = if kind == StepKind::Node { node.clone() } else { None };
        s.superstep = superstep;
        s.parent = parent;
        s.started_ms = o.get("start_time").and_then(time::millis);
        s.ended_ms = o.get("end_time").and_then(time::millis);
        s.status = status_of(o);
        s.input = o.get("inputs").filter(|v| !v.is_null()).cloned();
        s.output = o.get("outputs").filter(|v| !v.is_null()).cloned();
        if s.status == StepStatus::Error {
            s.error = Some(o.get("error").map_or_else(
                || StepError { kind: None, message: "the run ended with status error".into() },
                fields::error_of,
            ));
        }
        let tokens = Tokens {
            input: o.get("prompt_tokens").and_then(fields::uint),
            output: o.get("completion_tokens").and_then(fields::uint),
            total: o.get("total_tokens").and_then(fields::uint),
            ..Tokens::default()
        };
        s.tokens = (!tokens.is_empty() && tokens.sum() > 0).then_some(tokens);
        s.cost = o
            .get("total_cost")
            .and_then(fields::number)
            .filter(|c| *c > 0.0)
            .map(|amount| Cost { amount, currency: None });
        // A node that failed and ran again in the same superstep: the next attempt.
        if kind == StepKind::Node {
            let earlier = run
                .steps
                .iter()
                .rposition(|p| p.kind == StepKind::Node && p.node == s.node && p.superstep == superstep);
            if let Some(e) = earlier.filter(|&e| run.steps[e].status == StepStatus::Error) {
                run.steps[e].status = StepStatus::Retried;
                s.attempt = run.steps[e].attempt + 1;
            }
        }
        step_of.insert(i, run.steps.len());
        meta_of.push((node, superstep));
        run.steps.push(s);
    }
    if frame.is_none() {
        run.status = if run.steps.iter().any(|s| s.status == StepStatus::Error && s.parent.is_none()) {
            RunOutcome::Error
        } else {
            RunOutcome::Done
        };
    }
    run.roll_up();
    run
}
