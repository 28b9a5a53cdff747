//! The workspace itself: the open documents it holds, how a document enters it (laid out, its
//! file system attached, its journal key chosen), how one is found again, and how it leaves.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use trellis_spec::Diagnostic;
use ts_rs::TS;

use super::codes;
use super::journal_state::{estimated_write_cost_ms, JournalState};
use crate::clock::Clock;
use crate::document::DocId;
use crate::fs::FileSystem;
use crate::journal::Journal;
use crate::registries::Registries;
use crate::session::{Session, SessionInfo};

/// Finds the registries in force for a document at `path` (or an untitled one): the
/// built-in registry plus project registries found beside it (`discovery`). The shell
/// supplies it, so this crate does not fix how registries are found.
pub type RegistryLoader = Arc<dyn Fn(&dyn FileSystem, Option<&Path>) -> Registries + Send + Sync>;

/// Why a close did not happen.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct CloseRefused {
    pub diagnostic: Diagnostic,
}

/// The open documents.
pub struct Workspace {
    pub(super) fs: Arc<dyn FileSystem>,
    pub(super) clock: Arc<dyn Clock>,
    pub(super) data_dir: PathBuf,
    pub(super) loader: RegistryLoader,
    pub(super) docs: IndexMap<DocId, Session>,
    pub(super) journal: Journal,
    pub(super) journal_state: HashMap<DocId, JournalState>,
    pub(super) recent: Vec<PathBuf>,
    pub(super) next_id: u64,
    /// Distinguishes untitled journal keys across runs.
    pub(super) start_ms: u64,
    /// The accepted Weaveflow `version` (`settings.json` in the data folder); `None`: "1.0".
    pub(super) weaveflow_version: Option<String>,
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

pub(super) fn unknown(id: DocId) -> Diagnostic {
    Diagnostic::error(codes::UNKNOWN_DOCUMENT, format!("no open document {id}"))
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

    pub(super) fn next_doc_id(&mut self) -> DocId {
        let id = DocId(self.next_id);
        self.next_id += 1;
        id
    }

    pub(super) fn insert(&mut self, mut session: Session, key: Option<String>) -> DocId {
        // Every document enters here or through `insert_placed` (open): one without a layout
        // is laid out now, before the UI's first view of it.
        session.lay_out_if_missing();
        self.insert_placed(session, key)
    }

    /// [`Workspace::insert`] of a session already laid out.
    pub(super) fn insert_placed(&mut self, mut session: Session, key: Option<String>) -> DocId {
        session.attach_fs(self.fs.clone());
        self.insert_attached(session, key)
    }

    /// [`Workspace::insert_placed`] for a session whose file system is attached already.
    pub(super) fn insert_attached(&mut self, session: Session, key: Option<String>) -> DocId {
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
    pub(super) fn fresh_key(&self, path: Option<&Path>, id: DocId) -> String {
        let seed = format!("{}-{}-{}", self.start_ms, std::process::id(), id.0);
        let key = Journal::key_for(path, &seed);
        if path.is_some() && self.journal.entry(&key).is_ok() {
            format!("{key}-{seed}")
        } else {
            key
        }
    }

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

    pub(super) fn session_mut(&mut self, id: DocId) -> Result<&mut Session, Diagnostic> {
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
