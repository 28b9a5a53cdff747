//! The file system behind a trait, so every path of the save pipeline, the journal and the
//! discovery of registries can be tested without touching a disk (and with failures injected
//! at each step of an atomic write).
//!
//! The trait exposes the *primitive steps* of an atomic write (create a temporary file, write,
//! set its mode, fsync, rename, fsync the folder) rather than one `atomic_write` call, so that
//! [`atomic_write`] is written once, against the trait, and the fake can fail at any step.

use std::collections::BTreeMap;
use std::fmt;
use std::io;
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

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
    /// compares a large file holds no copy of it (a save of 100,000 nodes read two copies of
    /// 51 MB, fresh memory each time).
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

/// The folder holding `path` ("." for a bare file name).
pub fn parent_dir(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

// ---------------------------------------------------------------------------------------------
// The real file system.

/// The operating system's file system.
#[derive(Debug, Clone, Copy, Default)]
pub struct RealFs;

static TEMP_COUNTER: AtomicU64 = AtomicU64::new(0);

fn metadata_of(m: &std::fs::Metadata, is_symlink: bool) -> Metadata {
    Metadata { size: m.len(), modified: m.modified().ok(), mode: mode_of(m), is_symlink, is_dir: m.is_dir() }
}

#[cfg(unix)]
fn mode_of(m: &std::fs::Metadata) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    m.permissions().mode() & 0o7777
}

#[cfg(not(unix))]
fn mode_of(m: &std::fs::Metadata) -> u32 {
    if m.permissions().readonly() {
        0o444
    } else {
        0o644
    }
}

impl FileSystem for RealFs {
    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        std::fs::read(path)
    }
    fn read_chunks(&self, path: &Path, each: &mut dyn FnMut(&[u8])) -> io::Result<()> {
        use std::io::Read;
        /// Large enough that a read is few system calls, small enough to stay in the cache.
        const CHUNK: usize = 256 * 1024;
        let mut file = std::fs::File::open(path)?;
        let mut buffer = vec![0; CHUNK];
        loop {
            match file.read(&mut buffer) {
                Ok(0) => return Ok(()),
                Ok(n) => each(&buffer[..n]),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
    }
    fn metadata(&self, path: &Path) -> io::Result<Metadata> {
        std::fs::metadata(path).map(|m| metadata_of(&m, false))
    }
    fn symlink_metadata(&self, path: &Path) -> io::Result<Metadata> {
        std::fs::symlink_metadata(path).map(|m| metadata_of(&m, m.file_type().is_symlink()))
    }
    fn read_dir(&self, path: &Path) -> io::Result<Vec<PathBuf>> {
        let mut out = Vec::new();
        for entry in std::fs::read_dir(path)? {
            out.push(entry?.path());
        }
        out.sort();
        Ok(out)
    }
    fn canonicalize(&self, path: &Path) -> io::Result<PathBuf> {
        std::fs::canonicalize(path)
    }
    fn resolve_symlink(&self, path: &Path) -> io::Result<PathBuf> {
        let mut current = path.to_path_buf();
        // A bounded walk: a loop of links is an error, like the OS's ELOOP.
        for _ in 0..40 {
            match std::fs::symlink_metadata(&current) {
                Ok(m) if m.file_type().is_symlink() => {
                    let link = std::fs::read_link(&current)?;
                    current = if link.is_absolute() { link } else { parent_dir(&current).join(link) };
                }
                Ok(_) => return Ok(current),
                Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(current),
                Err(e) => return Err(e),
            }
        }
        Err(io::Error::other(format!("too many levels of symbolic links at {}", path.display())))
    }
    fn create_temp(&self, dir: &Path, prefix: &str) -> io::Result<PathBuf> {
        let pid = std::process::id();
        loop {
            let n = TEMP_COUNTER.fetch_add(1, Ordering::Relaxed);
            let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.subsec_nanos()).unwrap_or(0);
            let path = dir.join(format!("{prefix}{pid}-{n}-{nanos:x}"));
            match std::fs::OpenOptions::new().write(true).create_new(true).open(&path) {
                Ok(_) => return Ok(path),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(e) => return Err(e),
            }
        }
    }
    fn write(&self, path: &Path, bytes: &[u8]) -> io::Result<()> {
        std::fs::write(path, bytes)
    }
    #[cfg(unix)]
    fn set_mode(&self, path: &Path, mode: u32) -> io::Result<()> {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
    }
    #[cfg(not(unix))]
    fn set_mode(&self, path: &Path, mode: u32) -> io::Result<()> {
        let mut p = std::fs::metadata(path)?.permissions();
        p.set_readonly(mode & 0o222 == 0);
        std::fs::set_permissions(path, p)
    }
    fn sync_file(&self, path: &Path) -> io::Result<()> {
        // fsync flushes the inode's dirty pages whichever descriptor wrote them.
        std::fs::OpenOptions::new().write(true).open(path)?.sync_all()
    }
    fn rename(&self, from: &Path, to: &Path) -> io::Result<()> {
        std::fs::rename(from, to)
    }
    #[cfg(unix)]
    fn sync_dir(&self, dir: &Path) -> io::Result<()> {
        std::fs::File::open(dir)?.sync_all()
    }
    #[cfg(not(unix))]
    fn sync_dir(&self, _dir: &Path) -> io::Result<()> {
        // Windows cannot open a folder for fsync; its rename is journaled by NTFS.
        Ok(())
    }
    fn remove(&self, path: &Path) -> io::Result<()> {
        std::fs::remove_file(path)
    }
    fn create_dir_all(&self, path: &Path) -> io::Result<()> {
        std::fs::create_dir_all(path)
    }
}

