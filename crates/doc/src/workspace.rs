//! The set of open documents: what the Tauri commands call. Documents are referred to by
//! [`DocId`]; paths enter only through [`Workspace::open`], [`Workspace::save_as`] and the
//! recent list, which the shell feeds from native dialogs and the command line.
//!
//! The workspace also owns the recent-files list and the recovery journal (both in the data
//! folder the app passes in), and turns file-system changes reported by the watcher into
//! [`DocEvent`]s (reload, conflict, deleted, revalidated).

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use trellis_spec::{json, Diagnostic, GraphSpec};
use ts_rs::TS;

use crate::clock::Clock;
use crate::document::{DocId, Document};
use crate::edit::{Edit, EditOutcome};
use crate::fingerprint::Fingerprint;
use crate::fs::{atomic_write, FileSystem};
use crate::journal::{Journal, JournalEntry, MIN_INTERVAL_MS};
use crate::registries::Registries;
use crate::save::{self, SaveOutcome, SaveRefused};
use crate::session::{self, Conflict, Session, SessionInfo};

/// Diagnostic codes of the workspace.
pub mod codes {
    /// No open document has that id.
    pub const UNKNOWN_DOCUMENT: &str = "doc/unknown-document";
    /// Closing was refused: the document has unsaved changes (ask the user first).
    pub const UNSAVED_CHANGES: &str = "doc/unsaved-changes";
    /// The recent-files list could not be read or written (it is rebuilt).
    pub const RECENT_FAILED: &str = "doc/recent-failed";
    /// A setting was refused (an empty Weaveflow version) or could not be saved.
    pub const SETTINGS_FAILED: &str = "doc/settings-failed";
    /// A recovery entry's document is already open.
    pub const ALREADY_OPEN: &str = "doc/already-open";
    /// Opening was stopped by the user while the document was read or laid out; nothing opened.
    pub const OPEN_CANCELLED: &str = "doc/open-cancelled";
}

/// How far an open has got, for a progress display; see [`Workspace::open_with_progress`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum OpenStage {
    /// Reading, parsing and checking the file (no fraction is known).
    Reading,
    /// Laying out a document that has no layout of its own; the fraction done, in [0, 1].
    LayingOut { nodes: usize, fraction: f64 },
}

/// The built-in example graph offered by New.
pub const EXAMPLE: &str = include_str!("../assets/example.json");

/// Most entries in the recent-files list.
pub const RECENT_LIMIT: usize = 12;

/// Finds the registries in force for a document at `path` (or an untitled one): the
/// built-in registry plus project registries found beside it (`discovery`). The shell
/// supplies it, so this crate does not fix how registries are found.
pub type RegistryLoader = Arc<dyn Fn(&dyn FileSystem, Option<&Path>) -> Registries + Send + Sync>;

/// A change the watcher saw: a path, and where it went when it was renamed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FsChange {
    pub path: PathBuf,
    pub renamed_to: Option<PathBuf>,
}

impl FsChange {
    pub fn at(path: impl Into<PathBuf>) -> Self {
        FsChange { path: path.into(), renamed_to: None }
    }
}

/// What happened to an open document because of an outside change. Forwarded to the UI.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[ts(export)]
pub enum DocEvent {
    /// The document was clean and the file changed: it was reloaded (undo brings it back).
    Reloaded { id: DocId, outcome: EditOutcome },
    /// The document is dirty and the file changed: keep mine, take theirs, or compare.
    Conflict { id: DocId, conflict: Conflict },
    /// The file was deleted or moved away: the document stays open and dirty.
    Gone { id: DocId, notice: Diagnostic },
    /// A registry changed: new diagnostics.
    Revalidated { id: DocId, diagnostics: Vec<Diagnostic> },
}

/// Why a close did not happen.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct CloseRefused {
    pub diagnostic: Diagnostic,
}

/// Rest asked of the editing before a journal write, per millisecond that write costs.
pub const REST_PER_WRITE_MS: u64 = 4;
/// The most rest asked before a journal write.
pub const MAX_REST_MS: u64 = 2_000;
/// The longest a change waits for its journal entry while the editing goes on.
pub const MAX_JOURNAL_DELAY_MS: u64 = 5_000;

/// What a journal entry of a document read from `source_len` bytes is expected to cost before
/// one was written: the first change of a large document then waits for the editing to rest as
/// later ones do. Without it the first entry would be taken at the next tick, while the user
/// goes on (and the save that usually follows an edit would wait for the document to be written
/// out).
fn estimated_write_cost_ms(source_len: usize) -> u64 {
    /// Bytes of document text an entry costs per millisecond, as measured in the app.
    const BYTES_PER_MS: usize = 50_000;
    u64::try_from(source_len / BYTES_PER_MS).unwrap_or(u64::MAX)
}

