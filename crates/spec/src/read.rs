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

use serde_json::{Map, Value};

use crate::checks::{self, codes as check};
use crate::diagnostic::{pointer, Diagnostic};
use crate::json;
use crate::model::{ChannelSpec, EdgeSpec, GraphSpec, NodeSpec, Predicate, ReducerName};
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

/// What reading produced: the document (when it could be held) and every finding.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Parsed {
    pub spec: Option<GraphSpec>,
    pub diagnostics: Vec<Diagnostic>,
}

/// Reads a document from text. Diagnostics carry spans.
pub fn parse_spec(text: &str) -> Parsed {
    let value = match json::parse(text) {
        Ok(v) => v,
        Err(d) => return Parsed { spec: None, diagnostics: vec![d] },
    };
    let mut parsed = spec_from_value(value);
    json::fill_spans(text, &mut parsed.diagnostics);
    parsed
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
    let mut r = Reader { diagnostics: Vec::new(), broken: false };
    let spec = r.document(value);
    let spec = if r.broken { None } else { spec };
    Parsed { spec, diagnostics: r.diagnostics }
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

struct Reader {
    diagnostics: Vec<Diagnostic>,
    /// Set when something was found that the model cannot hold.
    broken: bool,
}

impl Reader {
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

    fn document(&mut self, value: Value) -> Option<GraphSpec> {
        let Value::Object(root) = value else {
            self.error(Diagnostic::error(
                check::NOT_AN_OBJECT,
                format!("a graph spec must be an object, got {}", kind_of(&value)),
            ));
            return None;
        };
        let mut spec = GraphSpec::default();
        for (key, v) in root {
            match key.as_str() {
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
                "channels" => self.channels(v, &mut spec),
                "nodes" => self.nodes(v, &mut spec),
                "edges" => self.edges(v, &mut spec),
                _ => self.unknown(pointer([&key]), &key, ""),
            }
        }
        Some(spec)
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

    fn nodes(&mut self, v: Value, spec: &mut GraphSpec) {
        let Some(list) = self.array(v, "nodes") else { return };
        spec.nodes.reserve(list.len());
        for (i, n) in list.into_iter().enumerate() {
            if let Some(node) = self.node(i, n) {
                spec.nodes.push(node);
            }
        }
    }

    fn node(&mut self, i: usize, n: Value) -> Option<NodeSpec> {
        let at = || pointer(["nodes", &i.to_string()]);
        let Value::Object(fields) = n else {
            self.error(Diagnostic::error(check::NODE_NOT_OBJECT, "spec node must be an object").at(at()));
            return None;
        };
        let mut id: Option<String> = None;
        let mut bad_id: Option<String> = Some("null".into());
        let mut type_name = None;
        let mut config = Map::new();
        let mut unknown = Vec::new();
        let mut ok = true;
        for (key, v) in fields {
            match key.as_str() {
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
                    other => {
                        ok = false;
                        self.error(
                            Diagnostic::error(
                                codes::INVALID_FIELD,
                                format!("a node's \"type\" must be a string, got {}", kind_of(&other)),
                            )
                            .at(pointer(["nodes", &i.to_string(), "type"])),
                        );
                    }
                },
                "config" => match v {
                    Value::Null => {}
                    Value::Object(m) => config = m,
                    other => {
                        ok = false;
                        self.error(
                            Diagnostic::error(
                                codes::INVALID_FIELD,
                                format!("a node's \"config\" must be an object, got {}", kind_of(&other)),
                            )
                            .at(pointer(["nodes", &i.to_string(), "config"])),
                        );
                    }
                },
                _ => unknown.push(key),
            }
        }
        let whose = match &id {
            Some(id) => format!(" in node \"{id}\""),
            None => String::new(),
        };
        for key in unknown {
            self.unknown(pointer(["nodes", &i.to_string(), &key]), &key, &whose);
        }
        if let Some(got) = bad_id {
            self.error(
                Diagnostic::error(
                    check::INVALID_NODE_ID,
                    format!("node name must be a non-empty string, got {got}"),
                )
                .at(pointer(["nodes", &i.to_string(), "id"])),
            );
            return None;
        }
        let id = id?;
        ok.then_some(NodeSpec { id, type_name, config })
    }

    fn edges(&mut self, v: Value, spec: &mut GraphSpec) {
        let Some(list) = self.array(v, "edges") else { return };
        spec.edges.reserve(list.len());
        for (i, e) in list.into_iter().enumerate() {
            if let Some(edge) = self.edge(i, e) {
                spec.edges.push(edge);
            }
        }
    }

    fn edge(&mut self, i: usize, e: Value) -> Option<EdgeSpec> {
        let at = |sub: &str| {
            if sub.is_empty() {
                pointer(["edges", &i.to_string()])
            } else {
                pointer(["edges", &i.to_string(), sub])
            }
        };
        let Value::Object(fields) = e else {
            self.error(Diagnostic::error(check::EDGE_NOT_OBJECT, "spec edge must be an object").at(at("")));
            return None;
        };
        let (mut from, mut to, mut when) = (None, None, None);
        let mut unknown = Vec::new();
        let mut ok = true;
        for (key, v) in fields {
            match key.as_str() {
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
            self.unknown(at(key), key, &whose);
        }
        let from = match from {
            Some(Value::String(s)) => Some(s),
            _ => {
                self.error(
                    Diagnostic::error(
                        check::UNKNOWN_EDGE_SOURCE,
                        format!("edge from unknown node \"{from_text}\""),
                    )
                    .at(at("from"))
                    .on_edge(i, &from_text, &to_text),
                );
                None
            }
        };
        let to = match to {
            Some(Value::String(s)) => Some(s),
            _ => {
                self.error(
                    Diagnostic::error(
                        check::UNKNOWN_EDGE_TARGET,
                        format!("edge \"{from_text}\" -> unknown node \"{to_text}\""),
                    )
                    .at(at("to"))
                    .on_edge(i, &from_text, &to_text),
                );
                None
            }
        };
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
            Some(Value::Object(m)) => Some(Predicate(m)),
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
        Some(EdgeSpec { from: from?, to: to?, when })
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
        assert_eq!(spec.edges[0].when.as_ref().unwrap().0.get("note").unwrap(), "kept");
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
        assert_eq!(p.diagnostics[8].message, "edge from unknown node \"undefined\"");
    }

    #[test]
    fn invalid_utf8_is_a_diagnostic() {
        let p = parse_spec_bytes(b"{\"name\": \"\xc3\x28\"}");
        assert!(p.spec.is_none());
        assert_eq!(p.diagnostics[0].code, json::codes::INVALID_UTF8);
    }
}
