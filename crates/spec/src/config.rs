//! A node's config, kept as the JSON text it was read from (issue 18).
//!
//! A config is passed to its registry factory uninterpreted, and most readers of a document
//! never look inside one: `trellis validate` with schemas that accept any object, `trellis fmt`,
//! the save pipeline's canonical writer. Building a `serde_json::Value` tree for each (a heap
//! string per key and per number, a map per object) was most of the cost of reading a large
//! document. A [`Config`] read from text holds that text (checked when read: syntax, duplicate
//! keys, nesting, escapes) and builds its map only when someone asks for it (through `Deref`,
//! which gives the `serde_json::Map` API every caller used before). Changing it (`DerefMut`)
//! drops the text: the map is the config from then on.
//!
//! The canonical writer ([`crate::writer`]) re-indents the text without building the map, with
//! exactly the bytes serde_json's pretty writer gives for the map: same key order, same number
//! text (an exponent written `e+N`/`e-N`), same string escaping.

use std::fmt;
use std::ops::{Deref, DerefMut};
use std::sync::OnceLock;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

use crate::json::{self, SMALL_OBJECT};
use crate::raw_json::string_end;
use crate::shared_text::SharedText;

/// A node's config: a JSON object, key order and number text kept as read.
#[derive(Default)]
pub struct Config {
    /// The object's text as read, while the config has not been changed.
    raw: Option<Raw>,
    /// Whether the text has a number that the analysis may warn about (more than 15 characters,
    /// or an exponent): when not, that walk is skipped without building the map.
    odd_numbers: bool,
    /// The object (always a `Value::Object`), built from `raw` on first use (or the config
    /// itself when there is no text). Held as a `Value` so a schema check reads it as it is,
    /// without a copy per node and per check; boxed because most configs are never built: a
    /// `Value` in place would make every node 80 bytes larger (8 MB of a 100,000-node model
    /// touched for nothing, issue 18).
    value: OnceLock<Box<Value>>,
}

impl Config {
    /// An empty config (`{}`).
    pub fn new() -> Self {
        Config::default()
    }

    /// A config from a JSON object's text already checked by [`check_raw`].
    #[cfg(test)]
    pub(crate) fn from_checked(raw: &str, odd_numbers: bool) -> Self {
        Config { raw: Some(Raw::Own(raw.into())), odd_numbers, value: OnceLock::new() }
    }

    /// A config from a JSON object's text and what [`check_raw`] found in it (the compact
    /// text is kept when there is one).
    pub(crate) fn from_check(raw: &str, check: RawCheck) -> Self {
        let raw = check.compact.unwrap_or_else(|| raw.into());
        Config { raw: Some(Raw::Own(raw)), odd_numbers: check.odd_numbers, value: OnceLock::new() }
    }

    /// A config whose text, checked as [`check_raw`] checks it, is `raw`, a slice of `text`
    /// (then it is kept as a reference into `text`, whitespace and all, not copied).
    pub(crate) fn in_text(text: &SharedText, raw: &str, odd_numbers: bool) -> Self {
        let at = text.offset_of(raw).and_then(|start| {
            let start = u32::try_from(start).ok()?;
            Some((start, u32::try_from(raw.len()).ok()?))
        });
        let raw = match at {
            Some((start, len)) => Raw::In { text: text.clone(), start, len },
            None => Raw::Own(raw.into()),
        };
        Config { raw: Some(raw), odd_numbers, value: OnceLock::new() }
    }

    /// The text the config was read from, while it is unchanged: without its whitespace, or
    /// as the document has it when it was read from a [`SharedText`].
    pub fn raw_text(&self) -> Option<&str> {
        self.raw.as_ref().map(Raw::as_str)
    }

    /// Whether the config holds a number worth the analysis's walk (see the field).
    pub(crate) fn may_hold_odd_numbers(&self) -> bool {
        self.raw.is_none() || self.odd_numbers
    }

