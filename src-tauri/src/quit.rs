//! Quit (menu, Ctrl+Q, the window's close button): asks about every document with unsaved
//! changes, one after the other; Cancel on any of them, or a save that is refused, stops the
//! quit and leaves everything open.

use std::sync::atomic::Ordering;

use tauri::{AppHandle, Manager};

use crate::commands;
use crate::main_window::MAIN_WINDOW;
use crate::state::AppState;

/// Quit, asking about every document with unsaved changes (as the menu's Quit).
#[tauri::command]
pub fn quit(app: AppHandle) {
    request(&app);
}

/// Starts the quit flow (once: a second request while it asks is ignored).
pub fn request(app: &AppHandle) {
    let state = app.state::<AppState>();
    if state.quitting.swap(true, Ordering::SeqCst) {
        return;
    }
    let app = app.clone();
    tauri::async_runtime::spawn(async move {
        let quit = ask_all(&app).await;
        let state = app.state::<AppState>();
        if quit {
            // The journal keeps nothing of documents the user chose not to save: they were
            // closed with discard. Clean documents have no entries.
            app.exit(0);
        } else {
            state.quitting.store(false, Ordering::SeqCst);
        }
    });
}

/// Closes every dirty document with the prompt; true when all are closed.
async fn ask_all(app: &AppHandle) -> bool {
    let Some(window) = app.get_webview_window(MAIN_WINDOW) else { return true };
    let dirty = app.state::<AppState>().ws().dirty();
    for id in dirty {
        match commands::close_flow(app, &window, id, false).await {
            Ok(true) => {}
            Ok(false) => return false,
            // Already gone (closed meanwhile): nothing to ask.
            Err(_) => {}
        }
    }
    true
}