#[derive(Debug, Clone)]
struct JournalState {
    key: String,
    /// Session revision last journaled (None: never).
    written: Option<u64>,
    written_ms: u64,
    /// An entry exists on disk for this key.
    on_disk: bool,
    /// How long the last entry took to take and write (wall time, ms). Taking it (the
    /// document written out) holds the workspace, so an edit arriving then waits.
    write_cost_ms: u64,
    /// When a change not yet journaled was first seen.
    pending_since_ms: Option<u64>,
}

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

/// `settings.json` in the data folder: the app's settings that decide validity.
#[derive(Serialize, Deserialize, Default)]
struct Settings {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    weaveflow_version: Option<String>,
}

#[derive(Serialize, Deserialize)]
struct RecentFile {
    version: u32,
    paths: Vec<PathBuf>,
}

/// The open documents.
pub struct Workspace {
    fs: Arc<dyn FileSystem>,
    clock: Arc<dyn Clock>,
    data_dir: PathBuf,
    loader: RegistryLoader,
    docs: IndexMap<DocId, Session>,
    journal: Journal,
    journal_state: HashMap<DocId, JournalState>,
    recent: Vec<PathBuf>,
    next_id: u64,
    /// Distinguishes untitled journal keys across runs.
    start_ms: u64,
    /// The accepted Weaveflow `version` (`settings.json` in the data folder); `None`: "1.0".
    weaveflow_version: Option<String>,
}

impl std::fmt::Debug for Workspace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Workspace")
            .field("data_dir", &self.data_dir)
            .field("docs", &self.docs.keys().collect::<Vec<_>>())
            .field("recent", &self.recent)
            .finish_non_exhaustive()
    }
}

fn unknown(id: DocId) -> Diagnostic {
    Diagnostic::error(codes::UNKNOWN_DOCUMENT, format!("no open document {id}"))
}

/// What [`Workspace::begin_open`] found.
#[derive(Debug)]
pub enum Begun {
    /// The file is open already (as this document).
    AlreadyOpen(DocId),
    /// The file was read: see [`Opening`] (boxed: a session is large, a document id small).
    Read(Box<Opening>),
}

/// A document read for opening, not yet checked (its findings are those of reading only) and
/// not yet in the workspace: shown as it is ([`Opening::session`]), checked apart
/// ([`Opening::check`]), then added by [`Workspace::finish_open`].
pub struct Opening {
    session: Session,
    checked: bool,
}

impl std::fmt::Debug for Opening {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Opening").field("id", &self.session.id()).field("checked", &self.checked).finish()
    }
}

impl Opening {
    /// The document as read.
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// Runs the one validator on the document (once), and learns whether its text is in
    /// canonical form (`Session::learn_source_form`).
    pub fn check(&mut self) {
        if !self.checked {
            self.session.revalidate();
            self.session.learn_source_form();
            self.checked = true;
        }
    }
}

/// What [`Workspace::start_open`] found.
#[derive(Debug)]
pub enum Starting {
    /// The file is open already (as this document).
    AlreadyOpen(DocId),
    /// Ready to be read: see [`OpenStart::read`].
    Ready(OpenStart),
}

/// An open taken from the workspace, to read and lay out without it.
pub struct OpenStart {
    path: PathBuf,
    fs: Arc<dyn FileSystem>,
    registries: Registries,
    id: DocId,
    clock: Arc<dyn Clock>,
}

impl std::fmt::Debug for OpenStart {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OpenStart").field("path", &self.path).field("id", &self.id).finish()
    }
}

