//! What a JSON text is at its top level (an object and its keys, or the kind of value), found
//! without building the value: format detection needs only the top-level keys, and building a
//! `serde_json::Value` tree of a 50 MB document to read them was as costly as reading the
//! document itself, and briefly held a second copy of it in memory.
//!
//! The text is still checked all the way down exactly as [`crate::json::parse`] checks it (the
//! same serde_json parser, the same nesting limit, duplicate keys refused at every level, the
//! same messages and places), so a broken document gets the same diagnostic either way. Nested
//! keys are borrowed from the text where they have no escapes: nothing is allocated for them.

use std::borrow::Cow;
use std::collections::HashSet;
use std::fmt;

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};

use crate::diagnostic::Diagnostic;
use crate::json::{self, NUMBER_TOKEN, SMALL_OBJECT};

/// A JSON text's first value, outlined.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outline {
    /// An object, with its keys in document order.
    Object(Vec<String>),
    /// Any other value: `"null"`, `"boolean"`, `"number"`, `"string"` or `"array"`.
    Other(&'static str),
}

/// Outlines the first JSON value of `text`; anything after it is not read (a reader that
/// needs the text to be one value reports the rest). Errors are [`crate::json::parse`]'s.
pub fn outline(text: &str) -> Result<Outline, Diagnostic> {
    let mut de = serde_json::Deserializer::from_str(text);
    de.deserialize_any(Top { checked: true }).map_err(|e| json::to_diagnostic(text, &e))
}

/// The top level of the first JSON value of `text`, with everything below it skipped by
/// serde_json's fast path: syntax is checked, but not repeated keys below the top level nor the
/// nesting limit, and the error (`None`) says nothing. For a reader that goes on to check the
/// whole text itself, and asks [`outline`] when that finds a problem.
pub fn outline_quick(text: &str) -> Option<Outline> {
    let mut de = serde_json::Deserializer::from_str(text);
    de.deserialize_any(Top { checked: false }).ok()
}

/// The top-level visitor of both outlines: `checked` (for [`outline`]) checks every value below
/// the top level as [`crate::json`] would; unchecked (for [`outline_quick`]) skips them with
/// serde_json's fast path.
struct Top {
    checked: bool,
}

