//! Reading a GraphSpec object straight from its text, one node and one edge at a time.
//!
//! [`crate::read::spec_from_value`] reads a document already parsed into one `serde_json::Value`
//! tree; for a large document that tree is most of the memory (a map, its keys and its values
//! for every node and every edge) and is thrown away as soon as the model is built. Here the
//! top-level object, `nodes` and `edges` are read by serde visitors: each node or edge is parsed
//! into a small `Value` of its own, handed to the same [`Reader`] code (so every diagnostic is
//! exactly what the tree path gives) and dropped before the next one is read. The peak is the
//! model, not the model plus a tree of the whole document.
//!
//! Duplicate keys, the nesting limit and syntax errors are caught by the same parser as before
//! (serde_json with the checking visitor of [`crate::json`]), with the same messages and places.

use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use std::borrow::Cow;

use serde_json::value::RawValue;
use serde_json::Value;

use crate::config::{self, Config};
use crate::json::{self, Checked, CheckedVisitor};
use crate::json_outline::Key;
use crate::model::{EdgeSpec, GraphSpec, NodeSpec};
use crate::read::{Parsed, Reader};

/// Reads a document whose text starts with `{` (after whitespace). Diagnostics carry no spans
/// yet. `Err` is the JSON problem (syntax, duplicate key, nesting) that stopped the parse.
///
///
/// Node configs are kept as their text ([`crate::config::Config`]), checked without building a
/// value ([`crate::config::check_raw`]). When reading that way fails for any reason (a repeated
/// key, deep nesting, a bad escape, a syntax error, which serde_json words a little differently
/// when it skips a value), the document is read again the checked way, config values and all,
/// so the diagnostic is exactly the parser's, with its place. Only a broken document pays twice.
pub fn read_object(text: &str) -> Result<Parsed, crate::Diagnostic> {
    // The document as every tool writes it, in one pass (gives up on anything else).
    if let Some((spec, _, places)) = crate::fast_read::read_keyed(text, None) {
        return Ok(Parsed { spec: Some(spec), diagnostics: Vec::new(), places: Some(places) });
    }
    match read_object_with(text, true) {
        Ok(parsed) => Ok(parsed),
        Err(_) => read_object_with(text, false).map_err(|e| json::to_diagnostic(text, &e)),
    }
}

/// The error that stops a reading with configs kept as text, to read again the checked way.
const CHECK_AGAIN: &str = "check the configs again";

/// Nesting a config's text may have to be kept as text: the document, `nodes` and the node are
/// three levels above it, and the parser refuses more than [`json::MAX_DEPTH`] in all. Deeper
/// configs (never seen in practice) are read the checked way, which says exactly where.
const RAW_CONFIG_DEPTH: usize = json::MAX_DEPTH - 8;

fn read_object_with(text: &str, raw_configs: bool) -> Result<Parsed, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_str(text);
    let mut reader = Reader::new();
    let spec = DocumentSeed { r: &mut reader, hints: (nodes_hint(text), edges_hint(text)), raw_configs }
        .deserialize(&mut de)?;
    de.end()?;
    Ok(reader.finish(spec))
}

struct DocumentSeed<'r> {
    r: &'r mut Reader,
    /// About how many nodes and edges the document has (see [`nodes_hint`], [`edges_hint`]).
    hints: (usize, usize),
    /// Node configs kept as their text.
    raw_configs: bool,
}

/// How many edges a document has, about: each edge object has one `"from"` key. The edge list
/// is the largest list of the model and is filled last, when everything else is in memory:
/// grown by doubling, it would hold up to twice its size, and shrinking it to its length at
/// the end would briefly hold both copies (that moment was the peak of reading a large
/// document). A `"from"` inside a config or a string only makes the first allocation a little
/// larger than needed (the list is shrunk to its length then), and an escaped key makes the list
/// grow as before: the hint changes memory, never the result. A text of nothing but `"from"`
/// strings cannot make it reserve more than twice the text's size.
pub(crate) fn edges_hint(text: &str) -> usize {
    list_hint(text, b"\"from\"", std::mem::size_of::<EdgeSpec>())
}

/// How many nodes a document has, about: each node object has one `"id"` key (see
/// [`edges_hint`]). Grown by doubling, the node list of 10,000 nodes was copied into fresh
/// memory five times over, 2.6 MB written for a list of 1 MB: a fifth of the page faults of
/// reading the document. Counting the keys takes a twentieth of reading the text.
pub(crate) fn nodes_hint(text: &str) -> usize {
    list_hint(text, b"\"id\"", std::mem::size_of::<NodeSpec>())
}

/// How many times `key` occurs in `text`, up to the number of `size`-byte elements that make
/// twice the text's size.
fn list_hint(text: &str, key: &[u8], size: usize) -> usize {
    let most = 2 * text.len() / size.max(1);
    memchr::memmem::find_iter(text.as_bytes(), key).take(most).count()
}

