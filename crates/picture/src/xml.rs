//! Writing text into XML so that any name is safe: the five markup characters escaped, and the
//! characters XML 1.0 cannot hold at all (most C0 controls, U+FFFE, U+FFFF) replaced by U+FFFD,
//! since a single one would make the whole file unreadable. Whitespace controls inside
//! attributes are written as character references, so a parser gives them back unchanged. And
//! text cut to the room it has.

use std::fmt::Write;

/// Appends `s` escaped for element text or a double-quoted attribute value.
pub fn escape_into(out: &mut String, s: &str) {
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => {
                let _ = write!(out, "&#{};", c as u32);
            }
            c if allowed(c) => out.push(c),
            _ => out.push('\u{FFFD}'),
        }
    }
}

/// `s` escaped (see [`escape_into`]).
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    escape_into(&mut out, s);
    out
}

/// What XML 1.0 allows: `#x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF]`
/// (a Rust `char` is never a surrogate).
fn allowed(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r') || (c >= ' ' && c != '\u{FFFE}' && c != '\u{FFFF}')
}

/// What XML gives back for `s` after [`escape`]: the text with the characters it cannot hold
/// replaced (tests compare parsed text with this).
pub fn readable(s: &str) -> String {
    s.chars().map(|c| if allowed(c) { c } else { '\u{FFFD}' }).collect()
}

/// A coordinate: at most one decimal, no `-0`, no exponent (SVG numbers may not have one in
/// every reader); a value that is not finite is drawn at 0.
pub fn num(v: f64) -> String {
    if !v.is_finite() {
        return "0".into();
    }
    let r = (v * 10.0).round() / 10.0;
    if r == 0.0 {
        "0".into()
    } else if r == r.trunc() {
        format!("{r:.0}")
    } else {
        format!("{r:.1}")
    }
}

/// `s` cut to `max` characters with "…" when longer.
pub fn shorten(s: &str, max: usize) -> std::borrow::Cow<'_, str> {
    match s.char_indices().nth(max.saturating_sub(1)) {
        Some((cut, _)) if s.chars().nth(max).is_some() => format!("{}…", &s[..cut]).into(),
        _ => s.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shortening_counts_characters_not_bytes() {
        assert_eq!(shorten("abc", 5), "abc");
        assert_eq!(shorten("abcdef", 5), "abcd…");
        assert_eq!(shorten("abcde", 5), "abcde");
        assert_eq!(shorten("ééééééé", 3), "éé…");
    }

    #[test]
    fn markup_and_forbidden_characters_are_escaped() {
        assert_eq!(escape(r#"a<b & "c" 'd'>"#), "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;");
        assert_eq!(escape("x\u{1}y\u{FFFF}"), "x\u{FFFD}y\u{FFFD}");
        assert_eq!(escape("tab\there\nnl"), "tab&#9;here&#10;nl");
        assert_eq!(escape("مرحبا 👋"), "مرحبا 👋");
        assert_eq!(readable("a\u{0}b"), "a\u{FFFD}b");
    }

    #[test]
    fn numbers_are_plain() {
        assert_eq!(num(12.0), "12");
        assert_eq!(num(-0.04), "0");
        assert_eq!(num(3.25), "3.3");
        assert_eq!(num(1e20), "100000000000000000000");
        assert_eq!(num(f64::NAN), "0");
    }
}
