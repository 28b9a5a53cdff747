//! Strict reading, as `DeserializeGraphDefinition` does (formats.md §2.4): one JSON value, no
//! duplicate keys, no unknown fields (Go's `DisallowUnknownFields`), values of the right type.
//! Unlike Go, every problem is collected, each with a JSON Pointer and a span.
//!
//! The reader is tolerant in what it *keeps*: as long as the root is an object it returns a
//! document (a wrongly typed field reads as empty), so the editor can open the file, show its
//! problems and let the user fix them. The raw value is kept beside the typed view, so the
//! writer gives back exactly what was read.

use indexmap::IndexMap;
use serde::de::IgnoredAny;
use serde_json::{Map, Value};
use trellis_spec::diagnostic::pointer_push;
use trellis_spec::{json, Diagnostic, Span};

use super::codes;
use super::doc::WeaveflowDoc;
use super::generation::EARLY_STATE_SCHEMA;
use super::model::{
    EdgeCondition, ExecutionPolicy, FailureRoute, GraphDefinition, GraphEdge, GraphNode, GraphPolicy, Limits,
    RetryPolicy, StateBinding, StateModuleRef,
};
use super::transfer::{self, Transfer, TransferKind};

/// The result of reading a text: the document when the text held a JSON object, and every
/// problem found on the way (spans filled).
#[derive(Debug, Clone)]
pub struct Parsed {
    pub doc: Option<WeaveflowDoc>,
    pub diagnostics: Vec<Diagnostic>,
}

/// Reads a Graph Definition from text.
pub fn parse(text: &str) -> Parsed {
    if let Some(d) = trailing_value(text) {
        return Parsed { doc: None, diagnostics: vec![d] };
    }
    let value = match json::parse(text) {
        Ok(v) => v,
        Err(d) => return Parsed { doc: None, diagnostics: vec![d] },
    };
    let (doc, mut diagnostics) = read_value(value);
    match doc.as_ref().and_then(WeaveflowDoc::transfer) {
        Some(t) => transfer::fill_spans(t, text, &mut diagnostics),
        None => json::fill_spans(text, &mut diagnostics),
    }
    Parsed { doc, diagnostics }
}

/// Reads a Graph Definition from an already parsed value (no spans: there is no text). A
/// transfer file (an export bundle, an upload envelope: `transfer.rs`) is read as the
/// definition it carries; the findings about the file around it point into the file, the
/// others into the definition.
pub fn read_value(value: Value) -> (Option<WeaveflowDoc>, Vec<Diagnostic>) {
    let kind = value.as_object().and_then(transfer::kind_of);
    let Some(kind) = kind else {
        let mut r = Reader { diags: Vec::new() };
        let Some(f) = r.fields(&value, "", "", "dsl.GraphDefinition", ROOT_FIELDS) else {
            return (None, r.diags);
        };
        let definition = r.definition(&f);
        return (Some(WeaveflowDoc::from_parts(value, definition, None)), r.diags);
    };
    let empty = Map::new();
    let root = value.as_object().unwrap_or(&empty);
    let mut diags = transfer::check(root, kind);
    let inner = root.get("definition").filter(|d| !d.is_null());
    let Some(inner) = inner else {
        if !diags.iter().any(|d| d.pointer == "/definition") {
            diags.push(
                Diagnostic::error(
                    codes::BUNDLE_CONTENTS,
                    "the file holds no graph definition (no \"definition\")",
                )
                .at("/definition"),
            );
        }
        return (None, diags);
    };
    let mut r = Reader { diags: Vec::new() };
    let Some(f) = r.fields(inner, "", "", "dsl.GraphDefinition", ROOT_FIELDS) else {
        diags.extend(r.diags);
        return (None, diags);
    };
    let mut definition = r.definition(&f);
    diags.extend(r.diags);
    // A bundle keeps the definition's `metadata.web` (positions) in `ui.web`; the editor reads
    // it as the definition's, and writes it back there. A definition that holds its own, against
    // the rules (said above), keeps it where it is.
    let ui_web = root.get("ui").and_then(|u| u.get("web")).filter(|w| !w.is_null());
    let web_in_ui = kind == TransferKind::ExportBundle && !definition.metadata.contains_key("web");
    if let (true, Some(web)) = (web_in_ui, ui_web) {
        definition.metadata.insert("web".into(), web.clone());
    }
    let t = Transfer { kind, web_in_ui };
    (Some(WeaveflowDoc::from_parts(value, definition, Some(t))), diags)
}

