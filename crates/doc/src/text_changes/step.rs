//! A change of the pane's text as an undo step holds it (`Prim::Text`): replacements with what
//! they removed and inserted, so undo puts the text back byte for byte, and the pane's state
//! (does the text read, is it the writer's) before and after.

use trellis_spec::Diagnostic;

use super::diff::Hunk;

/// `removed` at byte `from` becomes `inserted`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Replacement {
    pub from: usize,
    pub removed: String,
    pub inserted: String,
}

/// What the pane's state is on either side of a step.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct TextFlags {
    pub error: Option<Diagnostic>,
    pub writer_text: bool,
}

/// One reversible change of the text. The replacements are in descending order of place, so
/// each one's place holds both in the text before the step and when the ones before it in the
/// list are done (and, undone in the reverse order, in the text after the step).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TextStep {
    pub replacements: Vec<Replacement>,
    pub before: TextFlags,
    pub after: TextFlags,
}

impl TextStep {
    /// The step that turns `old` into `new` by `hunks` (ascending, apart).
    pub(crate) fn of(old: &str, new: &str, hunks: &[Hunk], before: TextFlags, after: TextFlags) -> TextStep {
        let replacements = hunks
            .iter()
            .rev()
            .map(|h| Replacement {
                from: h.old.start,
                removed: old[h.old.clone()].to_owned(),
                inserted: new[h.new.clone()].to_owned(),
            })
            .collect();
        TextStep { replacements, before, after }
    }

    /// Applies the step to `text` (or undoes it), when `text` holds what it expects; otherwise
    /// (the text was written again since, as a save that reformats does) nothing changes and
    /// the answer is false.
    pub(crate) fn replay(&self, text: &mut String, undo: bool) -> bool {
        let fits = |r: &Replacement, expect: &str, t: &str| {
            t.is_char_boundary(r.from)
                && t.len() >= r.from + expect.len()
                && t.is_char_boundary(r.from + expect.len())
                && &t[r.from..r.from + expect.len()] == expect
        };
        let mut out = text.clone();
        let order: Box<dyn Iterator<Item = &Replacement>> =
            if undo { Box::new(self.replacements.iter().rev()) } else { Box::new(self.replacements.iter()) };
        for r in order {
            let (expect, put) = if undo { (&r.inserted, &r.removed) } else { (&r.removed, &r.inserted) };
            if !fits(r, expect, &out) {
                return false;
            }
            out.replace_range(r.from..r.from + expect.len(), put);
        }
        *text = out;
        true
    }

    /// The flags the text has once the step is replayed.
    pub(crate) fn flags(&self, undo: bool) -> &TextFlags {
        if undo {
            &self.before
        } else {
            &self.after
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::diff::hunks;
    use super::*;

    #[test]
    fn a_step_replays_and_undoes_byte_for_byte() {
        let old = "{\n  \"a\": 1,\n  \"b\": \"é\",\n  \"c\": 3\n}\n";
        let new = "{\n  \"a\": 10,\n  \"b\": \"ü€\",\n  \"c\": 3,\n  \"d\": 4\n}\n";
        let step = TextStep::of(old, new, &hunks(old, new), TextFlags::default(), TextFlags::default());
        let mut t = old.to_owned();
        assert!(step.replay(&mut t, false));
        assert_eq!(t, new);
        assert!(step.replay(&mut t, true));
        assert_eq!(t, old);
        let mut other = "something else".to_owned();
        assert!(!step.replay(&mut other, false), "a text that does not hold what it expects");
        assert_eq!(other, "something else", "is left as it was");
    }
}
