//! Subgraph nodes in the shell: opening the document a subgraph node refers to (in a tab, or
//! its tab when already open), and re-resolving a document's references when its tab is shown
//! again (the files they name may have appeared, changed or gone meanwhile). The resolution
//! itself is `trellis_doc::subgraphs`.

use tauri::{AppHandle, State};
use trellis_doc::DocId;

use crate::answer::{parse_id, CommandError};
use crate::state::AppState;
use crate::ui_sync::{self, events};
use crate::view::DocumentView;

/// Opens the document subgraph node `node_id` of `doc_id` refers to and answers its view (the
/// UI shows it in a tab with a breadcrumb back to the parent). A reference that does not
/// resolve is refused with the node's own message.
#[tauri::command]
pub fn open_subgraph(
    app: AppHandle,
    state: State<'_, AppState>,
    doc_id: String,
    node_id: String,
) -> Result<DocumentView, CommandError> {
    let parent = parse_id(&doc_id)?;
    // The parent's links first: what the node shows must match what opening does.
    refresh_shown(&app, &state, parent);
    let child = state.ws().open_subgraph(parent, &node_id)?;
    crate::menu::refresh_recent(&app);
    state.set_active(Some(child));
    let ws = state.ws();
    ui_sync::refresh_title(&app, &ws);
    Ok(crate::view::document_view(ws.session(child)?))
}

/// Resolves the subgraph references of `id` again; a change is sent as `document-changed`.
pub fn refresh_shown(app: &AppHandle, state: &AppState, id: DocId) {
    let mut ws = state.ws();
    if ws.refresh_subgraphs(id).unwrap_or(false) {
        ui_sync::emit_view(app, &ws, events::DOCUMENT_CHANGED, id);
    }
}
