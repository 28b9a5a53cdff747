//! OpenTelemetry spans as the Collector's file exporter writes them (`format: json`: one OTLP
//! `TracesData` a line), read with the GenAI conventions (reference runs.md §3). One trace is
//! one run; its spans are its steps, ordered by start (the file's lines are not ordered).
//!
//! The conventions have no graph-node attribute: the node comes from the first of a list of
//! attributes the span carries ([`DEFAULT_NODE_ATTRIBUTES`], or the caller's). A span with no
//! node is a model call, a tool call or an agent under the nearest node above it. Ids arrive
//! in hex as OTLP/JSON says, or in base64 from some emitters; both are read as hex.

use std::collections::HashMap;

use base64::Engine;
use indexmap::IndexMap;
use serde_json::{Map, Value};
use trellis_spec::Diagnostic;

use crate::codes;
use crate::fields::{self, text_of};
use crate::json_text::Item;
use crate::model::{
    GraphIdentity, RawEvent, Run, RunOutcome, RunSource, Step, StepError, StepKind, StepStatus,
};
use crate::time;

/// The attributes that name a graph node, tried in this order.
pub const DEFAULT_NODE_ATTRIBUTES: &[&str] = &[
    "trellis.node.id",
    "graph.node.id",
    "langgraph.node",
    "langgraph_node",
    "metadata.langgraph_node",
    "weaveflow.node_id",
    "ilmek.node",
];
/// The attributes that say a span's superstep.
const STEP_ATTRIBUTES: &[&str] =
    &["trellis.superstep", "langgraph.step", "langgraph_step", "metadata.langgraph_step"];

/// Whether a value is an OTLP `TracesData`.
pub fn is_traces(v: &Value) -> bool {
    v.get("resourceSpans").is_some_and(Value::is_array)
}

/// An OTLP `AnyValue` as plain JSON (`intValue` strings as numbers, lists and maps unwrapped).
fn any_value(v: &Value) -> Value {
    let Some(o) = v.as_object() else { return Value::Null };
    if let Some(s) = o.get("stringValue") {
        return s.clone();
    }
    if let Some(i) = o.get("intValue") {
        return fields::uint(i)
            .map(Value::from)
            .or_else(|| fields::number(i).map(Value::from))
            .unwrap_or(i.clone());
    }
    if let Some(d) = o.get("doubleValue") {
        return d.clone();
    }
    if let Some(b) = o.get("boolValue") {
        return b.clone();
    }
    if let Some(a) = o.get("arrayValue") {
        let values = a.get("values").and_then(Value::as_array).map(|v| v.iter().map(any_value).collect());
        return Value::Array(values.unwrap_or_default());
    }
    if let Some(kv) = o.get("kvlistValue") {
        return Value::Object(attributes(kv.get("values")));
    }
    o.get("bytesValue").cloned().unwrap_or(Value::Null)
}

/// OTLP's `[{key, value}]` as an object.
fn attributes(list: Option<&Value>) -> Map<String, Value> {
    let mut out = Map::new();
    for kv in list.and_then(Value::as_array).into_iter().flatten() {
        if let Some(k) = kv.get("key").and_then(Value::as_str) {
            out.insert(k.to_owned(), kv.get("value").map(any_value).unwrap_or(Value::Null));
        }
    }
    out
}

/// An id as lower-case hex: hex as given, base64 decoded.
fn id_hex(v: Option<&Value>, bytes: usize) -> Option<String> {
    let s = v?.as_str()?.trim();
    if s.is_empty() {
        return None;
    }
    if s.len() == bytes * 2 && s.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Some(s.to_ascii_lowercase());
    }
    let raw = base64::engine::general_purpose::STANDARD.decode(s).ok()?;
    (raw.len() == bytes).then(|| raw.iter().map(|b| format!("{b:02x}")).collect())
}

/// A JSON string attribute that holds JSON (messages, tool arguments) as its value.
fn maybe_json(v: &Value) -> Value {
    match v {
        Value::String(s) if s.starts_with(['{', '[']) => {
            serde_json::from_str(s).unwrap_or_else(|_| v.clone())
        }
        _ => v.clone(),
    }
}

struct Span {
    trace: String,
    id: String,
    parent: Option<String>,
    name: String,
    start: Option<f64>,
    end: Option<f64>,
    attrs: Map<String, Value>,
    resource: Map<String, Value>,
    status_code: u64,
    status_message: Option<String>,
    events: Vec<Value>,
    place: String,
}