/// `graph definition contains multiple JSON values` when something follows the first value
/// (Go decodes a second time and fails unless it meets EOF, so junk counts too). A first value
/// that is itself broken is left to `json::parse`, which places the syntax error.
fn trailing_value(text: &str) -> Option<Diagnostic> {
    let mut stream = serde_json::Deserializer::from_str(text).into_iter::<IgnoredAny>();
    match stream.next() {
        Some(Ok(_)) => {}
        _ => return None,
    }
    let end = stream.byte_offset();
    let rest = &text[end..];
    let skipped = rest.len() - rest.trim_start_matches([' ', '\t', '\n', '\r']).len();
    if end + skipped >= text.len() {
        return None;
    }
    let span = Span::from_range(text, end + skipped, text.len());
    Some(
        Diagnostic::error(codes::MULTIPLE_VALUES, "graph definition contains multiple JSON values")
            .with_span(span),
    )
}

const ROOT_FIELDS: &[&str] = &[
    "version",
    "name",
    "description",
    "state_modules",
    "entry_point",
    "finish_point",
    "nodes",
    "edges",
    "policy",
    "metadata",
];
const MODULE_FIELDS: &[&str] = &["name", "version"];
const NODE_FIELDS: &[&str] = &["id", "name", "type", "description", "config", "state", "policy"];
const BINDING_FIELDS: &[&str] = &["path", "reducer"];
const EDGE_FIELDS: &[&str] = &["from", "to", "condition", "failure"];
const CONDITION_FIELDS: &[&str] = &["id", "type", "config", "state"];
const FAILURE_FIELDS: &[&str] = &["stages", "error_classes", "catch_all"];
const POLICY_FIELDS: &[&str] = &["limits", "node_defaults"];
const LIMIT_FIELDS: &[&str] = &[
    "max_super_steps",
    "max_node_executions",
    "max_fan_out",
    "max_concurrent_runs",
    "max_concurrent_nodes",
    "max_concurrent_tools",
    "max_state_bytes",
    "max_wall_time",
];
const EXEC_FIELDS: &[&str] = &["timeout", "max_concurrency", "retry"];
const RETRY_FIELDS: &[&str] = &[
    "max_attempts",
    "initial_interval",
    "max_interval",
    "backoff_multiplier",
    "jitter",
    "retryable_error_classes",
    "non_retryable_error_classes",
];

/// The members of one JSON object, checked against a Go struct's fields.
struct Fields<'v> {
    map: &'v Map<String, Value>,
    ptr: String,
    /// The Go struct name, for "cannot unmarshal" messages.
    go: &'static str,
}

impl<'v> Fields<'v> {
    /// The member for `field`: the exact key, else a case-insensitive match (as Go does).
    fn get(&self, field: &str) -> Option<(&'v Value, String)> {
        let (k, v) = self
            .map
            .get_key_value(field)
            .or_else(|| self.map.iter().find(|(k, _)| k.eq_ignore_ascii_case(field)))?;
        Some((v, pointer_push(&self.ptr, k)))
    }
}

struct Reader {
    diags: Vec<Diagnostic>,
}

/// The JSON kind as Go names it in "cannot unmarshal <kind>".
fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

impl Reader {
    fn wrong(&mut self, v: &Value, ptr: &str, go_field: &str, go_type: &str) {
        let msg = if go_field.is_empty() {
            format!("json: cannot unmarshal {} into Go value of type {go_type}", kind(v))
        } else {
            format!("json: cannot unmarshal {} into Go struct field {go_field} of type {go_type}", kind(v))
        };
        let code = if ptr.is_empty() { codes::NOT_AN_OBJECT } else { codes::WRONG_TYPE };
        self.diags.push(Diagnostic::error(code, msg).at(ptr));
    }