impl OpenStart {
    /// Reads the file and lays out a document that has no layout of its own, telling
    /// `progress` where it is; `progress` answers whether to go on. Stopped, nothing is
    /// opened and the answer is a `doc/open-cancelled` diagnostic.
    pub fn read(self, progress: &mut dyn FnMut(OpenStage) -> bool) -> Result<Box<Opening>, Vec<Diagnostic>> {
        let path = self.path.as_path();
        let cancelled = || {
            let name = path.file_name().unwrap_or(path.as_os_str()).to_string_lossy();
            vec![Diagnostic::info(
                codes::OPEN_CANCELLED,
                format!("opening {name} was stopped; nothing was opened"),
            )]
        };
        if !progress(OpenStage::Reading) {
            return Err(cancelled());
        }
        let mut session = Session::read(self.fs.as_ref(), self.id, path, self.registries, self.clock)?;
        let nodes = session.document().node_ids().len();
        // Only a document without a layout of its own is laid out (placing terminals is quick).
        let laid_out = if session.layout_missing() && nodes > 0 {
            progress(OpenStage::LayingOut { nodes, fraction: 0.0 })
                && session.lay_out_if_missing_with(&mut |fraction| {
                    progress(OpenStage::LayingOut { nodes, fraction })
                })
        } else {
            session.lay_out_if_missing_with(&mut |_| true)
        };
        if !laid_out {
            return Err(cancelled());
        }
        // What the subgraph nodes refer to is part of what is shown.
        session.attach_fs(self.fs);
        Ok(Box::new(Opening { session, checked: false }))
    }
}

impl Workspace {
    /// A workspace keeping its recent list and journal in `data_dir`.
    pub fn new(
        fs: Arc<dyn FileSystem>,
        clock: Arc<dyn Clock>,
        data_dir: &Path,
        loader: RegistryLoader,
    ) -> Workspace {
        let journal = Journal::new(fs.clone(), data_dir);
        let start_ms = clock.now_ms();
        let mut w = Workspace {
            fs,
            clock,
            data_dir: data_dir.to_path_buf(),
            loader,
            docs: IndexMap::new(),
            journal,
            journal_state: HashMap::new(),
            recent: Vec::new(),
            next_id: 1,
            start_ms,
            weaveflow_version: None,
        };
        w.recent = w.load_recent().unwrap_or_default();
        w.weaveflow_version = w.load_settings().and_then(|s| s.weaveflow_version);
        w
    }

    pub fn fs(&self) -> &Arc<dyn FileSystem> {
        &self.fs
    }
    pub fn journal(&self) -> &Journal {
        &self.journal
    }

    fn next_doc_id(&mut self) -> DocId {
        let id = DocId(self.next_id);
        self.next_id += 1;
        id
    }

    fn insert(&mut self, mut session: Session, key: Option<String>) -> DocId {
        // Every document enters here or through `insert_placed` (open): one without a layout
        // is laid out now, before the UI's first view of it.
        session.lay_out_if_missing();
        self.insert_placed(session, key)
    }

    /// [`Workspace::insert`] of a session already laid out.
    fn insert_placed(&mut self, mut session: Session, key: Option<String>) -> DocId {
        session.attach_fs(self.fs.clone());
        self.insert_attached(session, key)
    }

    /// [`Workspace::insert_placed`] for a session whose file system is attached already.
    fn insert_attached(&mut self, session: Session, key: Option<String>) -> DocId {
        let id = session.id();
        let key = key.unwrap_or_else(|| self.fresh_key(session.path(), id));
        let on_disk = false;
        let write_cost_ms = estimated_write_cost_ms(session.source_len());
        self.journal_state.insert(
            id,
            JournalState {
                key,
                written: None,
                written_ms: 0,
                on_disk,
                write_cost_ms,
                pending_since_ms: None,
            },
        );
        self.docs.insert(id, session);
        id
    }

    /// A journal key for a document that is not restoring an entry. When an earlier run left
    /// an entry under the natural key (the user opened the file instead of restoring it), a
    /// distinct key is used so that entry stays offered instead of being overwritten.
    fn fresh_key(&self, path: Option<&Path>, id: DocId) -> String {
        let seed = format!("{}-{}-{}", self.start_ms, std::process::id(), id.0);
        let key = Journal::key_for(path, &seed);
        if path.is_some() && self.journal.entry(&key).is_ok() {
            format!("{key}-{seed}")
        } else {
            key
        }
    }

    // ---- documents --------------------------------------------------------------------

    pub fn ids(&self) -> Vec<DocId> {
        self.docs.keys().copied().collect()
    }
    pub fn get(&self, id: DocId) -> Option<&Session> {
        self.docs.get(&id)
    }
    pub fn get_mut(&mut self, id: DocId) -> Option<&mut Session> {
        self.docs.get_mut(&id)
    }
    pub fn session(&self, id: DocId) -> Result<&Session, Diagnostic> {
        self.docs.get(&id).ok_or_else(|| unknown(id))
    }
    fn session_mut(&mut self, id: DocId) -> Result<&mut Session, Diagnostic> {
        self.docs.get_mut(&id).ok_or_else(|| unknown(id))
    }
    pub fn infos(&self) -> Vec<SessionInfo> {
        self.docs.values().map(Session::info).collect()
    }
    /// Documents with unsaved changes (for Quit).
    pub fn dirty(&self) -> Vec<DocId> {
        self.docs.values().filter(|s| s.is_dirty()).map(Session::id).collect()
    }

