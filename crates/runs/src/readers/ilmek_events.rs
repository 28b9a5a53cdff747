//! Ilmek's events (`stream()`'s `IlmekEvent`s, reference runs.md §1) into runs. Used for a raw
//! event list and for the events of Trellis's run log, which adds the time each was received.
//!
//! What the events leave out, and how it is filled in:
//! - `node_end` / `node_error` carry the node but no task id: they close the oldest open task
//!   of that node (two sends to one node are told apart by order only).
//! - `state` (every channel after the superstep) belongs to the superstep's last step.
//! - A resume is a new `runId` on the same `threadId`: the events of one thread are one run.
//! - No time is recorded: only the run log's `at` gives steps their start and end.
//! - .NET's records have no `type`: the kind is told from the properties (`StateUpdate` is a
//!   node's end, `Tasks` a superstep's start, ...).

use indexmap::IndexMap;
use serde_json::{Map, Value};
use trellis_spec::Diagnostic;

use crate::codes;
use crate::fields::{self, get, string, uint};
use crate::json_text::Item;
use crate::model::{Interrupt, RawEvent, Run, RunOutcome, RunSource, Step, StepStatus, Tokens};

/// One event and the time it was received (the run log's `at`).
#[derive(Debug)]
pub struct Event<'a> {
    pub value: &'a Value,
    pub at: Option<f64>,
    pub place: &'a str,
}

/// The event kinds Ilmek emits.
const KINDS: &[&str] = &[
    "run_start",
    "step_start",
    "node_start",
    "custom",
    "node_retry",
    "node_end",
    "node_error",
    "state",
    "checkpoint",
    "interrupt",
    "run_end",
];

/// Whether a value looks like an Ilmek event (a known `type`, or .NET's envelope).
pub fn looks_like_event(v: &Value) -> bool {
    let Some(o) = v.as_object() else { return false };
    match get(o, "type").and_then(Value::as_str) {
        Some(t) => KINDS.contains(&t) || (get(o, "runId").is_some() && get(o, "seq").is_some()),
        None => get(o, "runId").is_some() && get(o, "seq").is_some(),
    }
}

/// The kind of an event: its `type`, or for .NET's records (no discriminator) the kind its
/// properties say.
fn kind_of(o: &Map<String, Value>) -> String {
    if let Some(t) = get(o, "type").and_then(Value::as_str) {
        return t.to_owned();
    }
    let has = |k: &str| o.contains_key(k);
    let kind = if has("StateUpdate") {
        "node_end"
    } else if has("Attempt") {
        "node_retry"
    } else if has("Error") && has("Node") {
        "node_error"
    } else if has("TaskId") && has("Node") {
        "node_start"
    } else if has("Tasks") {
        "step_start"
    } else if has("Status") {
        "run_end"
    } else if has("Channels") {
        "state"
    } else if has("Pending") {
        "interrupt"
    } else if has("Payload") {
        "custom"
    } else if has("Id") {
        "checkpoint"
    } else {
        "run_start"
    };
    kind.to_owned()
}

/// A run being read from one thread's events.
#[derive(Debug)]
struct Building {
    run: Run,
    superstep: Option<u64>,
    /// Started steps not yet ended, oldest first.
    open: Vec<usize>,
    /// The runs (stream ids) of this thread, in order; the last one's end settles the status.
    streams: Vec<String>,
    last_seq: Option<(String, u64)>,
    gaps: usize,
    ended: bool,
}

/// Reads events into runs, one per thread, in the order their first events came.
#[derive(Debug)]
pub struct Reader {
    source: RunSource,
    threads: IndexMap<String, Building>,
    unknown: IndexMap<String, usize>,
    diagnostics: Vec<Diagnostic>,
}

impl Reader {
    pub fn new(source: RunSource) -> Reader {
        Reader { source, threads: IndexMap::new(), unknown: IndexMap::new(), diagnostics: Vec::new() }
    }

