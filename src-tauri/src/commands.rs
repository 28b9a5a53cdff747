//! The commands the webview may call (each also listed in build.rs and granted in
//! capabilities/main-window.json). Documents are named by id; a path never comes from the
//! webview: only from a native dialog, the recent list, the command line or the journal.

use serde::{Deserialize, Serialize};
use tauri::ipc::Response;
use tauri::{AppHandle, Manager, State, WebviewWindow};
use trellis_doc::journal::JournalEntry;
use trellis_doc::{Begun, Change, DocFormat, DocId, Edit, ViewDelta};
use trellis_spec::{Diagnostic, TypeInfo};
use ts_rs::TS;

use crate::answer::Answer;
pub use crate::answer::{codes, parse_id, CommandError};
use crate::dialogs::{self, Confirm};
use crate::menu;
use crate::open_failures::{self, OpenFailure, PendingFailures};
use crate::open_progress;
use crate::state::AppState;
use crate::transfer::{self, ExportAnswer};
use crate::ui_sync;
use crate::view::{
    answer_view, file_name, recent_list, DocumentSummary, DocumentView, RecentFile, SaveAnswer,
};

fn view(state: &AppState, id: DocId) -> Answer<DocumentView> {
    let ws = state.ws();
    Ok(crate::view::document_view(ws.session(id)?))
}

/// After a change: the title follows, and the recent menu when it moved.
fn touched(app: &AppHandle, state: &AppState, id: DocId) {
    state.set_active(Some(id));
    let ws = state.ws();
    ui_sync::refresh_title(app, &ws);
}

#[tauri::command]
pub fn list_documents(state: State<'_, AppState>) -> Vec<DocumentSummary> {
    let ws = state.ws();
    ws.ids().into_iter().filter_map(|id| ws.get(id)).map(DocumentSummary::of).collect()
}

/// The document the UI shows: its view, and the window title follows it.
#[tauri::command]
pub fn get_document(app: AppHandle, state: State<'_, AppState>, doc_id: String) -> Answer<Response> {
    let id = parse_id(&doc_id)?;
    touched(&app, &state, id);
    let ws = state.ws();
    Ok(answer_view(ws.session(id)?)?)
}

/// A document's view and nothing else (the active document stays): what the page asks for
/// when an event says a document was opened or changed (`ui_sync::emit_view`).
#[tauri::command]
pub fn document_view(state: State<'_, AppState>, doc_id: String) -> Answer<Response> {
    let id = parse_id(&doc_id)?;
    let ws = state.ws();
    Ok(answer_view(ws.session(id)?)?)
}

/// The UI shows this document (its tab was chosen): the window title follows it.
#[tauri::command]
pub fn set_active_document(app: AppHandle, state: State<'_, AppState>, doc_id: String) -> Answer<()> {
    let id = parse_id(&doc_id)?;
    state.ws().session(id)?;
    crate::subgraphs::refresh_shown(&app, &state, id);
    touched(&app, &state, id);
    Ok(())
}

/// Applies an edit; answers what changed in the view (the UI applies it to the view it holds).
#[tauri::command]
pub fn apply_edit(
    app: AppHandle,
    state: State<'_, AppState>,
    doc_id: String,
    edit: Edit,
) -> Answer<ViewDelta> {
    change(&app, &state, &doc_id, Change::Edit(&edit))
}

#[tauri::command]
pub fn undo(app: AppHandle, state: State<'_, AppState>, doc_id: String) -> Answer<ViewDelta> {
    change(&app, &state, &doc_id, Change::Undo)
}

#[tauri::command]
pub fn redo(app: AppHandle, state: State<'_, AppState>, doc_id: String) -> Answer<ViewDelta> {
    change(&app, &state, &doc_id, Change::Redo)
}

fn change(app: &AppHandle, state: &AppState, doc_id: &str, change: Change<'_>) -> Answer<ViewDelta> {
    let id = parse_id(doc_id)?;
    let delta = crate::view::worded(state.ws().answer(id, change)?);
    touched(app, state, id);
    Ok(delta)
}