    /// The config as a JSON object value (built now if it was not).
    pub fn as_value(&self) -> &Value {
        self.value.get_or_init(|| {
            Box::new(match &self.raw {
                // The text was checked when read, so it parses, to an object.
                Some(raw) => match json::parse(raw.as_str()) {
                    Ok(v @ Value::Object(_)) => v,
                    _ => Value::Object(Map::new()),
                },
                None => Value::Object(Map::new()),
            })
        })
    }

    /// The map (built now if it was not).
    pub fn as_map(&self) -> &Map<String, Value> {
        static EMPTY: OnceLock<Map<String, Value>> = OnceLock::new();
        self.as_value().as_object().unwrap_or_else(|| EMPTY.get_or_init(Map::new))
    }

    /// The map, taken out.
    pub fn into_map(mut self) -> Map<String, Value> {
        self.as_map();
        match self.value.take().map(|v| *v) {
            Some(Value::Object(m)) => m,
            _ => Map::new(),
        }
    }
}

/// A config's text: its own copy, or a part of the document's text.
#[derive(Clone)]
enum Raw {
    Own(Box<str>),
    In { text: SharedText, start: u32, len: u32 },
}

impl Raw {
    fn as_str(&self) -> &str {
        match self {
            Raw::Own(s) => s,
            Raw::In { text, start, len } => {
                let start = *start as usize;
                // Checked to be a slice of the text when made (`Config::in_text`).
                text.as_str().get(start..start + *len as usize).unwrap_or("{}")
            }
        }
    }
}

impl Deref for Config {
    type Target = Map<String, Value>;
    fn deref(&self) -> &Map<String, Value> {
        self.as_map()
    }
}

impl DerefMut for Config {
    /// The map, to change: the text is dropped (it would no longer say what the config is).
    fn deref_mut(&mut self) -> &mut Map<String, Value> {
        self.as_value();
        self.raw = None;
        self.odd_numbers = false;
        let value = self.value.get_mut().expect("the config's value is built just above");
        if !value.is_object() {
            **value = Value::Object(Map::new());
        }
        // Made an object just above.
        value.as_object_mut().expect("the config is an object")
    }
}

impl From<Map<String, Value>> for Config {
    fn from(map: Map<String, Value>) -> Self {
        Config { raw: None, odd_numbers: false, value: OnceLock::from(Box::new(Value::Object(map))) }
    }
}

impl From<Config> for Map<String, Value> {
    fn from(c: Config) -> Self {
        c.into_map()
    }
}

impl<'a> IntoIterator for &'a Config {
    type Item = (&'a String, &'a Value);
    type IntoIter = serde_json::map::Iter<'a>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_map().iter()
    }
}

impl Clone for Config {
    fn clone(&self) -> Self {
        Config { raw: self.raw.clone(), odd_numbers: self.odd_numbers, value: self.value.clone() }
    }
}

impl fmt::Debug for Config {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.as_map().fmt(f)
    }
}

impl PartialEq for Config {
    fn eq(&self, other: &Self) -> bool {
        match (self.raw_text(), other.raw_text()) {
            (Some(a), Some(b)) if a == b => true,
            _ => self.as_map() == other.as_map(),
        }
    }
}

impl PartialEq<Map<String, Value>> for Config {
    fn eq(&self, other: &Map<String, Value>) -> bool {
        self.as_map() == other
    }
}

impl Serialize for Config {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.as_map().serialize(s)
    }
}

impl<'de> Deserialize<'de> for Config {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Map::deserialize(d).map(Config::from)
    }
}

/// What [`check_raw`] found in a config's text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RawCheck {
    /// See [`Config::odd_numbers`].
    pub odd_numbers: bool,
    /// The text without whitespace between its tokens, when it had some.
    pub compact: Option<Box<str>>,
}

