//! Reading a run record of any source: what the bytes are is found from their content (the
//! run log's header, Weaveflow's answer, OTLP's `resourceSpans`, LangSmith's run fields,
//! Ilmek's event kinds), never from the file's name.

use serde_json::Value;
use trellis_spec::Diagnostic;

use crate::codes;
use crate::json_text::{self, Item};
use crate::model::{ReadRun, Run};
use crate::readers::{ilmek_checkpoints, ilmek_events, langsmith, otlp, trellis_log, weaveflow};

/// The largest record read (a run of a million steps is well under it).
pub const MAX_BYTES: u64 = 1 << 30;

/// Choices a caller can make about a record.
#[derive(Debug, Clone, Default)]
pub struct ReadOptions {
    /// The run, thread or trace to read when the record holds several (else the most recent
    /// or largest, with a note naming the others).
    pub run: Option<String>,
    /// The span attributes that name a graph node (OTLP); empty: the default list.
    pub node_attributes: Vec<String>,
    /// The nodes the graph runs first (its `__start__` edges): Ilmek's checkpoints do not
    /// record them.
    pub start_nodes: Vec<String>,
}

impl ReadOptions {
    fn node_attributes(&self) -> Vec<String> {
        if self.node_attributes.is_empty() {
            otlp::DEFAULT_NODE_ATTRIBUTES.iter().map(|s| (*s).to_owned()).collect()
        } else {
            self.node_attributes.clone()
        }
    }
}

/// Reads a record from its bytes.
pub fn read_bytes(bytes: &[u8], options: &ReadOptions) -> Result<ReadRun, Vec<Diagnostic>> {
    if bytes.len() as u64 > MAX_BYTES {
        return Err(vec![too_large(bytes.len() as u64)]);
    }
    if bytes.starts_with(b"SQLite format 3\0") {
        return Err(vec![Diagnostic::error(
            codes::UNREADABLE,
            "an SQLite database is read from its file (open it by its path)",
        )]);
    }
    let text = std::str::from_utf8(bytes).map_err(|e| {
        vec![Diagnostic::error(
            codes::UNREADABLE,
            format!(
                "not UTF-8 text (at byte {}): run records are JSON; an OTLP file in protobuf or zstd form is not read (set the file exporter's format to json)",
                e.valid_up_to()
            ),
        )]
    })?;
    read_text(text, options)
}

pub(crate) fn too_large(len: u64) -> Diagnostic {
    Diagnostic::error(
        codes::TOO_LARGE,
        format!("the record is {} MB; Trellis reads records up to {} MB", len >> 20, MAX_BYTES >> 20),
    )
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Log,
    Ilmek,
    WeaveflowAnswer,
    WeaveflowEvents,
    Otlp,
    Langsmith,
}

fn classify(v: &Value) -> Option<Kind> {
    if trellis_log::is_header(v) {
        Some(Kind::Log)
    } else if weaveflow::is_answer(v) {
        Some(Kind::WeaveflowAnswer)
    } else if otlp::is_traces(v) {
        Some(Kind::Otlp)
    } else if langsmith::is_run(v) {
        Some(Kind::Langsmith)
    } else if weaveflow::is_event(v) {
        Some(Kind::WeaveflowEvents)
    } else if ilmek_events::looks_like_event(v) {
        Some(Kind::Ilmek)
    } else {
        None
    }
}

fn unknown(v: &Value) -> Diagnostic {
    let what = match v {
        Value::Object(o) => {
            let keys: Vec<&str> = o.keys().take(6).map(String::as_str).collect();
            format!("an object with {}", if keys.is_empty() { "no key".into() } else { keys.join(", ") })
        }
        Value::Array(_) => "an array".into(),
        other => format!("a {}", trellis_spec::read::kind_of(other)),
    };
    Diagnostic::error(
        codes::UNKNOWN_FORMAT,
        format!(
            "not a run record Trellis knows ({what}): it reads Trellis run logs, Ilmek events and checkpoints, Weaveflow run inspections, OTLP JSON spans and LangSmith runs"
        ),
    )
}

