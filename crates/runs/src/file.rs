//! Opening a record by its path: the crate's one door to the file system, so the command line
//! and the app read runs the same way. An SQLite database is opened read-only by SQLite; any
//! other file is read (up to [`crate::read::MAX_BYTES`]) and handed to [`crate::read_bytes`].

use std::io::Read;
use std::path::Path;

use trellis_spec::Diagnostic;

use crate::codes;
use crate::model::ReadRun;
use crate::read::{self, ReadOptions};

fn io_error(path: &Path, e: &std::io::Error) -> Vec<Diagnostic> {
    vec![Diagnostic::error(codes::UNREADABLE, format!("{} cannot be read: {e}", path.display()))]
}

/// Reads the run record at `path`.
pub fn open(path: &Path, options: &ReadOptions) -> Result<ReadRun, Vec<Diagnostic>> {
    let mut file = std::fs::File::open(path).map_err(|e| io_error(path, &e))?;
    let len = file.metadata().map_err(|e| io_error(path, &e))?.len();
    if len > read::MAX_BYTES {
        return Err(vec![read::too_large(len)]);
    }
    let mut bytes = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
    file.by_ref().take(read::MAX_BYTES + 1).read_to_end(&mut bytes).map_err(|e| io_error(path, &e))?;
    if bytes.starts_with(b"SQLite format 3\0") {
        return sqlite(path, options);
    }
    read::read_bytes(&bytes, options)
}

#[cfg(feature = "sqlite")]
fn sqlite(path: &Path, options: &ReadOptions) -> Result<ReadRun, Vec<Diagnostic>> {
    let rows = crate::readers::sqlite::load(path).map_err(|d| vec![d])?;
    read::read_checkpoints(&rows, options)
}

#[cfg(not(feature = "sqlite"))]
fn sqlite(path: &Path, _: &ReadOptions) -> Result<ReadRun, Vec<Diagnostic>> {
    Err(vec![Diagnostic::error(
        codes::UNREADABLE,
        format!("{} is an SQLite database, and this build reads none", path.display()),
    )])
}

/// Whether the file at `path` looks like a run record (its first 64 KB; see
/// [`crate::read::sniff`]). A file that cannot be read is not one.
pub fn looks_like_run(path: &Path) -> bool {
    let Ok(file) = std::fs::File::open(path) else { return false };
    let mut prefix = Vec::with_capacity(1 << 16);
    if file.take(1 << 16).read_to_end(&mut prefix).is_err() {
        return false;
    }
    read::sniff(&prefix)
}
