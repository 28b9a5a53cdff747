//! "Compare with..." and the conflict report, as commands: thin over trellis-doc's `compare`
//! and `conflicts` (the diff, the marks, the edits) and trellis-git (revisions read with gix).
//! The other version is read once and kept per document until the compare view is left.

use std::collections::HashMap;
use std::path::Path;
use std::sync::{Mutex, MutexGuard};

use serde::Serialize;
use tauri::{AppHandle, State, WebviewWindow};
use trellis_doc::compare::{self, CompareAction, CompareView, Comparison};
use trellis_doc::conflicts::{self, ConflictPick, ConflictSet, ConflictsView};
use trellis_doc::{Change, DocId, Edit, Session, ViewDelta};
use trellis_spec::Diagnostic;
use ts_rs::TS;

use crate::answer::{parse_id, CommandError};
use crate::dialogs;
use crate::state::AppState;

type Answer<T> = Result<T, CommandError>;

/// How many commits "Compare with..." lists.
const RECENT_COMMITS: usize = 30;

/// The open comparisons and conflict reports, by document.
#[derive(Debug, Default)]
pub struct CompareState {
    compares: Mutex<HashMap<DocId, Comparison>>,
    conflicts: Mutex<HashMap<DocId, ConflictSet>>,
    /// What the last save said about a document's report, told once by `conflict_report`.
    saved_notes: Mutex<HashMap<DocId, Diagnostic>>,
}

impl CompareState {
    fn compares(&self) -> MutexGuard<'_, HashMap<DocId, Comparison>> {
        self.compares.lock().unwrap_or_else(|e| e.into_inner())
    }
    fn conflicts(&self) -> MutexGuard<'_, HashMap<DocId, ConflictSet>> {
        self.conflicts.lock().unwrap_or_else(|e| e.into_inner())
    }
    fn saved_notes(&self) -> MutexGuard<'_, HashMap<DocId, Diagnostic>> {
        self.saved_notes.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// A revision "Compare with..." offers.
#[derive(Debug, Clone, Serialize, TS)]
#[ts(export)]
pub struct RevisionChoice {
    /// What `compare_with_revision` takes.
    pub rev: String,
    /// A short id or a branch name.
    pub label: String,
    pub summary: String,
    pub author: String,
    /// Seconds since the Unix epoch.
    #[ts(type = "number")]
    pub time: i64,
}

/// What "Compare with..." offers for a document: the recent commits of the current branch that
/// changed the file and the other local branches, or why there are none.
#[derive(Debug, Clone, Serialize, TS)]
#[ts(export)]
pub struct CompareTargets {
    /// The file's path in the repository.
    #[ts(optional)]
    pub path: Option<String>,
    #[ts(optional)]
    pub branch: Option<String>,
    pub commits: Vec<RevisionChoice>,
    pub branches: Vec<RevisionChoice>,
    /// Why revisions cannot be offered (no file yet, not in a Git repository).
    #[ts(optional)]
    pub unavailable: Option<String>,
}

fn choice(r: trellis_git::Revision) -> RevisionChoice {
    RevisionChoice { rev: r.rev, label: r.label, summary: r.summary, author: r.author, time: r.time }
}

fn not_in_git(why: impl Into<String>) -> CommandError {
    Diagnostic::error(compare::codes::NOT_IN_GIT, why).into()
}

fn doc_path(state: &AppState, id: DocId) -> Answer<Option<std::path::PathBuf>> {
    Ok(state.ws().session(id)?.path().map(Path::to_path_buf))
}

#[tauri::command]
pub fn compare_targets(state: State<'_, AppState>, doc_id: String) -> Answer<CompareTargets> {
    let id = parse_id(&doc_id)?;
    let empty = |why: String| CompareTargets {
        path: None,
        branch: None,
        commits: Vec::new(),
        branches: Vec::new(),
        unavailable: Some(why),
    };
    let Some(path) = doc_path(&state, id)? else {
        return Ok(empty("the document has no file yet, so it has no Git history".into()));
    };
    let located = match trellis_git::locate(&path) {
        Ok(l) => l,
        Err(why) => return Ok(empty(why)),
    };
    let commits = trellis_git::history(&located.repo, &located.path, RECENT_COMMITS).map_err(not_in_git)?;
    let branches = trellis_git::branches(&located.repo, &located.path).map_err(not_in_git)?;
    Ok(CompareTargets {
        branch: trellis_git::current_branch(&located.repo),
        path: Some(located.path),
        commits: commits.into_iter().map(choice).collect(),
        branches: branches.into_iter().map(choice).collect(),
        unavailable: None,
    })
}