// ---------------------------------------------------------------------------------------------
// The fake file system.

#[derive(Debug, Clone)]
enum Entry {
    File { bytes: Vec<u8>, mode: u32, modified: SystemTime },
    Symlink(PathBuf),
    Dir,
}

#[derive(Debug, Default)]
struct FakeState {
    entries: BTreeMap<PathBuf, Entry>,
    /// Failures to inject: op -> (skip this many matching calls first, error kind).
    /// Injected failures: the call, how many such calls succeed first, the error, and the text
    /// the path must hold (any path when `None`).
    failures: Vec<(FsOp, usize, io::ErrorKind, Option<String>)>,
    /// Every mutating call, in order, for tests that check the sequence of steps.
    log: Vec<(FsOp, PathBuf)>,
    /// A logical clock: each write moves the modification time forward.
    tick: u64,
    temp_counter: u64,
}

/// An in-memory file system for tests. Cloning shares the same files, so a test keeps a
/// handle to change files "from outside" and inspect them while a session uses another.
///
/// Paths are used as given after lexical normalization (`a/./b/../c` -> `a/c`); relative and
/// absolute paths are different files, so tests should use absolute paths.
#[derive(Debug, Clone, Default)]
pub struct FakeFs {
    state: Arc<Mutex<FakeState>>,
}

fn not_found(path: &Path) -> io::Error {
    io::Error::new(io::ErrorKind::NotFound, format!("{}: no such file", path.display()))
}

/// Lexical normalization (no symlink resolution).
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

impl FakeFs {
    pub fn new() -> Self {
        Self::default()
    }

    fn lock(&self) -> MutexGuard<'_, FakeState> {
        // A test that panicked while holding the lock must not hide its own failure.
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Creates or replaces a file (creating its folders), as a user or another program would:
    /// the modification time moves forward.
    pub fn put(&self, path: impl AsRef<Path>, bytes: impl AsRef<[u8]>) {
        self.put_with_mode(path, bytes, 0o644);
    }

    /// [`FakeFs::put`] with given permission bits.
    pub fn put_with_mode(&self, path: impl AsRef<Path>, bytes: impl AsRef<[u8]>, mode: u32) {
        let path = normalize(path.as_ref());
        let mut st = self.lock();
        add_parents(&mut st, &path);
        let modified = next_time(&mut st);
        st.entries.insert(path, Entry::File { bytes: bytes.as_ref().to_vec(), mode, modified });
    }

