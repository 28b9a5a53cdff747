//! `trellis runs show RUN [--graph FILE] [--format json]` and `trellis runs diff A B`.
//!
//! `show` reads one run record of any source (trellis-runs) and prints its path, per-node
//! figures (count, median and 95th-percentile duration, tokens, cost), its errors, and with
//! `--graph` how the run's graph differs from FILE. A folder aggregates every record in it: per
//! edge how often it was taken, the graph's edges no run took, per-node figures over all runs.
//! `diff` aligns two runs on (superstep, node, attempt) and names the first step where they part
//! and the first channel value that differs.
//!
//! Exit codes: `show` 0, or 1 when the run failed; `diff` 0 when the runs took the same steps, 1
//! when they differ; 2 for a record or graph that cannot be read, or a usage error.

use std::path::{Path, PathBuf};

use rayon::prelude::*;
use serde_json::json;
use trellis_runs::model::ReadRun;
use trellis_runs::{compare, file, identity, summary, ReadOptions, RunOutcome};

use crate::commands::runs_graph::{open_graph, Graph};
use crate::commands::runs_print as print;
use crate::report::{self, Exit, FileReport, OutputFormat};

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub command: RunsCommand,
}

#[derive(Debug, clap::Subcommand)]
pub enum RunsCommand {
    /// Print a run's path and figures (a folder: every run in it, aggregated).
    Show(ShowArgs),
    /// Compare two runs step by step.
    Diff(DiffArgs),
}

/// What every `runs` command reads with.
#[derive(Debug, clap::Args)]
pub struct Reading {
    /// The graph the run ran (any format): its edges and reducers, and how the run's differs.
    #[arg(long, value_name = "FILE")]
    pub graph: Option<PathBuf>,
    /// The run, thread or trace to read when a record holds several.
    #[arg(long = "run", value_name = "ID")]
    pub run: Option<String>,
    /// An OTLP span attribute that names the graph node (repeatable, tried in order).
    #[arg(long = "node-attribute", value_name = "NAME")]
    pub node_attributes: Vec<String>,
    /// How to print.
    #[arg(long, value_enum, default_value_t = OutputFormat::Human)]
    pub format: OutputFormat,
}

#[derive(Debug, clap::Args)]
pub struct ShowArgs {
    /// A run record (Trellis run log, Ilmek events or SQLite checkpoints, Weaveflow inspection,
    /// OTLP JSON lines, LangSmith runs), or a folder of them.
    #[arg(value_name = "RUN")]
    pub run: PathBuf,
    #[command(flatten)]
    pub reading: Reading,
}

#[derive(Debug, clap::Args)]
pub struct DiffArgs {
    #[arg(value_name = "A")]
    pub a: PathBuf,
    #[arg(value_name = "B")]
    pub b: PathBuf,
    #[command(flatten)]
    pub reading: Reading,
}

pub fn run(args: Args) -> Exit {
    match args.command {
        RunsCommand::Show(a) => show(&a),
        RunsCommand::Diff(a) => diff(&a),
    }
}

fn options(reading: &Reading, graph: Option<&Graph>) -> ReadOptions {
    ReadOptions {
        run: reading.run.clone(),
        node_attributes: reading.node_attributes.clone(),
        start_nodes: graph.map(|g| g.shape.start_nodes.clone()).unwrap_or_default(),
    }
}

/// Reads one record; its diagnostics go to stderr (warnings too), a refusal exits 2.
fn open_run(path: &Path, options: &ReadOptions, format: OutputFormat) -> Result<ReadRun, Exit> {
    match file::open(path, options) {
        Ok(read) => {
            if !read.diagnostics.is_empty() && format == OutputFormat::Human {
                let report = FileReport::new(path.display().to_string(), None, read.diagnostics.clone());
                report::print(&[report], OutputFormat::Human, true);
            }
            Ok(read)
        }
        Err(diagnostics) => {
            report::print(
                &[FileReport::new(path.display().to_string(), None, diagnostics)],
                format,
                format == OutputFormat::Human,
            );
            Err(Exit::Usage)
        }
    }
}

