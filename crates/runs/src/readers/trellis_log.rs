//! Trellis's run log (`trellis-run/1`, docs/runs.md): JSON lines, a header first (the format
//! id, the graph's name and hash, optionally the graph itself and the input), then one line a
//! runtime event, `{"at": <ms since the epoch or RFC 3339>, "event": <Ilmek event>}`.

use serde_json::Value;
use trellis_spec::Diagnostic;

use crate::codes;
use crate::fields::{get, string};
use crate::json_text::Item;
use crate::model::{GraphIdentity, Run, RunSource, Step, StepKind};
use crate::readers::ilmek_events::{self, Event};
use crate::time;

/// The format id of the header line.
pub const FORMAT: &str = "trellis-run/1";
/// What every version's format id starts with.
pub const FORMAT_FAMILY: &str = "trellis-run/";

/// Whether a value is a run log's header.
pub fn is_header(v: &Value) -> bool {
    v.get("format").and_then(Value::as_str).is_some_and(|f| f.starts_with(FORMAT_FAMILY))
}

/// Reads a run log's lines (the first is the header).
pub fn read(items: &[Item]) -> (Vec<Run>, Vec<Diagnostic>) {
    let mut diagnostics = Vec::new();
    let Some((head, events)) = items.split_first() else { return (Vec::new(), diagnostics) };
    let header = head.value.as_object().cloned().unwrap_or_default();
    if let Some(f) = header.get("format").and_then(Value::as_str) {
        if f != FORMAT {
            diagnostics.push(Diagnostic::warning(
                codes::BAD_FIELD,
                format!("the log says it is {f}; this Trellis reads {FORMAT} and reads it as that"),
            ));
        }
    }
    let graph = header.get("graph").and_then(Value::as_object).map(|g| GraphIdentity {
        name: string(g, "name"),
        version: string(g, "version"),
        hash: string(g, "hash"),
        session: None,
        spec: g.get("spec").filter(|s| s.is_object()).cloned(),
    });
    let input = header.get("input").and_then(Value::as_object).cloned();
    let captured = header.get("capturedAt").and_then(time::millis);

    let mut reader = ilmek_events::Reader::new(RunSource::TrellisLog);
    let mut bad_times = 0usize;
    let mut bare = 0usize;
    for item in events {
        let (event, at) = match item.value.get("event") {
            Some(event) => {
                let at = item.value.get("at");
                let ms = at.and_then(time::millis);
                if at.is_some_and(|a| !a.is_null()) && ms.is_none() {
                    bad_times += 1;
                }
                (event, ms)
            }
            None if ilmek_events::looks_like_event(&item.value) => {
                bare += 1;
                (&item.value, None)
            }
            None => {
                diagnostics.push(Diagnostic::warning(
                    codes::BAD_FIELD,
                    format!("{}: a run log line holds {{\"at\", \"event\"}}: skipped", item.place),
                ));
                continue;
            }
        };
        reader.event(Event { value: event, at, place: &item.place });
    }
    if bad_times > 0 {
        diagnostics.push(Diagnostic::warning(
            codes::BAD_FIELD,
            format!("{bad_times} line(s) have an `at` that is neither milliseconds nor an RFC 3339 time: their times are left out"),
        ));
    }
    if bare > 0 {
        diagnostics.push(Diagnostic::info(
            codes::BAD_FIELD,
            format!("{bare} line(s) hold a bare event without `at`: read with no time"),
        ));
    }
    let (mut runs, more) = reader.finish();
    diagnostics.extend(more);
    if runs.is_empty() {
        // A header alone: the run never got to its first event.
        let mut run = Run::new(RunSource::TrellisLog, string(&header, "runId").unwrap_or_default());
        run.started_ms = captured;
        runs.push(run);
        diagnostics.push(Diagnostic::warning(codes::NO_STEPS, "the run log has a header and no event"));
    }
    for run in &mut runs {
        if let Some(g) = &graph {
            run.graph = g.clone();
        }
        if run.started_ms.is_none() {
            run.started_ms = captured;
        }
        if let Some(input) = &input {
            let mut s = Step::new("input", trellis_spec::START, StepKind::Input);
            s.node = Some(trellis_spec::START.to_owned());
            s.update = Some(input.clone());
            s.started_ms = run.started_ms;
            s.ended_ms = run.started_ms;
            for step in &mut run.steps {
                step.parent = step.parent.map(|p| p + 1);
            }
            run.steps.insert(0, s);
            run.input = Some(input.clone());
        }
    }
    if let Some(id) = get(&header, "runId").and_then(Value::as_str) {
        if let Some(run) = runs.first_mut() {
            if run.id.is_empty() {
                run.id = id.to_owned();
            }
        }
    }
    (runs, diagnostics)
}
