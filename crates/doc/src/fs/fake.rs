//! An in-memory file system for tests ([`FakeFs`]): files, links and folders, a logical clock
//! for modification times, a log of every mutating call, and failures injected at any step.

use std::collections::BTreeMap;
use std::io;
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use super::file_system::{parent_dir, FileSystem, FsOp, Metadata};

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
}
