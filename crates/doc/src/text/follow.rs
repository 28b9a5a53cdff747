//! The text follows the document: after an edit, an undo or redo, a reload or a save, the text
//! the writer makes now is compared with the text the pane holds, and the difference becomes
//! an update (and, for an edit, part of its undo step, so undo gives the text back byte for
//! byte). What the pane is answered comes from here too.

use trellis_spec::{json, Diagnostic};

use super::places;
use super::reading::{reading_error, writer_text};
use super::view::{codes, TextDelta, TextProblem, TextView, EDITABLE_UP_TO, TRELLIS};
use crate::text_changes::{TextChange, TextUpdate};
use crate::document::Document;
use crate::formats::splice::splice;
use crate::history::Prim;
use crate::list_edit::ListEdit;
use crate::session::Session;
use crate::text_changes::diff::{self, Hunk};
use crate::text_changes::offsets::{len_utf16, to_utf16};
use crate::text_changes::step::{TextFlags, TextStep};

impl Session {
    /// Opens the text pane (again): the whole text, its version, its problems' places.
    pub fn open_text(&mut self) -> TextView {
        if self.text_pane.text.is_none() {
            self.text_pane.text = Some(writer_text(self));
            self.text_pane.writer_text = true;
            self.text_pane.error = None;
        } else {
            follow(self, false, false);
        }
        self.text_pane.open = true;
        let text = self.text_pane.text.clone().unwrap_or_default();
        let marks = places::all_marks(self, &text);
        let read_only = (text.len() > EDITABLE_UP_TO).then(|| {
            format!(
                "This document's text is {} MB: the pane shows it read-only (typing would read all of it again at every pause). Edit it on the canvas, or in another editor.",
                text.len() >> 20
            )
        });
        TextView { version: self.text_pane.version, error: problem(self), marks, read_only, text }
    }

    /// Closes the pane. A text the user typed (their formatting, or one that does not read) is
    /// kept until it is saved or undone; the writer's own text is let go.
    pub fn close_text(&mut self) {
        self.text_pane.open = false;
        self.text_pane.drop_if_unneeded();
    }

    /// What changed in the text since `version` (a pane that missed updates: a whole view came,
    /// a save wrote the text).
    pub fn text_since(&mut self, version: u64) -> TextDelta {
        follow(self, false, false);
        let mut delta = delta_from(self, version, None);
        if delta.marks.is_none() {
            delta.marks = Some(places::all_marks(self, self.text_pane.text.as_deref().unwrap_or("")));
        }
        delta
    }

    /// Why the pane's text does not read, while it does not.
    pub fn text_error(&self) -> Option<&Diagnostic> {
        self.text_pane.error.as_ref()
    }

    /// The pane's text when it is not what the document's writer makes (the user's own
    /// formatting, or a text that does not read): unsaved work the journal keeps.
    pub fn own_text(&self) -> Option<&str> {
        match (&self.text_pane.text, self.text_pane.writer_text && self.text_pane.error.is_none()) {
            (Some(t), false) => Some(t),
            _ => None,
        }
    }

    /// Puts back a text the journal kept for the pane (typed, not saved).
    pub(crate) fn restore_text(&mut self, text: String) {
        self.text_pane.error = reading_error(self.document(), &text);
        self.text_pane.writer_text = self.text_pane.error.is_none() && writer_text(self) == text;
        self.text_pane.text = Some(text);
    }
}

/// The text for the document now, from the text the pane holds: the writer's text, except for
/// a GraphSpec typed in the user's own formatting, where only what changed is written into it
/// (as the Weaveflow writer always does). Answers the text and whether it is the writer's.
fn derived(s: &Session, held: &str, writer_was: bool, force: bool) -> (String, bool) {
    match s.document() {
        Document::GraphSpec(_) => {
            let writer = writer_text(s);
            if writer_was || force || writer == held {
                return (writer, true);
            }
            match json::parse(&writer).ok().and_then(|v| splice(held, &v)) {
                Some(own) => {
                    let same = own == writer;
                    (own, same)
                }
                None => (writer, true),
            }
        }
        // The Weaveflow writer splices into the text it keeps (`source`), which is the pane's.
        Document::Weaveflow(d) => {
            let base = if force { s.source.as_deref() } else { Some(held) };
            (crate::document::weaveflow_text(d, base), true)
        }
        Document::GraphMd(_) => (writer_text(s), true),
    }
}

