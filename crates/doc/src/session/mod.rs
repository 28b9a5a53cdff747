//! A document session: one open document with its file fingerprint, layout, registries,
//! undo/redo history and dirty flag. Edits come in as [`Edit`]s and answer an [`EditOutcome`].
//!
//! The session does no I/O of its own: opening and saving go through a [`FileSystem`]
//! ([`Session::open`], `crate::save`), so all of it is testable on the fake file system.
//!
//! One concern a file: what a session holds (`state`), how one is made from a file or a text
//! (`open`), what it tells (`info`), its diagnostics (`checks`), edits, undo and redo
//! (`editing`), its file on disk (`on_disk`: reloads, saves, conflicts, restored work), and the
//! form of the text it was read from (`form`).

mod checks;
pub mod codes;
mod editing;
mod form;
mod info;
mod on_disk;
mod open;
mod state;

pub use crate::document::{DocFormat, DocId, Document};
pub use crate::fingerprint::Fingerprint;
pub use crate::registries::Registries;
pub use info::SessionInfo;
pub use state::{Conflict, Session};
