//! Reading JSON text the way an editor needs it: duplicate keys are an error (serde_json alone
//! would keep the last one silently), nesting is bounded (serde_json's recursion limit of 128),
//! object key order and number text are kept (the `preserve_order` and `arbitrary_precision`
//! features), and every failure is a [`Diagnostic`] with a line and column.
//!
//! Parsing goes through serde_json, which is fast; spans for diagnostics found later (which
//! carry only a JSON Pointer) are looked up on demand by [`fill_spans`], which scans the text
//! once more for all of them together. Clean documents never pay for that.

use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Number, Value};

use crate::diagnostic::{pointer_segments, Diagnostic, LineIndex, Span};
use crate::span_locator::Targets;

/// Codes of the JSON reading layer.
pub mod codes {
    /// The text is not JSON (with the place serde_json stopped at).
    pub const SYNTAX: &str = "json/syntax";
    /// The same key twice in one object.
    pub const DUPLICATE_KEY: &str = "json/duplicate-key";
    /// Arrays and objects nested deeper than [`super::MAX_DEPTH`].
    pub const TOO_DEEP: &str = "json/too-deep";
    /// The bytes are not UTF-8.
    pub const INVALID_UTF8: &str = "json/invalid-utf8";
}

/// The nesting limit: serde_json's own recursion limit.
pub const MAX_DEPTH: usize = 128;

/// Objects up to this many keys are checked for duplicates by scanning (no hashing).
pub(crate) const SMALL_OBJECT: usize = 16;

pub(crate) const NUMBER_TOKEN: &str = "$serde_json::private::Number";

/// Decodes bytes as UTF-8, or says where the first bad byte is.
pub fn decode_utf8(bytes: &[u8]) -> Result<&str, Diagnostic> {
    std::str::from_utf8(bytes).map_err(|e| {
        let good = e.valid_up_to();
        // The valid prefix is text, so the span can be computed on it.
        let prefix = std::str::from_utf8(&bytes[..good]).unwrap_or_default();
        let span = Span::from_range(prefix, good, good);
        Diagnostic::error(
            codes::INVALID_UTF8,
            format!("the file is not valid UTF-8: bad byte at line {}, column {}", span.line, span.column),
        )
        .with_span(span)
    })
}

/// Parses one JSON value (and nothing after it) from `text`.
pub fn parse(text: &str) -> Result<Value, Diagnostic> {
    let mut de = serde_json::Deserializer::from_str(text);
    let value = Checked::deserialize(&mut de).map_err(|e| to_diagnostic(text, &e))?;
    de.end().map_err(|e| to_diagnostic(text, &e))?;
    Ok(value.0)
}

/// A serde_json error as a diagnostic with its place (`json/syntax`, `json/duplicate-key`,
/// `json/too-deep`).
pub(crate) fn to_diagnostic(text: &str, e: &serde_json::Error) -> Diagnostic {
    let full = e.to_string();
    // serde_json appends " at line N column M"; the span carries that, so drop it from the text.
    let message = match full.rfind(" at line ") {
        Some(i) => full[..i].to_owned(),
        None => full,
    };
    let span = Span::from_line_column(text, e.line(), e.column());
    let (code, message) = if message.starts_with("duplicate key") {
        (codes::DUPLICATE_KEY, message)
    } else if message.starts_with("recursion limit exceeded") {
        (codes::TOO_DEEP, format!("arrays and objects are nested more than {MAX_DEPTH} levels deep"))
    } else {
        (codes::SYNTAX, format!("invalid JSON: {message}"))
    };
    Diagnostic::error(code, format!("{message} (line {}, column {})", span.line, span.column)).with_span(span)
}

/// A `Value` built by a visitor that refuses duplicate keys.
pub(crate) struct Checked(pub(crate) Value);

impl<'de> Deserialize<'de> for Checked {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(CheckedVisitor).map(Checked)
    }
}

pub(crate) struct CheckedVisitor;

impl<'de> Visitor<'de> for CheckedVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, v: bool) -> Result<Value, E> {
        Ok(Value::Bool(v))
    }
    fn visit_i64<E>(self, v: i64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }
    fn visit_u64<E>(self, v: u64) -> Result<Value, E> {
        Ok(Value::Number(v.into()))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Value, E> {
        Number::from_f64(v).map(Value::Number).ok_or_else(|| E::custom("number is not finite"))
    }
    fn visit_str<E>(self, v: &str) -> Result<Value, E> {
        Ok(Value::String(v.to_owned()))
    }
    fn visit_string<E>(self, v: String) -> Result<Value, E> {
        Ok(Value::String(v))
    }
    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Null)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(Checked(v)) = seq.next_element()? {
            out.push(v);
        }
        // serde_json gives no length up front, so a list grows 0 -> 4 -> 8; a `Value` is 80
        // bytes, and the short lists of configs (two or three items) would keep most of theirs
        // empty for the life of the document.
        out.shrink_to_fit();
        Ok(Value::Array(out))
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Value, A::Error> {
        Ok(match members(map)? {
            Members::Number(n) => Value::Number(n),
            Members::Entries(entries) => {
                // Built at its exact size: serde_json gives no length up front, and growing
                // 0 -> 4 -> 8 would leave most of a config's map empty (a large share of a big
                // document's memory).
                let mut out = Map::with_capacity(entries.len());
                out.extend(entries);
                Value::Object(out)
            }
        })
    }
}

