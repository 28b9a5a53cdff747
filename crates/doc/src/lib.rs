//! trellis-doc: documents as editing sessions. All file access goes through a trait.
//!
//! - [`fs`]: the `FileSystem` trait, `RealFs`, `FakeFs`, `atomic_write`.
//! - [`edit`]: the edit operations the UI sends and what they answer.
//! - [`view`], [`delta`]: what the UI holds of a document, and what an edit answers.
//! - [`document`]: the document itself, one variant per format: read, written, named.
//! - [`session`]: one open document (fingerprint, layout, registries, undo/redo, dirty).
//! - [`save`]: the five-step save pipeline.
//! - [`journal`]: the recovery journal of unsaved work.
//! - [`workspace`]: the open documents, recent files, outside changes; what the shell calls.
//! - [`formats`]: Weaveflow and GRAPH.md documents: their edits and save checks.
//! - [`watch`]: a notify watcher on the folders of the open files.
//! - [`auto_layout`]: the automatic layout of a document's canvas (open without positions,
//!   the Auto layout action).
//! - [`routes`]: the routes the canvas draws the edges along, and where their labels sit.
//! - [`discovery`]: which registries are in force for a document.
//! - [`subgraphs`]: subgraph nodes' references resolved to files (or why not).
//! - [`compare`]: "Compare with...": the diff against another version as canvas marks and a
//!   change list, and one change taken as an edit.
//! - [`conflicts`]: the merge driver's conflict report beside a document, resolved pick by pick.
//! - [`text`]: the document's text beside the canvas, live both ways (the text pane).
//! - [`run_graph`]: a document as runs see it (nodes, drawn edges, reducers).

#![forbid(unsafe_code)]

pub mod annotations;
mod apply;
pub mod auto_layout;
pub mod canvas_sizes;
mod channel_configs;
pub mod clock;
pub mod collapse;
pub mod compare;
mod config_field;
pub mod conflicts;
pub mod delta;
pub mod discovery;
pub mod document;
pub mod drawn_edges;
pub mod edit;
pub mod fingerprint;
pub mod fixes;
pub mod formats;
pub mod fs;
mod history;
mod ids;
pub mod journal;
pub mod layout;
pub mod list_edit;
pub mod palette;
mod perform;
mod reformat;
mod refusal;
pub mod registries;
pub mod registry_editor;
pub mod routes;
pub mod run_graph;
pub mod save;
pub mod session;
pub mod subgraphs;
pub mod text;
mod text_changes;
pub mod view;
pub mod watch;
pub mod workspace;

pub use clock::{Clock, ManualClock, SystemClock};
pub use delta::{Change, ViewDelta};
pub use document::{DocFormat, DocId, Document};
pub use edit::{Changed, Edit, EditOutcome, Position, Viewport};
pub use fingerprint::Fingerprint;
pub use fs::{atomic_write, FakeFs, FileSystem, FsOp, Metadata, RealFs};
pub use layout::Layout;
pub use registries::Registries;
pub use session::{Conflict, Session, SessionInfo};
pub use watch::Watcher;
pub use workspace::{
    Begun, DocEvent, FsChange, OpenStage, OpenStart, Opening, RegistryLoader, Starting, Workspace,
};

#[cfg(test)]
mod tests;