    /// Reads the events of a raw list (no times).
    pub fn read_items(mut self, items: &[Item]) -> (Vec<Run>, Vec<Diagnostic>) {
        for item in items {
            self.event(Event { value: &item.value, at: None, place: &item.place });
        }
        self.finish()
    }

    /// Takes one event.
    pub fn event(&mut self, e: Event<'_>) {
        let Some(o) = e.value.as_object() else {
            self.diagnostics.push(Diagnostic::warning(
                codes::BAD_FIELD,
                format!("{}: an event must be a JSON object: skipped", e.place),
            ));
            return;
        };
        let kind = kind_of(o);
        let run_id = string(o, "runId").unwrap_or_default();
        let thread = string(o, "threadId").unwrap_or_else(|| run_id.clone());
        let source = self.source;
        let b = self.threads.entry(thread.clone()).or_insert_with(|| {
            let mut run = Run::new(source, run_id.clone());
            run.thread = (!thread.is_empty()).then(|| thread.clone());
            run.status = RunOutcome::Running;
            Building {
                run,
                superstep: None,
                open: Vec::new(),
                streams: Vec::new(),
                last_seq: None,
                gaps: 0,
                ended: false,
            }
        });
        if !b.streams.contains(&run_id) {
            b.streams.push(run_id.clone());
            // A resume continues the thread: it is running again.
            b.ended = false;
            b.run.status = RunOutcome::Running;
        }
        if let Some(seq) = get(o, "seq").and_then(uint) {
            if let Some((r, prev)) = &b.last_seq {
                if *r == run_id && seq != prev + 1 {
                    b.gaps += 1;
                }
            }
            b.last_seq = Some((run_id.clone(), seq));
        }
        if b.run.started_ms.is_none() {
            b.run.started_ms = e.at;
        }
        if let Some(at) = e.at {
            b.run.ended_ms = Some(b.run.ended_ms.map_or(at, |x: f64| x.max(at)));
        }
        let node = string(o, "node");
        let which = kind.clone();
        match which.as_str() {
            "run_start" | "checkpoint" => {}
            "step_start" => b.superstep = get(o, "step").and_then(uint),
            "node_start" => {
                let node = node.unwrap_or_default();
                let task = string(o, "taskId").unwrap_or_else(|| node.clone());
                let mut s = Step::node(task, &node);
                s.superstep = b.superstep;
                s.started_ms = e.at;
                s.status = StepStatus::Running;
                b.open.push(b.run.steps.len());
                b.run.steps.push(s);
            }
            "custom" => {
                let payload = get(o, "payload").cloned().unwrap_or(Value::Null);
                let owner = (b.open.len() == 1).then(|| b.open[0]);
                let raw = RawEvent { kind, at: e.at, place: e.place.to_owned(), value: payload.clone() };
                match owner {
                    Some(i) => {
                        let s = &mut b.run.steps[i];
                        if let Some(t) = usage_in(&payload) {
                            s.tokens.get_or_insert_with(Tokens::default).add(&t);
                        }
                        s.events.push(raw);
                    }
                    None => b.run.events.push(raw),
                }
            }
            "node_retry" => {
                let node = node.unwrap_or_default();
                let i = b.take_open(&node, &mut self.diagnostics, e.place);
                let error = get(o, "error").map(fields::error_of);
                let (id, superstep, attempt) = {
                    let s = &mut b.run.steps[i];
                    s.status = StepStatus::Retried;
                    s.ended_ms = e.at;
                    s.error = error;
                    (s.id.clone(), s.superstep, s.attempt)
                };
                // `attempt` is the attempt about to start.
                let mut next = Step::node(id, &node);
                next.superstep = superstep;
                next.attempt = get(o, "attempt").and_then(uint).map_or(attempt + 1, |a| a as u32);
                next.started_ms = e.at;
                next.status = StepStatus::Running;
                b.open.push(b.run.steps.len());
                b.run.steps.push(next);
            }
            "node_end" => {
                let node = node.unwrap_or_default();
                let i = b.take_open(&node, &mut self.diagnostics, e.place);
                let s = &mut b.run.steps[i];
                s.status = StepStatus::Ok;
                s.ended_ms = e.at;
                s.update = get(o, "update")
                    .or_else(|| get(o, "stateUpdate"))
                    .and_then(Value::as_object)
                    .cloned()
                    .or_else(|| Some(Map::new()));
            }
            "node_error" => {
                let node = node.unwrap_or_default();
                let i = b.take_open(&node, &mut self.diagnostics, e.place);
                let s = &mut b.run.steps[i];
                s.status = StepStatus::Error;
                s.ended_ms = e.at;
                s.error =
                    Some(get(o, "error").map_or_else(|| fields::error_of(&Value::Null), fields::error_of));
            }
            "state" => {
                let channels = get(o, "channels").and_then(Value::as_object).cloned();
                let last = b.run.steps.iter().rposition(|s| s.superstep == b.superstep && s.on_path());
                match (last, channels) {
                    (Some(i), Some(c)) => b.run.steps[i].state = Some(c),
                    (_, c) => b.run.events.push(RawEvent {
                        kind,
                        at: e.at,
                        place: e.place.to_owned(),
                        value: c.map(Value::Object).unwrap_or(Value::Null),
                    }),
                }
            }
            "interrupt" => b.interrupt(o, e.at, &mut self.diagnostics, e.place),
            "run_end" => b.end(o, e.at),
            _ => {
                *self.unknown.entry(kind.clone()).or_insert(0) += 1;
                let raw = RawEvent { kind, at: e.at, place: e.place.to_owned(), value: e.value.clone() };
                match (b.open.len() == 1).then(|| b.open[0]) {
                    Some(i) => b.run.steps[i].events.push(raw),
                    None => b.run.events.push(raw),
                }
            }
        }
    }