/// `NAME.layout.json` beside `NAME.json` (GRAPH.md: `GRAPH.layout.json`): the sidecar name.
fn sidecar_name(path: &str) -> String {
    let (stem, _) = path.rsplit_once('.').unwrap_or((path, ""));
    format!("{stem}.layout.json")
}

fn start(
    compare_state: &CompareState,
    state: &AppState,
    id: DocId,
    make: impl FnOnce(&Session) -> Result<Comparison, Diagnostic>,
) -> Answer<CompareView> {
    let ws = state.ws();
    let session = ws.session(id)?;
    let comparison = make(session)?;
    let view = comparison.view(session)?;
    compare_state.compares().insert(id, comparison);
    Ok(view)
}

/// Compares with the file at a revision (a commit id or a branch name).
#[tauri::command]
pub fn compare_with_revision(
    state: State<'_, AppState>,
    compare_state: State<'_, CompareState>,
    doc_id: String,
    rev: String,
) -> Answer<CompareView> {
    let id = parse_id(&doc_id)?;
    let Some(path) = doc_path(&state, id)? else {
        return Err(not_in_git("the document has no file yet, so it has no Git history"));
    };
    let located = trellis_git::locate(&path).map_err(not_in_git)?;
    let what = format!("{}:{}", short(&rev), located.path);
    let bytes = trellis_git::read_at(&located.repo, &rev, &located.path)
        .map_err(|e| Diagnostic::error(compare::codes::UNREADABLE, format!("{what} cannot be read: {e}")))?;
    let sidecar = trellis_git::read_at(&located.repo, &rev, &sidecar_name(&located.path)).ok();
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
    // A branch other than the current one is someone else's work: "take theirs".
    let is_branch = trellis_git::branches(&located.repo, &located.path)
        .map(|b| b.iter().any(|r| r.rev == rev))
        .unwrap_or(false);
    let action = if is_branch { CompareAction::TakeTheirs } else { CompareAction::Revert };
    let against = if is_branch { format!("branch {rev}") } else { format!("revision {}", short(&rev)) };
    start(&compare_state, &state, id, |s| {
        Comparison::new(s, &what, name.as_deref(), &bytes, sidecar.as_deref(), against, action)
    })
}

fn short(rev: &str) -> &str {
    if rev.len() == 40 && rev.bytes().all(|b| b.is_ascii_hexdigit()) {
        &rev[..7]
    } else {
        rev
    }
}

/// Asks for a file and compares with it (`null` when the dialog was cancelled).
#[tauri::command]
pub async fn compare_with_file(
    window: WebviewWindow,
    state: State<'_, AppState>,
    compare_state: State<'_, CompareState>,
    doc_id: String,
) -> Answer<Option<CompareView>> {
    let id = parse_id(&doc_id)?;
    let Some(path) = dialogs::pick_spec_file(&window).await else {
        return Ok(None);
    };
    let what =
        path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned());
    let bytes = std::fs::read(&path)
        .map_err(|e| Diagnostic::error(compare::codes::UNREADABLE, format!("{what} cannot be read: {e}")))?;
    let sidecar = std::fs::read(path.with_file_name(sidecar_name(&what))).ok();
    start(&compare_state, &state, id, |s| {
        Comparison::new(
            s,
            &what,
            Some(&what),
            &bytes,
            sidecar.as_deref(),
            what.clone(),
            CompareAction::TakeTheirs,
        )
    })
    .map(Some)
}

/// The compare view of the document now (after an edit, an undo or a redo).
#[tauri::command]
pub fn compare_view(
    state: State<'_, AppState>,
    compare_state: State<'_, CompareState>,
    doc_id: String,
) -> Answer<Option<CompareView>> {
    let id = parse_id(&doc_id)?;
    let compares = compare_state.compares();
    let Some(c) = compares.get(&id) else { return Ok(None) };
    let ws = state.ws();
    Ok(Some(c.view(ws.session(id)?)?))
}

