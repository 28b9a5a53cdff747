//! `trellis simulate FILE [--registry FILE]... [--input JSON] [--mock KEY=JSON]... [--limit N] [--record RUN.jsonl]`
//!
//! Runs the document's routing on the deterministic executor (`trellis_spec::executor`) with
//! mocked nodes: each node returns the update given by `--mock` for its id, else for its type
//! (an id wins), else no update. Prints the trace as JSON:
//! `{"status":"done"|"step_limit"|"error","steps":[{"step","ran":[ids],"fired":[{"from","to"}]}],"state":{...}}`
//! (plus `"error"` when the run did not end `done`). Step 0 is the input step, where
//! `__start__`'s edges fire.
//!
//! `--record RUN.jsonl` also writes the run as Trellis's run log (docs/runs.md): the graph's name,
//! hash and text, the input, then Ilmek's events as the run emitted them, each with its time, so
//! `trellis runs show` and the app read a simulated run as they read a captured one.
//!
//! Exit 0 when the run ends `done`; 1 when the document has errors or the run hits the step
//! limit or an error; 2 for a bad `--input`/`--mock` or an unreadable file.

use std::path::PathBuf;

use clap::builder::TypedValueParser;

use serde_json::{Map, Value};
use trellis_runs::log::LogHeader;
use trellis_runs::simulate;
use trellis_spec::executor::{RunStatus, DEFAULT_LIMIT};
use trellis_spec::validate::validate;
use trellis_spec::{json, GraphSpec};

use crate::load;
use crate::registries;
use crate::report::{self, Exit, FileReport, OutputFormat};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The document to run.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
    /// A registry file describing the node types (repeatable); with one, types are checked.
    #[arg(long = "registry", value_name = "FILE")]
    pub registries: Vec<PathBuf>,
    /// Do not look for registries next to the document.
    #[arg(long)]
    pub no_discover: bool,
    /// The input: a JSON object of channel values, folded in by the channels' reducers.
    #[arg(long, value_name = "JSON", default_value = "{}")]
    pub input: String,
    /// What a node returns: KEY is a node id or a node type (an id wins), JSON an object
    /// (the update). Repeatable.
    #[arg(long = "mock", value_name = "KEY=JSON")]
    pub mocks: Vec<String>,
    /// The most supersteps to run (at most 10000: a trace is printed for every step).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_LIMIT, value_parser = clap::value_parser!(u16).range(0..=MAX_LIMIT).map(usize::from))]
    pub limit: usize,
    /// Also write the run as a run log (Trellis's `trellis-run/1` JSON lines) to this file.
    #[arg(long, value_name = "RUN.jsonl")]
    pub record: Option<PathBuf>,
}

/// The largest `--limit`: enough for any routing experiment, small enough that a cycle with
/// an `append` channel cannot run for hours.
const MAX_LIMIT: i64 = 10_000;

