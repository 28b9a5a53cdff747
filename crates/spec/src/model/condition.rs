//! How an edge's condition (`when`) is held.
//!
//! A condition is stored verbatim, key order and unknown keys kept, so that `to_spec` writes
//! back exactly what was read (formats.md §1.2); what it means is read by `crate::predicate`.
//! Nearly every condition is `{"channel": <name>, <operator>: <operand>}`, and a
//! `serde_json::Map` for those two keys (an index table, a list of entries, a heap string per
//! key) is several times the size of what it holds: a large part of the model of a large
//! document. That shape is held as its three parts, in one box; any other object as its map.
//! Either way the condition reads, compares, writes and serializes as the same object.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};
use ts_rs::TS;

/// The operator names in precedence order: the first present in a condition is the one it uses.
pub const OPERATORS: [&str; 6] = ["eq", "neq", "in", "gt", "lt", "truthy"];

/// A declarative guard, stored verbatim (key order and unknown keys kept) so that `to_spec`
/// writes back exactly what was read (formats.md §1.2). Its meaning is read through
/// `crate::predicate`.
#[derive(Clone, TS)]
#[ts(
    export,
    type = "{ channel: string, eq?: unknown, neq?: unknown, in?: unknown[], gt?: number, lt?: number, truthy?: boolean } & Record<string, unknown>"
)]
pub struct Predicate(#[ts(skip)] Box<Form>);

#[derive(Clone)]
enum Form {
    /// `{"channel": <string>, <operator>: <operand>}`, the keys in that order. `channel` is
    /// always a `Value::String`, held as a value so that the entries read as the map's would;
    /// `operator` indexes [`OPERATORS`].
    Plain { channel: Value, operator: u8, operand: Value },
    /// Any other object.
    Map(Map<String, Value>),
}

impl Predicate {
    /// A condition from its entries in document order (keys distinct): the plain shape when
    /// that is what they are, a map otherwise.
    fn from_entries<K: AsRef<str> + Into<String>>(entries: Vec<(K, Value)>) -> Predicate {
        let plain = match entries.as_slice() {
            [(first, Value::String(_)), (second, _)] if first.as_ref() == "channel" => {
                operator_index(second.as_ref())
            }
            _ => None,
        };
        let entries = match (plain, <[(K, Value); 2]>::try_from(entries)) {
            (Some(operator), Ok([(_, channel), (_, operand)])) => {
                return Predicate(Box::new(Form::Plain { channel, operator, operand }));
            }
            (_, Ok(two)) => Vec::from(two),
            (_, Err(entries)) => entries,
        };
        Predicate(Box::new(Form::Map(entries.into_iter().map(|(k, v)| (k.into(), v)).collect())))
    }

    /// The `channel` key, when it is a string.
    pub fn channel(&self) -> Option<&str> {
        match &*self.0 {
            Form::Plain { channel, .. } => channel.as_str(),
            // A walk over the guard's few keys: several checks ask this of every guarded edge,
            // and a hashed look-up in serde_json's map (SipHash) costs more.
            Form::Map(m) => m.iter().find_map(|(k, v)| (k == "channel").then_some(v)).and_then(Value::as_str),
        }
    }

    /// The value under `key`.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.iter().find_map(|(k, v)| (k == key).then_some(v))
    }

    /// The entries, in document order.
    pub fn iter(&self) -> Entries<'_> {
        match &*self.0 {
            Form::Plain { channel, operator, operand } => Entries(EntriesOf::Plain(
                [("channel", channel), (OPERATORS[usize::from(*operator)], operand)].into_iter(),
            )),
            Form::Map(m) => Entries(EntriesOf::Map(m.iter())),
        }
    }

    /// The number of keys.
    pub fn len(&self) -> usize {
        match &*self.0 {
            Form::Plain { .. } => 2,
            Form::Map(m) => m.len(),
        }
    }

    /// Whether the object is `{}`.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The plain shape's operator (an index in [`OPERATORS`]) and operand, when it has it.
    pub(crate) fn plain_operator(&self) -> Option<(usize, &Value)> {
        match &*self.0 {
            Form::Plain { operator, operand, .. } => Some((usize::from(*operator), operand)),
            Form::Map(_) => None,
        }
    }

    /// The object, as a map.
    pub fn to_map(&self) -> Map<String, Value> {
        self.iter().map(|(k, v)| (k.to_owned(), v.clone())).collect()
    }

    /// The object, as a map, taken out.
    pub fn into_map(self) -> Map<String, Value> {
        match *self.0 {
            Form::Plain { channel, operator, operand } => {
                let mut m = Map::with_capacity(2);
                m.insert("channel".to_owned(), channel);
                m.insert(OPERATORS[usize::from(operator)].to_owned(), operand);
                m
            }
            Form::Map(m) => m,
        }
    }
}

/// Where `key` is in [`OPERATORS`], as the plain shape stores it.
fn operator_index(key: &str) -> Option<u8> {
    OPERATORS.iter().position(|op| *op == key).and_then(|i| u8::try_from(i).ok())
}

impl From<Map<String, Value>> for Predicate {
    fn from(map: Map<String, Value>) -> Self {
        let plain = map.len() == 2 && {
            let mut keys = map.iter();
            matches!(keys.next(), Some((k, Value::String(_))) if k == "channel")
                && keys.next().is_some_and(|(k, _)| operator_index(k).is_some())
        };
        if plain {
            Predicate::from_entries(map.into_iter().collect())
        } else {
            Predicate(Box::new(Form::Map(map)))
        }
    }
}

impl From<Predicate> for Map<String, Value> {
    fn from(p: Predicate) -> Self {
        p.into_map()
    }
}