/// Reads OTLP lines; `wanted` picks a trace by id, else the one with most spans.
pub fn read(
    items: &[Item],
    node_attributes: &[String],
    wanted: Option<&str>,
) -> Result<(Run, Vec<String>, Vec<Diagnostic>), Vec<Diagnostic>> {
    let mut out = Vec::new();
    let mut traces: IndexMap<String, Vec<Span>> = IndexMap::new();
    let mut bad_ids = 0usize;
    for item in items {
        for rs in item.value.get("resourceSpans").and_then(Value::as_array).into_iter().flatten() {
            let resource = attributes(rs.get("resource").and_then(|r| r.get("attributes")));
            for ss in rs.get("scopeSpans").and_then(Value::as_array).into_iter().flatten() {
                for (k, sp) in ss.get("spans").and_then(Value::as_array).into_iter().flatten().enumerate() {
                    let (Some(trace), Some(id)) =
                        (id_hex(sp.get("traceId"), 16), id_hex(sp.get("spanId"), 8))
                    else {
                        bad_ids += 1;
                        continue;
                    };
                    let status = sp.get("status");
                    traces.entry(trace.clone()).or_default().push(Span {
                        trace,
                        id,
                        parent: id_hex(sp.get("parentSpanId"), 8),
                        name: sp.get("name").and_then(Value::as_str).unwrap_or("span").to_owned(),
                        start: sp.get("startTimeUnixNano").and_then(time::from_unix_nanos),
                        end: sp.get("endTimeUnixNano").and_then(time::from_unix_nanos),
                        attrs: attributes(sp.get("attributes")),
                        resource: resource.clone(),
                        status_code: status.and_then(|s| s.get("code")).and_then(fields::uint).unwrap_or(0),
                        status_message: status.and_then(|s| s.get("message")).and_then(text_of),
                        events: sp.get("events").and_then(Value::as_array).cloned().unwrap_or_default(),
                        place: format!("{}, span {k}", item.place),
                    });
                }
            }
        }
    }
    if bad_ids > 0 {
        out.push(Diagnostic::warning(
            codes::BAD_FIELD,
            format!("{bad_ids} span(s) have no readable traceId or spanId (hex or base64): skipped"),
        ));
    }
    if traces.is_empty() {
        return Err(vec![Diagnostic::error(codes::NO_STEPS, "the OTLP file holds no span")]);
    }
    let chosen = match wanted {
        Some(w) => {
            let w = w.to_ascii_lowercase();
            match traces.get_index_of(&w) {
                Some(i) => i,
                None => {
                    return Err(vec![Diagnostic::error(
                        codes::NO_SUCH_RUN,
                        format!(
                            "no trace {w} in the file; it holds {}",
                            traces.keys().cloned().collect::<Vec<_>>().join(", ")
                        ),
                    )])
                }
            }
        }
        None => (0..traces.len()).max_by_key(|&i| (traces[i].len(), std::cmp::Reverse(i))).unwrap_or(0),
    };
    let others: Vec<String> =
        traces.keys().enumerate().filter(|(i, _)| *i != chosen).map(|(_, k)| k.clone()).collect();
    if !others.is_empty() && wanted.is_none() {
        out.push(Diagnostic::info(
            codes::MANY_RUNS,
            format!("the file holds {} trace(s); the one with most spans is shown", others.len() + 1),
        ));
    }
    let (_, spans) = traces.swap_remove_index(chosen).unwrap_or_default();
    Ok((build(spans, node_attributes), others, out))
}

