//! `trellis validate [--registry FILE]... [--no-discover] [--format json] FILE...`
//!
//! Reads each file, runs the one validator (`trellis_spec::validate::validate`) and prints
//! every problem. Exit 1 when any file has an error (warnings alone exit 0), 2 when a file
//! could not be read.

use std::path::PathBuf;

use trellis_spec::json;
use trellis_spec::validate::validate;

use crate::load::{self, Document};
use crate::registries;
use crate::report::{self, Exit, FileReport, OutputFormat};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// A registry file describing the node types (repeatable; later files win).
    #[arg(long = "registry", value_name = "FILE")]
    pub registries: Vec<PathBuf>,
    /// Do not look for registries next to the documents.
    #[arg(long)]
    pub no_discover: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = OutputFormat::Human)]
    pub format: OutputFormat,
    /// The Weaveflow `version` accepted in Weaveflow files ("1.0"; the format has used "2.0").
    #[arg(long, value_name = "VERSION", default_value = trellis_formats::weaveflow::DEFAULT_VERSION)]
    pub weaveflow_version: String,
    /// The documents to check.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
}

pub fn run(args: Args) -> Exit {
    let mut regs = registries::load(&args.registries, !args.no_discover, &args.files);
    let mut exit = regs.exit.unwrap_or(Exit::Clean);
    let mut reports = Vec::new();
    // In the human form, files that could not be read at all are reported on stderr.
    let mut unreadable = Vec::new();
    for path in &args.files {
        let (r, e) = check(load::load(path), regs.registry_for(path), path, &args.weaveflow_version);
        exit = exit.max(e);
        if e == Exit::Usage && args.format == OutputFormat::Human {
            unreadable.push(r);
        } else {
            reports.push(r);
        }
    }
    // Registry files (problems, notes) come after the documents: `files[0]` of the JSON form
    // stays the first document.
    reports.append(&mut regs.reports);
    if !unreadable.is_empty() {
        report::print(&unreadable, args.format, true);
    }
    report::print(&reports, args.format, false);
    if args.format == OutputFormat::Human {
        unreadable.extend(reports);
        report::note(&report::summary(&unreadable));
    }
    exit
}

/// A file as [`load::load`] gives it.
type Loaded = Result<(load::Source, Document), load::Failure>;

/// The report of one file, loaded, and the exit it implies.
/// `weaveflow_version` is the Weaveflow `version` accepted (`--weaveflow-version`).
pub fn check(
    loaded: Loaded,
    registry: Option<&trellis_spec::Registry>,
    path: &std::path::Path,
    weaveflow_version: &str,
) -> (FileReport, Exit) {
    let (source, doc) = match loaded {
        Ok(loaded) => loaded,
        Err(f) => return (f.report, f.exit),
    };
    // The line index built to place the findings, kept for the report's source lines.
    let mut lines = None;
    let diagnostics = match doc {
        Document::GraphSpec(parsed) => {
            let mut diagnostics = parsed.diagnostics;
            if let Some(spec) = &parsed.spec {
                diagnostics.extend(validate(spec, registry));
            }
            // The model is let go first: placing the findings needs only the text.
            drop(parsed.spec);
            lines = json::fill_spans_keeping(&source.text, &mut diagnostics);
            diagnostics
        }
        Document::Weaveflow(parsed) => {
            let mut diagnostics = parsed.diagnostics;
            if let Some(doc) = &parsed.doc {
                let options = trellis_formats::weaveflow::ValidateOptions {
                    expected_version: weaveflow_version.trim().to_owned(),
                };
                diagnostics.extend(trellis_formats::weaveflow::validate(
                    doc.definition(),
                    registry,
                    &options,
                ));
                let refs = trellis_formats::subgraph::weaveflow_refs(doc.definition());
                diagnostics.extend(subgraph_diagnostics(path, &refs, true));
                // A transfer file's findings about its definition are placed inside it.
                trellis_formats::weaveflow::fill_spans(doc, &source.text, &mut diagnostics);
            }
            lines = json::fill_spans_keeping(&source.text, &mut diagnostics);
            diagnostics
        }
        // GRAPH.md: its findings come with their spans.
        Document::GraphMd(read) => {
            let mut diagnostics = read.diagnostics;
            if let Some(doc) = &read.doc {
                diagnostics.extend(trellis_formats::graphmd::validate(doc));
                let refs = trellis_formats::subgraph::graphmd_refs(doc);
                diagnostics.extend(subgraph_diagnostics(path, &refs, false));
            }
            diagnostics
        }
    };
    let report = FileReport::new(source.display, Some(source.text), diagnostics).with_lines(lines);
    let exit = if report.has_errors() { Exit::Problems } else { Exit::Clean };
    (report, exit)
}

/// The app's subgraph reference checks (`trellis_doc::subgraphs`): references resolved
/// relative to the file's folder. Warnings only, so they never change the exit status: the
/// runtimes resolve references their own way (Weaveflow through a host-supplied resolver), so
/// a path Trellis cannot follow is worth knowing about in CI but is not proof of a broken
/// document. Standard input has no folder: nothing to resolve.
fn subgraph_diagnostics(
    path: &std::path::Path,
    refs: &[trellis_formats::subgraph::SubgraphRef],
    weaveflow: bool,
) -> Vec<trellis_spec::Diagnostic> {
    if refs.is_empty() || load::is_stdin(path) {
        return Vec::new();
    }
    let links = trellis_doc::subgraphs::resolve_refs(&trellis_doc::fs::RealFs, Some(path), refs, weaveflow);
    trellis_doc::subgraphs::diagnostics(&links)
}
