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

/// [`to_canonical_string`] into a buffer of `capacity` bytes, for a caller that knows about how
/// long the text will be (the text it was read from). Growing the buffer by doubling would
/// briefly hold the old and the new buffer, about 1.5 times the text, at the peak of memory.
pub fn to_canonical_string_sized(spec: &GraphSpec, capacity: usize) -> String {
    let mut out = Vec::with_capacity(capacity.saturating_add(1));
    if serde_json::to_writer_pretty(&mut out, spec).is_err() {
        return to_canonical_string(spec);
    }
    out.push(b'\n');
    // serde_json writes UTF-8 (keys and strings are Rust strings); checked rather than trusted.
    String::from_utf8(out).unwrap_or_else(|_| to_canonical_string(spec))
}

/// Whether `text` is exactly the canonical text of `spec`, found without writing that text
/// out: the canonical writer streams into a comparison with `text` and stops at the first byte
/// that differs. `trellis fmt --check` needs only this answer, and on a large document the
/// canonical text would be another copy of the file in memory.
pub fn is_canonical(spec: &GraphSpec, text: &str) -> bool {
    // The pretty writer hands over a few bytes at a time (a quote, an indent, ": "); compared
    // one by one, those calls cost more than writing. A buffer compares them a block at a time.
    let mut cmp = std::io::BufWriter::with_capacity(COMPARE_BLOCK, Compare { rest: text.as_bytes() });
    // An error is the comparison stopping at a difference (or a writer error: not canonical).
    if serde_json::to_writer_pretty(&mut cmp, spec).is_err() {
        return false;
    }
    match cmp.into_inner() {
        Ok(cmp) => cmp.rest == b"\n",
        Err(_) => false,
    }
}

/// How many bytes of canonical text are compared at once.
const COMPARE_BLOCK: usize = 64 * 1024;

/// An `io::Write` that checks what is written against the bytes still expected.
struct Compare<'a> {
    rest: &'a [u8],
}

impl std::io::Write for Compare<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self.rest.strip_prefix(buf) {
            Some(rest) => {
                self.rest = rest;
                Ok(buf.len())
            }
            None => Err(std::io::Error::other("differs from the canonical text")),
        }
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
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
    fn sized_writer_gives_the_same_text() {
        let text = r#"{"name":"g","channels":{},"nodes":[{"id":"a","type":"t","config":{"z":1.50,"a":"çay"}}],"edges":[]}"#;
        let spec = parse_spec(text).spec.unwrap_or_default();
        for cap in [0, 10, 10_000] {
            assert_eq!(to_canonical_string_sized(&spec, cap), to_canonical_string(&spec));
        }
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
        // Longer than one compared block, with a difference in the second block and at the end.
        let big = crate::generate::generate(400, 7);
        let text = to_canonical_string(&big);
        assert!(text.len() > 2 * COMPARE_BLOCK);
        assert!(is_canonical(&big, &text));
        let mut changed = text.clone().into_bytes();
        changed[COMPARE_BLOCK + 10] = b'\t'; // never in canonical text (escaped in strings)
        assert!(!is_canonical(&big, &String::from_utf8_lossy(&changed)));
        assert!(!is_canonical(&big, &text[..text.len() - 2]));
        assert!(!is_canonical(&big, &format!("{text} ")));
    }

    #[test]
    fn empty_document_has_every_key() {
        let got = to_canonical_string(&GraphSpec::default());
        assert_eq!(got, "{\n  \"name\": null,\n  \"channels\": {},\n  \"nodes\": [],\n  \"edges\": []\n}\n");
    }
}
