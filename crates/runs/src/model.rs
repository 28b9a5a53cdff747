//! The run model every reader fills: one run (where it came from, which graph it ran, how it
//! ended) and its steps in the order they happened. A step is a node's task (or one attempt of
//! it), the run's input, or a sub-step (a model or tool call) under a node's step.
//!
//! Times are milliseconds since the Unix epoch (fractions keep microseconds), because that is
//! what crosses to the UI unchanged; sources that record nanoseconds lose nothing a person reads.

use serde::Serialize;
use serde_json::{Map, Value};
use ts_rs::TS;

/// Which runtime's record a run was read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, TS)]
#[serde(rename_all = "kebab-case")]
#[ts(export)]
pub enum RunSource {
    /// Trellis's own run log (`trellis-run/1`, docs/runs.md): a header, then Ilmek's events.
    TrellisLog,
    /// A list of Ilmek events as `stream()` yields them (a JSON array or JSON lines).
    IlmekEvents,
    /// Ilmek's checkpointer tables (SQLite).
    IlmekCheckpoints,
    /// A saved Weaveflow run inspection answer.
    Weaveflow,
    /// OpenTelemetry spans (OTLP JSON lines, GenAI conventions).
    Otlp,
    /// A LangSmith run export (LangGraph's tracer).
    Langsmith,
}

impl RunSource {
    /// The source in words, for messages and summaries.
    pub fn label(self) -> &'static str {
        match self {
            RunSource::TrellisLog => "Trellis run log",
            RunSource::IlmekEvents => "Ilmek events",
            RunSource::IlmekCheckpoints => "Ilmek checkpoints",
            RunSource::Weaveflow => "Weaveflow run inspection",
            RunSource::Otlp => "OpenTelemetry spans",
            RunSource::Langsmith => "LangSmith runs",
        }
    }
}

/// Which graph the run ran, as far as the record says. Hashes are compared as strings, never
/// recomputed from another runtime's rules (Weaveflow's cannot be, offline).
#[derive(Debug, Clone, Default, PartialEq, Serialize, TS)]
#[ts(export, rename = "RunGraph")]
pub struct GraphIdentity {
    #[ts(optional)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[ts(optional)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// `sha256:<hex>` of the graph file's bytes (the run log), Weaveflow's `graph_hash`.
    #[ts(optional)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hash: Option<String>,
    /// Weaveflow's `graph_session_id` (an immutable definition revision).
    #[ts(optional)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session: Option<String>,
    /// The graph document itself, when the record carries it (the run log may).
    #[ts(skip)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub spec: Option<Value>,
}

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum RunOutcome {
    Done,
    Error,
    /// Paused on a human (an interrupt) or a breakpoint.
    Interrupted,
    Cancelled,
    /// Still going when the record was taken.
    Running,
    /// The record does not say (it ends without an end).
    Unknown,
}

/// What a step is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum StepKind {
    /// The run's input, folded into the channels before the first superstep (`__start__`).
    Input,
    /// A node's task.
    Node,
    /// A model call under a node.
    Llm,
    /// A tool call under a node.
    Tool,
    /// An agent invocation that is not a node of the graph.
    Agent,
    Other,
}

/// How a step ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum StepStatus {
    Ok,
    Error,
    /// Failed, and the runtime tried again (the next attempt is a step of its own).
    Retried,
    Interrupted,
    Running,
    Cancelled,
}

/// Token counts, as the source gives them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, TS)]
#[ts(export)]
pub struct Tokens {
    #[ts(optional, type = "number")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input: Option<u64>,
    #[ts(optional, type = "number")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output: Option<u64>,
    /// The source's own total, when it gives one.
    #[ts(optional, type = "number")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total: Option<u64>,
    #[ts(optional, type = "number")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cached: Option<u64>,
    #[ts(optional, type = "number")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reasoning: Option<u64>,
}

impl Tokens {
    /// The total: the source's own, else input plus output.
    pub fn sum(&self) -> u64 {
        self.total.unwrap_or_else(|| self.input.unwrap_or(0).saturating_add(self.output.unwrap_or(0)))
    }

