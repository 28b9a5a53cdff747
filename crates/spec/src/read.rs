//! Reading a GraphSpec document from text (or bytes) into the tolerant model.
//!
//! Three kinds of findings, all collected (never only the first):
//! * JSON problems (syntax, duplicate keys, nesting, UTF-8) from [`crate::json`]: no document.
//! * Structural junk the model cannot hold (a node that is not an object, an id that is not a
//!   string, `edges` that is not an array, ...): errors with pointers, and no document, since
//!   opening it would mean dropping or inventing something.
//! * Unknown fields (top level, channel, node, edge): a warning each, naming the field, because
//!   `to_spec` drops them and a save must never remove something silently. Predicate keys are
//!   not fields: a predicate is kept verbatim, unknown keys included.
//!
//! Missing collections read as empty, a missing `name` as `null`, a missing `reducer` as
//! `last_write`, a missing `config` as `{}` (formats.md §1.1). Whatever the model can hold but
//! does not compile (a node with no type, an unknown reducer name, a dangling edge) is left to
//! [`crate::validate`].

use serde_json::Value;

use crate::checks::{self, codes as check};
use crate::diagnostic::{pointer, Diagnostic};
use crate::json;
use crate::model::{ChannelSpec, Config, EdgeSpec, GraphSpec, Id, NodeSpec, Predicate, ReducerName};
use crate::predicate::js_json;
use crate::shared_text::SharedText;
use crate::span_locator::ElementPlaces;

/// Codes of the reading step (besides the `json/...` codes and the §1.5 codes it shares).
pub mod codes {
    /// A field the format does not define; `to_spec` drops it, so saving would lose it.
    pub const UNKNOWN_FIELD: &str = "spec/unknown-field";
    /// A field with a value of the wrong kind (`"nodes": {}`, `"config": 5`, ...).
    pub const INVALID_FIELD: &str = "spec/invalid-field";
    /// A field whose value means nothing and is not written back (`"when": null`).
    pub const DROPPED_FIELD: &str = "spec/dropped-field";
}

/// What reading produced: the document (when it could be held) and every finding.
#[derive(Debug, Clone, Default)]
pub struct Parsed {
    pub spec: Option<GraphSpec>,
    pub diagnostics: Vec<Diagnostic>,
    /// Where the nodes and edges are in the text, when the reader recorded it (the fast path
    /// does): placing findings then scans only the elements they point into
    /// ([`crate::json::fill_spans_placed`]).
    pub places: Option<ElementPlaces>,
}

/// Two readings are equal when they read the same document with the same findings; where the
/// parts were found is how one path read, not what it read (only the fast path records it).
impl PartialEq for Parsed {
    fn eq(&self, other: &Self) -> bool {
        self.spec == other.spec && self.diagnostics == other.diagnostics
    }
}

/// Reads a document from text. Diagnostics carry spans.
///
/// An object (every GraphSpec) is read node by node ([`crate::read_stream`]) without a
/// `Value` tree of the whole document; anything else goes through [`spec_from_value`], which
/// words why it is not a GraphSpec. Both give the same findings.
pub fn parse_spec(text: &str) -> Parsed {
    let read = if text.trim_start_matches([' ', '\t', '\n', '\r']).starts_with('{') {
        crate::read_stream::read_object(text)
    } else {
        json::parse(text).map(spec_from_value)
    };
    let mut parsed = match read {
        Ok(parsed) => parsed,
        Err(d) => return Parsed { spec: None, diagnostics: vec![d], places: None },
    };
    json::fill_spans(text, &mut parsed.diagnostics);
    parsed
}

/// The document, when `text` is a GraphSpec as every tool writes it: a JSON object with at
/// least one of `name`, `channels`, `nodes`, `edges` and nothing else, whose every node and
/// edge reads with no finding. Then [`parse_spec`] gives the same, and format detection would
/// say GraphSpec (a JSON object whose keys are GraphSpec's), so a caller that detects the
/// format from the text may take this answer first, without a pass of its own over the text.
/// `None` says nothing: the text may still be a GraphSpec, with findings.
pub fn parse_plain_spec(text: &str) -> Option<Parsed> {
    plain_spec(text, None)
}