/// Checks the text of a JSON value that serde_json has already found well formed (a raw
/// value): no object repeats a key (keys compared after unescaping), it nests at most
/// `max_depth` levels, and every escaped string decodes. `None` when any of that fails: the
/// caller then reads the document the checked way, which gives the exact diagnostic.
pub(crate) fn check_raw(raw: &str, max_depth: usize) -> Option<RawCheck> {
    let b = raw.as_bytes();
    let mut i = 0;
    let mut odd_numbers = false;
    // One entry per open container: `Some(keys)` for an object, `None` for an array.
    let mut stack: Vec<Option<Keys<'_>>> = Vec::new();
    // Whether the next string in the innermost object is a key.
    let mut want_key = false;
    // The text without the whitespace between tokens (a pretty file's indent is about a quarter
    // of a config's bytes, kept for as long as the document is open).
    let mut compact: Vec<u8> = Vec::with_capacity(b.len());
    while i < b.len() {
        if !matches!(b[i], b' ' | b'\n' | b'\r' | b'\t' | b'"') {
            compact.push(b[i]);
        }
        match b[i] {
            b' ' | b'\n' | b'\r' | b'\t' | b':' => i += 1,
            b',' => {
                want_key = matches!(stack.last(), Some(Some(_)));
                i += 1;
            }
            b'{' | b'[' => {
                if stack.len() >= max_depth {
                    return None;
                }
                let object = b[i] == b'{';
                stack.push(object.then(Keys::default));
                want_key = object;
                i += 1;
            }
            b'}' | b']' => {
                stack.pop();
                want_key = false;
                i += 1;
            }
            b'"' => {
                let end = string_end(b, i)?;
                let token = &raw[i..end];
                let escaped = token.contains('\\');
                let text = if escaped {
                    std::borrow::Cow::Owned(serde_json::from_str::<String>(token).ok()?)
                } else {
                    std::borrow::Cow::Borrowed(&token[1..token.len() - 1])
                };
                if want_key {
                    let Some(Some(keys)) = stack.last_mut() else { return None };
                    if !keys.insert(text) {
                        return None;
                    }
                    want_key = false;
                }
                compact.extend_from_slice(token.as_bytes());
                i = end;
            }
            _ => {
                // A number or a literal.
                let start = i;
                while i < b.len() && !matches!(b[i], b',' | b'}' | b']' | b' ' | b'\n' | b'\r' | b'\t') {
                    i += 1;
                }
                let token = &b[start..i];
                compact.extend_from_slice(&token[1..]);
                if matches!(token[0], b'-' | b'0'..=b'9')
                    && (token.len() > 15 || token.iter().any(|c| matches!(c, b'e' | b'E')))
                {
                    odd_numbers = true;
                }
            }
        }
    }
    // Whole tokens were copied, so the bytes are UTF-8.
    let compact = match compact.len() < b.len() {
        true => Some(String::from_utf8(compact).ok()?.into_boxed_str()),
        false => None,
    };
    Some(RawCheck { odd_numbers, compact })
}

/// The keys of one object met so far: scanned while few, hashed when many.
#[derive(Default)]
struct Keys<'a> {
    small: Vec<std::borrow::Cow<'a, str>>,
    large: Option<std::collections::HashSet<std::borrow::Cow<'a, str>>>,
}

impl<'a> Keys<'a> {
    /// False when `key` was met already.
    fn insert(&mut self, key: std::borrow::Cow<'a, str>) -> bool {
        if let Some(set) = &mut self.large {
            return set.insert(key);
        }
        if self.small.contains(&key) {
            return false;
        }
        self.small.push(key);
        if self.small.len() > SMALL_OBJECT {
            self.large = Some(self.small.drain(..).collect());
        }
        true
    }
}

/// Where a value is written: at a depth of serde_json's pretty text (two spaces a level: the
/// canonical text), or in its compact text (no whitespace: what the app's views carry).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Indent {
    Compact,
    Pretty(usize),
}

