//! A node's config, kept as the JSON text it was read from.
//!
//! A config is passed to its registry factory uninterpreted, and most readers of a document
//! never look inside one: `trellis validate` with schemas that accept any object, `trellis fmt`,
//! the save's writer. Building a `serde_json::Value` tree for each (a heap string per key and per
//! number, a map per object) would be most of the cost and the memory of reading a large
//! document. A [`Config`] read from text holds that text (checked when read: syntax, duplicate
//! keys, nesting, escapes) and builds its map only when someone asks for it (through `Deref`,
//! which gives the `serde_json::Map` API), or for as long as it is written out (`Serialize`).
//! Changing it (`DerefMut`) drops the text: the map is the config from then on.

use std::fmt;
use std::ops::{Deref, DerefMut};
use std::sync::OnceLock;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

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
    /// itself when there is no text). Held as a `Value` so a schema check reads it as it is;
    /// boxed because most configs are never built, and a `Value` in place would make every node
    /// larger for nothing.
    value: OnceLock<Box<Value>>,
}

impl Config {
    /// An empty config (`{}`).
    pub fn new() -> Self {
        Config::default()
    }

    /// A config whose text is `raw`, a JSON object the reader checked (`odd_numbers`: what the
    /// check found, see the field). Kept as a part of `shared` when `raw` is a slice of it,
    /// copied otherwise.
    pub(crate) fn read(raw: &str, odd_numbers: bool, shared: Option<&SharedText>) -> Self {
        let part = shared.and_then(|text| {
            let start = u32::try_from(text.offset_of(raw)?).ok()?;
            Some(Raw::In { text: text.clone(), start, len: u32::try_from(raw.len()).ok()? })
        });
        let raw = part.unwrap_or_else(|| Raw::Own(raw.into()));
        Config { raw: Some(raw), odd_numbers, value: OnceLock::new() }
    }

    /// The text the config was read from, while it is unchanged, as the document has it.
    pub fn raw_text(&self) -> Option<&str> {
        self.raw.as_ref().map(Raw::as_str)
    }

    /// Whether the config holds a number worth the analysis's walk (see the field).
    pub(crate) fn may_hold_odd_numbers(&self) -> bool {
        self.raw.is_none() || self.odd_numbers
    }

    /// The config as a JSON object value (built now, and kept, if it was not).
    pub fn as_value(&self) -> &Value {
        self.value.get_or_init(|| Box::new(self.parsed()))
    }

    /// The map (built now, and kept, if it was not).
    pub fn as_map(&self) -> &Map<String, Value> {
        static EMPTY: OnceLock<Map<String, Value>> = OnceLock::new();
        self.as_value().as_object().unwrap_or_else(|| EMPTY.get_or_init(Map::new))
    }

    /// `f` of the config's value, built for the call only when it is not kept: for a pass over
    /// every config of a large document (a schema check) that should not keep them all built.
    pub fn with_value<R>(&self, f: impl FnOnce(&Value) -> R) -> R {
        match self.value.get() {
            Some(value) => f(value),
            None => f(&self.parsed()),
        }
    }

    /// The map, taken out.
    pub fn into_map(mut self) -> Map<String, Value> {
        self.as_map();
        match self.value.take().map(|v| *v) {
            Some(Value::Object(m)) => m,
            _ => Map::new(),
        }
    }

    /// The value of the text (an empty object when there is none).
    fn parsed(&self) -> Value {
        // The text was checked when read, so it parses, to an object.
        match self.raw.as_ref().map(|raw| serde_json::from_str::<Value>(raw.as_str())) {
            Some(Ok(v @ Value::Object(_))) => v,
            _ => Value::Object(Map::new()),
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
                // Checked to be a slice of the text when made (`Config::read`).
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
        self.with_value(|v| match v {
            Value::Object(m) => m.fmt(f),
            other => other.fmt(f),
        })
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

/// Written as serde_json writes the map: the text's value is built for the writing only, so
/// writing a document does not leave every config built.
impl Serialize for Config {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.with_value(|v| v.serialize(s))
    }
}

impl<'de> Deserialize<'de> for Config {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Map::deserialize(d).map(Config::from)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_changed_config_drops_its_text() {
        let mut c = Config::read(r#"{"a": 1}"#, false, None);
        assert_eq!(c.get("a"), Some(&Value::from(1)));
        assert!(c.raw_text().is_some());
        c.insert("b".into(), Value::from(2));
        assert!(c.raw_text().is_none());
        assert_eq!(serde_json::to_string(&c).unwrap_or_default(), r#"{"a":1,"b":2}"#);
        assert_eq!(Config::read("{\"a\":1}", false, None), Config::read("{ \"a\": 1 }", false, None));
    }

    #[test]
    fn writing_a_config_read_from_text_does_not_keep_its_value() {
        let c = Config::read("{\"z\": 1.50, \"a\": [1e3, {}]}", false, None);
        assert_eq!(serde_json::to_string(&c).unwrap_or_default(), r#"{"z":1.50,"a":[1e+3,{}]}"#);
        assert!(c.value.get().is_none(), "writing built and kept the value");
        assert_eq!(c.as_map().len(), 2);
        assert!(c.value.get().is_some());
    }

    #[test]
    fn a_config_in_a_shared_text_refers_to_it() {
        let text = SharedText::from("{\"config\": {\"b\": 1}}".to_owned());
        let raw = &text.as_str()[11..19];
        let c = Config::read(raw, false, Some(&text));
        assert!(matches!(c.raw, Some(Raw::In { start: 11, len: 8, .. })));
        assert_eq!(c.raw_text(), Some("{\"b\": 1}"));
        let copy = raw.to_owned();
        assert!(matches!(Config::read(&copy, false, Some(&text)).raw, Some(Raw::Own(_))));
    }
}