/// [`parse_plain_spec`] of a shared text: the document's configs refer to `text` instead of
/// each keeping a copy of its own (see [`crate::shared_text`]). Their
/// [`Config::raw_text`](crate::Config::raw_text) is then the object as the document has it,
/// whitespace included.
pub fn parse_plain_spec_in(text: &SharedText) -> Option<Parsed> {
    plain_spec(text.as_str(), Some(text))
}

/// [`parse_plain_spec`], the configs referring to `shared` when given (`text` is its text).
fn plain_spec(text: &str, shared: Option<&SharedText>) -> Option<Parsed> {
    let (spec, keyed, places) = crate::fast_read::read_keyed(text, shared)?;
    keyed.then(|| Parsed { spec: Some(spec), diagnostics: Vec::new(), places: Some(places) })
}

/// True when `text` reads with no finding and is already its own canonical text (what
/// [`crate::writer::is_canonical`] answers of the document it reads), decided as the text is
/// read, without building the document; false says nothing (read it, then ask
/// `writer::is_canonical`). `trellis fmt` asks this first of every file.
pub fn reads_canonical(text: &str) -> bool {
    crate::fast_read::is_canonical(text)
}

/// True when reading `text` gives a document identical to `spec` ([`GraphSpec::identical`])
/// with no finding, decided as the text is read and without building the document; false says
/// nothing (read it with [`parse_spec`] to know). A save checks the text it wrote this way.
pub fn reads_as(text: &str, spec: &GraphSpec) -> bool {
    crate::fast_read::reads_as(text, spec)
}

/// Reads a document from bytes, which may not be UTF-8.
pub fn parse_spec_bytes(bytes: &[u8]) -> Parsed {
    match json::decode_utf8(bytes) {
        Ok(text) => parse_spec(text),
        Err(d) => Parsed { spec: None, diagnostics: vec![d], places: None },
    }
}

/// Reads a document from an already parsed JSON value (no spans).
pub fn spec_from_value(value: Value) -> Parsed {
    let mut r = Reader::new();
    let spec = r.document(value);
    r.finish(spec)
}

/// How a JSON value is named in a message: `null`, `an array`, `a string`, ...
pub fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// JavaScript's `${value}` for an edge end: strings bare, anything else as JSON.
fn js_text(v: Option<&Value>) -> String {
    match v {
        None => "undefined".into(),
        Some(Value::String(s)) => s.clone(),
        Some(other) => js_json(other),
    }
}

/// Turns JSON values into the model, collecting every finding; shared by the tree path
/// ([`spec_from_value`]) and the streaming one ([`crate::read_stream`]).
pub(crate) struct Reader {
    diagnostics: Vec<Diagnostic>,
    /// Set when something was found that the model cannot hold.
    broken: bool,
}

impl Reader {
    pub(crate) fn new() -> Self {
        Reader { diagnostics: Vec::new(), broken: false }
    }

    /// The result: no document when something could not be held.
    pub(crate) fn finish(self, spec: Option<GraphSpec>) -> Parsed {
        let spec = if self.broken { None } else { spec };
        Parsed { spec, diagnostics: self.diagnostics, places: None }
    }

    fn error(&mut self, d: Diagnostic) {
        self.broken = true;
        self.diagnostics.push(d);
    }

    fn unknown(&mut self, at: String, key: &str, whose: &str) {
        self.diagnostics.push(
            Diagnostic::warning(
                codes::UNKNOWN_FIELD,
                format!("unknown field \"{key}\"{whose} is dropped when the graph is saved"),
            )
            .at(at),
        );
    }