/// A condition's entries, in document order ([`Predicate::iter`]).
#[derive(Debug)]
pub struct Entries<'a>(EntriesOf<'a>);

#[derive(Debug)]
enum EntriesOf<'a> {
    Plain(std::array::IntoIter<(&'static str, &'a Value), 2>),
    Map(serde_json::map::Iter<'a>),
}

impl<'a> Iterator for Entries<'a> {
    type Item = (&'a str, &'a Value);
    fn next(&mut self) -> Option<Self::Item> {
        match &mut self.0 {
            EntriesOf::Plain(it) => it.next(),
            EntriesOf::Map(it) => it.next().map(|(k, v)| (k.as_str(), v)),
        }
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        match &self.0 {
            EntriesOf::Plain(it) => it.size_hint(),
            EntriesOf::Map(it) => it.size_hint(),
        }
    }
}

impl ExactSizeIterator for Entries<'_> {}

impl<'a> IntoIterator for &'a Predicate {
    type Item = (&'a str, &'a Value);
    type IntoIter = Entries<'a>;
    fn into_iter(self) -> Entries<'a> {
        self.iter()
    }
}

/// As maps compare: the same entries, in any order (serde_json's `Map` is compared as a set).
impl PartialEq for Predicate {
    fn eq(&self, other: &Predicate) -> bool {
        match (&*self.0, &*other.0) {
            (
                Form::Plain { channel: c1, operator: o1, operand: v1 },
                Form::Plain { channel: c2, operator: o2, operand: v2 },
            ) => o1 == o2 && c1 == c2 && v1 == v2,
            (Form::Map(a), Form::Map(b)) => a == b,
            // Keys are distinct, so the same number of them, each in the other, is the same set.
            _ => self.len() == other.len() && self.iter().all(|(k, v)| other.get(k) == Some(v)),
        }
    }
}

/// As the map it is: `Predicate({"channel": String("c"), "eq": Number(1)})`.
impl fmt::Debug for Predicate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        struct Object<'a>(&'a Predicate);
        impl fmt::Debug for Object<'_> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_map().entries(self.0.iter()).finish()
            }
        }
        f.debug_tuple("Predicate").field(&Object(self)).finish()
    }
}

impl Serialize for Predicate {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.iter())
    }
}

impl<'de> Deserialize<'de> for Predicate {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Map::deserialize(d).map(Predicate::from)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn of(v: Value) -> Predicate {
        Predicate::from(v.as_object().cloned().unwrap_or_default())
    }

    fn is_plain(p: &Predicate) -> bool {
        p.plain_operator().is_some()
    }

    #[test]
    fn the_plain_shape_is_held_apart_and_reads_as_its_map() {
        for op in OPERATORS {
            let v = json!({"channel": "c", op: [1, "x"]});
            let p = of(v.clone());
            assert!(is_plain(&p), "{op}");
            assert_eq!(serde_json::to_value(&p).ok(), Some(v.clone()));
            assert_eq!(Value::Object(p.to_map()), v);
            assert_eq!(Value::Object(p.clone().into_map()), v);
            assert_eq!(p.channel(), Some("c"));
            assert_eq!(p.get(op), Some(&json!([1, "x"])));
            assert_eq!(p.len(), 2);
            assert_eq!(p, of(v));
        }
    }

    #[test]
    fn every_other_object_is_held_as_its_map() {
        for v in [
            json!({}),
            json!({"channel": "c"}),
            json!({"eq": 1, "channel": "c"}),
            json!({"channel": 3, "eq": 1}),
            json!({"channel": "c", "note": 1}),
            json!({"channel": "c", "eq": 1, "note": 1}),
            json!({"channel": "c", "eq": null, "gt": 2}),
        ] {
            let p = of(v.clone());
            assert!(!is_plain(&p), "{v}");
            assert_eq!(serde_json::to_value(&p).ok(), Some(v.clone()), "{v}");
            assert_eq!(Value::Object(p.clone().into_map()), v);
            assert_eq!(p.len(), v.as_object().map_or(0, Map::len));
        }
    }

    #[test]
    fn equality_is_the_maps_whatever_the_form() {
        let plain = of(json!({"channel": "c", "eq": 1}));
        let reordered = of(json!({"eq": 1, "channel": "c"}));
        assert!(is_plain(&plain) && !is_plain(&reordered));
        assert_eq!(plain, reordered);
        assert_eq!(reordered, plain);
        assert_ne!(plain, of(json!({"channel": "c", "eq": 2})));
        assert_ne!(plain, of(json!({"channel": "c", "neq": 1})));
        assert_ne!(plain, of(json!({"channel": "d", "eq": 1})));
        assert_ne!(plain, of(json!({"eq": 1, "channel": "c", "note": 0})));
        assert_ne!(reordered, of(json!({"channel": "c", "eq": "1"})));
    }

    #[test]
    fn debug_prints_the_object() {
        let p = of(json!({"channel": "c", "eq": 1}));
        assert_eq!(format!("{p:?}"), format!("Predicate({:?})", p.to_map()));
        let m = of(json!({"eq": 1, "channel": "c"}));
        assert_eq!(format!("{m:?}"), format!("Predicate({:?})", m.to_map()));
    }

    #[test]
    fn operators_are_known_by_name() {
        assert!(operator_index("eq").is_some());
        assert!(operator_index("equals").is_none());
    }

    #[test]
    fn reading_gives_the_plain_shape_and_back() {
        let p: Predicate = serde_json::from_str(r#"{"channel":"c","truthy":true}"#).expect("reads");
        assert!(is_plain(&p));
        assert_eq!(serde_json::to_string(&p).ok().as_deref(), Some(r#"{"channel":"c","truthy":true}"#));
    }
}
