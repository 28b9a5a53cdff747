//! Weaveflow runs (reference runs.md §2): a saved run inspection answer
//! (`{"data":{run, steps, checkpoints, events:{items, next_cursor}, interrupt?}}`, its event
//! page newest first), or a file store's event log (`events/<run_id>.jsonl`, oldest first).
//!
//! Steps come from the step records (sorted by `started_at`); the events add what the records
//! lack: model calls (tokens and cost from `llm.call`) and tool calls as sub-steps, state
//! changes (`state.changed`), and everything else kept raw on its step.

use std::collections::HashMap;

use serde_json::{Map, Value};
use trellis_spec::Diagnostic;

use crate::codes;
use crate::fields::{self, string};
use crate::json_text::Item;
use crate::model::{
    Cost, GraphIdentity, Interrupt, RawEvent, Run, RunOutcome, RunSource, StateChange, Step, StepError,
    StepKind, StepStatus,
};
use crate::time;

/// The families of event types Weaveflow emits (at `00aca43`); anything else is unknown.
const FAMILIES: &[&str] =
    &["run.", "nodes.", "condition.", "llm.", "tool.", "subgraph.", "checkpoint.", "state.", "artifact."];
const SINGLES: &[&str] = &["breakpoint.hit", "contract.violation", "warning"];

fn known(kind: &str) -> bool {
    SINGLES.contains(&kind) || FAMILIES.iter().any(|f| kind.starts_with(f))
}

/// Whether a document is an inspection answer (or the runtime's error answer).
pub fn is_answer(v: &Value) -> bool {
    let body = v.get("data").unwrap_or(v);
    (body.get("run").is_some_and(Value::is_object) && body.get("steps").is_some())
        || (v.get("error").is_some() && v.as_object().is_some_and(|o| o.len() == 1))
}

/// Whether a line is one of Weaveflow's events.
pub fn is_event(v: &Value) -> bool {
    v.get("run_id").is_some() && v.get("type").and_then(Value::as_str).is_some_and(|t| t.contains('.'))
}

fn run_status(s: &str) -> RunOutcome {
    match s {
        "completed" => RunOutcome::Done,
        "failed" => RunOutcome::Error,
        "paused" => RunOutcome::Interrupted,
        "canceled" | "cancelled" => RunOutcome::Cancelled,
        "pending" | "running" => RunOutcome::Running,
        _ => RunOutcome::Unknown,
    }
}

fn step_status(s: &str) -> StepStatus {
    match s {
        "succeeded" => StepStatus::Ok,
        "failed" => StepStatus::Error,
        "paused" => StepStatus::Interrupted,
        "canceled" | "cancelled" => StepStatus::Cancelled,
        _ => StepStatus::Running,
    }
}

fn error_of(o: &Map<String, Value>) -> Option<StepError> {
    let message = string(o, "error_message")?;
    Some(StepError { kind: string(o, "error_code"), message })
}

