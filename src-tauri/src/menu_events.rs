//! What choosing a menu item does. Most items only tell the UI (a `menu` event with the
//! action's name); Quit, Open Recent, New from Example and Open Log Folder are done here.

use tauri::menu::MenuEvent;
use tauri::{AppHandle, Emitter, Manager};

use crate::menu::{refresh_recent, NEW_EXAMPLE, OPEN_LOG_FOLDER, QUIT, RECENT_CLEAR, RECENT_PREFIX};
use crate::state::AppState;
use crate::ui_sync::events;

/// What a menu choice does.
pub fn on_event(app: &AppHandle, event: MenuEvent) {
    let id = event.id().as_ref();
    if id == QUIT {
        crate::quit::request(app);
    } else if id == NEW_EXAMPLE {
        let state = app.state::<AppState>();
        let made = state.ws().new_from_example();
        if let Ok(doc) = made {
            crate::ui_sync::announce_opened(app, doc);
        }
    } else if id == OPEN_LOG_FOLDER {
        crate::logging::show_folder(app);
    } else if id == RECENT_CLEAR {
        let _ = app.state::<AppState>().ws().clear_recent();
        refresh_recent(app);
    } else if let Some(index) = id.strip_prefix(RECENT_PREFIX).and_then(|i| i.parse::<usize>().ok()) {
        let state = app.state::<AppState>();
        let path = state.ws().recent().get(index).cloned();
        let opened = state.ws().open_recent(index);
        match opened {
            Ok(doc) => {
                refresh_recent(app);
                crate::ui_sync::announce_opened(app, doc);
            }
            Err(diagnostics) => {
                if let Some(p) = path {
                    crate::open_failures::report(app, &p, &diagnostics);
                }
            }
        }
    } else {
        let _ = app.emit(events::MENU, id);
    }
}
