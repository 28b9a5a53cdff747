//! Printing diagnostics, shared by every command.
//!
//! Human form, one block per diagnostic:
//!
//! ```text
//! graph.json:12:15: error spec/unknown-type: node "a" has type "llm", which is not in the registry. Known types: ["noop"]
//!    12 |       "type": "llm",
//!       |               ^
//! ```
//!
//! A diagnostic with no place in the text prints `file: severity code: message (at /pointer)`.
//! `--format json` prints exactly one document:
//! `{"files":[{"path","diagnostics":[{"code","severity","message","pointer","line","column","element"}]}]}`
//! (`line`, `column` and `element` are `null` when unknown).

use std::io::{self, Write};
use std::process::ExitCode;

use serde::Serialize;
use trellis_spec::line_index::LineTable;
use trellis_spec::{Diagnostic, Element, LineIndex, Severity, Span};

use crate::source_text::SourceText;

/// How a command ended. Ordered: a run over several files ends with the worst.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Exit {
    /// Nothing wrong.
    Clean,
    /// The input has errors (or, with `--check`, would change).
    Problems,
    /// A usage or I/O error.
    Usage,
}

impl Exit {
    /// The process's exit status.
    pub fn code(self) -> u8 {
        match self {
            Exit::Clean => 0,
            Exit::Problems => 1,
            Exit::Usage => 2,
        }
    }
}

impl From<Exit> for ExitCode {
    fn from(e: Exit) -> ExitCode {
        ExitCode::from(e.code())
    }
}

/// `--format`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum OutputFormat {
    /// `file:line:col: severity code: message`, the source line and a caret.
    #[default]
    Human,
    /// One JSON document.
    Json,
}

/// The diagnostics of one file, with its text when there is one (for source lines).
#[derive(Debug, Clone)]
pub struct FileReport {
    pub path: String,
    pub text: Option<SourceText>,
    pub diagnostics: Vec<Diagnostic>,
    /// The line index of `text` when the check already built one (placing the diagnostics),
    /// taken by the human report instead of indexing the text again.
    lines: std::cell::RefCell<Option<LineTable>>,
}

impl FileReport {
    pub fn new(path: impl Into<String>, text: Option<SourceText>, diagnostics: Vec<Diagnostic>) -> Self {
        FileReport { path: path.into(), text, diagnostics, lines: Default::default() }
    }

    /// The report, with the line index of its text (see [`trellis_spec::json::fill_spans_keeping`]).
    pub fn with_lines(self, lines: Option<LineTable>) -> Self {
        FileReport { lines: std::cell::RefCell::new(lines), ..self }
    }

    pub fn has_errors(&self) -> bool {
        trellis_spec::diagnostic::has_errors(&self.diagnostics)
    }
}

/// Codes the command line itself emits.
pub mod codes {
    /// A file could not be read (missing, a directory, no permission).
    pub const READ_FAILED: &str = "cli/read-failed";
    /// A file could not be written (`fmt`).
    pub const WRITE_FAILED: &str = "cli/write-failed";
    /// A command got a document in a format it does not work on (`fmt`/`mermaid` on ...).
    pub const WRONG_FORMAT: &str = "cli/wrong-format";
    /// `fmt` left a file alone because its canonical form would drop unknown fields.
    pub const WOULD_DROP_FIELDS: &str = "cli/would-drop-fields";
}

/// Prints `reports` in `format` to stdout (`to_stderr` = false) or stderr.
pub fn print(reports: &[FileReport], format: OutputFormat, to_stderr: bool) {
    let text = match format {
        OutputFormat::Human => human(reports),
        OutputFormat::Json => {
            let mut s = json(reports);
            s.push('\n');
            s
        }
    };
    if to_stderr {
        write_stderr(&text);
    } else {
        write_stdout(&text);
    }
}

/// Writes to stdout, ignoring a closed pipe (`trellis mermaid f | head -1`).
pub fn write_stdout(text: &str) {
    let mut out = io::stdout().lock();
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
}

pub fn write_stderr(text: &str) {
    let mut err = io::stderr().lock();
    let _ = err.write_all(text.as_bytes());
    let _ = err.flush();
}

/// A one-line message on stderr, prefixed `trellis: `.
pub fn note(message: &str) {
    write_stderr(&format!("trellis: {message}\n"));
}

