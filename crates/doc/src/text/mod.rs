//! The document's text beside the canvas (the text pane): a second view of the one document.
//!
//! The pane shows exactly the bytes a save writes (a GraphSpec's canonical text, a Weaveflow or
//! GRAPH.md document's own text with only what changed rewritten), and both views edit the one
//! document with the one history:
//!
//! - **The canvas changes the text** ([`follow`]): after an edit, an undo or a reload the text is
//!   written again and compared with the text the pane holds; the pane is sent only the changed
//!   characters (`crate::text_changes::diff`), so the rest of it (scroll, cursor, folds) stays.
//! - **The text changes the canvas** ([`typed`]): the pane's changes are applied to the text, the
//!   text is read by the format's one reader, and the document takes what it reads as small
//!   reversible changes (the canvas gets list edits, not a redraw), one undo step with the text
//!   change in it. A text that does not read changes nothing but the text: the canvas keeps the
//!   last reading and is marked behind, canvas edits and saving are refused with the reader's
//!   line and column, and the text is kept (journal included) until it reads or is undone.
//! - The pane and Rust follow `@codemirror/collab`'s protocol: a version counts the changes of
//!   the text ([`TextUpdate`]); the pane sends its changes made on a version, and gets every
//!   change since the version it knows ([`TextDelta`]), its own ones echoed.
//!
//! Offsets that cross to the pane are UTF-16 code units, the editor's (converted in
//! `crate::text_changes::offsets`); everything inside is bytes.

mod follow;
mod places;
mod spec_prims;
mod typed;

use serde::Serialize;
use trellis_spec::Diagnostic;

use crate::list_edit::ListEdit;
use ts_rs::TS;

pub(crate) use follow::{
    changes_document, check_edit, check_save, delta_for, follow, replayed, saved, text_of,
};
pub use places::TextRange;
pub use typed::TextEdit;

pub use crate::text_changes::{TextChange, TextUpdate};

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