    /// Checks that `v` is an object with only `allowed` keys. `null` reads as absent.
    fn fields<'v>(
        &mut self,
        v: &'v Value,
        ptr: &str,
        go_field: &str,
        go_type: &'static str,
        allowed: &[&str],
    ) -> Option<Fields<'v>> {
        let map = match v {
            Value::Object(m) => m,
            Value::Null if !ptr.is_empty() => return None,
            other => {
                self.wrong(other, ptr, go_field, go_type);
                return None;
            }
        };
        for k in map.keys() {
            let at = pointer_push(ptr, k);
            if allowed.contains(&k.as_str()) {
                continue;
            }
            if let Some(field) = allowed.iter().find(|f| f.eq_ignore_ascii_case(k)) {
                self.diags.push(
                    Diagnostic::warning(
                        codes::FIELD_CASE,
                        format!("key \"{k}\" matches the field \"{field}\" only when case is ignored; Weaveflow's Go reader accepts it, other tools may not"),
                    )
                    .at(at),
                );
                continue;
            }
            if ptr.is_empty() && k == "state_schema" && go_type == "dsl.GraphDefinition" {
                self.diags.push(Diagnostic::error(codes::EARLY_GENERATION, EARLY_STATE_SCHEMA).at(at));
                continue;
            }
            self.diags
                .push(Diagnostic::error(codes::UNKNOWN_FIELD, format!("json: unknown field \"{k}\"")).at(at));
        }
        Some(Fields { map, ptr: ptr.to_owned(), go: go_static(go_type) })
    }

    fn string(&mut self, f: &Fields, field: &str) -> String {
        match f.get(field) {
            None | Some((Value::Null, _)) => String::new(),
            Some((Value::String(s), _)) => s.clone(),
            Some((v, at)) => {
                self.wrong(v, &at, &format!("{}.{field}", f.go), "string");
                String::new()
            }
        }
    }

    fn boolean(&mut self, f: &Fields, field: &str) -> bool {
        match f.get(field) {
            None | Some((Value::Null, _)) => false,
            Some((Value::Bool(b), _)) => *b,
            Some((v, at)) => {
                self.wrong(v, &at, &format!("{}.{field}", f.go), "bool");
                false
            }
        }
    }

    fn number(&mut self, f: &Fields, field: &str, go_type: &str) -> Option<Value> {
        match f.get(field) {
            None | Some((Value::Null, _)) => None,
            Some((v @ Value::Number(_), _)) => Some(v.clone()),
            Some((v, at)) => {
                self.wrong(v, &at, &format!("{}.{field}", f.go), go_type);
                None
            }
        }
    }

    fn strings(&mut self, f: &Fields, field: &str) -> Vec<String> {
        let Some((v, at)) = f.get(field) else { return Vec::new() };
        let go_field = format!("{}.{field}", f.go);
        match v {
            Value::Null => Vec::new(),
            Value::Array(items) => {
                let mut out = Vec::with_capacity(items.len());
                for (i, item) in items.iter().enumerate() {
                    match item {
                        Value::String(s) => out.push(s.clone()),
                        Value::Null => out.push(String::new()),
                        other => {
                            self.wrong(other, &pointer_push(&at, &i.to_string()), &go_field, "string");
                            out.push(String::new());
                        }
                    }
                }
                out
            }
            other => {
                self.wrong(other, &at, &go_field, "[]string");
                Vec::new()
            }
        }
    }

    /// A free-form object (`config`, `metadata`): any keys.
    fn map(&mut self, f: &Fields, field: &str) -> Map<String, Value> {
        match f.get(field) {
            None | Some((Value::Null, _)) => Map::new(),
            Some((Value::Object(m), _)) => m.clone(),
            Some((v, at)) => {
                self.wrong(v, &at, &format!("{}.{field}", f.go), "map[string]interface {}");
                Map::new()
            }
        }
    }

    /// An array of structs; a wrongly typed element reads as a default so indices stay aligned
    /// with the document (diagnostics point at the right element).
    fn list<T: Default>(
        &mut self,
        f: &Fields,
        field: &str,
        go_type: &'static str,
        mut each: impl FnMut(&mut Self, &Value, &str) -> T,
    ) -> Vec<T> {
        let Some((v, at)) = f.get(field) else { return Vec::new() };
        match v {
            Value::Null => Vec::new(),
            Value::Array(items) => items
                .iter()
                .enumerate()
                .map(|(i, item)| each(self, item, &pointer_push(&at, &i.to_string())))
                .collect(),
            other => {
                self.wrong(other, &at, &format!("{}.{field}", f.go), &format!("[]{go_type}"));
                Vec::new()
            }
        }
    }

    fn definition(&mut self, f: &Fields) -> GraphDefinition {
        GraphDefinition {
            version: self.string(f, "version"),
            name: self.string(f, "name"),
            description: self.string(f, "description"),
            state_modules: self.list(f, "state_modules", "dsl.StateModuleRef", |r, v, at| {
                r.fields(v, at, "GraphDefinition.state_modules", "dsl.StateModuleRef", MODULE_FIELDS)
                    .map(|m| StateModuleRef { name: r.string(&m, "name"), version: r.string(&m, "version") })
                    .unwrap_or_default()
            }),
            entry_point: self.string(f, "entry_point"),
            finish_point: self.string(f, "finish_point"),
            nodes: self.list(f, "nodes", "dsl.GraphNodeSpec", |r, v, at| r.node(v, at)),
            edges: self.list(f, "edges", "dsl.GraphEdgeSpec", |r, v, at| r.edge(v, at)),
            policy: f.get("policy").and_then(|(v, at)| r_policy(self, v, &at)),
            metadata: self.map(f, "metadata"),
        }
    }

    fn node(&mut self, v: &Value, at: &str) -> GraphNode {
        let Some(f) = self.fields(v, at, "GraphDefinition.nodes", "dsl.GraphNodeSpec", NODE_FIELDS) else {
            return GraphNode::default();
        };
        GraphNode {
            id: self.string(&f, "id"),
            name: self.string(&f, "name"),
            type_name: self.string(&f, "type"),
            description: self.string(&f, "description"),
            config: self.map(&f, "config"),
            state: self.bindings(&f),
            policy: f.get("policy").and_then(|(v, at)| self.exec_policy(v, &at, "GraphNodeSpec.policy")),
        }
    }

    fn bindings(&mut self, f: &Fields) -> IndexMap<String, StateBinding> {
        let mut out = IndexMap::new();
        let Some((v, at)) = f.get("state") else { return out };
        let map = match v {
            Value::Null => return out,
            Value::Object(m) => m,
            other => {
                self.wrong(other, &at, &format!("{}.state", f.go), "map[string]dsl.StateBinding");
                return out;
            }
        };
        for (port, b) in map {
            let bp = pointer_push(&at, port);
            let binding = self
                .fields(b, &bp, &format!("{}.state", f.go), "dsl.StateBinding", BINDING_FIELDS)
                .map(|bf| StateBinding {
                    path: self.string(&bf, "path"),
                    reducer: self.string(&bf, "reducer"),
                })
                .unwrap_or_default();
            out.insert(port.clone(), binding);
        }
        out
    }

    fn edge(&mut self, v: &Value, at: &str) -> GraphEdge {
        let Some(f) = self.fields(v, at, "GraphDefinition.edges", "dsl.GraphEdgeSpec", EDGE_FIELDS) else {
            return GraphEdge::default();
        };
        let condition = f.get("condition").and_then(|(v, at)| {
            let c =
                self.fields(v, &at, "GraphEdgeSpec.condition", "dsl.EdgeConditionSpec", CONDITION_FIELDS)?;
            Some(EdgeCondition {
                id: self.string(&c, "id"),
                type_name: self.string(&c, "type"),
                config: self.map(&c, "config"),
                state: self.bindings(&c),
            })
        });
        let failure = f.get("failure").and_then(|(v, at)| {
            let c = self.fields(v, &at, "GraphEdgeSpec.failure", "dsl.FailureRouteSpec", FAILURE_FIELDS)?;
            Some(FailureRoute {
                stages: self.strings(&c, "stages"),
                error_classes: self.strings(&c, "error_classes"),
                catch_all: self.boolean(&c, "catch_all"),
            })
        });
        GraphEdge { from: self.string(&f, "from"), to: self.string(&f, "to"), condition, failure }
    }

    fn exec_policy(&mut self, v: &Value, at: &str, go_field: &str) -> Option<ExecutionPolicy> {
        let f = self.fields(v, at, go_field, "dsl.ExecutionPolicy", EXEC_FIELDS)?;
        let retry = f.get("retry").and_then(|(v, at)| {
            let r = self.fields(v, &at, "ExecutionPolicy.retry", "dsl.RetryPolicy", RETRY_FIELDS)?;
            Some(RetryPolicy {
                max_attempts: self.number(&r, "max_attempts", "int"),
                initial_interval: self.string(&r, "initial_interval"),
                max_interval: self.string(&r, "max_interval"),
                backoff_multiplier: self.number(&r, "backoff_multiplier", "float64"),
                jitter: self.number(&r, "jitter", "float64"),
                retryable_error_classes: self.strings(&r, "retryable_error_classes"),
                non_retryable_error_classes: self.strings(&r, "non_retryable_error_classes"),
            })
        });
        Some(ExecutionPolicy {
            timeout: self.string(&f, "timeout"),
            max_concurrency: self.number(&f, "max_concurrency", "int"),
            retry,
        })
    }
}

