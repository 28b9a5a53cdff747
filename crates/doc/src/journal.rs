//! The recovery journal: unsaved work of every open document, written (atomically) into the
//! user's data folder shortly after each change, so a crash loses at most about a second (a
//! few seconds for a document so large that writing its entry takes long: the workspace waits
//! for the editing to rest before writing it, see [`crate::workspace::Workspace::tick`]).
//! After a crash the next start lists [`Journal::pending`] entries and offers to restore them.
//! An entry is removed when its document is saved, becomes clean, or is discarded.
//!
//! Work that cannot be saved yet (it has errors) is journaled like any other: the journal
//! stores the format writer's text, which holds any document the model holds.
//!
//! The journal is driven by a tick ([`crate::workspace::Workspace::tick`]) that the app calls
//! every ~250 ms: a document changed since its last entry is written when its previous entry
//! is at least [`MIN_INTERVAL_MS`] old, so an edit reaches disk within a tick plus that.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use trellis_spec::{json, Diagnostic};
use ts_rs::TS;

use crate::document::DocFormat;
use crate::fingerprint::Fingerprint;
use crate::fs::{atomic_write, FileSystem};
use crate::layout::Layout;
use crate::session::Session;

/// Diagnostic codes of the journal.
pub mod codes {
    /// A journal entry could not be written (the message says why); retried on the next tick.
    pub const WRITE_FAILED: &str = "doc/journal-write-failed";
    /// A journal file could not be read; it is left in place and skipped.
    pub const BAD_ENTRY: &str = "doc/journal-bad-entry";
    /// No journal entry with that key.
    pub const NO_ENTRY: &str = "doc/journal-no-entry";
}

/// Minimum time between two entries of one document (rate limit while typing).
pub const MIN_INTERVAL_MS: u64 = 500;

/// The entry format version.
pub const JOURNAL_VERSION: u32 = 1;

/// One document's unsaved work.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct JournalEntry {
    pub version: u32,
    /// Stable name of the entry (file name without `.json`).
    pub key: String,
    /// The document's file, or `null` for an untitled document.
    #[ts(type = "string | null")]
    pub path: Option<String>,
    pub title: String,
    pub format: DocFormat,
    /// When the entry was written (milliseconds since the Unix epoch).
    #[ts(type = "number")]
    pub written_ms: u64,
    /// The document as its format's writer makes it.
    pub text: String,
    pub layout: Layout,
    /// The file's fingerprint the work was based on: a save after restoring still detects
    /// that someone else changed the file meanwhile.
    pub base_fingerprint: Option<Fingerprint>,
    /// The work has errors (it could not have been saved).
    pub has_errors: bool,
    /// The text pane's text when it is not `text`: typed in the user's own form, or not
    /// reading (then `text` is the last text that read). Restored into the pane.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub pane_text: Option<String>,
}

/// The journal folder and its writer.
#[derive(Debug, Clone)]
pub struct Journal {
    fs: Arc<dyn FileSystem>,
    dir: PathBuf,
}