/// Reverts one change (or takes theirs): one ordinary edit, answered like `apply_edit`.
#[tauri::command]
pub fn compare_take(
    app: AppHandle,
    state: State<'_, AppState>,
    compare_state: State<'_, CompareState>,
    doc_id: String,
    key: String,
) -> Answer<ViewDelta> {
    let id = parse_id(&doc_id)?;
    let edit = {
        let compares = compare_state.compares();
        let c = compares.get(&id).ok_or_else(|| {
            CommandError::from(Diagnostic::error(compare::codes::CHANGE_GONE, "the compare view is closed"))
        })?;
        let ws = state.ws();
        c.edit_for(ws.session(id)?, &key)?
    };
    apply(&app, &state, id, &edit)
}

fn apply(app: &AppHandle, state: &AppState, id: DocId, edit: &Edit) -> Answer<ViewDelta> {
    let delta = crate::view::worded(state.ws().answer(id, Change::Edit(edit))?);
    crate::ui_sync::refresh_title(app, &state.ws());
    Ok(delta)
}

/// Leaves the compare view.
#[tauri::command]
pub fn compare_close(compare_state: State<'_, CompareState>, doc_id: String) -> Answer<()> {
    let id = parse_id(&doc_id)?;
    compare_state.compares().remove(&id);
    Ok(())
}

/// What the conflict panel shows: the report beside the document, or a notice when it does
/// not read (the document is open either way).
#[derive(Debug, Clone, Serialize, TS)]
#[ts(export)]
pub struct ConflictsAnswer {
    #[ts(optional)]
    pub view: Option<ConflictsView>,
    #[ts(optional)]
    pub notice: Option<Diagnostic>,
}

/// The conflict report beside the document (read once, then kept with its picks).
#[tauri::command]
pub fn conflict_report(
    state: State<'_, AppState>,
    compare_state: State<'_, CompareState>,
    doc_id: String,
) -> Answer<ConflictsAnswer> {
    let id = parse_id(&doc_id)?;
    let ws = state.ws();
    let session = ws.session(id)?;
    let mut sets = compare_state.conflicts();
    let saved = compare_state.saved_notes().remove(&id);
    if let Some(set) = sets.get(&id) {
        return Ok(ConflictsAnswer { view: Some(set.view(session)), notice: saved });
    }
    if saved.is_some() {
        return Ok(ConflictsAnswer { view: None, notice: saved });
    }
    let Some(path) = session.path() else { return Ok(ConflictsAnswer { view: None, notice: None }) };
    match conflicts::load(ws.fs().as_ref(), path) {
        None => Ok(ConflictsAnswer { view: None, notice: None }),
        Some(Err(notice)) => Ok(ConflictsAnswer { view: None, notice: Some(notice) }),
        Some(Ok(set)) => {
            let view = set.view(session);
            sets.insert(id, set);
            Ok(ConflictsAnswer { view: Some(view), notice: None })
        }
    }
}

/// Picks a value for one conflict: an ordinary edit when it changes the document.
#[tauri::command]
pub fn conflict_pick(
    app: AppHandle,
    state: State<'_, AppState>,
    compare_state: State<'_, CompareState>,
    doc_id: String,
    index: usize,
    pick: ConflictPick,
) -> Answer<Option<ViewDelta>> {
    let id = parse_id(&doc_id)?;
    let mut sets = compare_state.conflicts();
    let set = sets.get_mut(&id).ok_or_else(|| {
        CommandError::from(Diagnostic::error(
            conflicts::codes::BAD_PICK,
            "the document has no conflict report open",
        ))
    })?;
    let edit = {
        let ws = state.ws();
        set.pick(ws.session(id)?, index, &pick)?
    };
    let Some(edit) = edit else { return Ok(None) };
    match apply(&app, &state, id, &edit) {
        Ok(delta) => Ok(Some(delta)),
        Err(e) => {
            set.unpick(index);
            Err(e)
        }
    }
}

/// After a successful save of `id`: a resolved conflict report is removed, an open one stays;
/// what happened is told by the next `conflict_report`.
pub fn after_save(compare_state: &CompareState, state: &AppState, id: DocId) {
    let mut sets = compare_state.conflicts();
    let ws = state.ws();
    let (Some(set), Ok(session)) = (sets.get(&id), ws.session(id)) else { return };
    let note = set.after_save(ws.fs().as_ref(), session);
    if note.code == conflicts::codes::REPORT_REMOVED && note.severity == trellis_spec::Severity::Info {
        sets.remove(&id);
    }
    compare_state.saved_notes().insert(id, note);
}