impl Indent {
    fn deeper(self) -> Indent {
        match self {
            Indent::Compact => Indent::Compact,
            Indent::Pretty(depth) => Indent::Pretty(depth + 1),
        }
    }
    fn shallower(self) -> Indent {
        match self {
            Indent::Compact => Indent::Compact,
            Indent::Pretty(depth) => Indent::Pretty(depth.saturating_sub(1)),
        }
    }
    /// A line break and the indent (nothing in compact text).
    fn line(self, out: &mut Vec<u8>) {
        if let Indent::Pretty(depth) = self {
            newline(out, depth);
        }
    }
    /// What separates a key from its value.
    fn colon(self) -> &'static [u8] {
        match self {
            Indent::Compact => b":",
            Indent::Pretty(_) => b": ",
        }
    }
}

/// Writes `raw` (a well-formed JSON value, checked by [`check_raw`]) as serde_json writes the
/// value it parses to, starting at `indent`.
pub(crate) fn rewrite(raw: &str, indent: Indent, out: &mut Vec<u8>) {
    let b = raw.as_bytes();
    let mut depth = indent;
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b' ' | b'\n' | b'\r' | b'\t' => i += 1,
            open @ (b'{' | b'[') => {
                let close = if open == b'{' { b'}' } else { b']' };
                let mut j = i + 1;
                while j < b.len() && matches!(b[j], b' ' | b'\n' | b'\r' | b'\t') {
                    j += 1;
                }
                if j < b.len() && b[j] == close {
                    out.push(open);
                    out.push(close);
                    i = j + 1;
                } else {
                    out.push(open);
                    depth = depth.deeper();
                    depth.line(out);
                    i += 1;
                }
            }
            close @ (b'}' | b']') => {
                depth = depth.shallower();
                depth.line(out);
                out.push(close);
                i += 1;
            }
            b',' => {
                out.push(b',');
                depth.line(out);
                i += 1;
            }
            b':' => {
                out.extend_from_slice(depth.colon());
                i += 1;
            }
            b'"' => {
                let end = string_end(b, i).unwrap_or(b.len());
                let token = &raw[i..end];
                if token.contains('\\') {
                    match serde_json::from_str::<String>(token) {
                        Ok(s) => write_str(out, &s),
                        Err(_) => out.extend_from_slice(token.as_bytes()),
                    }
                } else {
                    out.extend_from_slice(token.as_bytes());
                }
                i = end;
            }
            _ => {
                let start = i;
                while i < b.len() && !matches!(b[i], b',' | b'}' | b']' | b' ' | b'\n' | b'\r' | b'\t') {
                    i += 1;
                }
                write_number_or_literal(out, &b[start..i]);
            }
        }
    }
}

/// Whether [`rewrite`] at `Indent::Pretty(depth)` gives `raw` back unchanged, decided in one
/// pass without writing (`trellis fmt --check` of a formatted file, issue 18). `raw` is a
/// well-formed JSON value (as [`check_raw`] or the quick reader found it), so only what
/// `rewrite` may change is looked at: the whitespace between tokens must be exactly what it
/// writes (a line and the indent after an opening bracket and after a comma, a line and one
/// level less before a closing one, one space after a colon, none inside an empty pair), a
/// string's escapes must be those [`write_str`] writes ([`escapes_are_written`]), and a number
/// must have no exponent ([`write_number_or_literal`] writes the exponent's sign). False when
/// anything else is met, which says nothing: rewrite the text then.
pub(crate) fn is_rewritten(raw: &str, depth: usize) -> bool {
    let b = raw.as_bytes();
    let mut level = depth;
    let mut i = 0;
    loop {
        // A value (or a key) at `i`.
        match b.get(i) {
            Some(&open @ (b'{' | b'[')) => {
                let close = if open == b'{' { b'}' } else { b']' };
                if b.get(i + 1) == Some(&close) {
                    i += 2;
                } else {
                    level += 1;
                    i += 1;
                    if !at_line(b, &mut i, level) {
                        return false;
                    }
                    continue;
                }
            }
            Some(b'"') => match string_end(b, i) {
                Some(end) if escapes_are_written(&b[i + 1..end - 1]) => i = end,
                _ => return false,
            },
            Some(_) => {
                let start = i;
                while i < b.len() && !matches!(b[i], b',' | b'}' | b']' | b':' | b' ' | b'\n' | b'\r' | b'\t')
                {
                    i += 1;
                }
                let number = matches!(b[start], b'-' | b'0'..=b'9');
                if i == start || number && b[start..i].iter().any(|c| matches!(c, b'e' | b'E')) {
                    return false;
                }
            }
            None => return false,
        }
        // After it: a colon (it was a key), a comma, closing brackets, or the end.
        loop {
            match b.get(i) {
                None => return level == depth,
                Some(b':') if b.get(i + 1) == Some(&b' ') => {
                    i += 2;
                    break;
                }
                Some(b',') => {
                    i += 1;
                    if !at_line(b, &mut i, level) {
                        return false;
                    }
                    break;
                }
                Some(b'\n') if level > depth => {
                    level -= 1;
                    if !at_line(b, &mut i, level) || !matches!(b.get(i), Some(b'}' | b']')) {
                        return false;
                    }
                    i += 1;
                }
                _ => return false,
            }
        }
    }
}

