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
    let (mut regs, first) = registries_and_first_document(&args);
    let mut first = Some(first);
    let mut exit = regs.exit.unwrap_or(Exit::Clean);
    let mut reports = Vec::new();
    // In the human form, files that could not be read at all are reported on stderr.
    let mut unreadable = Vec::new();
    for (i, path) in args.files.iter().enumerate() {
        let more_follow = i + 1 < args.files.len();
        let loaded = first.take().unwrap_or_else(|| load::load(path));
        let (r, e) = check(loaded, regs.registry_for(path), path, &args.weaveflow_version, more_follow);
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

/// The registries, and the first document loaded. Neither needs the other: for a large
/// document, its text is mapped and checked (half a millisecond at 10,000 nodes, on one core)
/// while the registries are loaded on the other core (the built-in registry, discovery and the
/// project files: 0.8 ms, a tenth of validating 10,000 nodes). Not for a small one, where
/// starting a thread costs more than it saves, nor beside the parse, which has both cores
/// busy already (a third thread made it slower).
fn registries_and_first_document(args: &Args) -> (registries::Registries, Loaded) {
    let load_registries = || registries::load(&args.registries, !args.no_discover, &args.files);
    // `files` is required: there is a first one.
    let first = &args.files[0];
    let large = std::fs::metadata(first).is_ok_and(|m| m.is_file() && m.len() >= OVERLAP_FROM);
    if !large {
        return (load_registries(), load::load(first));
    }
    trellis_threads::beside("registries", load_registries, |registries| {
        let source = load::read_source(first);
        // No thread to be had: loaded here, after.
        let registries = registries.join().unwrap_or_else(load_registries);
        (registries, source.and_then(|source| load::parse_source(first, source)))
    })
}

/// From this size on, the first document's text is read beside the registries (1 MB: about
/// 2,000 generated nodes, and the size from which a text is mapped rather than read).
const OVERLAP_FROM: u64 = 1 << 20;

/// A file as [`load::load`] gives it.
type Loaded = Result<(load::Source, Document), load::Failure>;

/// The report of one file, loaded, and the exit it implies.
/// `weaveflow_version` is the Weaveflow `version` accepted (`--weaveflow-version`);
/// `more_follow`: more files are checked after this one (`load::done_with`).
pub fn check(
    loaded: Loaded,
    registry: Option<&trellis_spec::Registry>,
    path: &std::path::Path,
    weaveflow_version: &str,
    more_follow: bool,
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
            // The model is let go once validated (`load::done_with`): placing the findings needs
            // only the text, and where the reader found the nodes and edges.
            if let Some(spec) = parsed.spec {
                diagnostics.extend(validate(&spec, registry));
                load::done_with(spec, more_follow);
            }
            lines = json::fill_spans_placed(&source.text, &mut diagnostics, parsed.places.as_ref());
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
        // GRAPH.md: read and validated by the loader, spans already filled.
        Document::GraphMd(read) => {
            let mut diagnostics = read.diagnostics;
            if let Some(doc) = &read.doc {
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