    pub fn is_empty(&self) -> bool {
        self.input.is_none() && self.output.is_none() && self.total.is_none()
    }

    /// Adds `other` field by field (a field absent on both sides stays absent).
    pub fn add(&mut self, other: &Tokens) {
        fn plus(a: &mut Option<u64>, b: Option<u64>) {
            if let Some(b) = b {
                *a = Some(a.unwrap_or(0).saturating_add(b));
            }
        }
        plus(&mut self.input, other.input);
        plus(&mut self.output, other.output);
        plus(&mut self.total, other.total.or_else(|| (!other.is_empty()).then(|| other.sum())));
        plus(&mut self.cached, other.cached);
        plus(&mut self.reasoning, other.reasoning);
    }
}

/// Money spent, in the source's currency (none given: the source does not say).
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct Cost {
    pub amount: f64,
    #[ts(optional)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub currency: Option<String>,
}

/// Why a step or a run failed.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct StepError {
    /// The error's class or code (`TimeoutError`, `error_code`, OTel's `error.type`).
    #[ts(optional)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    pub message: String,
}

/// A pause for a human.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct Interrupt {
    #[ts(optional)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    #[ts(optional, type = "unknown")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub payload: Option<Value>,
}

/// One value the step changed, by path (Weaveflow's `state.changed`: `shared.x`).
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct StateChange {
    pub path: String,
    #[ts(optional, type = "unknown")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub before: Option<Value>,
    #[ts(optional, type = "unknown")]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub after: Option<Value>,
}

/// An event kept as the source wrote it: one this model has no field for (an unknown kind, a
/// custom payload, a tool's event), shown raw.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct RawEvent {
    pub kind: String,
    #[ts(optional)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub at: Option<f64>,
    /// Where it is in the file (`line 14`, `/data/events/items/3`).
    pub place: String,
    #[ts(type = "unknown")]
    pub value: Value,
}

/// One step of a run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Step {
    /// The source's id for it (Ilmek's task id, Weaveflow's step id, a span id).
    pub id: String,
    /// The step this one ran under (a model call under its node), by index.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parent: Option<usize>,
    /// Pregel's superstep: the steps of one superstep ran side by side.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub superstep: Option<u64>,
    /// The graph node it ran, when it is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub node: Option<String>,
    /// What to call it: the node id, or the span's or run's name.
    pub name: String,
    pub kind: StepKind,
    /// 1 for the first try.
    pub attempt: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub started_ms: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ended_ms: Option<f64>,
    pub status: StepStatus,
    /// What it was given (LangSmith's `inputs`, a send's input, span input messages).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input: Option<Value>,
    /// What it returned, when that is not a channel write.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output: Option<Value>,
    /// Its channel writes (Ilmek's `node_end.update`), folded by the channels' reducers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub update: Option<Map<String, Value>>,
    /// Values it changed by path, with before and after.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub changes: Vec<StateChange>,
    /// Every channel after it, when the source records the whole state there.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state: Option<Map<String, Value>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tokens: Option<Tokens>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cost: Option<Cost>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<StepError>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub interrupt: Option<Interrupt>,
    /// Events of this step kept raw.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub events: Vec<RawEvent>,
}

impl Step {
    /// A step with only the given fields set.
    pub fn new(id: impl Into<String>, name: impl Into<String>, kind: StepKind) -> Step {
        Step {
            id: id.into(),
            parent: None,
            superstep: None,
            node: None,
            name: name.into(),
            kind,
            attempt: 1,
            started_ms: None,
            ended_ms: None,
            status: StepStatus::Ok,
            input: None,
            output: None,
            update: None,
            changes: Vec::new(),
            state: None,
            tokens: None,
            cost: None,
            error: None,
            interrupt: None,
            events: Vec::new(),
        }
    }

    /// A node's step.
    pub fn node(id: impl Into<String>, node: &str) -> Step {
        let mut s = Step::new(id, node, StepKind::Node);
        s.node = Some(node.to_owned());
        s
    }