/// Saves to the document's file; an untitled document asks where (as Save As).
#[tauri::command]
pub async fn save_document(app: AppHandle, window: WebviewWindow, doc_id: String) -> Answer<SaveAnswer> {
    let id = parse_id(&doc_id)?;
    save_flow(&app, &window, id, false).await
}

#[tauri::command]
pub async fn save_document_as(app: AppHandle, window: WebviewWindow, doc_id: String) -> Answer<SaveAnswer> {
    let id = parse_id(&doc_id)?;
    save_flow(&app, &window, id, true).await
}

/// Save, or Save As when `ask` or when the document has no file yet.
pub async fn save_flow(app: &AppHandle, window: &WebviewWindow, id: DocId, ask: bool) -> Answer<SaveAnswer> {
    let state = app.state::<AppState>();
    let (has_path, suggested, before, had_conflict) = {
        let ws = state.ws();
        let s = ws.session(id)?;
        let suggested = suggested_name(&file_name(s), s.spec().and_then(|g| g.name.clone()));
        (s.path().is_some(), suggested, s.diagnostics().to_vec(), s.conflict().is_some())
    };
    let save_as = ask || !has_path;
    let result = if save_as {
        let Some(path) = dialogs::pick_save_path(window, &suggested).await else {
            // Cancelled: nothing written, nothing to report.
            return Ok(SaveAnswer::not_saved(state.ws().session(id)?, &before, Vec::new(), false));
        };
        let r = state.ws().save_as(id, &path);
        menu::refresh_recent(app);
        r
    } else {
        state.ws().save(id)
    };
    if result.is_ok() {
        // A conflict report resolved in the app goes with the save that writes the resolution.
        crate::compare::after_save(&app.state::<crate::compare::CompareState>(), &state, id);
    }
    let answer = match result {
        Ok(outcome) => {
            let ws = state.ws();
            let session = ws.session(id)?;
            // Save As names another file, and a save over a conflict settles it: the whole view
            // (its path and name, its conflict) goes again.
            let (view, delta) = match save_as || had_conflict {
                true => (Some(crate::view::document_view(session)), None),
                false => (None, Some(crate::view::worded(session.delta_since(&before)))),
            };
            SaveAnswer {
                saved: true,
                view,
                delta,
                diagnostics: outcome.warnings,
                conflict: false,
                reformatted_lines: outcome.reformatted_lines,
                new_layout_file: outcome.layout_path.filter(|_| outcome.layout_created),
            }
        }
        Err(refused) => {
            // Why nothing was written (a conflict, a position no file can hold, a failed write),
            // in the editor's words; the UI tells it as a message, never as a document finding.
            let told = refused.diagnostics.into_iter().map(crate::wording::for_editor).collect();
            SaveAnswer::not_saved(state.ws().session(id)?, &before, told, refused.conflict)
        }
    };
    touched(app, &state, id);
    Ok(answer)
}

/// A file name for Save As: the document's, or its graph name, or "untitled.json".
pub fn suggested_name(current: &str, graph_name: Option<String>) -> String {
    if current != "Untitled" {
        return current.to_string();
    }
    let stem: String = graph_name
        .unwrap_or_default()
        .chars()
        .map(|c| if c.is_alphanumeric() || c == '-' || c == '_' { c } else { '-' })
        .collect();
    if stem.trim_matches('-').is_empty() {
        "untitled.json".into()
    } else {
        format!("{}.json", stem.trim_matches('-'))
    }
}

/// New document: from the built-in example (`example: true` or `template: "example"`) or
/// empty (`template: "empty"`, the default).
#[tauri::command]
pub fn new_document(
    app: AppHandle,
    state: State<'_, AppState>,
    example: Option<bool>,
    template: Option<String>,
) -> Answer<DocumentView> {
    let use_example = match template.as_deref() {
        Some("example") => true,
        Some("empty") => false,
        Some(other) => {
            return Err(Diagnostic::error(
                codes::BAD_ARGUMENT,
                format!("unknown template \"{other}\" (expected \"example\" or \"empty\")"),
            )
            .into())
        }
        None => example.unwrap_or(false),
    };
    let id = {
        let mut ws = state.ws();
        if use_example {
            ws.new_from_example()?
        } else {
            ws.new_empty()
        }
    };
    touched(&app, &state, id);
    view(&state, id)
}

