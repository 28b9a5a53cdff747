//! The text changes the canvas: the pane's changes are applied to the text, the text is read by
//! the document's own reader, and what it reads replaces the document through the same small
//! reversible changes edits are made of. One undo step holds the text change and the document
//! change together; typing without a pause longer than the coalescing second is one step.

use indexmap::IndexMap;
use serde::Deserialize;
use trellis_spec::{Diagnostic, GraphSpec};
use ts_rs::TS;

use super::reading::{first_error, flags, writer_text};
use super::spec_prims;
use super::view::codes;
use crate::document::Document;
use crate::edit::{Changed, Edit, EditOutcome, Position};
use crate::history::{apply_all, is_snapshot, CoalesceKey, Prim, Step, COALESCE_MS};
use crate::session::Session;
use crate::text_changes::diff;
use crate::text_changes::offsets::{len_utf16, to_bytes};
use crate::text_changes::step::{TextFlags, TextStep};
use crate::text_changes::{TextChange, TextUpdate};

/// What the pane sends after a pause in the typing: its changes (one list per editor update,
/// each in the places of the text before it), made on `version` of the text.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, TS)]
#[ts(export)]
pub struct TextEdit {
    /// The pane's id: its own changes come back under it (`@codemirror/collab`).
    pub client: String,
    #[ts(type = "number")]
    pub version: u64,
    pub updates: Vec<Vec<TextChange>>,
}

/// The coalescing key of typing steps (no node id can be this).
const TYPING: &str = "\u{0}text";

/// What the text reads as.
enum Reading {
    Spec(GraphSpec, Vec<Diagnostic>),
    /// A Weaveflow or GRAPH.md document (applied as a replacement of the document).
    Format(Vec<Diagnostic>),
    Unreadable(Diagnostic),
}

impl Session {
    /// Applies the pane's typing. Changes made on an older version than the text's change
    /// nothing (the answer brings the pane the updates it missed; it sends them again rebased).
    pub(crate) fn type_text(&mut self, edit: &TextEdit) -> Result<EditOutcome, Diagnostic> {
        if self.text_pane.text.is_none() {
            self.text_pane.text = Some(writer_text(self));
            self.text_pane.writer_text = true;
        }
        if edit.version != self.text_pane.version || edit.updates.iter().all(Vec::is_empty) {
            return Ok(self.outcome(Changed::default(), Vec::new()));
        }
        let old = self.text_pane.text.clone().unwrap_or_default();
        let mut new = old.clone();
        let mut echoes = Vec::new();
        for changes in &edit.updates {
            let length = len_utf16(&new);
            new = applied(&new, changes)?;
            echoes.push(TextUpdate { client: edit.client.clone(), changes: changes.clone(), length });
        }
        if new == old {
            // Typing that changed nothing (replaced a character by itself): confirmed, no step.
            for echo in echoes {
                self.text_pane.logged(echo);
            }
            return Ok(self.outcome(Changed::default(), Vec::new()));
        }
        let before = flags(self);
        let (prims, changed, reading_ok) = self.read_typed(&new)?;
        let after = TextFlags {
            error: self.text_pane.error.clone(),
            writer_text: reading_ok && writer_text(self) == new,
        };
        let hunks = diff::hunks(&old, &new);
        let mut step_prims =
            vec![Prim::Text(Box::new(TextStep::of(&old, &new, &hunks, before, after.clone())))];
        step_prims.extend(prims);
        self.push_typing(step_prims);
        for echo in echoes {
            self.text_pane.logged(echo);
        }
        if reading_ok {
            if let Document::Weaveflow(_) = self.document() {
                self.source = Some(new.clone());
            }
        }
        self.text_pane.text = Some(new);
        self.text_pane.writer_text = after.writer_text;
        if reading_ok {
            self.revalidate();
        }
        self.touched();
        Ok(self.outcome(self.settle(changed), Vec::new()))
    }

    /// Reads `text` and, when it reads, makes the document what it says: the prims that did
    /// it and what they changed. Sets the text's error either way.
    fn read_typed(&mut self, text: &str) -> Result<(Vec<Prim>, Changed, bool), Diagnostic> {
        let reading = match self.document() {
            Document::GraphSpec(_) => {
                let parsed = trellis_spec::parse_spec(text);
                match parsed.spec {
                    Some(spec) => Reading::Spec(spec, parsed.diagnostics),
                    None => Reading::Unreadable(first_error(parsed.diagnostics)),
                }
            }
            Document::Weaveflow(_) => {
                let parsed = trellis_formats::weaveflow::parse(text);
                match parsed.doc {
                    Some(_) => Reading::Format(parsed.diagnostics),
                    None => Reading::Unreadable(first_error(parsed.diagnostics)),
                }
            }
            Document::GraphMd(_) => {
                let read = trellis_formats::graphmd::read(text);
                match read.doc {
                    Some(_) => Reading::Format(read.diagnostics),
                    None => Reading::Unreadable(first_error(read.diagnostics)),
                }
            }
        };
        match reading {
            Reading::Unreadable(error) => {
                self.text_pane.error = Some(error);
                Ok((Vec::new(), Changed::default(), false))
            }
            Reading::Spec(after, diagnostics) => {
                let Document::GraphSpec(spec) = &mut self.document else { return unreachable_format() };
                let prims = spec_prims::between(spec, &after, &self.layout);
                let changed = apply_all(&prims, spec, &mut self.layout);
                self.read_diagnostics = diagnostics;
                self.text_pane.error = None;
                Ok((prims, changed, true))
            }
            Reading::Format(diagnostics) => {
                let positions = self.places_for_new_nodes(text);
                let edit = Edit::ReplaceDocument { text: text.to_owned(), positions };
                let done = crate::perform::perform(self.target_for_text(), &edit)?;
                self.read_diagnostics = diagnostics;
                self.text_pane.error = None;
                Ok((done.prims, done.changed, true))
            }
        }
    }

