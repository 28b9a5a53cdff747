//! Reading run records as JSON: one document, a top-level array read element by element, or
//! JSON lines. A record cut off by a crashed writer is read up to the cut with a warning; a
//! line that is not JSON is skipped with a warning naming it; nesting is bounded by
//! serde_json's recursion limit, so hostile input gives a diagnostic and never a stack
//! overflow.

use serde_json::Value;
use trellis_spec::{Diagnostic, Span};

use crate::codes;

/// The most bad lines told one by one; the rest are counted in one more message.
const TOLD_LINES: usize = 20;

/// A value read from a record and where it was.
#[derive(Debug, Clone)]
pub struct Item {
    pub value: Value,
    /// `line 14` (JSON lines) or `/3` (the fourth element of an array).
    pub place: String,
}

fn is_eof(e: &serde_json::Error) -> bool {
    e.classify() == serde_json::error::Category::Eof
}

fn syntax_message(e: &serde_json::Error) -> String {
    // serde_json's message ends with " at line L column C", which the span says better.
    let text = e.to_string();
    match text.rfind(" at line ") {
        Some(i) => text[..i].to_owned(),
        None => text,
    }
}

/// The whole text as one JSON value, or a diagnostic with its place.
pub fn document(text: &str) -> Result<Value, Diagnostic> {
    serde_json::from_str::<Value>(text).map_err(|e| {
        let span = Span::from_line_column(text, e.line(), e.column());
        if is_eof(&e) {
            Diagnostic::error(
                codes::TRUNCATED,
                format!(
                    "the file ends in the middle of its JSON at line {}: it was cut off (a writer that stopped?)",
                    e.line()
                ),
            )
            .with_span(span)
        } else {
            Diagnostic::error(
                codes::SYNTAX,
                format!("not JSON at line {} column {}: {}", e.line(), e.column(), syntax_message(&e)),
            )
            .with_span(span)
        }
    })
}

/// The elements of a top-level JSON array, read one at a time so an array cut off after its
/// tenth element still gives ten. `text` must start (after white space) with `[`.
pub fn array_items(text: &str, out: &mut Vec<Diagnostic>) -> Vec<Item> {
    let bytes = text.as_bytes();
    let mut items = Vec::new();
    let skip_ws = |mut i: usize| {
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        i
    };
    let mut pos = skip_ws(0);
    if bytes.get(pos) != Some(&b'[') {
        return items;
    }
    pos = skip_ws(pos + 1);
    if bytes.get(pos) == Some(&b']') {
        return items;
    }
    loop {
        let mut stream = serde_json::Deserializer::from_str(&text[pos..]).into_iter::<Value>();
        match stream.next() {
            Some(Ok(value)) => {
                items.push(Item { value, place: format!("/{}", items.len()) });
                pos = skip_ws(pos + stream.byte_offset());
            }
            Some(Err(e)) => {
                let at = pos + offset_of(&text[pos..], e.line(), e.column());
                let span = Span::from_range(text, at, at);
                out.push(if is_eof(&e) {
                    cut_off(span, items.len())
                } else {
                    Diagnostic::error(
                        codes::SYNTAX,
                        format!(
                            "element {} of the array is not JSON at line {}: {}; the {} elements before it are read",
                            items.len(),
                            span.line,
                            syntax_message(&e),
                            items.len()
                        ),
                    )
                    .with_span(span)
                });
                return items;
            }
            None => {
                out.push(cut_off(Span::from_range(text, pos, pos), items.len()));
                return items;
            }
        }
        match bytes.get(pos) {
            Some(b',') => pos = skip_ws(pos + 1),
            Some(b']') => {
                let rest = skip_ws(pos + 1);
                if rest < bytes.len() {
                    let span = Span::from_range(text, rest, rest);
                    out.push(
                        Diagnostic::warning(
                            codes::SYNTAX,
                            format!("text after the array's end at line {} is ignored", span.line),
                        )
                        .with_span(span),
                    );
                }
                return items;
            }
            None => {
                out.push(cut_off(Span::from_range(text, pos, pos), items.len()));
                return items;
            }
            Some(_) => {
                let span = Span::from_range(text, pos, pos);
                out.push(
                    Diagnostic::error(
                        codes::SYNTAX,
                        format!(
                            "expected `,` or `]` after element {} at line {}; the elements before are read",
                            items.len() - 1,
                            span.line
                        ),
                    )
                    .with_span(span),
                );
                return items;
            }
        }
    }
}

