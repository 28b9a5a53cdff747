//! trellis-doc: documents as editing sessions. All file access goes through a trait.
//!
//! - [`fs`]: the `FileSystem` trait, `RealFs`, `FakeFs`, `atomic_write`.
//! - [`edit`]: the edit operations the UI sends and what they answer.
//! - [`view`], [`delta`]: what the UI holds of a document, and what an edit answers.
//! - [`session`]: one open document (fingerprint, layout, registries, undo/redo, dirty).
//! - [`save`]: the five-step save pipeline.
//! - [`journal`]: the recovery journal of unsaved work.
//! - [`workspace`]: the open documents, recent files, outside changes; what the shell calls.
//! - [`formats`]: Weaveflow and GRAPH.md documents: their edits and save checks.
//! - [`watch`]: a notify watcher on the folders of the open files.
//! - [`auto_layout`]: the automatic layout of a document's canvas (open without positions,
//!   the Auto layout action).
//! - [`discovery`]: which registries are in force for a document.
//! - [`subgraphs`]: subgraph nodes' references resolved to files (or why not).
//! - [`compare`]: "Compare with...": the diff against another version as canvas marks and a
//!   change list, and one change taken as an edit.
//! - [`conflicts`]: the merge driver's conflict report beside a document, resolved pick by pick.

pub mod annotations;
mod apply;
pub mod auto_layout;
mod channel_configs;
pub mod clock;
pub mod collapse;
pub mod compare;
pub mod conflicts;
pub mod delta;
pub mod discovery;
pub mod drawn_edges;
pub mod edit;
pub mod fixes;
pub mod formats;
pub mod fs;
mod history;
pub mod journal;
pub mod layout;
mod layout_read;
pub mod list_edit;
pub mod palette;
mod perform;
mod reformat;
pub mod registry_editor;
pub mod save;
pub mod session;
pub mod subgraphs;
pub mod view;
pub mod watch;
pub mod workspace;

pub use clock::{Clock, ManualClock, SystemClock};
pub use delta::{Change, ViewDelta};
pub use edit::{Changed, Edit, EditOutcome, Position, Viewport};
pub use fs::{atomic_write, FakeFs, FileSystem, FsOp, Metadata, RealFs};
pub use layout::Layout;
pub use session::{Conflict, DocFormat, DocId, Document, Fingerprint, Registries, Session, SessionInfo};
pub use watch::Watcher;
pub use workspace::{DocEvent, FsChange, OpenStage, RegistryLoader, Workspace};

#[cfg(test)]
mod tests;