    /// The open document for `path`, by path or by the file it resolves to.
    pub fn find_by_path(&self, path: &Path) -> Option<DocId> {
        let canon = self.fs.canonicalize(path).ok();
        self.docs.values().find_map(|s| {
            let p = s.path()?;
            let same = p == path || (canon.is_some() && self.fs.canonicalize(p).ok() == canon);
            same.then(|| s.id())
        })
    }

    /// Opens a file (or focuses it when already open).
    pub fn open(&mut self, path: &Path) -> Result<DocId, Vec<Diagnostic>> {
        self.open_with_progress(path, &mut |_| true)
    }

    /// [`Workspace::open`] telling `progress` where it is; `progress` answers whether to go on.
    /// A large file without a layout spends seconds being read and laid out, and the user may
    /// stop it: then nothing is opened, the recent list is unchanged, and the answer is a
    /// `doc/open-cancelled` diagnostic.
    pub fn open_with_progress(
        &mut self,
        path: &Path,
        progress: &mut dyn FnMut(OpenStage) -> bool,
    ) -> Result<DocId, Vec<Diagnostic>> {
        match self.begin_open(path, progress)? {
            Begun::AlreadyOpen(id) => Ok(id),
            Begun::Read(opening) => Ok(self.finish_open(opening)),
        }
    }

    /// The first step of an open in two: the file read and laid out, not yet checked and not
    /// yet in the workspace ([`Opening`]), or the document already open for `path`. An app
    /// shows a large document while it is checked: the checks need no workspace, so they run
    /// apart, and [`Workspace::finish_open`] adds the document.
    pub fn begin_open(
        &mut self,
        path: &Path,
        progress: &mut dyn FnMut(OpenStage) -> bool,
    ) -> Result<Begun, Vec<Diagnostic>> {
        match self.start_open(path) {
            Starting::AlreadyOpen(id) => Ok(Begun::AlreadyOpen(id)),
            Starting::Ready(start) => Ok(Begun::Read(start.read(progress)?)),
        }
    }

    /// What an open needs of the workspace, taken at once: the shell then reads and lays the
    /// file out ([`OpenStart::read`]) without holding the workspace, so the window goes on
    /// answering while a large file opens, and adds it with [`Workspace::finish_open`].
    pub fn start_open(&mut self, path: &Path) -> Starting {
        if let Some(id) = self.find_by_path(path) {
            return Starting::AlreadyOpen(id);
        }
        let registries = self.load_registries(Some(path));
        let id = self.next_doc_id();
        Starting::Ready(OpenStart {
            path: path.to_path_buf(),
            fs: self.fs.clone(),
            registries,
            id,
            clock: self.clock.clone(),
        })
    }

    /// The last step of an open in two ([`Workspace::begin_open`]): the document checked (if
    /// [`Opening::check`] was not called), added, and first in the recent list. A file opened
    /// meanwhile by another way in (read without the workspace) is not opened twice.
    pub fn finish_open(&mut self, mut opening: Box<Opening>) -> DocId {
        if let Some(id) = opening.session.path().and_then(|p| self.find_by_path(p)) {
            return id;
        }
        opening.check();
        if let Some(path) = opening.session.path().map(Path::to_path_buf) {
            self.push_recent(&path);
        }
        self.insert_attached(opening.session, None)
    }

    /// A new untitled document from the built-in example.
    pub fn new_from_example(&mut self) -> Result<DocId, Vec<Diagnostic>> {
        let registries = self.load_registries(None);
        let id = self.next_doc_id();
        let session = Session::from_text(id, None, EXAMPLE, registries, self.clock.clone())?;
        Ok(self.insert(session, None))
    }

    /// Import: a file's text (format detected) converted to `to` and opened as a new untitled
    /// document that is unsaved, so the user saves it explicitly. What the conversion lost is
    /// shown as notices on it and returned.
    pub fn import(
        &mut self,
        file_name: Option<&str>,
        text: &str,
        to: session::DocFormat,
    ) -> Result<(DocId, Vec<Diagnostic>), Vec<Diagnostic>> {
        let id = self.next_doc_id();
        let source = self.load_registries(None);
        let read = Session::from_text(id, file_name, text, source, self.clock.clone())?;
        let converted = crate::formats::convert::convert_document(read.document(), to);
        let mut imported = if converted.format == read.format() {
            read
        } else {
            let registries = self.load_registries(None);
            Session::from_text(id, None, &converted.text, registries, self.clock.clone())?
        };
        imported.forced_dirty = true;
        imported.notices.extend(converted.losses.iter().cloned());
        Ok((self.insert(imported, None), converted.losses))
    }