/// Open: a native dialog filtered to spec files; `null` when cancelled. A file that does not
/// open is refused with its reasons, and an `open-failed` notice names it in the window.
#[tauri::command]
pub async fn open_document_dialog(app: AppHandle, window: WebviewWindow) -> Answer<Response> {
    let Some(path) = dialogs::pick_spec_file(&window).await else {
        return Ok(Response::new(String::from("null")));
    };
    open_and_answer(&app, &path)
}

/// Opens `path` and answers its view.
fn open_and_answer(app: &AppHandle, path: &std::path::Path) -> Answer<Response> {
    let id = open_path(app, path)?;
    let state = app.state::<AppState>();
    let ws = state.ws();
    Ok(answer_view(ws.session(id)?)?)
}

/// Opens a path that came from a dialog, the command line, the recent list or a drop.
pub fn open_path(app: &AppHandle, path: &std::path::Path) -> Answer<DocId> {
    let state = app.state::<AppState>();
    let id = match begin_open(app, path)? {
        Begun::AlreadyOpen(id) => id,
        Begun::Read(opening) => state.ws().finish_open(opening),
    };
    opened(app, &state, id);
    Ok(id)
}

/// The first step of an open (`Workspace::begin_open`), its progress shown; a refusal is
/// reported (a notice with the file name and reason).
fn begin_open(app: &AppHandle, path: &std::path::Path) -> Answer<Begun> {
    let state = app.state::<AppState>();
    // The workspace is held only to take what the open needs: reading and laying out a large
    // file take seconds, and the window goes on answering meanwhile.
    let begun = open_progress::with_progress(app, path, |progress| {
        let start = state.ws().start_open(path);
        match start {
            trellis_doc::Starting::AlreadyOpen(id) => Ok(Begun::AlreadyOpen(id)),
            trellis_doc::Starting::Ready(start) => start.read(progress).map(Begun::Read),
        }
    });
    Ok(begun.inspect_err(|ds| {
        // Stopped by the user: nothing to report.
        if !ds.iter().any(|d| d.code == trellis_doc::workspace::codes::OPEN_CANCELLED) {
            open_failures::report(app, path, ds);
        }
    })?)
}

/// After an open: the recent menu, the active document and the title.
fn opened(app: &AppHandle, state: &AppState, id: DocId) {
    crate::logging::opened(&state.ws(), id);
    menu::refresh_recent(app);
    touched(app, state, id);
}

/// The recent-files list, most recent first.
#[tauri::command]
pub fn recent_files(state: State<'_, AppState>) -> Vec<RecentFile> {
    let ws = state.ws();
    recent_list(ws.recent())
}

/// Async, as Open is: a large file is read and laid out off the main thread, with progress.
#[tauri::command]
pub async fn open_recent(app: AppHandle, state: State<'_, AppState>, index: usize) -> Answer<Response> {
    let path = state.ws().recent().get(index).cloned();
    let Some(path) = path else {
        let code = trellis_doc::workspace::codes::RECENT_FAILED;
        return Err(Diagnostic::error(code, format!("there is no recent file {index}")).into());
    };
    open_and_answer(&app, &path)
}

/// Closes a document. Dirty and not `force`: asks (Save / Don't Save / Cancel). Answers
/// whether it was closed.
#[tauri::command]
pub async fn close_document(
    app: AppHandle,
    window: WebviewWindow,
    doc_id: String,
    force: Option<bool>,
) -> Answer<bool> {
    let id = parse_id(&doc_id)?;
    close_flow(&app, &window, id, force.unwrap_or(false)).await
}