    /// The runs read, one per thread, and what was noticed.
    pub fn finish(mut self) -> (Vec<Run>, Vec<Diagnostic>) {
        for (kind, n) in &self.unknown {
            self.diagnostics.push(Diagnostic::info(
                codes::UNKNOWN_EVENT,
                format!(
                    "{n} event(s) of kind \"{kind}\", which this reader does not know: kept and shown raw"
                ),
            ));
        }
        let mut runs = Vec::with_capacity(self.threads.len());
        for (_, mut b) in self.threads {
            if b.gaps > 0 {
                self.diagnostics.push(Diagnostic::warning(
                    codes::OUT_OF_ORDER,
                    format!(
                        "run {}: the events' seq numbers skip {} time(s): events are missing from the record",
                        b.run.id, b.gaps
                    ),
                ));
            }
            if !b.ended {
                self.diagnostics.push(Diagnostic::warning(
                    codes::NO_END,
                    format!(
                        "run {} ends without a run_end event: it was still running when recorded, the writer stopped, or Ilmek threw (its recursion limit does)",
                        b.run.id
                    ),
                ));
                b.run.status = RunOutcome::Unknown;
            }
            for &i in &b.open {
                let s = &mut b.run.steps[i];
                if s.status == StepStatus::Running && b.run.status == RunOutcome::Cancelled {
                    s.status = StepStatus::Cancelled;
                }
            }
            if b.streams.len() > 1 {
                b.run.events.insert(
                    0,
                    RawEvent {
                        kind: "resumed".into(),
                        at: None,
                        place: String::new(),
                        value: Value::from(b.streams.clone()),
                    },
                );
            }
            runs.push(b.run);
        }
        (runs, self.diagnostics)
    }
}

