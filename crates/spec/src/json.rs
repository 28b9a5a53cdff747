//! Reading JSON text the way an editor needs it: duplicate keys are an error (serde_json alone
//! would keep the last one silently), nesting is bounded (serde_json's recursion limit of 128),
//! object key order and number text are kept (the `preserve_order` and `arbitrary_precision`
//! features), and every failure is a [`Diagnostic`] with a line and column.
//!
//! Parsing goes through serde_json, which is fast; spans for diagnostics found later (which
//! carry only a JSON Pointer) are looked up on demand by [`fill_spans`], which scans the text
//! once more for all of them together. Clean documents never pay for that.

use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt;

use serde::de::{self, Deserialize, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Number, Value};

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
const SMALL_OBJECT: usize = 16;

/// The key under which serde_json (with `arbitrary_precision`) hands a number's text over.
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

/// Builds the `Value` of whatever it is handed, refusing a repeated key in any object.
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
        let mut entries: Vec<(String, Value)> = Vec::new();
        Ok(match members(map, |key, v: Checked| entries.push((key.0.into_owned(), v.0)))? {
            Some(number) => Value::Number(number),
            // Built at its exact size: growing 0 -> 4 -> 8 would leave most of a small map empty.
            None => Value::Object(entries.into_iter().collect()),
        })
    }
}

/// Reads an object's members in document order, each value read as a `V` (see
/// [`each_member`]).
pub(crate) fn members<'de, A: MapAccess<'de>, V: Deserialize<'de>>(
    map: A,
    mut each: impl FnMut(Key<'de>, V),
) -> Result<Option<Number>, A::Error> {
    each_member(map, |key, map| {
        let value = map.next_value::<V>()?;
        each(key.clone(), value);
        Ok(())
    })
}

/// Streams an object's members to `each` (its key, and the map to read its value from) in
/// document order, refusing a repeated key as serde_json's checked reading of a map with unique
/// keys would: after its value, with the same message. `Some(number)` when the "object" is a
/// number: with `arbitrary_precision`, serde_json hands a number over as a one-entry map holding
/// its text.
pub(crate) fn each_member<'de, A: MapAccess<'de>>(
    mut map: A,
    mut each: impl FnMut(&Key<'de>, &mut A) -> Result<(), A::Error>,
) -> Result<Option<Number>, A::Error> {
    let Some(mut key) = map.next_key::<Key>()? else { return Ok(None) };
    if key.0 == NUMBER_TOKEN {
        let Key(text) = map.next_value()?;
        return serde_json::from_str::<Number>(&text).map(Some).map_err(de::Error::custom);
    }
    let mut seen = SeenKeys::default();
    loop {
        each(&key, &mut map)?;
        if !seen.insert(&key) {
            return Err(duplicate_key(&key));
        }
        match map.next_key::<Key>()? {
            Some(next) => key = next,
            None => return Ok(None),
        }
    }
}

/// The error of a key met twice in one object.
pub(crate) fn duplicate_key<E: de::Error>(key: &Key<'_>) -> E {
    E::custom(format!("duplicate key \"{}\" in one object", key.0.escape_debug()))
}

/// The keys of one object met so far: scanned while few, hashed when many.
#[derive(Default)]
pub(crate) struct SeenKeys<'de> {
    small: Vec<Cow<'de, str>>,
    large: Option<HashSet<Cow<'de, str>>>,
}

impl<'de> SeenKeys<'de> {
    /// False when `key` was met already.
    pub(crate) fn insert(&mut self, key: &Key<'de>) -> bool {
        if let Some(set) = &mut self.large {
            return set.insert(key.0.clone());
        }
        if self.small.contains(&key.0) {
            return false;
        }
        self.small.push(key.0.clone());
        if self.small.len() > SMALL_OBJECT {
            self.large = Some(self.small.drain(..).collect());
        }
        true
    }
}

/// A key (or a string), borrowed from the text when it has no escapes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Key<'de>(pub(crate) Cow<'de, str>);

impl AsRef<str> for Key<'_> {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(v)))
            }
            fn visit_str<E>(self, v: &str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v.to_owned())))
            }
            fn visit_string<E>(self, v: String) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v)))
            }
        }
        d.deserialize_str(V)
    }
}