    /// Changes a file in place from outside, keeping its mode (an editor writing in place).
    pub fn modify(&self, path: impl AsRef<Path>, bytes: impl AsRef<[u8]>) {
        let path = normalize(path.as_ref());
        let mode = match self.lock().entries.get(&path) {
            Some(Entry::File { mode, .. }) => *mode,
            _ => 0o644,
        };
        self.put_with_mode(&path, bytes, mode);
    }

    /// Changes only the modification time (a `touch`).
    pub fn touch(&self, path: impl AsRef<Path>) {
        let path = normalize(path.as_ref());
        let mut st = self.lock();
        let t = next_time(&mut st);
        if let Some(Entry::File { modified, .. }) = st.entries.get_mut(&path) {
            *modified = t;
        }
    }

    /// Creates a symbolic link at `link` pointing to `target` (relative to the link's folder
    /// when relative).
    pub fn symlink(&self, target: impl AsRef<Path>, link: impl AsRef<Path>) {
        let link = normalize(link.as_ref());
        let mut st = self.lock();
        add_parents(&mut st, &link);
        st.entries.insert(link, Entry::Symlink(target.as_ref().to_path_buf()));
    }

    /// Creates a folder and its parents.
    pub fn mkdir(&self, path: impl AsRef<Path>) {
        let path = normalize(path.as_ref());
        let mut st = self.lock();
        add_parents(&mut st, &path);
        st.entries.insert(path, Entry::Dir);
    }

    /// Deletes a file or link from outside.
    pub fn delete(&self, path: impl AsRef<Path>) {
        self.lock().entries.remove(&normalize(path.as_ref()));
    }

    /// The content of a file (following links), if it exists.
    pub fn get(&self, path: impl AsRef<Path>) -> Option<Vec<u8>> {
        let st = self.lock();
        let target = resolve(&st, &normalize(path.as_ref())).ok()?;
        match st.entries.get(&target) {
            Some(Entry::File { bytes, .. }) => Some(bytes.clone()),
            _ => None,
        }
    }

    /// The content as text (lossy), if the file exists.
    pub fn get_string(&self, path: impl AsRef<Path>) -> Option<String> {
        self.get(path).map(|b| String::from_utf8_lossy(&b).into_owned())
    }

    /// True when the path itself is a symbolic link.
    pub fn is_symlink(&self, path: impl AsRef<Path>) -> bool {
        matches!(self.lock().entries.get(&normalize(path.as_ref())), Some(Entry::Symlink(_)))
    }

    /// All file and link paths (not folders), sorted.
    pub fn files(&self) -> Vec<PathBuf> {
        self.lock().entries.iter().filter(|(_, e)| !matches!(e, Entry::Dir)).map(|(p, _)| p.clone()).collect()
    }

    /// Makes the next call of `op` fail with `kind`.
    pub fn fail_next(&self, op: FsOp, kind: io::ErrorKind) {
        self.fail_nth(op, 0, kind);
    }

    /// Makes the call of `op` after `skip` successful ones fail with `kind`.
    pub fn fail_nth(&self, op: FsOp, skip: usize, kind: io::ErrorKind) {
        self.lock().failures.push((op, skip, kind, None));
    }

    /// Makes the next call of `op` on a path that holds `part` fail with `kind` (a save writes
    /// its files on threads of their own: which comes first is not known).
    pub fn fail_next_on(&self, op: FsOp, part: &str, kind: io::ErrorKind) {
        self.lock().failures.push((op, 0, kind, Some(part.to_owned())));
    }

    /// Removes every pending injected failure.
    pub fn clear_failures(&self) {
        self.lock().failures.clear();
    }

    /// The mutating operations performed so far, in order.
    pub fn log(&self) -> Vec<(FsOp, PathBuf)> {
        self.lock().log.clone()
    }

