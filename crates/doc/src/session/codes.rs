//! Diagnostic codes of sessions (opening, reloading, outside changes).

pub use crate::document::codes::{READ_FAILED, UNSUPPORTED_FORMAT};
/// The file was deleted (or moved away) outside Trellis; the document stays open, dirty.
pub const FILE_DELETED: &str = "doc/file-deleted";
/// The file was moved outside Trellis; the document stays open, dirty.
pub const FILE_MOVED: &str = "doc/file-moved";
/// The document was reloaded because the file changed on disk (undoable).
pub const RELOADED: &str = "doc/reloaded";
/// The document was restored from the recovery journal.
pub const RESTORED: &str = "doc/restored";
/// The file is not in canonical form: its first save reformats it (info; the number of
/// lines in the message; `Edit::Reformat` makes that a step of its own).
pub const HAND_FORMATTED: &str = "doc/hand-formatted";
/// `reformat` was refused: the file is canonical already, or the document was edited.
pub const NOTHING_TO_REFORMAT: &str = "doc/nothing-to-reformat";
