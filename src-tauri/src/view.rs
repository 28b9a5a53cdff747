//! What crosses IPC to the UI, besides the `Edit`s it sends: the [`DocumentView`] of an open
//! document and the answers of commands. TypeScript types are generated with ts-rs
//! (`cargo test -p trellis-app export_bindings` with `TS_RS_EXPORT_DIR` set, see
//! `scripts/bindings.sh`), never written twice.

use serde::Serialize;
use serde_json::value::RawValue;
use trellis_doc::formats::view::{display_spec, GraphMdView, WeaveflowView};
use trellis_doc::{Conflict, Layout, Session};
use trellis_spec::{Diagnostic, GraphSpec, Severity, TypeInfo};
use ts_rs::TS;

/// One open document as the UI renders it. Sent whole on open, after an edit and on events
/// (`document-changed`); the UI replaces its copy.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct DocumentView {
    /// The document's id: the only way the UI names a document (never a path).
    pub id: String,
    /// Where the file is, for display (`null` for an untitled document).
    pub path: Option<String>,
    /// The file name, or "Untitled".
    pub file_name: String,
    /// `"graphspec"`, `"weaveflow"` or `"graphmd"`.
    pub format: String,
    pub dirty: bool,
    /// The GraphSpec; for Weaveflow and GRAPH.md, the canvas projection of the document (same
    /// node ids; edges one for one in the document's order, so an edge index is the same).
    // Written from the session's model by reference when the view is made: cloning a
    // 5,000-node model for every answer cost time and memory the allocator kept (issue 8).
    #[ts(as = "GraphSpec")]
    pub spec: Box<RawValue>,
    /// Weaveflow documents: the definition and its entry and finish points (null otherwise).
    pub weaveflow: Option<WeaveflowView>,
    /// GRAPH.md documents: front matter, body, topology and path analysis (null otherwise).
    pub graphmd: Option<GraphMdView>,
    pub layout: Layout,
    /// No layout file was found: the UI lays the graph out automatically
    /// (`apply_layout` with `automatic: true`, which is neither an undo step nor dirty).
    pub layout_missing: bool,
    /// Every diagnostic of the document (the one validator's, plus reading findings).
    pub diagnostics: Vec<Diagnostic>,
    /// The node types in force for this document (built-in plus project registries).
    pub registry: Vec<TypeInfo>,
    pub can_undo: bool,
    pub can_redo: bool,
    /// Outside events the user must know about: the file was deleted or moved, the document
    /// was reloaded or restored from the recovery journal.
    pub notices: Vec<Notice>,
    /// The file changed on disk while the document had unsaved changes: the UI shows the
    /// conflict bar (keep mine, take theirs, compare) and calls `resolve_conflict`.
    pub conflict: Option<Conflict>,
}

/// A message shown above the canvas.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[ts(export)]
pub struct Notice {
    /// `"info"`, `"warning"` or `"error"`.
    pub level: String,
    pub message: String,
    /// The diagnostic code (`doc/file-deleted`, `doc/reloaded`, ...).
    pub code: String,
}

impl From<&Diagnostic> for Notice {
    fn from(d: &Diagnostic) -> Self {
        let level = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        };
        Notice { level: level.into(), message: d.message.clone(), code: d.code.clone() }
    }
}

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

/// The file name shown for a session (tab, window title).
pub fn file_name(session: &Session) -> String {
    session
        .path()
        .and_then(|p| p.file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "Untitled".into())
}

/// The id as the UI knows it.
pub fn id_string(session: &Session) -> String {
    session.id().0.to_string()
}

impl DocumentView {
    pub fn of(session: &Session) -> DocumentView {
        let registry = &session.registries().registry;
        let mut types: Vec<TypeInfo> = registry.types().map(|t| t.info.clone()).collect();
        types.sort_by(|a, b| a.type_name.cmp(&b.type_name));
        let mut diagnostics = session.registries().diagnostics.clone();
        diagnostics.extend(session.diagnostics().iter().cloned());
        // The app shows the editor's words (the CLI keeps the checkers').
        let diagnostics = diagnostics.into_iter().map(crate::wording::for_editor).collect();
        DocumentView {
            id: id_string(session),
            path: session.path().map(|p| p.display().to_string()),
            file_name: file_name(session),
            format: format_name(session),
            dirty: session.is_dirty(),
            spec: spec_json(session),
            weaveflow: session.weaveflow().map(WeaveflowView::of),
            graphmd: session.graphmd().map(GraphMdView::of),
            layout: session.layout().clone(),
            layout_missing: session.layout_missing(),
            diagnostics,
            registry: types,
            can_undo: session.can_undo(),
            can_redo: session.can_redo(),
            notices: session.notices().iter().map(Notice::from).collect(),
            conflict: session.conflict().cloned(),
        }
    }
}

/// The view's GraphSpec as JSON text, written straight from the session's model.
fn spec_json(session: &Session) -> Box<RawValue> {
    let written = match session.spec() {
        Some(spec) => serde_json::value::to_raw_value(spec),
        None => serde_json::value::to_raw_value(&display_spec(session.document()).unwrap_or_default()),
    };
    // A GraphSpec is plain data (strings, maps, JSON values): serializing it cannot fail; an
    // empty graph keeps the UI working should it ever.
    written.unwrap_or_else(|_| {
        serde_json::value::to_raw_value(&GraphSpec::default()).unwrap_or_else(|_| RawValue::NULL.to_owned())
    })
}

fn format_name(session: &Session) -> String {
    serde_json::to_value(session.format())
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_else(|| "graphspec".into())
}

impl DocumentSummary {
    pub fn of(session: &Session) -> DocumentSummary {
        DocumentSummary { id: id_string(session), file_name: file_name(session), dirty: session.is_dirty() }
    }
}
