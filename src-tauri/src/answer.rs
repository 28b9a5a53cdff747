//! What a command answers when it refuses, and how it reads the document id the UI sent.
//! Every command module uses these; they use nothing of the shell.

use serde::Serialize;
use trellis_doc::DocId;
use trellis_spec::Diagnostic;
use ts_rs::TS;

/// Codes of the shell's own refusals.
pub mod codes {
    /// The id the UI sent is not a document id.
    pub const BAD_ID: &str = "app/bad-document-id";
    /// An argument the UI sent is not one the command knows.
    pub const BAD_ARGUMENT: &str = "app/bad-argument";
    /// A document's view could not be written as JSON (plain data: not expected).
    pub const VIEW_FAILED: &str = "app/view-failed";
}

/// What a refused command answers: a sentence, and the diagnostics behind it.
#[derive(Debug, Clone, Serialize, TS)]
#[ts(export)]
pub struct CommandError {
    pub message: String,
    pub diagnostics: Vec<Diagnostic>,
}

impl From<Diagnostic> for CommandError {
    fn from(d: Diagnostic) -> Self {
        CommandError { message: d.message.clone(), diagnostics: vec![d] }
    }
}

impl From<Vec<Diagnostic>> for CommandError {
    fn from(ds: Vec<Diagnostic>) -> Self {
        let message = ds.iter().map(|d| d.message.as_str()).collect::<Vec<_>>().join("\n");
        CommandError { message, diagnostics: ds }
    }
}

pub type Answer<T> = Result<T, CommandError>;

/// Reads the id the UI sent (`"3"`, or `"doc-3"` as `DocId` prints).
pub fn parse_id(s: &str) -> Result<DocId, CommandError> {
    let digits = s.strip_prefix("doc-").unwrap_or(s);
    digits
        .parse::<u64>()
        .map(DocId)
        .map_err(|_| Diagnostic::error(codes::BAD_ID, format!("\"{s}\" is not a document id")).into())
}
