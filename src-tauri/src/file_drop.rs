//! Files dropped from the OS onto the window open in tabs, as File > Open opens them.
//!
//! The window keeps `dragDropEnabled: false`: Tauri's own file-drop handler would take every
//! drop, the registry browser's HTML5 drags included (toolchain trap 11). Instead the drop is
//! taken in Rust, on the GTK widget of the webview (`file_drop_gtk.rs`), and only when it comes
//! from outside the app and carries files (`text/uri-list`, no source widget in this process);
//! a drag that starts in the page (HTML5 drag and drop) is left to WebKit untouched. The paths come from the desktop's
//! drag data, never from the page: the webview names no path to Rust (docs/desktop.md).
//!
//! What happens with the list is platform-neutral and tested here: [`uri_list`] reads the
//! `text/uri-list` data (RFC 2483), [`target_of`] says what a path opens (a folder: its
//! `GRAPH.md`), [`open_dropped`] opens each file through the same path as
//! the Open dialog (`commands::open_path`: recent files, the active tab, refusals told in the
//! app with the file name, reason and place) and tells the UI to add a tab per opened file.

use std::path::PathBuf;

use tauri::{AppHandle, Manager};
use trellis_spec::Diagnostic;

use crate::commands;
use crate::open_failures;
use crate::ui_sync::events;

/// The event telling the UI whether files from outside are being dragged over the window
/// (payload: `true` while they are, `false` when they leave or are dropped): the page is not
/// told of such a drag otherwise, and the user should see that a drop will open them.
pub const FILE_DRAG: &str = "file-drag";

/// Diagnostic codes of this module.
pub mod codes {
    /// Something dropped on the window that is not a local file (a web link, a remote file).
    pub const NOT_A_FILE: &str = "app/drop-not-a-file";
    /// A folder dropped on the window that holds no `GRAPH.md`.
    pub const FOLDER: &str = "app/drop-folder";
}

/// What a dropped path opens: a file itself; a folder its `GRAPH.md` (a GRAPH.md graph is a
/// folder's document); any other folder is refused with a sentence saying what to drop.
pub fn target_of(path: &std::path::Path) -> Result<PathBuf, Diagnostic> {
    if !path.is_dir() {
        return Ok(path.to_path_buf());
    }
    let graph = path.join("GRAPH.md");
    if graph.is_file() {
        return Ok(graph);
    }
    Err(Diagnostic::error(
        codes::FOLDER,
        "this is a folder without a GRAPH.md: drop the graph files themselves",
    ))
}

/// What a `text/uri-list` holds: the local files, in order, and the entries that are not
/// local files (kept as written, to say so).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Dropped {
    pub files: Vec<PathBuf>,
    pub not_files: Vec<String>,
}

/// Reads `text/uri-list` data: one URI a line (CRLF or LF), `#` lines are comments, blank lines
/// are skipped. `file:` URIs on this machine (no host, or `localhost`) are files, percent
/// escapes decoded; anything else is not a file.
pub fn uri_list(text: &str) -> Dropped {
    let mut out = Dropped::default();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let file = url::Url::parse(line)
            .ok()
            .filter(|u| u.scheme() == "file")
            .filter(|u| matches!(u.host_str(), None | Some("") | Some("localhost")))
            .and_then(|u| u.to_file_path().ok());
        match file {
            Some(path) => {
                if !out.files.contains(&path) {
                    out.files.push(path);
                }
            }
            None => out.not_files.push(line.to_owned()),
        }
    }
    out
}

/// Opens what was dropped, one tab per file that opens (the last one shown); each file that
/// does not, and each entry that is not a file, gets its notice in the app. Runs the reading
/// off the thread that dispatches the window's events.
pub fn open_dropped(app: &AppHandle, dropped: Dropped) {
    let app = app.clone();
    tauri::async_runtime::spawn_blocking(move || {
        for entry in &dropped.not_files {
            let d = Diagnostic::error(
                codes::NOT_A_FILE,
                "only files on this computer can be opened by dropping them here; this is a link, not a file",
            );
            open_failures::report(&app, std::path::Path::new(entry), &[d]);
        }
        for path in &dropped.files {
            let file = match target_of(path) {
                Ok(file) => file,
                Err(d) => {
                    open_failures::report(&app, path, &[d]);
                    continue;
                }
            };
            // A run record opens beside the document shown, not as a document of its own.
            if crate::runs::is_run_file(&file) {
                crate::runs::open_beside_active(&app, &file);
                continue;
            }
            // A refusal is reported by `open_path` (a notice with the file name and reason).
            if let Ok(id) = commands::open_path(&app, &file) {
                let state = app.state::<crate::state::AppState>();
                crate::ui_sync::emit_view(&app, &state.ws(), events::DOCUMENT_OPENED, id);
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_uri_list_gives_local_files_decoded_and_says_what_is_not_a_file() {
        let text = "# dropped by a file manager\r\nfile:///home/ana/flows/support.json\r\n\
                    file:///home/ana/my%20flows/GRAPH.md\r\n\r\nfile://localhost/tmp/%C3%A9t%C3%A9.json\r\n\
                    https://example.com/graph.json\r\nfile://server/share/x.json\r\nnot a uri\r\n\
                    file:///home/ana/flows/support.json\n";
        let d = uri_list(text);
        assert_eq!(
            d.files,
            vec![
                PathBuf::from("/home/ana/flows/support.json"),
                PathBuf::from("/home/ana/my flows/GRAPH.md"),
                PathBuf::from("/tmp/été.json"),
            ]
        );
        assert_eq!(
            d.not_files,
            ["https://example.com/graph.json", "file://server/share/x.json", "not a uri"]
        );
    }

    #[test]
    fn a_folder_opens_its_graph_md_and_is_refused_without_one() {
        let dir = tempfile::tempdir().expect("tmp");
        let file = dir.path().join("support.json");
        std::fs::write(&file, "{}").expect("write");
        assert_eq!(target_of(&file).ok(), Some(file.clone()));
        assert_eq!(target_of(dir.path()).err().map(|d| d.code), Some(codes::FOLDER.to_string()));
        let triage = dir.path().join("triage");
        std::fs::create_dir(&triage).expect("mkdir");
        std::fs::write(triage.join("GRAPH.md"), "---\n---\n").expect("write");
        assert_eq!(target_of(&triage).ok(), Some(triage.join("GRAPH.md")));
        // A path that does not exist is the opener's to refuse (with its reason).
        let gone = dir.path().join("gone.json");
        assert_eq!(target_of(&gone).ok(), Some(gone));
    }

    #[test]
    fn an_empty_list_is_nothing() {
        assert_eq!(uri_list(""), Dropped::default());
        assert_eq!(uri_list("\n# only a comment\n"), Dropped::default());
    }
}