/// Reads an inspection answer.
pub fn read_answer(doc: &Value) -> Result<(Run, Vec<Diagnostic>), Vec<Diagnostic>> {
    if let (Some(e), None) = (doc.get("error"), doc.get("data")) {
        let message = fields::text_of(e).unwrap_or_else(|| fields::compact(e));
        return Err(vec![Diagnostic::error(
            codes::ERROR_ANSWER,
            format!("the file is Weaveflow's error answer, not a run: {message}"),
        )]);
    }
    let body = doc.get("data").unwrap_or(doc);
    let prefix = if doc.get("data").is_some() { "/data" } else { "" };
    let mut out = Vec::new();
    let r = body.get("run").and_then(Value::as_object).cloned().unwrap_or_default();
    let mut run = Run::new(RunSource::Weaveflow, string(&r, "run_id").unwrap_or_default());
    run.graph = GraphIdentity {
        name: string(&r, "graph_id"),
        version: string(&r, "graph_version"),
        hash: string(&r, "graph_hash"),
        session: string(&r, "graph_session_id"),
        spec: None,
    };
    run.status = string(&r, "status").map_or(RunOutcome::Unknown, |s| run_status(&s));
    run.started_ms = r.get("started_at").and_then(time::millis);
    run.ended_ms = r.get("finished_at").or_else(|| r.get("updated_at")).and_then(time::millis);
    run.error = error_of(&r);

    let mut records: Vec<(usize, Map<String, Value>)> = body
        .get("steps")
        .and_then(Value::as_array)
        .map(|a| a.iter().filter_map(Value::as_object).cloned().enumerate().collect())
        .unwrap_or_default();
    let started =
        |o: &Map<String, Value>| o.get("started_at").and_then(time::millis).unwrap_or(f64::INFINITY);
    records.sort_by(|a, b| started(&a.1).total_cmp(&started(&b.1)).then(a.0.cmp(&b.0)));
    let mut b = Builder::new(run);
    for (_, o) in &records {
        b.step_record(o);
    }

    let events = body.get("events");
    let items: Vec<&Value> = match events {
        Some(Value::Object(e)) => {
            e.get("items").and_then(Value::as_array).map(|a| a.iter().collect()).unwrap_or_default()
        }
        Some(Value::Array(a)) => a.iter().collect(),
        _ => Vec::new(),
    };
    // Pages come newest first: read them oldest first (by time, the page order breaking ties).
    let mut ordered: Vec<(usize, &Value)> = items.into_iter().enumerate().collect();
    ordered.reverse();
    ordered.sort_by(|a, b| {
        let t = |v: &Value| v.get("timestamp").and_then(time::millis).unwrap_or(f64::NEG_INFINITY);
        t(a.1).total_cmp(&t(b.1))
    });
    for (i, e) in ordered {
        b.event(e, &format!("{prefix}/events/items/{i}"));
    }
    if let Some(cursor) =
        events.and_then(|e| e.get("next_cursor")).and_then(Value::as_str).filter(|c| !c.is_empty())
    {
        out.push(Diagnostic::info(
            codes::LIMITATION,
            format!("the answer holds one page of the run's events; older ones follow cursor {cursor} (ask with ?event_cursor= and save them too)"),
        ));
    }
    if let Some(i) = body.get("interrupt").and_then(Value::as_object) {
        b.interrupt(i);
    }
    let (run, more) = b.finish();
    out.extend(more);
    Ok((run, out))
}

/// Reads a file store's event log (oldest first), steps made from the node events.
pub fn read_events(items: &[Item]) -> (Run, Vec<Diagnostic>) {
    let run_id = items.iter().find_map(|i| i.value.get("run_id").and_then(Value::as_str)).unwrap_or_default();
    let mut b = Builder::new(Run::new(RunSource::Weaveflow, run_id));
    b.run.status = RunOutcome::Running;
    b.from_events = true;
    for item in items {
        b.event(&item.value, &item.place);
    }
    let (mut run, out) = b.finish();
    if run.graph.name.is_none() {
        run.graph.name =
            items.iter().find_map(|i| i.value.get("graph_id").and_then(Value::as_str)).map(str::to_owned);
    }
    (run, out)
}

struct Builder {
    run: Run,
    by_step: HashMap<String, usize>,
    /// Open tool calls by their call id.
    tools: HashMap<String, usize>,
    last_wave: Option<String>,
    superstep: u64,
    from_events: bool,
    unknown: Vec<(String, usize)>,
}

impl Builder {
    fn new(run: Run) -> Builder {
        Builder {
            run,
            by_step: HashMap::new(),
            tools: HashMap::new(),
            last_wave: None,
            superstep: 0,
            from_events: false,
            unknown: Vec::new(),
        }
    }

    fn step_record(&mut self, o: &Map<String, Value>) -> usize {
        let id = string(o, "step_id").unwrap_or_default();
        let node = string(o, "node_id").unwrap_or_default();
        let mut s = Step::node(id.clone(), &node);
        s.name = string(o, "node_name").filter(|n| !n.is_empty()).unwrap_or(node.clone());
        s.attempt = o.get("attempt").and_then(fields::uint).map_or(1, |a| a.max(1) as u32);
        s.status = string(o, "status").map_or(StepStatus::Running, |st| step_status(&st));
        s.started_ms = o.get("started_at").and_then(time::millis);
        s.ended_ms = o.get("finished_at").and_then(time::millis);
        s.error = error_of(o);
        // One superstep a step, but a parallel wave shares one, and a retry its first try's.
        let wave = string(o, "wave_id");
        let previous = self.run.steps.iter().rev().find(|p| p.kind == StepKind::Node);
        let same_wave = wave.is_some() && wave == self.last_wave;
        let retry = s.attempt > 1 && previous.is_some_and(|p| p.node == s.node);
        if !self.run.steps.is_empty() && !same_wave && !retry {
            self.superstep += 1;
        }
        s.superstep = Some(self.superstep);
        self.last_wave = wave;
        let i = self.run.steps.len();
        self.by_step.insert(id, i);
        self.run.steps.push(s);
        i
    }