impl<'de> DeserializeSeed<'de> for DocumentSeed<'_> {
    type Value = Option<GraphSpec>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for DocumentSeed<'_> {
    type Value = Option<GraphSpec>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a GraphSpec object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let (r, (nodes_hint, edges_hint), raw_configs) = (self.r, self.hints, self.raw_configs);
        let mut spec = GraphSpec::default();
        // The top-level keys met, to refuse a repeated one as the checking visitor does.
        let mut seen: Vec<String> = Vec::new();
        while let Some(key) = map.next_key::<String>()? {
            if seen.contains(&key) {
                return Err(de::Error::custom(format!(
                    "duplicate key \"{}\" in one object",
                    key.escape_debug()
                )));
            }
            match key.as_str() {
                "nodes" => map.next_value_seed(ListSeed {
                    r: &mut *r,
                    spec: &mut spec,
                    field: List::Nodes,
                    hint: nodes_hint,
                    raw_configs,
                })?,
                "edges" => map.next_value_seed(ListSeed {
                    r: &mut *r,
                    spec: &mut spec,
                    field: List::Edges,
                    hint: edges_hint,
                    raw_configs,
                })?,
                _ => {
                    let Checked(v) = map.next_value()?;
                    r.top_level_field(&key, v, &mut spec);
                }
            }
            seen.push(key);
        }
        Ok(Some(spec))
    }

    // Anything else is not a GraphSpec; the tree path words that (this reader is only used on
    // text that starts with `{`, so these are not reached in practice).
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<Self::Value, E> {
        Ok(self.r.document(Value::Bool(v)))
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Self::Value, E> {
        Ok(self.r.document(Value::Number(v.into())))
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Self::Value, E> {
        Ok(self.r.document(Value::Number(v.into())))
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Ok(self.r.document(Value::String(v.to_owned())))
    }
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        Ok(self.r.document(Value::Null))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        let v = CheckedVisitor.visit_seq(seq)?;
        Ok(self.r.document(v))
    }
}

#[derive(Clone, Copy)]
enum List {
    Nodes,
    Edges,
}

/// `nodes` or `edges`: read element by element when it is an array; anything else goes to the
/// reader as a whole value (which reports `null` as empty and the rest as an error).
struct ListSeed<'a> {
    r: &'a mut Reader,
    spec: &'a mut GraphSpec,
    field: List,
    /// How many elements to make room for before reading.
    hint: usize,
    /// Node configs kept as their text.
    raw_configs: bool,
}

impl ListSeed<'_> {
    fn whole(self, v: Value) {
        match self.field {
            List::Nodes => self.r.nodes(v, self.spec),
            List::Edges => self.r.edges(v, self.spec),
        }
    }
}

impl<'de> DeserializeSeed<'de> for ListSeed<'_> {
    type Value = ();
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for ListSeed<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an array")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        match self.field {
            List::Nodes => self.spec.nodes.reserve(self.hint),
            List::Edges => self.spec.edges.reserve(self.hint),
        }
        let mut i = 0;
        let seed = match (self.raw_configs, self.field) {
            (false, _) => ElementSeed::Checked,
            (true, List::Nodes) => ElementSeed::Fast { raw_config: true },
            (true, List::Edges) => ElementSeed::Fast { raw_config: false },
        };
        while let Some(element) = seq.next_element_seed(seed)? {
            match (self.field, element) {
                (List::Nodes, Element::Object(fields, config)) => {
                    if let Some(n) = self.r.node_fields(i, fields, config) {
                        self.spec.nodes.push(n);
                    }
                }
                (List::Nodes, Element::Other) => self.r.not_a_node(i),
                (List::Edges, Element::Object(fields, _)) => {
                    if let Some(e) = self.r.edge_fields(i, fields) {
                        self.spec.edges.push(e);
                    }
                }
                (List::Edges, Element::Other) => self.r.not_an_edge(i),
            }
            i += 1;
        }
        // No length is known up front, so a list may have grown past its length; its slack is
        // megabytes on a large document, kept for as long as it is open. Shrunk as soon as the
        // list is read (the node list before the edges are read, so both copies of it are
        // never in memory beside the edges).
        match self.field {
            List::Nodes => self.spec.nodes.shrink_to_fit(),
            List::Edges => self.spec.edges.shrink_to_fit(),
        }
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<(), A::Error> {
        let v = CheckedVisitor.visit_map(map)?;
        self.whole(v);
        Ok(())
    }
    fn visit_bool<E: de::Error>(self, v: bool) -> Result<(), E> {
        self.whole(Value::Bool(v));
        Ok(())
    }
    fn visit_i64<E: de::Error>(self, v: i64) -> Result<(), E> {
        self.whole(Value::Number(v.into()));
        Ok(())
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<(), E> {
        self.whole(Value::Number(v.into()));
        Ok(())
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<(), E> {
        let v = CheckedVisitor.visit_f64(v)?;
        self.whole(v);
        Ok(())
    }
    fn visit_str<E: de::Error>(self, v: &str) -> Result<(), E> {
        self.whole(Value::String(v.to_owned()));
        Ok(())
    }
    fn visit_unit<E: de::Error>(self) -> Result<(), E> {
        self.whole(Value::Null);
        Ok(())
    }
}

/// One element of `nodes` or `edges`: an object's members as read (duplicate keys refused,
/// values checked), handed to the reader without building a map that would be taken apart at
/// once; anything else is only checked, since the reader says "must be an object" whatever it is.
/// A node's config object may be kept as its text (the second field; then not in the first).
/// Keys are borrowed from the text when they have no escapes.
enum Element<'de> {
    Object(Vec<(Cow<'de, str>, Value)>, Option<Config>),
    Other,
}

/// How an element is read: checked (every value through the checking visitor, the parser's
/// own errors), or fast (keys borrowed, a node's config kept as its text when `raw_config`; any
/// problem stops the reading, which is then done again the checked way).
#[derive(Clone, Copy)]
enum ElementSeed {
    Checked,
    Fast { raw_config: bool },
}

impl<'de> DeserializeSeed<'de> for ElementSeed {
    type Value = Element<'de>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Element<'de>, D::Error> {
        match self {
            ElementSeed::Fast { raw_config } => d.deserialize_any(FastVisitor { raw_config }),
            ElementSeed::Checked => d.deserialize_any(ElementVisitor),
        }
    }
}

struct ElementVisitor;

impl<'de> Visitor<'de> for ElementVisitor {
    type Value = Element<'de>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Element<'de>, A::Error> {
        Ok(match json::members(map)? {
            json::Members::Entries(entries) => {
                Element::Object(entries.into_iter().map(|(k, v)| (Cow::Owned(k), v)).collect(), None)
            }
            json::Members::Number(_) => Element::Other,
        })
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Element<'de>, A::Error> {
        CheckedVisitor.visit_seq(seq).map(|_| Element::Other)
    }
    fn visit_bool<E>(self, _: bool) -> Result<Element<'de>, E> {
        Ok(Element::Other)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Element<'de>, E> {
        Ok(Element::Other)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Element<'de>, E> {
        Ok(Element::Other)
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Element<'de>, E> {
        CheckedVisitor.visit_f64(v).map(|_| Element::Other)
    }
    fn visit_str<E>(self, _: &str) -> Result<Element<'de>, E> {
        Ok(Element::Other)
    }
    fn visit_unit<E>(self) -> Result<Element<'de>, E> {
        Ok(Element::Other)
    }
    fn visit_none<E>(self) -> Result<Element<'de>, E> {
        Ok(Element::Other)
    }
}

