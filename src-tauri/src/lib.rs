//! trellis-app: the desktop shell, thin over trellis-doc. Commands take document ids; paths
//! come only from native dialogs, the recent list, the command line, files dropped from the
//! OS (the desktop's drag data, read in Rust) and the recovery journal. See `docs/desktop.md`.

pub mod answer;
pub mod auto_layout;
pub mod commands;
pub mod compare;
pub mod dialogs;
pub mod file_drop;
mod housekeeping;
pub mod image_export;
mod menu;
mod menu_events;
pub mod open_failures;
pub mod open_progress;
mod quit;
pub mod runs;
pub mod runs_view;
pub mod state;
pub mod subgraphs;
pub mod transfer;
pub mod ui_sync;
pub mod view;
pub mod wording;

use std::path::PathBuf;

use tauri::{Manager, WebviewWindowBuilder, WindowEvent};

use crate::state::AppState;

mod command_names;
pub use command_names::COMMANDS;

/// The files named on the command line (anything not starting with `-`).
fn paths_from_args(args: impl Iterator<Item = String>) -> Vec<PathBuf> {
    args.filter(|a| !a.starts_with('-')).map(PathBuf::from).collect()
}

/// Starts the app (blocks until it quits).
pub fn run() {
    let files = paths_from_args(std::env::args().skip(1));
    let app = tauri::Builder::default()
        .invoke_handler(tauri::generate_handler![
            commands::list_documents,
            commands::get_document,
            commands::set_active_document,
            commands::apply_edit,
            commands::undo,
            commands::redo,
            commands::save_document,
            commands::save_document_as,
            commands::new_document,
            commands::open_document_dialog,
            commands::recent_files,
            commands::open_recent,
            commands::close_document,
            commands::registry_types,
            commands::journal_pending,
            commands::restore,
            commands::discard,
            commands::resolve_conflict,
            quit::quit,
            commands::weaveflow_version,
            commands::set_weaveflow_version,
            commands::export_document,
            commands::import_document,
            commands::open_failures,
            auto_layout::layout_document,
            auto_layout::cancel_layout,
            commands::apply_fix,
            commands::registry_sources,
            commands::edit_registry,
            commands::undo_registry_edit,
            subgraphs::open_subgraph,
            image_export::export_image,
            compare::compare_targets,
            compare::compare_with_revision,
            compare::compare_with_file,
            compare::compare_view,
            compare::compare_take,
            compare::compare_close,
            compare::conflict_report,
            compare::conflict_pick,
            runs::run_open_dialog,
            runs::run_view,
            runs::run_step,
            runs::run_close,
            runs::run_compare_dialog,
            runs::run_folder_dialog,
            runs::run_simulate,
            runs::run_save_log,
        ])
        .on_menu_event(menu_events::on_event)
        .on_window_event(|window, event| {
            if let WindowEvent::CloseRequested { api, .. } = event {
                // The close button is Quit: ask about unsaved documents first.
                api.prevent_close();
                quit::request(window.app_handle());
            }
        })
        .setup(move |app| {
            let handle = app.handle().clone();
            let data_dir = state::data_dir(handle.path().app_data_dir().ok());
            app.manage(AppState::new(data_dir));
            app.manage(open_failures::PendingFailures::default());
            app.manage(compare::CompareState::default());
            app.manage(runs::RunsState::default());
            let (bar, recent) = menu::build(&handle)?;
            app.manage(menu::RecentMenu(recent));
            app.set_menu(bar)?;
            menu::refresh_recent(&handle);
            open_at_start(&handle, &files);
            // The window is created after the documents are open, so the UI's first
            // `list_documents` already sees them.
            let config = app.config().app.windows.iter().find(|w| w.label == ui_sync::MAIN_WINDOW).cloned();
            if let Some(config) = config {
                let window = WebviewWindowBuilder::from_config(&handle, &config)?.build()?;
                file_drop::attach(&window);
            }
            {
                let st = handle.state::<AppState>();
                let ws = st.ws();
                ui_sync::refresh_title(&handle, &ws);
            }
            housekeeping::start(handle);
            Ok(())
        })
        .build(tauri::generate_context!());
    match app {
        Ok(app) => app.run(|_, _| {}),
        Err(e) => {
            eprintln!("trellis: cannot start: {e}");
            std::process::exit(1);
        }
    }
}

/// At start: unsaved work from the last run comes back first (nothing typed is lost), then
/// the files named on the command line; with neither, the built-in example.
fn open_at_start(app: &tauri::AppHandle, files: &[PathBuf]) {
    let state = app.state::<AppState>();
    let mut ws = state.ws();
    let (pending, problems) = ws.pending_recovery();
    for d in problems {
        eprintln!("trellis: recovery journal: {}", d.message);
    }
    for entry in pending {
        if let Err(ds) = ws.restore(&entry.key) {
            for d in ds {
                eprintln!("trellis: could not restore {}: {}", entry.title, d.message);
            }
        }
    }
    let (run_files, files): (Vec<&PathBuf>, Vec<&PathBuf>) = files.iter().partition(|p| runs::is_run_file(p));
    for path in files {
        match ws.open(path) {
            Ok(id) => state.set_active(Some(id)),
            // No tab (its problems in an empty document would mislead): a notice in the
            // window names the file, the reason and the place.
            Err(ds) => open_failures::report(app, path, &ds),
        }
    }
    if ws.ids().is_empty() {
        match ws.new_from_example() {
            Ok(id) => state.set_active(Some(id)),
            Err(ds) => {
                for d in ds {
                    eprintln!("trellis: the built-in example does not open: {}", d.message);
                }
                let id = ws.new_empty();
                state.set_active(Some(id));
            }
        }
    }
    drop(ws);
    menu::refresh_recent(app);
    for path in run_files {
        runs::open_beside_active(app, path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_arguments_are_the_non_flags() {
        let got = paths_from_args(["a.json", "--verbose", "dir/GRAPH.md"].into_iter().map(String::from));
        assert_eq!(got, vec![PathBuf::from("a.json"), PathBuf::from("dir/GRAPH.md")]);
    }

    #[test]
    fn every_command_is_handled_and_granted_and_nothing_else_is() {
        // build.rs declares exactly COMMANDS (it includes the same file); the handler list and
        // the capability file are written by hand, so compare both with it.
        let lib = include_str!("lib.rs");
        let handler = &lib[lib.find("generate_handler![").expect("handler")..];
        let handler = &handler[..handler.find("])").expect("end of handler")];
        // Each entry is `module::command,` (most live in `commands`, some in their own module).
        let handled: Vec<&str> = handler
            .lines()
            .map(|l| l.trim().trim_end_matches(','))
            .filter(|l| !l.starts_with("//"))
            .filter_map(|l| l.rsplit_once("::").map(|(_, name)| name))
            .collect();
        assert_eq!(handled, COMMANDS, "generate_handler! and COMMANDS differ");

        let caps: serde_json::Value = serde_json::from_str(include_str!("../capabilities/main-window.json"))
            .expect("capabilities JSON");
        let granted: Vec<String> = caps["permissions"]
            .as_array()
            .expect("permissions")
            .iter()
            .filter_map(|p| p.as_str())
            .filter_map(|p| p.strip_prefix("allow-"))
            .map(|p| p.replace('-', "_"))
            .collect();
        assert_eq!(granted, COMMANDS, "capabilities/main-window.json must grant exactly the app's commands");
    }
}
