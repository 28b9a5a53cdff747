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

use serde::de::{self, Deserialize, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

use crate::json::{self, Checked, CheckedVisitor};
use crate::model::{EdgeSpec, GraphSpec};
use crate::read::{Parsed, Reader};

/// Reads a document whose text starts with `{` (after whitespace). Diagnostics carry no spans
/// yet. `Err` is the JSON problem (syntax, duplicate key, nesting) that stopped the parse.
pub fn read_object(text: &str) -> Result<Parsed, crate::Diagnostic> {
    let mut de = serde_json::Deserializer::from_str(text);
    let mut reader = Reader::new();
    let spec = DocumentSeed { r: &mut reader, edges_hint: edges_hint(text) }
        .deserialize(&mut de)
        .map_err(|e| json::to_diagnostic(text, &e))?;
    de.end().map_err(|e| json::to_diagnostic(text, &e))?;
    Ok(reader.finish(spec))
}

struct DocumentSeed<'r> {
    r: &'r mut Reader,
    /// About how many edges the document has (see [`edges_hint`]).
    edges_hint: usize,
}

/// How many edges a document has, about: each edge object has one `"from"` key. The edge list
/// is the largest list of the model and is filled last, when everything else is in memory:
/// grown by doubling, it would hold up to twice its size, and shrinking it to its length at
/// the end would briefly hold both copies (that moment was the peak of reading a large
/// document). A `"from"` inside a config or a string only makes the first allocation a little
/// larger than needed (the list is shrunk to its length then), and an escaped key makes the list
/// grow as before: the hint changes memory, never the result. A text of nothing but `"from"`
/// strings cannot make it reserve more than twice the text's size.
fn edges_hint(text: &str) -> usize {
    let most = 2 * text.len() / std::mem::size_of::<EdgeSpec>().max(1);
    memchr::memmem::find_iter(text.as_bytes(), b"\"from\"").take(most).count()
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
        let (r, edges_hint) = (self.r, self.edges_hint);
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
                    hint: 0,
                })?,
                "edges" => map.next_value_seed(ListSeed {
                    r: &mut *r,
                    spec: &mut spec,
                    field: List::Edges,
                    hint: edges_hint,
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
        while let Some(element) = seq.next_element::<Element>()? {
            match (self.field, element) {
                (List::Nodes, Element::Object(fields)) => {
                    if let Some(n) = self.r.node_fields(i, fields) {
                        self.spec.nodes.push(n);
                    }
                }
                (List::Nodes, Element::Other) => self.r.not_a_node(i),
                (List::Edges, Element::Object(fields)) => {
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
enum Element {
    Object(Vec<(String, Value)>),
    Other,
}

impl<'de> Deserialize<'de> for Element {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_any(ElementVisitor)
    }
}

struct ElementVisitor;

impl<'de> Visitor<'de> for ElementVisitor {
    type Value = Element;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Element, A::Error> {
        Ok(match json::members(map)? {
            json::Members::Entries(entries) => Element::Object(entries),
            json::Members::Number(_) => Element::Other,
        })
    }
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Element, A::Error> {
        CheckedVisitor.visit_seq(seq).map(|_| Element::Other)
    }
    fn visit_bool<E>(self, _: bool) -> Result<Element, E> {
        Ok(Element::Other)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Element, E> {
        Ok(Element::Other)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Element, E> {
        Ok(Element::Other)
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Element, E> {
        CheckedVisitor.visit_f64(v).map(|_| Element::Other)
    }
    fn visit_str<E>(self, _: &str) -> Result<Element, E> {
        Ok(Element::Other)
    }
    fn visit_unit<E>(self) -> Result<Element, E> {
        Ok(Element::Other)
    }
    fn visit_none<E>(self) -> Result<Element, E> {
        Ok(Element::Other)
    }
}
