//! How much of a hand-formatted file its first save reformats ("saved in canonical
//! form: 231 lines reformatted"), so that a user who opens their own file, changes one field and
//! saves is told why the pull request shows more than that field.
//!
//! The count is taken against the canonical text of the document *as it was read*, not as it is
//! saved, so the user's own edits are never counted as reformatting: when the document was edited
//! since it was read, the text read is parsed again and written canonically; when it was not, the
//! text being saved is that canonical text already.
//!
//! "Lines reformatted" is the number of lines of the file as read that the canonical text does not
//! hold, counted with multiplicity. That is linear in the size of the file, where a line diff of a
//! re-indented 100,000-node file (every line different) would be quadratic. So a key that the
//! writer only moved (same line, other place) is not counted, and neither is a changed line that
//! happens to equal another line of the canonical text: the figure is a lower bound, exact for
//! the usual cases (other indentation, tabs, CRLF, blank lines, compact one-line JSON).

use std::collections::HashMap;

use crate::document::Document;

/// The file as it was read: its text, and whether that text is its document's canonical text
/// when that is known (`Session::learn_source_form`, at the open).
pub(crate) struct Read<'a> {
    pub text: &'a str,
    pub canonical: Option<bool>,
}

/// The count for a save writing `written` over a file that held `read`; `None` when the file
/// was already canonical (or is spliced: a Weaveflow document keeps its own formatting).
/// `unchanged`: the document is the one `read` holds (no edit since, or all undone).
pub(crate) fn reformatted_lines(
    document: &Document,
    file_name: Option<&str>,
    read: Read<'_>,
    written: &str,
    unchanged: bool,
) -> Option<u64> {
    if read.text == written || read.canonical == Some(true) || matches!(document, Document::Weaveflow(_)) {
        return None;
    }
    let canonical_owned;
    let canonical = if unchanged {
        written
    } else {
        // The text read, written canonically: what the save would have been with no edit.
        let (original, _) = crate::document::parse_document(file_name, read.text).ok()?;
        // A GraphSpec file read in canonical form (as Trellis and the reference write it), when
        // the open did not learn it, is told without writing its canonical text out and counting
        // 2.4 million lines (100,000 nodes: most of the first save's time).
        if let (Document::GraphSpec(spec), None) = (&original, read.canonical) {
            if trellis_spec::writer::is_canonical(spec, read.text) {
                return None;
            }
        }
        canonical_owned = crate::document::text(&original, None);
        canonical_owned.as_str()
    };
    let n = lines_not_in(read.text, canonical);
    (n > 0).then_some(n)
}

/// Lines of `read` (with multiplicity) that `canonical` does not hold. A CRLF line end counts as
/// part of its line (the writer writes LF, so every such line changes in the file and in its
/// diff); a missing final newline does not make the last line different.
fn lines_not_in(read: &str, canonical: &str) -> u64 {
    let mut available: HashMap<&str, u64, foldhash::fast::RandomState> = HashMap::default();
    for line in lines(canonical) {
        *available.entry(line).or_default() += 1;
    }
    let mut missing = 0;
    for line in lines(read) {
        match available.get_mut(line) {
            Some(n) if *n > 0 => *n -= 1,
            _ => missing += 1,
        }
    }
    missing
}

/// The lines of a text, each without its `\n` (a blank line is a line; the end of the text
/// after a final newline is not).
fn lines(text: &str) -> impl Iterator<Item = &str> {
    let body = text.strip_suffix('\n').unwrap_or(text);
    body.split('\n').take(if text.is_empty() { 0 } else { usize::MAX })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_lines_the_canonical_text_does_not_hold() {
        assert_eq!(lines_not_in("a\nb\nc\n", "a\nb\nc\n"), 0);
        assert_eq!(lines_not_in("a\n  b\nc", "a\nb\nc\n"), 1);
        // Moved, not changed.
        assert_eq!(lines_not_in("c\nb\na\n", "a\nb\nc\n"), 0);
        // Multiplicity: two identical lines where the canonical text has one.
        assert_eq!(lines_not_in("x\nx\n", "x\n"), 1);
        // CRLF line ends change every line they end; a missing final newline changes none.
        assert_eq!(lines_not_in("a\r\nb\r\n", "a\nb\n"), 2);
        assert_eq!(lines_not_in("a\nb", "a\nb\n"), 0);
        // A blank line the writer drops is reformatting.
        assert_eq!(lines_not_in("a\n\nb\n", "a\nb\n"), 1);
        assert_eq!(lines_not_in("", "a\n"), 0);
    }
}
