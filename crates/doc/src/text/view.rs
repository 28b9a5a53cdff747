//! What the text pane is told: the text when it opens, what changed after each change, where
//! the text stops reading, and the pane's codes and limits.

use serde::Serialize;
use trellis_spec::Diagnostic;
use ts_rs::TS;

use super::places::TextRange;
use crate::list_edit::ListEdit;
use crate::text_changes::TextUpdate;

/// Diagnostic codes of the text pane.
pub mod codes {
    /// The text in the pane does not read as the document's format: the canvas shows the last
    /// text that read; saving and canvas edits wait until it reads (or the typing is undone).
    pub const UNREADABLE: &str = "text/unreadable";
    /// The pane sent a change that does not fit the text (a place outside it): nothing changed.
    pub const BAD_CHANGE: &str = "text/bad-change";
}

/// The client id of the changes Trellis makes to the text (the canvas, undo, a reload).
pub const TRELLIS: &str = "trellis";

/// From this length on (bytes) the pane shows the text read-only: typing into a text of tens
/// of megabytes re-reads all of it after every pause.
pub const EDITABLE_UP_TO: usize = 32 << 20;

/// A place where the reader stopped: the problem and its range in the pane's text (UTF-16).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[ts(export)]
pub struct TextProblem {
    pub diagnostic: Diagnostic,
    pub from: u32,
    pub to: u32,
}

/// What the pane is told after a change: the updates from version `from` on (it applies them
/// when it is at `from`, and asks for the updates since its own version otherwise), and the
/// pane's state after them.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct TextDelta {
    #[ts(type = "number")]
    pub from: u64,
    /// The version after them (the text's version now).
    #[ts(type = "number")]
    pub to: u64,
    pub updates: Vec<TextUpdate>,
    /// The whole text, when the updates since the pane's version are no longer kept.
    pub reset: Option<String>,
    /// Why the text does not read, while it does not (the canvas is behind it).
    pub error: Option<TextProblem>,
    /// Where each of the view's problems is in the text (by its index in
    /// `DocumentView.diagnostics`; none: not in the text), all of them: after a reset or a pull.
    pub marks: Option<Vec<Option<TextRange>>>,
    /// How those places changed, one for one with the change of the view's problems
    /// (`ViewDelta.diagnostics`); the places the pane holds move along with the text otherwise.
    pub mark_edit: Option<ListEdit<Option<TextRange>>>,
    /// Something to say once (the save reformatted the text).
    pub notice: Option<String>,
}

/// The pane's text when it opens.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct TextView {
    #[ts(type = "number")]
    pub version: u64,
    pub text: String,
    pub error: Option<TextProblem>,
    /// Where each of the view's problems is in the text (see `TextDelta.marks`).
    pub marks: Vec<Option<TextRange>>,
    /// Why the pane cannot edit this text (shown read-only), if it cannot.
    pub read_only: Option<String>,
}
