//! Writing Trellis's run log (`trellis-run/1`, docs/runs.md): a header line, then one line an
//! event with the time it was received. What Ilmek users write from `stream()`, and what the
//! simulator writes.

use serde::Serialize;
use serde_json::{json, Map, Value};

use crate::readers::trellis_log::FORMAT;

/// What the header says.
#[derive(Debug, Clone, Default, Serialize)]
pub struct LogHeader {
    pub graph_name: Option<String>,
    /// `sha256:<hex>` of the graph file's bytes ([`crate::identity::graph_hash`]).
    pub graph_hash: Option<String>,
    /// The graph itself, so the run can be shown even when the file has moved on.
    pub graph_spec: Option<Value>,
    /// Who wrote the log (`trellis simulate`, an application's name).
    pub runtime: Option<String>,
    pub run_id: Option<String>,
    pub input: Option<Map<String, Value>>,
    /// When the capture began, milliseconds since the epoch.
    pub captured_ms: Option<f64>,
}

fn line(v: &Value) -> String {
    let mut s = serde_json::to_string(v).unwrap_or_default();
    s.push('\n');
    s
}

/// The header line.
pub fn header_line(h: &LogHeader) -> String {
    let mut graph = Map::new();
    if let Some(n) = &h.graph_name {
        graph.insert("name".into(), n.clone().into());
    }
    if let Some(x) = &h.graph_hash {
        graph.insert("hash".into(), x.clone().into());
    }
    if let Some(s) = &h.graph_spec {
        graph.insert("spec".into(), s.clone());
    }
    let mut head = json!({"format": FORMAT, "graph": graph});
    if let Some(o) = head.as_object_mut() {
        if let Some(r) = &h.runtime {
            o.insert("runtime".into(), r.clone().into());
        }
        if let Some(r) = &h.run_id {
            o.insert("runId".into(), r.clone().into());
        }
        if let Some(t) = h.captured_ms {
            o.insert("capturedAt".into(), crate::time::format_ms(t).into());
        }
        if let Some(i) = &h.input {
            o.insert("input".into(), Value::Object(i.clone()));
        }
    }
    line(&head)
}

/// One event's line.
pub fn event_line(at_ms: f64, event: &Value) -> String {
    // Whole milliseconds print as integers (as `Date.now()` writes them).
    let at = if at_ms.fract() == 0.0 && at_ms.abs() < 9.0e15 { json!(at_ms as i64) } else { json!(at_ms) };
    line(&json!({"at": at, "event": event}))
}