/// What a JSON object read by the checking visitor holds: its entries in document order
/// (duplicate keys refused), or, with `arbitrary_precision`, a number serde_json handed over
/// as a one-entry map.
pub(crate) enum Members {
    Number(Number),
    Entries(Vec<(String, Value)>),
}

/// The members of an object, every value read by the checking visitor. A reader that only
/// goes through the entries once (a node, an edge) takes them as they are, without the map.
pub(crate) fn members<'de, A: MapAccess<'de>>(mut map: A) -> Result<Members, A::Error> {
    let Some(first) = map.next_key::<String>()? else {
        return Ok(Members::Entries(Vec::new()));
    };
    if first == NUMBER_TOKEN {
        // With `arbitrary_precision`, serde_json hands numbers over as a one-entry map
        // holding the number's text; parse that text back into a Number (kept verbatim).
        // Borrow the text where serde_json can lend it (no allocation but the Number's own).
        return map.next_value::<NumberText>().map(|n| Members::Number(n.0));
    }
    // Duplicates are caught as they are met, so the error still points at the repeated key.
    let mut entries: Vec<(String, Value)> = Vec::with_capacity(8);
    let mut seen: Option<std::collections::HashSet<String>> = None;
    let mut key = first;
    loop {
        let Checked(v) = map.next_value()?;
        let duplicate = match &mut seen {
            Some(set) => !set.insert(key.clone()),
            None => {
                let dup = entries.iter().any(|(k, _)| *k == key);
                if entries.len() >= SMALL_OBJECT && !dup {
                    // Large objects: hash instead of scanning.
                    let mut set: std::collections::HashSet<String> =
                        entries.iter().map(|(k, _)| k.clone()).collect();
                    set.insert(key.clone());
                    seen = Some(set);
                }
                dup
            }
        };
        if duplicate {
            return Err(de::Error::custom(format!("duplicate key \"{}\" in one object", key.escape_debug())));
        }
        entries.push((key, v));
        match map.next_key::<String>()? {
            Some(k) => key = k,
            None => return Ok(Members::Entries(entries)),
        }
    }
}

/// A number's text (as `arbitrary_precision` hands it over) parsed into a [`Number`].
struct NumberText(Number);

impl<'de> Deserialize<'de> for NumberText {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = NumberText;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a number's text")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<NumberText, E> {
                serde_json::from_str::<Number>(v).map(NumberText).map_err(E::custom)
            }
        }
        d.deserialize_str(V)
    }
}

/// jsonc-parser's options for plain JSON (it reads JSONC and JSON5 extensions by default), for
/// the places that need its ranges: spans here, in-place edits in trellis-doc.
pub fn strict_jsonc_options() -> jsonc_parser::ParseOptions {
    jsonc_parser::ParseOptions {
        allow_comments: false,
        allow_loose_object_property_names: false,
        allow_trailing_commas: false,
        allow_missing_commas: false,
        allow_single_quoted_strings: false,
        allow_hexadecimal_numbers: false,
        allow_unary_plus_numbers: false,
        allow_bare_decimal_point_numbers: false,
        allow_non_finite_numbers: false,
        allow_extended_string_escapes: false,
    }
}

/// Fills in `span` for every diagnostic that has a pointer but no span, by finding the pointer
/// in `text`. A pointer to an object member spans `"key": value`; to an array element, the
/// element. A pointer that is not in the text (say, a field that is missing) falls back to its
/// nearest ancestor that is. All pointers are found in one scan of the text and one line index
/// ([`crate::span_locator`]), so the cost does not grow with the number of diagnostics.
pub fn fill_spans(text: &str, diagnostics: &mut [Diagnostic]) {
    fill_spans_keeping(text, diagnostics);
}

/// [`fill_spans`], giving back the line index it built (when it built one), so a report of the
/// same text need not index it again. The index knows the places of the diagnostics' spans
/// only ([`LineIndex::at_offsets`]): the lines and columns of a few findings in a large text
/// come from one pass of `memchr` without a list of every line.
pub fn fill_spans_keeping(
    text: &str,
    diagnostics: &mut [Diagnostic],
) -> Option<crate::line_index::LineTable> {
    fill_spans_placed(text, diagnostics, None)
}

