//! `trellis fmt [--check] [--drop-unknown] FILE...`
//!
//! Rewrites each file to the canonical text (`trellis_spec::writer::to_canonical_string`), and
//! only when that changes it. The new text goes to a temporary file in the same folder that
//! then replaces the original (so a crash never leaves half a file), with the original's
//! permissions; a symlink is followed and its target rewritten.
//!
//! Never written: a file that cannot be read as a document (the diagnostics are printed,
//! exit 1), and a file whose canonical form would drop unknown fields, unless
//! `--drop-unknown` says that is wanted (a formatter must not delete content silently).
//! `--check` writes nothing, lists the files that would change and exits 1 if there are any.
//! `-` reads standard input and prints the canonical text to standard output.

use std::path::{Path, PathBuf};

use trellis_spec::read::codes::UNKNOWN_FIELD;
use trellis_spec::writer::{is_canonical, to_canonical_string};
use trellis_spec::Diagnostic;

use crate::load::{self, write_atomically};
use crate::report::{self, codes, Exit, FileReport, OutputFormat};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Write nothing; list the files that are not in canonical form and exit 1 if any.
    #[arg(long)]
    pub check: bool,
    /// Rewrite even when the canonical form drops unknown fields (they are listed).
    #[arg(long)]
    pub drop_unknown: bool,
    /// The documents to format.
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
}

/// What happened to one file.
#[derive(Debug, PartialEq, Eq)]
enum Outcome {
    Unchanged,
    WouldChange,
    Written,
}

pub fn run(args: Args) -> Exit {
    let mut exit = Exit::Clean;
    for path in &args.files {
        match format_one(path, &args) {
            Ok(Outcome::Unchanged) => {}
            Ok(Outcome::WouldChange) => {
                let shown = if load::is_stdin(path) {
                    load::STDIN_NAME.to_owned()
                } else {
                    path.display().to_string()
                };
                report::write_stdout(&format!("would reformat {shown}\n"));
                exit = exit.max(Exit::Problems);
            }
            Ok(Outcome::Written) => report::write_stdout(&format!("formatted {}\n", path.display())),
            Err((r, e)) => {
                report::print(&[r], OutputFormat::Human, true);
                exit = exit.max(e);
            }
        }
    }
    exit
}

fn format_one(path: &Path, args: &Args) -> Result<Outcome, (FileReport, Exit)> {
    let (source, doc) = load::load(path).map_err(|f| (f.report, f.exit))?;
    if let load::Document::GraphMd(read) = doc {
        return format_graphmd(path, args, &source, read);
    }
    if let load::Document::Weaveflow(parsed) = doc {
        return format_weaveflow(path, args, &source, parsed);
    }
    // Loaded once: standard input cannot be read twice.
    let (source, parsed) = load::into_graphspec(source, doc).map_err(|f| (f.report, f.exit))?;
    let (spec, diagnostics) = load::require_spec(&source, parsed).map_err(|f| (f.report, f.exit))?;
    if args.check {
        // The answer only: no second copy of the file is written out to compare.
        let canonical = is_canonical(&spec, &source.text);
        return Ok(if canonical { Outcome::Unchanged } else { Outcome::WouldChange });
    }
    let canonical = to_canonical_string(&spec);
    drop(spec);
    let dropped: Vec<Diagnostic> = diagnostics.into_iter().filter(|d| d.code == UNKNOWN_FIELD).collect();
    emit(path, args, &source, &canonical, dropped, codes::WOULD_DROP_FIELDS, "the unknown fields above")
}

/// The end of every format's `fmt`: nothing to do when the text is already canonical; with
/// `--check`, say whether it would change; refuse to drop what `dropped` lists unless
/// `--drop-unknown`; standard input goes to standard output; a file is replaced atomically.
fn emit(
    path: &Path,
    args: &Args,
    source: &load::Source,
    formatted: &str,
    dropped: Vec<Diagnostic>,
    refusal_code: &str,
    what_is_dropped: &str,
) -> Result<Outcome, (FileReport, Exit)> {
    let stdin = load::is_stdin(path);
    if formatted == source.text.as_str() && !stdin {
        return Ok(Outcome::Unchanged);
    }
    if args.check {
        return Ok(if formatted == source.text.as_str() { Outcome::Unchanged } else { Outcome::WouldChange });
    }
    if !dropped.is_empty() {
        let mut r = FileReport::new(source.display.clone(), Some(source.text.clone()), dropped);
        if !args.drop_unknown {
            r.diagnostics.push(Diagnostic::error(
                refusal_code,
                format!("not rewritten: the canonical form would drop {what_is_dropped} (pass --drop-unknown to drop them)"),
            ));
            return Err((r, Exit::Problems));
        }
        report::print(&[r], OutputFormat::Human, true);
    }
    if stdin {
        // A filter: the formatted text goes to stdout.
        report::write_stdout(formatted);
        return Ok(Outcome::Unchanged);
    }
    write_atomically(path, formatted).map_err(|message| {
        let d = Diagnostic::error(codes::WRITE_FAILED, message);
        (FileReport::new(source.display.clone(), None, vec![d]), Exit::Usage)
    })?;
    Ok(Outcome::Written)
}

/// GRAPH.md (graphmd helper): the canonical front matter, the body untouched. YAML comments
/// are not kept by the canonical writer, so a file with comments is treated like one with
/// unknown fields: rewritten only with `--drop-unknown`.
fn format_graphmd(
    path: &Path,
    args: &Args,
    source: &load::Source,
    read: trellis_formats::graphmd::ReadResult,
) -> Result<Outcome, (FileReport, Exit)> {
    use trellis_formats::graphmd;
    let Some(doc) = read.doc else {
        return Err((
            FileReport::new(source.display.clone(), Some(source.text.clone()), read.diagnostics),
            Exit::Problems,
        ));
    };
    let canonical = graphmd::to_canonical_string(&doc);
    let dropped: Vec<Diagnostic> =
        read.diagnostics.into_iter().filter(|d| d.code == graphmd::codes::COMMENTS_NOT_KEPT).collect();
    emit(path, args, source, &canonical, dropped, codes::WRITE_FAILED, "the YAML comments above")
}

/// Weaveflow (weaveflow helper): the writer's form (2-space indent, final newline) with the
/// file's own key order, number text and values kept, so only whitespace changes. Nothing is
/// dropped (unknown fields are kept verbatim), but a file that does not read (syntax, several
/// JSON values) or has reading errors is not rewritten: those must be fixed by hand first.
fn format_weaveflow(
    path: &Path,
    args: &Args,
    source: &load::Source,
    parsed: trellis_formats::weaveflow::Parsed,
) -> Result<Outcome, (FileReport, Exit)> {
    let doc = match parsed.doc {
        Some(doc) if !trellis_spec::diagnostic::has_errors(&parsed.diagnostics) => doc,
        _ => {
            return Err((
                FileReport::new(source.display.clone(), Some(source.text.clone()), parsed.diagnostics),
                Exit::Problems,
            ))
        }
    };
    let formatted = trellis_formats::weaveflow::to_string(&doc);
    emit(path, args, source, &formatted, Vec::new(), codes::WRITE_FAILED, "nothing")
}
