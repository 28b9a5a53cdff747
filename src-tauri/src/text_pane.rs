//! The text pane's commands: the document's text beside the canvas (`trellis_doc::text`).
//! Opening it hands the page the whole text once; after that the text moves by updates, in
//! the answers of edits (`ViewDelta.text`), of the pane's typing, and of a pull when the page
//! may have missed some (a whole view came, a save wrote the text).

use tauri::ipc::Response;
use tauri::{AppHandle, State};
use trellis_doc::text::{TextDelta, TextEdit, TextRange};
use trellis_doc::{Change, ViewDelta};
use trellis_spec::Element;

use crate::answer::{parse_id, Answer};
use crate::state::AppState;

/// Opens the pane on a document. The answer is bytes: one line of JSON (the `TextView`
/// without its text), then the text itself, so a 50 MB text is not escaped into a JSON string
/// and parsed out of it again.
#[tauri::command]
pub fn text_open(state: State<'_, AppState>, doc_id: String) -> Answer<Response> {
    let id = parse_id(&doc_id)?;
    let mut ws = state.ws();
    let session = ws.get_mut(id).ok_or_else(|| unknown(&doc_id))?;
    let mut view = session.open_text();
    let text = std::mem::take(&mut view.text);
    let mut out = serde_json::to_vec(&view).map_err(|e| failed(&e.to_string()))?;
    out.push(b'\n');
    out.extend_from_slice(text.as_bytes());
    Ok(Response::new(out))
}

/// Closes the pane (the text the user typed is kept; see `Session::close_text`).
#[tauri::command]
pub fn text_close(state: State<'_, AppState>, doc_id: String) -> Answer<()> {
    let id = parse_id(&doc_id)?;
    if let Some(s) = state.ws().get_mut(id) {
        s.close_text();
    }
    Ok(())
}

/// The pane's typing, after a pause: answered like an edit.
#[tauri::command]
pub fn text_type(
    app: AppHandle,
    state: State<'_, AppState>,
    doc_id: String,
    edit: TextEdit,
) -> Answer<ViewDelta> {
    let id = parse_id(&doc_id)?;
    let delta = crate::view::worded(state.ws().answer(id, Change::Text(&edit))?);
    state.set_active(Some(id));
    crate::ui_sync::refresh_title(&app, &state.ws());
    Ok(delta)
}

/// The text's updates since `version` (the page may have missed some).
#[tauri::command]
pub fn text_since(state: State<'_, AppState>, doc_id: String, version: u64) -> Answer<TextDelta> {
    let id = parse_id(&doc_id)?;
    let mut ws = state.ws();
    let session = ws.get_mut(id).ok_or_else(|| unknown(&doc_id))?;
    Ok(session.text_since(version))
}

/// The node or edge whose text holds the cursor (`offset`, in `version` of the text).
#[tauri::command]
pub fn text_element_at(
    state: State<'_, AppState>,
    doc_id: String,
    version: u64,
    offset: u32,
) -> Answer<Option<Element>> {
    let id = parse_id(&doc_id)?;
    let mut ws = state.ws();
    let session = ws.get_mut(id).ok_or_else(|| unknown(&doc_id))?;
    Ok(session.text_element_at(version, offset))
}

/// Where a node's or edge's text is (in `version` of the text).
#[tauri::command]
pub fn text_range_of(
    state: State<'_, AppState>,
    doc_id: String,
    version: u64,
    element: Element,
) -> Answer<Option<TextRange>> {
    let id = parse_id(&doc_id)?;
    let mut ws = state.ws();
    let session = ws.get_mut(id).ok_or_else(|| unknown(&doc_id))?;
    Ok(session.text_range_of(version, &element))
}

fn unknown(doc_id: &str) -> crate::answer::CommandError {
    trellis_spec::Diagnostic::error(
        crate::answer::codes::BAD_ID,
        format!("there is no open document {doc_id}"),
    )
    .into()
}

fn failed(why: &str) -> crate::answer::CommandError {
    trellis_spec::Diagnostic::error(
        crate::answer::codes::VIEW_FAILED,
        format!("the text could not be sent: {why}"),
    )
    .into()
}
