//! trellis-doc: documents as editing sessions. All file access goes through a trait.
//!
//! - [`fs`]: the `FileSystem` trait, `RealFs`, `FakeFs`, `atomic_write`.
//! - [`edit`]: the edit operations the UI sends and what they answer.

mod apply;
pub mod clock;
pub mod discovery;
pub mod edit;
pub mod fs;
mod history;
pub mod journal;
pub mod layout;
pub mod save;
pub mod session;
pub mod watch;
pub mod workspace;

pub use clock::{Clock, ManualClock, SystemClock};
pub use edit::{Changed, Edit, EditOutcome, Position, Viewport};
pub use fs::{atomic_write, FakeFs, FileSystem, FsOp, Metadata, RealFs};
pub use layout::Layout;
pub use session::{Conflict, DocFormat, DocId, Document, Fingerprint, Registries, Session, SessionInfo};
pub use workspace::{DocEvent, FsChange, RegistryLoader, Workspace};

#[cfg(test)]
mod tests;
pub use watch::Watcher;
