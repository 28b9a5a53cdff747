//! Help > About: the facts of this build (`crate::app_info`) and where its log is, in one answer.

use serde::Serialize;
use ts_rs::TS;

use crate::{app_info, logging};

/// Help > About.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct AboutInfo {
    pub version: String,
    pub commit: String,
    pub license: String,
    /// The built-in node types' registry and its version (`trellis-builtin 1.0.0`).
    pub builtin_registry: String,
    /// The runtimes whose node types are built in, with the version followed. Empty while the
    /// built-in registry records none.
    pub runtimes: Vec<app_info::RuntimeVersion>,
    pub os: String,
    pub webkitgtk: String,
    /// Where the log file is (Help > Open Log Folder).
    pub log_folder: String,
}

/// What Help > About shows. Async: finding the WebKitGTK version asks the package manager.
#[tauri::command]
pub async fn about(app: tauri::AppHandle) -> AboutInfo {
    AboutInfo {
        version: app_info::VERSION.to_string(),
        commit: app_info::COMMIT.to_string(),
        license: app_info::LICENSE.to_string(),
        builtin_registry: app_info::builtin_registry(),
        runtimes: app_info::runtime_versions(),
        os: app_info::os(),
        webkitgtk: app_info::webkitgtk(),
        log_folder: logging::folder(&app).display().to_string(),
    }
}
