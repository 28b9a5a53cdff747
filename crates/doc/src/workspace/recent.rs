//! The recent-files list (`recent.json` in the data folder), most recent first.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use trellis_spec::{json, Diagnostic};

use super::codes;
use super::documents::Workspace;
use crate::document::DocId;
use crate::fs::atomic_write;

/// Most entries in the recent-files list.
pub const RECENT_LIMIT: usize = 12;

#[derive(Serialize, Deserialize)]
struct RecentFile {
    version: u32,
    paths: Vec<PathBuf>,
}

impl Workspace {
    pub(super) fn recent_path(&self) -> PathBuf {
        self.data_dir.join("recent.json")
    }

    pub(super) fn load_recent(&self) -> Option<Vec<PathBuf>> {
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

    pub(super) fn push_recent(&mut self, path: &Path) {
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

    pub(super) fn save_recent(&self) -> Result<(), Diagnostic> {
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
}
