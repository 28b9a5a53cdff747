//! Saving an open document to its file or to a new path; afterwards its journal entry goes and
//! its subgraph references are resolved again.

use std::path::Path;

use super::documents::{unknown, Workspace};
use crate::document::DocId;
use crate::save::{self, SaveOutcome, SaveRefused};

impl Workspace {
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

    pub(super) fn after_save(&mut self, id: DocId) {
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
}