/// An element read the fast way (see [`ElementSeed`]): as [`ElementVisitor`] otherwise.
struct FastVisitor {
    raw_config: bool,
}

impl<'de> Visitor<'de> for FastVisitor {
    type Value = Element<'de>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Element<'de>, A::Error> {
        let Some(Key(first)) = map.next_key::<Key<'de>>()? else {
            return Ok(Element::Object(Vec::new(), None));
        };
        if first == json::NUMBER_TOKEN {
            map.next_value::<de::IgnoredAny>()?;
            return Ok(Element::Other);
        }
        let mut entries: Vec<(Cow<'de, str>, Value)> = Vec::with_capacity(4);
        let mut config: Option<Config> = None;
        let mut seen_config = false;
        let mut key = first;
        loop {
            if self.raw_config && key == "config" {
                let raw: &'de RawValue = map.next_value()?;
                let text = raw.get();
                let Some(check) = config::check_raw(text, RAW_CONFIG_DEPTH) else {
                    return Err(de::Error::custom(CHECK_AGAIN));
                };
                if seen_config {
                    return Err(de::Error::custom(CHECK_AGAIN));
                }
                seen_config = true;
                if text.starts_with('{') {
                    config = Some(Config::from_check(text, check));
                } else {
                    // Not an object: the reader words that from the value.
                    let Ok(v) = json::parse(text) else { return Err(de::Error::custom(CHECK_AGAIN)) };
                    entries.push((key, v));
                }
            } else {
                let Checked(v) = map.next_value()?;
                // Nodes have a few keys: scanned.
                if entries.iter().any(|(k, _)| *k == key) || entries.len() >= json::SMALL_OBJECT {
                    return Err(de::Error::custom(CHECK_AGAIN));
                }
                entries.push((key, v));
            }
            match map.next_key::<Key<'de>>()? {
                Some(Key(k)) => key = k,
                None => return Ok(Element::Object(entries, config)),
            }
        }
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Element<'de>, A::Error> {
        ElementVisitor.visit_seq(seq)
    }
    fn visit_bool<E>(self, _: bool) -> Result<Element<'de>, E> {
        Ok(Element::Other)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Element<'de>, E> {
        Ok(Element::Other)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Element<'de>, E> {
        Ok(Element::Other)
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Element<'de>, E> {
        ElementVisitor.visit_f64(v)
    }
    fn visit_str<E>(self, _: &str) -> Result<Element<'de>, E> {
        Ok(Element::Other)
    }
    fn visit_unit<E>(self) -> Result<Element<'de>, E> {
        Ok(Element::Other)
    }
    fn visit_none<E>(self) -> Result<Element<'de>, E> {
        Ok(Element::Other)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the checked reader (every config a value) gives.
    fn checked(text: &str) -> Result<Parsed, crate::Diagnostic> {
        read_object_with(text, false).map_err(|e| json::to_diagnostic(text, &e))
    }

    /// The hints count the nodes and edges of a generated document, which both readers then
    /// hold without slack; a text of nothing but the key cannot make a list reserve more than
    /// twice the text's size.
    #[test]
    fn the_list_hints_count_the_elements_and_are_bounded() {
        let text = crate::generate::generate_text(500, 7);
        let spec = crate::parse_spec(&text).spec.expect("a generated document reads");
        assert_eq!((nodes_hint(&text), edges_hint(&text)), (spec.nodes.len(), spec.edges.len()));
        let slow = read_object(&text).expect("reads").spec.expect("a document");
        for s in [&spec, &slow] {
            assert_eq!((s.nodes.capacity(), s.edges.capacity()), (s.nodes.len(), s.edges.len()));
        }
        for (key, size) in
            [("\"id\"", std::mem::size_of::<NodeSpec>()), ("\"from\"", std::mem::size_of::<EdgeSpec>())]
        {
            let keys = key.repeat(10_000);
            let hint = if key == "\"id\"" { nodes_hint(&keys) } else { edges_hint(&keys) };
            assert!(hint > 0 && hint * size <= 2 * keys.len(), "{key}: {hint}");
        }
    }

    #[test]
    fn configs_kept_as_text_read_as_checked_values_do() {
        let deep = format!("{}1{}", "[".repeat(130), "]".repeat(130));
        let texts = [
            r#"{"nodes":[{"id":"a","type":"t","config":{"x":1,"y":{"p":[1,{"q":2}]}}}]}"#.to_owned(),
            r#"{"nodes":[{"id":"a","type":"t","config":{"x":1,"x":2}}]}"#.to_owned(),
            r#"{"nodes":[{"id":"a","type":"t","config":{"y":{"k1":1,"k\u0031":2}}}]}"#.to_owned(),
            r#"{"nodes":[{"id":"a","type":"t","config":{"s":"\ud800"}}]}"#.to_owned(),
            r#"{"nodes":[{"id":"a","config":{},"type":"t","config":{}}]}"#.to_owned(),
            r#"{"nodes":[{"id":"a","config":5,"config":{}}]}"#.to_owned(),
            r#"{"nodes":[{"id":"a","id":"b","config":{}}]}"#.to_owned(),
            r#"{"nodes":[{"id":"a","config":[1,2]},{"id":"b","config":null},{"config":{"z":1}}]}"#.to_owned(),
            r#"{"nodes":[{"id":"a","config":{"a":1,}}]}"#.to_owned(),
            format!(r#"{{"nodes":[{{"id":"a","config":{{"d":{deep}}}}}]}}"#),
            format!(r#"{{"nodes":[{{"id":"a","config":{{"d":{}1{}}}}}]}}"#, "[".repeat(120), "]".repeat(120)),
            format!(r#"{{"nodes":[{{"id":"a","config":{{"d":{}1{}}}}}]}}"#, "[".repeat(123), "]".repeat(123)),
        ];
        for text in &texts {
            assert_eq!(read_object(text), checked(text), "{text}");
        }
        let kept = read_object(&texts[0]).ok().and_then(|p| p.spec).unwrap_or_default();
        assert_eq!(kept.nodes[0].config.raw_text(), Some(r#"{"x":1,"y":{"p":[1,{"q":2}]}}"#));
    }

    /// Every JSON file of the fixtures and of the shared corpus (documents written elsewhere),
    /// with its text.
    fn fixture_and_corpus_texts() -> Vec<(std::path::PathBuf, String)> {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut files = Vec::new();
        json_files(&root.join("tests/fixtures"), &mut files);
        json_files(&root.join("../../../shared/corpus"), &mut files);
        files.into_iter().filter_map(|f| std::fs::read_to_string(&f).ok().map(|t| (f, t))).collect()
    }

    /// The document `text` reads to, when it reads with no error.
    fn read_without_errors(text: &str) -> Option<crate::GraphSpec> {
        let parsed = crate::read::parse_spec(text);
        parsed.spec.filter(|_| parsed.diagnostics.iter().all(|d| !d.is_error()))
    }

    /// Every JSON file under `dir`, recursively.
    fn json_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        for e in entries.flatten() {
            let path = e.path();
            if path.is_dir() {
                json_files(&path, out);
            } else if path.extension().is_some_and(|x| x == "json") {
                out.push(path);
            }
        }
    }

    /// Every way of breaking `base` by one insertion or one replacement of a byte with a
    /// troublesome piece (those that give UTF-8) to `each`.
    fn each_broken_text(base: &str, mut each: impl FnMut(&str)) {
        let bytes = base.as_bytes();
        let extra = [
            "",
            " ",
            "\"",
            "\\",
            ",",
            ":",
            "{",
            "}",
            "[",
            "]",
            "0",
            "01",
            "-",
            ".",
            "e",
            "1e",
            "tru",
            "\\u0001",
            "\\t",
            "null",
            "\"id\":\"a\",",
            "\"config\":{},",
            "\"when\":null,",
            "\"x\":1,",
            "\"x\":1,\"x\":2",
            "\\ud800",
            "\u{1}",
            "\n",
            "\r",
            "1.",
            "-0",
            "1E+2",
            "nul",
            "{}",
            "[]",
        ];
        for i in 0..=bytes.len() {
            for x in extra {
                for replaced in [0, 1] {
                    let mut t = bytes[..i].to_vec();
                    t.extend_from_slice(x.as_bytes());
                    t.extend_from_slice(bytes.get(i + replaced..).unwrap_or_default());
                    if let Ok(text) = std::str::from_utf8(&t) {
                        each(text);
                    }
                }
            }
        }
    }

    /// The fast path reads a text only when the serde path reads it to the same document with
    /// no finding (and then the configs keep the same text).
    fn same_as_serde_path(text: &str) -> bool {
        let Some(fast) = crate::fast_read::read(text) else { return false };
        let slow = read_object_with(text, true).map_err(|e| json::to_diagnostic(text, &e));
        let Ok(Parsed { spec: Some(slow), diagnostics, .. }) = slow else {
            panic!("fast path read a broken text: {text}")
        };
        assert!(diagnostics.is_empty(), "fast path read a text with findings: {diagnostics:?}");
        assert!(fast.identical(&slow), "different documents: {text}");
        for (a, b) in fast.nodes.iter().zip(&slow.nodes) {
            assert_eq!(a.config.raw_text(), b.config.raw_text());
            assert_eq!(a.config.may_hold_odd_numbers(), b.config.may_hold_odd_numbers());
        }
        same_from_shared_text(text, &fast);
        true
    }

    /// Read from a shared text, `text` gives the document `fast` (read from the `&str`), and
    /// each config refers to its object in the text (whitespace and all) instead of a compact
    /// copy: the same maps, the same canonical text.
    fn same_from_shared_text(text: &str, fast: &crate::GraphSpec) {
        let shared = crate::SharedText::from(text.to_owned());
        let Some((spec, ..)) = crate::fast_read::read_keyed(shared.as_str(), Some(&shared)) else {
            panic!("read from the &str but not from the shared text: {text}")
        };
        assert!(spec.identical(fast), "different documents from a shared text: {text}");
        for (a, b) in spec.nodes.iter().zip(&fast.nodes) {
            // A node without a config has none to refer to.
            assert_eq!(a.config.raw_text().is_some(), b.config.raw_text().is_some());
            if let Some(raw) = a.config.raw_text() {
                assert!(shared.offset_of(raw).is_some(), "the config {raw} is a copy");
            }
            assert_eq!(a.config.may_hold_odd_numbers(), b.config.may_hold_odd_numbers());
            assert_eq!(a.config.as_map(), b.config.as_map());
        }
        let canonical = crate::writer::to_canonical_string;
        assert_eq!(canonical(&spec), canonical(fast), "written differently from a shared text: {text}");
        assert_eq!(crate::writer::to_compact_string(&spec, 0), crate::writer::to_compact_string(fast, 0));
    }

    #[test]
    fn a_large_text_is_read_on_two_threads_as_on_one() {
        let text = crate::generate::generate_text(4000, 11);
        assert!(text.len() > 1 << 20, "the text is {} bytes", text.len());
        let edges_at = text.rfind("\n  \"edges\": ").expect("the canonical edges line") + 12;
        assert_eq!(&text[edges_at..edges_at + 1], "[");
        assert!(same_as_serde_path(&text));

        // Broken where the other thread reads: both paths give up, neither panics.
        let cut = &text[..text.len() - 4];
        assert!(crate::fast_read::read(cut).is_none());
        assert!(read_object_with(cut, true).is_err());
        let mut bad_edge = text.clone();
        bad_edge.insert_str(edges_at + 1, "{\"from\": 1},");
        assert!(crate::fast_read::read(&bad_edge).is_none());

        // A decoy: the edges first, then the nodes, the last of them with a config holding a
        // line just like the one that starts the edges. The other thread reads the decoy's
        // list; it must not be taken for the document's edges.
        let doc: serde_json::Value = serde_json::from_str(&text).expect("json");
        let decoy = "{\"id\": \"decoy\", \"type\": \"t\", \"config\": {\"k\": 1,\n  \"edges\": [{\"from\": \"q\", \"to\": \"r\"}]}}";
        let nodes = serde_json::to_string(&doc["nodes"]).expect("nodes");
        let swapped = format!(
            "{{\"edges\": {}, \"nodes\": {},{decoy}]}}",
            serde_json::to_string(&doc["edges"]).expect("edges"),
            &nodes[..nodes.len() - 1],
        );
        assert!(swapped.len() > 1 << 20);
        assert!(same_as_serde_path(&swapped), "the swapped text reads the fast way");
        let read = crate::fast_read::read(&swapped).expect("read");
        assert_eq!(read.edges.len(), doc["edges"].as_array().map_or(0, Vec::len));
        assert!(read.edges.iter().all(|e| e.from != "q"));
        assert!(read.nodes.last().is_some_and(|n| n.config.raw_text().is_some_and(|t| t.contains("edges"))));
    }

    #[test]
    fn fast_path_reads_what_the_serde_path_reads() {
        let texts = fixture_and_corpus_texts();
        let mut read_fast = 0;
        for (_, text) in &texts {
            if text.trim_start().starts_with('{') && same_as_serde_path(text) {
                read_fast += 1;
            }
        }
        assert!(read_fast > 10, "only {read_fast} of {} files read the fast way", texts.len());
        let generated = crate::generate::generate_text(300, 7);
        assert!(same_as_serde_path(&generated));
        // Every way of breaking a small document: the fast path gives up or agrees.
        let base = r#"{"name":"g","channels":{"c":{"reducer":"append"}},"nodes":[{"id":"a","type":"t","config":{"x":[1,-2.5e3,{"y":"\u00e9\n"}],"z":true,"w":null}},{"id":"b","type":null}],"edges":[{"from":"__start__","to":"a"},{"from":"a","to":"b","when":{"channel":"c","in":[1,"x",-0,1.50,true,null]}},{"from":"a","to":"b","when":{"channel":"c","gt":-0.25,"x":{"y":"\ud83d\ude00"}}}]}"#;
        assert!(same_as_serde_path(base));
        each_broken_text(base, |text| {
            same_as_serde_path(text);
        });
    }

    /// `reads_as` says "identical" only when the full reading gives that very document and no
    /// finding.
    fn reads_as_is_sound(text: &str, spec: &crate::GraphSpec) -> bool {
        let says = crate::fast_read::reads_as(text, spec);
        if says {
            let parsed = crate::read::parse_spec(text);
            assert!(parsed.diagnostics.is_empty(), "reads_as passed a text with findings: {text}");
            assert!(
                parsed.spec.is_some_and(|read| read.identical(spec)),
                "reads_as passed another document: {text}"
            );
        }
        says
    }

    #[test]
    fn reads_as_says_identical_only_when_the_full_reading_does() {
        use crate::model::Predicate;
        use serde_json::Map;
        let base = r#"{"name":"g","channels":{"c":{"reducer":"append"}},"nodes":[{"id":"a","type":"t","config":{"x":[1,-2.5e3,{"y":"\u00e9\n"}],"z":true,"w":null}},{"id":"b","type":null},{"id":"c","type":"t","config":{ "k" : [ 1 , 2 ] }}],"edges":[{"from":"__start__","to":"a"},{"from":"a","to":"b","when":{"channel":"c","in":[1,"x",-0,1.50,true,null]}},{"from":"a","to":"b","when":{"channel":"c","gt":-0.25,"x":{"y":"\ud83d\ude00"}}}]}"#;
        let spec = crate::read::parse_spec(base).spec.expect("reads");
        assert!(reads_as_is_sound(base, &spec));
        let canonical = crate::writer::to_canonical_string(&spec);
        assert!(reads_as_is_sound(&canonical, &spec));

        // Every change of the document is seen (and a config held as a value, not as text, is
        // still compared as `identical` compares it).
        type Change = (&'static str, fn(&mut crate::GraphSpec));
        let changes: Vec<Change> = vec![
            ("name", |s| s.name = Some("h".into())),
            ("no name", |s| s.name = None),
            ("channel", |s| s.channels.clear()),
            ("node id", |s| s.nodes[1].id = "z".into()),
            ("node type", |s| s.nodes[0].type_name = Some("u".into())),
            ("no type", |s| s.nodes[0].type_name = None),
            ("config", |s| s.nodes[0].config = Map::new().into()),
            ("missing config", |s| {
                s.nodes[1].config =
                    serde_json::from_value::<Map<_, _>>(serde_json::json!({"a": 1})).expect("map").into()
            }),
            ("config key order", |s| {
                let mut m = s.nodes[0].config.as_map().clone();
                m.sort_keys();
                s.nodes[0].config = m.into();
            }),
            ("node removed", |s| {
                s.nodes.pop();
            }),
            ("node added", |s| {
                s.nodes.push(crate::model::NodeSpec {
                    id: "n".into(),
                    type_name: None,
                    config: Default::default(),
                })
            }),
            ("edge end", |s| s.edges[0].to = "b".into()),
            ("no condition", |s| s.edges[1].when = None),
            ("condition", |s| s.edges[0].when = Some(Predicate::from(Map::new()))),
            ("condition value", |s| {
                let mut m = s.edges[2].when.take().expect("when").into_map();
                m.insert("gt".into(), serde_json::json!(-0.5));
                s.edges[2].when = Some(Predicate::from(m));
            }),
            ("edge removed", |s| {
                s.edges.pop();
            }),
        ];
        for (what, change) in changes {
            let mut changed = spec.clone();
            change(&mut changed);
            assert!(!changed.identical(&spec), "{what}: not a change");
            assert!(!reads_as_is_sound(&canonical, &changed), "{what}: not seen");
            assert!(!reads_as_is_sound(base, &changed), "{what}: not seen in the text as written");
        }
        let mut as_value = spec.clone();
        as_value.nodes[0].config = as_value.nodes[0].config.as_map().clone().into();
        assert_eq!(as_value.nodes[0].config.raw_text(), None);
        assert!(reads_as_is_sound(&canonical, &as_value), "a config held as a value is compared by value");

        // Every way of breaking the text: never "identical" unless the full reading agrees.
        let mut passed = 0;
        each_broken_text(base, |text| passed += usize::from(reads_as_is_sound(text, &spec)));
        // Whitespace put between tokens changes nothing; the test would pass with none.
        assert!(passed > 100, "only {passed} texts read as the document");

        // Large: compared on two threads; the decoy of `a_large_text_is_read_on_two_threads_as_on_one`
        // (a config holding the line that starts the edges) is not taken for the edges.
        let text = crate::generate::generate_text(4000, 11);
        let big = crate::read::parse_spec(&text).spec.expect("reads");
        assert!(reads_as_is_sound(&text, &big));
        let mut last = big.clone();
        let n = last.edges.len() - 1;
        last.edges[n].to = "elsewhere".into();
        assert!(!reads_as_is_sound(&text, &last), "the last edge, compared on the other thread");
        let mut first = big.clone();
        first.nodes[0].id = "elsewhere".into();
        assert!(!reads_as_is_sound(&text, &first));
        let mut fewer = big.clone();
        fewer.edges.pop();
        assert!(!reads_as_is_sound(&text, &fewer));
        let mut more = big.clone();
        more.edges.push(more.edges[0].clone());
        assert!(!reads_as_is_sound(&text, &more), "an edge the text does not hold, on the other thread");
        let edges_at = text.rfind("\n  \"edges\": ").expect("the edges line") + 12;
        let mut bad_edge = text.clone();
        bad_edge.insert_str(edges_at + 1, "{\"from\": 1},");
        assert!(!reads_as_is_sound(&bad_edge, &big));

        // The nodes from the middle one on are compared on a third thread.
        let middle = big.nodes.len() / 2;
        for i in [middle - 1, middle, middle + 1, big.nodes.len() - 1] {
            let mut changed = big.clone();
            changed.nodes[i].type_name = Some("elsewhere".into());
            assert!(!reads_as_is_sound(&text, &changed), "node {i}");
        }
        let mut fewer = big.clone();
        fewer.nodes.pop();
        assert!(!reads_as_is_sound(&text, &fewer), "the last node missing");
        let mut more = big.clone();
        more.nodes.push(more.nodes[0].clone());
        assert!(!reads_as_is_sound(&text, &more), "a node the text does not hold, on the third thread");
        // An earlier node with the middle node's id: the third thread starts at the wrong node,
        // and the answer is still the one of a single pass.
        let mut twins = big.clone();
        twins.nodes[3].id = twins.nodes[middle].id.clone();
        let twins_text = crate::writer::to_canonical_string(&twins);
        assert!(reads_as_is_sound(&twins_text, &twins), "identical, twins and all");
        let mut changed = twins.clone();
        changed.nodes[middle + 5].type_name = None;
        assert!(!reads_as_is_sound(&twins_text, &changed));
    }

    /// `reads_canonical` says "canonical" only when the full reading finds nothing in the text
    /// and the writer finds it canonical (`writer::is_canonical`, what `fmt` asked before).
    /// Both ways of splitting a large text between threads give the same answer.
    fn reads_canonical_is_sound(text: &str) -> bool {
        use crate::fast_read::{is_canonical_split, Split};
        let (two, three) = (is_canonical_split(text, Split::Two), is_canonical_split(text, Split::Three));
        assert_eq!(two, three, "split in two threads, in three: {text}");
        let says = crate::read::reads_canonical(text);
        assert_eq!(says, two);
        if says {
            let parsed = crate::read::parse_spec(text);
            assert!(parsed.diagnostics.is_empty(), "reads_canonical passed a text with findings: {text}");
            let spec = parsed.spec.expect("a document");
            assert!(
                crate::writer::is_canonical(&spec, text),
                "reads_canonical passed a text the writer would change: {text}"
            );
        }
        says
    }

    #[test]
    fn reads_canonical_says_canonical_only_when_the_writer_does() {
        let base = r#"{"name":"g","channels":{"c":{"reducer":"append"}},"nodes":[{"id":"a","type":"t","config":{"x":[1,-2.5e3,{"y":"\u00e9\n"}],"z":true,"w":null,"e":{},"l":[]}},{"id":"b","type":null},{"id":"c","type":"t","config":{ "k" : [ 1 , 2 ] }}],"edges":[{"from":"__start__","to":"a"},{"from":"a","to":"b","when":{"channel":"c","in":[1,"x",-0,1.50,true,null]}},{"from":"a","to":"b","when":{"channel":"c","gt":-0.25,"x":{"y":"\ud83d\ude00"}}}]}"#;
        assert!(!reads_canonical_is_sound(base), "compact text is not canonical");
        let spec = crate::read::parse_spec(base).spec.expect("reads");
        let canonical = crate::writer::to_canonical_string(&spec);
        assert!(reads_canonical_is_sound(&canonical));
        // Nothing and no name, channel, node or edge: each part of the frame written.
        for text in [
            "{\n  \"name\": null,\n  \"channels\": {},\n  \"nodes\": [],\n  \"edges\": []\n}\n",
            &crate::writer::to_canonical_string(&crate::GraphSpec {
                nodes: spec.nodes.clone(),
                ..Default::default()
            }),
        ] {
            assert!(reads_canonical_is_sound(text), "{text}");
            assert!(!reads_canonical_is_sound(text.trim_end()), "no final newline: {text}");
        }

        // Every way of breaking the canonical text: never "canonical" unless the writer agrees.
        // A changed letter in an id or a string is still canonical, so some pass.
        let (mut passed, mut tried) = (0, 0);
        each_broken_text(&canonical, |text| {
            tried += 1;
            passed += usize::from(reads_canonical_is_sound(text));
        });
        assert!(passed > 50 && passed < tried / 4, "{passed} of {tried} broken texts passed");

        // Large: checked on two threads; a change anywhere is found, on either thread.
        let text = crate::generate::generate_text(4000, 11);
        assert!(text.len() > 1 << 20);
        assert!(reads_canonical_is_sound(&text));
        let edges_at = text.rfind("\n  \"edges\": ").expect("the edges line") + 12;
        let last_to = text.rfind("\"to\": \"").expect("an edge");
        for (what, at, insert) in [
            ("the first node", text.find("\"id\": \"").expect("a node") + 6, " "),
            ("a space in a node", text.find("\"type\":").expect("a type") + 7, " "),
            ("the end of the nodes", edges_at - 14, " "),
            ("the first edge", edges_at + 1, " "),
            ("the last edge", last_to + 6, " "),
            ("the end", text.len() - 1, " "),
        ] {
            let mut changed = text.clone();
            changed.insert_str(at, insert);
            assert!(!reads_canonical_is_sound(&changed), "{what}");
        }
        let mut bad_edge = text.clone();
        bad_edge.insert_str(edges_at + 1, "{\"from\": 1},");
        assert!(!reads_canonical_is_sound(&bad_edge));
        // The nodes from one in the middle are checked on another thread (from 30 % of the
        // text on when split in three, 45 % when in two): a change just before it, at it and
        // just after it is found.
        let node_start = ",\n    {\n      \"id\": ";
        for hundredths in [crate::fast_read::THREE_WAY_MIDDLE, crate::fast_read::TWO_WAY_MIDDLE] {
            let from = text.len() / 100 * hundredths;
            let middle = from + text[from..].find(node_start).expect("a middle node");
            assert!(middle < edges_at);
            nodes_split_at(&text, middle, node_start);
        }
        // A line like the one that starts the edges, in a config before them (never in
        // canonical text, where a config is indented deeper): the other thread checks from the
        // wrong place, its answer is not taken, and the text is not called canonical.
        let mut decoy = crate::read::parse_spec(&text).spec.expect("reads");
        decoy.nodes[5].config =
            serde_json::from_str::<serde_json::Map<String, serde_json::Value>>(r#"{"note": "x", "k": 1}"#)
                .expect("a map")
                .into();
        let decoy_text = crate::writer::to_canonical_string(&decoy);
        assert!(reads_canonical_is_sound(&decoy_text));
        let with_line = decoy_text.replacen("\"note\": \"x\",", "\"note\": \"x\",\n  \"edges\": [],", 1);
        assert!(!reads_canonical_is_sound(&with_line), "a key added to a config");
    }

    /// A large canonical text changed around the node at `middle` (the comma before it):
    /// never called canonical when it is not, on whichever thread the change falls.
    fn nodes_split_at(text: &str, middle: usize, node_start: &str) {
        for (what, at, insert) in [
            ("the node before, closed", middle - 1, " "),
            ("before the comma", middle, " "),
            ("between the nodes", middle + 1, " "),
            ("the middle node's id", middle + node_start.len(), " "),
            ("the node after it", middle + node_start.len() + 200, "\n"),
        ] {
            let mut changed = text.to_owned();
            changed.insert_str(at, insert);
            assert!(!reads_canonical_is_sound(&changed), "{what}");
        }
        let mut joined_nodes = text.to_owned();
        joined_nodes.replace_range(middle..middle + 6, ", ");
        assert!(!reads_canonical_is_sound(&joined_nodes), "two nodes on one line");
        // A node taken out or repeated at the middle: another document, still canonical.
        let next = middle + 1 + text[middle + 1..].find(node_start).expect("the next node");
        let mut fewer = text.to_owned();
        fewer.replace_range(middle..next, "");
        assert!(reads_canonical_is_sound(&fewer), "a node fewer");
        let mut more = text.to_owned();
        more.insert_str(middle, &text[middle..next]);
        assert!(reads_canonical_is_sound(&more), "a node more");
    }

    #[test]
    fn every_canonical_text_of_the_corpus_reads_canonical() {
        let texts = fixture_and_corpus_texts();
        let mut canonical_files = 0;
        for (f, text) in &texts {
            // The file as it is: "canonical" only when the writer agrees.
            reads_canonical_is_sound(text);
            let Some(spec) = read_without_errors(text) else { continue };
            // Its canonical text: "canonical" whenever the quick reader reads it.
            let canonical = crate::writer::to_canonical_string(&spec);
            if crate::fast_read::read(&canonical).is_some() {
                assert!(reads_canonical_is_sound(&canonical), "{}", f.display());
                canonical_files += 1;
            } else {
                assert!(!reads_canonical_is_sound(&canonical), "{}", f.display());
            }
        }
        assert!(canonical_files > 10, "only {canonical_files} of {} files checked", texts.len());
    }

    #[test]
    fn every_document_of_the_corpus_reads_as_itself_from_its_canonical_text() {
        let texts = fixture_and_corpus_texts();
        let mut compared = 0;
        for (f, text) in &texts {
            let Some(spec) = read_without_errors(text) else { continue };
            let canonical = crate::writer::to_canonical_string(&spec);
            let read_back = crate::read::parse_spec(&canonical);
            if read_back.diagnostics.is_empty() && read_back.spec.is_some_and(|b| b.identical(&spec)) {
                assert!(reads_as_is_sound(&canonical, &spec), "{}", f.display());
                compared += 1;
            } else {
                assert!(!reads_as_is_sound(&canonical, &spec), "{}", f.display());
            }
        }
        assert!(compared > 10, "only {compared} of {} files compared", texts.len());
    }
}