    /// Milliseconds from start to end, when both are known.
    pub fn duration_ms(&self) -> Option<f64> {
        match (self.started_ms, self.ended_ms) {
            (Some(a), Some(b)) if b >= a => Some(b - a),
            _ => None,
        }
    }

    /// A step on the graph's path: a node's task or the input (not a call under a node).
    pub fn on_path(&self) -> bool {
        matches!(self.kind, StepKind::Node | StepKind::Input) && self.node.is_some()
    }
}

/// One run and its steps in the order they happened.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Run {
    pub source: RunSource,
    pub id: String,
    /// Ilmek's thread, LangGraph's `thread_id`: a resumed run continues the same thread.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub thread: Option<String>,
    pub graph: GraphIdentity,
    pub status: RunOutcome,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub started_ms: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ended_ms: Option<f64>,
    /// The input, when the record has it (folded into the channels before the first step).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input: Option<Map<String, Value>>,
    /// Why the run failed or stopped, as the run's end says.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<StepError>,
    pub steps: Vec<Step>,
    /// Events that belong to no step, kept raw.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub events: Vec<RawEvent>,
}

impl Run {
    pub fn new(source: RunSource, id: impl Into<String>) -> Run {
        Run {
            source,
            id: id.into(),
            thread: None,
            graph: GraphIdentity::default(),
            status: RunOutcome::Unknown,
            started_ms: None,
            ended_ms: None,
            input: None,
            error: None,
            steps: Vec::new(),
            events: Vec::new(),
        }
    }

    /// The indices of the steps on the graph's path, in order.
    pub fn path(&self) -> impl Iterator<Item = usize> + '_ {
        self.steps.iter().enumerate().filter(|(_, s)| s.on_path()).map(|(i, _)| i)
    }

    /// The run's length: its own times, else its steps' first start and last end.
    pub fn duration_ms(&self) -> Option<f64> {
        let start =
            self.started_ms.or_else(|| self.steps.iter().filter_map(|s| s.started_ms).reduce(f64::min));
        let end = self.ended_ms.or_else(|| self.steps.iter().filter_map(|s| s.ended_ms).reduce(f64::max));
        match (start, end) {
            (Some(a), Some(b)) if b >= a => Some(b - a),
            _ => None,
        }
    }

    /// Every node step's tokens and cost, counted once: a node's own figures, else the sum of
    /// the calls under it (LangSmith and some OTel emitters put the sum on the node already).
    pub fn roll_up(&mut self) {
        let n = self.steps.len();
        let mut tokens: Vec<Option<Tokens>> = vec![None; n];
        let mut cost: Vec<Option<(f64, Option<String>)>> = vec![None; n];
        for i in (0..n).rev() {
            let s = &self.steps[i];
            let own_t = s.tokens.or(tokens[i]);
            let own_c = s.cost.as_ref().map(|c| (c.amount, c.currency.clone())).or_else(|| cost[i].clone());
            if let Some(p) = s.parent.filter(|&p| p < i) {
                if let Some(t) = own_t {
                    tokens[p].get_or_insert_with(Tokens::default).add(&t);
                }
                if let Some((a, cur)) = own_c {
                    let e = cost[p].get_or_insert((0.0, cur.clone()));
                    e.0 += a;
                    if e.1 != cur {
                        e.1 = None;
                    }
                }
            }
        }
        for (i, s) in self.steps.iter_mut().enumerate() {
            if s.kind != StepKind::Node {
                continue;
            }
            if s.tokens.is_none() {
                s.tokens = tokens[i];
            }
            if s.cost.is_none() {
                s.cost = cost[i].take().map(|(amount, currency)| Cost { amount, currency });
            }
        }
    }
}

/// What a reader made of a record: the run, and what it noticed on the way (a cut-off last
/// line, unknown event kinds, other runs in the same file).
#[derive(Debug, Clone)]
pub struct ReadRun {
    pub run: Run,
    pub diagnostics: Vec<trellis_spec::Diagnostic>,
    /// The ids of the other runs the record holds (a file may hold several).
    pub others: Vec<String>,
}
