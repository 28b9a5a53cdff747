//! The atomic write, written once against the [`FileSystem`] trait: the new content in a
//! temporary file beside the target, with the target's permissions, flushed, then renamed over
//! it and the folder flushed. In steps ([`write_beside`], [`Written::flush`],
//! [`Staged::commit`]) for a save that checks its text meanwhile.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use super::file_system::{parent_dir, FileSystem, FsOp};

/// The step of [`atomic_write`] that failed, with the error.
#[derive(Debug)]
pub struct AtomicWriteError {
    pub step: FsOp,
    pub path: PathBuf,
    pub error: io::Error,
    /// True when the rename had already happened: the new content is in place, only its
    /// durability is in doubt (the folder fsync failed).
    pub written: bool,
}

impl fmt::Display for AtomicWriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({}) failed: {}", self.step.describe(), self.path.display(), self.error)
    }
}

impl std::error::Error for AtomicWriteError {}

/// What [`atomic_write`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AtomicWrite {
    /// The file that was replaced or created (the symlink target when `path` was a link).
    pub target: PathBuf,
    /// The permission bits the new file got.
    pub mode: u32,
}

/// Writes `bytes` to `path` so that a crash at any moment leaves either the complete old
/// content or the complete new one: a temporary file in the same folder, the original's
/// permissions (or `default_mode` for a new file), fsync, rename over the real target (the
/// target of a symbolic link, not the link), fsync the folder.
///
/// On failure before the rename, the temporary file is removed and the target is untouched.
pub fn atomic_write(
    fs: &dyn FileSystem,
    path: &Path,
    bytes: &[u8],
    default_mode: u32,
) -> Result<AtomicWrite, AtomicWriteError> {
    stage(fs, path, bytes, default_mode)?.commit(fs)
}

/// The first half of [`atomic_write`]: the new content written to a temporary file beside the
/// real target, with its permissions, and flushed; the target is untouched until
/// [`Staged::commit`]. A save writes the file while it still checks the text (`crate::save`),
/// and drops it ([`Staged::discard`]) when the check fails.
pub fn stage(
    fs: &dyn FileSystem,
    path: &Path,
    bytes: &[u8],
    default_mode: u32,
) -> Result<Staged, AtomicWriteError> {
    write_beside(fs, path, bytes, default_mode)?.flush(fs)
}

/// [`stage`] before the flush: the content written to the temporary file, with its
/// permissions. A large save reads the file back while it is flushed ([`Written::temp`]).
pub fn write_beside(
    fs: &dyn FileSystem,
    path: &Path,
    bytes: &[u8],
    default_mode: u32,
) -> Result<Written, AtomicWriteError> {
    let fail = |step: FsOp, path: &Path, error: io::Error| AtomicWriteError {
        step,
        path: path.to_path_buf(),
        error,
        written: false,
    };
    let target = fs.resolve_symlink(path).map_err(|e| fail(FsOp::Canonicalize, path, e))?;
    let dir = parent_dir(&target);
    let mode = match fs.metadata(&target) {
        Ok(m) => m.mode,
        Err(e) if e.kind() == io::ErrorKind::NotFound => default_mode,
        Err(e) => return Err(fail(FsOp::Metadata, &target, e)),
    };
    let name = target.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let prefix = format!(".{name}.trellis-tmp-");
    let temp = fs.create_temp(&dir, &prefix).map_err(|e| fail(FsOp::CreateTemp, &dir, e))?;
    let steps = (|| -> Result<(), (FsOp, io::Error)> {
        fs.write(&temp, bytes).map_err(|e| (FsOp::Write, e))?;
        fs.set_mode(&temp, mode).map_err(|e| (FsOp::SetMode, e))?;
        Ok(())
    })();
    let staged = Staged { temp, target, dir, mode };
    match steps {
        Ok(()) => Ok(Written(staged)),
        Err((step, error)) => Err(staged.abandon(fs, step, error)),
    }
}

/// A new content written beside its file but not yet flushed (see [`write_beside`]).
#[derive(Debug)]
#[must_use = "a written content is flushed (or its temporary file is left behind)"]
pub struct Written(Staged);

impl Written {
    /// The temporary file holding the new content.
    pub fn temp(&self) -> &Path {
        &self.0.temp
    }

    /// Flushes the content to disk (fsync): staged, ready to be put in place.
    pub fn flush(self, fs: &dyn FileSystem) -> Result<Staged, AtomicWriteError> {
        match fs.sync_file(&self.0.temp) {
            Ok(()) => Ok(self.0),
            Err(error) => Err(self.0.abandon(fs, FsOp::SyncFile, error)),
        }
    }
}