    fn event(&mut self, e: &Value, place: &str) {
        let Some(o) = e.as_object() else { return };
        let kind = string(o, "type").unwrap_or_default();
        let at = o.get("timestamp").and_then(time::millis);
        let payload = o.get("payload").cloned().unwrap_or(Value::Null);
        let p = payload.as_object().cloned().unwrap_or_default();
        let owner = string(o, "step_id").and_then(|id| self.by_step.get(&id).copied());
        if self.from_events && kind == "nodes.started" && owner.is_none() {
            let mut rec = Map::new();
            for k in ["step_id", "node_id", "wave_id", "task_id"] {
                if let Some(v) = o.get(k) {
                    rec.insert(k.into(), v.clone());
                }
            }
            if let Some(a) = p.get("attempt") {
                rec.insert("attempt".into(), a.clone());
            }
            rec.insert("status".into(), "running".into());
            if let Some(t) = o.get("timestamp") {
                rec.insert("started_at".into(), t.clone());
            }
            self.step_record(&rec);
            return;
        }
        let raw = || RawEvent { kind: kind.clone(), at, place: place.to_owned(), value: payload.clone() };
        match kind.as_str() {
            "llm.call" => {
                let mut s = Step::new(
                    string(&p, "call_id").unwrap_or_else(|| place.to_owned()),
                    string(&p, "model")
                        .or_else(|| string(&p, "model_id"))
                        .unwrap_or_else(|| "model call".into()),
                    StepKind::Llm,
                );
                s.parent = owner;
                s.superstep = owner.and_then(|i| self.run.steps[i].superstep);
                s.node = None;
                s.ended_ms = at;
                s.tokens = fields::tokens_in(&p, "");
                let amount = p.get("cost_total").or_else(|| p.get("cost")).and_then(fields::number);
                s.cost = amount.map(|amount| Cost { amount, currency: string(&p, "cost_currency") });
                if let Some(message) = string(&p, "error") {
                    s.status = StepStatus::Error;
                    s.error = Some(StepError { kind: string(&p, "error_class"), message });
                }
                s.events.push(raw());
                self.run.steps.push(s);
            }
            "tool.called" | "tool.started" => {
                let call = string(&p, "tool_call_id").unwrap_or_else(|| place.to_owned());
                if self.tools.contains_key(&call) {
                    return;
                }
                let mut s = Step::new(
                    call.clone(),
                    string(&p, "name").unwrap_or_else(|| "tool".into()),
                    StepKind::Tool,
                );
                s.parent = owner;
                s.superstep = owner.and_then(|i| self.run.steps[i].superstep);
                s.started_ms = at;
                s.status = StepStatus::Running;
                s.input = p.get("arguments").cloned();
                s.events.push(raw());
                self.tools.insert(call, self.run.steps.len());
                self.run.steps.push(s);
            }
            "tool.returned" | "tool.failed" | "tool.denied" => {
                let call = string(&p, "tool_call_id").unwrap_or_default();
                if let Some(&i) = self.tools.get(&call) {
                    let s = &mut self.run.steps[i];
                    s.ended_ms = at;
                    s.output = p.get("content").or_else(|| p.get("value")).cloned();
                    let failed =
                        kind != "tool.returned" || p.get("is_error").and_then(Value::as_bool) == Some(true);
                    s.status = if failed { StepStatus::Error } else { StepStatus::Ok };
                    if failed {
                        s.error = Some(StepError {
                            kind: string(&p, "error_code"),
                            message: string(&p, "error").unwrap_or_else(|| kind.clone()),
                        });
                    }
                    s.events.push(raw());
                } else if let Some(i) = owner {
                    self.run.steps[i].events.push(raw());
                }
            }
            "state.changed" => {
                let changes = p.get("changes").and_then(Value::as_array).cloned().unwrap_or_default();
                let changes = changes.iter().filter_map(Value::as_object).map(|c| StateChange {
                    path: string(c, "path").unwrap_or_default(),
                    before: c.get("before").cloned(),
                    after: c.get("after").cloned(),
                });
                match owner {
                    Some(i) => self.run.steps[i].changes.extend(changes),
                    None => self.run.events.push(raw()),
                }
            }
            "nodes.finished" | "nodes.failed" | "nodes.canceled" => {
                if let Some(i) = owner {
                    let s = &mut self.run.steps[i];
                    if self.from_events || s.status == StepStatus::Running {
                        s.status = match kind.as_str() {
                            "nodes.finished" => StepStatus::Ok,
                            "nodes.failed" => StepStatus::Error,
                            _ => StepStatus::Cancelled,
                        };
                        s.ended_ms = s.ended_ms.or(at);
                    }
                    if kind == "nodes.failed" && s.error.is_none() {
                        s.error = Some(fields::error_of(p.get("error").unwrap_or(&payload)));
                    }
                }
            }
            "nodes.started" | "nodes.retry" | "checkpoint.created" | "run.created" | "run.started"
            | "run.resumed" => {}
            "run.finished" | "run.failed" | "run.paused" | "run.canceled" | "run.limit_exceeded" => {
                if self.from_events {
                    self.run.status = match kind.as_str() {
                        "run.finished" => RunOutcome::Done,
                        "run.paused" => RunOutcome::Interrupted,
                        "run.canceled" => RunOutcome::Cancelled,
                        _ => RunOutcome::Error,
                    };
                    self.run.ended_ms = at;
                }
            }
            _ => {
                if !known(&kind) {
                    match self.unknown.iter_mut().find(|(k, _)| *k == kind) {
                        Some((_, n)) => *n += 1,
                        None => self.unknown.push((kind.clone(), 1)),
                    }
                }
                match owner {
                    Some(i) => self.run.steps[i].events.push(raw()),
                    None => self.run.events.push(raw()),
                }
            }
        }
        if self.from_events {
            if let Some(t) = at {
                self.run.started_ms = Some(self.run.started_ms.map_or(t, |s: f64| s.min(t)));
            }
        }
    }