    pub(crate) fn document(&mut self, value: Value) -> Option<GraphSpec> {
        let Value::Object(root) = value else {
            self.error(Diagnostic::error(
                check::NOT_AN_OBJECT,
                format!("a graph spec must be an object, got {}", kind_of(&value)),
            ));
            return None;
        };
        let mut spec = GraphSpec::default();
        for (key, v) in root {
            self.top_level_field(&key, v, &mut spec);
        }
        Some(spec)
    }

    /// One member of the document object.
    pub(crate) fn top_level_field(&mut self, key: &str, v: Value, spec: &mut GraphSpec) {
        match key {
            "name" => match v {
                Value::Null => {}
                Value::String(s) => spec.name = Some(s),
                other => self.error(
                    Diagnostic::error(
                        codes::INVALID_FIELD,
                        format!("\"name\" must be a string or null, got {}", kind_of(&other)),
                    )
                    .at("/name"),
                ),
            },
            "channels" => self.channels(v, spec),
            "nodes" => self.nodes(v, spec),
            "edges" => self.edges(v, spec),
            _ => self.unknown(pointer([key]), key, ""),
        }
    }

    fn channels(&mut self, v: Value, spec: &mut GraphSpec) {
        let map = match v {
            Value::Null => return,
            Value::Object(m) => m,
            other => {
                return self.error(
                    Diagnostic::error(
                        codes::INVALID_FIELD,
                        format!("\"channels\" must be an object, got {}", kind_of(&other)),
                    )
                    .at("/channels"),
                )
            }
        };
        spec.channels.reserve(map.len());
        for (name, decl) in map {
            let Value::Object(decl) = decl else {
                let got = match &decl {
                    Value::Null => "null".to_owned(),
                    other => js_json(other),
                };
                self.error(
                    Diagnostic::error(
                        check::CHANNEL_NOT_OBJECT,
                        format!("channel \"{name}\": config must be an object, got {got}"),
                    )
                    .at(pointer(["channels", &name]))
                    .on_channel(&name),
                );
                continue;
            };
            let mut reducer = ReducerName::LastWrite;
            for (key, v) in decl {
                match (key.as_str(), v) {
                    ("reducer", Value::Null) => {}
                    ("reducer", Value::String(s)) => reducer = ReducerName::parse(&s),
                    ("reducer", other) => self.error(checks::unknown_reducer(&name, &js_json(&other))),
                    _ => {
                        let whose = format!(" in channel \"{name}\"");
                        self.unknown(pointer(["channels", &name, &key]), &key, &whose);
                    }
                }
            }
            spec.channels.insert(name, ChannelSpec { reducer });
        }
    }

    /// A top-level collection: `null` (or missing) reads as empty, anything but an array is an
    /// error.
    fn array(&mut self, v: Value, field: &str) -> Option<Vec<Value>> {
        match v {
            Value::Null => None,
            Value::Array(a) => Some(a),
            other => {
                self.error(
                    Diagnostic::error(
                        codes::INVALID_FIELD,
                        format!("\"{field}\" must be an array, got {}", kind_of(&other)),
                    )
                    .at(format!("/{field}")),
                );
                None
            }
        }
    }

    pub(crate) fn nodes(&mut self, v: Value, spec: &mut GraphSpec) {
        let Some(list) = self.array(v, "nodes") else { return };
        spec.nodes.reserve(list.len());
        for (i, n) in list.into_iter().enumerate() {
            if let Some(node) = self.node(i, n) {
                spec.nodes.push(node);
            }
        }
    }

    pub(crate) fn node(&mut self, i: usize, n: Value) -> Option<NodeSpec> {
        let Value::Object(fields) = n else {
            self.not_a_node(i);
            return None;
        };
        self.node_fields(i, fields, None)
    }

    /// Node `i` is not an object.
    pub(crate) fn not_a_node(&mut self, i: usize) {
        let at = pointer(["nodes", &i.to_string()]);
        self.error(Diagnostic::error(check::NODE_NOT_OBJECT, "spec node must be an object").at(at));
    }

