//! The node types a document's palette offers: only types its format can hold.
//!
//! - GraphSpec: every type of the registries in force (built-in and project).
//! - Weaveflow: Weaveflow's own node types (config shapes from `trellis_formats::weaveflow::
//!   builtin`, as JSON Schema) and the project registries' types; never Trellis's built-in
//!   GraphSpec types, whose configs a Weaveflow runtime does not know.
//! - GRAPH.md: its seven node kinds, each with the fields it takes (a judge's required ones
//!   first); never a registry type (GRAPH.md has kinds, not types).

use serde_json::{json, Map, Value};
use trellis_formats::graphmd::model::{JUDGE_SEATS, NODE_KINDS};
use trellis_formats::weaveflow::builtin::{Kind, NODE_TYPES};
use trellis_spec::builtin::SOURCE as BUILTIN_SOURCE;
use trellis_spec::infer::title_of;
use trellis_spec::registry::TypeOrigin;
use trellis_spec::TypeInfo;

use crate::document::Document;
use crate::session::Session;

/// The palette of `session`'s document, sorted by type name.
pub fn palette(session: &Session) -> Vec<TypeInfo> {
    let registry = &session.registries().registry;
    let mut types: Vec<TypeInfo> = match session.document() {
        Document::GraphSpec(_) => registry.types().map(|t| TypeInfo::clone(&t.info)).collect(),
        Document::Weaveflow(_) => {
            // The types the newest registry replaced are known to the checks (a warning names
            // the new type) but not offered for new nodes.
            let mut out: Vec<TypeInfo> =
                NODE_TYPES.iter().filter(|b| b.replaced.is_none()).map(weaveflow_type).collect();
            out.extend(
                registry
                    .types()
                    .filter(|t| t.source != BUILTIN_SOURCE)
                    .filter(|t| !NODE_TYPES.iter().any(|b| b.name == t.info.type_name))
                    .map(|t| TypeInfo::clone(&t.info)),
            );
            out
        }
        Document::GraphMd(_) => NODE_KINDS.iter().map(|k| graphmd_kind(k)).collect(),
    };
    types.sort_by(|a, b| a.type_name.cmp(&b.type_name));
    types
}

fn kind_schema(kind: Kind) -> Value {
    match kind {
        Kind::Any => json!({}),
        Kind::String => json!({"type": "string"}),
        Kind::NonEmptyString => json!({"type": "string", "minLength": 1}),
        Kind::Bool => json!({"type": "boolean"}),
        Kind::PositiveInteger => json!({"type": "integer", "minimum": 1}),
        Kind::Array => json!({"type": "array"}),
        Kind::StringArray => json!({"type": "array", "items": {"type": "string"}}),
        Kind::Object => json!({"type": "object"}),
        Kind::OneOf(values) => json!({"type": "string", "enum": values}),
    }
}

fn weaveflow_type(b: &trellis_formats::weaveflow::builtin::BuiltinType) -> TypeInfo {
    let mut properties = Map::new();
    let mut required = Vec::new();
    for k in b.config.keys {
        properties.insert(k.key.to_owned(), kind_schema(k.kind));
        if k.required {
            required.push(json!(k.key));
        }
    }
    let version = trellis_formats::weaveflow::builtin::NEWEST_REGISTRY;
    TypeInfo {
        type_name: b.name.to_owned(),
        title: Some(title_of(b.name)),
        category: Some("Weaveflow".to_owned()),
        description: Some(b.description.to_owned()),
        config_schema: Some(json!({
            "type": "object",
            "properties": properties,
            "required": required,
            "additionalProperties": b.config.open,
        })),
        origin: Some(TypeOrigin::Runtime {
            runtime: "Weaveflow".to_owned(),
            package: None,
            version: version.to_owned(),
            source: Some(format!("dengzii/weaveflow {}", b.source)),
        }),
        ..TypeInfo::default()
    }
}

fn graphmd_kind(kind: &str) -> TypeInfo {
    let mut properties = Map::new();
    properties.insert("description".into(), json!({"type": "string", "description": "What the step does."}));
    properties.insert(
        "model_key".into(),
        json!({"type": "string", "description": "The model it uses (a key of the price table)."}),
    );
    let mut required: Vec<Value> = Vec::new();
    let mut defaults = Map::new();
    let description = match kind {
        "agent" => "A model-driven step.",
        "tool" => "A tool call.",
        "router" => "Chooses the next step.",
        "verifier" => "Checks a result.",
        "human" => "A person acts.",
        "subgraph" => {
            properties
                .insert("ref".into(), json!({"type": "string", "description": "The GRAPH.md file it runs."}));
            "Runs another GRAPH.md graph."
        }
        "judge" => {
            properties.insert("seat".into(), json!({"type": "string", "enum": JUDGE_SEATS}));
            properties.insert("decision_model".into(), json!({"type": "string", "minLength": 1}));
            properties.insert("options".into(), json!({"type": "array", "items": {"type": "string"}}));
            properties.insert(
                "fallback".into(),
                json!({"type": "string", "description": "The node taken when the judge is unsure."}),
            );
            properties
                .insert("confidence_threshold".into(), json!({"type": "number", "minimum": 0, "maximum": 1}));
            required.extend([json!("seat"), json!("decision_model"), json!("fallback")]);
            defaults.insert("seat".into(), json!("router"));
            "A model-backed decision point (spec_version 1.1.0)."
        }
        _ => "",
    };
    TypeInfo {
        type_name: kind.to_owned(),
        title: Some(title_of(kind)),
        category: Some("GRAPH.md".to_owned()),
        description: Some(description.to_owned()),
        config_schema: Some(json!({
            "type": "object",
            "properties": properties,
            "required": required,
            "additionalProperties": false,
        })),
        defaults: (!defaults.is_empty()).then_some(Value::Object(defaults)),
        ..TypeInfo::default()
    }
}
