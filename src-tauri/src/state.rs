//! The app's state: the trellis-doc workspace (open documents, recent list, recovery journal)
//! behind one lock, and which document the window shows.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, MutexGuard};

use trellis_doc::workspace::Workspace;
use trellis_doc::{DocId, FileSystem, RealFs, SystemClock};

/// The variable that moves the data folder (recovery journal, recent list), for tests.
pub const DATA_DIR_VAR: &str = "TRELLIS_DATA_DIR";

/// Managed by Tauri; shared by commands, the menu, the watcher and the journal timer.
#[derive(Debug)]
pub struct AppState {
    workspace: Mutex<Workspace>,
    /// The document the window shows (the UI says so with `set_active_document`; otherwise
    /// the last one a command touched). Drives the window title.
    active: Mutex<Option<DocId>>,
    /// A Quit is asking about unsaved documents: a second Quit or close waits for it.
    pub quitting: AtomicBool,
    pub data_dir: PathBuf,
    /// The registry editor's undo history (its own, apart from the documents').
    pub registry_history: Mutex<trellis_doc::registry_editor::RegistryHistory>,
}

impl AppState {
    pub fn new(data_dir: PathBuf) -> AppState {
        let fs: Arc<dyn FileSystem> = Arc::new(RealFs);
        let workspace =
            Workspace::new(fs, Arc::new(SystemClock), &data_dir, trellis_doc::discovery::registry_loader());
        AppState {
            workspace: Mutex::new(workspace),
            active: Mutex::new(None),
            quitting: AtomicBool::new(false),
            data_dir,
            registry_history: Mutex::default(),
        }
    }

    /// The workspace. A panic while holding the lock must not lock the user out of their
    /// documents, so a poisoned lock is taken over.
    pub fn ws(&self) -> MutexGuard<'_, Workspace> {
        self.workspace.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn active(&self) -> Option<DocId> {
        *self.active.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub fn set_active(&self, id: Option<DocId>) {
        *self.active.lock().unwrap_or_else(|e| e.into_inner()) = id;
    }
}

/// Where the journal and the recent list live: `TRELLIS_DATA_DIR`, or the platform's app data
/// folder (`~/.local/share/dev.trellis.desktop` on Linux).
pub fn data_dir(app_data_dir: Option<PathBuf>) -> PathBuf {
    data_dir_override().or(app_data_dir).unwrap_or_else(|| std::env::temp_dir().join("trellis"))
}

/// `TRELLIS_DATA_DIR` when it is set: then it also holds what would go to the config and log
/// folders (settings, window state, log files), so a test's app touches nothing of the user's.
pub fn data_dir_override() -> Option<PathBuf> {
    std::env::var_os(DATA_DIR_VAR).filter(|v| !v.is_empty()).map(PathBuf::from)
}