/// Whether every escape in `inner` (a string's text between its quotes, well formed) is the
/// one [`write_str`] writes for the character it stands for: `\"`, `\\`, `\b`, `\f`, `\n`,
/// `\r`, `\t`, or `\u00` and two lowercase hex digits for another control character. Any other
/// (`\/`, `\u00e9`, `\u000a`, ...) is written otherwise.
fn escapes_are_written(inner: &[u8]) -> bool {
    let mut rest = inner;
    while let Some(at) = memchr::memchr(b'\\', rest) {
        let escape = &rest[at + 1..];
        let len = match escape.first() {
            Some(b'"' | b'\\' | b'b' | b'f' | b'n' | b'r' | b't') => 1,
            Some(b'u') => match escape.get(1..5) {
                Some([b'0', b'0', hi @ (b'0' | b'1'), lo @ (b'0'..=b'9' | b'a'..=b'f')]) => {
                    let c = (hi - b'0') * 16 + if lo.is_ascii_digit() { lo - b'0' } else { lo - b'a' + 10 };
                    if matches!(c, 0x08 | 0x09 | 0x0a | 0x0c | 0x0d) {
                        return false;
                    }
                    5
                }
                _ => return false,
            },
            _ => return false,
        };
        rest = &escape[len..];
    }
    true
}

/// Whether `b` has a line break and `level` levels of indent at `i` (then steps over them). A
/// space more is then where a token must be, and is refused there.
fn at_line(b: &[u8], i: &mut usize, level: usize) -> bool {
    let end = *i + 1 + 2 * level;
    let Some(line) = b.get(*i..end) else { return false };
    if line[0] != b'\n' || line[1..].iter().any(|&c| c != b' ') {
        return false;
    }
    *i = end;
    true
}

/// A number as serde_json (with `arbitrary_precision`) keeps it: its text, with an exponent
/// written `e`, followed by its sign (`+` when the text gave none). Literals as they are.
fn write_number_or_literal(out: &mut Vec<u8>, token: &[u8]) {
    let number = matches!(token.first(), Some(b'-' | b'0'..=b'9'));
    match token.iter().position(|c| number && matches!(c, b'e' | b'E')) {
        Some(e) => {
            out.extend_from_slice(&token[..e]);
            out.push(b'e');
            let rest = &token[e + 1..];
            if !matches!(rest.first(), Some(b'+' | b'-')) {
                out.push(b'+');
            }
            out.extend_from_slice(rest);
        }
        None => out.extend_from_slice(token),
    }
}

/// A line break and `depth` levels of two-space indent.
pub(crate) fn newline(out: &mut Vec<u8>, depth: usize) {
    out.push(b'\n');
    for _ in 0..depth {
        out.extend_from_slice(b"  ");
    }
}

