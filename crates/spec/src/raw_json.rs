//! Reading the text of a JSON value that was checked when its document was read (a config's
//! text, [`crate::config`]): its kind, an object's members, an array's items, a string's text,
//! found by stepping over the bytes, without building a `serde_json::Value`.
//!
//! Building a value costs a heap string per key and per number and a map per object; on a
//! 100,000-node document that was most of a validation's time and memory (issue 18). The
//! readers here borrow from the text.
//!
//! The text is trusted to be well formed, but nothing here panics or reads out of bounds when
//! it is not: the iterators stop, and [`Members::ended_well`] / [`Items::ended_well`] tell a
//! caller that needs every member (a check that must not say "valid" about half an object)
//! whether the closing bracket was reached.

use std::borrow::Cow;

/// What a JSON value is, from its first byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Object,
    Array,
    String,
    Number,
    Bool,
    Null,
}

/// The kind of the value `raw` holds (`None` for text that starts no JSON value).
pub(crate) fn kind(raw: &str) -> Option<Kind> {
    match raw.as_bytes().get(skip_space(raw.as_bytes(), 0))? {
        b'{' => Some(Kind::Object),
        b'[' => Some(Kind::Array),
        b'"' => Some(Kind::String),
        b'-' | b'0'..=b'9' => Some(Kind::Number),
        b't' | b'f' => Some(Kind::Bool),
        b'n' => Some(Kind::Null),
        _ => None,
    }
}

/// The text of a string token (`"..."`, quotes included): borrowed when it has no escapes,
/// decoded when it has. `None` when `token` is not one string.
pub(crate) fn string(token: &str) -> Option<Cow<'_, str>> {
    let token = token.trim_matches(SPACE);
    let b = token.as_bytes();
    if b.first() != Some(&b'"') {
        return None;
    }
    let (end, escaped) = string_token(b, 0)?;
    if end != b.len() {
        return None;
    }
    if !escaped {
        return Some(Cow::Borrowed(&token[1..end - 1]));
    }
    serde_json::from_str::<String>(token).ok().map(Cow::Owned)
}

/// The members of the object `raw` holds, in order: each key's token (quotes included; see
/// [`string`]) and its value's text.
pub(crate) fn members(raw: &str) -> Members<'_> {
    let (at, state) = open(raw, b'{');
    Members { raw, at, state }
}

/// The items of the array `raw` holds, in order, as their texts.
pub(crate) fn items(raw: &str) -> Items<'_> {
    let (at, state) = open(raw, b'[');
    Items { raw, at, state }
}

/// Where the elements of the container `raw` holds start, after its opening `bracket` (`Broken`
/// when it does not open with it).
fn open(raw: &str, bracket: u8) -> (usize, State) {
    let b = raw.as_bytes();
    let start = skip_space(b, 0);
    match b.get(start) == Some(&bracket) {
        true => (start + 1, State::First),
        false => (b.len(), State::Broken),
    }
}

/// Where an iteration over a container is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Before the first element (or the closing bracket of an empty container).
    First,
    /// After an element: a comma or the closing bracket comes next.
    Next,
    /// The closing bracket was read.
    Closed,
    /// The text was not what JSON allows there: iteration stopped.
    Broken,
}

/// See [`members`].
pub(crate) struct Members<'a> {
    raw: &'a str,
    at: usize,
    state: State,
}

impl Members<'_> {
    /// Whether the iteration reached the object's closing brace (every member was seen).
    pub(crate) fn ended_well(&self) -> bool {
        self.state == State::Closed
    }
}

impl<'a> Iterator for Members<'a> {
    type Item = (&'a str, &'a str);
    fn next(&mut self) -> Option<Self::Item> {
        let b = self.raw.as_bytes();
        let at = element_start(b, self.at, &mut self.state, b'}')?;
        let member = (|| {
            let key_end = string_end(b, at).filter(|_| b[at] == b'"')?;
            let colon = skip_space(b, key_end);
            if b.get(colon) != Some(&b':') {
                return None;
            }
            let value_start = skip_space(b, colon + 1);
            let value_end = value_end(b, value_start)?;
            Some((key_end, value_start, value_end))
        })();
        match member {
            Some((key_end, value_start, value_end)) => {
                self.at = value_end;
                self.state = State::Next;
                Some((&self.raw[at..key_end], &self.raw[value_start..value_end]))
            }
            None => {
                self.state = State::Broken;
                None
            }
        }
    }
}

/// See [`items`].
pub(crate) struct Items<'a> {
    raw: &'a str,
    at: usize,
    state: State,
}

impl Items<'_> {
    /// Whether the iteration reached the array's closing bracket (every item was seen).
    pub(crate) fn ended_well(&self) -> bool {
        self.state == State::Closed
    }
}

impl<'a> Iterator for Items<'a> {
    type Item = &'a str;
    fn next(&mut self) -> Option<&'a str> {
        let b = self.raw.as_bytes();
        let at = element_start(b, self.at, &mut self.state, b']')?;
        match value_end(b, at) {
            Some(end) => {
                self.at = end;
                self.state = State::Next;
                Some(&self.raw[at..end])
            }
            None => {
                self.state = State::Broken;
                None
            }
        }
    }
}

