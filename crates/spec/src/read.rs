//! Reading a GraphSpec document from text (or bytes) into the tolerant model: the one reader,
//! used by the command line, the app, diff and merge, and format detection alike.
//!
//! serde_json streams the document's parts out of the text (its members, then each node and
//! each edge) and the reader's rules ([`crate::reader`]) turn them into the model, so no
//! `Value` tree of the whole document is built. A node's config is not built either: it is kept
//! as its text ([`Config`]), borrowed from the text by serde_json (`RawValue`) and checked as
//! the checked parse would check it ([`json::check`]: repeated keys, escapes, nesting).
//!
//! Three kinds of findings, all collected (never only the first):
//! * JSON problems (syntax, duplicate keys, nesting, UTF-8): no document, and the first problem
//!   as [`json::parse`] words it, with its place. The streaming pass stops at the same problems,
//!   but it steps over a config's text with serde_json's fast path, which words a few of them
//!   differently, so the diagnostic is taken from the checked parse of the whole text (a broken
//!   document is read twice; a sound one once).
//! * Structural junk and unknown fields ([`crate::reader`]).
//!
//! `tests/reader_oracle.rs` and the `reader_oracle` fuzz target hold this reader to the plain
//! serde path ([`spec_from_value`] of the checked parse) on any text.

use std::fmt;

use serde::de::{self, Deserialize, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
use serde_json::Value;

use crate::diagnostic::Diagnostic;
use crate::json::{self, each_member, Checked, CheckedVisitor, Key};
use crate::model::{Config, EdgeSpec, GraphSpec, NodeSpec};
use crate::reader::Reader;
use crate::shared_text::SharedText;

pub use crate::reader::{codes, kind_of};

/// What reading produced: the document (when it could be held) and every finding.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Parsed {
    pub spec: Option<GraphSpec>,
    pub diagnostics: Vec<Diagnostic>,
}

/// Reads a document from text. Diagnostics carry spans.
pub fn parse_spec(text: &str) -> Parsed {
    read(text, None)
}

/// [`parse_spec`] of a shared text: the document's configs refer to `text` instead of each
/// keeping a copy of its own (see [`crate::shared_text`]).
pub fn parse_spec_shared(text: &SharedText) -> Parsed {
    read(text.as_str(), Some(text))
}

/// Reads a document from bytes, which may not be UTF-8.
pub fn parse_spec_bytes(bytes: &[u8]) -> Parsed {
    match json::decode_utf8(bytes) {
        Ok(text) => parse_spec(text),
        Err(d) => Parsed { spec: None, diagnostics: vec![d] },
    }
}

/// Reads a document from an already parsed JSON value (no spans).
pub fn spec_from_value(value: Value) -> Parsed {
    let mut r = Reader::new();
    let spec = r.document(value);
    let (spec, diagnostics) = r.finish(spec);
    Parsed { spec, diagnostics }
}

/// [`parse_spec`], the configs referring to `shared` when given (`text` is its text).
fn read(text: &str, shared: Option<&SharedText>) -> Parsed {
    let (spec, mut diagnostics) = match stream(text, shared) {
        Ok(read) => read,
        Err(_) => match json::parse(text) {
            Err(d) => return Parsed { spec: None, diagnostics: vec![d] },
            // The streaming pass refuses only what the checked parse refuses (a test holds it
            // to that); were it ever stricter, the tree reader's answer is the same document.
            Ok(value) => {
                let parsed = spec_from_value(value);
                (parsed.spec, parsed.diagnostics)
            }
        },
    };
    json::fill_spans(text, &mut diagnostics);
    Parsed { spec, diagnostics }
}

/// The document and the reader's findings, streamed out of `text` (see the module); the error
/// is where serde_json stopped.
fn stream(
    text: &str,
    shared: Option<&SharedText>,
) -> Result<(Option<GraphSpec>, Vec<Diagnostic>), serde_json::Error> {
    let mut de = serde_json::Deserializer::from_str(text);
    let mut reader = Reader::new();
    let spec = Streamed(Document { reader: &mut reader, shared }).deserialize(&mut de)?;
    de.end()?;
    Ok(reader.finish(spec))
}

/// How many levels of nesting are above a node's config: the document, `nodes` and the node.
const CONFIG_LEVELS: usize = 3;

/// One part of a document as it streams by: an object or an array read by the part itself, or
/// any other value (or an object where an array belongs, ...) built by the checking visitor and
/// handed to [`Part::other`], whose rule words why it does not belong.
trait Part<'de>: Sized {
    type Out;

    /// The part's value when it is not the kind the part streams.
    fn other(self, value: Value) -> Self::Out;

    /// An object (or, with `arbitrary_precision`, a number handed over as one).
    fn object<A: MapAccess<'de>>(self, map: A) -> Result<Self::Out, A::Error> {
        CheckedVisitor.visit_map(map).map(|v| self.other(v))
    }

    fn array<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Out, A::Error> {
        CheckedVisitor.visit_seq(seq).map(|v| self.other(v))
    }
}

/// The serde visitor (and seed) of a [`Part`]: every value goes through `deserialize_any`, so
/// serde_json checks it exactly as the checked parse does.
struct Streamed<P>(P);