    /// Forgets the operation log.
    pub fn clear_log(&self) {
        self.lock().log.clear();
    }

    /// Checks for an injected failure of `op`, logging the call when it is a mutation.
    fn enter(&self, st: &mut FakeState, op: FsOp, path: &Path) -> io::Result<()> {
        let mut hit = None;
        let shown = path.to_string_lossy();
        for (i, (fop, skip, kind, part)) in st.failures.iter_mut().enumerate() {
            if *fop == op && part.as_deref().is_none_or(|p| shown.contains(p)) {
                if *skip == 0 {
                    hit = Some((i, *kind));
                } else {
                    *skip -= 1;
                }
                break;
            }
        }
        if let Some((i, kind)) = hit {
            st.failures.remove(i);
            return Err(io::Error::new(kind, format!("injected failure: {op:?} {}", path.display())));
        }
        if !matches!(op, FsOp::Read | FsOp::Metadata | FsOp::ReadDir | FsOp::Canonicalize) {
            st.log.push((op, path.to_path_buf()));
        }
        Ok(())
    }
}

fn next_time(st: &mut FakeState) -> SystemTime {
    st.tick += 1;
    // Start at a plausible date; one second per change keeps times distinct.
    UNIX_EPOCH + Duration::from_secs(1_700_000_000 + st.tick)
}

fn add_parents(st: &mut FakeState, path: &Path) {
    let mut p = path.parent();
    while let Some(dir) = p {
        if dir.as_os_str().is_empty() {
            break;
        }
        st.entries.entry(dir.to_path_buf()).or_insert(Entry::Dir);
        p = dir.parent();
    }
}

/// Follows symbolic links from `path` (lexically normalized) to a non-link path, which may
/// not exist. Links in parent folders are not followed (tests do not need it).
fn resolve(st: &FakeState, path: &Path) -> io::Result<PathBuf> {
    let mut current = path.to_path_buf();
    for _ in 0..40 {
        match st.entries.get(&current) {
            Some(Entry::Symlink(target)) => {
                current = normalize(&if target.is_absolute() {
                    target.clone()
                } else {
                    parent_dir(&current).join(target)
                });
            }
            _ => return Ok(current),
        }
    }
    Err(io::Error::other(format!("too many levels of symbolic links at {}", path.display())))
}

fn meta_of(entry: &Entry) -> Metadata {
    match entry {
        Entry::File { bytes, mode, modified } => Metadata {
            size: bytes.len() as u64,
            modified: Some(*modified),
            mode: *mode,
            is_symlink: false,
            is_dir: false,
        },
        Entry::Symlink(_) => {
            Metadata { size: 0, modified: None, mode: 0o777, is_symlink: true, is_dir: false }
        }
        Entry::Dir => Metadata { size: 0, modified: None, mode: 0o755, is_symlink: false, is_dir: true },
    }
}

fn parent_exists(st: &FakeState, path: &Path) -> bool {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => matches!(st.entries.get(p), Some(Entry::Dir)),
        // A path at the root, or a bare name: its folder always exists.
        _ => true,
    }
}

