//! Places in the pane's text, converted once at the boundary: Rust works in bytes of UTF-8, the
//! editor (CodeMirror) counts UTF-16 code units, and a line break as one place whatever it is
//! written with (so `\r\n` is one place there, two bytes here). A text that is ASCII without
//! `\r` up to the places asked about (nearly every graph document) converts by taking the
//! number as it is.

/// The editor's places of `bytes` (ascending byte offsets on character boundaries of `text`).
pub(crate) fn to_utf16(text: &str, bytes: &[usize]) -> Vec<u32> {
    let Some(&last) = bytes.last() else { return Vec::new() };
    let last = last.min(text.len());
    if plain(&text.as_bytes()[..last]) {
        return bytes.iter().map(|&b| sat(b)).collect();
    }
    let mut out = Vec::with_capacity(bytes.len());
    let (mut at_byte, mut at_unit) = (0usize, 0usize);
    for &b in bytes {
        let b = floor(text, b.min(text.len()));
        if b > at_byte {
            at_unit += units(&text[at_byte..b]);
            // A `\r\n` cut by an earlier place was counted as two.
            if at_byte > 0 && text.as_bytes()[at_byte - 1] == b'\r' && text.as_bytes()[at_byte] == b'\n' {
                at_unit -= 1;
            }
            at_byte = b;
        }
        out.push(sat(at_unit));
    }
    out
}

/// The byte offsets of the editor's places `units` (ascending) in `text`; None when one is past
/// the end or inside a character or a `\r\n`.
pub(crate) fn to_bytes(text: &str, units: &[u32]) -> Option<Vec<usize>> {
    let last = *units.last()? as usize;
    if last <= text.len() && plain(&text.as_bytes()[..last]) {
        return Some(units.iter().map(|&u| u as usize).collect());
    }
    let mut out = Vec::with_capacity(units.len());
    let bytes = text.as_bytes();
    let mut chars = text.char_indices().peekable();
    let (mut at_unit, mut at_byte) = (0usize, 0usize);
    for &u in units {
        let u = u as usize;
        while at_unit < u {
            let (i, c) = chars.next()?;
            if c == '\r' && bytes.get(i + 1) == Some(&b'\n') {
                chars.next();
                at_byte += 2;
                at_unit += 1;
                continue;
            }
            at_unit += c.len_utf16();
            at_byte += c.len_utf8();
        }
        if at_unit != u {
            return None;
        }
        out.push(at_byte);
    }
    Some(out)
}

/// The length of `text` in the editor's places.
pub(crate) fn len_utf16(text: &str) -> u32 {
    if plain(text.as_bytes()) {
        return sat(text.len());
    }
    sat(units(text))
}

/// ASCII without `\r`: a byte is a place.
fn plain(bytes: &[u8]) -> bool {
    bytes.is_ascii() && !bytes.contains(&b'\r')
}

/// The editor's places in `text` (UTF-16 code units, `\r\n` as one).
fn units(text: &str) -> usize {
    let crlf = text.as_bytes().windows(2).filter(|w| w == b"\r\n").count();
    text.chars().map(char::len_utf16).sum::<usize>() - crlf
}

fn floor(text: &str, mut i: usize) -> usize {
    while i > 0 && !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn sat(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ascii_offsets_are_the_same_numbers() {
        assert_eq!(to_utf16("abcdef", &[0, 2, 6]), vec![0, 2, 6]);
        assert_eq!(to_bytes("abcdef", &[0, 2, 6]), Some(vec![0, 2, 6]));
    }

    #[test]
    fn wide_characters_count_as_the_editor_counts_them() {
        // "é" is 2 bytes and 1 unit; "😀" is 4 bytes and 2 units.
        let t = "aé😀b";
        assert_eq!(to_utf16(t, &[0, 1, 3, 7, 8]), vec![0, 1, 2, 4, 5]);
        assert_eq!(to_bytes(t, &[0, 1, 2, 4, 5]), Some(vec![0, 1, 3, 7, 8]));
        assert_eq!(to_bytes(t, &[3]), None, "inside the surrogate pair");
        assert_eq!(to_bytes(t, &[6]), None, "past the end");
        assert_eq!(len_utf16(t), 5);
    }

    #[test]
    fn a_windows_line_break_is_one_place() {
        let t = "a\r\nb\r\nc";
        assert_eq!(len_utf16(t), 5);
        assert_eq!(to_utf16(t, &[0, 1, 3, 4, 6, 7]), vec![0, 1, 2, 3, 4, 5]);
        assert_eq!(to_bytes(t, &[0, 1, 2, 3, 4, 5]), Some(vec![0, 1, 3, 4, 6, 7]));
        assert_eq!(to_utf16(t, &[3]), vec![2]);
        assert_eq!(to_utf16(t, &[1, 3]), vec![1, 2]);
        assert_eq!(to_utf16("x\ry", &[3]), vec![3], "a lone \\r is a place of its own");
    }
}
