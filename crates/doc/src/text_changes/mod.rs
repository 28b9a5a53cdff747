//! The pane's text as a session holds it (`crate::text` is the pane itself): the text, its
//! version and the log of its changes, the smallest change between two texts ([`diff`]), the
//! conversion of places to the editor's units ([`offsets`]), and a text change as an undo step
//! holds it ([`step`]). Below the history, which keeps text steps among its prims.

pub(crate) mod diff;
pub(crate) mod offsets;
pub(crate) mod step;

use std::collections::VecDeque;

use serde::{Deserialize, Serialize};
use trellis_spec::Diagnostic;
use ts_rs::TS;

pub(crate) use step::TextStep;

/// One change of the text: `from..to` (UTF-16 code units of the text before the change)
/// becomes `insert`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct TextChange {
    pub from: u32,
    pub to: u32,
    pub insert: String,
}

/// One version step of the text: changes made on one version (apart, ascending, in that
/// version's places), by the pane (`client`: its id) or by Trellis (`crate::text::TRELLIS`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct TextUpdate {
    pub client: String,
    pub changes: Vec<TextChange>,
    /// The length (UTF-16) of the text the changes apply to.
    pub length: u32,
}

/// A session's side of the text pane.
#[derive(Debug, Default)]
pub(crate) struct TextState {
    /// The pane's text: kept while the pane is open, and while it is not the writer's text
    /// of the document (typed by the user: their formatting, or a text that does not read).
    pub(crate) text: Option<String>,
    /// A pane is open: every answer carries the text's updates.
    pub(crate) open: bool,
    /// The text is what the format's writer makes of the document.
    pub(crate) writer_text: bool,
    /// The reader's first error, while the text does not read.
    pub(crate) error: Option<Diagnostic>,
    /// Counts the updates of the text.
    pub(crate) version: u64,
    /// The last updates, by the version they apply to (to catch a pane up).
    log: VecDeque<(u64, TextUpdate)>,
    log_bytes: usize,
    /// The reformat on save was told (once a session).
    pub(crate) reformat_told: bool,
    /// Something the pane says once, at the next answer.
    pub(crate) notice: Option<String>,
    /// Where the nodes and edges are, in the version of the text they were found in.
    pub(crate) places: Option<(u64, ElementPlaces)>,
}

/// Each node's and edge's range in one version of the text (bytes), by their index in the
/// canvas's lists (`crate::text` finds them).
#[derive(Debug, Clone, Default)]
pub(crate) struct ElementPlaces {
    pub nodes: Vec<Option<(usize, usize)>>,
    pub edges: Vec<Option<(usize, usize)>>,
}

/// Updates kept for a pane that missed some, at most (and about this many bytes).
const LOG_UPDATES: usize = 256;
const LOG_BYTES: usize = 8 << 20;

fn weight(u: &TextUpdate) -> usize {
    u.changes.iter().map(|c| c.insert.len() + 16).sum()
}

impl TextState {
    /// Records an update made on the current version; the version moves on.
    pub(crate) fn logged(&mut self, update: TextUpdate) {
        self.log_bytes += weight(&update);
        self.log.push_back((self.version, update));
        self.version += 1;
        while self.log.len() > LOG_UPDATES || (self.log_bytes > LOG_BYTES && self.log.len() > 1) {
            if let Some((_, old)) = self.log.pop_front() {
                self.log_bytes -= weight(&old);
            }
        }
    }

    /// The updates from `version` on, when all of them are kept.
    pub(crate) fn since(&self, version: u64) -> Option<Vec<TextUpdate>> {
        if version > self.version {
            return None;
        }
        if version == self.version {
            return Some(Vec::new());
        }
        let first = self.log.front().map(|(v, _)| *v)?;
        if version < first {
            return None;
        }
        Some(self.log.iter().filter(|(v, _)| *v >= version).map(|(_, u)| u.clone()).collect())
    }

    /// Forgets the text when nothing needs it (the pane closed on the writer's own text).
    pub(crate) fn drop_if_unneeded(&mut self) {
        if !self.open && self.writer_text && self.error.is_none() {
            self.text = None;
            self.log.clear();
            self.log_bytes = 0;
            self.places = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn update(n: usize) -> TextUpdate {
        TextUpdate {
            client: "t".into(),
            changes: vec![TextChange { from: 0, to: 0, insert: "x".repeat(n) }],
            length: 0,
        }
    }

    #[test]
    fn the_log_answers_what_it_still_holds() {
        let mut s = TextState::default();
        for _ in 0..3 {
            s.logged(update(1));
        }
        assert_eq!(s.version, 3);
        assert_eq!(s.since(1).map(|u| u.len()), Some(2));
        assert_eq!(s.since(3), Some(Vec::new()));
        assert_eq!(s.since(4), None, "a version from the future");
        for _ in 0..LOG_UPDATES {
            s.logged(update(1));
        }
        assert_eq!(s.since(0), None, "forgotten");
        assert!(s.since(s.version - 10).is_some());
        s.logged(update(LOG_BYTES));
        assert_eq!(s.since(s.version - 1).map(|u| u.len()), Some(1), "a huge update stays alone");
    }
}