    /// A new, empty, untitled document.
    pub fn new_empty(&mut self) -> DocId {
        let registries = self.load_registries(None);
        let id = self.next_doc_id();
        let session =
            Session::new(id, Document::GraphSpec(GraphSpec::default()), registries, self.clock.clone());
        self.insert(session, None)
    }

    /// Closes a document. A dirty one is refused unless `discard` (the user chose not to
    /// save): then its unsaved work is discarded, journal entry included.
    pub fn close(&mut self, id: DocId, discard: bool) -> Result<(), CloseRefused> {
        let session = self.docs.get(&id).ok_or_else(|| CloseRefused { diagnostic: unknown(id) })?;
        if session.is_dirty() && !discard {
            return Err(CloseRefused {
                diagnostic: Diagnostic::warning(
                    codes::UNSAVED_CHANGES,
                    format!("{} has unsaved changes", session.info().title),
                ),
            });
        }
        self.docs.shift_remove(&id);
        if let Some(js) = self.journal_state.remove(&id) {
            let _ = self.journal.remove(&js.key);
        }
        Ok(())
    }

    // ---- editing ----------------------------------------------------------------------

    pub fn apply(&mut self, id: DocId, edit: &Edit) -> Result<EditOutcome, Diagnostic> {
        let session = self.session_mut(id)?;
        crate::text::check_edit(session, edit)?;
        session.apply(edit)
    }
    /// An edit, undo or redo, answered as what changed in the document's view.
    pub fn answer(
        &mut self,
        id: DocId,
        change: crate::delta::Change<'_>,
    ) -> Result<crate::delta::ViewDelta, Diagnostic> {
        self.session_mut(id)?.answer(change)
    }
    pub fn undo(&mut self, id: DocId) -> Result<EditOutcome, Diagnostic> {
        Ok(self.session_mut(id)?.undo())
    }
    pub fn redo(&mut self, id: DocId) -> Result<EditOutcome, Diagnostic> {
        Ok(self.session_mut(id)?.redo())
    }

    // ---- subgraphs --------------------------------------------------------------------

    /// Resolves a document's subgraph references again (the files they name may have
    /// appeared, changed or gone). Answers whether its view changed.
    pub fn refresh_subgraphs(&mut self, id: DocId) -> Result<bool, Diagnostic> {
        Ok(self.session_mut(id)?.refresh_subgraphs(true))
    }

    /// Opens the document a subgraph node refers to (or focuses it when already open). A
    /// reference that does not resolve is refused with the node's own message.
    pub fn open_subgraph(&mut self, id: DocId, node: &str) -> Result<DocId, Vec<Diagnostic>> {
        let session = self.session_mut(id).map_err(|d| vec![d])?;
        session.refresh_subgraphs(true);
        let Some(link) = session.subgraph_links().iter().find(|l| l.node == node) else {
            return Err(vec![Diagnostic::error(
                crate::subgraphs::codes::NOT_OPENABLE,
                format!("node \"{node}\" is not a subgraph node that names a graph"),
            )]);
        };
        match (&link.path, &link.problem) {
            (Some(path), _) if link.openable() => {
                let path = PathBuf::from(path);
                self.open(&path)
            }
            (_, Some(p)) => Err(vec![Diagnostic::new(&p.code, p.severity, p.message.clone()).on_node(node)]),
            _ => Err(vec![Diagnostic::error(
                crate::subgraphs::codes::NOT_OPENABLE,
                format!("subgraph node \"{node}\" names no graph to open"),
            )]),
        }
    }

    // ---- saving -----------------------------------------------------------------------

    /// Saves to the document's file. On success its journal entry is cleared.
    pub fn save(&mut self, id: DocId) -> Result<SaveOutcome, SaveRefused> {
        let fs = self.fs.clone();
        let session = self
            .docs
            .get_mut(&id)
            .ok_or_else(|| SaveRefused { diagnostics: vec![unknown(id)], conflict: false })?;
        let outcome = save::save(fs.as_ref(), session)?;
        self.after_save(id);
        Ok(outcome)
    }