fn r_policy(r: &mut Reader, v: &Value, at: &str) -> Option<GraphPolicy> {
    let f = r.fields(v, at, "GraphDefinition.policy", "dsl.GraphPolicy", POLICY_FIELDS)?;
    let limits = f.get("limits").and_then(|(v, at)| {
        let l = r.fields(v, &at, "GraphPolicy.limits", "dsl.ExecutionLimits", LIMIT_FIELDS)?;
        Some(Limits {
            max_super_steps: r.number(&l, "max_super_steps", "int"),
            max_node_executions: r.number(&l, "max_node_executions", "int"),
            max_fan_out: r.number(&l, "max_fan_out", "int"),
            max_concurrent_runs: r.number(&l, "max_concurrent_runs", "int"),
            max_concurrent_nodes: r.number(&l, "max_concurrent_nodes", "int"),
            max_concurrent_tools: r.number(&l, "max_concurrent_tools", "int"),
            max_state_bytes: r.number(&l, "max_state_bytes", "int64"),
            max_wall_time: r.string(&l, "max_wall_time"),
        })
    });
    let node_defaults =
        f.get("node_defaults").and_then(|(v, at)| r.exec_policy(v, &at, "GraphPolicy.node_defaults"));
    Some(GraphPolicy { limits, node_defaults })
}

/// The short Go struct name of a `pkg.Type` string, as a static str.
fn go_static(go_type: &str) -> &'static str {
    match go_type {
        "dsl.StateModuleRef" => "StateModuleRef",
        "dsl.GraphNodeSpec" => "GraphNodeSpec",
        "dsl.StateBinding" => "StateBinding",
        "dsl.GraphEdgeSpec" => "GraphEdgeSpec",
        "dsl.EdgeConditionSpec" => "EdgeConditionSpec",
        "dsl.FailureRouteSpec" => "FailureRouteSpec",
        "dsl.GraphPolicy" => "GraphPolicy",
        "dsl.ExecutionLimits" => "ExecutionLimits",
        "dsl.ExecutionPolicy" => "ExecutionPolicy",
        "dsl.RetryPolicy" => "RetryPolicy",
        _ => "GraphDefinition",
    }
}
