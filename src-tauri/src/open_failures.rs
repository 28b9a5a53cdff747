//! Files that could not be opened, told to the user in the app, plainly: the file name, the
//! reason in the editor's words, and the line and column.
//!
//! A failure while the window exists goes out as the `open-failed` event; one from before the
//! window (the command line at start) waits here until the UI asks with `open_failures`, so
//! nothing is lost to stderr only.

use std::path::Path;
use std::sync::Mutex;

use serde::Serialize;
use tauri::{AppHandle, Emitter, Manager};
use trellis_spec::{Diagnostic, Severity};
use ts_rs::TS;

use crate::wording;

/// The event that carries one [`OpenFailure`].
pub const OPEN_FAILED: &str = "open-failed";

/// A file that did not open, and why.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct OpenFailure {
    /// The file name alone (`package.json`).
    pub file_name: String,
    /// The whole path, for the tooltip.
    pub path: String,
    /// Why, in the editor's words (the first error; the others are in `diagnostics`).
    pub reason: String,
    /// The diagnostic code of the reason (`json/syntax`, `detect/unknown-format`, ...).
    pub code: String,
    /// Where in the file, 1-based, when the reason has a place.
    pub line: Option<u32>,
    pub column: Option<u32>,
    /// Every reason, as the reader gave them (editor wording applied).
    pub diagnostics: Vec<Diagnostic>,
}

impl OpenFailure {
    pub fn new(path: &Path, diagnostics: &[Diagnostic]) -> OpenFailure {
        let diagnostics: Vec<Diagnostic> = diagnostics.iter().cloned().map(wording::for_editor).collect();
        let first =
            diagnostics.iter().find(|d| d.severity == Severity::Error).or_else(|| diagnostics.first());
        OpenFailure {
            file_name: path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| path.display().to_string()),
            path: path.display().to_string(),
            reason: first.map(|d| d.message.clone()).unwrap_or_else(|| "the file could not be read".into()),
            code: first.map(|d| d.code.clone()).unwrap_or_default(),
            line: first.and_then(|d| d.span).map(|s| s.line),
            column: first.and_then(|d| d.span).map(|s| s.column),
            diagnostics,
        }
    }

    /// `package.json:3:14: reason` (the place only when there is one).
    pub fn sentence(&self) -> String {
        match (self.line, self.column) {
            (Some(l), Some(c)) => format!("{}:{l}:{c}: {}", self.file_name, self.reason),
            _ => format!("{}: {}", self.file_name, self.reason),
        }
    }
}

/// Failures reported before the UI listened. The page starts listening for `open-failed` and
/// then asks for these (`open_failures`); from that call on, failures are sent as events. The
/// window being there is not enough: files named on the command line open while the page is
/// still loading, and an event sent then would be lost.
#[derive(Debug, Default)]
pub struct PendingFailures(Mutex<Pending>);

#[derive(Debug, Default)]
struct Pending {
    listening: bool,
    waiting: Vec<OpenFailure>,
}

impl PendingFailures {
    /// Everything waiting, oldest first; later failures go to the page as events.
    pub fn take(&self) -> Vec<OpenFailure> {
        let mut p = self.0.lock().unwrap_or_else(|e| e.into_inner());
        p.listening = true;
        std::mem::take(&mut p.waiting)
    }

    /// Keeps `failure` when the page does not listen yet; gives it back when it does.
    fn keep(&self, failure: OpenFailure) -> Option<OpenFailure> {
        let mut p = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if p.listening {
            return Some(failure);
        }
        p.waiting.push(failure);
        None
    }
}

/// Tells the user `path` did not open: an event when the page listens, otherwise kept for the
/// page's first `open_failures`. Also printed, for whoever started the app from a terminal.
pub fn report(app: &AppHandle, path: &Path, diagnostics: &[Diagnostic]) {
    let failure = OpenFailure::new(path, diagnostics);
    crate::logging::open_failed(path, diagnostics);
    eprintln!("trellis: cannot open {}: {}", path.display(), failure.sentence());
    let unkept = match app.try_state::<PendingFailures>() {
        Some(pending) => pending.keep(failure),
        None => Some(failure),
    };
    if let Some(failure) = unkept {
        let _ = app.emit(OPEN_FAILED, &failure);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use trellis_spec::Span;

    #[test]
    fn a_failure_names_the_file_the_reason_and_the_place() {
        let text = "{\n  \"nodes\": [,]\n}";
        let d =
            Diagnostic::error("json/syntax", "expected value").with_span(Span::from_line_column(text, 2, 13));
        let f = OpenFailure::new(Path::new("/tmp/flows/broken.json"), &[d]);
        assert_eq!(f.file_name, "broken.json");
        assert_eq!((f.line, f.column), (Some(2), Some(13)));
        assert_eq!(f.sentence(), "broken.json:2:13: expected value");
        assert_eq!(f.code, "json/syntax");
    }

    #[test]
    fn the_first_error_is_the_reason_even_after_a_warning() {
        let w = Diagnostic::warning("x/warn", "a warning");
        let e = Diagnostic::error("x/err", "the error");
        let f = OpenFailure::new(Path::new("a.json"), &[w, e]);
        assert_eq!(f.reason, "the error");
        assert_eq!(f.sentence(), "a.json: the error");
    }
}
