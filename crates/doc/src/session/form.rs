//! The form of the text a document was read from: whether it is canonical, and for a file that
//! is not (a hand-formatted one), the `doc/hand-formatted` notice with the number of lines its
//! first save reformats, and `Edit::Reformat`, which makes that reformatting a step of its own.

use trellis_spec::Diagnostic;

use super::{codes, Session};
use crate::document::Document;
use crate::edit::{Changed, EditOutcome};
use crate::history::{Prim, Step};

impl Session {
    /// Learns whether the text a GraphSpec was read from is its canonical text (a streaming
    /// comparison, noticeable on a large document): an app does this while the page reads the
    /// document's view (`crate::workspace::Opening::check`), when the machine is otherwise
    /// waiting, so that the first save does not read the file again to count what it reformats.
    ///
    /// A file that is not canonical (and not Weaveflow, which is spliced, never reformatted)
    /// gets the `doc/hand-formatted` notice with the number of lines its first save reformats,
    /// counted as the save counts them (`crate::reformat`).
    pub fn learn_source_form(&mut self) {
        if let (Document::GraphSpec(spec), Some(text)) = (&self.document, self.source_as_read()) {
            self.source_canonical = Some(trellis_spec::writer::is_canonical(spec, text));
        }
        self.reformat_lines = match self.source_as_read() {
            Some(_) if self.source_canonical == Some(true) => None,
            Some(_) if matches!(self.document, Document::Weaveflow(_)) => None,
            Some(read) => {
                let name =
                    self.path.as_ref().and_then(|p| p.file_name()).map(|n| n.to_string_lossy().into_owned());
                let canonical = crate::document::text(&self.document, None);
                crate::reformat::reformatted_lines(
                    &self.document,
                    name.as_deref(),
                    crate::reformat::Read { text: read, canonical: self.source_canonical },
                    &canonical,
                    true,
                )
            }
            None => None,
        };
        self.refresh_form_notice();
    }

    /// True while the `Edit::Reformat` step is applied (made and not undone).
    fn reformat_stepped(&self) -> bool {
        self.reformat_step.is_some_and(|id| self.history.undo.iter().any(|s| s.id == id))
    }

    /// The `doc/hand-formatted` notice, while the file is the user's own text, not canonical,
    /// and no `reformat` step is applied.
    pub(crate) fn refresh_form_notice(&mut self) {
        self.notices.retain(|n| n.code != codes::HAND_FORMATTED);
        let (Some(n), Some(_), false) = (self.reformat_lines, self.source_state, self.reformat_stepped())
        else {
            return;
        };
        let name = self
            .path
            .as_ref()
            .and_then(|p| p.file_name())
            .map_or_else(|| "This document".to_owned(), |n| n.to_string_lossy().into_owned());
        self.notices.push(Diagnostic::info(
            codes::HAND_FORMATTED,
            format!(
                "{name} is not in canonical form: its first save will reformat {n} line{}",
                if n == 1 { "" } else { "s" }
            ),
        ));
    }

    /// `Edit::Reformat`: the reformatting as a step of its own (see there).
    pub(super) fn reformat(&mut self) -> Result<EditOutcome, Diagnostic> {
        if self.reformat_lines.is_none() || self.source_state.is_none() || self.reformat_stepped() {
            return Err(Diagnostic::error(
                codes::NOTHING_TO_REFORMAT,
                "the file is in canonical form already (or its reformatting is a step already)",
            ));
        }
        if self.source_state != Some(self.state) {
            return Err(Diagnostic::error(
                codes::NOTHING_TO_REFORMAT,
                "the document was edited since it was read, so its reformatting can no longer be saved alone: undo the edits first (or save both together)",
            ));
        }
        let id = self.next_step;
        self.next_step += 1;
        self.push_step(Step { id, prims: vec![Prim::Reformat], coalesce: None });
        self.reformat_step = Some(id);
        self.refresh_form_notice();
        self.touched();
        Ok(self.outcome(Changed::default(), Vec::new()))
    }
}
