//! Positions in one text, for many findings: built once per text, then every byte offset becomes
//! a line and column, and every line number its source line, without walking the text again.
//!
//! A report of N findings on a text of T bytes costs O(T) once plus about O(log T) per finding,
//! whatever N is, and whether the text has many short lines or is one minified line: the column
//! of an offset is counted from a checkpoint at most [`CHUNK`] bytes away, never from the start of
//! a long line.

use crate::line_points::Points;
use crate::span::{floor_char_boundary, sat_u32, Span};

/// Distance in bytes between two character-count checkpoints.
const CHUNK: usize = 4096;

/// Where each line of a text starts, and how many characters come before every [`CHUNK`]-th
/// byte (so a column is counted over at most `CHUNK` bytes).
#[derive(Debug)]
pub struct LineIndex<'a> {
    text: &'a str,
    /// Byte offsets as `u32`, as in [`Span`] (half the memory of a large document's index).
    line_starts: Vec<u32>,
    /// `chars_before[k]`: characters in `text[..k * CHUNK]` (counting the bytes that start a
    /// character, which is right at any byte position). Empty for an ASCII text, where a
    /// character is a byte.
    chars_before: Vec<usize>,
    /// `Some` for an index of chosen offsets only ([`LineIndex::at_offsets`]): then
    /// `line_starts` and `chars_before` are empty and every answer comes from here.
    points: Option<Points>,
}

impl<'a> LineIndex<'a> {
    /// Indexes `text` in one pass.
    pub fn new(text: &'a str) -> Self {
        let bytes = text.as_bytes();
        // Counted first so the list is allocated once at its size: grown by doubling, the list
        // of a large document (millions of lines) would be copied and its pages touched again.
        let mut line_starts = Vec::with_capacity(memchr::memchr_iter(b'\n', bytes).count() + 1);
        line_starts.push(0);
        line_starts.extend(memchr::memchr_iter(b'\n', bytes).map(|i| sat_u32(i + 1)));
        let chars_before = if text.is_ascii() {
            Vec::new()
        } else {
            let mut out = Vec::with_capacity(bytes.len() / CHUNK + 1);
            let mut count = 0usize;
            for block in bytes.chunks(CHUNK) {
                out.push(count);
                count += block.iter().filter(|b| !is_continuation(**b)).count();
            }
            out
        };
        LineIndex { text, line_starts, chars_before, points: None }
    }

    /// An index that knows the places of `offsets` only, found in one pass without a list of
    /// every line (see `line_points.rs`): for placing a few findings in a large text. It
    /// answers everything [`LineIndex::new`] does, with the same results; an offset not given,
    /// or a line none of them is on, costs a pass over the text.
    pub fn at_offsets(text: &'a str, offsets: impl IntoIterator<Item = usize>) -> Self {
        let points = Points::new(text, offsets);
        LineIndex { text, line_starts: Vec::new(), chars_before: Vec::new(), points: Some(points) }
    }

    /// The index without its text, to keep beside a text that moves (a report that owns the
    /// text a check indexed): see [`LineIndex::from_table`].
    pub fn into_table(self) -> LineTable {
        LineTable {
            len: self.text.len(),
            line_starts: self.line_starts,
            chars_before: self.chars_before,
            points: self.points,
        }
    }

    /// The index of `text` from a table made of it ([`LineIndex::into_table`]), without a pass
    /// over the text; `None` when the table was not made of a text this long (then index again).
    pub fn from_table(text: &'a str, table: LineTable) -> Option<Self> {
        (table.len == text.len()).then_some(LineIndex {
            text,
            line_starts: table.line_starts,
            chars_before: table.chars_before,
            points: table.points,
        })
    }

