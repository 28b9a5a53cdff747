//! A document session: one open document with its file fingerprint, layout, registries,
//! undo/redo history and dirty flag. Edits come in as [`Edit`]s and answer an [`EditOutcome`].
//!
//! The session does no I/O of its own: opening and saving go through a [`FileSystem`]
//! ([`Session::open`], `crate::save`), so all of it is testable on the fake file system.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use trellis_formats::graphmd::GraphMd;
use trellis_formats::weaveflow::WeaveflowDoc;
use trellis_spec::{json, validate, Diagnostic, GraphSpec};
use ts_rs::TS;

pub use crate::document::{DocFormat, DocId, Document};
pub use crate::fingerprint::Fingerprint;
pub use crate::registries::Registries;

use crate::clock::Clock;
use crate::document::parse_document;
use crate::edit::{Changed, Edit, EditOutcome};
use crate::fs::FileSystem;
use crate::history::{apply_all, CoalesceKey, History, Prim, Step, COALESCE_MS};
use crate::layout::{self, sidecar_path, Layout};
use crate::perform::{merge_prims, replay_step};

mod form;

/// Diagnostic codes of sessions (opening, reloading, outside changes).
pub mod codes {
    pub use crate::document::codes::{READ_FAILED, UNSUPPORTED_FORMAT};
    /// The file was deleted (or moved away) outside Trellis; the document stays open, dirty.
    pub const FILE_DELETED: &str = "doc/file-deleted";
    /// The file was moved outside Trellis; the document stays open, dirty.
    pub const FILE_MOVED: &str = "doc/file-moved";
    /// The document was reloaded because the file changed on disk (undoable).
    pub const RELOADED: &str = "doc/reloaded";
    /// The document was restored from the recovery journal.
    pub const RESTORED: &str = "doc/restored";
    /// The file is not in canonical form: its first save reformats it (info; the number of
    /// lines in the message; `Edit::Reformat` makes that a step of its own).
    pub const HAND_FORMATTED: &str = "doc/hand-formatted";
    /// `reformat` was refused: the file is canonical already, or the document was edited.
    pub const NOTHING_TO_REFORMAT: &str = "doc/nothing-to-reformat";
}

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
    fn target(&mut self) -> crate::perform::Target<'_> {
        crate::perform::Target {
            document: &mut self.document,
            layout: &mut self.layout,
            registry: Some(&self.registries.registry),
        }
    }

    /// A session on an in-memory document (New).
    pub fn new(id: DocId, document: Document, registries: Registries, clock: Arc<dyn Clock>) -> Session {
        let mut s = Session::unvalidated(id, document, registries, clock);
        s.revalidate();
        s
    }

    /// A session before its first validation: the callers validate once, when everything the
    /// diagnostics depend on (the reading findings too) is in place. Validating a 100,000-node
    /// document takes most of a second, so it must not run twice on open.
    fn unvalidated(id: DocId, document: Document, registries: Registries, clock: Arc<dyn Clock>) -> Session {
        let mut s = Session {
            id,
            path: None,
            fingerprint: None,
            document,
            layout: Layout::default(),
            layout_missing: true,
            registries,
            clock,
            history: History::default(),
            read_diagnostics: Vec::new(),
            diagnostics: Vec::new(),
            notices: Vec::new(),
            conflict: None,
            state: 0,
            base_state: 0,
            saved_state: Some(0),
            next_step: 1,
            forced_dirty: false,
            revision: 0,
            last_change_ms: 0,
            source: None,
            subgraphs: Default::default(),
            source_state: None,
            source_canonical: None,
            routes: Default::default(),
            reformat_lines: None,
            reformat_step: None,
            text_pane: Default::default(),
        };
        if let Document::Weaveflow(d) = &s.document {
            (s.layout, s.layout_missing) = crate::formats::weaveflow::layout_of(d);
        }
        s
    }

    /// Reads a document from text (its format detected). `file_name` helps detection.
    pub fn from_text(
        id: DocId,
        file_name: Option<&str>,
        text: &str,
        registries: Registries,
        clock: Arc<dyn Clock>,
    ) -> Result<Session, Vec<Diagnostic>> {
        Session::from_source(id, file_name, text.to_owned(), registries, clock)
    }

    /// [`Session::from_text`] of text the session keeps as it is (an opened file's: not copied
    /// again).
    fn from_source(
        id: DocId,
        file_name: Option<&str>,
        text: String,
        registries: Registries,
        clock: Arc<dyn Clock>,
    ) -> Result<Session, Vec<Diagnostic>> {
        let mut s = Session::unchecked_from_source(id, file_name, text, registries, clock)?;
        s.revalidate();
        Ok(s)
    }

    /// [`Session::from_source`] without the validation.
    fn unchecked_from_source(
        id: DocId,
        file_name: Option<&str>,
        text: String,
        registries: Registries,
        clock: Arc<dyn Clock>,
    ) -> Result<Session, Vec<Diagnostic>> {
        let (document, read_diagnostics) = parse_document(file_name, &text)?;
        let mut s = Session::unvalidated(id, document, registries, clock);
        s.source = Some(text);
        s.source_state = Some(s.state);
        s.read_diagnostics = read_diagnostics;
        s.diagnostics = s.read_diagnostics.clone();
        Ok(s)
    }

    /// Opens a file: reads it, fingerprints it, reads its layout sidecar (a missing or broken
    /// one makes `layout_missing` true, the latter with a warning).
    pub fn open(
        fs: &dyn FileSystem,
        id: DocId,
        path: &Path,
        registries: Registries,
        clock: Arc<dyn Clock>,
    ) -> Result<Session, Vec<Diagnostic>> {
        let mut s = Session::read(fs, id, path, registries, clock)?;
        s.revalidate();
        Ok(s)
    }

    /// [`Session::open`] without the validation: the findings are the reading's only until
    /// [`Session::revalidate`] runs (`crate::workspace::Opening`).
    pub(crate) fn read(
        fs: &dyn FileSystem,
        id: DocId,
        path: &Path,
        registries: Registries,
        clock: Arc<dyn Clock>,
    ) -> Result<Session, Vec<Diagnostic>> {
        let read_failed = |e: std::io::Error| {
            vec![Diagnostic::error(codes::READ_FAILED, format!("cannot read {}: {e}", path.display()))]
        };
        let (fingerprint, bytes) = Fingerprint::read(fs, path)
            .map_err(read_failed)?
            .ok_or_else(|| read_failed(std::io::Error::new(std::io::ErrorKind::NotFound, "no such file")))?;
        // The bytes become the text kept, without a copy; text that is not UTF-8 is told
        // where, as `decode_utf8` tells it.
        let text = String::from_utf8(bytes).map_err(|e| match json::decode_utf8(e.as_bytes()) {
            Err(d) => vec![d],
            Ok(_) => vec![Diagnostic::error(json::codes::INVALID_UTF8, "the file is not valid UTF-8")],
        })?;
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
        let mut s = Session::unchecked_from_source(id, name.as_deref(), text, registries, clock)?;
        s.path = Some(path.to_path_buf());
        s.fingerprint = Some(fingerprint);
        s.load_layout(fs);
        Ok(s)
    }

    /// Reads the layout sidecar beside the file, if any.
    pub(crate) fn load_layout(&mut self, fs: &dyn FileSystem) {
        if let Document::Weaveflow(d) = &self.document {
            // Weaveflow keeps positions in the document itself: no sidecar.
            (self.layout, self.layout_missing) = crate::formats::weaveflow::layout_of(d);
            self.notices.extend(crate::formats::weaveflow::annotation_notices(d));
            return;
        }
        let Some(path) = &self.path else { return };
        let side = sidecar_path(path);
        self.layout_missing = true;
        match fs.read(&side) {
            Ok(bytes) => match json::decode_utf8(&bytes).and_then(Layout::parse_with_warnings) {
                Ok((l, warnings)) => {
                    self.layout = l;
                    self.layout_missing = false;
                    for w in warnings {
                        self.notices.push(Diagnostic::warning(
                            layout::codes::BAD_LAYOUT,
                            format!("the layout file {}: {w}", side.display()),
                        ));
                    }
                }
                Err(d) => self.notices.push(Diagnostic::warning(
                    layout::codes::BAD_LAYOUT,
                    format!("the layout file {} was not used: {}", side.display(), d.message),
                )),
            },
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => self.notices.push(Diagnostic::warning(
                layout::codes::BAD_LAYOUT,
                format!("the layout file {} could not be read: {e}", side.display()),
            )),
        }
    }

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

    /// Replaces the registries (a registry file changed) and revalidates.
    pub fn set_registries(&mut self, registries: Registries) -> &[Diagnostic] {
        self.registries = registries;
        self.revalidate();
        &self.diagnostics
    }

    /// Runs the one validator again.
    pub fn revalidate(&mut self) {
        let mut out = self.read_diagnostics.clone();
        match &self.document {
            Document::GraphSpec(spec) => {
                out.extend(validate::validate(spec, Some(&self.registries.registry)))
            }
            Document::Weaveflow(d) => {
                out.extend(crate::formats::weaveflow::validate(d, &self.registries, self.source.as_deref()))
            }
            Document::GraphMd(d) => out.extend(trellis_formats::graphmd::validate(d)),
        }
        self.subgraphs.refresh(&self.document, self.path.as_deref(), false);
        out.extend(self.subgraphs.diagnostics.iter().cloned());
        self.diagnostics = out;
    }

    /// What the subgraph nodes refer to (empty until a file system is attached).
    pub fn subgraph_links(&self) -> &[crate::subgraphs::SubgraphLink] {
        &self.subgraphs.links
    }

    /// Resolves the subgraph references again (`force`: even when the document and its path
    /// did not change, since the files they name may have) and puts their diagnostics in
    /// place. Answers whether anything changed.
    pub fn refresh_subgraphs(&mut self, force: bool) -> bool {
        let before = self.subgraphs.diagnostics.len();
        if !self.subgraphs.refresh(&self.document, self.path.as_deref(), force) {
            return false;
        }
        let keep = self.diagnostics.len().saturating_sub(before);
        self.diagnostics.truncate(keep);
        self.diagnostics.extend(self.subgraphs.diagnostics.iter().cloned());
        true
    }

    /// Lets the session resolve subgraph references with `fs`, and resolves them.
    pub fn attach_fs(&mut self, fs: std::sync::Arc<dyn FileSystem>) {
        self.subgraphs.attach(fs);
        self.refresh_subgraphs(false);
    }

    pub(crate) fn outcome(&self, changed: Changed, extra: Vec<Diagnostic>) -> EditOutcome {
        let mut diagnostics = extra.clone();
        diagnostics.extend(self.diagnostics.iter().cloned());
        EditOutcome {
            changed,
            notes: extra,
            diagnostics,
            dirty: self.is_dirty(),
            can_undo: self.can_undo(),
            can_redo: self.can_redo(),
        }
    }

    /// The routes of the edges as they are drawn now (`crate::routes`).
    pub fn routes(&self) -> std::sync::Arc<crate::routes::EdgeRoutes> {
        self.routes.get(self.revision, || crate::routes::EdgeRoutes::of(&self.document, &self.layout))
    }

    pub(crate) fn touched(&mut self) {
        self.revision += 1;
        self.last_change_ms = self.clock.now_ms();
    }

    pub(crate) fn settle(&self, mut changed: Changed) -> Changed {
        let ids = self.document.node_ids();
        changed.tidy(|id| ids.contains(&id));
        changed
    }

    /// Applies an edit. A refused edit changes nothing and says why. Notices about the edit
    /// itself (ids renamed by a paste) come first in `diagnostics`, as `info`.
    pub fn apply(&mut self, edit: &Edit) -> Result<EditOutcome, Diagnostic> {
        if let Edit::SetViewport { viewport } = edit {
            self.layout.viewport = Some(*viewport);
            self.touched();
            return Ok(self.outcome(Changed { viewport: true, ..Changed::default() }, Vec::new()));
        }
        if let Edit::Reformat = edit {
            return self.reformat();
        }
        let done = crate::perform::perform(self.target(), edit)?;
        if done.prims.is_empty() {
            return Ok(self.outcome(Changed::default(), done.notices));
        }
        let layout_only = done.prims.iter().all(Prim::is_layout_only);
        if matches!(edit, Edit::ApplyLayout { automatic: true, .. }) {
            // Not an undo step and not dirty: it stands for the layout file that was missing.
            self.touched();
            return Ok(self.outcome(self.settle(done.changed), done.notices));
        }
        let now = self.clock.now_ms();
        let can_coalesce = match (&done.coalesce, self.history.undo.last()) {
            (Some((node, path)), Some(last)) => {
                self.history.redo.is_empty()
                    && self.saved_state != Some(last.id)
                    && last.id == self.state
                    && !crate::history::is_snapshot(&last.prims)
                    && !crate::history::is_snapshot(&done.prims)
                    && last.coalesce.as_ref().is_some_and(|k| {
                        k.node == *node && k.path == *path && now.saturating_sub(k.at_ms) <= COALESCE_MS
                    })
            }
            _ => false,
        };
        match self.history.undo.last_mut() {
            Some(last) if can_coalesce => {
                merge_prims(&mut last.prims, done.prims);
                if let Some(k) = last.coalesce.as_mut() {
                    k.at_ms = now;
                }
            }
            _ => {
                let id = self.next_step;
                self.next_step += 1;
                let coalesce = done.coalesce.map(|(node, path)| CoalesceKey { node, path, at_ms: now });
                self.push_step(Step { id, prims: done.prims, coalesce });
            }
        }
        if !layout_only {
            self.revalidate();
        }
        self.touched();
        Ok(self.outcome(self.settle(done.changed), done.notices))
    }

    pub(crate) fn push_step(&mut self, step: Step) {
        self.state = step.id;
        if let Some(dropped) = self.history.push(step) {
            // The oldest steps were forgotten: undo now stops at the state after them.
            self.base_state = dropped;
        }
    }

    /// Undoes the last step (nothing when there is none).
    pub fn undo(&mut self) -> EditOutcome {
        let Some(mut step) = self.history.undo.pop() else {
            return self.outcome(Changed::default(), Vec::new());
        };
        let changed = replay_step(&mut self.document, &mut self.layout, &step.prims, true);
        step.coalesce = None;
        self.state = self.history.undo.last().map_or(self.base_state, |s| s.id);
        self.history.redo.push(step);
        self.after_history_move(changed)
    }

    /// Redoes the last undone step.
    pub fn redo(&mut self) -> EditOutcome {
        let Some(step) = self.history.redo.pop() else {
            return self.outcome(Changed::default(), Vec::new());
        };
        let changed = replay_step(&mut self.document, &mut self.layout, &step.prims, false);
        self.state = step.id;
        self.history.undo.push(step);
        self.after_history_move(changed)
    }

    fn after_history_move(&mut self, changed: Changed) -> EditOutcome {
        if changed.full {
            // A reload was undone or redone: the reading findings are no longer known.
            self.read_diagnostics.clear();
        }
        self.refresh_form_notice();
        self.revalidate();
        self.touched();
        self.outcome(self.settle(changed), Vec::new())
    }

    /// Replaces the document with a new text from disk, as one undoable step; the file now
    /// holds this state (clean). Used to reload after an outside change and to take theirs.
    pub fn reload_from(
        &mut self,
        text: &str,
        fingerprint: Fingerprint,
    ) -> Result<EditOutcome, Vec<Diagnostic>> {
        let name = self.path.as_ref().and_then(|p| p.file_name()).map(|n| n.to_string_lossy().into_owned());
        let (document, read_diagnostics) = parse_document(name.as_deref(), text)?;
        let (prim, changed) = match (document, &mut self.document) {
            (Document::GraphSpec(after), Document::GraphSpec(spec)) => {
                let prim = Prim::Document { before: Box::new(spec.clone()), after: Box::new(after) };
                let changed = apply_all(std::slice::from_ref(&prim), spec, &mut self.layout);
                (prim, changed)
            }
            // Weaveflow, GRAPH.md, or a file that changed format: a snapshot step.
            (after, _) => crate::perform::replace(self.target(), after),
        };
        let id = self.next_step;
        self.next_step += 1;
        self.push_step(Step { id, prims: vec![prim], coalesce: None });
        self.saved_state = Some(id);
        self.forced_dirty = false;
        self.source = Some(text.to_owned());
        self.source_state = Some(id);
        self.source_canonical = None;
        self.reformat_step = None;
        self.learn_source_form();
        self.fingerprint = Some(fingerprint);
        self.conflict = None;
        self.notices.retain(|n| n.code != codes::FILE_DELETED && n.code != codes::FILE_MOVED);
        self.read_diagnostics = read_diagnostics;
        self.revalidate();
        self.touched();
        let note = Diagnostic::info(
            codes::RELOADED,
            "the file changed on disk and was reloaded (undo brings your version back)",
        );
        Ok(self.outcome(changed, vec![note]))
    }

    /// Records that the file on disk now holds the current state.
    pub(crate) fn mark_saved(&mut self, path: PathBuf, fingerprint: Fingerprint) {
        self.path = Some(path);
        self.fingerprint = Some(fingerprint);
        self.saved_state = Some(self.state);
        self.forced_dirty = false;
        self.conflict = None;
        self.layout_missing = false;
        // The reading findings go (the file now holds what the writer wrote); the validator's
        // stay as they are: neither the document nor the registries changed, so validating
        // again would give the same list.
        let n = self.read_diagnostics.len().min(self.diagnostics.len());
        self.diagnostics.drain(..n);
        self.read_diagnostics.clear();
        // The file holds the writer's text now: nothing is left to reformat.
        self.reformat_lines = None;
        self.notices.retain(|n| {
            n.code != codes::FILE_DELETED && n.code != codes::FILE_MOVED && n.code != codes::HAND_FORMATTED
        });
    }

    /// Makes the document dirty with a notice (the file was deleted or moved).
    pub fn mark_gone(&mut self, notice: Diagnostic) {
        self.forced_dirty = true;
        self.notices.retain(|n| n.code != notice.code);
        self.notices.push(notice);
        self.touched();
    }

    /// Records a conflict (the file changed while dirty).
    pub fn set_conflict(&mut self, theirs: &[u8], theirs_fingerprint: Fingerprint) {
        self.conflict = Some(Conflict {
            mine: self.text(),
            theirs: String::from_utf8_lossy(theirs).into_owned(),
            theirs_fingerprint,
        });
    }

    /// Keep mine: the next save overwrites the outside version (its fingerprint is taken as
    /// the one the save checks against). The document stays dirty.
    pub fn keep_mine(&mut self) {
        if let Some(c) = self.conflict.take() {
            self.fingerprint = Some(c.theirs_fingerprint);
            self.forced_dirty = true;
            self.touched();
        }
    }

    /// Take theirs: reload the outside version (undoable).
    pub fn take_theirs(&mut self) -> Result<EditOutcome, Vec<Diagnostic>> {
        match self.conflict.clone() {
            Some(c) => self.reload_from(&c.theirs, c.theirs_fingerprint),
            None => Ok(self.outcome(Changed::default(), Vec::new())),
        }
    }

    /// Marks restored work: dirty until saved, with the base file's fingerprint as it was
    /// when the work was journaled (so a save still detects a later outside change).
    pub(crate) fn mark_restored(
        &mut self,
        path: Option<PathBuf>,
        fingerprint: Option<Fingerprint>,
        layout: Layout,
    ) {
        self.path = path;
        self.fingerprint = fingerprint;
        self.layout = layout;
        self.layout_missing = false;
        self.forced_dirty = true;
        self.notices
            .push(Diagnostic::info(codes::RESTORED, "unsaved work restored from the recovery journal"));
        self.touched();
    }
}