impl FileSystem for FakeFs {
    fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        let mut st = self.lock();
        let path = normalize(path);
        self.enter(&mut st, FsOp::Read, &path)?;
        let target = resolve(&st, &path)?;
        match st.entries.get(&target) {
            Some(Entry::File { bytes, .. }) => Ok(bytes.clone()),
            Some(Entry::Dir) => Err(io::Error::other(format!("{}: is a folder", path.display()))),
            _ => Err(not_found(&path)),
        }
    }
    fn metadata(&self, path: &Path) -> io::Result<Metadata> {
        let mut st = self.lock();
        let path = normalize(path);
        self.enter(&mut st, FsOp::Metadata, &path)?;
        let target = resolve(&st, &path)?;
        st.entries.get(&target).map(meta_of).ok_or_else(|| not_found(&path))
    }
    fn symlink_metadata(&self, path: &Path) -> io::Result<Metadata> {
        let mut st = self.lock();
        let path = normalize(path);
        self.enter(&mut st, FsOp::Metadata, &path)?;
        st.entries.get(&path).map(meta_of).ok_or_else(|| not_found(&path))
    }
    fn read_dir(&self, path: &Path) -> io::Result<Vec<PathBuf>> {
        let mut st = self.lock();
        let path = normalize(path);
        self.enter(&mut st, FsOp::ReadDir, &path)?;
        let dir = resolve(&st, &path)?;
        if !matches!(st.entries.get(&dir), Some(Entry::Dir)) {
            return Err(not_found(&path));
        }
        Ok(st
            .entries
            .keys()
            .filter(|p| p.parent() == Some(dir.as_path()))
            .map(|p| path.join(p.file_name().unwrap_or_default()))
            .collect())
    }
    fn canonicalize(&self, path: &Path) -> io::Result<PathBuf> {
        let mut st = self.lock();
        let path = normalize(path);
        self.enter(&mut st, FsOp::Canonicalize, &path)?;
        let target = resolve(&st, &path)?;
        if st.entries.contains_key(&target) {
            Ok(target)
        } else {
            Err(not_found(&path))
        }
    }
    fn resolve_symlink(&self, path: &Path) -> io::Result<PathBuf> {
        let mut st = self.lock();
        let path = normalize(path);
        self.enter(&mut st, FsOp::Canonicalize, &path)?;
        resolve(&st, &path)
    }
    fn create_temp(&self, dir: &Path, prefix: &str) -> io::Result<PathBuf> {
        let mut st = self.lock();
        let dir = normalize(dir);
        self.enter(&mut st, FsOp::CreateTemp, &dir)?;
        if !dir.as_os_str().is_empty()
            && dir != Path::new(".")
            && !matches!(st.entries.get(&dir), Some(Entry::Dir))
        {
            return Err(not_found(&dir));
        }
        loop {
            st.temp_counter += 1;
            let path = dir.join(format!("{prefix}{}", st.temp_counter));
            if !st.entries.contains_key(&path) {
                let modified = next_time(&mut st);
                st.entries.insert(path.clone(), Entry::File { bytes: Vec::new(), mode: 0o600, modified });
                return Ok(path);
            }
        }
    }
    fn write(&self, path: &Path, bytes: &[u8]) -> io::Result<()> {
        let mut st = self.lock();
        let path = normalize(path);
        self.enter(&mut st, FsOp::Write, &path)?;
        let target = resolve(&st, &path)?;
        if !parent_exists(&st, &target) {
            return Err(not_found(&target));
        }
        let modified = next_time(&mut st);
        let mode = match st.entries.get(&target) {
            Some(Entry::File { mode, .. }) => *mode,
            Some(Entry::Dir) => return Err(io::Error::other("is a folder")),
            _ => 0o644,
        };
        st.entries.insert(target, Entry::File { bytes: bytes.to_vec(), mode, modified });
        Ok(())
    }
    fn set_mode(&self, path: &Path, new_mode: u32) -> io::Result<()> {
        let mut st = self.lock();
        let path = normalize(path);
        self.enter(&mut st, FsOp::SetMode, &path)?;
        let target = resolve(&st, &path)?;
        match st.entries.get_mut(&target) {
            Some(Entry::File { mode, .. }) => {
                *mode = new_mode;
                Ok(())
            }
            _ => Err(not_found(&path)),
        }
    }
    fn sync_file(&self, path: &Path) -> io::Result<()> {
        let mut st = self.lock();
        let path = normalize(path);
        self.enter(&mut st, FsOp::SyncFile, &path)?;
        let target = resolve(&st, &path)?;
        if st.entries.contains_key(&target) {
            Ok(())
        } else {
            Err(not_found(&path))
        }
    }
    fn rename(&self, from: &Path, to: &Path) -> io::Result<()> {
        let mut st = self.lock();
        let (from, to) = (normalize(from), normalize(to));
        self.enter(&mut st, FsOp::Rename, &to)?;
        if !parent_exists(&st, &to) {
            return Err(not_found(&to));
        }
        if matches!(st.entries.get(&to), Some(Entry::Dir)) {
            return Err(io::Error::other("target is a folder"));
        }
        let entry = st.entries.remove(&from).ok_or_else(|| not_found(&from))?;
        st.entries.insert(to, entry);
        Ok(())
    }
    fn sync_dir(&self, dir: &Path) -> io::Result<()> {
        let mut st = self.lock();
        let dir = normalize(dir);
        self.enter(&mut st, FsOp::SyncDir, &dir)
    }
    fn remove(&self, path: &Path) -> io::Result<()> {
        let mut st = self.lock();
        let path = normalize(path);
        self.enter(&mut st, FsOp::Remove, &path)?;
        match st.entries.get(&path) {
            Some(Entry::Dir) => Err(io::Error::other("is a folder")),
            Some(_) => {
                st.entries.remove(&path);
                Ok(())
            }
            None => Err(not_found(&path)),
        }
    }
    fn create_dir_all(&self, path: &Path) -> io::Result<()> {
        let mut st = self.lock();
        let path = normalize(path);
        self.enter(&mut st, FsOp::CreateDir, &path)?;
        add_parents(&mut st, &path);
        match st.entries.get(&path) {
            Some(Entry::Dir) => Ok(()),
            Some(_) => Err(io::Error::new(io::ErrorKind::AlreadyExists, "a file is in the way")),
            None => {
                st.entries.insert(path, Entry::Dir);
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

    #[test]
    fn fake_metadata_and_listing() {
        let fs = FakeFs::new();
        fs.put("/d/b.json", "12345");
        fs.put("/d/a.json", "1");
        fs.mkdir("/d/sub");
        let m1 = fs.metadata(&p("/d/b.json")).expect("meta");
        assert_eq!(m1.size, 5);
        fs.modify("/d/b.json", "123");
        let m2 = fs.metadata(&p("/d/b.json")).expect("meta");
        assert!(m2.modified > m1.modified);
        assert_eq!(fs.read_dir(&p("/d")).expect("ls"), vec![p("/d/a.json"), p("/d/b.json"), p("/d/sub")]);
        assert!(fs.exists(&p("/d/sub")));
        assert!(!fs.exists(&p("/d/c.json")));
        assert!(fs.read(&p("/d/c.json")).is_err());
    }

    #[test]
    fn fake_failures_can_skip_calls() {
        let fs = FakeFs::new();
        fs.put("/a", "x");
        fs.fail_nth(FsOp::Read, 1, io::ErrorKind::PermissionDenied);
        assert!(fs.read(&p("/a")).is_ok());
        assert_eq!(fs.read(&p("/a")).expect_err("fails").kind(), io::ErrorKind::PermissionDenied);
        assert!(fs.read(&p("/a")).is_ok());
    }

    #[test]
    fn real_fs_atomic_write_keeps_mode_and_symlink() {
        let dir = tempfile::tempdir().expect("tempdir");
        let target = dir.path().join("a.json");
        std::fs::write(&target, "old").expect("write");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o600)).expect("chmod");
            let link = dir.path().join("link.json");
            std::os::unix::fs::symlink("a.json", &link).expect("symlink");
            let w = atomic_write(&RealFs, &link, b"new", 0o644).expect("write");
            assert_eq!(w.target, target);
            assert!(std::fs::symlink_metadata(&link).expect("meta").file_type().is_symlink());
            assert_eq!(RealFs.metadata(&target).expect("meta").mode, 0o600);
        }
        #[cfg(not(unix))]
        atomic_write(&RealFs, &target, b"new", 0o644).expect("write");
        assert_eq!(std::fs::read_to_string(&target).expect("read"), "new");
        let names: Vec<_> = RealFs.read_dir(dir.path()).expect("ls");
        assert!(names.iter().all(|p| !p.to_string_lossy().contains("trellis-tmp")));
    }
}
