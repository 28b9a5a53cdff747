//! What crosses IPC to the UI, besides the `Edit`s it sends: the [`DocumentView`] of an open
//! document and the answers of commands. TypeScript types are generated with ts-rs
//! (`cargo test -p trellis-app export_bindings` with `TS_RS_EXPORT_DIR` set, see
//! `scripts/bindings.sh`), never written twice.

use std::path::PathBuf;

use serde::Serialize;
pub use trellis_doc::view::{file_name, id_string, DocumentView, Notice};
use trellis_doc::{Session, ViewDelta};
use trellis_spec::Diagnostic;
use ts_rs::TS;

/// A tab: what `list_documents` answers, in tab order.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct DocumentSummary {
    pub id: String,
    pub file_name: String,
    pub dirty: bool,
}

/// What Save and Save As answer. A refusal is `saved: false` with the reasons in
/// `diagnostics` (shown in the problems panel); a cancelled Save As dialog is `saved: false`
/// with no diagnostics. The file is untouched unless `saved` is true.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct SaveAnswer {
    pub saved: bool,
    pub view: DocumentView,
    pub diagnostics: Vec<Diagnostic>,
    /// True when the refusal is a conflict with a change made outside Trellis.
    pub conflict: bool,
    /// The save rewrote a hand-formatted file in canonical form: how many of its lines changed
    /// for that reason alone (the UI says so once, on that save).
    #[ts(type = "number | null")]
    pub reformatted_lines: Option<u64>,
    /// The layout file this save created beside the document (announced: it is a new file to
    /// commit with the document), if it did.
    pub new_layout_file: Option<String>,
}

impl SaveAnswer {
    /// An answer that saved nothing.
    pub fn not_saved(view: DocumentView, diagnostics: Vec<Diagnostic>, conflict: bool) -> SaveAnswer {
        SaveAnswer {
            saved: false,
            view,
            diagnostics,
            conflict,
            reformatted_lines: None,
            new_layout_file: None,
        }
    }
}

/// One entry of the recent-files list. The UI opens it by `index` (never by path).
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct RecentFile {
    #[ts(type = "number")]
    pub index: usize,
    pub path: String,
    pub file_name: String,
}

/// A document's view as the app shows it: diagnostics in the editor's words (the CLI keeps
/// the checkers').
pub fn document_view(session: &Session) -> DocumentView {
    let mut view = DocumentView::of(session);
    view.diagnostics =
        std::mem::take(&mut view.diagnostics).into_iter().map(crate::wording::for_editor).collect();
    view
}

/// The answer of a command that sends a whole document view (open, reload): its JSON written
/// once into a buffer of about its size. Tauri's own answer writes into a string that grows by
/// doubling, copying the spec's text (34 MB at 100,000 nodes) again at each step, into fresh
/// memory, which a VM of this kind is slow to hand out the first time. `views` is what the
/// answer holds (a view, or none for a cancelled dialog).
pub fn view_answer<T: Serialize>(
    answer: &T,
    views: &[&DocumentView],
) -> Result<tauri::ipc::Response, Diagnostic> {
    let spec: usize = views.iter().map(|v| v.spec.get().len()).sum();
    // The spec is most of a view; positions, labels and findings add about a tenth.
    let mut out = Vec::with_capacity(spec + spec / 8 + 4096);
    let failed = |e: &dyn std::fmt::Display| {
        Diagnostic::error(crate::answer::codes::VIEW_FAILED, format!("the view could not be sent: {e}"))
    };
    serde_json::to_writer(&mut out, answer).map_err(|e| failed(&e))?;
    // serde_json writes UTF-8 only: the check cannot fail.
    let text = String::from_utf8(out).map_err(|e| failed(&e))?;
    Ok(tauri::ipc::Response::new(text))
}

/// An edit's answer in the same words as [`document_view`] (a diagnostic is reworded alone, so
/// the list edits still apply).
pub fn worded(mut delta: ViewDelta) -> ViewDelta {
    if let Some(e) = delta.diagnostics.as_mut() {
        e.insert = std::mem::take(&mut e.insert).into_iter().map(crate::wording::for_editor).collect();
    }
    delta.notes = std::mem::take(&mut delta.notes).into_iter().map(crate::wording::for_editor).collect();
    delta
}

impl DocumentSummary {
    pub fn of(session: &Session) -> DocumentSummary {
        DocumentSummary { id: id_string(session), file_name: file_name(session), dirty: session.is_dirty() }
    }
}

/// The recent files as the UI lists them (the Open Recent menu and the start page).
pub fn recent_list(paths: &[PathBuf]) -> Vec<RecentFile> {
    paths
        .iter()
        .enumerate()
        .map(|(index, p)| RecentFile {
            index,
            path: p.display().to_string(),
            file_name: p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(),
        })
        .collect()
}