/// A new content written and flushed beside its file, not yet in place (see [`stage`]).
#[derive(Debug)]
#[must_use = "a staged write is committed or discarded"]
pub struct Staged {
    temp: PathBuf,
    target: PathBuf,
    dir: PathBuf,
    mode: u32,
}

impl Staged {
    /// Renames the new content over the target, then flushes the folder.
    pub fn commit(self, fs: &dyn FileSystem) -> Result<AtomicWrite, AtomicWriteError> {
        if let Err(error) = fs.rename(&self.temp, &self.target) {
            return Err(self.abandon(fs, FsOp::Rename, error));
        }
        if let Err(error) = fs.sync_dir(&self.dir) {
            return Err(AtomicWriteError { step: FsOp::SyncDir, path: self.dir, error, written: true });
        }
        Ok(AtomicWrite { target: self.target, mode: self.mode })
    }

    /// Removes the new content: the target stays as it was.
    pub fn discard(self, fs: &dyn FileSystem) {
        let _ = fs.remove(&self.temp);
    }

    /// The new content removed after `step` failed on it (best effort: a leftover temporary
    /// file is harmless, its name hidden, but tidied up): the error to answer.
    fn abandon(self, fs: &dyn FileSystem, step: FsOp, error: io::Error) -> AtomicWriteError {
        let _ = fs.remove(&self.temp);
        AtomicWriteError { step, path: self.temp, error, written: false }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fs::FakeFs;

    fn p(s: &str) -> PathBuf {
        PathBuf::from(s)
    }

    #[test]
    fn atomic_write_replaces_content_and_keeps_mode() {
        let fs = FakeFs::new();
        fs.put_with_mode("/d/a.json", "old", 0o640);
        let w = atomic_write(&fs, &p("/d/a.json"), b"new", 0o644).expect("write");
        assert_eq!(w.target, p("/d/a.json"));
        assert_eq!(fs.get_string("/d/a.json").as_deref(), Some("new"));
        assert_eq!(fs.metadata(&p("/d/a.json")).expect("meta").mode, 0o640);
        let ops: Vec<FsOp> = fs.log().into_iter().map(|(op, _)| op).collect();
        assert_eq!(
            ops,
            vec![FsOp::CreateTemp, FsOp::Write, FsOp::SetMode, FsOp::SyncFile, FsOp::Rename, FsOp::SyncDir]
        );
        // The temporary file was in the same folder, and is gone.
        assert!(fs.log().iter().all(|(_, path)| path.starts_with("/d")));
        assert_eq!(fs.files(), vec![p("/d/a.json")]);
    }

    #[test]
    fn atomic_write_failure_before_rename_leaves_old_content() {
        for op in [FsOp::CreateTemp, FsOp::Write, FsOp::SetMode, FsOp::SyncFile, FsOp::Rename] {
            let fs = FakeFs::new();
            fs.put("/d/a.json", "old");
            fs.fail_next(op, io::ErrorKind::Other);
            let err = atomic_write(&fs, &p("/d/a.json"), b"new", 0o644).expect_err("must fail");
            assert_eq!(err.step, op);
            assert!(!err.written);
            assert_eq!(fs.get_string("/d/a.json").as_deref(), Some("old"), "{op:?}");
            assert_eq!(fs.files(), vec![p("/d/a.json")], "temp left behind after {op:?}");
        }
    }

    #[test]
    fn atomic_write_folder_sync_failure_reports_written() {
        let fs = FakeFs::new();
        fs.put("/d/a.json", "old");
        fs.fail_next(FsOp::SyncDir, io::ErrorKind::Other);
        let err = atomic_write(&fs, &p("/d/a.json"), b"new", 0o644).expect_err("must fail");
        assert!(err.written);
        assert_eq!(fs.get_string("/d/a.json").as_deref(), Some("new"));
    }

    #[test]
    fn atomic_write_through_symlink_replaces_target_not_link() {
        let fs = FakeFs::new();
        fs.put("/real/a.json", "old");
        fs.symlink("../real/a.json", "/links/a.json");
        let w = atomic_write(&fs, &p("/links/a.json"), b"new", 0o644).expect("write");
        assert_eq!(w.target, p("/real/a.json"));
        assert!(fs.is_symlink("/links/a.json"));
        assert_eq!(fs.get_string("/links/a.json").as_deref(), Some("new"));
        assert_eq!(fs.get_string("/real/a.json").as_deref(), Some("new"));
    }
}
