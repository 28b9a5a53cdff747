//! What a JSON text is at its top level (an object and its keys, or the kind of value), found
//! without building the value: format detection needs only the top-level keys, and building a
//! `serde_json::Value` tree of a 50 MB document to read them was as costly as reading the
//! document itself, and briefly held a second copy of it in memory.
//!
//! The text is still checked all the way down exactly as [`crate::json::parse`] checks it (the
//! same serde_json parser, the same nesting limit, duplicate keys refused at every level, the
//! same messages and places), so a broken document gets the same diagnostic either way. Nested
//! keys are borrowed from the text where they have no escapes: nothing is allocated for them.

use std::fmt;

use serde::de::{self, Deserializer, MapAccess, SeqAccess, Visitor};

use crate::diagnostic::Diagnostic;
use crate::json::{self, each_member, Facts, Key, Skip, NUMBER_TOKEN};

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
            Skip { room: usize::MAX, facts: &mut Facts::default() }.visit_seq(seq)?;
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
        // Each value checked as the checking parse checks it (serde_json counts the nesting).
        let mut facts = Facts::default();
        let number = each_member(map, |key, map| {
            map.next_value_seed(Skip { room: usize::MAX, facts: &mut facts })?;
            keys.push(key.0.clone().into_owned());
            Ok(())
        })?;
        Ok(match number {
            Some(_) => Outline::Other("number"),
            None => Outline::Object(keys),
        })
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
