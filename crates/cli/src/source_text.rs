//! A file's text as the commands hold it: mapped from the file when it is large, read into
//! memory otherwise.
//!
//! Reading a large file costs a fresh buffer of its size, whose pages the kernel zeroes before
//! the file is copied into them; mapping the file hands the page cache over instead, and a
//! document's configs then refer to the map rather than copy their text. The text is checked to
//! be UTF-8 once, when it is mapped, and is then used as any `&str`.
//!
//! This is the one module of the workspace with unsafe code (`main.rs` allows it here only):
//! mapping a file is unsafe in Rust's terms, and so is taking the checked bytes as a `str`
//! without checking them again at every use.
//!
//! What a map gives up, and why that is accepted for a command line (as ripgrep and Git do):
//! the bytes are the file's, so another process truncating the file while a command runs makes
//! the reads past the new end fail with SIGBUS, and one writing into it in place changes the
//! text under the command. Trellis itself never writes a file in place (every write is a new
//! file renamed over the old one, which leaves the mapped bytes as they were), and a command
//! holds a file for a fraction of a second. Small files, standard input and anything that
//! cannot be mapped are read into memory as before.

use std::fmt;
use std::fs::File;
use std::io::{self, Read};
use std::ops::Deref;
use std::path::Path;

use trellis_spec::SharedText;

/// From this size on a file is mapped rather than read (below it, a read is as fast).
const MAP_FROM: u64 = 1 << 20;

/// A document's text: a `String`, or a file's bytes mapped and checked to be UTF-8, held by
/// counted reference ([`SharedText`]: the configs of a document read from it refer to it rather
/// than copy their text). Cloning shares it.
#[derive(Clone)]
pub struct SourceText {
    text: SharedText,
    mapped: bool,
}

/// A file's bytes, mapped, checked to be UTF-8 when mapped.
struct MappedText(memmap2::Mmap);

impl AsRef<str> for MappedText {
    fn as_ref(&self) -> &str {
        // SAFETY: checked to be UTF-8 when mapped (`read_file`), and the map is never written
        // through.
        unsafe { std::str::from_utf8_unchecked(&self.0) }
    }
}

impl SourceText {
    /// The text of the file at `path`, or its bytes when they are not UTF-8 (for the caller to
    /// report where).
    pub fn read_file(path: &Path) -> io::Result<Result<SourceText, Vec<u8>>> {
        let mut file = File::open(path)?;
        let meta = file.metadata()?;
        if meta.is_file() && meta.len() >= MAP_FROM {
            // SAFETY: the map is read only and lives as long as the text; the bytes are the
            // file's, which is sound as long as no other process changes the file meanwhile
            // (see the module comment for why a command line accepts that).
            if let Ok(map) = unsafe { memmap2::Mmap::map(&file) } {
                return Ok(match std::str::from_utf8(&map) {
                    Ok(_) => Ok(SourceText { text: SharedText::new(MappedText(map)), mapped: true }),
                    Err(_) => Err(map.to_vec()),
                });
            }
        }
        let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
        file.read_to_end(&mut bytes)?;
        Ok(String::from_utf8(bytes).map(SourceText::from).map_err(|e| e.into_bytes()))
    }
}

impl From<String> for SourceText {
    fn from(s: String) -> Self {
        SourceText { text: SharedText::from(s), mapped: false }
    }
}

/// The text, shared (and, through it, the `str`).
impl Deref for SourceText {
    type Target = SharedText;
    fn deref(&self) -> &SharedText {
        &self.text
    }
}

impl fmt::Debug for SourceText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let how = if self.mapped { "mapped" } else { "read" };
        write!(f, "SourceText({how}, {} bytes)", self.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file_of(bytes: &[u8]) -> tempfile::NamedTempFile {
        let mut f = tempfile::NamedTempFile::new().expect("temp file");
        std::io::Write::write_all(&mut f, bytes).expect("write");
        f
    }

    #[test]
    fn a_large_file_is_mapped_and_reads_as_its_text() {
        let text = "{\"name\": \"é\"}\n".repeat((MAP_FROM as usize) / 10);
        let f = file_of(text.as_bytes());
        let read = SourceText::read_file(f.path()).expect("io").expect("utf-8");
        assert!(format!("{read:?}").contains("mapped"), "{read:?}");
        assert_eq!(read.as_str(), text.as_str());
        assert_eq!(read.clone().as_str(), text.as_str());
    }

    #[test]
    fn a_small_file_is_read() {
        let f = file_of(b"{}\n");
        let read = SourceText::read_file(f.path()).expect("io").expect("utf-8");
        assert!(format!("{read:?}").contains("read"), "{read:?}");
        assert_eq!(read.as_str(), "{}\n");
    }

    #[test]
    fn bytes_that_are_not_utf8_come_back_as_bytes_mapped_or_read() {
        for size in [16, MAP_FROM as usize + 16] {
            let mut bytes = vec![b' '; size];
            bytes[size - 3] = 0xff;
            let f = file_of(&bytes);
            assert_eq!(SourceText::read_file(f.path()).expect("io").expect_err("not utf-8"), bytes);
        }
    }
}