fn cut_off(span: Span, read: usize) -> Diagnostic {
    Diagnostic::warning(
        codes::TRUNCATED,
        format!(
            "the file ends in the middle of the array at line {} (a writer that stopped?): the {read} complete elements before the cut are read",
            span.line
        ),
    )
    .with_span(span)
}

/// The byte offset of a 1-based line and column within `text`.
fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let mut offset = 0;
    for (i, l) in text.split_inclusive('\n').enumerate() {
        if i + 1 == line {
            return offset + column.saturating_sub(1).min(l.len());
        }
        offset += l.len();
    }
    text.len()
}

/// JSON lines: one value a line, blank lines ignored. A last line cut off mid-value (no line
/// break after it) is a warning and the lines before it are read; any other line that is not
/// JSON is skipped with a warning naming it.
pub fn lines(text: &str, out: &mut Vec<Diagnostic>) -> Vec<Item> {
    let mut items = Vec::new();
    let mut bad = 0usize;
    let mut offset = 0usize;
    let ends_with_break = text.ends_with('\n');
    let count = text.split_inclusive('\n').count();
    for (i, raw) in text.split_inclusive('\n').enumerate() {
        let start = offset;
        offset += raw.len();
        let line = raw.trim();
        if line.is_empty() {
            continue;
        }
        match serde_json::from_str::<Value>(line) {
            Ok(value) => items.push(Item { value, place: format!("line {}", i + 1) }),
            Err(e) => {
                let lead = raw.len() - raw.trim_start().len();
                let at = start + lead + e.column().saturating_sub(1).min(line.len());
                let span = Span::from_range(text, at, at);
                let last = i + 1 == count && !ends_with_break;
                if last && is_eof(&e) {
                    out.push(
                        Diagnostic::warning(
                            codes::TRUNCATED,
                            format!(
                                "the last line ({}) is cut off in the middle (a writer that stopped?): the {} lines before it are read",
                                i + 1,
                                items.len()
                            ),
                        )
                        .with_span(span),
                    );
                    continue;
                }
                bad += 1;
                if bad <= TOLD_LINES {
                    out.push(
                        Diagnostic::warning(
                            codes::SYNTAX,
                            format!("line {} is not JSON ({}): skipped", i + 1, syntax_message(&e)),
                        )
                        .with_span(span),
                    );
                }
            }
        }
    }
    if bad > TOLD_LINES {
        out.push(Diagnostic::warning(
            codes::SYNTAX,
            format!("{} more lines are not JSON and were skipped", bad - TOLD_LINES),
        ));
    }
    items
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_array_cut_off_gives_what_came_before() {
        let mut d = Vec::new();
        let items = array_items("[{\"a\":1},\n {\"b\":2},\n {\"c\":", &mut d);
        assert_eq!(items.len(), 2);
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].code, codes::TRUNCATED);
        assert_eq!(d[0].span.map(|s| s.line), Some(3));
    }

    #[test]
    fn an_array_with_a_bad_element_says_where() {
        let mut d = Vec::new();
        let items = array_items("[1, 2, nope, 4]", &mut d);
        assert_eq!(items.len(), 2);
        assert_eq!(d[0].code, codes::SYNTAX);
        assert_eq!(
            d[0].span.map(|s| s.column),
            Some(9),
            "at the `o` of `nope`, where serde_json saw it was no `null`"
        );
    }

    #[test]
    fn lines_skip_bad_ones_and_warn_about_a_cut() {
        let mut d = Vec::new();
        let items = lines("{\"a\":1}\nnot json\n\n{\"b\":2}\n{\"c\":[1,", &mut d);
        assert_eq!(items.len(), 2);
        assert_eq!(items[1].place, "line 4");
        let codes: Vec<&str> = d.iter().map(|d| d.code.as_str()).collect();
        assert_eq!(codes, [codes::SYNTAX, codes::TRUNCATED]);
        assert_eq!(d[0].span.map(|s| s.line), Some(2));
    }

    #[test]
    fn deep_nesting_is_a_diagnostic() {
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        let mut d = Vec::new();
        let items = lines(&deep, &mut d);
        assert!(items.is_empty());
        assert!(d[0].message.contains("recursion limit"), "{}", d[0].message);
        assert!(document(&deep).is_err());
    }
}
