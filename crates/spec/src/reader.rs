//! The reader's rules: the JSON values of a document's parts (its members, a node's, an edge's)
//! into the tolerant model, with every finding. Both ways of reading a text go through here:
//! `read::parse_spec` streams the parts out of the text, and `read::spec_from_value` takes them
//! from a `Value` tree, so their findings are the same by construction.
//!
//! Three kinds of findings, all collected (never only the first):
//! * Structural junk the model cannot hold (a node that is not an object, an id that is not a
//!   string, `edges` that is not an array, ...): errors with pointers, and no document, since
//!   opening it would mean dropping or inventing something.
//! * Unknown fields (top level, channel, node, edge): a warning each, naming the field, because
//!   `to_spec` drops them and a save must never remove something silently. Predicate keys are
//!   not fields: a predicate is kept verbatim, unknown keys included.
//! * Values that mean nothing and are not written back (`"when": null`): a warning each.
//!
//! Missing collections read as empty, a missing `name` as `null`, a missing `reducer` as
//! `last_write`, a missing `config` as `{}` (formats.md §1.1). Whatever the model can hold but
//! does not compile (a node with no type, an unknown reducer name, a dangling edge) is left to
//! the validator.

use serde_json::Value;

use crate::checks::{self, codes as check};
use crate::diagnostic::{pointer, Diagnostic};
use crate::model::{ChannelSpec, Config, EdgeSpec, GraphSpec, Id, NodeSpec, Predicate, ReducerName};
use crate::predicate::js_json;

/// Codes of the reading step (besides the `json/...` codes and the §1.5 codes it shares).
pub mod codes {
    /// A field the format does not define; `to_spec` drops it, so saving would lose it.
    pub const UNKNOWN_FIELD: &str = "spec/unknown-field";
    /// A field with a value of the wrong kind (`"nodes": {}`, `"config": 5`, ...).
    pub const INVALID_FIELD: &str = "spec/invalid-field";
    /// A field whose value means nothing and is not written back (`"when": null`).
    pub const DROPPED_FIELD: &str = "spec/dropped-field";
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

/// Turns JSON values into the model, collecting every finding.
pub(crate) struct Reader {
    diagnostics: Vec<Diagnostic>,
    /// Set when something was found that the model cannot hold.
    broken: bool,
}

impl Reader {
    pub(crate) fn new() -> Self {
        Reader { diagnostics: Vec::new(), broken: false }
    }

    /// The document (none when something could not be held) and the findings.
    pub(crate) fn finish(self, spec: Option<GraphSpec>) -> (Option<GraphSpec>, Vec<Diagnostic>) {
        let spec = if self.broken { None } else { spec };
        (spec, self.diagnostics)
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
    /// read without building one). `kept_config` is the config when the streaming reader kept it
    /// as its text (an object; then `fields` has no `config`).
    pub(crate) fn node_fields<K: AsRef<str>>(
        &mut self,
        i: usize,
        fields: impl IntoIterator<Item = (K, Value)>,
        kept_config: Option<Config>,
    ) -> Option<NodeSpec> {
        let mut id: Option<String> = None;
        let mut bad_id: Option<String> = Some("null".into());
        let mut type_name = None;
        let mut config = kept_config.unwrap_or_default();
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