pub fn run(args: Args) -> Exit {
    let input = match parse_object("--input", &args.input) {
        Ok(m) => m,
        Err(message) => return usage(&message),
    };
    let regs = registries::load(&args.registries, !args.no_discover, std::slice::from_ref(&args.file));
    if let Some(exit) = regs.exit {
        report::print(&regs.reports, OutputFormat::Human, true);
        return exit;
    }
    let loaded = load::load_graphspec(&args.file)
        .and_then(|(source, parsed)| load::require_spec(&source, parsed).map(|r| (source, r)));
    let (source, (spec, mut diagnostics)) = match loaded {
        Ok(ok) => ok,
        Err(f) => {
            report::print(&[f.report], OutputFormat::Human, true);
            return f.exit;
        }
    };
    let mut mocks: Vec<(String, Map<String, Value>)> = Vec::new();
    for m in &args.mocks {
        match parse_mock(&spec, m) {
            Ok(mock) => mocks.push(mock),
            Err(message) => return usage(&message),
        }
    }
    diagnostics.extend(validate(&spec, regs.registry.as_ref()));
    json::fill_spans(&source.text, &mut diagnostics);
    let has_errors = trellis_spec::diagnostic::has_errors(&diagnostics);
    if !diagnostics.is_empty() {
        report::print(
            &[FileReport::new(source.display.clone(), Some(source.text.clone()), diagnostics)],
            OutputFormat::Human,
            true,
        );
    }
    if has_errors {
        return Exit::Problems;
    }

    let built = simulate::mocked_graph(&spec, &mocks)
        .and_then(|graph| simulate::run(graph, &spec, input.clone(), args.limit, &run_id(), "simulate"));
    let sim = match built {
        Ok(sim) => sim,
        Err(mut problems) => {
            json::fill_spans(&source.text, &mut problems);
            report::print(
                &[FileReport::new(source.display, Some(source.text), problems)],
                OutputFormat::Human,
                true,
            );
            return Exit::Problems;
        }
    };
    if let Some(path) = &args.record {
        let header = LogHeader {
            graph_name: spec.name.clone(),
            graph_hash: Some(trellis_runs::identity::graph_hash(source.text.as_bytes())),
            graph_spec: serde_json::from_str(&trellis_spec::to_canonical_string(&spec)).ok(),
            runtime: Some("trellis simulate".into()),
            run_id: None,
            input: Some(input),
            captured_ms: Some(now_ms()),
        };
        let text = simulate::log_text(&sim, &header, &mut now_ms);
        if let Err(message) = crate::load::write_atomically(path, &text) {
            report::note(&format!("{}: {message}", path.display()));
            return Exit::Usage;
        }
    }
    let result = sim.result;
    let mut text = serde_json::to_string_pretty(&result).unwrap_or_default();
    text.push('\n');
    report::write_stdout(&text);
    match result.status {
        RunStatus::Done => Exit::Clean,
        RunStatus::StepLimit | RunStatus::Error => {
            if let Some(e) = &result.error {
                report::note(&format!("{}: {}", e.code, e.message));
            }
            Exit::Problems
        }
    }
}

fn usage(message: &str) -> Exit {
    report::note(message);
    Exit::Usage
}

/// Parses `text` as a JSON object (`what` names the option in messages).
fn parse_object(what: &str, text: &str) -> Result<Map<String, Value>, String> {
    match json::parse(text) {
        Ok(Value::Object(m)) => Ok(m),
        Ok(other) => {
            Err(format!("{what}: expected a JSON object, got {}", trellis_spec::read::kind_of(&other)))
        }
        Err(d) => Err(format!("{what}: {}", d.message)),
    }
}

/// Splits `KEY=JSON`. An id may itself hold `=`, so the split is at the first `=` whose left
/// side names a node id or type.
fn parse_mock(spec: &GraphSpec, text: &str) -> Result<(String, Map<String, Value>), String> {
    let splits: Vec<usize> = text.match_indices('=').map(|(i, _)| i).collect();
    let Some(&first) = splits.first() else {
        return Err(format!("--mock {text}: expected KEY=JSON"));
    };
    let at = splits.iter().copied().find(|&i| names_a_node(spec, &text[..i])).unwrap_or(first);
    let (key, json) = (&text[..at], &text[at + 1..]);
    if !names_a_node(spec, key) {
        return Err(format!("--mock {key}: no node has this id or type"));
    }
    let update = parse_object(&format!("--mock {key}"), json)?;
    Ok((key.to_owned(), update))
}

fn names_a_node(spec: &GraphSpec, key: &str) -> bool {
    spec.nodes.iter().any(|n| n.id == key || n.type_name.as_deref() == Some(key))
}

/// Milliseconds since the Unix epoch (the run log's times).
fn now_ms() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
}

/// A run id that sorts by time (`sim-<ms since the epoch in hex>`).
fn run_id() -> String {
    format!("sim-{:x}", now_ms() as u64)
}
