//! The session and its file on disk: reloaded after an outside change, marked saved, gone
//! (deleted or moved), in conflict (keep mine, take theirs), or restored from the journal.

use std::path::PathBuf;

use trellis_spec::Diagnostic;

use super::codes;
use super::state::{Conflict, Session};
use crate::document::{parse_document, Document};
use crate::edit::{Changed, EditOutcome};
use crate::fingerprint::Fingerprint;
use crate::history::{apply_all, Prim, Step};
use crate::layout::Layout;

impl Session {
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