    /// Saves to a new path; the document then refers to it (and to the registries in force
    /// there).
    pub fn save_as(&mut self, id: DocId, path: &Path) -> Result<SaveOutcome, SaveRefused> {
        let fs = self.fs.clone();
        let session = self
            .docs
            .get_mut(&id)
            .ok_or_else(|| SaveRefused { diagnostics: vec![unknown(id)], conflict: false })?;
        let outcome = save::save_as(fs.as_ref(), session, path)?;
        let registries = self.load_registries(Some(path));
        if let Some(s) = self.docs.get_mut(&id) {
            s.set_registries(registries);
        }
        // The entry key follows the path.
        let key = self.fresh_key(Some(path), id);
        if let Some(js) = self.journal_state.get_mut(&id) {
            let _ = self.journal.remove(&js.key);
            js.key = key;
        }
        self.push_recent(path);
        self.after_save(id);
        Ok(outcome)
    }

    fn after_save(&mut self, id: DocId) {
        // The folder may be new (Save as), and the files it names may have appeared.
        if let Some(s) = self.docs.get_mut(&id) {
            s.refresh_subgraphs(true);
        }
        if let Some(js) = self.journal_state.get_mut(&id) {
            if self.journal.remove(&js.key).is_ok() {
                js.on_disk = false;
            }
            js.written = None;
        }
    }

    /// Keep mine: the next save overwrites the outside change.
    pub fn keep_mine(&mut self, id: DocId) -> Result<SessionInfo, Diagnostic> {
        let s = self.session_mut(id)?;
        s.keep_mine();
        Ok(s.info())
    }

    /// Take theirs: reload the outside version (undoable).
    pub fn take_theirs(&mut self, id: DocId) -> Result<EditOutcome, Vec<Diagnostic>> {
        self.session_mut(id).map_err(|d| vec![d])?.take_theirs()
    }

    // ---- recovery journal -------------------------------------------------------------

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
            // A large document's entry takes long to write (about a second at 100,000 nodes):
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

    // ---- settings ---------------------------------------------------------------------

    /// The registries for a document at `path`, with the app's settings that decide validity.
    fn load_registries(&self, path: Option<&Path>) -> Registries {
        let mut registries = (self.loader)(self.fs.as_ref(), path);
        registries.weaveflow_version = self.weaveflow_version.clone();
        registries
    }

    fn settings_path(&self) -> PathBuf {
        self.data_dir.join("settings.json")
    }

    fn load_settings(&self) -> Option<Settings> {
        let bytes = self.fs.read(&self.settings_path()).ok()?;
        let value = json::decode_utf8(&bytes).and_then(json::parse).ok()?;
        serde_json::from_value(value).ok()
    }

    /// The Weaveflow `version` documents must declare.
    pub fn weaveflow_version(&self) -> &str {
        self.weaveflow_version.as_deref().unwrap_or(trellis_formats::weaveflow::DEFAULT_VERSION)
    }

    /// Sets the accepted Weaveflow `version`, keeps it in `settings.json`, and revalidates
    /// every open document.
    pub fn set_weaveflow_version(&mut self, version: &str) -> Result<Vec<DocEvent>, Diagnostic> {
        let version = version.trim();
        if version.is_empty() {
            return Err(Diagnostic::error(codes::SETTINGS_FAILED, "the Weaveflow version cannot be empty"));
        }
        self.weaveflow_version = Some(version.to_owned());
        let file = Settings { weaveflow_version: self.weaveflow_version.clone() };
        let text = serde_json::to_string_pretty(&file).unwrap_or_default();
        let fail = |m: String| Diagnostic::error(codes::SETTINGS_FAILED, m);
        self.fs
            .create_dir_all(&self.data_dir)
            .map_err(|e| fail(format!("cannot create {}: {e}", self.data_dir.display())))?;
        atomic_write(self.fs.as_ref(), &self.settings_path(), text.as_bytes(), 0o600)
            .map_err(|e| fail(format!("the settings could not be saved: {e}")))?;
        Ok(self.reload_registries())
    }

    // ---- recent files -----------------------------------------------------------------

    fn recent_path(&self) -> PathBuf {
        self.data_dir.join("recent.json")
    }

    fn load_recent(&self) -> Option<Vec<PathBuf>> {
        let bytes = self.fs.read(&self.recent_path()).ok()?;
        let value = json::decode_utf8(&bytes).and_then(json::parse).ok()?;
        let file: RecentFile = serde_json::from_value(value).ok()?;
        Some(file.paths.into_iter().take(RECENT_LIMIT).collect())
    }

    /// Most recent first.
    pub fn recent(&self) -> &[PathBuf] {
        &self.recent
    }