    fn interrupt(&mut self, i: &Map<String, Value>) {
        let step = string(i, "step_id").and_then(|id| self.by_step.get(&id).copied());
        let step = step.or_else(|| {
            let node = string(i, "node_id")?;
            self.run.steps.iter().rposition(|s| s.node.as_deref() == Some(node.as_str()))
        });
        let interrupt = Interrupt { id: string(i, "checkpoint_id"), payload: Some(Value::Object(i.clone())) };
        match step {
            Some(k) => {
                self.run.steps[k].status = StepStatus::Interrupted;
                self.run.steps[k].interrupt = Some(interrupt);
            }
            None => self.run.events.push(RawEvent {
                kind: "interrupt".into(),
                at: None,
                place: "/data/interrupt".into(),
                value: Value::Object(i.clone()),
            }),
        }
    }

    fn finish(mut self) -> (Run, Vec<Diagnostic>) {
        let mut out = Vec::new();
        for (kind, n) in &self.unknown {
            out.push(Diagnostic::info(
                codes::UNKNOWN_EVENT,
                format!(
                    "{n} event(s) of kind \"{kind}\", which this reader does not know: kept and shown raw"
                ),
            ));
        }
        // Sub-steps were appended as their events came: put each after its node's step and
        // before the next node's, keeping the order within.
        let n = self.run.steps.len();
        let mut order: Vec<usize> = (0..n).collect();
        let anchor = |i: usize, steps: &[Step]| steps[i].parent.unwrap_or(i);
        order.sort_by_key(|&i| {
            (anchor(i, &self.run.steps), usize::from(self.run.steps[i].parent.is_some()), i)
        });
        let mut new_index = vec![0; n];
        for (to, &from) in order.iter().enumerate() {
            new_index[from] = to;
        }
        let mut steps: Vec<Option<Step>> =
            std::mem::take(&mut self.run.steps).into_iter().map(Some).collect();
        self.run.steps = order
            .iter()
            .filter_map(|&i| steps[i].take())
            .map(|mut s| {
                s.parent = s.parent.map(|p| new_index[p]);
                s
            })
            .collect();
        self.run.roll_up();
        (self.run, out)
    }
}