    /// The text this indexes.
    pub fn text(&self) -> &'a str {
        self.text
    }

    /// How many lines the text has (a final line break starts one more, empty, line).
    pub fn line_count(&self) -> usize {
        if self.points.is_some() {
            return Points::line_count(self.text);
        }
        self.line_starts.len()
    }

    /// The span of `start..end` (byte offsets, clamped to the text and to character boundaries).
    pub fn span(&self, start: usize, end: usize) -> Span {
        let text = self.text;
        if let Some(points) = &self.points {
            return points.span(text, start, end);
        }
        let start = floor_char_boundary(text, start.min(text.len()));
        let end = end.clamp(start, text.len());
        let line = self.line_starts.partition_point(|&s| s as usize <= start);
        let line_start = self.line_starts[line - 1] as usize;
        let column = self.chars_between(line_start, start) + 1;
        Span {
            line: sat_u32(line),
            column: sat_u32(column),
            offset: sat_u32(start),
            length: sat_u32(end - start),
        }
    }

    /// The byte offset where 1-based `line` starts.
    pub fn line_start(&self, line: usize) -> Option<usize> {
        if let Some(points) = &self.points {
            return points.line_start(self.text, line);
        }
        self.line_starts.get(line.checked_sub(1)?).map(|&s| s as usize)
    }

    /// The 1-based `line` of the text, without its line break (`\n` or `\r\n`).
    pub fn line(&self, line: usize) -> Option<&'a str> {
        let start = self.line_start(line)?;
        let end = if self.points.is_some() {
            memchr::memchr(b'\n', &self.text.as_bytes()[start..]).map_or(self.text.len(), |i| start + i)
        } else {
            self.line_starts.get(line).map_or(self.text.len(), |&next| next as usize - 1)
        };
        let l = &self.text[start..end];
        Some(l.strip_suffix('\r').unwrap_or(l))
    }

    /// Characters in `text[from..to]`, both on character boundaries.
    fn chars_between(&self, from: usize, to: usize) -> usize {
        if self.chars_before.is_empty() {
            return to - from;
        }
        self.chars_upto(to) - self.chars_upto(from)
    }

    /// Characters in `text[..at]`: the checkpoint at or below `at`, plus at most `CHUNK` bytes.
    fn chars_upto(&self, at: usize) -> usize {
        let k = at / CHUNK;
        let base = self.chars_before.get(k).copied().unwrap_or(0);
        let from = (k * CHUNK).min(at);
        base + self.text.as_bytes()[from..at].iter().filter(|b| !is_continuation(**b)).count()
    }
}

/// A [`LineIndex`] without the text it indexes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LineTable {
    /// The length of the text it was made of.
    len: usize,
    line_starts: Vec<u32>,
    chars_before: Vec<usize>,
    points: Option<Points>,
}

/// A UTF-8 continuation byte (`10xxxxxx`): not the start of a character.
fn is_continuation(b: u8) -> bool {
    b & 0xC0 == 0x80
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_match_the_one_off_computation() {
        let text = "{\n  \"é\": 1,\r\n  \"b\": 2\n}\n";
        let index = LineIndex::new(text);
        for start in 0..=text.len() {
            if text.is_char_boundary(start) {
                assert_eq!(index.span(start, start), Span::from_range(text, start, start), "at {start}");
            }
        }
    }

    #[test]
    fn columns_on_one_long_non_ascii_line_are_counted_in_characters() {
        // Several checkpoints' worth of a minified line, with multi-byte characters across the
        // checkpoint boundaries.
        let text: String = std::iter::repeat_n("ab\u{e7}\u{1F600}", 5_000).collect();
        let index = LineIndex::new(&text);
        for (chars, (byte, _)) in text.char_indices().enumerate().step_by(997) {
            let s = index.span(byte, byte);
            assert_eq!((s.line, s.column as usize), (1, chars + 1), "at byte {byte}");
        }
    }

    #[test]
    fn lines_come_without_their_breaks() {
        let index = LineIndex::new("a\r\nbc\n\nd");
        let lines: Vec<_> = (1..=index.line_count()).map(|n| index.line(n)).collect();
        assert_eq!(lines, [Some("a"), Some("bc"), Some(""), Some("d")]);
        assert_eq!(index.line(0), None);
        assert_eq!(index.line(5), None);
        assert_eq!(LineIndex::new("x\n").line(2), Some(""));
    }

    #[test]
    fn a_table_gives_back_the_same_index() {
        let text = "a\u{e7}\nbc\n";
        let table = LineIndex::new(text).into_table();
        let again = LineIndex::from_table(text, table.clone()).map(|i| (i.span(4, 5), i.line(2)));
        assert_eq!(again, Some((LineIndex::new(text).span(4, 5), Some("bc"))));
        assert!(LineIndex::from_table("a", table).is_none());
    }

    #[test]
    fn an_index_of_chosen_offsets_answers_as_the_full_one() {
        let text = "{\n  \"\u{e9}\": 1,\r\n  \"b\": 2\n}\n\nz";
        let full = LineIndex::new(text);
        let some = LineIndex::at_offsets(text, [4, 17, 18]);
        let some = LineIndex::from_table(text, some.into_table()).expect("same text");
        assert_eq!(some.line_count(), full.line_count());
        for n in 0..=full.line_count() + 1 {
            assert_eq!((some.line(n), some.line_start(n)), (full.line(n), full.line_start(n)), "line {n}");
        }
        for start in 0..=text.len() {
            assert_eq!(some.span(start, start + 2), full.span(start, start + 2), "at {start}");
        }
    }
}
