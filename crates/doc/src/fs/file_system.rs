//! The [`FileSystem`] trait: everything Trellis does to files, as the primitive steps of an
//! atomic write (so a fake can fail at any of them), with the metadata and operation names it
//! speaks in.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// What the save pipeline and the watcher need to know about a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Metadata {
    pub size: u64,
    /// `None` when the platform cannot tell.
    pub modified: Option<SystemTime>,
    /// Unix permission bits (`0o644`); on other platforms `0o444` for read-only, `0o644` else.
    pub mode: u32,
    /// True when the path itself is a symbolic link (only from [`FileSystem::symlink_metadata`]).
    pub is_symlink: bool,
    pub is_dir: bool,
}

/// One primitive file-system operation; used to name the step that failed and to inject
/// failures into [`FakeFs`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FsOp {
    Read,
    Metadata,
    ReadDir,
    Canonicalize,
    CreateTemp,
    Write,
    SetMode,
    SyncFile,
    Rename,
    SyncDir,
    Remove,
    CreateDir,
}

impl FsOp {
    /// A word for messages ("writing the temporary file failed").
    pub fn describe(self) -> &'static str {
        match self {
            FsOp::Read => "reading",
            FsOp::Metadata => "reading the file's metadata",
            FsOp::ReadDir => "listing the folder",
            FsOp::Canonicalize => "resolving the path",
            FsOp::CreateTemp => "creating the temporary file",
            FsOp::Write => "writing the temporary file",
            FsOp::SetMode => "setting the temporary file's permissions",
            FsOp::SyncFile => "flushing the temporary file to disk (fsync)",
            FsOp::Rename => "renaming the temporary file over the target",
            FsOp::SyncDir => "flushing the folder to disk (fsync)",
            FsOp::Remove => "removing",
            FsOp::CreateDir => "creating the folder",
        }
    }
}

/// Everything Trellis does to files. Implementations must be usable from several threads (the
/// watcher and the journal run beside the UI).
pub trait FileSystem: Send + Sync + fmt::Debug {
    /// The whole content of a file (following symbolic links).
    fn read(&self, path: &Path) -> io::Result<Vec<u8>>;
    /// The content of a file in pieces, in order (following symbolic links): what hashes or
    /// compares a large file holds no copy of it (a save would otherwise read the whole file
    /// into fresh memory, twice).
    fn read_chunks(&self, path: &Path, each: &mut dyn FnMut(&[u8])) -> io::Result<()> {
        each(&self.read(path)?);
        Ok(())
    }
    /// Metadata of what the path points to (following symbolic links).
    fn metadata(&self, path: &Path) -> io::Result<Metadata>;
    /// Metadata of the path itself (a symbolic link is reported as one).
    fn symlink_metadata(&self, path: &Path) -> io::Result<Metadata>;
    /// The entries of a folder (full paths), sorted by name.
    fn read_dir(&self, path: &Path) -> io::Result<Vec<PathBuf>>;
    /// True when the path exists (following symbolic links).
    fn exists(&self, path: &Path) -> bool {
        self.metadata(path).is_ok()
    }
    /// An absolute path with every symbolic link resolved (the path must exist).
    fn canonicalize(&self, path: &Path) -> io::Result<PathBuf>;
    /// Where a save to `path` must land: `path` itself, or, when `path` is a symbolic link
    /// (possibly a chain), the file it finally points to (which may not exist yet). A save
    /// must replace the target, never the link.
    fn resolve_symlink(&self, path: &Path) -> io::Result<PathBuf>;
    /// Creates a new, empty file in `dir` whose name starts with `prefix` (never an existing
    /// file) and returns its path.
    fn create_temp(&self, dir: &Path, prefix: &str) -> io::Result<PathBuf>;
    /// Replaces the content of an existing or new file (not atomic: used on temporary files).
    fn write(&self, path: &Path, bytes: &[u8]) -> io::Result<()>;
    /// Sets the permission bits.
    fn set_mode(&self, path: &Path, mode: u32) -> io::Result<()>;
    /// Flushes a file's content to disk (fsync).
    fn sync_file(&self, path: &Path) -> io::Result<()>;
    /// Renames `from` over `to` (atomic on the same file system).
    fn rename(&self, from: &Path, to: &Path) -> io::Result<()>;
    /// Flushes a folder's entries to disk, so a rename survives a power cut.
    fn sync_dir(&self, dir: &Path) -> io::Result<()>;
    /// Removes a file (not a folder).
    fn remove(&self, path: &Path) -> io::Result<()>;
    /// Creates a folder and its parents.
    fn create_dir_all(&self, path: &Path) -> io::Result<()>;
}

/// The folder holding `path` ("." for a bare file name).
pub fn parent_dir(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}
