//! One Trellis at a time: a second start (a file opened from the file manager while Trellis
//! runs, `trellis-app x.graph.json` in a terminal) hands its files to the running app, which
//! opens them in tabs and comes to the front; the second process exits before it opens a window,
//! a journal or a watcher of its own.
//!
//! `tauri-plugin-single-instance` does the finding and the handing over (on Linux through a
//! D-Bus name on the session bus; without a session bus every start runs on its own, as before).
//! The running app opens the files the way dropped files open (`file_drop::open_dropped`: a
//! folder opens its `GRAPH.md`, a refusal is a notice in the window), with relative paths taken
//! from the second start's working directory.
//!
//! "One" means one per data folder: with `TRELLIS_DATA_DIR` set (tests, a second profile) the
//! D-Bus name carries the folder, so apps with separate folders run side by side.

use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};

use tauri::plugin::TauriPlugin;
use tauri::{AppHandle, Manager, Wry};

use crate::file_drop::{self, Dropped};
use crate::main_window::MAIN_WINDOW;

/// The app's identifier (tauri.conf.json; a test keeps them equal): the D-Bus name's base.
pub const IDENTIFIER: &str = "dev.trellis.desktop";

/// The plugin; registered before every other plugin, so a second start ends before any of
/// them begins.
pub fn plugin() -> TauriPlugin<Wry> {
    let builder = tauri_plugin_single_instance::Builder::new().callback(on_second_start);
    match crate::state::data_dir_override() {
        Some(dir) => builder.dbus_id(bus_id_for(&dir)).build(),
        None => builder.build(),
    }
}

/// The D-Bus name's base for a data folder other than the default one:
/// `dev.trellis.desktop.data_<hash of the folder's path>`.
fn bus_id_for(data_dir: &Path) -> String {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    data_dir.hash(&mut hasher);
    format!("{IDENTIFIER}.data_{:016x}", hasher.finish())
}

/// The files a second start named, as paths the running app can open.
fn files_of(argv: Vec<String>, cwd: &str) -> Vec<PathBuf> {
    // argv[0] is the program.
    crate::command_line::paths_from_args(argv.into_iter().skip(1))
        .into_iter()
        .map(|p| Path::new(cwd).join(p))
        .collect()
}

fn on_second_start(app: &AppHandle, argv: Vec<String>, cwd: String) {
    let files = files_of(argv, &cwd);
    log::info!("another start handed over {} file(s)", files.len());
    bring_forward(app);
    if !files.is_empty() {
        file_drop::open_dropped(app, Dropped { files, not_files: Vec::new() });
    }
}

/// Shows the window in front (unminimized, focused, as far as the window manager lets an app).
fn bring_forward(app: &AppHandle) {
    if let Some(window) = app.get_webview_window(MAIN_WINDOW) {
        let _ = window.unminimize();
        let _ = window.show();
        let _ = window.set_focus();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_identifier_is_the_apps() {
        let conf: serde_json::Value =
            serde_json::from_str(include_str!("../tauri.conf.json")).expect("tauri.conf.json");
        assert_eq!(conf["identifier"], IDENTIFIER);
    }

    #[test]
    fn files_are_taken_relative_to_the_second_starts_folder() {
        let argv =
            ["/usr/bin/trellis-app", "flows/a.graph.json", "--flag", "/abs/GRAPH.md"].map(String::from);
        assert_eq!(
            files_of(argv.to_vec(), "/home/ana/work"),
            vec![PathBuf::from("/home/ana/work/flows/a.graph.json"), PathBuf::from("/abs/GRAPH.md")]
        );
        assert!(files_of(vec!["/usr/bin/trellis-app".into()], "/").is_empty());
    }

    #[test]
    fn each_data_folder_has_its_own_bus_name() {
        let a = bus_id_for(Path::new("/tmp/a"));
        let b = bus_id_for(Path::new("/tmp/b"));
        assert_ne!(a, b);
        assert_eq!(a, bus_id_for(Path::new("/tmp/a")));
        // D-Bus name elements: letters, digits, `_` and `-`, not starting with a digit.
        for element in a.split('.') {
            assert!(element.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-'), "{a}");
            assert!(!element.starts_with(|c: char| c.is_ascii_digit()), "{a}");
        }
    }
}
