//! A file's fingerprint: what it looked like when last read or written, so that a later
//! difference (someone else changed it) is seen before anything is overwritten.

use std::path::Path;
use std::time::UNIX_EPOCH;

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::fs::{FileSystem, Metadata};

/// What a file looked like when last read or written: a later difference means someone else
/// changed it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Fingerprint {
    #[ts(type = "number")]
    pub size: u64,
    /// Modification time in milliseconds since the Unix epoch, when known.
    #[ts(type = "number | null")]
    pub modified_ms: Option<u64>,
    /// BLAKE3 of the content, hex.
    pub hash: String,
}

impl Fingerprint {
    pub fn of(bytes: &[u8], meta: Option<&Metadata>) -> Fingerprint {
        Fingerprint {
            size: bytes.len() as u64,
            modified_ms: meta
                .and_then(|m| m.modified)
                .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
                .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX)),
            hash: blake3::hash(bytes).to_hex().to_string(),
        }
    }
    /// Same bytes. The modification time alone does not make a difference: a `touch` or a
    /// coarse-grained clock must not raise a conflict, and equal content cannot lose work.
    pub fn same_content(&self, other: &Fingerprint) -> bool {
        self.size == other.size && self.hash == other.hash
    }
    /// Reads the file and fingerprints it; `Ok(None)` when it does not exist.
    pub fn read(fs: &dyn FileSystem, path: &Path) -> std::io::Result<Option<(Fingerprint, Vec<u8>)>> {
        let meta = match fs.metadata(path) {
            Ok(m) => m,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e),
        };
        let bytes = match fs.read(path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e),
        };
        Ok(Some((Fingerprint::of(&bytes, Some(&meta)), bytes)))
    }
}
