//! Reading a file and deciding what it is: [`detect`] by the file's name and text, then
//! trellis-formats' any-format [`Document`] reads it (format dispatch lives there, shared with
//! `trellis diff` and `trellis merge`). Every command loads through here;
//! the commands that work on GraphSpec only use [`load_graphspec`], which names what it got.
//!
//! I/O failures (missing file, a directory, no permission) exit 2; a file that is there but
//! is not valid text or not a document exits 1, with a diagnostic.

use std::io::Read;
use std::path::Path;

use trellis_spec::read::Parsed;
use trellis_spec::{json, Diagnostic, GraphSpec};

use crate::report::{codes, Exit, FileReport};
use crate::source_text::SourceText;

/// The formats the command line reads, as `trellis_formats::detect` tells them apart.
pub use trellis_formats::detect::Format;

/// A file's text, read and decoded.
#[derive(Debug, Clone)]
pub struct Source {
    /// The path as the user wrote it (what diagnostics print).
    pub display: String,
    pub text: SourceText,
}

/// Why a file could not be loaded: the report to print and the exit it implies.
#[derive(Debug)]
pub struct Failure {
    pub report: FileReport,
    pub exit: Exit,
}

/// A loaded document, by format: trellis-formats' any-format document (detect, read,
/// validate, write, convert in one place, shared with the diff and merge engine).
pub use trellis_formats::any::AnyDocument as Document;

/// Reads `path` as UTF-8 text.
/// `-` reads standard input (shown as `<stdin>`).
pub fn read_source(path: &Path) -> Result<Source, Failure> {
    let display = if is_stdin(path) { STDIN_NAME.to_owned() } else { path.display().to_string() };
    let io_failure = |message: String| Failure {
        report: FileReport::new(display.clone(), None, vec![Diagnostic::error(codes::READ_FAILED, message)]),
        exit: Exit::Usage,
    };
    if path.is_dir() {
        return Err(io_failure("cannot read: it is a directory".to_owned()));
    }
    let read = if is_stdin(path) {
        let mut bytes = Vec::new();
        std::io::stdin()
            .lock()
            .read_to_end(&mut bytes)
            .map(|_| String::from_utf8(bytes).map(SourceText::from).map_err(|e| e.into_bytes()))
    } else {
        SourceText::read_file(path)
    };
    let read = read.map_err(|e| io_failure(format!("cannot read: {}", io_reason(&e))))?;
    match read {
        Ok(text) => Ok(Source { display, text }),
        Err(bytes) => {
            let d = match json::decode_utf8(&bytes) {
                Err(d) => d,
                Ok(_) => Diagnostic::error(json::codes::INVALID_UTF8, "the file is not valid UTF-8"),
            };
            // The source line is still worth showing, with the bad bytes replaced.
            let text = String::from_utf8_lossy(&bytes).into_owned();
            Err(Failure {
                report: FileReport::new(display, Some(text.into()), vec![d]),
                exit: Exit::Problems,
            })
        }
    }
}

/// How standard input is named in messages.
pub const STDIN_NAME: &str = "<stdin>";

/// True for the path `-`, which stands for standard input.
pub fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// The OS error without Rust's " (os error 2)" suffix.
pub fn io_reason(e: &std::io::Error) -> String {
    let s = e.to_string();
    match s.find(" (os error") {
        Some(i) => s[..i].to_owned(),
        None => s,
    }
}

/// Reads and parses `path` in whatever format it is in.
pub fn load(path: &Path) -> Result<(Source, Document), Failure> {
    let source = read_source(path)?;
    parse_source(path, source)
}

/// Parses `source`, the text of `path` ([`read_source`]), in whatever format it is in.
pub fn parse_source(path: &Path, source: Source) -> Result<(Source, Document), Failure> {
    let doc = Document::read_shared(file_name(path).as_deref(), &source.text).map_err(|d| Failure {
        // A GRAPH.md that is no workflow contract is not a document to check: a usage error.
        exit: if d.code == trellis_formats::detect::codes::NOT_A_CONTRACT {
            Exit::Usage
        } else {
            Exit::Problems
        },
        report: FileReport::new(source.display.clone(), Some(source.text.clone()), vec![d]),
    })?;
    Ok((source, doc))
}

/// The name of the file at `path`, which detection goes by. Standard input has none, so
/// GRAPH.md is recognised there by its front matter only.
pub fn file_name(path: &Path) -> Option<std::borrow::Cow<'_, str>> {
    if is_stdin(path) {
        None
    } else {
        path.file_name().map(|n| n.to_string_lossy())
    }
}

/// Reads `path` as a GraphSpec, for the commands that work on GraphSpec only. A file in
/// another format is refused with a diagnostic naming the format.
pub fn load_graphspec(path: &Path) -> Result<(Source, Parsed), Failure> {
    let (source, doc) = load(path)?;
    into_graphspec(source, doc)
}

/// The GraphSpec of a loaded document, or a failure naming the format it is in.
pub fn into_graphspec(source: Source, doc: Document) -> Result<(Source, Parsed), Failure> {
    match doc {
        Document::GraphSpec(parsed) => Ok((source, parsed)),
        Document::Weaveflow(_) => Err(Failure {
            report: FileReport::new(
                source.display.clone(),
                None,
                vec![Diagnostic::error(
                    codes::WRONG_FORMAT,
                    "this is a Weaveflow Graph Definition; this command works on GraphSpec files (convert it with `trellis convert --to graphspec`)",
                )],
            ),
            exit: Exit::Problems,
        }),
        Document::GraphMd(_) => Err(Failure {
            report: FileReport::new(
                source.display.clone(),
                None,
                vec![Diagnostic::error(
                    codes::WRONG_FORMAT,
                    "this is a GRAPH.md document; this command works on GraphSpec files (convert it with `trellis convert --to graphspec`)",
                )],
            ),
            exit: Exit::Problems,
        }),
    }
}

/// The document of `parsed`, or the failure to print when it could not be read.
pub fn require_spec(source: &Source, parsed: Parsed) -> Result<(GraphSpec, Vec<Diagnostic>), Failure> {
    match parsed.spec {
        Some(spec) => Ok((spec, parsed.diagnostics)),
        None => Err(Failure {
            report: FileReport::new(source.display.clone(), Some(source.text.clone()), parsed.diagnostics),
            exit: Exit::Problems,
        }),
    }
}

/// Writes `text` to `path` the way a save does (trellis-doc's atomic write: a temporary file in
/// the same folder, the original's permissions, fsync, rename over the real target of a
/// symlink, fsync the folder), so a crash leaves the old file or the new one, never a mix.
pub fn write_atomically(path: &Path, text: &str) -> Result<(), String> {
    match trellis_doc::fs::atomic_write(&trellis_doc::fs::RealFs, path, text.as_bytes(), 0o644) {
        Ok(_) => Ok(()),
        // The rename happened; only the folder's fsync failed. The new text is in place.
        Err(e) if e.written => Ok(()),
        Err(e) => Err(format!("cannot write: {} ({})", io_reason(&e.error), e.step.describe())),
    }
}