fn build(mut spans: Vec<Span>, node_attributes: &[String]) -> Run {
    spans.sort_by(|a, b| a.start.unwrap_or(f64::INFINITY).total_cmp(&b.start.unwrap_or(f64::INFINITY)));
    let ids: HashMap<&str, usize> = spans.iter().enumerate().map(|(i, s)| (s.id.as_str(), i)).collect();
    let node_of = |s: &Span| -> Option<String> {
        node_attributes
            .iter()
            .find_map(|a| s.attrs.get(a.as_str()).and_then(text_of))
            .filter(|n| !n.is_empty())
    };
    let mut run = Run::new(RunSource::Otlp, spans.first().map(|s| s.trace.clone()).unwrap_or_default());
    // The root span frames the run unless it is itself a node.
    let frame = spans.iter().position(|s| s.parent.as_deref().is_none_or(|p| !ids.contains_key(p)));
    let frame = frame.filter(|&i| node_of(&spans[i]).is_none());
    if let Some(f) = frame.map(|i| &spans[i]) {
        run.started_ms = f.start;
        run.ended_ms = f.end;
        run.graph = GraphIdentity {
            name: f
                .attrs
                .get("gen_ai.workflow.name")
                .or_else(|| f.attrs.get("gen_ai.agent.name"))
                .and_then(text_of),
            version: f
                .attrs
                .get("gen_ai.agent.version")
                .or_else(|| f.resource.get("service.version"))
                .and_then(text_of),
            ..GraphIdentity::default()
        };
        if f.status_code == 2 {
            run.error = Some(error_of(f));
        }
    }
    let mut step_of: HashMap<usize, usize> = HashMap::new();
    for (i, s) in spans.iter().enumerate() {
        if Some(i) == frame {
            continue;
        }
        let node = node_of(s);
        let op = s.attrs.get("gen_ai.operation.name").and_then(Value::as_str).unwrap_or("");
        let kind = match (&node, op) {
            (Some(_), _) => StepKind::Node,
            (None, "chat" | "generate_content" | "text_completion" | "embeddings") => StepKind::Llm,
            (None, "execute_tool") => StepKind::Tool,
            (None, "invoke_agent" | "create_agent") => StepKind::Agent,
            _ => StepKind::Other,
        };
        let mut step = Step::new(s.id.clone(), node.clone().unwrap_or_else(|| s.name.clone()), kind);
        step.node = node;
        step.started_ms = s.start;
        step.ended_ms = s.end;
        step.superstep = STEP_ATTRIBUTES.iter().find_map(|a| s.attrs.get(*a).and_then(fields::uint));
        // The nearest ancestor that is a step.
        let mut up = s.parent.as_deref().and_then(|p| ids.get(p).copied());
        while let Some(a) = up {
            if let Some(&si) = step_of.get(&a) {
                step.parent = Some(si);
                break;
            }
            up = spans[a].parent.as_deref().and_then(|p| ids.get(p).copied());
        }
        step.tokens = fields::tokens_in(&s.attrs, "gen_ai.usage.");
        step.input = ["gen_ai.input.messages", "gen_ai.tool.call.arguments"]
            .iter()
            .find_map(|k| s.attrs.get(*k))
            .map(maybe_json);
        step.output = ["gen_ai.output.messages", "gen_ai.tool.call.result"]
            .iter()
            .find_map(|k| s.attrs.get(*k))
            .map(maybe_json);
        if s.status_code == 2 {
            step.status = StepStatus::Error;
            step.error = Some(error_of(s));
        }
        for e in &s.events {
            if e.get("name").and_then(Value::as_str) == Some("exception") {
                continue;
            }
            step.events.push(RawEvent {
                kind: e.get("name").and_then(Value::as_str).unwrap_or("event").to_owned(),
                at: e.get("timeUnixNano").and_then(time::from_unix_nanos),
                place: s.place.clone(),
                value: Value::Object(attributes(e.get("attributes"))),
            });
        }
        step_of.insert(i, run.steps.len());
        run.steps.push(step);
    }
    // Steps without a recorded superstep follow one another.
    if run.steps.iter().all(|s| s.superstep.is_none()) {
        let mut n = 0u64;
        for s in run.steps.iter_mut() {
            if s.kind == StepKind::Node {
                s.superstep = Some(n);
                n += 1;
            }
        }
    }
    // A call under a node belongs to its node's superstep.
    for i in 0..run.steps.len() {
        if run.steps[i].superstep.is_none() {
            run.steps[i].superstep = run.steps[i].parent.and_then(|p| run.steps[p].superstep);
        }
    }
    run.status = if run.error.is_some()
        || run.steps.iter().any(|s| s.status == StepStatus::Error && s.parent.is_none())
    {
        RunOutcome::Error
    } else {
        RunOutcome::Done
    };
    run.roll_up();
    run
}

fn error_of(s: &Span) -> StepError {
    let exception = s.events.iter().find(|e| e.get("name").and_then(Value::as_str) == Some("exception"));
    let ex = exception.map(|e| attributes(e.get("attributes"))).unwrap_or_default();
    let kind = s.attrs.get("error.type").or_else(|| ex.get("exception.type")).and_then(text_of);
    let message = s
        .status_message
        .clone()
        .filter(|m| !m.is_empty())
        .or_else(|| ex.get("exception.message").and_then(text_of))
        .or_else(|| kind.clone())
        .unwrap_or_else(|| "the span ended with an error status and no message".into());
    StepError { kind, message }
}
