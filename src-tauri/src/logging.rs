//! The log file: what a bug report needs, and nothing of the user's documents.
//!
//! `trellis.log` in the platform's log folder (`~/.local/share/dev.trellis.desktop/logs` on
//! Linux; `<TRELLIS_DATA_DIR>/logs` when that is set, as for tests), written by
//! `tauri-plugin-log`'s logger and rotated by it: at 1 MiB the file is renamed with its date and
//! a new one begins; the five newest old files are kept.
//!
//! It holds the version, the commit, the OS and the WebKitGTK version at each start; each file
//! opened as its format, size in bytes and node count (never its name, path or content); each
//! file that did not open as its extension and the diagnostic code with the line and column;
//! warnings and errors of the app (settings set aside, a journal that cannot be written); and
//! panics with their place. Messages that carry document text (a diagnostic's wording quotes
//! names from the document) are not logged, only their codes.

use std::path::{Path, PathBuf};

use serde::Serialize;
use tauri::{AppHandle, Manager};
use tauri_plugin_log::{RotationStrategy, Target, TargetKind, TimezoneStrategy};
use trellis_doc::{DocFormat, DocId, Workspace};
use trellis_spec::Diagnostic;
use ts_rs::TS;

use crate::app_info;

/// The log file's name (without `.log`).
pub const FILE_STEM: &str = "trellis";
/// A log file is rotated when it reaches this size.
const MAX_BYTES: u128 = 1024 * 1024;
/// How many rotated files are kept beside the current one.
const KEEP: usize = 5;

/// Where the log files are.
pub fn folder(app: &AppHandle) -> PathBuf {
    match crate::state::data_dir_override() {
        Some(dir) => dir.join("logs"),
        None => app
            .path()
            .app_log_dir()
            .unwrap_or_else(|_| crate::state::data_dir(app.path().app_data_dir().ok()).join("logs")),
    }
}

/// The event that tells the window where the log folder is and whether the desktop's file
/// manager was asked to show it (Help > Open Log Folder).
pub const LOG_FOLDER_EVENT: &str = "log-folder";

/// The `log-folder` event's payload.
#[derive(Debug, Clone, Serialize, TS)]
#[ts(export)]
pub struct LogFolder {
    pub path: String,
    /// The desktop's opener took the folder (`xdg-open` or the like was started).
    pub opened: bool,
    /// Why it was not, in a few words.
    pub reason: Option<String>,
}

/// Help > Open Log Folder: asks the desktop to show the folder (`tauri-plugin-opener`), and
/// tells the window the path either way (a desktop without an opener gets the path to copy).
pub fn show_folder(app: &AppHandle) {
    use tauri::Emitter;
    use tauri_plugin_opener::OpenerExt;
    let dir = folder(app);
    let result = std::fs::create_dir_all(&dir).map_err(|e| e.to_string()).and_then(|()| {
        app.opener().open_path(dir.to_string_lossy(), None::<&str>).map_err(|e| e.to_string())
    });
    if let Err(e) = &result {
        log::warn!("the log folder could not be shown: {e}");
    }
    let payload = LogFolder { path: dir.display().to_string(), opened: result.is_ok(), reason: result.err() };
    let _ = app.emit(LOG_FOLDER_EVENT, payload);
}

/// The palette's "Open the log folder" (the menu's is handled in Rust).
#[tauri::command]
pub fn show_log_folder(app: AppHandle) {
    show_folder(&app);
}

/// Starts the log (at setup: the logger needs the app's paths). A log that cannot be opened
/// (a read-only home) is said on stderr; the app runs without it.
pub fn start(app: &AppHandle, file_arguments: usize) {
    let dir = folder(app);
    let builder = tauri_plugin_log::Builder::new()
        .clear_targets()
        .target(Target::new(TargetKind::Folder { path: dir.clone(), file_name: Some(FILE_STEM.into()) }))
        .max_file_size(MAX_BYTES)
        .rotation_strategy(RotationStrategy::KeepSome(KEEP))
        .timezone_strategy(TimezoneStrategy::UseUtc)
        // The app's own records; only warnings and errors of the libraries under it.
        .level(log::LevelFilter::Warn)
        .level_for("trellis_app", log::LevelFilter::Info);
    // `split`: the logger without the plugin's webview command (the page does not log).
    match builder.split(app) {
        Ok((_plugin, level, logger)) => {
            if let Err(e) = tauri_plugin_log::attach_logger(level, logger) {
                eprintln!("trellis: no log file: {e}");
                return;
            }
        }
        Err(e) => {
            eprintln!("trellis: no log file in {}: {e}", dir.display());
            return;
        }
    }
    log_panics();
    log::info!(
        "Trellis {} (commit {}) started with {file_arguments} file argument(s); OS: {}; rendering: {}",
        app_info::VERSION,
        app_info::COMMIT,
        app_info::os(),
        rendering(),
    );
    // Asking the package manager takes a few milliseconds: not on the way to the window.
    let _ = std::thread::Builder::new()
        .name("trellis-log-versions".into())
        .spawn(|| log::info!("WebKitGTK {}", app_info::webkitgtk()));
}

