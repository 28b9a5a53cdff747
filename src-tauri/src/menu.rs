//! The native menu. Every item's id is the action name the UI already knows (`ui/API.md`,
//! `ui/src/shortcuts.ts`): choosing it sends a `menu` event with that id, so the menu and the
//! keyboard run the same code, except Quit, Open Recent, New from Example and Open Log Folder,
//! which Rust handles itself (`menu_events.rs`).
//!
//! Accelerators follow the platform (`CmdOrCtrl`). Cut, Copy, Paste and Select All are the
//! platform's own items: on Linux they send the keystroke to the webview (libxdo), so the DOM
//! clipboard events and text fields behave as they do with the keyboard.

use tauri::menu::{Menu, MenuItem, PredefinedMenuItem, Submenu};
use tauri::{AppHandle, Manager, Runtime, Wry};

use crate::state::AppState;

/// Prefix of the Open Recent items' ids (`recent:0` is the most recent file).
pub(crate) const RECENT_PREFIX: &str = "recent:";
pub(crate) const RECENT_CLEAR: &str = "recent-clear";
pub(crate) const NEW_EXAMPLE: &str = "new-example";
pub(crate) const QUIT: &str = "quit";
pub(crate) const OPEN_LOG_FOLDER: &str = "open-log-folder";

#[cfg(target_os = "macos")]
const REDO: &str = "Cmd+Shift+Z";
#[cfg(not(target_os = "macos"))]
const REDO: &str = "Ctrl+Shift+Z";

/// The Open Recent submenu, kept to refill it when the list changes.
pub struct RecentMenu(pub Submenu<Wry>);

impl std::fmt::Debug for RecentMenu {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("RecentMenu")
    }
}

fn item<R: Runtime, M: Manager<R>>(
    m: &M,
    id: &str,
    text: &str,
    accel: Option<&str>,
) -> tauri::Result<MenuItem<R>> {
    MenuItem::with_id(m, id, text, true, accel)
}

/// Builds the menu bar (and returns the Open Recent submenu to keep).
pub fn build(app: &AppHandle) -> tauri::Result<(Menu<Wry>, Submenu<Wry>)> {
    let recent = Submenu::with_id(app, "open-recent", "Open Recent", true)?;
    let file = Submenu::with_items(
        app,
        "File",
        true,
        &[
            &item(app, "new", "New", Some("CmdOrCtrl+N"))?,
            &item(app, NEW_EXAMPLE, "New from Example", None)?,
            &item(app, "open", "Open…", Some("CmdOrCtrl+O"))?,
            &recent,
            &PredefinedMenuItem::separator(app)?,
            &item(app, "save", "Save", Some("CmdOrCtrl+S"))?,
            &item(app, "save-as", "Save As…", Some("CmdOrCtrl+Shift+S"))?,
            &PredefinedMenuItem::separator(app)?,
            &item(app, "import", "Import…", None)?,
            &item(app, "export-graphspec", "Export as GraphSpec…", None)?,
            &item(app, "export-weaveflow", "Export as Weaveflow…", None)?,
            &item(app, "export-graphmd", "Export as GRAPH.md…", None)?,
            &item(app, "export-image", "Export Image…", None)?,
            &PredefinedMenuItem::separator(app)?,
            &item(app, "compare-with", "Compare With…", None)?,
            &PredefinedMenuItem::separator(app)?,
            &item(app, "open-run", "Open Run…", None)?,
            &item(app, "compare-run", "Compare With Run…", None)?,
            &item(app, "open-runs-folder", "Open Runs Folder…", None)?,
            &item(app, "simulate", "Simulate…", None)?,
            &PredefinedMenuItem::separator(app)?,
            &item(app, "close", "Close", Some("CmdOrCtrl+W"))?,
            &item(app, QUIT, "Quit", Some("CmdOrCtrl+Q"))?,
        ],
    )?;
    let edit = Submenu::with_items(
        app,
        "Edit",
        true,
        &[
            &item(app, "undo", "Undo", Some("CmdOrCtrl+Z"))?,
            &item(app, "redo", "Redo", Some(REDO))?,
            &PredefinedMenuItem::separator(app)?,
            &PredefinedMenuItem::cut(app, None)?,
            &PredefinedMenuItem::copy(app, None)?,
            &PredefinedMenuItem::paste(app, None)?,
            &item(app, "duplicate", "Duplicate", Some("CmdOrCtrl+D"))?,
            &PredefinedMenuItem::separator(app)?,
            &PredefinedMenuItem::select_all(app, None)?,
        ],
    )?;
    let view = Submenu::with_items(
        app,
        "View",
        true,
        &[
            // "F" alone is the canvas shortcut; an accelerator would eat it in text fields.
            &item(app, "fit-view", "Fit Graph in View", None)?,
            &item(app, "auto-layout", "Automatic Layout", Some("CmdOrCtrl+Shift+L"))?,
            &item(app, "toggle-text", "Text Pane", Some("CmdOrCtrl+E"))?,
            &PredefinedMenuItem::separator(app)?,
            &item(app, "toggle-theme", "Toggle Light/Dark Theme", None)?,
            &PredefinedMenuItem::separator(app)?,
            &item(app, "compare-close", "Leave Compare View", None)?,
            &item(app, "run-close", "Close Run", None)?,
        ],
    )?;
    let help = Submenu::with_items(
        app,
        "Help",
        true,
        &[
            &item(app, "help", "Keyboard Shortcuts", Some("F1"))?,
            &PredefinedMenuItem::separator(app)?,
            &item(app, OPEN_LOG_FOLDER, "Open Log Folder", None)?,
            &item(app, "about", "About Trellis", None)?,
        ],
    )?;
    let menu = Menu::with_items(app, &[&file, &edit, &view, &help])?;
    Ok((menu, recent))
}

/// Refills Open Recent from the workspace's list.
pub fn refresh_recent(app: &AppHandle) {
    let Some(recent) = app.try_state::<RecentMenu>() else { return };
    let submenu = &recent.0;
    let paths = app.state::<AppState>().ws().recent().to_vec();
    if let Ok(items) = submenu.items() {
        for it in items {
            let _ = submenu.remove(&it);
        }
    }
    let entries = crate::view::recent_list(&paths);
    if entries.is_empty() {
        if let Ok(none) = MenuItem::with_id(app, "recent-none", "No Recent Files", false, None::<&str>) {
            let _ = submenu.append(&none);
        }
        return;
    }
    for e in entries {
        // Menus treat "_" as a mnemonic marker: double it to show it.
        let label = format!("{}  ({})", e.file_name.replace('_', "__"), e.path.replace('_', "__"));
        if let Ok(it) =
            MenuItem::with_id(app, format!("{RECENT_PREFIX}{}", e.index), label, true, None::<&str>)
        {
            let _ = submenu.append(&it);
        }
    }
    if let Ok(sep) = PredefinedMenuItem::separator(app) {
        let _ = submenu.append(&sep);
    }
    if let Ok(clear) = MenuItem::with_id(app, RECENT_CLEAR, "Clear Recent Files", true, None::<&str>) {
        let _ = submenu.append(&clear);
    }
}