/// Close with the unsaved-changes prompt. A refused save (errors, conflict) keeps the document
/// open and tells the UI why (a `document-changed` event carries the diagnostics).
pub async fn close_flow(app: &AppHandle, window: &WebviewWindow, id: DocId, force: bool) -> Answer<bool> {
    let state = app.state::<AppState>();
    let (dirty, name) = {
        let ws = state.ws();
        let s = ws.session(id)?;
        (s.is_dirty(), file_name(s))
    };
    if dirty && !force {
        match dialogs::confirm_unsaved(window, &name).await {
            Confirm::Cancel => return Ok(false),
            Confirm::Discard => {}
            Confirm::Save => {
                let answer = save_flow(app, window, id, false).await?;
                if !answer.saved {
                    if !answer.diagnostics.is_empty() {
                        let msg = answer
                            .diagnostics
                            .iter()
                            .map(|d| d.message.as_str())
                            .collect::<Vec<_>>()
                            .join("\n");
                        dialogs::error(window, &format!("{name} was not saved"), &msg).await;
                    }
                    return Ok(false);
                }
            }
        }
    }
    state.ws().close(id, true).map_err(|r| CommandError::from(r.diagnostic))?;
    if state.active() == Some(id) {
        state.set_active(None);
    }
    ui_sync::emit_closed(app, id);
    ui_sync::refresh_title(app, &state.ws());
    Ok(true)
}

/// The node types in force for a document.
#[tauri::command]
pub fn registry_types(state: State<'_, AppState>, doc_id: String) -> Answer<Vec<TypeInfo>> {
    let id = parse_id(&doc_id)?;
    Ok(crate::view::document_view(state.ws().session(id)?).registry)
}

/// The Weaveflow `version` documents must declare (a setting: the format has used "1.0" and
/// "2.0").
#[tauri::command]
pub fn weaveflow_version(state: State<'_, AppState>) -> String {
    state.ws().weaveflow_version().to_owned()
}

/// Sets the accepted Weaveflow `version` (kept in the data folder) and revalidates every open
/// document; their new views go out as `document-changed`.
#[tauri::command]
pub fn set_weaveflow_version(app: AppHandle, state: State<'_, AppState>, version: String) -> Answer<String> {
    let mut ws = state.ws();
    let events = ws.set_weaveflow_version(&version)?;
    crate::ui_sync::emit_doc_events(&app, &ws, &events);
    Ok(ws.weaveflow_version().to_owned())
}

/// Unsaved work left by an earlier run that is not open now.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct PendingRecovery {
    /// The entry key: what `restore` and `discard` take.
    pub key: String,
    pub title: String,
    pub path: Option<String>,
    #[ts(type = "number")]
    pub written_ms: u64,
    pub has_errors: bool,
}

impl From<&JournalEntry> for PendingRecovery {
    fn from(e: &JournalEntry) -> Self {
        PendingRecovery {
            key: e.key.clone(),
            title: e.title.clone(),
            path: e.path.clone(),
            written_ms: e.written_ms,
            has_errors: e.has_errors,
        }
    }
}

#[tauri::command]
pub fn journal_pending(state: State<'_, AppState>) -> Vec<PendingRecovery> {
    state.ws().pending_recovery().0.iter().map(PendingRecovery::from).collect()
}

#[tauri::command]
pub fn restore(app: AppHandle, state: State<'_, AppState>, entry: String) -> Answer<DocumentView> {
    let id = state.ws().restore(&entry)?;
    touched(&app, &state, id);
    view(&state, id)
}

#[tauri::command]
pub fn discard(state: State<'_, AppState>, entry: String) -> Answer<()> {
    Ok(state.ws().discard_recovery(&entry)?)
}

/// The user's answer to a conflict.
#[derive(Debug, Clone, Copy, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum ConflictChoice {
    /// Keep my version; the next save overwrites the outside change.
    KeepMine,
    /// Reload the file's version (undoable).
    TakeTheirs,
}