/// Reads a record from its text.
pub fn read_text(text: &str, options: &ReadOptions) -> Result<ReadRun, Vec<Diagnostic>> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let start = text.trim_start();
    let mut diagnostics = Vec::new();
    let items: Vec<Item> = if start.starts_with('[') {
        let items = json_text::array_items(text, &mut diagnostics);
        if items.is_empty() {
            diagnostics.retain(|d| d.is_error() || d.code == codes::TRUNCATED);
            if diagnostics.is_empty() {
                diagnostics.push(Diagnostic::warning(codes::NO_STEPS, "the array is empty: no event"));
            }
            return Err(diagnostics);
        }
        // An array of arrays or of runs: its elements are the items.
        items
    } else if start.starts_with('{') {
        match json_text::document(text) {
            Ok(v) => vec![Item { value: v, place: String::new() }],
            Err(whole) => {
                let first_line = start.lines().next().unwrap_or("");
                if serde_json::from_str::<Value>(first_line.trim()).is_err() {
                    // Not JSON lines either (a document broken in its middle, or cut off).
                    return Err(vec![whole]);
                }
                json_text::lines(text, &mut diagnostics)
            }
        }
    } else if start.is_empty() {
        return Err(vec![Diagnostic::error(codes::UNKNOWN_FORMAT, "the file is empty")]);
    } else {
        return Err(vec![Diagnostic::error(
            codes::UNKNOWN_FORMAT,
            "not JSON: run records are JSON documents or JSON lines",
        )]);
    };
    let Some(first) = items.first() else {
        return Err(diagnostics);
    };
    let Some(kind) = classify(&first.value) else { return Err(vec![unknown(&first.value)]) };
    let (run, others) = match kind {
        Kind::Log | Kind::Ilmek => {
            let (runs, more) = if kind == Kind::Log {
                trellis_log::read(&items)
            } else {
                ilmek_events::Reader::new(crate::model::RunSource::IlmekEvents).read_items(&items)
            };
            diagnostics.extend(more);
            pick(runs, options.run.as_deref(), &mut diagnostics)?
        }
        Kind::WeaveflowAnswer => {
            let (run, more) = weaveflow::read_answer(&first.value)?;
            diagnostics.extend(more);
            (run, Vec::new())
        }
        Kind::WeaveflowEvents => {
            let (run, more) = weaveflow::read_events(&items);
            diagnostics.extend(more);
            (run, Vec::new())
        }
        Kind::Otlp => {
            let (run, others, more) = otlp::read(&items, &options.node_attributes(), options.run.as_deref())?;
            diagnostics.extend(more);
            (run, others)
        }
        Kind::Langsmith => {
            let (run, others, more) = langsmith::read(&items, options.run.as_deref())?;
            diagnostics.extend(more);
            (run, others)
        }
    };
    Ok(finish(run, others, diagnostics))
}

/// Reads the rows of Ilmek's checkpoint tables.
pub fn read_checkpoints(
    rows: &[ilmek_checkpoints::CheckpointRow],
    options: &ReadOptions,
) -> Result<ReadRun, Vec<Diagnostic>> {
    let (run, others, diagnostics) =
        ilmek_checkpoints::read(rows, options.run.as_deref(), &options.start_nodes)?;
    Ok(finish(run, others, diagnostics))
}

fn finish(run: Run, others: Vec<String>, mut diagnostics: Vec<Diagnostic>) -> ReadRun {
    if !run.steps.iter().any(|s| s.on_path()) && !diagnostics.iter().any(|d| d.code == codes::NO_STEPS) {
        diagnostics.push(Diagnostic::warning(codes::NO_STEPS, "the record holds no step of a graph node"));
    }
    ReadRun { run, diagnostics, others }
}

/// One run of several read from one record: the one asked for, else the first.
fn pick(
    mut runs: Vec<Run>,
    wanted: Option<&str>,
    out: &mut Vec<Diagnostic>,
) -> Result<(Run, Vec<String>), Vec<Diagnostic>> {
    if runs.is_empty() {
        out.push(Diagnostic::error(codes::NO_STEPS, "the record holds no event of a run"));
        return Err(std::mem::take(out));
    }
    let matches = |r: &Run, w: &str| {
        r.id == w
            || r.thread.as_deref() == Some(w)
            || r.events
                .iter()
                .any(|e| e.kind == "resumed" && e.value.as_array().is_some_and(|a| a.iter().any(|x| x == w)))
    };
    let index = match wanted {
        Some(w) => runs.iter().position(|r| matches(r, w)).ok_or_else(|| {
            vec![Diagnostic::error(
                codes::NO_SUCH_RUN,
                format!(
                    "no run or thread \"{w}\" in the record; it holds {}",
                    runs.iter().map(|r| r.id.as_str()).collect::<Vec<_>>().join(", ")
                ),
            )]
        })?,
        None => 0,
    };
    let run = runs.remove(index);
    let others: Vec<String> = runs.into_iter().map(|r| r.thread.unwrap_or(r.id)).collect();
    if !others.is_empty() && wanted.is_none() {
        out.push(Diagnostic::info(
            codes::MANY_RUNS,
            format!("the record holds {} runs (threads); the first is shown", others.len() + 1),
        ));
    }
    Ok((run, others))
}

/// Whether the first bytes of a file look like a run record rather than a graph: an SQLite
/// database (Ilmek's checkpoints), or JSON whose first line or opening carries a run record's
/// marks. A guess to route a dropped or named file; reading decides.
pub fn sniff(prefix: &[u8]) -> bool {
    if prefix.starts_with(b"SQLite format 3\0") {
        return true;
    }
    let text = String::from_utf8_lossy(prefix);
    let text = text.trim_start_matches('\u{feff}').trim_start();
    if let Some(line) = text.lines().next() {
        if let Ok(v) = serde_json::from_str::<Value>(line.trim()) {
            return classify(&v).is_some()
                || v.as_array().and_then(|a| a.first()).is_some_and(|f| classify(f).is_some());
        }
    }
    let head: String = text.chars().take(4096).collect();
    let has = |k: &str| head.contains(k);
    has("\"format\":\"trellis-run/")
        || has("\"resourceSpans\"")
        || has("\"dotted_order\"")
        || (has("\"run_type\"") && has("\"trace_id\""))
        || (has("\"data\"") && has("\"run_id\"") && has("\"steps\""))
        || (has("\"runId\"")
            && has("\"seq\"")
            && (has("\"step_start\"") || has("\"run_start\"") || has("\"node_start\"")))
}