/// How WebKit draws (main.rs's `webkit_env` decides before GTK starts, with this switch).
fn rendering() -> String {
    const SWITCH: &str = "WEBKIT_DISABLE_COMPOSITING_MODE";
    match std::env::var(SWITCH) {
        Ok(v) if v == "1" => "without accelerated compositing".to_string(),
        Ok(v) => format!("{SWITCH}={v}"),
        Err(_) => "WebKit's default".to_string(),
    }
}

/// Panics go to the log with their place (then to the default hook: stderr).
fn log_panics() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let place = info.location().map(|l| format!("{}:{}", l.file(), l.line())).unwrap_or_default();
        let what = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_default();
        log::error!("panic at {place}: {what}");
        previous(info);
    }));
}

/// The name a format is logged by.
fn format_name(format: DocFormat) -> &'static str {
    match format {
        DocFormat::GraphSpec => "GraphSpec",
        DocFormat::Weaveflow => "Weaveflow",
        DocFormat::GraphMd => "GRAPH.md",
    }
}

/// An opened document: its format, its file's size and its node count.
pub fn opened(ws: &Workspace, id: DocId) {
    let Some(session) = ws.get(id) else { return };
    let bytes = session.path().and_then(|p| std::fs::metadata(p).ok()).map(|m| m.len());
    log::info!(
        "opened a {} file: {} bytes, {} nodes",
        format_name(session.format()),
        bytes.map_or_else(|| "?".to_string(), |b| b.to_string()),
        session.document().node_ids().len()
    );
}

/// A file that did not open: its extension and the codes and places of the reasons.
pub fn open_failed(path: &Path, diagnostics: &[Diagnostic]) {
    log::warn!("a file did not open ({}): {}", extension(path), codes_of(diagnostics));
}

/// `.json`, `.md`, `GRAPH.md` (a name the app owns), or `no extension`.
fn extension(path: &Path) -> String {
    match path.file_name().map(|n| n.to_string_lossy()) {
        Some(n) if n == "GRAPH.md" => "GRAPH.md".to_string(),
        _ => path
            .extension()
            .map_or_else(|| "no extension".to_string(), |e| format!(".{}", e.to_string_lossy())),
    }
}

/// `json/syntax at 3:14, detect/unknown-format` (codes and places only: messages quote the
/// document).
pub fn codes_of(diagnostics: &[Diagnostic]) -> String {
    if diagnostics.is_empty() {
        return "no reason given".to_string();
    }
    diagnostics
        .iter()
        .map(|d| match d.span {
            Some(s) => format!("{} at {}:{}", d.code, s.line, s.column),
            None => d.code.clone(),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use trellis_spec::Span;

    #[test]
    fn a_failure_is_logged_as_codes_and_places_without_the_message() {
        let text = "{\n  \"nodes\": [,]\n}";
        let d = Diagnostic::error("json/syntax", "secret-node-name is wrong")
            .with_span(Span::from_line_column(text, 2, 13));
        let line = codes_of(&[d, Diagnostic::error("detect/unknown-format", "secret")]);
        assert_eq!(line, "json/syntax at 2:13, detect/unknown-format");
        assert!(!line.contains("secret"));
    }

    #[test]
    fn a_path_is_logged_as_its_kind_only() {
        assert_eq!(extension(Path::new("/home/ana/private/plan.graph.json")), ".json");
        assert_eq!(extension(Path::new("/home/ana/triage/GRAPH.md")), "GRAPH.md");
        assert_eq!(extension(Path::new("/home/ana/Makefile")), "no extension");
    }
}