impl Journal {
    /// A journal in `data_dir/journal` (created on first write).
    pub fn new(fs: Arc<dyn FileSystem>, data_dir: &Path) -> Journal {
        Journal { fs, dir: data_dir.join("journal") }
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The key of a document's entry: from its path (so reopening the file finds its work),
    /// or from the document id and a start time for an untitled one.
    pub fn key_for(path: Option<&Path>, untitled_seed: &str) -> String {
        match path {
            Some(p) => {
                let hash = blake3::hash(p.to_string_lossy().as_bytes()).to_hex();
                let stem: String = p
                    .file_stem()
                    .map(|s| {
                        s.to_string_lossy()
                            .chars()
                            .filter(|c| c.is_alphanumeric() || *c == '-' || *c == '_')
                            .take(40)
                            .collect()
                    })
                    .unwrap_or_default();
                format!("{stem}-{}", &hash[..16])
            }
            None => format!("untitled-{untitled_seed}"),
        }
    }

    fn file(&self, key: &str) -> PathBuf {
        self.dir.join(format!("{key}.json"))
    }

    /// Writes the session's current work under `key`.
    pub fn write(&self, key: &str, session: &Session, now_ms: u64) -> Result<(), Diagnostic> {
        self.write_entry(&Journal::entry_of(key, session, now_ms))
    }

    /// The entry of the session's current work under `key` (its text: the document written
    /// out), to write with [`Journal::write_entry`] once the session is no longer at hand.
    pub fn entry_of(key: &str, session: &Session, now_ms: u64) -> JournalEntry {
        JournalEntry {
            version: JOURNAL_VERSION,
            key: key.to_owned(),
            path: session.path().map(|p| p.display().to_string()),
            title: session.info().title,
            format: session.format(),
            written_ms: now_ms,
            text: session.text(),
            layout: session.layout().clone(),
            base_fingerprint: session.fingerprint().cloned(),
            has_errors: trellis_spec::diagnostic::has_errors(session.diagnostics())
                || session.text_error().is_some(),
            pane_text: session.own_text().map(str::to_owned),
        }
    }

    /// Writes an entry (under its key), replacing the one there.
    pub fn write_entry(&self, entry: &JournalEntry) -> Result<(), Diagnostic> {
        let fail = |m: String| Diagnostic::warning(codes::WRITE_FAILED, m);
        let text = serde_json::to_string(entry)
            .map_err(|e| fail(format!("cannot encode the journal entry: {e}")))?;
        self.fs
            .create_dir_all(&self.dir)
            .map_err(|e| fail(format!("cannot create the journal folder {}: {e}", self.dir.display())))?;
        // Private: the journal may hold work the user has not decided to keep anywhere.
        atomic_write(self.fs.as_ref(), &self.file(&entry.key), text.as_bytes(), 0o600)
            .map(|_| ())
            .map_err(|e| fail(format!("the recovery journal could not be written: {e}")))
    }

    /// Removes an entry (saved, clean, or discarded). A missing entry is fine.
    pub fn remove(&self, key: &str) -> Result<(), Diagnostic> {
        match self.fs.remove(&self.file(key)) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(Diagnostic::warning(
                codes::WRITE_FAILED,
                format!("cannot remove journal entry {key}: {e}"),
            )),
        }
    }

    /// Reads one entry.
    pub fn entry(&self, key: &str) -> Result<JournalEntry, Diagnostic> {
        let path = self.file(key);
        let bytes = self.fs.read(&path).map_err(|e| {
            if e.kind() == std::io::ErrorKind::NotFound {
                Diagnostic::error(codes::NO_ENTRY, format!("there is no recovery entry \"{key}\""))
            } else {
                Diagnostic::error(codes::BAD_ENTRY, format!("cannot read {}: {e}", path.display()))
            }
        })?;
        let value = json::decode_utf8(&bytes).and_then(json::parse).map_err(|d| {
            Diagnostic::warning(
                codes::BAD_ENTRY,
                format!("journal file {} is damaged: {}", path.display(), d.message),
            )
        })?;
        let entry: JournalEntry = serde_json::from_value(value).map_err(|e| {
            Diagnostic::warning(
                codes::BAD_ENTRY,
                format!("journal file {} is not a journal entry: {e}", path.display()),
            )
        })?;
        if entry.version != JOURNAL_VERSION || entry.key != key {
            return Err(Diagnostic::warning(
                codes::BAD_ENTRY,
                format!("journal file {} has version {} or a foreign key", path.display(), entry.version),
            ));
        }
        Ok(entry)
    }

    /// Every restorable entry, oldest first, and problems with damaged ones (left in place).
    pub fn pending(&self) -> (Vec<JournalEntry>, Vec<Diagnostic>) {
        let mut entries = Vec::new();
        let mut problems = Vec::new();
        let files = match self.fs.read_dir(&self.dir) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return (entries, problems),
            Err(e) => {
                problems.push(Diagnostic::warning(
                    codes::BAD_ENTRY,
                    format!("cannot list {}: {e}", self.dir.display()),
                ));
                return (entries, problems);
            }
        };
        for f in files {
            let name = f.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            // Hidden names are temporary files of an interrupted write.
            let Some(key) = name.strip_suffix(".json").filter(|_| !name.starts_with('.')) else { continue };
            match self.entry(key) {
                Ok(e) => entries.push(e),
                Err(d) => problems.push(d),
            }
        }
        entries.sort_by_key(|e| e.written_ms);
        (entries, problems)
    }
}
