//! What crosses IPC to the UI, besides the `Edit`s it sends: the [`DocumentView`] of an open
//! document and the answers of commands. TypeScript types are generated with ts-rs
//! (`cargo test -p trellis-app export_bindings` with `TS_RS_EXPORT_DIR` set, see
//! `scripts/bindings.sh`), never written twice.

use std::path::PathBuf;

use serde::Serialize;
use tauri::ipc::Response;
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
///
/// A save does not change the document: what changed in its view (dirty, the reading's
/// findings, notices, the layout file) comes as a `delta`, as an edit's answer does. The whole
/// `view` comes instead when more changed: the file (Save As) or a conflict.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct SaveAnswer {
    pub saved: bool,
    pub view: Option<DocumentView>,
    pub delta: Option<ViewDelta>,
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
    /// An answer that saved nothing: what changed in the view since the findings were
    /// `before`, or the whole view when the refusal is a conflict (the view then holds it).
    pub fn not_saved(
        session: &Session,
        before: &[Diagnostic],
        diagnostics: Vec<Diagnostic>,
        conflict: bool,
    ) -> SaveAnswer {
        let (view, delta) = match conflict {
            true => (Some(document_view(session)), None),
            false => (None, Some(worded(session.delta_since(before)))),
        };
        SaveAnswer {
            saved: false,
            view,
            delta,
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
    in_editor_words(DocumentView::of(session))
}

fn in_editor_words(mut view: DocumentView) -> DocumentView {
    view.diagnostics =
        std::mem::take(&mut view.diagnostics).into_iter().map(crate::wording::for_editor).collect();
    view
}

/// The answer of a command that sends `session`'s whole view (open, get): its JSON written once,
/// into a buffer of about its size (Tauri's own answer would grow a string by doubling, copying
/// the text at each step: 34 MB at 100,000 nodes). The page reads it with `JSON.parse` as it
/// reads any answer.
pub fn answer_view(session: &Session) -> Result<Response, Diagnostic> {
    answer_json(session).map(Response::new).map_err(|e| {
        Diagnostic::error(crate::answer::codes::VIEW_FAILED, format!("the view could not be sent: {e}"))
    })
}

fn answer_json(session: &Session) -> serde_json::Result<String> {
    // About what the view takes: its spec, plus about an eighth for positions, labels and
    // findings.
    let spec = trellis_doc::view::spec_json_len(session);
    let mut out = Vec::with_capacity(spec + spec / 8 + 4096);
    serde_json::to_writer(&mut out, &document_view(session))?;
    // serde_json writes UTF-8 only.
    Ok(String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()))
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;
    use std::sync::Arc;
    use trellis_doc::{DocId, Registries, SystemClock};

    fn session(spec: &trellis_spec::GraphSpec) -> Session {
        let text = trellis_spec::to_canonical_string(spec);
        let registries = Registries::new(trellis_spec::builtin::default_registry());
        Session::from_text(DocId(1), Some("g.json"), &text, registries, Arc::new(SystemClock)).expect("opens")
    }

    /// The answer is the view, whatever its size, in the editor's words.
    #[test]
    fn the_answer_is_the_whole_view() {
        for nodes in [20, 3_000] {
            let s = session(&trellis_spec::generate::generate(nodes, 3));
            let answer: Value = serde_json::from_str(&answer_json(&s).expect("write")).expect("JSON");
            assert_eq!(answer, serde_json::to_value(document_view(&s)).expect("view"));
            assert_eq!(answer["spec"]["nodes"].as_array().map(Vec::len), Some(nodes));
        }
    }

    /// A `__proto__` key is data like any other: the page reads the answer with `JSON.parse`,
    /// which keeps it as an own member.
    #[test]
    fn a_proto_key_is_sent_as_data() {
        let mut spec = trellis_spec::generate::generate(30, 3);
        spec.nodes[5].config.insert("__proto__".into(), Value::from(1));
        let answer: Value =
            serde_json::from_str(&answer_json(&session(&spec)).expect("write")).expect("JSON");
        assert_eq!(answer["spec"]["nodes"][5]["config"]["__proto__"], Value::from(1));
    }
}