/// A string as serde_json writes it: `"` and `\` escaped, control characters as `\b`, `\t`,
/// `\n`, `\f`, `\r` or `\u00XX`, everything else (non-ASCII included) as it is.
pub(crate) fn write_str(out: &mut Vec<u8>, s: &str) {
    out.push(b'"');
    let bytes = s.as_bytes();
    // Most strings (every id) need no escape: one test of all their bytes, which the compiler
    // vectorises, rather than a branch per byte.
    if !bytes.iter().fold(false, |any, &c| any | (c == b'"') | (c == b'\\') | (c < 0x20)) {
        out.extend_from_slice(bytes);
        out.push(b'"');
        return;
    }
    let mut start = 0;
    for (i, &c) in bytes.iter().enumerate() {
        let escape: &[u8] = match c {
            b'"' => b"\\\"",
            b'\\' => b"\\\\",
            b'\n' => b"\\n",
            b'\r' => b"\\r",
            b'\t' => b"\\t",
            0x08 => b"\\b",
            0x0c => b"\\f",
            0x00..=0x1f => b"",
            _ => continue,
        };
        out.extend_from_slice(&bytes[start..i]);
        if escape.is_empty() {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            out.extend_from_slice(b"\\u00");
            out.push(HEX[(c >> 4) as usize]);
            out.push(HEX[(c & 0xf) as usize]);
        } else {
            out.extend_from_slice(escape);
        }
        start = i + 1;
    }
    out.extend_from_slice(&bytes[start..]);
    out.push(b'"');
}

/// `v` as serde_json's pretty writer writes it, at `depth` levels of indent.
pub(crate) fn write_value(out: &mut Vec<u8>, v: &Value, indent: Indent) {
    match v {
        Value::Null => out.extend_from_slice(b"null"),
        Value::Bool(true) => out.extend_from_slice(b"true"),
        Value::Bool(false) => out.extend_from_slice(b"false"),
        Value::Number(n) => out.extend_from_slice(n.as_str().as_bytes()),
        Value::String(s) => write_str(out, s),
        Value::Array(items) if items.is_empty() => out.extend_from_slice(b"[]"),
        Value::Array(items) => {
            out.push(b'[');
            for (k, item) in items.iter().enumerate() {
                if k > 0 {
                    out.push(b',');
                }
                indent.deeper().line(out);
                write_value(out, item, indent.deeper());
            }
            indent.line(out);
            out.push(b']');
        }
        Value::Object(m) => write_map(out, m, indent),
    }
}

/// A map as serde_json writes it, at `indent`.
pub(crate) fn write_map(out: &mut Vec<u8>, m: &Map<String, Value>, indent: Indent) {
    write_entries(out, m.iter().map(|(k, v)| (k.as_str(), v)), indent);
}

/// An object's entries as serde_json writes the object, at `indent`.
pub(crate) fn write_entries<'a>(
    out: &mut Vec<u8>,
    entries: impl ExactSizeIterator<Item = (&'a str, &'a Value)>,
    indent: Indent,
) {
    if entries.len() == 0 {
        out.extend_from_slice(b"{}");
        return;
    }
    out.push(b'{');
    for (k, (key, value)) in entries.enumerate() {
        if k > 0 {
            out.push(b',');
        }
        indent.deeper().line(out);
        write_str(out, key);
        out.extend_from_slice(indent.colon());
        write_value(out, value, indent.deeper());
    }
    indent.line(out);
    out.push(b'}');
}

impl Config {
    /// The canonical text of the config at `depth` levels of indent: its text re-indented when
    /// it has one, its map written otherwise (the same bytes either way).
    pub(crate) fn write_canonical(&self, out: &mut Vec<u8>, depth: usize) {
        self.write(out, Indent::Pretty(depth));
    }