#[tauri::command]
pub fn resolve_conflict(
    app: AppHandle,
    state: State<'_, AppState>,
    doc_id: String,
    choice: ConflictChoice,
) -> Answer<DocumentView> {
    let id = parse_id(&doc_id)?;
    match choice {
        ConflictChoice::KeepMine => {
            state.ws().keep_mine(id)?;
        }
        ConflictChoice::TakeTheirs => {
            state.ws().take_theirs(id)?;
        }
    }
    touched(&app, &state, id);
    view(&state, id)
}

/// Export (File > Export as …): `confirm: false` answers the converted text and what the
/// target format loses, writing nothing; `confirm: true` asks where to save (never over the
/// document's own file) and writes it atomically. A cancelled dialog answers `written: false`.
#[tauri::command]
pub async fn export_document(
    app: AppHandle,
    window: WebviewWindow,
    doc_id: String,
    format: String,
    confirm: Option<bool>,
) -> Answer<ExportAnswer> {
    let id = parse_id(&doc_id)?;
    let to = transfer::parse_format(&format)?;
    let state = app.state::<AppState>();
    let (converted, source, suggested) = {
        let ws = state.ws();
        let s = ws.session(id)?;
        (
            transfer::convert(s, to),
            s.path().map(std::path::Path::to_path_buf),
            transfer::suggested_name(&file_name(s), to),
        )
    };
    let mut answer = ExportAnswer::preview(converted);
    if !confirm.unwrap_or(false) {
        return Ok(answer);
    }
    let Some(target) = dialogs::pick_export_path(&window, &suggested, to).await else { return Ok(answer) };
    let fs = state.ws().fs().clone();
    transfer::write_export(fs.as_ref(), source.as_deref(), &target, &answer.text)?;
    answer.written = true;
    answer.path = Some(target.display().to_string());
    Ok(answer)
}

/// What Import answers: the new document, and what the conversion lost.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct ImportAnswer {
    pub view: DocumentView,
    pub losses: Vec<Diagnostic>,
}

/// Import (File > Import…): a file of any format, converted to `format` (GraphSpec when not
/// given) and opened as a new untitled, unsaved document; `null` when the dialog is cancelled.
#[tauri::command]
pub async fn import_document(
    app: AppHandle,
    window: WebviewWindow,
    format: Option<String>,
) -> Answer<Option<ImportAnswer>> {
    let to = match format.as_deref() {
        Some(f) => transfer::parse_format(f)?,
        None => DocFormat::GraphSpec,
    };
    let Some(path) = dialogs::pick_import_file(&window).await else { return Ok(None) };
    import_path(&app, &path, to).map(Some)
}

/// Imports a file that came from a dialog or the menu.
pub fn import_path(app: &AppHandle, path: &std::path::Path, to: DocFormat) -> Answer<ImportAnswer> {
    let text = transfer::read_import(path)?;
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
    let state = app.state::<AppState>();
    let (id, losses) = state.ws().import(name.as_deref(), &text, to)?;
    touched(app, &state, id);
    Ok(ImportAnswer { view: view(&state, id)?, losses })
}

/// Files that did not open before the UI could listen (the command line at start); each is
/// answered once. Later ones arrive as `open-failed` events.
#[tauri::command]
pub fn open_failures(pending: State<'_, PendingFailures>) -> Vec<OpenFailure> {
    pending.take()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_parse_both_ways() {
        assert_eq!(parse_id("3").ok().map(|d| d.0), Some(3));
        assert_eq!(parse_id("doc-12").ok().map(|d| d.0), Some(12));
        let err = parse_id("../etc/passwd").err().map(|e| e.diagnostics[0].code.clone());
        assert_eq!(err.as_deref(), Some(codes::BAD_ID));
    }

    #[test]
    fn save_as_suggests_a_file_name() {
        assert_eq!(suggested_name("support.json", None), "support.json");
        assert_eq!(suggested_name("Untitled", Some("support agent".into())), "support-agent.json");
        assert_eq!(suggested_name("Untitled", Some("///".into())), "untitled.json");
        assert_eq!(suggested_name("Untitled", None), "untitled.json");
    }
}