impl<'de, P: Part<'de>> DeserializeSeed<'de> for Streamed<P> {
    type Value = P::Out;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<P::Out, D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de, P: Part<'de>> Visitor<'de> for Streamed<P> {
    type Value = P::Out;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<P::Out, A::Error> {
        self.0.object(map)
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<P::Out, A::Error> {
        self.0.array(seq)
    }
    fn visit_bool<E>(self, v: bool) -> Result<P::Out, E> {
        Ok(self.0.other(Value::Bool(v)))
    }
    fn visit_i64<E>(self, v: i64) -> Result<P::Out, E> {
        Ok(self.0.other(Value::Number(v.into())))
    }
    fn visit_u64<E>(self, v: u64) -> Result<P::Out, E> {
        Ok(self.0.other(Value::Number(v.into())))
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<P::Out, E> {
        CheckedVisitor.visit_f64(v).map(|v| self.0.other(v))
    }
    fn visit_str<E>(self, v: &str) -> Result<P::Out, E> {
        Ok(self.0.other(Value::String(v.to_owned())))
    }
    fn visit_string<E>(self, v: String) -> Result<P::Out, E> {
        Ok(self.0.other(Value::String(v)))
    }
    fn visit_unit<E>(self) -> Result<P::Out, E> {
        Ok(self.0.other(Value::Null))
    }
}

/// The document object.
struct Document<'r> {
    reader: &'r mut Reader,
    shared: Option<&'r SharedText>,
}

impl<'de> Part<'de> for Document<'_> {
    type Out = Option<GraphSpec>;

    fn other(self, value: Value) -> Option<GraphSpec> {
        self.reader.document(value)
    }

    fn object<A: MapAccess<'de>>(self, map: A) -> Result<Option<GraphSpec>, A::Error> {
        let Document { reader, shared } = self;
        let mut spec = GraphSpec::default();
        let number = each_member(map, |key, map| match key.as_ref() {
            "nodes" => map.next_value_seed(Streamed(List {
                reader: &mut *reader,
                spec: &mut spec,
                shared,
                nodes: true,
            })),
            "edges" => map.next_value_seed(Streamed(List {
                reader: &mut *reader,
                spec: &mut spec,
                shared,
                nodes: false,
            })),
            _ => {
                let Checked(v) = map.next_value()?;
                reader.top_level_field(key.as_ref(), v, &mut spec);
                Ok(())
            }
        })?;
        Ok(match number {
            Some(n) => reader.document(Value::Number(n)),
            None => Some(spec),
        })
    }
}

/// The document's `nodes` or `edges`.
struct List<'r, 's> {
    reader: &'r mut Reader,
    spec: &'s mut GraphSpec,
    shared: Option<&'r SharedText>,
    /// `nodes` (or `edges`).
    nodes: bool,
}

impl<'de> Part<'de> for List<'_, '_> {
    type Out = ();

    fn other(self, value: Value) {
        match self.nodes {
            true => self.reader.nodes(value, self.spec),
            false => self.reader.edges(value, self.spec),
        }
    }

    fn array<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let List { reader, spec, shared, nodes } = self;
        let mut index = 0;
        loop {
            let element = Element { reader: &mut *reader, index, shared, node: nodes };
            match seq.next_element_seed(Streamed(element))? {
                None => return Ok(()),
                Some(Read::Node(Some(node))) => spec.nodes.push(node),
                Some(Read::Edge(Some(edge))) => spec.edges.push(edge),
                Some(_) => {}
            }
            index += 1;
        }
    }
}

/// A node or an edge as read (`None` when it could not be held).
enum Read {
    Node(Option<NodeSpec>),
    Edge(Option<EdgeSpec>),
}

/// Element `index` of `nodes` (`node`) or `edges`.
struct Element<'r> {
    reader: &'r mut Reader,
    index: usize,
    shared: Option<&'r SharedText>,
    node: bool,
}

impl<'de> Part<'de> for Element<'_> {
    type Out = Read;

    fn other(self, value: Value) -> Read {
        match self.node {
            true => Read::Node(self.reader.node(self.index, value)),
            false => Read::Edge(self.reader.edge(self.index, value)),
        }
    }

    fn object<A: MapAccess<'de>>(self, map: A) -> Result<Read, A::Error> {
        let mut fields: Vec<(Key<'de>, Value)> = Vec::with_capacity(3);
        let mut kept = None;
        let shared = self.shared;
        let node = self.node;
        let number = each_member(map, |key, map| {
            if node && key.as_ref() == "config" {
                match map.next_value_seed(ConfigText { shared })? {
                    Ok(config) => kept = Some(config),
                    Err(value) => fields.push((key.clone(), value)),
                }
            } else {
                let Checked(v) = map.next_value()?;
                fields.push((key.clone(), v));
            }
            Ok(())
        })?;
        if let Some(n) = number {
            return Ok(self.other(Value::Number(n)));
        }
        Ok(match node {
            true => Read::Node(self.reader.node_fields(self.index, fields, kept)),
            false => Read::Edge(self.reader.edge_fields(self.index, fields)),
        })
    }
}

/// A node's config: an object kept as its text, or any other value built, for the reader's
/// rule to word (`null`, or not an object).
struct ConfigText<'r> {
    shared: Option<&'r SharedText>,
}

impl<'de> DeserializeSeed<'de> for ConfigText<'_> {
    type Value = Result<Config, Value>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        let raw = <&'de RawValue>::deserialize(d)?.get();
        let refused = || <D::Error as de::Error>::custom("the config is not what the checked parse reads");
        let facts = json::check(raw, CONFIG_LEVELS).ok_or_else(refused)?;
        if raw.starts_with('{') {
            return Ok(Ok(Config::read(raw, facts.odd_numbers, self.shared)));
        }
        json::parse(raw).map(Err).map_err(|_| refused())
    }
}

#[cfg(test)]
mod tests;