    /// Node `i` from its members in document order (a map, or the entries the streaming reader
    /// read without building one). `raw_config` is the config when the streaming reader kept it
    /// as its text (an object; then `fields` has no `config`).
    pub(crate) fn node_fields<K: AsRef<str>>(
        &mut self,
        i: usize,
        fields: impl IntoIterator<Item = (K, Value)>,
        raw_config: Option<Config>,
    ) -> Option<NodeSpec> {
        let mut id: Option<String> = None;
        let mut bad_id: Option<String> = Some("null".into());
        let mut type_name = None;
        let mut config = raw_config.unwrap_or_default();
        let mut unknown = Vec::new();
        // Problems whose message names the node, which may come after them in the object.
        let mut bad_type: Option<&'static str> = None;
        let mut bad_config: Option<&'static str> = None;
        let mut null_config = false;
        for (key, v) in fields {
            match key.as_ref() {
                "id" => match v {
                    Value::String(s) => {
                        id = Some(s);
                        bad_id = None;
                    }
                    other => bad_id = Some(js_json(&other)),
                },
                "type" => match v {
                    Value::Null => {}
                    Value::String(s) => type_name = Some(s),
                    other => bad_type = Some(kind_of(&other)),
                },
                "config" => match v {
                    Value::Null => null_config = true,
                    Value::Object(m) => config = m.into(),
                    other => bad_config = Some(kind_of(&other)),
                },
                _ => unknown.push(key),
            }
        }
        let index = i.to_string();
        let (whose, named) = match &id {
            Some(id) => (format!(" in node \"{id}\""), format!("node \"{id}\"")),
            None => (String::new(), format!("the node at index {i}")),
        };
        let on_node = |d: Diagnostic| match &id {
            Some(id) => d.on_node(id),
            None => d,
        };
        if let Some(got) = bad_type {
            self.error(on_node(
                Diagnostic::error(
                    codes::INVALID_FIELD,
                    format!("{named} has a \"type\" that is not a string (got {got}): a type is a name from the registry"),
                )
                .at(pointer(["nodes", &index, "type"])),
            ));
        }
        if let Some(got) = bad_config {
            self.error(on_node(
                Diagnostic::error(
                    codes::INVALID_FIELD,
                    format!("{named} has a \"config\" that is not an object (got {got})"),
                )
                .at(pointer(["nodes", &index, "config"])),
            ));
        }
        if null_config && bad_id.is_none() {
            self.diagnostics.push(on_node(
                Diagnostic::warning(
                    codes::DROPPED_FIELD,
                    format!("\"config\": null{whose} is written as {{}} (an empty config) when the graph is saved"),
                )
                .at(pointer(["nodes", &index, "config"])),
            ));
        }
        for key in unknown {
            self.unknown(pointer(["nodes", &index, key.as_ref()]), key.as_ref(), &whose);
        }
        if let Some(got) = bad_id {
            self.error(
                Diagnostic::error(
                    check::INVALID_NODE_ID,
                    format!("node name must be a non-empty string, got {got}"),
                )
                .at(pointer(["nodes", &index, "id"])),
            );
            return None;
        }
        let ok = bad_type.is_none() && bad_config.is_none();
        let id = id?;
        ok.then_some(NodeSpec { id: id.into(), type_name: type_name.map(Id::from), config })
    }

    pub(crate) fn edges(&mut self, v: Value, spec: &mut GraphSpec) {
        let Some(list) = self.array(v, "edges") else { return };
        spec.edges.reserve(list.len());
        for (i, e) in list.into_iter().enumerate() {
            if let Some(edge) = self.edge(i, e) {
                spec.edges.push(edge);
            }
        }
    }

    pub(crate) fn edge(&mut self, i: usize, e: Value) -> Option<EdgeSpec> {
        let Value::Object(fields) = e else {
            self.not_an_edge(i);
            return None;
        };
        self.edge_fields(i, fields)
    }

