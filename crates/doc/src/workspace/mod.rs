//! The set of open documents: what the Tauri commands call. Documents are referred to by
//! [`DocId`]; paths enter only through [`Workspace::open`], [`Workspace::save_as`] and the
//! recent list, which the shell feeds from native dialogs and the command line.
//!
//! The workspace also owns the recent-files list and the recovery journal (both in the data
//! folder the app passes in), and turns file-system changes reported by the watcher into
//! [`DocEvent`]s (reload, conflict, deleted, revalidated).
//!
//! One concern a file: the workspace and its documents (`documents`), opening a file
//! (`opening`), new and imported documents (`untitled`), editing (`editing`), saving
//! (`saving`), the recovery journal (`recovery`, `journal_state`), the settings and registries
//! (`settings`), the recent files (`recent`) and outside changes (`outside`).

pub mod codes;
mod documents;
mod editing;
mod journal_state;
mod opening;
mod outside;
mod recent;
mod recovery;
mod saving;
mod settings;
mod untitled;

pub use documents::{builtin_loader, CloseRefused, RegistryLoader, Workspace};
pub use opening::{Begun, OpenStage, OpenStart, Opening, Starting};
pub use outside::{DocEvent, FsChange};
pub use recent::RECENT_LIMIT;
pub use recovery::{JournalWrite, JournalWritten, MAX_JOURNAL_DELAY_MS, MAX_REST_MS, REST_PER_WRITE_MS};
pub use untitled::EXAMPLE;