    /// GRAPH.md keeps positions beside the document: a node typed in gets one below the last
    /// placed node. (A Weaveflow text carries its own positions.)
    fn places_for_new_nodes(&self, text: &str) -> IndexMap<String, Position> {
        let mut out = IndexMap::new();
        let Document::GraphMd(_) = self.document() else { return out };
        let Some(doc) = trellis_formats::graphmd::read(text).doc else { return out };
        let placed = &self.layout.positions;
        let lowest = placed.values().fold(None::<Position>, |m, p| match m {
            Some(m) if m.y >= p.y => Some(m),
            _ => Some(*p),
        });
        let mut next = lowest.map_or(Position { x: 0.0, y: 0.0 }, |p| Position { x: p.x, y: p.y + 110.0 });
        for id in Document::GraphMd(doc).node_ids() {
            if !placed.contains_key(id) {
                out.insert(id.to_owned(), next);
                next.y += 110.0;
            }
        }
        out
    }

    fn target_for_text(&mut self) -> crate::perform::Target<'_> {
        crate::perform::Target {
            document: &mut self.document,
            layout: &mut self.layout,
            registry: Some(&self.registries.registry),
        }
    }

    /// Records a typing step: into the last step when that one is typing too, less than the
    /// coalescing second ago, not saved, with nothing undone since.
    fn push_typing(&mut self, prims: Vec<Prim>) {
        let now = self.clock.now_ms();
        let joins = self.history.undo.last().is_some_and(|last| {
            self.history.redo.is_empty()
                && self.saved_state != Some(last.id)
                && last.id == self.state
                && !is_snapshot(&last.prims)
                && !is_snapshot(&prims)
                && last
                    .coalesce
                    .as_ref()
                    .is_some_and(|k| k.node == TYPING && now.saturating_sub(k.at_ms) <= COALESCE_MS)
        });
        if let (true, Some(last)) = (joins, self.history.undo.last_mut()) {
            last.prims.extend(prims);
            if let Some(k) = last.coalesce.as_mut() {
                k.at_ms = now;
            }
            return;
        }
        let id = self.next_step;
        self.next_step += 1;
        let coalesce = Some(CoalesceKey { node: TYPING.into(), path: String::new(), at_ms: now });
        self.push_step(Step { id, prims, coalesce });
    }
}

/// `text` with `changes` (places in `text`, UTF-16, ascending and apart) applied.
fn applied(text: &str, changes: &[TextChange]) -> Result<String, Diagnostic> {
    let bad = || {
        Diagnostic::error(
            codes::BAD_CHANGE,
            "the text pane sent a change outside the text; nothing was changed",
        )
    };
    let mut places = Vec::with_capacity(changes.len() * 2);
    let mut last = 0u32;
    for c in changes {
        if c.from < last || c.to < c.from {
            return Err(bad());
        }
        places.push(c.from);
        places.push(c.to);
        last = c.to;
    }
    let bytes = to_bytes(text, &places).ok_or_else(bad)?;
    let mut out = String::with_capacity(text.len() + changes.iter().map(|c| c.insert.len()).sum::<usize>());
    let mut at = 0;
    for (c, range) in changes.iter().zip(bytes.chunks(2)) {
        out.push_str(&text[at..range[0]]);
        out.push_str(&c.insert);
        at = range[1];
    }
    out.push_str(&text[at..]);
    Ok(out)
}

fn unreachable_format<T>() -> Result<T, Diagnostic> {
    Err(Diagnostic::error(codes::BAD_CHANGE, "the document changed format while it was read (a bug)"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn change(from: u32, to: u32, insert: &str) -> TextChange {
        TextChange { from, to, insert: insert.into() }
    }

    #[test]
    fn changes_apply_in_the_text_before_them() {
        assert_eq!(applied("abcdef", &[change(1, 2, "X"), change(4, 4, "YY")]).unwrap(), "aXcdYYef");
        assert_eq!(applied("aé😀b", &[change(2, 4, "z")]).unwrap(), "aézb");
        assert!(applied("abc", &[change(2, 1, "")]).is_err(), "backwards");
        assert!(applied("abc", &[change(1, 2, ""), change(0, 1, "")]).is_err(), "not ascending");
        assert!(applied("abc", &[change(1, 9, "")]).is_err(), "past the end");
        assert!(applied("a😀", &[change(2, 2, "x")]).is_err(), "inside a character");
    }
}