/// [`fill_spans_keeping`], with where the reader found the document's nodes and edges
/// ([`crate::read::Parsed::places`]): then only the elements the findings point into are
/// scanned ([`Targets::scan_placed`]), not the whole text.
pub fn fill_spans_placed(
    text: &str,
    diagnostics: &mut [Diagnostic],
    places: Option<&crate::span_locator::ElementPlaces>,
) -> Option<crate::line_index::LineTable> {
    if diagnostics.iter().all(|d| d.span.is_some()) {
        return None;
    }
    let mut targets = Targets::new();
    let paths: Vec<Option<Vec<usize>>> = diagnostics
        .iter()
        .map(|d| d.span.is_none().then(|| targets.add(&pointer_segments(&d.pointer))))
        .collect();
    // Deep documents were refused by `parse` already; the scan refuses them too (no deep
    // recursion). A text that is not one JSON value gets no spans.
    let scanned = match places {
        Some(places) => targets.scan_placed(text, places),
        None => targets.scan(text),
    };
    if !scanned {
        return None;
    }
    let ranges: Vec<Option<(usize, usize)>> =
        paths.iter().map(|path| path.as_ref().and_then(|p| targets.deepest(p))).collect();
    // The places the report will ask about: the new spans' starts and the spans already there.
    let offsets = diagnostics
        .iter()
        .zip(&ranges)
        .filter_map(|(d, r)| r.map(|(start, _)| start).or(d.span.map(|s| s.offset as usize)));
    let lines = LineIndex::at_offsets(text, offsets);
    for (d, range) in diagnostics.iter_mut().zip(ranges) {
        if let Some((start, end)) = range {
            d.span = Some(lines.span(start, end));
        }
    }
    Some(lines.into_table())
}

/// Bracket depth of a JSON text, ignoring brackets inside strings. Linear, no recursion.
pub fn max_depth(text: &str) -> usize {
    let (mut depth, mut max, mut in_string, mut escaped) = (0usize, 0usize, false, false);
    for b in text.bytes() {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                max = max.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    max
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_key_order_and_number_text() {
        let v = parse(r#"{"z": 1.50, "a": -0.0, "m": 12345678901234567890123}"#).unwrap_or_default();
        let keys: Vec<_> = v.as_object().map(|o| o.keys().cloned().collect()).unwrap_or_default();
        assert_eq!(keys, ["z", "a", "m"]);
        assert_eq!(
            serde_json::to_string(&v).unwrap_or_default(),
            r#"{"z":1.50,"a":-0.0,"m":12345678901234567890123}"#
        );
    }

    #[test]
    fn refuses_duplicate_keys_with_a_place() {
        let text = "{\n  \"a\": 1,\n  \"b\": {\"x\": 1, \"x\": 2}\n}";
        let d = parse(text).err().unwrap_or_else(|| Diagnostic::error("none", ""));
        assert_eq!(d.code, codes::DUPLICATE_KEY);
        assert!(d.message.contains("\"x\""), "{}", d.message);
        assert_eq!(d.span.map(|s| s.line), Some(3));
    }

    #[test]
    fn syntax_errors_have_line_and_column() {
        let d = parse("{\n  \"a\": 1,,\n}").err().unwrap_or_else(|| Diagnostic::error("none", ""));
        assert_eq!(d.code, codes::SYNTAX);
        assert_eq!(d.span.map(|s| s.line), Some(2));
        let d = parse("{} {}").err().unwrap_or_else(|| Diagnostic::error("none", ""));
        assert_eq!(d.code, codes::SYNTAX);
        let d = parse("").err().unwrap_or_else(|| Diagnostic::error("none", ""));
        assert_eq!(d.code, codes::SYNTAX);
    }

    #[test]
    fn deep_nesting_is_refused_not_overflowed() {
        let text = format!("{}{}", "[".repeat(10_000), "]".repeat(10_000));
        let d = parse(&text).err().unwrap_or_else(|| Diagnostic::error("none", ""));
        assert_eq!(d.code, codes::TOO_DEEP);
        assert_eq!(max_depth(&text), 10_000);
        let mut ds = vec![Diagnostic::error("x", "y").at("/0")];
        fill_spans(&text, &mut ds); // must not recurse
        assert!(ds[0].span.is_none());
    }

    #[test]
    fn invalid_utf8_is_placed() {
        let d = decode_utf8(b"{\n \"a\": \"\xff\"}").err().unwrap_or_else(|| Diagnostic::error("none", ""));
        assert_eq!(d.code, codes::INVALID_UTF8);
        assert_eq!(d.span.map(|s| (s.line, s.column)), Some((2, 8)));
    }

    #[test]
    fn spans_are_found_from_pointers() {
        let text = "{\n  \"nodes\": [\n    {\"id\": \"a\", \"config\": {\"t\": 5}}\n  ]\n}";
        let mut ds = vec![
            Diagnostic::error("x", "y").at("/nodes/0/config/t"),
            Diagnostic::error("x", "y").at("/nodes/0/missing"),
            Diagnostic::error("x", "y").at(""),
        ];
        fill_spans(text, &mut ds);
        let t = ds[0].span.unwrap_or(Span { line: 0, column: 0, offset: 0, length: 0 });
        assert_eq!((t.line, &text[t.offset as usize..(t.offset + t.length) as usize]), (3, "\"t\": 5"));
        assert_eq!(ds[1].span.map(|s| s.line), Some(3));
        assert_eq!(ds[2].span.map(|s| (s.line, s.column)), Some((1, 1)));
    }
}
