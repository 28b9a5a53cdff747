//! A place in a text, as diagnostics carry it.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// A place in a text: 1-based line and column (column counted in characters), plus the byte
/// range so an editor can underline it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Span {
    pub line: u32,
    pub column: u32,
    pub offset: u32,
    pub length: u32,
}

impl Span {
    /// The span of `start..end` (byte offsets) in `text`. For many spans in one text, build a
    /// line index (`LineIndex`) once instead.
    pub fn from_range(text: &str, start: usize, end: usize) -> Span {
        let start = floor_char_boundary(text, start.min(text.len()));
        let end = end.clamp(start, text.len());
        let before = &text[..start];
        let line = before.bytes().filter(|b| *b == b'\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let column = text[line_start..start].chars().count() + 1;
        Span {
            line: sat_u32(line),
            column: sat_u32(column),
            offset: sat_u32(start),
            length: sat_u32(end - start),
        }
    }

    /// The span of a 1-based line and column (as serde_json reports them), zero length.
    pub fn from_line_column(text: &str, line: usize, column: usize) -> Span {
        let mut offset = 0usize;
        for (i, l) in text.split_inclusive('\n').enumerate() {
            if i + 1 == line {
                let col_bytes: usize = l.chars().take(column.saturating_sub(1)).map(char::len_utf8).sum();
                offset += col_bytes;
                break;
            }
            offset += l.len();
        }
        let mut span = Span::from_range(text, offset, offset);
        // Keep serde_json's own numbers: they are what the user expects to read.
        span.line = sat_u32(line.max(1));
        span.column = sat_u32(column.max(1));
        span
    }
}

pub(crate) fn sat_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

pub(crate) fn floor_char_boundary(text: &str, mut i: usize) -> usize {
    while i > 0 && !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}