/// The document changed: the held text follows (nothing when no text is held). `record`: the
/// change went into the last undo step, which then holds the text change too. `force`: the
/// writer's text even over a text that does not read or is the user's own (an undo whose text
/// change no longer fits the text, which a save rewrote since).
pub(crate) fn follow(s: &mut Session, record: bool, force: bool) {
    let Some(held) = s.text_pane.text.take() else { return };
    if s.text_pane.error.is_some() && !force {
        // A text that does not read stays as typed; canvas edits wait for it.
        s.text_pane.text = Some(held);
        return;
    }
    let before = TextFlags { error: s.text_pane.error.clone(), writer_text: s.text_pane.writer_text };
    let (new, writer) = derived(s, &held, before.writer_text, force);
    let after = TextFlags { error: None, writer_text: writer };
    let hunks = diff::hunks(&held, &new);
    if record && (!hunks.is_empty() || before != after) {
        let step = TextStep::of(&held, &new, &hunks, before, after);
        if let Some(last) = s.history.undo.last_mut() {
            last.prims.push(Prim::Text(Box::new(step)));
        }
    }
    set_text(s, held, new, &hunks, TRELLIS);
    s.text_pane.writer_text = writer;
    s.text_pane.error = None;
    keep_form(s);
}

/// Puts `new` in place of `old` (which `hunks` turn into it), as an update by `client`.
pub(crate) fn set_text(s: &mut Session, old: String, new: String, hunks: &[Hunk], client: &str) {
    if !hunks.is_empty() {
        let update = update_of(&old, &new, hunks, client);
        s.text_pane.logged(update);
    }
    s.text_pane.text = Some(new);
}

/// The Weaveflow writer keeps the form of the text it splices into (`source`): a text that
/// reads is that form now.
fn keep_form(s: &mut Session) {
    if let (Document::Weaveflow(_), None, Some(t)) = (s.document(), &s.text_pane.error, &s.text_pane.text) {
        s.source = Some(t.clone());
    }
}

/// The update that turns `old` into `new` by `hunks`, in the pane's units.
fn update_of(old: &str, new: &str, hunks: &[Hunk], client: &str) -> TextUpdate {
    let ends: Vec<usize> = hunks.iter().flat_map(|h| [h.old.start, h.old.end]).collect();
    let units = to_utf16(old, &ends);
    let changes = hunks
        .iter()
        .zip(units.chunks(2))
        .map(|(h, u)| TextChange { from: u[0], to: u[1], insert: new[h.new.clone()].to_owned() })
        .collect();
    TextUpdate { client: client.to_owned(), changes, length: len_utf16(old) }
}

/// What a step changes of the text: the text changes it holds, and whether it changes the
/// document at all (a move of a GraphSpec node does not).
#[derive(Debug, Default)]
pub(crate) struct Moved {
    steps: Vec<TextStep>,
    document: bool,
}

/// What `prims` (an undo step's) change of the text.
pub(crate) fn text_of(prims: &[Prim]) -> Moved {
    Moved {
        steps: prims
            .iter()
            .filter_map(|p| if let Prim::Text(t) = p { Some((**t).clone()) } else { None })
            .collect(),
        document: !prims.iter().all(|p| p.is_layout_only() || matches!(p, Prim::Text(_))),
    }
}

/// Whether an edit changed the document (not only positions, notes, groups or the viewport).
pub(crate) fn changes_document(changed: &crate::edit::Changed) -> bool {
    changed.full
        || changed.name
        || changed.channels
        || changed.format_view
        || !changed.node_edits.is_empty()
        || !changed.edge_edits.is_empty()
}

/// An undo or redo moved the document by a step: the text goes back (or forth) with the text
/// changes the step holds, or follows the document when it holds none.
pub(crate) fn replayed(s: &mut Session, moved: Moved, undo: bool) {
    let Some(held) = s.text_pane.text.clone() else { return };
    if moved.steps.is_empty() {
        if moved.document {
            follow(s, false, false);
        }
        return;
    }
    let mut text = held.clone();
    let order: Vec<&TextStep> =
        if undo { moved.steps.iter().rev().collect() } else { moved.steps.iter().collect() };
    if !order.iter().all(|t| t.replay(&mut text, undo)) {
        // The text was written again since the step (a save's reformat): it follows the
        // document instead.
        follow(s, false, true);
        return;
    }
    let flags = order.last().map(|t| t.flags(undo).clone()).unwrap_or_default();
    let hunks = diff::hunks(&held, &text);
    set_text(s, held, text, &hunks, TRELLIS);
    s.text_pane.writer_text = flags.writer_text;
    s.text_pane.error = flags.error;
    keep_form(s);
}

