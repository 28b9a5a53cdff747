//! The app's settings that decide validity (`settings.json` in the data folder: the accepted
//! Weaveflow version), and the registries in force for a document with them.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use trellis_spec::{json, Diagnostic};

use super::codes;
use super::documents::Workspace;
use super::outside::DocEvent;
use crate::document::DocId;
use crate::fs::atomic_write;
use crate::registries::Registries;

/// `settings.json` in the data folder: the app's settings that decide validity.
#[derive(Serialize, Deserialize, Default)]
pub(super) struct Settings {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) weaveflow_version: Option<String>,
}

impl Workspace {
    /// The registries for a document at `path`, with the app's settings that decide validity.
    pub(super) fn load_registries(&self, path: Option<&Path>) -> Registries {
        let mut registries = (self.loader)(self.fs.as_ref(), path);
        registries.weaveflow_version = self.weaveflow_version.clone();
        registries
    }

    pub(super) fn settings_path(&self) -> PathBuf {
        self.data_dir.join("settings.json")
    }

    pub(super) fn load_settings(&self) -> Option<Settings> {
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
