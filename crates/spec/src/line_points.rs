//! Lines and columns of a few chosen offsets of a text, found in one pass without indexing
//! every line.
//!
//! Placing the findings of a large document needs the line and column of a few hundred
//! offsets; a full `LineIndex` holds the start of every line (a 100,000-node GraphSpec has
//! millions, fresh memory the kernel must zero). Here the offsets are
//! sorted and the text is walked once up to the last of them, counting line breaks with
//! `memchr` between neighbours, so the memory is proportional to the offsets, not the text.
//!
//! Every answer is exact: an offset that was not given, or a line none of them is on, is
//! computed from the text (a pass of its own, so callers give the offsets they will ask about).

use crate::span::{floor_char_boundary, sat_u32, Span};

/// One offset given at build time: its line, the line's start and its column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Point {
    offset: u32,
    line: u32,
    line_start: u32,
    column: u32,
}

/// The places of the chosen offsets, sorted by offset (so by line too).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Points {
    points: Vec<Point>,
}

impl Points {
    /// The places of `offsets` in `text` (clamped to the text and to character boundaries).
    pub(crate) fn new(text: &str, offsets: impl IntoIterator<Item = usize>) -> Points {
        let mut at: Vec<usize> =
            offsets.into_iter().map(|o| floor_char_boundary(text, o.min(text.len()))).collect();
        at.sort_unstable();
        at.dedup();
        let bytes = text.as_bytes();
        let mut points = Vec::with_capacity(at.len());
        // The walk's state: the last offset placed, its line, the line's start and its column.
        let (mut pos, mut line, mut line_start, mut column) = (0usize, 1usize, 0usize, 1usize);
        for o in at {
            let gap = &bytes[pos..o];
            let breaks = memchr::memchr_iter(b'\n', gap).count();
            if breaks > 0 {
                line += breaks;
                line_start = pos + memchr::memrchr(b'\n', gap).map_or(0, |i| i + 1);
                column = chars(&bytes[line_start..o]) + 1;
            } else {
                column += chars(gap);
            }
            pos = o;
            points.push(Point {
                offset: sat_u32(o),
                line: sat_u32(line),
                line_start: sat_u32(line_start),
                column: sat_u32(column),
            });
        }
        Points { points }
    }

    /// The span of `start..end`, as [`Span::from_range`] gives it.
    pub(crate) fn span(&self, text: &str, start: usize, end: usize) -> Span {
        let start = floor_char_boundary(text, start.min(text.len()));
        let end = end.clamp(start, text.len());
        // The last point at or before `start`: on the same line, the column is counted on
        // from it; otherwise the text is counted from its start.
        let k = self.points.partition_point(|p| p.offset as usize <= start);
        let Some(p) = k.checked_sub(1).map(|k| self.points[k]) else {
            return Span::from_range(text, start, end);
        };
        let gap = &text.as_bytes()[p.offset as usize..start];
        if memchr::memchr(b'\n', gap).is_some() {
            return Span::from_range(text, start, end);
        }
        Span {
            line: p.line,
            column: sat_u32(p.column as usize + chars(gap)),
            offset: sat_u32(start),
            length: sat_u32(end - start),
        }
    }

    /// The byte offset where 1-based `line` starts, `None` past the last line.
    pub(crate) fn line_start(&self, text: &str, line: usize) -> Option<usize> {
        let k = self.points.partition_point(|p| (p.line as usize) < line);
        match self.points.get(k) {
            Some(p) if p.line as usize == line => Some(p.line_start as usize),
            _ => match line.checked_sub(1)? {
                0 => Some(0),
                n => memchr::memchr_iter(b'\n', text.as_bytes()).nth(n - 1).map(|i| i + 1),
            },
        }
    }

    /// How many lines `text` has (a final line break starts one more, empty, line).
    pub(crate) fn line_count(text: &str) -> usize {
        memchr::memchr_iter(b'\n', text.as_bytes()).count() + 1
    }
}

/// Characters in `bytes` (a whole number of them): the bytes that start one.
fn chars(bytes: &[u8]) -> usize {
    if bytes.is_ascii() {
        return bytes.len();
    }
    bytes.iter().filter(|b| (**b & 0xC0) != 0x80).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "{\n  \"é\": 1,\r\n  \"b\": \"\u{1F600}x\"\n}\n\nlast";

    #[test]
    fn every_offset_given_or_not_is_placed_as_from_range() {
        let some = Points::new(TEXT, [3, 9, 9, 22, 1000]);
        let all = Points::new(TEXT, 0..TEXT.len());
        let none = Points::new(TEXT, []);
        for start in 0..=TEXT.len() + 2 {
            let want = Span::from_range(TEXT, start, start + 1);
            for p in [&some, &all, &none] {
                assert_eq!(p.span(TEXT, start, start + 1), want, "at {start}");
            }
        }
    }

    #[test]
    fn line_starts_known_or_not() {
        let some = Points::new(TEXT, [16]);
        let want: Vec<Option<usize>> = {
            let mut starts = vec![None, Some(0)];
            starts.extend(TEXT.match_indices('\n').map(|(i, _)| Some(i + 1)));
            starts.push(None);
            starts
        };
        let got: Vec<Option<usize>> = (0..want.len()).map(|n| some.line_start(TEXT, n)).collect();
        assert_eq!(got, want);
        assert_eq!(Points::line_count(TEXT), want.len() - 2);
    }

    #[test]
    fn columns_along_one_long_line_are_counted_on_from_the_last_point() {
        let text: String = std::iter::repeat_n("ab\u{e7}\u{1F600}", 2_000).collect();
        let offsets: Vec<usize> = text.char_indices().map(|(i, _)| i).step_by(37).collect();
        let points = Points::new(&text, offsets.iter().copied());
        for &o in &offsets {
            assert_eq!(points.span(&text, o, o), Span::from_range(&text, o, o));
        }
    }
}
