//! The fast path of reading a layout sidecar: straight into the sidecar's shape, with no
//! `serde_json::Value` tree in between (when a 10,000-node document was opened, building that
//! tree of 20,000 numbers took a fifth of the time).
//!
//! It accepts only what the general path (`json::parse`, then `serde_json::from_value`) accepts,
//! and gives the same result: numbers go through the very same conversion (`from_value` of the
//! number read with `arbitrary_precision`). Anything unusual (a field the sidecar does not have,
//! at any level; a key twice; a syntax error) answers `None`, and the general path then reads the
//! text and reports exactly as before.

use std::fmt;

use indexmap::IndexMap;
use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::Deserialize;
use serde_json::{Number, Value};

use super::sidecar::Sidecar;
use crate::edit::{Position, Viewport};

/// The sidecar read the fast way, or `None` for the general path to read it.
pub(crate) fn plain(text: &str) -> Option<Sidecar> {
    let s: PlainSidecar = serde_json::from_str(text).ok()?;
    Some(Sidecar {
        version: serde_json::from_value(Value::Number(s.version)).ok()?,
        positions: s.positions.0,
        viewport: match s.viewport {
            None => None,
            Some(v) => Some(Viewport { x: float(v.x).ok()?, y: float(v.y).ok()?, zoom: float(v.zoom).ok()? }),
        },
    })
}

/// A number as the general path converts it.
fn float(n: Number) -> Result<f64, serde_json::Error> {
    serde_json::from_value(Value::Number(n))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlainSidecar {
    version: Number,
    #[serde(default)]
    positions: Positions,
    #[serde(default)]
    viewport: Option<PlainViewport>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlainPoint {
    x: Number,
    y: Number,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PlainViewport {
    x: Number,
    y: Number,
    zoom: Number,
}

/// Positions by id; an id twice is an error (the general path reports it as a duplicate key).
#[derive(Default)]
struct Positions(IndexMap<String, Position>);

impl<'de> Deserialize<'de> for Positions {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Positions;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("positions by node id")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Positions, A::Error> {
                let mut out = IndexMap::with_capacity(map.size_hint().unwrap_or(0));
                while let Some(id) = map.next_key::<String>()? {
                    let p: PlainPoint = map.next_value()?;
                    let x = float(p.x).map_err(de::Error::custom)?;
                    let y = float(p.y).map_err(de::Error::custom)?;
                    if out.insert(id, Position { x, y }).is_some() {
                        return Err(de::Error::custom("duplicate id"));
                    }
                }
                Ok(Positions(out))
            }
        }
        d.deserialize_map(V)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The general path alone, as `Layout::parse` read every sidecar before.
    fn general(text: &str) -> Option<Sidecar> {
        serde_json::from_value(trellis_spec::json::parse(text).ok()?).ok()
    }

    fn same(a: &Sidecar, b: &Sidecar) -> bool {
        a.version == b.version
            && a.viewport == b.viewport
            && a.positions.len() == b.positions.len()
            && a.positions.iter().zip(&b.positions).all(|((i, p), (j, q))| {
                i == j && p.x.to_bits() == q.x.to_bits() && p.y.to_bits() == q.y.to_bits()
            })
    }

    #[test]
    fn the_fast_path_reads_what_the_general_path_reads() {
        let text = r#"{"version":1,"positions":{"b":{"x":1.5,"y":-2},"a":{"x":0.1,"y":1e2},
            "c":{"x":123456789012345678901234567890,"y":0.30000000000000004}},
            "viewport":{"x":1,"y":2.25,"zoom":0.5}}"#;
        let fast = plain(text).expect("fast path");
        let slow = general(text).expect("general path");
        assert!(same(&fast, &slow));
        assert_eq!(fast.positions.keys().collect::<Vec<_>>(), ["b", "a", "c"]);
        let bare = plain(r#"{"version":1}"#).expect("fast path");
        assert!(bare.positions.is_empty() && bare.viewport.is_none());
    }

    #[test]
    fn anything_unusual_goes_the_general_way() {
        for text in [
            r#"{"version":1,"positions":{"a":{"x":1,"y":2},"a":{"x":1,"y":2}}}"#,
            r#"{"version":1,"positions":{"a":{"x":1,"y":2,"z":{"k":1,"k":2}}}}"#,
            r#"{"version":1,"viewport":{"x":1,"y":2,"zoom":1,"extra":0}}"#,
            r#"{"version":1,"version":1}"#,
            r#"{"version":1,"extra":1}"#,
            r#"{"version":1.5}"#,
            r#"{"version":1} {}"#,
            r#"{"version":1,"positions":{"a":{"x":"1","y":2}}}"#,
            "",
        ] {
            assert!(plain(text).is_none(), "{text}");
        }
    }
}