/// The human form of all reports.
///
/// Each file's text is indexed once ([`LineIndex`]), so printing N findings costs the text once
/// plus a few hundred bytes per finding, however many findings there are and however long the
/// lines are (a minified file is one line). The index knows the findings' own places only
/// ([`LineIndex::at_offsets`]): a list of every line start of a 10,000-node document is a
/// megabyte of fresh memory and two more passes, for the few hundred lines shown.
pub fn human(reports: &[FileReport]) -> String {
    let mut out = String::new();
    for r in reports {
        let index = match &r.text {
            Some(text) if r.diagnostics.iter().any(|d| d.span.is_some()) => {
                let kept = r.lines.borrow_mut().take().and_then(|t| LineIndex::from_table(text, t));
                Some(kept.unwrap_or_else(|| {
                    LineIndex::at_offsets(
                        text,
                        r.diagnostics.iter().filter_map(|d| Some(d.span?.offset as usize)),
                    )
                }))
            }
            _ => None,
        };
        for d in &r.diagnostics {
            human_one(&mut out, &r.path, index.as_ref(), d);
        }
    }
    out
}

fn human_one(out: &mut String, path: &str, index: Option<&LineIndex<'_>>, d: &Diagnostic) {
    use std::fmt::Write as _;
    let head = format_args!("{} {}: {}", d.severity.as_str(), d.code, d.message);
    // Writing into a String cannot fail.
    match d.span {
        Some(span) => {
            let _ = writeln!(out, "{path}:{}:{}: {head}", span.line, span.column);
            if let Some((line, caret)) = index.and_then(|i| source_line(i, span)) {
                let (shown, caret_at) = window(line, caret);
                let gutter = span.line.to_string();
                let pad = " ".repeat(gutter.len());
                let _ = writeln!(out, " {gutter} | {shown}");
                let _ = writeln!(out, " {pad} | {}^", caret_padding(&shown, caret_at));
            }
        }
        None if d.pointer.is_empty() => {
            let _ = writeln!(out, "{path}: {head}");
        }
        None => {
            let _ = writeln!(out, "{path}: {head} (at {})", d.pointer);
        }
    }
    for fix in &d.fixes {
        out.push_str(&format!("  = hint: {}\n", crate::hints::hint(path, d, fix)));
    }
}

/// The source line of `span` (without its line break) and the byte index of the caret in it.
/// The span's byte offset places the caret when it lies on the span's line at the span's
/// column (always, for spans computed from the text); otherwise the column is counted.
fn source_line<'a>(index: &LineIndex<'a>, span: Span) -> Option<(&'a str, usize)> {
    let line = index.line(span.line as usize)?;
    let start = index.line_start(span.line as usize)?;
    let offset = span.offset as usize;
    if (start..=start + line.len()).contains(&offset)
        && index.span(offset, offset) == (Span { length: 0, ..span })
    {
        return Some((line, offset - start));
    }
    let column = (span.column as usize).saturating_sub(1);
    Some((line, line.char_indices().nth(column).map_or(line.len(), |(i, _)| i)))
}

/// Characters shown on each side of the column in a long line (a minified file is one line).
const CONTEXT: usize = 60;

/// The part of `line` to show and the 0-based character index of the caret in it, for a caret
/// at byte `caret` (a character boundary). Only the characters around the caret are visited.
fn window(line: &str, caret: usize) -> (String, usize) {
    if line.chars().nth(2 * CONTEXT).is_none() {
        return (line.to_owned(), line[..caret].chars().count());
    }
    let start = line[..caret].char_indices().rev().take(CONTEXT).last().map_or(caret, |(i, _)| i);
    let end = line[caret..].char_indices().nth(CONTEXT).map_or(line.len(), |(i, _)| caret + i);
    let mut shown = String::new();
    let mut caret_at = line[start..caret].chars().count();
    if start > 0 {
        shown.push('…');
        caret_at += 1;
    }
    shown.push_str(&line[start..end]);
    if end < line.len() {
        shown.push('…');
    }
    (shown, caret_at)
}

/// Spaces up to the caret, keeping tabs so the caret lines up under tab-indented text.
fn caret_padding(shown: &str, caret_at: usize) -> String {
    shown.chars().take(caret_at).map(|c| if c == '\t' { '\t' } else { ' ' }).collect()
}

#[derive(Serialize)]
struct JsonDoc<'a> {
    files: Vec<JsonFile<'a>>,
}

#[derive(Serialize)]
struct JsonFile<'a> {
    path: &'a str,
    diagnostics: Vec<JsonDiagnostic<'a>>,
}

#[derive(Serialize)]
struct JsonDiagnostic<'a> {
    code: &'a str,
    severity: Severity,
    message: &'a str,
    pointer: &'a str,
    line: Option<u32>,
    column: Option<u32>,
    element: Option<&'a Element>,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    fixes: &'a [trellis_spec::Fix],
}

