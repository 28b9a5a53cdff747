//! Edits, undo and redo: an edit performed and recorded as an undo step (typing in one field
//! coalesced into one step), and what each answers.

use trellis_spec::Diagnostic;

use super::state::Session;
use crate::edit::{Changed, Edit, EditOutcome};
use crate::history::{CoalesceKey, Prim, Step, COALESCE_MS};
use crate::perform::{merge_prims, replay_step};

impl Session {
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

    pub(super) fn after_history_move(&mut self, changed: Changed) -> EditOutcome {
        if changed.full {
            // A reload was undone or redone: the reading findings are no longer known.
            self.read_diagnostics.clear();
        }
        self.refresh_form_notice();
        self.revalidate();
        self.touched();
        self.outcome(self.settle(changed), Vec::new())
    }
}
