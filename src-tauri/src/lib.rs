//! trellis-app: the desktop shell, thin over trellis-doc. Commands take document ids; paths
//! come only from native dialogs, the recent list, the command line, files dropped from the
//! OS (the desktop's drag data, read in Rust) and the recovery journal. See `docs/desktop.md`.

#![forbid(unsafe_code)]

pub mod about;
pub mod answer;
pub mod app_info;
pub mod auto_layout;
pub mod command_line;
pub mod commands;
pub mod compare;
pub mod dialogs;
pub mod file_drop;
mod file_drop_gtk;
mod housekeeping;
pub mod image_export;
pub mod logging;
pub mod main_window;
mod menu;
mod menu_events;
pub mod open_failures;
pub mod open_progress;
mod quit;
pub mod runs;
pub mod runs_view;
pub mod settings;
mod single_instance;
pub mod state;
pub mod subgraphs;
pub mod text_pane;
pub mod transfer;
pub mod ui_sync;
pub mod view;
pub mod wording;

use std::path::PathBuf;

use tauri::{Manager, WebviewWindowBuilder, WindowEvent};

use crate::state::AppState;

mod command_names;
pub use command_names::COMMANDS;

/// Starts the app (blocks until it quits).
pub fn run() {
    let files = command_line::paths_from_args(std::env::args().skip(1));
    let app = tauri::Builder::default()
        // First: a second start hands its files over and exits before the others begin.
        .plugin(single_instance::plugin())
        .plugin(window_state())
        .plugin(tauri_plugin_opener::init())
        .invoke_handler(tauri::generate_handler![
            commands::list_documents,
            commands::get_document,
            commands::document_view,
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
            text_pane::text_open,
            text_pane::text_close,
            text_pane::text_type,
            text_pane::text_since,
            text_pane::text_element_at,
            text_pane::text_range_of,
            settings::load_settings,
            settings::save_settings,
            about::about,
            logging::show_log_folder,
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
            logging::start(&handle, files.len());
            app.manage(settings::SettingsStore::load(&settings::folder(&handle)));
            let data_dir = state::data_dir(handle.path().app_data_dir().ok());
            app.manage(AppState::new(data_dir));
            app.manage(open_failures::PendingFailures::default());
            app.manage(compare::CompareState::default());
            app.manage(runs::RunsState::default());
            let (bar, recent) = menu::build(&handle)?;
            app.manage(menu::RecentMenu(recent));
            app.set_menu(bar)?;
            menu::refresh_recent(&handle);
            open_at_start(&handle, files.is_empty());
            // The window comes first: the files named on the command line are read and laid
            // out after it, with their progress shown as any open's, and come in as tabs.
            let config =
                app.config().app.windows.iter().find(|w| w.label == main_window::MAIN_WINDOW).cloned();
            if let Some(config) = config {
                let window = WebviewWindowBuilder::from_config(&handle, &config)?.build()?;
                file_drop_gtk::attach(&window);
            }
            {
                let st = handle.state::<AppState>();
                let ws = st.ws();
                ui_sync::refresh_title(&handle, &ws);
            }
            open_files(&handle, files.clone());
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

/// The window's size, place and maximized state, kept between runs in the settings' folder.
fn window_state() -> tauri::plugin::TauriPlugin<tauri::Wry> {
    use tauri_plugin_window_state::{Builder, StateFlags};
    // The plugin's file is in the config folder; an absolute name puts it in TRELLIS_DATA_DIR.
    let file = match state::data_dir_override() {
        Some(dir) => dir.join(settings::WINDOW_STATE_FILE).to_string_lossy().into_owned(),
        None => settings::WINDOW_STATE_FILE.to_string(),
    };
    Builder::new()
        .with_filename(file)
        .with_state_flags(StateFlags::SIZE | StateFlags::POSITION | StateFlags::MAXIMIZED)
        .build()
}

/// At start: unsaved work from the last run comes back (nothing typed is lost); with no file
/// named on the command line (`example`) and nothing restored, the built-in example (with
/// files named, `open_files` opens it when none of them opens).
fn open_at_start(app: &tauri::AppHandle, example: bool) {
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
    if example {
        open_example(&state, &mut ws);
    }
    drop(ws);
    menu::refresh_recent(app);
}

/// The built-in example, when nothing is open (an empty document if it does not open).
fn open_example(state: &AppState, ws: &mut trellis_doc::Workspace) -> Option<trellis_doc::DocId> {
    if !ws.ids().is_empty() {
        return None;
    }
    let id = match ws.new_from_example() {
        Ok(id) => id,
        Err(ds) => {
            for d in ds {
                eprintln!("trellis: the built-in example does not open: {}", d.message);
            }
            ws.new_empty()
        }
    };
    state.set_active(Some(id));
    Some(id)
}

/// Opens the files named on the command line once the window is there, off the main thread
/// and as the Open dialog does (progress, Stop, a notice naming a file that does not open):
/// each that opens becomes a tab, the last one shown.
fn open_files(app: &tauri::AppHandle, files: Vec<PathBuf>) {
    if files.is_empty() {
        return;
    }
    // A run record opens beside the document shown, once the documents are open.
    let (run_files, files): (Vec<PathBuf>, Vec<PathBuf>) =
        files.into_iter().partition(|p| runs::is_run_file(p));
    let app = app.clone();
    tauri::async_runtime::spawn_blocking(move || {
        for path in &files {
            if let Ok(id) = commands::open_path(&app, path) {
                ui_sync::announce_opened(&app, id);
            }
        }
        let state = app.state::<AppState>();
        let example = open_example(&state, &mut state.ws());
        if let Some(id) = example {
            ui_sync::announce_opened(&app, id);
            let ws = state.ws();
            ui_sync::refresh_title(&app, &ws);
        }
        for path in &run_files {
            runs::open_beside_active(&app, path);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

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
