//! The canonical text of a GraphSpec: serde_json's pretty text of the model and a final newline,
//! what `JSON.stringify(toSpec(g), null, 2) + "\n"` gives in the reference, with two deliberate
//! differences that keep a document's own bytes: config (and predicate) key order is kept
//! exactly as read, even for integer-like keys that JavaScript would move to the front, and
//! number text is kept as read (`1.50` stays `1.50`; the one normalisation, serde_json's, is an
//! exponent's sign: `1e3` is written `1e+3`).
//!
//! Shape (the model's `Serialize`): `{name, channels:{<n>:{reducer}}, nodes:[{id,type,config}],
//! edges:[{from,to[,when]}]}` with `reducer` and `config` always written, two-space indent,
//! non-ASCII written as UTF-8, and a final newline.
//!
//! The compact writers give `serde_json::to_string` of the model (what the app's views carry),
//! in parts for a caller that hands a large document over in pieces.

use std::io;

use serde::Serialize;

use crate::model::{EdgeSpec, GraphSpec, NodeSpec};

/// The canonical text of `spec`.
pub fn to_canonical_string(spec: &GraphSpec) -> String {
    let mut text = serde_json::to_string_pretty(spec).expect("a document always serializes");
    text.push('\n');
    text
}

/// Whether `text` is exactly the canonical text of `spec`: the canonical writer's bytes are
/// compared with `text` as they are written, and the writing stops at the first that differs.
/// `trellis fmt --check` needs only this answer, and on a large document the canonical text
/// would be another copy of the file in memory.
pub fn is_canonical(spec: &GraphSpec, text: &str) -> bool {
    let mut rest = text.as_bytes();
    serde_json::to_writer_pretty(Compare(&mut rest), spec).is_ok() && rest == b"\n"
}

/// A writer that compares what is written with the bytes ahead and steps over them; it fails
/// at the first byte that differs.
struct Compare<'a, 'b>(&'a mut &'b [u8]);

impl io::Write for Compare<'_, '_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self.0.strip_prefix(buf) {
            Some(rest) => {
                *self.0 = rest;
                Ok(buf.len())
            }
            None => Err(io::Error::other("the text differs")),
        }
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The model's compact JSON text: `serde_json::to_string(spec)`, into a buffer of about
/// `capacity` bytes (a caller that knows how long it will be).
pub fn to_compact_string(spec: &GraphSpec, capacity: usize) -> String {
    let mut out = Vec::with_capacity(capacity);
    write_compact(spec, &mut out);
    // serde_json writes UTF-8.
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// [`to_compact_string`], appended to `out` (a caller that writes the text into a larger one).
pub fn write_compact(spec: &GraphSpec, out: &mut Vec<u8>) {
    append(out, spec);
}

/// The start of [`to_compact_string`] up to the nodes: `{"name":...,"channels":{...}` (the
/// object is left open). With [`write_compact_nodes`] and [`write_compact_edges`], for a caller
/// that hands a large document over in parts.
pub fn write_compact_head(spec: &GraphSpec, out: &mut Vec<u8>) {
    out.extend_from_slice(b"{\"name\":");
    append(out, &spec.name);
    out.extend_from_slice(b",\"channels\":");
    append(out, &spec.channels);
}

/// `nodes` as a JSON array, as [`to_compact_string`] writes a document's.
pub fn write_compact_nodes(nodes: &[NodeSpec], out: &mut Vec<u8>) {
    append(out, nodes);
}

/// `edges` as a JSON array, as [`to_compact_string`] writes a document's.
pub fn write_compact_edges(edges: &[EdgeSpec], out: &mut Vec<u8>) {
    append(out, edges);
}

/// `value`'s compact text appended to `out`.
fn append(out: &mut Vec<u8>, value: &(impl Serialize + ?Sized)) {
    // Writing into memory fails only if a value refuses to serialize, and every part of the
    // model serializes.
    let _ = serde_json::to_writer(out, value);
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
    fn canonical_check_agrees_with_the_written_text() {
        let text = r#"{"name":"g","channels":{"v":{}},"nodes":[{"id":"a","type":"t","config":{"z":1.50}}],"edges":[]}"#;
        let spec = parse_spec(text).spec.unwrap_or_default();
        let canonical = to_canonical_string(&spec);
        assert!(is_canonical(&spec, &canonical));
        assert!(!is_canonical(&spec, text));
        assert!(!is_canonical(&spec, canonical.trim_end()));
        assert!(!is_canonical(&spec, &format!("{canonical}\n")));
        assert!(!is_canonical(&spec, &canonical.replace("1.50", "1.5")));
        let big = crate::generate::generate(400, 7);
        let text = to_canonical_string(&big);
        assert!(is_canonical(&big, &text));
        for at in [10, text.len() / 2, text.len() - 3] {
            let mut changed = text.clone().into_bytes();
            changed[at] = b'\t'; // never in canonical text (escaped in strings)
            assert!(!is_canonical(&big, &String::from_utf8_lossy(&changed)), "changed at {at}");
        }
        assert!(!is_canonical(&big, &text[..text.len() - 2]));
        assert!(!is_canonical(&big, &format!("{text} ")));
    }

    #[test]
    fn the_compact_writers_are_serde_jsons_compact_text() {
        let texts = [
            r#"{"name":"g","channels":{"v":{},"w":{"reducer":"nope"}},"nodes":[{"id":"a","type":"t","config":{"z":1.50,"a":"çay\u0007\/","1":null,"e":1E3,"d":[[],{},[1,{"x":-2e-3}]]}},{"id":"b","config":null},{"id":"c\n","type":"t"}],"edges":[{"from":"__start__","to":"a","when":{"eq":1e3,"channel":"v","in":[{"a":[]}]}},{"from":"a","to":"__end__"}]}"#,
            r#"{"name":null}"#,
            "{\n \"nodes\" : [ {\"id\":\"a\", \"type\":\"t\",\"config\": { \"k\" : [ 1 , 2 ] } } ] }",
        ];
        for text in texts {
            let spec = parse_spec(text).spec.unwrap_or_default();
            let serde = serde_json::to_string(&spec).unwrap_or_default();
            assert_eq!(to_compact_string(&spec, 0), serde, "{text}");
            let mut parts = Vec::new();
            write_compact_head(&spec, &mut parts);
            parts.extend_from_slice(b",\"nodes\":");
            write_compact_nodes(&spec.nodes, &mut parts);
            parts.extend_from_slice(b",\"edges\":");
            write_compact_edges(&spec.edges, &mut parts);
            parts.push(b'}');
            assert_eq!(String::from_utf8_lossy(&parts), serde, "{text}");
        }
        assert_eq!(
            to_compact_string(&GraphSpec::default(), 0),
            r#"{"name":null,"channels":{},"nodes":[],"edges":[]}"#
        );
    }

    #[test]
    fn empty_document_has_every_key() {
        let got = to_canonical_string(&GraphSpec::default());
        assert_eq!(got, "{\n  \"name\": null,\n  \"channels\": {},\n  \"nodes\": [],\n  \"edges\": []\n}\n");
    }
}
