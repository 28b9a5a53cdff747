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
mod reading;
mod spec_prims;
mod typed;
mod view;

pub(crate) use follow::{
    changes_document, check_edit, check_save, delta_for, follow, replayed, saved, text_of,
};
pub use places::TextRange;
pub use typed::TextEdit;
pub use view::{codes, TextDelta, TextProblem, TextView, EDITABLE_UP_TO, TRELLIS};

pub use crate::text_changes::{TextChange, TextUpdate};
