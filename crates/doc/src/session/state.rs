//! What an open document's session holds: the document, its file's fingerprint, layout,
//! registries, history, findings and the states that say whether it is dirty.

use std::path::PathBuf;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use trellis_spec::Diagnostic;
use ts_rs::TS;

use crate::clock::Clock;
use crate::document::{DocId, Document};
use crate::fingerprint::Fingerprint;
use crate::history::History;
use crate::layout::Layout;
use crate::registries::Registries;

/// The file changed on disk while the document had unsaved changes. The UI offers keep mine,
/// take theirs, or compare (both texts are here).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Conflict {
    /// The document as it would be saved now.
    pub mine: String,
    /// The file's current text (lossy UTF-8 if it is not text).
    pub theirs: String,
    pub theirs_fingerprint: Fingerprint,
}

/// One open document.
#[derive(Debug)]
pub struct Session {
    pub(crate) id: DocId,
    pub(crate) path: Option<PathBuf>,
    pub(crate) fingerprint: Option<Fingerprint>,
    pub(crate) document: Document,
    pub(crate) layout: Layout,
    pub(crate) layout_missing: bool,
    pub(crate) registries: Registries,
    pub(crate) clock: Arc<dyn Clock>,
    pub(crate) history: History,
    /// Findings of reading the text (unknown fields, ...): kept until the next save or reload.
    pub(crate) read_diagnostics: Vec<Diagnostic>,
    pub(crate) diagnostics: Vec<Diagnostic>,
    pub(crate) notices: Vec<Diagnostic>,
    pub(crate) conflict: Option<Conflict>,
    /// The state reached after the last applied step (`base_state` when none).
    pub(crate) state: u64,
    pub(crate) base_state: u64,
    /// The state the file on disk holds, if it is still reachable.
    pub(crate) saved_state: Option<u64>,
    pub(crate) next_step: u64,
    /// Dirty whatever the history says (restored work, a deleted file).
    pub(crate) forced_dirty: bool,
    /// Moves on every change (edits, undo, viewport): the journal writes when it moves.
    pub(crate) revision: u64,
    pub(crate) last_change_ms: u64,
    /// The text last read from or written to the file: a Weaveflow document is written by
    /// changing only what changed in it (`formats::splice`).
    pub(crate) source: Option<String>,
    /// The subgraph nodes' references, resolved (`crate::subgraphs`); their diagnostics end
    /// `diagnostics`.
    pub(crate) subgraphs: crate::subgraphs::SubgraphState,
    /// The state whose document `source` holds as read from the file, while that text is the
    /// user's own (None once Trellis wrote the file): the first save counts what it reformats.
    pub(crate) source_state: Option<u64>,
    /// Whether `source` (as read) is the canonical text of the document it holds, when that is
    /// known ([`Session::learn_source_form`]): the first save then need not read it again to
    /// count what it reformats.
    pub(crate) source_canonical: Option<bool>,
    /// The edges' routes at the last state they were worked out for (`crate::routes`).
    pub(crate) routes: crate::routes::RoutesCache,
    /// The lines of the file as read that its first save reformats, when it is not in canonical
    /// form (learnt with the form, [`Session::learn_source_form`]); `None` once Trellis wrote it.
    pub(crate) reformat_lines: Option<u64>,
    /// The `Edit::Reformat` step, when one was made.
    pub(crate) reformat_step: Option<u64>,
    /// The text pane's side of the document (`crate::text`).
    pub(crate) text_pane: crate::text_changes::TextState,
}

impl Session {
    /// The document and layout an edit is performed on (`crate::perform`).
    pub(super) fn target(&mut self) -> crate::perform::Target<'_> {
        crate::perform::Target {
            document: &mut self.document,
            layout: &mut self.layout,
            registry: Some(&self.registries.registry),
        }
    }
}