impl<'de> Visitor<'de> for Top {
    type Value = Outline;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<Outline, E> {
        Ok(Outline::Other("boolean"))
    }
    fn visit_i64<E>(self, _: i64) -> Result<Outline, E> {
        Ok(Outline::Other("number"))
    }
    fn visit_u64<E>(self, _: u64) -> Result<Outline, E> {
        Ok(Outline::Other("number"))
    }
    fn visit_f64<E>(self, _: f64) -> Result<Outline, E> {
        Ok(Outline::Other("number"))
    }
    fn visit_str<E>(self, _: &str) -> Result<Outline, E> {
        Ok(Outline::Other("string"))
    }
    fn visit_unit<E>(self) -> Result<Outline, E> {
        Ok(Outline::Other("null"))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Outline, A::Error> {
        if self.checked {
            Visitor::visit_seq(Skip, seq)?;
        } else {
            while seq.next_element::<de::IgnoredAny>()?.is_some() {}
        }
        Ok(Outline::Other("array"))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Outline, A::Error> {
        let mut keys = Vec::new();
        if !self.checked {
            while let Some(Key(k)) = map.next_key::<Key>()? {
                map.next_value::<de::IgnoredAny>()?;
                if k == NUMBER_TOKEN {
                    return Ok(Outline::Other("number"));
                }
                keys.push(k.into_owned());
            }
            return Ok(Outline::Object(keys));
        }
        match members(map, |k| keys.push(k.into_owned()))? {
            Members::Number => Ok(Outline::Other("number")),
            Members::Object => Ok(Outline::Object(keys)),
        }
    }
}

enum Members {
    /// `arbitrary_precision` hands a number over as a one-entry map.
    Number,
    Object,
}

/// Reads an object's members (each value checked and dropped), refusing a repeated key the way
/// the checking visitor of [`crate::json`] does: after its value, with the same message.
fn members<'de, A: MapAccess<'de>>(
    mut map: A,
    mut each: impl FnMut(Cow<'de, str>),
) -> Result<Members, A::Error> {
    let Some(Key(first)) = map.next_key::<Key>()? else { return Ok(Members::Object) };
    if first == NUMBER_TOKEN {
        map.next_value::<de::IgnoredAny>()?;
        return Ok(Members::Number);
    }
    let mut small: Vec<Cow<'de, str>> = Vec::new();
    let mut large: Option<HashSet<Cow<'de, str>>> = None;
    let mut key = first;
    loop {
        map.next_value::<Skip>()?;
        let duplicate = match &mut large {
            Some(set) => !set.insert(key.clone()),
            None if small.contains(&key) => true,
            None => {
                small.push(key.clone());
                if small.len() > SMALL_OBJECT {
                    large = Some(small.drain(..).collect());
                }
                false
            }
        };
        if duplicate {
            return Err(de::Error::custom(format!("duplicate key \"{}\" in one object", key.escape_debug())));
        }
        each(key);
        match map.next_key::<Key>()? {
            Some(Key(k)) => key = k,
            None => return Ok(Members::Object),
        }
    }
}

/// A key, borrowed from the text when it has no escapes.
pub(crate) struct Key<'de>(pub(crate) Cow<'de, str>);

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a key")
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

/// Any value, checked (through `deserialize_any`, so serde_json's nesting limit applies) and
/// not kept.
struct Skip;

impl<'de> Deserialize<'de> for Skip {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(Skip)
    }
}

impl<'de> Visitor<'de> for Skip {
    type Value = Skip;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<Skip, E> {
        Ok(Skip)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Skip, E> {
        Ok(Skip)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Skip, E> {
        Ok(Skip)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Skip, E> {
        Ok(Skip)
    }
    fn visit_str<E>(self, _: &str) -> Result<Skip, E> {
        Ok(Skip)
    }
    fn visit_unit<E>(self) -> Result<Skip, E> {
        Ok(Skip)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Skip, A::Error> {
        while seq.next_element::<Skip>()?.is_some() {}
        Ok(Skip)
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Skip, A::Error> {
        members(map, drop).map(|_| Skip)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn same_error(text: &str) {
        let a = outline(text).err();
        let b = json::parse(text).err();
        assert!(a.is_some(), "{text}");
        assert_eq!(a, b, "{text}");
    }

    #[test]
    fn outlines_the_top_level() {
        assert_eq!(
            outline(r#"{"nodes": [{"id": "a", "config": {"x": 1.50}}], "name": null, "e\u0073c": 1}"#),
            Ok(Outline::Object(vec!["nodes".into(), "name".into(), "esc".into()]))
        );
        for (text, kind) in [
            ("[1, {\"a\": []}]", "array"),
            ("12.5e3", "number"),
            ("\"x\"", "string"),
            ("true", "boolean"),
            ("null", "null"),
        ] {
            assert_eq!(outline(text), Ok(Outline::Other(kind)), "{text}");
        }
        // Only the first value is read.
        assert_eq!(outline("{\"a\": 1} {"), Ok(Outline::Object(vec!["a".into()])));
    }

    #[test]
    fn the_quick_outline_agrees_on_good_text() {
        for text in [
            r#"{"nodes": [{"id": "a", "config": {"x": 1.50}}], "name": null, "e\u0073c": 1}"#,
            "[1, {\"a\": []}]",
            "12.5e3",
            "\"x\"",
            "true",
            "null",
        ] {
            assert_eq!(outline_quick(text), outline(text).ok(), "{text}");
        }
        assert_eq!(outline_quick("{\"a\": 1,,}"), None);
    }

    #[test]
    fn broken_text_gets_the_parsers_diagnostic() {
        same_error("{\"a\": 1,,}");
        same_error("{\"a\": {\"x\": 1, \"x\": 2}}");
        same_error("{\"a\": [{\"k\\u0031\": 1, \"k1\": 2}]}");
        let many: Vec<String> = (0..40).map(|i| format!("\"k{i}\": {i}")).collect();
        same_error(&format!("{{\"a\": {{{}, \"k33\": 0}}}}", many.join(", ")));
        same_error(&format!("{{\"a\": {}{}}}", "[".repeat(100_000), "]".repeat(100_000)));
        same_error(&format!("{}{}", "{\"a\":".repeat(200), "}".repeat(200)));
        same_error("{\"a\": tru}");
        same_error("");
    }
}
