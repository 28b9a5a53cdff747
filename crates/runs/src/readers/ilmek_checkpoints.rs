//! Ilmek's checkpoints (the checkpointer tables, reference runs.md §1) into a run: one thread,
//! its chain of checkpoints from the newest back to the first through `parentId`.
//!
//! A checkpoint is written after each superstep: `channels` is the whole state after it, `next`
//! the tasks of the superstep to come, `step` the superstep to come. So the nodes that ran in a
//! superstep are the previous checkpoint's `next`, and a step's time is the span between the
//! two checkpoints' `ts`. What checkpoints cannot say: which nodes ran in the first superstep
//! (none is written before it: the caller may name them from the graph, `start_nodes`), and each
//! node's own write when several ran side by side (their combined change is the superstep's).
//! TypeScript writes `data` in camelCase, .NET in PascalCase; both are read.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};
use trellis_spec::Diagnostic;

use crate::codes;
use crate::fields::{get, string, uint};
use crate::model::{Interrupt, Run, RunOutcome, RunSource, StateChange, Step, StepKind, StepStatus};

/// One row of `<prefix>_checkpoints`.
#[derive(Debug, Clone)]
pub struct CheckpointRow {
    pub thread: String,
    pub id: String,
    pub data: String,
}

struct Checkpoint {
    id: String,
    parent: Option<String>,
    ts: Option<f64>,
    channels: Map<String, Value>,
    next: Vec<Map<String, Value>>,
    pending: Vec<Map<String, Value>>,
    step: Option<u64>,
}

fn parse(row: &CheckpointRow, out: &mut Vec<Diagnostic>) -> Option<Checkpoint> {
    let place = format!("checkpoint {} of thread {}", row.id, row.thread);
    let value = match crate::json_text::document(&row.data) {
        Ok(v) => v,
        Err(d) => {
            out.push(Diagnostic::warning(
                codes::SYNTAX,
                format!("{place}: its data is not JSON ({}): skipped", d.message),
            ));
            return None;
        }
    };
    let Some(o) = value.as_object() else {
        out.push(Diagnostic::warning(
            codes::BAD_FIELD,
            format!("{place}: its data is not a JSON object: skipped"),
        ));
        return None;
    };
    let objects = |name: &str| -> Vec<Map<String, Value>> {
        get(o, name)
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(Value::as_object).cloned().collect())
            .unwrap_or_default()
    };
    Some(Checkpoint {
        id: string(o, "id").unwrap_or_else(|| row.id.clone()),
        parent: string(o, "parentId"),
        ts: get(o, "ts").and_then(crate::time::millis),
        channels: get(o, "channels").and_then(Value::as_object).cloned().unwrap_or_default(),
        next: objects("next"),
        pending: objects("pending"),
        step: get(o, "step").and_then(uint),
    })
}

/// The threads the rows hold, the most recently written first.
pub fn threads(rows: &[CheckpointRow]) -> Vec<String> {
    let mut latest: HashMap<&str, &str> = HashMap::new();
    for r in rows {
        let e = latest.entry(r.thread.as_str()).or_insert(r.id.as_str());
        if r.id.as_str() > *e {
            *e = r.id.as_str();
        }
    }
    let mut threads: Vec<(&str, &str)> = latest.into_iter().collect();
    // Checkpoint ids sort by time (`ckpt-<µs>-<counter>-<random>`).
    threads.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    threads.into_iter().map(|(t, _)| t.to_owned()).collect()
}

