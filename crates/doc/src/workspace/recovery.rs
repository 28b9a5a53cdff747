//! The recovery journal of unsaved work: entries taken from their documents and written without
//! the workspace, paced by what writing them costs, and restored or discarded at the next start.

use std::collections::HashSet;
use std::path::PathBuf;

use trellis_spec::Diagnostic;

use super::codes;
use super::documents::Workspace;
use crate::document::DocId;
use crate::journal::{Journal, JournalEntry, MIN_INTERVAL_MS};
use crate::session::Session;

/// Rest asked of the editing before a journal write, per millisecond that write costs.
pub const REST_PER_WRITE_MS: u64 = 4;

/// The most rest asked before a journal write.
pub const MAX_REST_MS: u64 = 2_000;

/// The longest a change waits for its journal entry while the editing goes on.
pub const MAX_JOURNAL_DELAY_MS: u64 = 5_000;

/// A journal entry due ([`Workspace::journal_due`]): taken from its document while the
/// workspace was at hand, written without it. Encoding and writing a large document's entry (its
/// text, escaped) takes long; an edit sent meanwhile does not wait for that.
#[derive(Debug)]
pub struct JournalWrite {
    id: DocId,
    revision: u64,
    entry: JournalEntry,
    journal: Journal,
    /// How long taking the entry took.
    take_ms: u64,
}

impl JournalWrite {
    /// Writes the entry; what came of it goes back to [`Workspace::journal_written`].
    pub fn write(self) -> JournalWritten {
        let started = std::time::Instant::now();
        let result = self.journal.write_entry(&self.entry);
        let write_ms = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
        JournalWritten {
            id: self.id,
            revision: self.revision,
            key: self.entry.key,
            written_ms: self.entry.written_ms,
            cost_ms: self.take_ms.saturating_add(write_ms),
            result,
        }
    }
}

/// What came of a [`JournalWrite`].
#[derive(Debug)]
pub struct JournalWritten {
    id: DocId,
    revision: u64,
    key: String,
    written_ms: u64,
    cost_ms: u64,
    result: Result<(), Diagnostic>,
}

impl Workspace {
    /// Writes due journal entries and removes those of documents that became clean, all at
    /// once ([`Workspace::journal_due`], each [`JournalWrite::write`], then
    /// [`Workspace::journal_written`]; the app does the writing without holding the
    /// workspace). Returns problems (a full disk, ...), to show once.
    pub fn tick(&mut self) -> Vec<Diagnostic> {
        let (due, mut problems) = self.journal_due();
        for w in due {
            problems.extend(self.journal_written(w.write()));
        }
        problems
    }

    /// The journal entries due, taken from their documents now, to write afterwards; and the
    /// entries of documents that became clean, removed (with the problems met doing so). The
    /// app calls this on a timer. A document's entry is due at most every
    /// [`MIN_INTERVAL_MS`]; one whose entry is slow to write waits until the editing has
    /// rested [`REST_PER_WRITE_MS`] times that cost (at most [`MAX_REST_MS`]), and at most
    /// [`MAX_JOURNAL_DELAY_MS`] after its first change not journaled.
    pub fn journal_due(&mut self) -> (Vec<JournalWrite>, Vec<Diagnostic>) {
        let now = self.clock.now_ms();
        let mut problems = Vec::new();
        let mut due = Vec::new();
        for (id, session) in &self.docs {
            let Some(js) = self.journal_state.get_mut(id) else { continue };
            if !session.is_dirty() {
                if js.on_disk {
                    match self.journal.remove(&js.key) {
                        Ok(()) => js.on_disk = false,
                        Err(d) => problems.push(d),
                    }
                }
                js.written = None;
                continue;
            }
            if js.written == Some(session.revision()) {
                js.pending_since_ms = None;
                continue;
            }
            let since = *js.pending_since_ms.get_or_insert(now);
            if now.saturating_sub(js.written_ms) < MIN_INTERVAL_MS {
                continue;
            }
            // A large document's entry takes long to write:
            // wait until the editing rests for a while in proportion, unless the change has
            // waited too long already. (Only taking the entry holds the workspace.)
            let rest = (js.write_cost_ms * REST_PER_WRITE_MS).min(MAX_REST_MS);
            let resting = now.saturating_sub(session.last_change_ms()) >= rest;
            if !resting && now.saturating_sub(since) < MAX_JOURNAL_DELAY_MS {
                continue;
            }
            let started = std::time::Instant::now();
            let entry = Journal::entry_of(&js.key, session, now);
            due.push(JournalWrite {
                id: *id,
                revision: session.revision(),
                entry,
                journal: self.journal.clone(),
                take_ms: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
            });
        }
        (due, problems)
    }

    /// Records a journal entry written (or not): the problem met, if any. An entry written for
    /// a document closed meanwhile, or under a key it no longer has (Save As), is removed
    /// again; one for a document saved meanwhile is removed at the next tick.
    pub fn journal_written(&mut self, done: JournalWritten) -> Option<Diagnostic> {
        let JournalWritten { id, revision, key, written_ms, cost_ms, result } = done;
        let current = self.journal_state.get_mut(&id).filter(|js| js.key == key);
        let Some(js) = current else {
            return match result {
                Ok(()) => self.journal.remove(&key).err(),
                Err(_) => None,
            };
        };
        match result {
            Ok(()) => {
                js.write_cost_ms = cost_ms;
                js.written = Some(revision);
                js.written_ms = written_ms;
                js.on_disk = true;
                js.pending_since_ms = None;
                None
            }
            Err(d) => Some(d),
        }
    }

    /// Entries left by an earlier run (not those of documents open now).
    pub fn pending_recovery(&self) -> (Vec<JournalEntry>, Vec<Diagnostic>) {
        let open: HashSet<&str> = self.journal_state.values().map(|j| j.key.as_str()).collect();
        let (mut entries, problems) = self.journal.pending();
        entries.retain(|e| !open.contains(e.key.as_str()));
        (entries, problems)
    }

    /// Reopens a journal entry as a dirty document (the entry stays until save or discard).
    pub fn restore(&mut self, key: &str) -> Result<DocId, Vec<Diagnostic>> {
        let entry = self.journal.entry(key).map_err(|d| vec![d])?;
        let path = entry.path.as_ref().map(PathBuf::from);
        if let Some(p) = &path {
            if let Some(open) = self.find_by_path(p) {
                return Err(vec![Diagnostic::error(
                    codes::ALREADY_OPEN,
                    format!("{} is open ({open}); close it before restoring its unsaved work", p.display()),
                )]);
            }
        }
        let registries = self.load_registries(path.as_deref());
        let id = self.next_doc_id();
        let name = path.as_ref().and_then(|p| p.file_name()).map(|n| n.to_string_lossy().into_owned());
        let mut session =
            Session::from_text(id, name.as_deref(), &entry.text, registries, self.clock.clone())?;
        session.mark_restored(path, entry.base_fingerprint.clone(), entry.layout.clone());
        if let Some(text) = entry.pane_text.clone() {
            session.restore_text(text);
        }
        let id = self.insert(session, Some(entry.key.clone()));
        if let Some(js) = self.journal_state.get_mut(&id) {
            js.on_disk = true;
        }
        Ok(id)
    }

    /// Deletes a journal entry without restoring it.
    pub fn discard_recovery(&mut self, key: &str) -> Result<(), Diagnostic> {
        self.journal.remove(key)
    }
}