    /// Opens the `index`-th recent file (recent paths are trusted: the user opened them).
    pub fn open_recent(&mut self, index: usize) -> Result<DocId, Vec<Diagnostic>> {
        let path = self.recent.get(index).cloned().ok_or_else(|| {
            vec![Diagnostic::error(codes::RECENT_FAILED, format!("there is no recent file {index}"))]
        })?;
        self.open(&path)
    }

    fn push_recent(&mut self, path: &Path) {
        self.recent.retain(|p| p != path);
        self.recent.insert(0, path.to_path_buf());
        self.recent.truncate(RECENT_LIMIT);
        let _ = self.save_recent();
    }

    /// Empties the recent list.
    pub fn clear_recent(&mut self) -> Result<(), Diagnostic> {
        self.recent.clear();
        self.save_recent()
    }

    fn save_recent(&self) -> Result<(), Diagnostic> {
        let file = RecentFile { version: 1, paths: self.recent.clone() };
        let text = serde_json::to_string_pretty(&file).unwrap_or_default();
        let fail = |m: String| Diagnostic::warning(codes::RECENT_FAILED, m);
        self.fs
            .create_dir_all(&self.data_dir)
            .map_err(|e| fail(format!("cannot create {}: {e}", self.data_dir.display())))?;
        atomic_write(self.fs.as_ref(), &self.recent_path(), text.as_bytes(), 0o600)
            .map(|_| ())
            .map_err(|e| fail(format!("the recent-files list could not be saved: {e}")))
    }

    // ---- outside changes --------------------------------------------------------------

    /// The files the watcher must watch: every open document's path (and the file it
    /// resolves to when it is a link) and every registry file in force.
    pub fn watched_paths(&self) -> Vec<PathBuf> {
        let mut out: Vec<PathBuf> = Vec::new();
        let mut push = |p: PathBuf| {
            if !out.contains(&p) {
                out.push(p);
            }
        };
        for s in self.docs.values() {
            if let Some(p) = s.path() {
                push(p.to_path_buf());
                if let Ok(t) = self.fs.resolve_symlink(p) {
                    push(t);
                }
            }
            for f in &s.registries().files {
                push(f.clone());
            }
            // The graphs its subgraph nodes open: a change there changes what the nodes show.
            for l in s.subgraph_links() {
                if let Some(p) = &l.path {
                    push(PathBuf::from(p));
                }
            }
        }
        out
    }

    /// Turns changes seen by the watcher into document events. Our own saves are recognized
    /// by fingerprint and produce nothing.
    pub fn handle_fs_changes(&mut self, changes: &[FsChange]) -> Vec<DocEvent> {
        let mut events = Vec::new();
        let ids: Vec<DocId> = self.docs.keys().copied().collect();
        for id in ids {
            let Some(session) = self.docs.get(&id) else { continue };
            let Some(path) = session.path().map(Path::to_path_buf) else { continue };
            let target = self.fs.resolve_symlink(&path).unwrap_or_else(|_| path.clone());
            let hit = changes.iter().find(|c| c.path == path || c.path == target);
            if let Some(change) = hit {
                if let Some(e) = self.check_file(id, &path, change.renamed_to.as_deref()) {
                    events.push(e);
                }
            }
            let registry_changed = changes.iter().any(|c| self.is_registry_change(id, &c.path));
            if registry_changed {
                let registries = self.load_registries(Some(&path));
                if let Some(s) = self.docs.get_mut(&id) {
                    let diagnostics = s.set_registries(registries).to_vec();
                    events.push(DocEvent::Revalidated { id, diagnostics });
                }
            }
            if self.is_subgraph_change(id, &path, changes) {
                if let Some(s) = self.docs.get_mut(&id) {
                    if s.refresh_subgraphs(true) {
                        events.push(DocEvent::Revalidated { id, diagnostics: s.diagnostics().to_vec() });
                    }
                }
            }
        }
        events
    }

    /// A change that may change what the document's subgraph nodes show: a file appearing or
    /// going in the document's folder (where most references point) or in the folder of a
    /// graph a node opens, or that graph itself changing.
    fn is_subgraph_change(&self, id: DocId, path: &Path, changes: &[FsChange]) -> bool {
        let Some(s) = self.docs.get(&id) else { return false };
        let links = s.subgraph_links();
        if links.is_empty() {
            return false;
        }
        let home = crate::fs::parent_dir(path);
        let mut folders: Vec<PathBuf> = vec![home];
        folders.extend(
            links.iter().filter_map(|l| l.path.as_deref()).map(|p| crate::fs::parent_dir(Path::new(p))),
        );
        changes.iter().any(|c| {
            std::iter::once(&c.path)
                .chain(c.renamed_to.as_ref())
                .any(|p| p != path && folders.contains(&crate::fs::parent_dir(p)))
        })
    }