    /// Edge `i` is not an object.
    pub(crate) fn not_an_edge(&mut self, i: usize) {
        let at = pointer(["edges", &i.to_string()]);
        self.error(Diagnostic::error(check::EDGE_NOT_OBJECT, "spec edge must be an object").at(at));
    }

    /// Edge `i` from its members in document order (see [`Reader::node_fields`]).
    pub(crate) fn edge_fields<K: AsRef<str>>(
        &mut self,
        i: usize,
        fields: impl IntoIterator<Item = (K, Value)>,
    ) -> Option<EdgeSpec> {
        let at = |sub: &str| pointer(["edges", &i.to_string(), sub]);
        let (mut from, mut to, mut when) = (None, None, None);
        let mut unknown = Vec::new();
        let mut ok = true;
        for (key, v) in fields {
            match key.as_ref() {
                "from" => from = Some(v),
                "to" => to = Some(v),
                "when" => when = Some(v),
                _ => unknown.push(key),
            }
        }
        let from_text = js_text(from.as_ref());
        let to_text = js_text(to.as_ref());
        for key in &unknown {
            let whose = format!(" in the edge \"{from_text}\" -> \"{to_text}\"");
            self.unknown(at(key.as_ref()), key.as_ref(), &whose);
        }
        let from = self.edge_end(i, from, End::From, &from_text, &to_text);
        let to = self.edge_end(i, to, End::To, &from_text, &to_text);
        let when = match when {
            None => None,
            Some(Value::Null) => {
                self.diagnostics.push(
                    Diagnostic::warning(
                        codes::DROPPED_FIELD,
                        format!(
                            "\"when\": null in the edge \"{from_text}\" -> \"{to_text}\" means no guard and is \
                             dropped when the graph is saved"
                        ),
                    )
                    .at(at("when"))
                    .on_edge(i, &from_text, &to_text),
                );
                None
            }
            Some(Value::Object(m)) => Some(Predicate::from(m)),
            Some(other) => {
                ok = false;
                self.error(
                    Diagnostic::error(
                        check::MALFORMED_PREDICATE,
                        format!(
                            "predicate {} is malformed — expected an object with a \"channel\" key, e.g. \
                             {{ channel: \"intent\", eq: \"buy\" }}.",
                            js_json(&other)
                        ),
                    )
                    .at(at("when"))
                    .on_edge(i, &from_text, &to_text),
                );
                None
            }
        };
        if !ok {
            return None;
        }
        Some(EdgeSpec { from: from?.into(), to: to?.into(), when })
    }
}

/// Which end of an edge.
#[derive(Clone, Copy)]
enum End {
    From,
    To,
}