    /// The config as serde_json writes it at `indent`: its text rewritten when it has one, its
    /// map written otherwise (the same bytes either way).
    pub(crate) fn write(&self, out: &mut Vec<u8>, indent: Indent) {
        match self.raw_text() {
            Some(raw) => rewrite(raw, indent, out),
            None => write_map(out, self.as_map(), indent),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pretty_at(v: &Value, depth: usize) -> String {
        // serde_json's own pretty text, re-indented to `depth` by hand for comparison.
        let text = serde_json::to_string_pretty(v).unwrap_or_default();
        let pad = "  ".repeat(depth);
        text.replace('\n', &format!("\n{pad}"))
    }

    fn same_as_serde(raw: &str) {
        let v = json::parse(raw).unwrap_or(Value::Null);
        assert!(check_raw(raw, 128).is_some(), "{raw}");
        for depth in [0, 3] {
            let mut out = Vec::new();
            rewrite(raw, Indent::Pretty(depth), &mut out);
            assert_eq!(String::from_utf8_lossy(&out), pretty_at(&v, depth), "{raw}");
            let mut out = Vec::new();
            write_value(&mut out, &v, Indent::Pretty(depth));
            assert_eq!(String::from_utf8_lossy(&out), pretty_at(&v, depth), "{raw}");
        }
        // And serde_json's compact text.
        let compact = serde_json::to_string(&v).unwrap_or_default();
        let mut out = Vec::new();
        rewrite(raw, Indent::Compact, &mut out);
        assert_eq!(String::from_utf8_lossy(&out), compact, "{raw}");
        let mut out = Vec::new();
        write_value(&mut out, &v, Indent::Compact);
        assert_eq!(String::from_utf8_lossy(&out), compact, "{raw}");
    }

    #[test]
    fn reindented_text_is_serde_jsons() {
        same_as_serde(r#"{}"#);
        same_as_serde(r#"{ "a" : [ ] , "b" : { } }"#);
        same_as_serde(r#"{"z":1.50,"a":-0.0,"m":12345678901234567890123,"e":1E3,"f":2e-7,"g":-3.5E+2}"#);
        same_as_serde(
            r#"{"s":"a\"b\\c\/d\u00e7\u0001\n\t\b\f\r\ud83d\ude00 ç","k\u0031":[1,[2,[]],{"x":null,"y":true,"w":false}]}"#,
        );
        same_as_serde("{\n  \"deep\": [[[[{\"a\": [1, 2, 3]}]]]],\n  \"n\": 0\n}");
        same_as_serde(r#"{"\u007f":"\u001f","":""}"#);
    }

    /// `is_rewritten` says "unchanged" only when `rewrite` gives the text back.
    fn is_rewritten_is_sound(raw: &str, depth: usize) -> bool {
        let says = is_rewritten(raw, depth);
        if says {
            let mut out = Vec::new();
            rewrite(raw, Indent::Pretty(depth), &mut out);
            assert_eq!(String::from_utf8_lossy(&out), raw, "is_rewritten passed a text rewrite changes");
        }
        says
    }

    #[test]
    fn a_text_rewrite_gives_back_is_known_as_such() {
        // Each text, and whether its pretty text is known unchanged (its escapes are the
        // writer's own; a number with an exponent is not known).
        let texts = [
            (r#"{}"#, true),
            (r#"{ "a" : [ ] , "b" : { } }"#, true),
            (r#"{"z":1.50,"a":-0.0,"m":12345678901234567890123,"t":true,"f":false,"n":null}"#, true),
            (r#"{"e":1E3,"f":2e-7}"#, false),
            (r#"{"s":"a\"b","k":"\u00e7 ç"}"#, true),
            (r#"{"s":"a\"b\\c\n\t\r\b\f\u0001\u001f ç"}"#, true),
            (r#"{"s":"\/","t":"\u000a","u":"\u001F","v":"\ud83d\ude00"}"#, true),
            ("{\n  \"deep\": [[[[{\"a\": [1, 2, 3]}]]]],\n  \"n\": 0, \"o\": {\"p\": {}}, \"q\": [[], {}]\n}", true),
            (r#"{"":"","x":[{"y":[1,{"z":[]}]}]}"#, true),
        ];
        let mut known = 0;
        for (raw, plain) in texts {
            for depth in [0, 3] {
                let mut pretty = Vec::new();
                rewrite(raw, Indent::Pretty(depth), &mut pretty);
                let pretty = String::from_utf8(pretty).expect("UTF-8");
                assert_eq!(is_rewritten_is_sound(&pretty, depth), plain, "{pretty}");
                known += usize::from(plain);
                // At another depth (when it has lines), or as written, it is not.
                assert_eq!(is_rewritten_is_sound(&pretty, depth + 1), pretty == "{}", "{pretty}");
                assert_eq!(is_rewritten_is_sound(raw, depth), raw == pretty, "{raw}");
                // Every byte taken out or put in: never "unchanged" unless rewrite agrees.
                for i in 0..=pretty.len() {
                    for extra in [
                        "",
                        " ",
                        "\n",
                        "\t",
                        "\r",
                        ",",
                        "0",
                        "e",
                        "\"x\": 1,",
                        "\\/",
                        "\\u0041",
                        "\\u001F",
                        "\\u000a",
                        "\\n",
                    ] {
                        let mut changed = pretty.clone();
                        if !pretty.is_char_boundary(i) {
                            continue;
                        }
                        if extra.is_empty() {
                            if i < pretty.len() && pretty.is_char_boundary(i + 1) {
                                changed.remove(i);
                            }
                        } else {
                            changed.insert_str(i, extra);
                        }
                        // Only well-formed values are asked about.
                        if json::parse(&changed).is_ok() && check_raw(&changed, 128).is_some() {
                            is_rewritten_is_sound(&changed, depth);
                        }
                    }
                }
            }
        }
        assert!(known >= 8, "only {known} texts known unchanged");
    }

    #[test]
    fn checks_refuse_what_the_parser_refuses() {
        assert!(check_raw(r#"{"a":1,"a":2}"#, 128).is_none());
        assert!(check_raw(r#"{"a":{"k1":1,"k\u0031":2}}"#, 128).is_none());
        assert!(check_raw(r#"{"a":[{"x":1},{"x":1}]}"#, 128).is_some());
        assert!(check_raw(r#"{"s":"\ud800"}"#, 128).is_none());
        assert!(check_raw("[[[]]]", 3).is_some());
        assert!(check_raw("[[[[]]]]", 3).is_none());
        let many: Vec<String> = (0..40).map(|i| format!("\"k{i}\": {i}")).collect();
        assert!(check_raw(&format!("{{{}}}", many.join(",")), 128).is_some());
        assert!(check_raw(&format!("{{{}, \"k33\": 0}}", many.join(",")), 128).is_none());
        assert_eq!(
            check_raw(r#"{"a":1.5,"b":[2]}"#, 128),
            Some(RawCheck { odd_numbers: false, compact: None })
        );
        assert_eq!(check_raw(r#"{"a":1e5}"#, 128), Some(RawCheck { odd_numbers: true, compact: None }));
        assert_eq!(
            check_raw(r#"{"a":"1e5 12345678901234567"}"#, 128),
            Some(RawCheck { odd_numbers: false, compact: None })
        );
        assert_eq!(
            check_raw(r#"{"a":[12345678901234567]}"#, 128),
            Some(RawCheck { odd_numbers: true, compact: None })
        );
        let pretty = "{\n  \"a b\" : [ 1 , true, \"x \\\" y\" ],\n  \"c\": {}\n}";
        let compact = check_raw(pretty, 128).and_then(|c| c.compact);
        assert_eq!(compact.as_deref(), Some(r#"{"a b":[1,true,"x \" y"],"c":{}}"#));
    }

    #[test]
    fn a_changed_config_drops_its_text() {
        let mut c = Config::from_checked(r#"{"a": 1}"#, false);
        assert_eq!(c.get("a"), Some(&Value::from(1)));
        assert!(c.raw_text().is_some());
        c.insert("b".into(), Value::from(2));
        assert!(c.raw_text().is_none());
        let mut out = Vec::new();
        c.write_canonical(&mut out, 0);
        assert_eq!(String::from_utf8_lossy(&out), "{\n  \"a\": 1,\n  \"b\": 2\n}");
        assert_eq!(Config::from_checked("{\"a\":1}", false), Config::from_checked("{ \"a\": 1 }", false));
    }
}
