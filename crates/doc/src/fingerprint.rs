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
        Fingerprint::hashed(bytes.len() as u64, &blake3::hash(bytes), meta)
    }
    fn hashed(size: u64, hash: &blake3::Hash, meta: Option<&Metadata>) -> Fingerprint {
        Fingerprint {
            size,
            modified_ms: meta
                .and_then(|m| m.modified)
                .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
                .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX)),
            hash: hash.to_hex().to_string(),
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
    /// The file's fingerprint now, its content read in pieces and not kept; `Ok(None)` when it
    /// does not exist.
    pub fn current(fs: &dyn FileSystem, path: &Path) -> std::io::Result<Option<Fingerprint>> {
        Ok(Fingerprint::streamed(fs, path, |_, _| {})?.map(|(fp, _)| fp))
    }
    /// Reads the file back after a write: its fingerprint, and whether it holds exactly
    /// `expected` (compared piece by piece as read, no copy kept); `Ok(None)` when it is gone.
    pub fn read_back(
        fs: &dyn FileSystem,
        path: &Path,
        expected: &[u8],
    ) -> std::io::Result<Option<(Fingerprint, bool)>> {
        let mut same = true;
        let streamed = Fingerprint::streamed(fs, path, |at, piece| {
            same = same && expected.get(at..at + piece.len()) == Some(piece);
        })?;
        Ok(streamed.map(|(fp, size)| (fp, same && size == expected.len())))
    }
    /// Metadata, then the content in pieces to the hash and to `each` (with its offset).
    fn streamed(
        fs: &dyn FileSystem,
        path: &Path,
        mut each: impl FnMut(usize, &[u8]),
    ) -> std::io::Result<Option<(Fingerprint, usize)>> {
        let missing = |e: &std::io::Error| e.kind() == std::io::ErrorKind::NotFound;
        let meta = match fs.metadata(path) {
            Ok(m) => m,
            Err(e) if missing(&e) => return Ok(None),
            Err(e) => return Err(e),
        };
        let mut hasher = blake3::Hasher::new();
        let mut size = 0;
        let read = fs.read_chunks(path, &mut |piece| {
            hasher.update(piece);
            each(size, piece);
            size += piece.len();
        });
        match read {
            Ok(()) => Ok(Some((Fingerprint::hashed(size as u64, &hasher.finalize(), Some(&meta)), size))),
            Err(e) if missing(&e) => Ok(None),
            Err(e) => Err(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fs::RealFs;

    /// A file of several read pieces (256 KiB each) whose bytes are not all alike.
    fn content(len: usize) -> Vec<u8> {
        (0..len).map(|i| (i * 7 % 251) as u8).collect()
    }

    #[test]
    fn a_fingerprint_read_in_pieces_is_the_one_of_the_whole_content() {
        let dir = tempfile::tempdir().expect("tmp");
        let path = dir.path().join("large.json");
        let bytes = content(1_000_000);
        std::fs::write(&path, &bytes).expect("write");
        let (whole, read) = Fingerprint::read(&RealFs, &path).expect("reads").expect("exists");
        assert_eq!(read, bytes);
        let current = Fingerprint::current(&RealFs, &path).expect("reads").expect("exists");
        assert_eq!(current, whole);
        assert_eq!(Fingerprint::current(&RealFs, &dir.path().join("gone.json")).expect("no error"), None);
    }

    #[test]
    fn a_read_back_holds_the_expected_bytes_only_when_every_byte_and_the_length_agree() {
        let dir = tempfile::tempdir().expect("tmp");
        let path = dir.path().join("large.json");
        let expected = content(700_000);
        let read_back = |bytes: &[u8]| {
            std::fs::write(&path, bytes).expect("write");
            let (fp, same) =
                Fingerprint::read_back(&RealFs, &path, &expected).expect("reads").expect("exists");
            assert_eq!(fp, Fingerprint::of(bytes, fs_meta(&path).as_ref()));
            same
        };
        assert!(read_back(&expected));
        let mut changed = expected.clone();
        changed[600_000] ^= 1;
        assert!(!read_back(&changed), "a byte in the third piece differs");
        assert!(!read_back(&expected[..expected.len() - 1]), "shorter");
        assert!(!read_back(&[expected.as_slice(), b" "].concat()), "longer");
        assert!(!read_back(b""), "empty");
        std::fs::remove_file(&path).expect("remove");
        assert_eq!(Fingerprint::read_back(&RealFs, &path, &expected).expect("no error"), None);
    }

    fn fs_meta(path: &Path) -> Option<Metadata> {
        RealFs.metadata(path).ok()
    }
}
