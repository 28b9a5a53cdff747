//! Keeping the window in step with the documents: events to the UI and the window title.

use serde::Serialize;
use tauri::{AppHandle, Emitter, Manager};
use trellis_doc::{DocEvent, DocId, Workspace};
use ts_rs::TS;

use crate::main_window::MAIN_WINDOW;
use crate::state::AppState;
use crate::view::file_name;

/// Event names (ui/API.md).
pub mod events {
    /// Payload: `DocumentRef`. The document changed outside an edit the UI sent (reload,
    /// conflict, registry change, restore): the page asks for its view (`document_view`).
    pub const DOCUMENT_CHANGED: &str = "document-changed";
    /// Payload: `DocumentRef`. A document was opened by the menu, a drop or at start: the page
    /// asks for its view (`document_view`) and adds a tab.
    pub const DOCUMENT_OPENED: &str = "document-opened";
    /// Payload: `{id}`. The tab goes away.
    pub const DOCUMENT_CLOSED: &str = "document-closed";
    /// Payload: `{id, conflict}`. The file changed on disk while the document is dirty.
    pub const CONFLICT: &str = "conflict";
    /// Payload: `{id, notice}`. The file was deleted or moved away (document stays, dirty).
    pub const FILE_DELETED: &str = "file-deleted";
    /// Payload: `JournalState`. Recovery journal problems (a full disk) and pending entries.
    pub const JOURNAL: &str = "journal";
    /// Payload: the action id (`undo`, `save`, ...). A menu item was chosen.
    pub const MENU: &str = "menu";
}

/// The payload of `document-changed` and `document-opened`: which document. The view itself
/// is the answer of the `document_view` command (an event's payload is written into a script
/// the page runs, and a view can be tens of megabytes).
#[derive(Debug, Clone, Serialize, TS)]
#[ts(export)]
pub struct DocumentRef {
    pub id: String,
}

/// The `document-closed` event's payload.
#[derive(Debug, Clone, Serialize, TS)]
#[ts(export)]
pub struct DocumentClosed {
    pub id: String,
}

/// Tells the UI a document was closed.
pub fn emit_closed(app: &AppHandle, id: DocId) {
    let _ = app.emit(events::DOCUMENT_CLOSED, DocumentClosed { id: id.0.to_string() });
}

/// Tells the page under `event` that the view of `id` is new (when it is still open).
pub fn emit_view(app: &AppHandle, ws: &Workspace, event: &str, id: DocId) {
    if ws.get(id).is_some() {
        let _ = app.emit(event, DocumentRef { id: id.0.to_string() });
    }
}

/// Forwards what the watcher caused: the new view always, plus the specific event.
pub fn emit_doc_events(app: &AppHandle, ws: &Workspace, doc_events: &[DocEvent]) {
    for ev in doc_events {
        let id = match ev {
            DocEvent::Reloaded { id, .. } | DocEvent::Revalidated { id, .. } => *id,
            DocEvent::Conflict { id, .. } => {
                let _ = app.emit(events::CONFLICT, ev);
                *id
            }
            DocEvent::Gone { id, .. } => {
                let _ = app.emit(events::FILE_DELETED, ev);
                *id
            }
        };
        emit_view(app, ws, events::DOCUMENT_CHANGED, id);
    }
    refresh_title(app, ws);
}

/// The window title: the shown document's file name, `*` in front when it has unsaved
/// changes (the GNOME convention), then the app name.
pub fn title_for(name: Option<(&str, bool)>) -> String {
    match name {
        Some((name, true)) => format!("*{name} — Trellis"),
        Some((name, false)) => format!("{name} — Trellis"),
        None => "Trellis".to_string(),
    }
}

/// Sets the window title from the active document (or the first one open).
pub fn refresh_title(app: &AppHandle, ws: &Workspace) {
    let state = app.state::<AppState>();
    let active = state.active().filter(|id| ws.get(*id).is_some()).or_else(|| ws.ids().first().copied());
    let title = match active.and_then(|id| ws.get(id)) {
        Some(s) => title_for(Some((&file_name(s), s.is_dirty()))),
        None => title_for(None),
    };
    if let Some(window) = app.get_webview_window(MAIN_WINDOW) {
        let _ = window.set_title(&title);
    }
}

/// Tells the UI something opened while it could not ask (menu, start).
pub fn announce_opened(app: &AppHandle, id: DocId) {
    let state = app.state::<AppState>();
    let ws = state.ws();
    emit_view(app, &ws, events::DOCUMENT_OPENED, id);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn title_marks_unsaved_changes() {
        assert_eq!(title_for(Some(("support.json", false))), "support.json — Trellis");
        assert_eq!(title_for(Some(("support.json", true))), "*support.json — Trellis");
        assert_eq!(title_for(None), "Trellis");
    }
}
