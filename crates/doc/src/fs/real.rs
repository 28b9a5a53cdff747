//! The operating system's file system behind the [`FileSystem`] trait.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use super::file_system::{parent_dir, FileSystem, Metadata};

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fs::atomic_write;

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
