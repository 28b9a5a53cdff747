//! The file system behind a trait, so every path of the save pipeline, the journal and the
//! discovery of registries can be tested without touching a disk (and with failures injected
//! at each step of an atomic write).
//!
//! The trait exposes the *primitive steps* of an atomic write (create a temporary file, write,
//! set its mode, fsync, rename, fsync the folder) rather than one `atomic_write` call, so that
//! [`atomic_write`] is written once, against the trait, and the fake can fail at any step.
//!
//! One concern a file: the trait and what it speaks of (`file_system`), the atomic write
//! written once against it (`atomic`), the operating system's file system (`real`) and the
//! in-memory one for tests (`fake`).

mod atomic;
mod fake;
mod file_system;
mod real;

pub use atomic::{atomic_write, stage, write_beside, AtomicWrite, AtomicWriteError, Staged, Written};
pub use fake::FakeFs;
pub use file_system::{parent_dir, FileSystem, FsOp, Metadata};
pub use real::RealFs;