fn show(args: &ShowArgs) -> Exit {
    let graph = match args.reading.graph.as_deref().map(open_graph).transpose() {
        Ok(g) => g,
        Err(exit) => return exit,
    };
    if args.run.is_dir() {
        return show_folder(args, graph.as_ref());
    }
    let options = options(&args.reading, graph.as_ref());
    let read = match open_run(&args.run, &options, args.reading.format) {
        Ok(r) => r,
        Err(exit) => return exit,
    };
    let shape = graph.as_ref().map_or_else(|| print::own_shape(&read.run), |g| g.shape.clone());
    let summary = summary::summarize(&read.run);
    let judged = graph.as_ref().map(|g| identity::judge(&read.run, &g.shape, &g.hashes));
    let spec_diff = graph.as_ref().and_then(|g| print::spec_difference(&read.run, g));
    let path = trellis_runs::overlay::path(&read.run, &shape);
    match args.reading.format {
        OutputFormat::Json => {
            let out = json!({
                "file": args.run.display().to_string(),
                "source": read.run.source,
                "id": read.run.id,
                "thread": read.run.thread,
                "graph": read.run.graph,
                "summary": summary,
                "edges": path.edges,
                "others": read.others,
                "match": judged,
                "graphDiff": spec_diff,
                "diagnostics": read.diagnostics,
            });
            report::write_stdout(&format!("{}\n", serde_json::to_string_pretty(&out).unwrap_or_default()));
        }
        OutputFormat::Human => {
            let shown = args.run.display().to_string();
            let text = print::run_text(
                &shown,
                &read,
                &summary,
                &path,
                judged.as_ref(),
                graph.as_ref(),
                spec_diff.as_deref(),
            );
            report::write_stdout(&text);
        }
    }
    if read.run.status == RunOutcome::Error {
        Exit::Problems
    } else {
        Exit::Clean
    }
}

/// The records of a folder (not its subfolders), in name order.
fn records(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: cannot read: {e}", dir.display()))?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_file() && !p.file_name().is_some_and(|n| n.to_string_lossy().starts_with('.')))
        .collect();
    files.sort();
    Ok(files)
}

fn show_folder(args: &ShowArgs, graph: Option<&Graph>) -> Exit {
    let files = match records(&args.run) {
        Ok(f) => f,
        Err(message) => {
            report::note(&message);
            return Exit::Usage;
        }
    };
    let options = options(&args.reading, graph);
    let read: Vec<(PathBuf, Result<ReadRun, Vec<trellis_spec::Diagnostic>>)> = files
        .into_par_iter()
        .map(|p| {
            let r = file::open(&p, &options);
            (p, r)
        })
        .collect();
    let mut runs = Vec::new();
    let mut unreadable = Vec::new();
    for (path, r) in read {
        match r {
            Ok(r) => runs.push(r.run),
            Err(ds) => unreadable.push((
                path.display().to_string(),
                ds.first().map(|d| d.message.clone()).unwrap_or_default(),
            )),
        }
    }
    if runs.is_empty() {
        report::note(&format!("{}: no readable run record in the folder", args.run.display()));
        for (p, why) in &unreadable {
            report::note(&format!("{p}: {why}"));
        }
        return Exit::Usage;
    }
    let shape = graph.map_or_else(|| print::own_shape(&runs[0]), |g| g.shape.clone());
    let aggregate = summary::aggregate(&runs, &shape);
    match args.reading.format {
        OutputFormat::Json => {
            let skipped: Vec<_> = unreadable.iter().map(|(p, m)| json!({"file": p, "message": m})).collect();
            let out = json!({"folder": args.run.display().to_string(), "aggregate": aggregate, "unreadable": skipped});
            report::write_stdout(&format!("{}\n", serde_json::to_string_pretty(&out).unwrap_or_default()));
        }
        OutputFormat::Human => {
            report::write_stdout(&print::aggregate_text(
                &args.run.display().to_string(),
                &aggregate,
                &unreadable,
                graph.is_some(),
            ));
        }
    }
    Exit::Clean
}

fn diff(args: &DiffArgs) -> Exit {
    let graph = match args.reading.graph.as_deref().map(open_graph).transpose() {
        Ok(g) => g,
        Err(exit) => return exit,
    };
    let options = options(&args.reading, graph.as_ref());
    let (a, b) = match (
        open_run(&args.a, &options, args.reading.format),
        open_run(&args.b, &options, args.reading.format),
    ) {
        (Ok(a), Ok(b)) => (a, b),
        (Err(e), _) | (_, Err(e)) => return e,
    };
    let shape = graph.as_ref().map_or_else(|| print::own_shape(&a.run), |g| g.shape.clone());
    let c = compare::compare(&a.run, &b.run, &shape);
    match args.reading.format {
        OutputFormat::Json => {
            let out = json!({"a": args.a.display().to_string(), "b": args.b.display().to_string(), "comparison": c});
            report::write_stdout(&format!("{}\n", serde_json::to_string_pretty(&out).unwrap_or_default()));
        }
        OutputFormat::Human => {
            report::write_stdout(&print::diff_text(
                &args.a.display().to_string(),
                &args.b.display().to_string(),
                &a.run,
                &b.run,
                &c,
            ));
        }
    }
    if c.divergence.is_some() || c.value.is_some() {
        Exit::Problems
    } else {
        Exit::Clean
    }
}
