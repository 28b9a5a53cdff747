//! What a session tells: its document, file, layout, registries, findings and state, the
//! texts it writes, the edges' routes, and the summary the UI shows ([`SessionInfo`]).

use std::path::Path;

use serde::{Deserialize, Serialize};
use trellis_formats::graphmd::GraphMd;
use trellis_formats::weaveflow::WeaveflowDoc;
use trellis_spec::{Diagnostic, GraphSpec};
use ts_rs::TS;

use super::state::{Conflict, Session};
use crate::document::{DocFormat, DocId, Document};
use crate::fingerprint::Fingerprint;
use crate::layout::Layout;
use crate::registries::Registries;

/// A read-only summary for the UI (tab title, badges).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct SessionInfo {
    pub id: DocId,
    #[ts(type = "string | null")]
    pub path: Option<String>,
    /// The file name, or "Untitled".
    pub title: String,
    pub format: DocFormat,
    pub dirty: bool,
    pub can_undo: bool,
    pub can_redo: bool,
    /// No layout file was found: the workspace laid the graph out when it opened it
    /// (`Session::lay_out_if_missing`), and the next save writes the file.
    pub layout_missing: bool,
    /// Outside events the user must know about (file deleted or moved).
    pub notices: Vec<Diagnostic>,
    pub has_conflict: bool,
}

impl Session {
    pub fn id(&self) -> DocId {
        self.id
    }

    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    pub fn format(&self) -> DocFormat {
        self.document.format()
    }

    pub fn document(&self) -> &Document {
        &self.document
    }

    /// The text the document was read from, while the document is still what that text says
    /// (opened and not changed since): what the document holds can be learnt from it without
    /// walking the model.
    pub fn source_as_read(&self) -> Option<&str> {
        self.source.as_deref().filter(|_| self.source_state == Some(self.state))
    }

    /// The length of the text the document was read from or last saved as (0 when none):
    /// about the size of what writing it out again gives.
    pub fn source_len(&self) -> usize {
        self.source.as_deref().map_or(0, str::len)
    }

    /// The GraphSpec, when the document is one.
    pub fn spec(&self) -> Option<&GraphSpec> {
        match &self.document {
            Document::GraphSpec(s) => Some(s),
            _ => None,
        }
    }

    /// The Weaveflow document, when the document is one.
    pub fn weaveflow(&self) -> Option<&WeaveflowDoc> {
        match &self.document {
            Document::Weaveflow(d) => Some(d),
            _ => None,
        }
    }

    /// The GRAPH.md document, when the document is one.
    pub fn graphmd(&self) -> Option<&GraphMd> {
        match &self.document {
            Document::GraphMd(d) => Some(d),
            _ => None,
        }
    }

    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    pub fn layout_missing(&self) -> bool {
        self.layout_missing
    }

    pub fn fingerprint(&self) -> Option<&Fingerprint> {
        self.fingerprint.as_ref()
    }

    pub fn registries(&self) -> &Registries {
        &self.registries
    }

    /// All diagnostics of the document: reading findings, then the validator's.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        &self.diagnostics
    }

    pub fn notices(&self) -> &[Diagnostic] {
        &self.notices
    }

    pub fn conflict(&self) -> Option<&Conflict> {
        self.conflict.as_ref()
    }

    pub fn is_dirty(&self) -> bool {
        self.forced_dirty || self.saved_state != Some(self.state)
    }

    pub fn can_undo(&self) -> bool {
        !self.history.undo.is_empty()
    }

    pub fn can_redo(&self) -> bool {
        !self.history.redo.is_empty()
    }

    /// Moves on every change; the journal compares it with what it wrote.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// When the document last changed (clock milliseconds).
    pub fn last_change_ms(&self) -> u64 {
        self.last_change_ms
    }

    /// The text the format's writer makes of the document now.
    pub fn text(&self) -> String {
        crate::document::text(&self.document, self.source.as_deref())
    }

    /// The layout sidecar text for the document now.
    pub fn layout_text(&self) -> String {
        // The terminals too: placed by hand or by the layout, they must come back where they
        // were (a guessed place can sit on a node).
        self.layout
            .to_text(self.document.node_ids().into_iter().chain([trellis_spec::START, trellis_spec::END]))
    }

    pub fn info(&self) -> SessionInfo {
        SessionInfo {
            id: self.id,
            path: self.path.as_ref().map(|p| p.display().to_string()),
            title: self
                .path
                .as_ref()
                .and_then(|p| p.file_name())
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| "Untitled".into()),
            format: self.format(),
            dirty: self.is_dirty(),
            can_undo: self.can_undo(),
            can_redo: self.can_redo(),
            layout_missing: self.layout_missing,
            notices: self.notices.clone(),
            has_conflict: self.conflict.is_some(),
        }
    }

    /// The routes of the edges as they are drawn now (`crate::routes`).
    pub fn routes(&self) -> std::sync::Arc<crate::routes::EdgeRoutes> {
        self.routes.get(self.revision, || crate::routes::EdgeRoutes::of(&self.document, &self.layout))
    }
}