    fn is_registry_change(&self, id: DocId, changed: &Path) -> bool {
        let Some(s) = self.docs.get(&id) else { return false };
        if s.registries().files.iter().any(|f| f == changed) {
            return true;
        }
        // A new registry file beside the document or in a folder above it.
        let is_registry =
            changed.file_name().is_some_and(|n| n.to_string_lossy().ends_with(".registry.json"));
        let in_scope = match (s.path().and_then(Path::parent), changed.parent()) {
            (Some(doc_dir), Some(dir)) => doc_dir.starts_with(dir),
            _ => false,
        };
        is_registry && in_scope
    }

    /// Compares the file with the document's fingerprint and reacts.
    fn check_file(&mut self, id: DocId, path: &Path, renamed_to: Option<&Path>) -> Option<DocEvent> {
        let current = Fingerprint::read(self.fs.as_ref(), path);
        let session = self.docs.get_mut(&id)?;
        match current {
            Ok(None) => {
                let already = session
                    .notices()
                    .iter()
                    .any(|n| n.code == session::codes::FILE_DELETED || n.code == session::codes::FILE_MOVED);
                if already {
                    return None;
                }
                let notice = match renamed_to {
                    Some(to) => Diagnostic::warning(
                        session::codes::FILE_MOVED,
                        format!(
                            "{} was moved to {} outside Trellis; this document stays open with unsaved changes (Save writes it back at its old place; use Save As to choose)",
                            path.display(),
                            to.display()
                        ),
                    ),
                    None => Diagnostic::warning(
                        session::codes::FILE_DELETED,
                        format!(
                            "{} was deleted outside Trellis; this document stays open with unsaved changes (Save writes it again)",
                            path.display()
                        ),
                    ),
                };
                session.mark_gone(notice.clone());
                Some(DocEvent::Gone { id, notice })
            }
            Ok(Some((fp, bytes))) => {
                if session.fingerprint().is_some_and(|known| known.same_content(&fp)) {
                    // Our own write, or a touch: nothing to do.
                    return None;
                }
                if session.conflict().is_some_and(|c| c.theirs_fingerprint.same_content(&fp)) {
                    return None;
                }
                if !session.is_dirty() {
                    if let Ok(text) = std::str::from_utf8(&bytes) {
                        if let Ok(outcome) = session.reload_from(text, fp.clone()) {
                            return Some(DocEvent::Reloaded { id, outcome });
                        }
                    }
                }
                // Dirty, or the new text cannot be read: the user decides.
                session.set_conflict(&bytes, fp);
                session.conflict().cloned().map(|conflict| DocEvent::Conflict { id, conflict })
            }
            Err(e) => {
                // Unreadable now (permissions, a folder in its place): say so once; the
                // document stays as it is and a save will report what is wrong.
                let notice = Diagnostic::warning(
                    session::codes::READ_FAILED,
                    format!("{} changed on disk but cannot be read: {e}", path.display()),
                );
                if session.notices().iter().any(|n| n.message == notice.message) {
                    return None;
                }
                session.mark_gone(notice.clone());
                Some(DocEvent::Gone { id, notice })
            }
        }
    }

    /// Reloads the registries of every open document (a registry file changed, or one was
    /// added in the app) and revalidates.
    pub fn reload_registries(&mut self) -> Vec<DocEvent> {
        let mut events = Vec::new();
        let ids: Vec<DocId> = self.docs.keys().copied().collect();
        for id in ids {
            let path = self.docs.get(&id).and_then(|s| s.path().map(Path::to_path_buf));
            let registries = self.load_registries(path.as_deref());
            if let Some(s) = self.docs.get_mut(&id) {
                let diagnostics = s.set_registries(registries).to_vec();
                events.push(DocEvent::Revalidated { id, diagnostics });
            }
        }
        events
    }
}

/// A loader that gives every document the built-in registry only (no project registries).
pub fn builtin_loader() -> RegistryLoader {
    let registry = Arc::new(trellis_spec::builtin::default_registry());
    Arc::new(move |_fs: &dyn FileSystem, _path: Option<&Path>| Registries {
        registry: registry.clone(),
        files: Vec::new(),
        diagnostics: trellis_spec::builtin::manifest_diagnostics().to_vec(),
        weaveflow_version: None,
    })
}