impl Reader {
    /// One end of edge `i`: its node id, or an error that says what is wrong with it: missing
    /// (the reference would print `undefined`), or not a string.
    fn edge_end(
        &mut self,
        i: usize,
        v: Option<Value>,
        end: End,
        from_text: &str,
        to_text: &str,
    ) -> Option<String> {
        let (field, code) = match end {
            End::From => ("from", check::UNKNOWN_EDGE_SOURCE),
            End::To => ("to", check::UNKNOWN_EDGE_TARGET),
        };
        let message = match v {
            Some(Value::String(s)) => return Some(s),
            None => {
                let (other_field, other, what) = match end {
                    End::From => ("to", to_text, "the node it starts at"),
                    End::To => ("from", from_text, "the node it goes to"),
                };
                let which = if other == "undefined" {
                    format!("edge {i}")
                } else {
                    format!("the edge {other_field} \"{other}\"")
                };
                format!("{which} has no \"{field}\" field: an edge needs {what}")
            }
            Some(other) => {
                format!("\"{field}\" of edge {i} must be a node id (a string), got {}", js_json(&other))
            }
        };
        self.error(
            Diagnostic::error(code, message)
                .at(pointer(["edges", &i.to_string(), field]))
                .on_edge(i, from_text, to_text),
        );
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn codes_of(p: &Parsed) -> Vec<(&str, &str)> {
        p.diagnostics.iter().map(|d| (d.code.as_str(), d.pointer.as_str())).collect()
    }

    #[test]
    fn missing_collections_read_as_empty() {
        let p = parse_spec("{\"name\": null}");
        assert!(p.diagnostics.is_empty());
        let spec = p.spec.unwrap();
        assert!(spec.name.is_none() && spec.channels.is_empty() && spec.nodes.is_empty());
    }

    #[test]
    fn not_an_object_is_refused() {
        for (t, got) in [("null", "null"), ("[]", "an array"), ("\"graph\"", "a string"), ("7", "a number")] {
            let p = parse_spec(t);
            assert!(p.spec.is_none());
            assert_eq!(p.diagnostics[0].message, format!("a graph spec must be an object, got {got}"));
        }
    }

    #[test]
    fn unknown_fields_are_named_but_predicate_keys_are_not() {
        let text = r#"{"name":"x","extra":1,"channels":{"c":{"reducer":"append","doc":"?"}},
            "nodes":[{"id":"a","type":"t","position":{"x":1}}],
            "edges":[{"from":"__start__","to":"a","label":"go","when":{"channel":"c","eq":1,"note":"kept"}}]}"#;
        let p = parse_spec(text);
        assert_eq!(
            codes_of(&p),
            vec![
                ("spec/unknown-field", "/extra"),
                ("spec/unknown-field", "/channels/c/doc"),
                ("spec/unknown-field", "/nodes/0/position"),
                ("spec/unknown-field", "/edges/0/label"),
            ]
        );
        assert!(p.diagnostics[2].message.contains("\"position\" in node \"a\""));
        assert!(p.diagnostics.iter().all(|d| d.span.is_some()));
        let spec = p.spec.unwrap();
        assert_eq!(spec.edges[0].when.as_ref().unwrap().get("note").unwrap(), "kept");
    }

    #[test]
    fn structural_junk_is_reported_everywhere_with_pointers() {
        let text = r#"{"name":5,"channels":{"c":null,"d":{"reducer":7}},
            "nodes":[3,{"type":"t"},{"id":9},{"id":"ok","config":[]}],
            "edges":["x",{"to":"a"},{"from":"a","to":"b","when":"c == 1"}]}"#;
        let p = parse_spec(text);
        assert!(p.spec.is_none());
        let got = codes_of(&p);
        assert_eq!(
            got,
            vec![
                ("spec/invalid-field", "/name"),
                ("spec/channel-not-object", "/channels/c"),
                ("spec/unknown-reducer", "/channels/d/reducer"),
                ("spec/node-not-object", "/nodes/0"),
                ("spec/invalid-node-id", "/nodes/1/id"),
                ("spec/invalid-node-id", "/nodes/2/id"),
                ("spec/invalid-field", "/nodes/3/config"),
                ("spec/edge-not-object", "/edges/0"),
                ("spec/unknown-edge-source", "/edges/1/from"),
                ("spec/malformed-predicate", "/edges/2/when"),
            ]
        );
        assert_eq!(p.diagnostics[1].message, "channel \"c\": config must be an object, got null");
        assert_eq!(p.diagnostics[4].message, "node name must be a non-empty string, got null");
        assert_eq!(p.diagnostics[5].message, "node name must be a non-empty string, got 9");
        assert_eq!(
            p.diagnostics[8].message,
            "the edge to \"a\" has no \"from\" field: an edge needs the node it starts at"
        );
    }

    #[test]
    fn invalid_utf8_is_a_diagnostic() {
        let p = parse_spec_bytes(b"{\"name\": \"\xc3\x28\"}");
        assert!(p.spec.is_none());
        assert_eq!(p.diagnostics[0].code, json::codes::INVALID_UTF8);
    }
}