/// What applying a fix answers: the document's new view, and for a fix that wrote a registry
/// file, a sentence saying which file and which types (the UI shows it as a notice).
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct FixAnswer {
    pub view: DocumentView,
    #[ts(optional)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notice: Option<String>,
    /// The registry file written, when the fix wrote one.
    #[ts(optional)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wrote: Option<String>,
}

/// Applies one fix of a diagnostic (`Diagnostic.fixes[i].edit`): a document edit (one undo
/// step) or a registry write beside the document, after which every open document is
/// revalidated and sent again as `document-changed`.
#[tauri::command]
pub fn apply_fix(
    app: AppHandle,
    state: State<'_, AppState>,
    doc_id: String,
    fix: trellis_spec::FixEdit,
) -> Answer<FixAnswer> {
    use trellis_doc::fixes::FixOutcome;
    let id = parse_id(&doc_id)?;
    let outcome = state.ws().apply_fix(id, &fix)?;
    let (notice, wrote) = match outcome {
        FixOutcome::Edited(_) => (None, None),
        FixOutcome::RegistryWritten { path, notice, events, .. } => {
            let ws = state.ws();
            // The other open documents see the new types too.
            let others: Vec<_> = events
                .into_iter()
                .filter(|e| !matches!(e, trellis_doc::DocEvent::Revalidated { id: d, .. } if *d == id))
                .collect();
            crate::ui_sync::emit_doc_events(&app, &ws, &others);
            (Some(notice), Some(path.display().to_string()))
        }
    };
    touched(&app, &state, id);
    Ok(FixAnswer { view: view(&state, id)?, notice, wrote })
}

/// The node types in force for a document, by source file (the registry editor's list).
#[tauri::command]
pub fn registry_sources(
    state: State<'_, AppState>,
    doc_id: String,
) -> Answer<Vec<trellis_doc::registry_editor::RegistrySource>> {
    let id = parse_id(&doc_id)?;
    Ok(state.ws().registry_sources(id)?)
}

/// What a registry edit (or its undo) answers: the document's view after revalidation, and
/// which file was written.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct RegistryEditAnswer {
    pub view: DocumentView,
    #[ts(optional)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wrote: Option<String>,
}

fn after_registry_write(
    app: &AppHandle,
    state: &AppState,
    id: DocId,
    written: Option<trellis_doc::registry_editor::RegistryWrite>,
) -> Answer<RegistryEditAnswer> {
    let wrote = written.map(|w| {
        let ws = state.ws();
        crate::ui_sync::emit_doc_events(app, &ws, &w.events);
        w.path.display().to_string()
    });
    Ok(RegistryEditAnswer { view: view(state, id)?, wrote })
}

/// Applies one registry editor edit to a registry file of the document (`file`: its index in
/// the document's registry files; absent: the project registry beside it).
#[tauri::command]
pub fn edit_registry(
    app: AppHandle,
    state: State<'_, AppState>,
    doc_id: String,
    file: Option<usize>,
    edit: trellis_spec::registry_edit::RegistryEdit,
) -> Answer<RegistryEditAnswer> {
    let id = parse_id(&doc_id)?;
    let written = {
        let mut history = state.registry_history.lock().unwrap_or_else(|e| e.into_inner());
        state.ws().edit_registry(id, file, &edit, &mut history)?
    };
    after_registry_write(&app, &state, id, Some(written))
}

/// Undoes the registry editor's last edit.
#[tauri::command]
pub fn undo_registry_edit(
    app: AppHandle,
    state: State<'_, AppState>,
    doc_id: String,
) -> Answer<RegistryEditAnswer> {
    let id = parse_id(&doc_id)?;
    let written = {
        let mut history = state.registry_history.lock().unwrap_or_else(|e| e.into_inner());
        state.ws().undo_registry_edit(&mut history)?
    };
    after_registry_write(&app, &state, id, written)
}
