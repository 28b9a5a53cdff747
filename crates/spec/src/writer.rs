//! The canonical text of a GraphSpec: what `JSON.stringify(toSpec(g), null, 2) + "\n"` gives
//! in the reference, with two deliberate differences that keep a document's own bytes: config
//! (and predicate) key order is kept exactly as read, even for integer-like keys that
//! JavaScript would move to the front, and number text is kept as read (`1.50` stays `1.50`; the one normalisation, from serde_json,
//! is an exponent sign: `1e3` is written `1e+3`).
//!
//! Shape: `{name, channels:{<n>:{reducer}}, nodes:[{id,type,config}], edges:[{from,to[,when]}]}`
//! with `reducer` and `config` always written, two-space indent, non-ASCII written as UTF-8,
//! and a final newline.

use crate::model::GraphSpec;

/// The canonical text of `spec`.
pub fn to_canonical_string(spec: &GraphSpec) -> String {
    // Serializing a GraphSpec cannot fail: every key is a string and every number came from
    // JSON text (or from serde_json's own constructors), so there is no error to surface.
    let mut out = serde_json::to_string_pretty(spec).unwrap_or_default();
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::parse_spec;

    #[test]
    fn canonical_text_adds_defaults_and_keeps_text() {
        let text = r#"{"name":"g","channels":{"v":{}},"nodes":[{"id":"a","type":"t","config":{"z":1.50,"a":"çay","1":null}}],"edges":[{"from":"__start__","to":"a","when":{"eq":1e3,"channel":"v"}}]}"#;
        let spec = parse_spec(text).spec.unwrap_or_default();
        let expected = r#"{
  "name": "g",
  "channels": {
    "v": {
      "reducer": "last_write"
    }
  },
  "nodes": [
    {
      "id": "a",
      "type": "t",
      "config": {
        "z": 1.50,
        "a": "çay",
        "1": null
      }
    }
  ],
  "edges": [
    {
      "from": "__start__",
      "to": "a",
      "when": {
        "eq": 1e+3,
        "channel": "v"
      }
    }
  ]
}
"#;
        let got = to_canonical_string(&spec);
        assert_eq!(got, expected);
        let again = parse_spec(&got).spec.unwrap_or_default();
        assert_eq!(to_canonical_string(&again), got);
    }

    #[test]
    fn empty_document_has_every_key() {
        let got = to_canonical_string(&GraphSpec::default());
        assert_eq!(got, "{\n  \"name\": null,\n  \"channels\": {},\n  \"nodes\": [],\n  \"edges\": []\n}\n");
    }
}