/// A save wrote `written`: the pane shows what was written (a GraphSpec typed in the user's
/// own formatting takes the canonical form, like a formatter on save), and says so once.
pub(crate) fn saved(s: &mut Session, written: &str) {
    // Anything the pane was not told yet (an edit made apart from an answer) first, so that
    // what remains is the reformatting alone.
    follow(s, false, false);
    let Some(held) = s.text_pane.text.take() else { return };
    if held != written {
        let hunks = diff::hunks(&held, written);
        set_text(s, held, written.to_owned(), &hunks, TRELLIS);
        if matches!(s.document(), Document::GraphSpec(_)) && !s.text_pane.reformat_told {
            s.text_pane.reformat_told = true;
            s.text_pane.notice = Some(
                "Saved in canonical form: the text now shows what was written (a GraphSpec is always saved in its canonical form).".into(),
            );
        }
    } else {
        s.text_pane.text = Some(held);
    }
    s.text_pane.writer_text = true;
    s.text_pane.error = None;
    s.text_pane.drop_if_unneeded();
}

/// The text part of an answer: every update since `from`, the state after them, and how the
/// problems' places changed with the problems (`problems`: the change of the view's list).
pub(crate) fn delta_for(
    s: &mut Session,
    from: u64,
    problems: Option<&ListEdit<Diagnostic>>,
) -> Option<TextDelta> {
    s.text_pane.open.then(|| delta_from(s, from, problems))
}

fn delta_from(s: &mut Session, from: u64, problems: Option<&ListEdit<Diagnostic>>) -> TextDelta {
    let text = s.text_pane.text.as_deref().unwrap_or("");
    let (updates, reset) = match s.text_pane.since(from) {
        Some(updates) => (updates, None),
        None => (Vec::new(), Some(text.to_owned())),
    };
    let marks = reset.is_some().then(|| places::all_marks(s, text));
    let mark_edit = match (&marks, problems) {
        (None, Some(e)) => Some(ListEdit {
            at: e.at,
            remove: e.remove,
            insert: places::marks(s.document(), text, &e.insert),
        }),
        _ => None,
    };
    TextDelta {
        from,
        to: s.text_pane.version,
        updates,
        reset,
        error: problem(s),
        marks,
        mark_edit,
        notice: s.text_pane.notice.take(),
    }
}

/// The reader's error as the pane shows it: at its place in the text.
fn problem(s: &Session) -> Option<TextProblem> {
    let d = s.text_pane.error.clone()?;
    let text = s.text_pane.text.as_deref().unwrap_or("");
    let (start, len) = d.span.map_or((0, 0), |sp| (sp.offset as usize, sp.length as usize));
    let start = start.min(text.len());
    let end = (start + len).min(text.len());
    let units = to_utf16(text, &[start, end]);
    Some(TextProblem { diagnostic: d, from: units[0], to: units[1] })
}

/// A canvas edit while the text does not read is refused (the canvas is behind the text);
/// what touches only the positions, notes and groups kept beside a GraphSpec or GRAPH.md is not.
pub(crate) fn check_edit(s: &Session, edit: &crate::edit::Edit) -> Result<(), Diagnostic> {
    use crate::edit::Edit as E;
    let Some(error) = &s.text_pane.error else { return Ok(()) };
    let beside = !matches!(s.document(), Document::Weaveflow(_));
    let layout_only = matches!(
        edit,
        E::MoveNodes { .. }
            | E::ApplyLayout { .. }
            | E::AddNote { .. }
            | E::SetNote { .. }
            | E::RemoveNotes { .. }
            | E::AddGroup { .. }
            | E::SetGroup { .. }
            | E::Ungroup { .. }
    );
    if matches!(edit, E::SetViewport { .. }) || (beside && layout_only) {
        return Ok(());
    }
    Err(Diagnostic::error(
        codes::UNREADABLE,
        format!(
            "the graph was not changed: the text does not read ({}); fix the text or undo the typing first",
            at_place(error)
        ),
    ))
}

/// A save while the text does not read is refused: the text is what would be lost.
pub(crate) fn check_save(s: &Session) -> Result<(), Diagnostic> {
    match &s.text_pane.error {
        None => Ok(()),
        Some(error) => Err(Diagnostic::error(
            codes::UNREADABLE,
            format!(
                "not saved: the text does not read ({}); fix it or undo the typing (the file on disk is unchanged)",
                at_place(error)
            ),
        )
        .with_span_of(error)),
    }
}

/// "line 12, column 5: <what the reader says>".
fn at_place(error: &Diagnostic) -> String {
    match error.span {
        Some(sp) => format!("line {}, column {}: {}", sp.line, sp.column, error.message),
        None => error.message.clone(),
    }
}

/// Gives a diagnostic the place of another one.
trait SpanOf {
    fn with_span_of(self, other: &Diagnostic) -> Self;
}

impl SpanOf for Diagnostic {
    fn with_span_of(mut self, other: &Diagnostic) -> Self {
        self.span = other.span;
        self
    }
}