impl Building {
    /// The oldest open step of `node`, or a new one when the record never started it.
    fn take_open(&mut self, node: &str, out: &mut Vec<Diagnostic>, place: &str) -> usize {
        if let Some(k) = self.open.iter().position(|&i| self.run.steps[i].node.as_deref() == Some(node)) {
            return self.open.remove(k);
        }
        out.push(Diagnostic::warning(
            codes::OUT_OF_ORDER,
            format!("{place}: node \"{node}\" ends without having started (its node_start is missing)"),
        ));
        let mut s = Step::node(node, node);
        s.superstep = self.superstep;
        self.run.steps.push(s);
        self.run.steps.len() - 1
    }

    fn interrupt(&mut self, o: &Map<String, Value>, at: Option<f64>, out: &mut Vec<Diagnostic>, place: &str) {
        let pending = get(o, "pending").and_then(Value::as_array).cloned().unwrap_or_default();
        for p in &pending {
            let Some(p) = p.as_object() else { continue };
            let node = string(p, "node").unwrap_or_default();
            let found =
                self.open.iter().position(|&i| self.run.steps[i].node.as_deref() == Some(node.as_str()));
            let i = match found {
                Some(k) => self.open.remove(k),
                None => self.take_open(&node, out, place),
            };
            let s = &mut self.run.steps[i];
            s.status = StepStatus::Interrupted;
            s.ended_ms = at;
            s.interrupt = Some(Interrupt { id: string(p, "id"), payload: get(p, "payload").cloned() });
        }
    }

    fn end(&mut self, o: &Map<String, Value>, at: Option<f64>) {
        self.ended = true;
        self.run.ended_ms = at.or(self.run.ended_ms);
        let status = get(o, "status").and_then(Value::as_str).unwrap_or("").to_ascii_lowercase();
        self.run.status = match status.as_str() {
            "done" => RunOutcome::Done,
            "interrupted" => RunOutcome::Interrupted,
            "error" => RunOutcome::Error,
            "aborted" => RunOutcome::Cancelled,
            _ => RunOutcome::Unknown,
        };
        if let Some(errors) = get(o, "errors").and_then(Value::as_array) {
            if let Some(Value::Array(pair)) = errors.first() {
                let mut e = pair.get(1).map_or_else(|| fields::error_of(&Value::Null), fields::error_of);
                if let Some(node) = pair.first().and_then(Value::as_str).filter(|n| !n.is_empty()) {
                    e.message = format!("{node}: {}", e.message);
                }
                self.run.error = Some(e);
            }
        }
        if let Some(reason) = get(o, "reason").or_else(|| get(o, "abortReason")).and_then(fields::text_of) {
            self.run.error = Some(crate::model::StepError { kind: Some("aborted".into()), message: reason });
        }
        // A run that ended done with no `state` event still says its final state.
        if let Some(state) = get(o, "state").or_else(|| get(o, "finalState")).and_then(Value::as_object) {
            if let Some(i) = self.run.steps.iter().rposition(|s| s.on_path()) {
                if self.run.steps[i].state.is_none() {
                    self.run.steps[i].state = Some(state.clone());
                }
            }
        }
        let status = self.run.status;
        for &i in &self.open {
            let s = &mut self.run.steps[i];
            s.ended_ms = s.ended_ms.or(at);
            s.status = match status {
                RunOutcome::Interrupted => StepStatus::Interrupted,
                RunOutcome::Cancelled => StepStatus::Cancelled,
                _ => s.status,
            };
        }
        self.open.clear();
    }
}

/// Token counts in a custom payload: a token chunk's `meta` or the payload itself.
fn usage_in(payload: &Value) -> Option<Tokens> {
    let o = payload.as_object()?;
    let meta = o.get("meta").and_then(Value::as_object);
    let usage = |m: &Map<String, Value>| {
        fields::tokens_in(m, "")
            .or_else(|| m.get("usage").and_then(Value::as_object).and_then(|u| fields::tokens_in(u, "")))
    };
    meta.and_then(usage).or_else(|| usage(o))
}