/// Reads one thread's checkpoints into a run. `start_nodes` are the nodes the graph runs
/// first (its `__start__` edges), when the caller knows the graph.
pub fn read_thread(
    rows: &[CheckpointRow],
    thread: &str,
    start_nodes: &[String],
    out: &mut Vec<Diagnostic>,
) -> Run {
    let mut run = Run::new(RunSource::IlmekCheckpoints, thread);
    run.thread = Some(thread.to_owned());
    let all: Vec<Checkpoint> =
        rows.iter().filter(|r| r.thread == thread).filter_map(|r| parse(r, out)).collect();
    if all.is_empty() {
        out.push(Diagnostic::warning(codes::NO_STEPS, format!("thread {thread} has no readable checkpoint")));
        return run;
    }
    let by_id: HashMap<&str, usize> = all.iter().enumerate().map(|(i, c)| (c.id.as_str(), i)).collect();
    // The newest checkpoint, then back through its parents: the thread's line.
    let newest = (0..all.len()).max_by(|&a, &b| all[a].id.cmp(&all[b].id)).unwrap_or(0);
    let mut chain = vec![newest];
    let mut seen: HashSet<usize> = HashSet::from([newest]);
    while let Some(p) = all[*chain.last().unwrap_or(&newest)].parent.as_deref() {
        match by_id.get(p) {
            Some(&i) if seen.insert(i) => chain.push(i),
            Some(_) => break,
            None => {
                out.push(Diagnostic::warning(
                    codes::OUT_OF_ORDER,
                    format!("thread {thread}: checkpoint {p} (a parent) is missing: the run starts after it"),
                ));
                break;
            }
        }
    }
    chain.reverse();
    if all.len() > chain.len() {
        out.push(Diagnostic::info(
            codes::MANY_RUNS,
            format!(
                "thread {thread}: {} checkpoint(s) are on other branches (a resume from an older checkpoint forks the thread); the newest line is shown",
                all.len() - chain.len()
            ),
        ));
    }

    let mut shared = false;
    let mut unknown_first = false;
    for (k, &ci) in chain.iter().enumerate() {
        let c = &all[ci];
        let parent = k.checked_sub(1).map(|p| &all[chain[p]]);
        if !c.pending.is_empty() {
            // A pause: nothing of the superstep was committed; the paused tasks are named.
            for p in &c.pending {
                let node = string(p, "node").unwrap_or_default();
                let mut s = Step::node(string(p, "taskId").unwrap_or_else(|| node.clone()), &node);
                s.superstep = c.step;
                s.started_ms = parent.and_then(|p| p.ts);
                s.ended_ms = c.ts;
                s.status = StepStatus::Interrupted;
                s.interrupt = Some(Interrupt { id: string(p, "id"), payload: get(p, "payload").cloned() });
                run.steps.push(s);
            }
            continue;
        }
        // The tasks that ran: the parent's plan, or the graph's first nodes for a first
        // checkpoint or new input on a finished thread.
        let tasks: Vec<(String, Option<Value>)> = match parent {
            Some(p) if !p.next.is_empty() => p
                .next
                .iter()
                .map(|t| (string(t, "node").unwrap_or_default(), get(t, "input").cloned()))
                .collect(),
            _ => start_nodes.iter().map(|n| (n.clone(), None)).collect(),
        };
        let superstep = c.step.and_then(|s| s.checked_sub(1));
        let before = parent.map(|p| &p.channels);
        let changes = diff(before, &c.channels);
        if tasks.is_empty() {
            unknown_first = true;
            let mut s =
                Step::new(c.id.clone(), format!("superstep {}", superstep.unwrap_or(0)), StepKind::Other);
            s.superstep = superstep;
            s.ended_ms = c.ts;
            s.changes = changes;
            s.state = Some(c.channels.clone());
            run.steps.push(s);
            continue;
        }
        if tasks.len() > 1 && !changes.is_empty() {
            shared = true;
        }
        let n = tasks.len();
        for (j, (node, input)) in tasks.into_iter().enumerate() {
            let mut s = Step::node(format!("{}:{node}", c.id), &node);
            s.superstep = superstep;
            s.started_ms = parent.and_then(|p| p.ts);
            s.ended_ms = c.ts;
            s.input = input;
            if n == 1 {
                s.changes = changes.clone();
            }
            if j + 1 == n {
                s.state = Some(c.channels.clone());
            }
            run.steps.push(s);
        }
    }
    let last = &all[*chain.last().unwrap_or(&newest)];
    run.started_ms = all[chain[0]].ts;
    run.ended_ms = last.ts;
    run.status = if !last.pending.is_empty() {
        RunOutcome::Interrupted
    } else if last.next.is_empty() {
        RunOutcome::Done
    } else {
        out.push(Diagnostic::info(
            codes::NO_END,
            format!(
                "thread {thread}: its newest checkpoint still plans {}: the run was stopped, failed, or is still going (checkpoints do not say which)",
                last.next.iter().filter_map(|t| string(t, "node")).collect::<Vec<_>>().join(", ")
            ),
        ));
        RunOutcome::Unknown
    };
    if shared {
        out.push(Diagnostic::info(
            codes::LIMITATION,
            "checkpoints hold the state after each superstep, not each node's write: where several nodes ran side by side, the change is shown on the superstep",
        ));
    }
    if unknown_first {
        out.push(Diagnostic::warning(
            codes::LIMITATION,
            "no checkpoint is written before the first superstep, so its nodes are not recorded: open the run beside its graph to name them",
        ));
    }
    run
}

/// The channels that differ between two states, in the order of the later one (then the
/// channels it lost).
fn diff(before: Option<&Map<String, Value>>, after: &Map<String, Value>) -> Vec<StateChange> {
    let mut out = Vec::new();
    for (k, v) in after {
        let b = before.and_then(|m| m.get(k));
        if b != Some(v) {
            out.push(StateChange { path: k.clone(), before: b.cloned(), after: Some(v.clone()) });
        }
    }
    if let Some(before) = before {
        for (k, v) in before {
            if !after.contains_key(k) {
                out.push(StateChange { path: k.clone(), before: Some(v.clone()), after: None });
            }
        }
    }
    out
}

/// Reads the thread `wanted` (else the most recently written one) from rows.
pub fn read(
    rows: &[CheckpointRow],
    wanted: Option<&str>,
    start_nodes: &[String],
) -> Result<(Run, Vec<String>, Vec<Diagnostic>), Vec<Diagnostic>> {
    let mut out = Vec::new();
    let threads = threads(rows);
    if threads.is_empty() {
        return Err(vec![Diagnostic::error(codes::NO_STEPS, "the checkpoint tables hold no checkpoint")]);
    }
    let thread = match wanted {
        Some(w) if threads.iter().any(|t| t == w) => w.to_owned(),
        Some(w) => {
            return Err(vec![Diagnostic::error(
                codes::NO_SUCH_RUN,
                format!("no thread \"{w}\" in the checkpoints; they hold {}", threads.join(", ")),
            )])
        }
        None => threads[0].clone(),
    };
    let run = read_thread(rows, &thread, start_nodes, &mut out);
    let others: Vec<String> = threads.into_iter().filter(|t| *t != thread).collect();
    if !others.is_empty() && wanted.is_none() {
        out.push(Diagnostic::info(
            codes::MANY_RUNS,
            format!(
                "the checkpoints hold {} more thread(s); the most recent, {thread}, is shown",
                others.len()
            ),
        ));
    }
    Ok((run, others, out))
}