/// The JSON form of all reports (one document, no trailing newline).
pub fn json(reports: &[FileReport]) -> String {
    let doc = JsonDoc {
        files: reports
            .iter()
            .map(|r| JsonFile {
                path: &r.path,
                diagnostics: r
                    .diagnostics
                    .iter()
                    .map(|d| JsonDiagnostic {
                        code: &d.code,
                        severity: d.severity,
                        message: &d.message,
                        pointer: &d.pointer,
                        line: d.span.map(|s| s.line),
                        column: d.span.map(|s| s.column),
                        element: d.element.as_ref(),
                        fixes: &d.fixes,
                    })
                    .collect(),
            })
            .collect(),
    };
    serde_json::to_string_pretty(&doc).unwrap_or_default()
}

/// "2 errors, 1 warning" over all reports (infos are not counted).
pub fn summary(reports: &[FileReport]) -> String {
    let count = |s: Severity| reports.iter().flat_map(|r| &r.diagnostics).filter(|d| d.severity == s).count();
    let plural = |n: usize, word: &str| if n == 1 { format!("1 {word}") } else { format!("{n} {word}s") };
    let files = reports.len();
    format!(
        "{} in {}",
        [plural(count(Severity::Error), "error"), plural(count(Severity::Warning), "warning")].join(", "),
        plural(files, "file")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    fn at(line: u32, column: u32) -> Span {
        Span { line, column, offset: 0, length: 0 }
    }

    #[test]
    fn human_form_has_the_place_the_line_and_a_caret() {
        let text = "{\n\t\"nodes\": 5\n}\n";
        let d = Diagnostic::error("spec/invalid-field", "nodes must be a list").with_span(at(2, 11));
        let r = FileReport::new("g.json", Some(text.to_owned().into()), vec![d]);
        assert_eq!(
            human(&[r]),
            "g.json:2:11: error spec/invalid-field: nodes must be a list\n 2 | \t\"nodes\": 5\n   | \t         ^\n"
        );
    }

    #[test]
    fn diagnostics_without_a_span_name_the_pointer() {
        let d = Diagnostic::warning("spec/x", "m").at("/nodes/0");
        let r = FileReport::new("g.json", None, vec![d, Diagnostic::error("spec/y", "n")]);
        assert_eq!(human(&[r]), "g.json: warning spec/x: m (at /nodes/0)\ng.json: error spec/y: n\n");
    }

    #[test]
    fn long_lines_are_cut_around_the_column() {
        let line: String = std::iter::repeat_n('a', 500).collect();
        let (shown, caret) = window(&line, 299);
        assert_eq!(shown.chars().count(), 2 * CONTEXT + 2);
        assert!(shown.starts_with('…') && shown.ends_with('…'));
        assert_eq!(caret, CONTEXT + 1);
        let (shown, caret) = window("short", 5);
        assert_eq!((shown.as_str(), caret), ("short", 5));
    }

    #[test]
    fn carets_on_a_minified_line_come_from_the_offset() {
        let text = format!("{{\"a\":\"{}\",\"\u{e9}\":5}}", "\u{e7}".repeat(300));
        let at = text.find('5').unwrap_or(0);
        let span = LineIndex::new(&text).span(at, at + 1);
        assert_eq!(span.column, 313);
        let d = Diagnostic::error("spec/x", "m").with_span(span);
        let out = human(&[FileReport::new("g.json", Some(text.clone().into()), vec![d])]);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[0], "g.json:1:313: error spec/x: m");
        // The caret line is the gutter, then spaces up to the caret.
        let caret = lines[2].chars().count() - 1;
        assert_eq!(lines[1].chars().nth(caret), Some('5'), "{out}");
        assert!(lines[1].starts_with(" 1 | …"));
    }

    #[test]
    fn json_form_has_every_field_and_nulls() {
        let d = Diagnostic::error("spec/x", "m").at("/nodes/0").on_node("a").with_span(at(3, 4));
        let r = FileReport::new("g.json", None, vec![d, Diagnostic::warning("spec/y", "n")]);
        let v: serde_json::Value = serde_json::from_str(&json(&[r])).unwrap();
        assert_eq!(
            v,
            serde_json::json!({"files": [{"path": "g.json", "diagnostics": [
                {"code": "spec/x", "severity": "error", "message": "m", "pointer": "/nodes/0", "line": 3, "column": 4,
                 "element": {"kind": "node", "id": "a"}},
                {"code": "spec/y", "severity": "warning", "message": "n", "pointer": "", "line": null, "column": null,
                 "element": null}
            ]}]})
        );
    }

    #[test]
    fn exits_order_worst_last() {
        assert!(Exit::Clean < Exit::Problems && Exit::Problems < Exit::Usage);
        assert_eq!([Exit::Problems, Exit::Usage, Exit::Clean].into_iter().max(), Some(Exit::Usage));
    }
}