/// Where the next element of a container starts, from `at` (after its opening bracket or its
/// previous element): `None` at the closing bracket `close` (state `Closed`) or on text JSON
/// does not allow there (state `Broken`).
fn element_start(b: &[u8], at: usize, state: &mut State, close: u8) -> Option<usize> {
    let mut i = skip_space(b, at);
    match *state {
        State::Closed | State::Broken => return None,
        State::First => {
            if b.get(i) == Some(&close) {
                *state = State::Closed;
                return None;
            }
        }
        State::Next => match b.get(i) {
            Some(&c) if c == close => {
                *state = State::Closed;
                return None;
            }
            Some(b',') => i = skip_space(b, i + 1),
            _ => {
                *state = State::Broken;
                return None;
            }
        },
    }
    if i >= b.len() {
        *state = State::Broken;
        return None;
    }
    Some(i)
}

/// JSON's whitespace.
const SPACE: &[char] = &[' ', '\n', '\r', '\t'];

fn skip_space(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && matches!(b[i], b' ' | b'\n' | b'\r' | b'\t') {
        i += 1;
    }
    i
}

/// The end (one past the closing quote) of the string starting at `b[start] == b'"'`.
pub(crate) fn string_end(b: &[u8], start: usize) -> Option<usize> {
    string_token(b, start).map(|(end, _)| end)
}

/// [`string_end`], and whether the string has an escape.
fn string_token(b: &[u8], start: usize) -> Option<(usize, bool)> {
    let mut i = start + 1;
    let mut escaped = false;
    loop {
        let at = memchr::memchr2(b'"', b'\\', b.get(i..)?)? + i;
        if b[at] == b'\\' {
            escaped = true;
            i = at + 2;
        } else {
            return Some((at + 1, escaped));
        }
    }
}

/// The end of the value starting at `b[start]`: a string, a container (brackets paired, strings
/// stepped over) or a scalar (up to the next delimiter).
fn value_end(b: &[u8], start: usize) -> Option<usize> {
    match *b.get(start)? {
        b'"' => string_end(b, start),
        b'{' | b'[' => {
            let mut depth = 0usize;
            let mut i = start;
            loop {
                match *b.get(i)? {
                    b'"' => {
                        i = string_end(b, i)?;
                        continue;
                    }
                    b'{' | b'[' => depth += 1,
                    b'}' | b']' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(i + 1);
                        }
                    }
                    _ => {}
                }
                i += 1;
            }
        }
        b',' | b'}' | b']' | b':' => None,
        _ => {
            let mut i = start;
            while i < b.len() && !matches!(b[i], b',' | b'}' | b']' | b' ' | b'\n' | b'\r' | b'\t') {
                i += 1;
            }
            Some(i)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn members_and_items_borrow_their_texts() {
        let raw = r#"{"a":1,"b\"q":"x\ny","c":[1,{"d":"]}"},[]],"e":{},"f":null}"#;
        let mut m = members(raw);
        let got: Vec<(&str, &str)> = m.by_ref().collect();
        assert!(m.ended_well());
        assert_eq!(
            got,
            [
                (r#""a""#, "1"),
                (r#""b\"q""#, r#""x\ny""#),
                (r#""c""#, r#"[1,{"d":"]}"},[]]"#),
                (r#""e""#, "{}"),
                (r#""f""#, "null")
            ]
        );
        assert_eq!(string(got[1].0).as_deref(), Some("b\"q"));
        assert_eq!(string(got[1].1).as_deref(), Some("x\ny"));
        assert!(matches!(string(got[0].0), Some(Cow::Borrowed("a"))));
        let mut it = items(got[2].1);
        let all: Vec<&str> = it.by_ref().collect();
        assert!(it.ended_well());
        assert_eq!(all, ["1", r#"{"d":"]}"}"#, "[]"]);
        assert_eq!(kind(all[1]), Some(Kind::Object));
        assert_eq!(kind(" -2"), Some(Kind::Number));
    }

    #[test]
    fn whitespace_between_tokens_is_read_too() {
        let raw = " {\n  \"a\" : [ 1 , \"x\" ] ,\t\"b\":true }";
        let mut m = members(raw);
        let got: Vec<(&str, &str)> = m.by_ref().collect();
        assert!(m.ended_well());
        assert_eq!(got, [("\"a\"", "[ 1 , \"x\" ]"), ("\"b\"", "true")]);
        let mut it = items(got[0].1);
        assert_eq!(it.by_ref().collect::<Vec<_>>(), ["1", "\"x\""]);
        assert!(it.ended_well());
        let mut empty = members("{ }");
        assert_eq!(empty.next(), None);
        assert!(empty.ended_well());
    }

    /// Broken text stops the iteration without a panic, and is never said to have ended well.
    #[test]
    fn broken_text_stops_the_iteration() {
        for raw in [
            "",
            "{",
            "[",
            "{\"a\"",
            "{\"a\":",
            "{\"a\":1",
            "{\"a\":1,",
            "{\"a\":1 \"b\":2}",
            "{a:1}",
            "{\"a\":[1,}",
            "{\"a\":\"x}",
            "[1 2]",
            "[1,",
            "{\"a\":1,}x",
            "{,}",
            "{\"a\":}",
            "x",
            "{\"\\",
        ] {
            let mut m = members(raw);
            let _ = m.by_ref().count();
            let mut it = items(raw);
            let _ = it.by_ref().count();
            let closed_members = m.ended_well();
            let closed_items = it.ended_well();
            assert!(
                !closed_members || serde_json::from_str::<serde_json::Value>(raw).is_ok(),
                "{raw:?} ended well as an object"
            );
            assert!(
                !closed_items || serde_json::from_str::<serde_json::Value>(raw).is_ok(),
                "{raw:?} ended well as an array"
            );
        }
        assert_eq!(string("\"a"), None);
        assert_eq!(string("\"a\"b\""), None);
        assert_eq!(string("\"\\x\""), None);
        assert_eq!(kind("  "), None);
    }
}