/// What [`check`] found in a value's text besides its being what [`parse`] reads.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Facts {
    /// A number longer than 15 characters or with an exponent: one a double may not hold, which
    /// the analysis warns about (a shorter one always fits).
    pub odd_numbers: bool,
}

/// Checks the text of one JSON value as [`parse`] would read it nested `levels` levels below
/// the top (repeated keys, escapes that do not decode, serde_json's nesting limit counted from
/// the top of the document), building nothing. `None` when [`parse`] would refuse it there.
pub(crate) fn check(text: &str, levels: usize) -> Option<Facts> {
    let mut facts = Facts::default();
    let room = (MAX_DEPTH - 1).checked_sub(levels)?;
    let mut de = serde_json::Deserializer::from_str(text);
    Skip { room, facts: &mut facts }.deserialize(&mut de).ok()?;
    de.end().ok()?;
    Some(facts)
}

/// Any value, read through `deserialize_any` as the checking visitor reads it and not kept:
/// objects' keys must be unique, strings must decode, and containers may nest `room` levels.
pub(crate) struct Skip<'f> {
    pub(crate) room: usize,
    pub(crate) facts: &'f mut Facts,
}

impl<'de> DeserializeSeed<'de> for Skip<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Skip<'_> {
    type Value = ();
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    // An integer that fits 64 bits comes as one (`arbitrary_precision` hands any other number
    // over as its text, through `visit_map`); its text is its decimal digits.
    fn visit_i64<E>(self, v: i64) -> Result<(), E> {
        self.facts.odd_numbers |= digits(v.unsigned_abs()) + usize::from(v < 0) > 15;
        Ok(())
    }
    fn visit_u64<E>(self, v: u64) -> Result<(), E> {
        self.facts.odd_numbers |= digits(v) > 15;
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let room = deeper::<A::Error>(self.room)?;
        while seq.next_element_seed(Skip { room, facts: &mut *self.facts })?.is_some() {}
        Ok(())
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<(), A::Error> {
        // A number handed over as a map is no container; an object's room is taken first.
        let room = self.room.checked_sub(1);
        let facts = self.facts;
        let number = each_member(map, |_, map| {
            let room = room.ok_or_else(too_deep::<A::Error>)?;
            map.next_value_seed(Skip { room, facts: &mut *facts })
        })?;
        match number {
            Some(n) => facts.odd_numbers |= n.as_str().len() > 15 || n.as_str().contains(['e', 'E']),
            None if room.is_none() => return Err(too_deep()),
            None => {}
        }
        Ok(())
    }
}

/// How many decimal digits `n` has.
fn digits(n: u64) -> usize {
    n.checked_ilog10().map_or(1, |log| log as usize + 1)
}

/// The room left inside a container opened with `room` levels left.
fn deeper<E: de::Error>(room: usize) -> Result<usize, E> {
    room.checked_sub(1).ok_or_else(too_deep)
}

/// The error of a container nested deeper than the parser allows.
fn too_deep<E: de::Error>() -> E {
    E::custom("recursion limit exceeded")
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
    if !targets.scan(text) {
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
    fn a_checked_text_says_whether_it_has_numbers_a_double_may_not_hold() {
        for (text, odd) in [
            (r#"{"a": 1, "b": [1.5, -20, {"c": 999999999999999}]}"#, false),
            (r#"{"a": 1000000000000000}"#, true),
            (r#"{"a": [-99999999999999]}"#, false),
            (r#"{"a": [-100000000000000]}"#, true),
            (r#"{"a": 12345678901234567890123}"#, true),
            (r#"{"a": {"b": 1e3}}"#, true),
            (r#"{"a": 0.1234567890123456}"#, true),
            (r#"{"a": "1e3 12345678901234567890"}"#, false),
        ] {
            assert_eq!(check(text, 3), Some(Facts { odd_numbers: odd }), "{text}");
        }
        assert_eq!(check(r#"{"a": 1, "a": 2}"#, 3), None);
        assert_eq!(check(r#"{"a": "\ud800"}"#, 3), None);
        assert_eq!(check("[[[]]]", MAX_DEPTH - 4), Some(Facts::default()));
        assert_eq!(check("[[[]]]", MAX_DEPTH - 3), None);
    }

    #[test]
    fn the_span_scan_nests_as_deep_as_the_parser() {
        assert_eq!(crate::span_locator::MAX_NESTING, MAX_DEPTH);
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
