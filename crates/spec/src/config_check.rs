//! Config-schema checks: each node's `config` against its registry type's `config_schema`.
//!
//! Called by [`crate::validate::validate`] whenever a registry is given, so schema problems
//! show everywhere (canvas badges, problems panel, save refusal, `trellis validate`).
//!
//! Every violation is one [`Diagnostic`] whose pointer goes into the spec document
//! (`/nodes/3/config/temperature`: the node's index plus the place inside its config), whose
//! message names the node id and the field, and whose element is the node. A missing required
//! field is pointed at where it would go (`/nodes/3/config/model`), so a form can highlight it.
//!
//! Defaults are never applied here (nor anywhere on load): a document means what it says.
//! [`defaults_for`] gives the starting config when a node is *created*.

use std::collections::HashMap;

use jsonschema::error::ValidationErrorKind;
use jsonschema::{ValidationError, Validator};
use serde_json::{Map, Value};

use crate::config_schema::{self, describe, field_label};
use crate::diagnostic::{pointer, pointer_push, Diagnostic};
use crate::fixes;
use crate::model::GraphSpec;
use crate::registry::{Registry, TypeInfo, TypeOrigin};
use crate::runtime_words;
use crate::suggest::{closest, strsim_hint};

/// Codes of the config checks.
pub mod codes {
    /// A config value that violates its type's schema (wrong type, out of range, not one of
    /// the allowed values, too long, ...).
    pub const INVALID: &str = "config/invalid";
    /// A required config field is missing.
    pub const MISSING_FIELD: &str = "config/missing-field";
    /// A config field the type's schema does not allow.
    pub const UNKNOWN_FIELD: &str = "config/unknown-field";
    /// The type's `config_schema` cannot be used (possible only for registries built in code:
    /// manifests are checked when read). Reported once, on the first node of that type.
    pub const UNUSABLE_SCHEMA: &str = "config/unusable-schema";
    /// A node uses a type its registry marks as deprecated.
    pub const DEPRECATED_TYPE: &str = "config/deprecated-type";
    /// A config field a runtime-published type does not read: the runtime ignores it (a
    /// warning, not an error, because the runtime builds the node all the same).
    pub const IGNORED_FIELD: &str = "config/ignored-field";
    /// A name the host resolves that does not have the form the host gives such names by
    /// default (an MCP tool not named `<server>__<tool>`): a warning, the host may differ.
    pub const HOST_CONVENTION: &str = "config/host-convention";
}

/// At most this many diagnostics per node: a config that is wrong everywhere (say, pasted from
/// another type) says so in a few lines instead of hundreds.
const MAX_PER_NODE: usize = 25;

/// Diagnostics for node configs that do not match their type's schema, and for nodes of
/// deprecated types. Nodes without a type, or of a type the registry does not know or that has
/// no schema, are skipped here (the structural checks report the first two).
///
/// Each schema is compiled once per call, so validating 10,000 nodes of a few types costs a
/// few compilations and 10,000 fast validations.
pub fn check_configs(spec: &GraphSpec, registry: &Registry) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut compiled: HashMap<&str, Option<Validator>, crate::id::IdHasher> = HashMap::default();
    let mut notes_of: HashMap<&str, Notes<'_>, crate::id::IdHasher> = HashMap::default();
    for (index, node) in spec.nodes.iter().enumerate() {
        let Some(type_name) = node.type_name.as_deref() else { continue };
        let Some(node_type) = registry.get(type_name) else { continue };
        let info = &node_type.info;
        if let Some(note) = deprecation(info) {
            out.push(
                Diagnostic::warning(
                    codes::DEPRECATED_TYPE,
                    format!("node \"{}\" uses type \"{type_name}\", which is deprecated{note}", node.id),
                )
                .at(pointer(["nodes", &index.to_string(), "type"]))
                .on_node(&node.id),
            );
        }
        let Some(schema) = info.config_schema.as_ref() else { continue };
        let notes = notes_of.entry(type_name).or_insert_with(|| Notes::of(schema));
        if notes.ignores_unknown_fields {
            out.extend(ignored_fields(schema, &node.config, index, &node.id, type_name));
        }
        for field in &notes.conventions {
            if let Some((prefix, note)) = runtime_words::off_convention(schema, field, &node.config) {
                let value = node.config.get(*field).map(Value::to_string).unwrap_or_default();
                out.push(
                    Diagnostic::warning(
                        codes::HOST_CONVENTION,
                        format!(
                            "node \"{}\": config field \"{field}\" is {value}, which does not start with \"{prefix}\": {note}",
                            node.id
                        ),
                    )
                    .at(pointer(["nodes", &index.to_string(), "config", field]))
                    .on_node(&node.id),
                );
            }
        }
        // A config is always an object, so a schema that accepts every object is decided here:
        // no compilation, no copy of the config (the common `{"type": "object"}` of a registry
        // that describes types without constraining them).
        if config_schema::accepts_every_object(schema) {
            continue;
        }
        let first_use = !compiled.contains_key(type_name);
        let prepared = compiled.entry(type_name).or_insert_with(|| config_schema::compile(schema).ok());
        let Some(validator) = prepared.as_ref() else {
            if first_use {
                out.push(
                    Diagnostic::warning(
                        codes::UNUSABLE_SCHEMA,
                        format!(
                            "the config schema of type \"{type_name}\" (from {}) is not a usable JSON Schema, \
                             so configs of this type are not checked; first used by node \"{}\"",
                            node_type.source, node.id
                        ),
                    )
                    .at(pointer(["nodes", &index.to_string(), "type"]))
                    .on_node(&node.id),
                );
            }
            continue;
        };
        // Almost every config is valid: its value is built for the check only, so a large
        // document does not keep every config built.
        let mut found = node.config.with_value(|config| {
            if validator.is_valid(config) {
                return Vec::new();
            }
            let base = pointer(["nodes", &index.to_string(), "config"]);
            let mut found = Vec::new();
            for e in validator.iter_errors(config) {
                found.extend(node_diagnostics(&e, config, schema, &base, &node.id, type_name));
                if found.len() >= MAX_PER_NODE {
                    break;
                }
            }
            found.truncate(MAX_PER_NODE);
            for d in &mut found {
                with_runtime_words(d, schema, config, &base, info.origin.as_ref());
            }
            found
        });
        if found.is_empty() {
            continue;
        }
        // A built-in example type whose configs the document fills otherwise is, most often,
        // the type of the same name of the user's own runtime (its `llm` has a `system` field):
        // describing it as the document uses it, in the project registry, replaces the built-in
        // one. A runtime-published type is described as its runtime defines it: its findings are
        // that runtime's refusals, not a difference of opinion.
        let published = matches!(info.origin, Some(TypeOrigin::Runtime { .. }));
        if node_type.source == crate::builtin::SOURCE && !published {
            for d in &mut found {
                d.fixes.push(fixes::describe_builtin_type(type_name));
            }
        }
        out.extend(found);
    }
    out
}

/// What a type's schema says about its runtime beyond JSON Schema (`crate::runtime_words`),
/// found once per type.
struct Notes<'s> {
    ignores_unknown_fields: bool,
    conventions: Vec<&'s str>,
}

impl<'s> Notes<'s> {
    fn of(schema: &'s Value) -> Notes<'s> {
        Notes {
            ignores_unknown_fields: runtime_words::ignores_unknown_fields(schema),
            conventions: runtime_words::convention_fields(schema),
        }
    }
}

/// The diagnostics for one schema error in the config of node `id`.
fn node_diagnostics(
    e: &ValidationError<'_>,
    config: &Value,
    schema: &Value,
    base: &str,
    id: &str,
    type_name: &str,
) -> Vec<Diagnostic> {
    let place = e.instance_path().as_str();
    let at = format!("{base}{place}");
    let label = field_label(config, place);
    let subject = if label.is_empty() { "config".to_owned() } else { format!("config field \"{label}\"") };
    match e.kind() {
        ValidationErrorKind::Required { property } => {
            let name = property.as_str().unwrap_or_default();
            vec![Diagnostic::error(
                codes::MISSING_FIELD,
                format!("node \"{id}\": {subject} is missing the required field \"{name}\" (type \"{type_name}\")"),
            )
            .at(pointer_push(&at, name))
            .on_node(id)]
        }
        ValidationErrorKind::AdditionalProperties { unexpected }
        | ValidationErrorKind::UnevaluatedProperties { unexpected } => {
            let known = known_properties(schema, e.schema_path().as_str());
            unexpected
                .iter()
                .map(|name| {
                    let full = if label.is_empty() { name.clone() } else { format!("{label}.{name}") };
                    let hint = strsim_hint(name, known.iter().map(String::as_str));
                    let d = Diagnostic::error(
                        codes::UNKNOWN_FIELD,
                        format!("node \"{id}\": config field \"{full}\" is not defined by type \"{type_name}\"{hint}"),
                    )
                    .at(pointer_push(&at, name))
                    .on_node(id);
                    // A rename is offered for top-level fields (what RenameConfigField edits).
                    match closest(name, known.iter().map(String::as_str)) {
                        Some(to) if label.is_empty() => d.with_fix(fixes::rename_config_field(id, name, to)),
                        _ => d,
                    }
                })
                .collect()
        }
        ValidationErrorKind::AnyOf { .. } if place.is_empty() => match one_of_fields(schema, e) {
            Some(keys) => {
                let listed = keys.iter().map(|k| format!("\"{k}\"")).collect::<Vec<_>>().join(" or ");
                let what = if keys.iter().any(|k| config.get(k).is_some()) {
                    format!("config needs {listed} as a string, and none is one")
                } else {
                    format!("config needs the field {listed}")
                };
                vec![Diagnostic::error(
                    codes::MISSING_FIELD,
                    format!("node \"{id}\": {what} (type \"{type_name}\")"),
                )
                .at(pointer_push(&at, &keys[0]))
                .on_node(id)]
            }
            None => vec![invalid(e, &at, id, &subject)],
        },
        _ => vec![invalid(e, &at, id, &subject)],
    }
}

fn invalid(e: &ValidationError<'_>, at: &str, id: &str, subject: &str) -> Diagnostic {
    Diagnostic::error(codes::INVALID, format!("node \"{id}\": {subject} {}", describe(e))).at(at).on_node(id)
}

/// The fields of an `anyOf` whose every branch requires one field (`text` or `textFrom`), in
/// branch order; `None` for any other `anyOf`.
fn one_of_fields(schema: &Value, e: &ValidationError<'_>) -> Option<Vec<String>> {
    let branches = schema.pointer(e.schema_path().as_str())?.as_array()?;
    branches
        .iter()
        .map(|b| match b.get("required")?.as_array()?.as_slice() {
            [Value::String(k)] => Some(k.clone()),
            _ => None,
        })
        .collect::<Option<Vec<String>>>()
        .filter(|keys| !keys.is_empty())
}

/// Adds the runtime's own words for a refusal of the top-level field a diagnostic points at
/// (`x-runtime-refusal`, [`runtime_words`]): in [`crate::Names::runtime_message`] and after
/// the message.
fn with_runtime_words(
    d: &mut Diagnostic,
    schema: &Value,
    config: &Value,
    base: &str,
    origin: Option<&TypeOrigin>,
) {
    let Some(rest) = d.pointer.strip_prefix(base).and_then(|r| r.strip_prefix('/')) else { return };
    let field = rest.split('/').next().unwrap_or_default().replace("~1", "/").replace("~0", "~");
    let Some(map) = config.as_object() else { return };
    let Some(words) = runtime_words::refusal(schema, &field, map) else { return };
    let who = match origin {
        Some(TypeOrigin::Runtime { runtime, .. }) => runtime.as_str(),
        _ => "the runtime",
    };
    d.message = format!("{}; {who} refuses it when it builds the graph: {words}", d.message);
    d.names.runtime_message = Some(words);
}

/// A warning for each top-level config key a runtime-published type does not read (its
/// schema says `x-trellis-unknown-fields: ignored`), with a rename when a field is close.
fn ignored_fields(
    schema: &Value,
    config: &crate::model::Config,
    index: usize,
    id: &str,
    type_name: &str,
) -> Vec<Diagnostic> {
    let known = runtime_words::property_names(schema);
    config
        .keys()
        .filter(|k| !known.contains(&k.as_str()))
        .map(|name| {
            let hint = strsim_hint(name, known.iter().copied());
            let d = Diagnostic::warning(
                codes::IGNORED_FIELD,
                format!(
                    "node \"{id}\": config field \"{name}\" is not one type \"{type_name}\" reads; its runtime ignores it{hint}"
                ),
            )
            .at(pointer(["nodes", &index.to_string(), "config", name]))
            .on_node(id);
            match closest(name, known.iter().copied()) {
                Some(to) => d.with_fix(fixes::rename_config_field(id, name, to)),
                None => d,
            }
        })
        .collect()
}

/// The property names declared next to the `additionalProperties` (or
/// `unevaluatedProperties`) keyword at `schema_path`, for "did you mean" hints.
fn known_properties(schema: &Value, schema_path: &str) -> Vec<String> {
    let parent = schema_path.rsplit_once('/').map_or("", |(p, _)| p);
    schema
        .pointer(parent)
        .and_then(|s| s.get("properties"))
        .and_then(Value::as_object)
        .map(|props| props.keys().cloned().collect())
        .unwrap_or_default()
}

/// `Some("")` or `Some(": <note>")` when the type is deprecated.
fn deprecation(info: &TypeInfo) -> Option<String> {
    match info.deprecated.as_ref()? {
        Value::Bool(true) => Some(String::new()),
        Value::String(note) if !note.trim().is_empty() => {
            Some(format!(": {}", config_schema::clip(note.trim(), 300)))
        }
        Value::String(_) => Some(String::new()),
        _ => None,
    }
}

/// The config a new node of `type_name` starts with: the type's `defaults`, or `{}` when it
/// has none. `None` when the registry does not know the type. Used only when a node is
/// created (palette drop, `add_node`), never when a document is read.
pub fn defaults_for(registry: &Registry, type_name: &str) -> Option<Map<String, Value>> {
    let node_type = registry.get(type_name)?;
    Some(node_type.info.defaults.as_ref().and_then(Value::as_object).cloned().unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtin;
    use crate::diagnostic::{FixEdit, Severity};
    use crate::model::NodeSpec;
    use serde_json::json;

    fn node(id: &str, t: &str, config: Value) -> NodeSpec {
        NodeSpec {
            id: id.into(),
            type_name: Some(t.into()),
            config: config.as_object().cloned().unwrap_or_default().into(),
        }
    }

    fn spec(nodes: Vec<NodeSpec>) -> GraphSpec {
        GraphSpec { nodes, ..Default::default() }
    }

    #[test]
    fn violations_point_into_the_document() {
        let s = spec(vec![
            node("a", "noop", json!({})),
            node("b", "noop", json!({})),
            node("c", "noop", json!({})),
            node("agent", "llm", json!({"model": "m", "temperature": 3.5, "tools": ["x", 5]})),
        ]);
        let ds = check_configs(&s, &builtin::default_registry());
        let got: Vec<(&str, &str)> = ds.iter().map(|d| (d.code.as_str(), d.pointer.as_str())).collect();
        assert_eq!(
            got,
            [(codes::INVALID, "/nodes/3/config/temperature"), (codes::INVALID, "/nodes/3/config/tools/1")],
            "{ds:#?}"
        );
        assert_eq!(ds[0].message, "node \"agent\": config field \"temperature\" must be at most 2, got 3.5");
        assert_eq!(ds[1].message, "node \"agent\": config field \"tools[1]\" must be a string, not a number");
        assert!(ds.iter().all(|d| d.element == Some(crate::Element::Node { id: "agent".into() })));
        assert!(ds.iter().all(|d| d.severity == Severity::Error));
    }

    #[test]
    fn a_built_in_type_used_otherwise_offers_to_be_described_as_the_document_uses_it() {
        let s = spec(vec![node("think", "llm", json!({"model": "m", "system": "be brief"}))]);
        let ds = check_configs(&s, &builtin::default_registry());
        let unknown =
            ds.iter().find(|d| d.code == codes::UNKNOWN_FIELD).expect("system is not a field of llm");
        let describe = FixEdit::DescribeTypes { types: vec!["llm".into()] };
        assert!(unknown.fixes.iter().any(|f| f.edit == describe), "{:?}", unknown.fixes);
        assert!(ds.iter().all(|d| d.fixes.iter().any(|f| f.edit == describe)), "every finding of the node");

        // The same type from a project registry: that is the user's own definition already.
        let manifest = json!({"types": [{"type": "llm", "config_schema": {
            "type": "object", "properties": {"model": {"type": "string"}}, "additionalProperties": false
        }}]});
        let (manifest, diagnostics) = crate::manifest::parse_manifest(&manifest.to_string(), "project");
        assert!(diagnostics.is_empty(), "{diagnostics:?}");
        let own = manifest.expect("a manifest").to_registry("project");
        let ds = check_configs(&s, &own);
        assert_eq!(ds.len(), 1, "{ds:#?}");
        assert!(
            ds[0].fixes.iter().all(|f| !matches!(f.edit, FixEdit::DescribeTypes { .. })),
            "{:?}",
            ds[0].fixes
        );
    }

    #[test]
    fn missing_and_unknown_fields() {
        let s = spec(vec![node("fetch", "http", json!({"methd": "GET", "headers": {"Accept": 1}}))]);
        let ds = check_configs(&s, &builtin::default_registry());
        let got: Vec<(&str, &str)> = ds.iter().map(|d| (d.code.as_str(), d.pointer.as_str())).collect();
        assert_eq!(got.len(), 3, "{ds:#?}");
        assert!(got.contains(&(codes::MISSING_FIELD, "/nodes/0/config/url")));
        assert!(got.contains(&(codes::UNKNOWN_FIELD, "/nodes/0/config/methd")));
        assert!(got.contains(&(codes::INVALID, "/nodes/0/config/headers/Accept")));
        let unknown = ds.iter().find(|d| d.code == codes::UNKNOWN_FIELD).map(|d| d.message.as_str());
        assert_eq!(
            unknown,
            Some("node \"fetch\": config field \"methd\" is not defined by type \"http\" (did you mean \"method\"?)")
        );
        let missing = ds.iter().find(|d| d.code == codes::MISSING_FIELD).map(|d| d.message.as_str());
        assert_eq!(
            missing,
            Some("node \"fetch\": config is missing the required field \"url\" (type \"http\")")
        );
    }

    #[test]
    fn pointers_escape_keys() {
        let s = spec(vec![node("h", "http", json!({"url": "u", "headers": {"a/b": 3}}))]);
        let ds = check_configs(&s, &builtin::default_registry());
        assert_eq!(ds.len(), 2, "{ds:#?}"); // bad value + bad header name
        assert!(ds.iter().any(|d| d.pointer == "/nodes/0/config/headers/a~1b"));
    }

    #[test]
    fn nodes_without_schemas_or_types_are_skipped() {
        let mut r = Registry::new();
        r.register("coded", |_| crate::registry::Built::NotAFunction("x".into()));
        let s = spec(vec![
            node("x", "coded", json!({"anything": 1})),
            node("y", "ghost", json!({"anything": 1})),
            NodeSpec { id: "z".into(), type_name: None, config: Map::new().into() },
        ]);
        assert!(check_configs(&s, &r).is_empty());
    }

    #[test]
    fn unusable_schema_is_reported_once() {
        let mut r = Registry::new();
        let mut info = TypeInfo::named("bad");
        info.config_schema = Some(json!({"type": "nonsense"}));
        r.describe(info, "code");
        let s = spec(vec![node("a", "bad", json!({})), node("b", "bad", json!({}))]);
        let ds = check_configs(&s, &r);
        assert_eq!(ds.len(), 1);
        assert_eq!(ds[0].code, codes::UNUSABLE_SCHEMA);
        assert_eq!(ds[0].pointer, "/nodes/0/type");
    }

    #[test]
    fn deprecated_types_warn() {
        let mut r = Registry::new();
        let mut info = TypeInfo::named("old");
        info.deprecated = Some(json!("use new"));
        r.describe(info, "m");
        let ds = check_configs(&spec(vec![node("n", "old", json!({}))]), &r);
        assert_eq!(ds.len(), 1);
        assert_eq!(ds[0].code, codes::DEPRECATED_TYPE);
        assert_eq!(ds[0].message, "node \"n\" uses type \"old\", which is deprecated: use new");
    }

    #[test]
    fn floods_are_capped() {
        let mut config = Map::new();
        for i in 0..500 {
            config.insert(format!("junk{i}"), json!(i));
        }
        let s = spec(vec![node("n", "noop", Value::Object(config))]);
        assert_eq!(check_configs(&s, &builtin::default_registry()).len(), MAX_PER_NODE);
    }

    #[test]
    fn ten_thousand_nodes_are_fast() {
        let nodes: Vec<NodeSpec> = (0..10_000)
            .map(|i| match i % 3 {
                0 => node(&format!("n{i}"), "llm", json!({"model": "m", "temperature": 0.5})),
                1 => node(&format!("n{i}"), "http", json!({"url": "https://x", "method": "POST"})),
                _ => node(&format!("n{i}"), "judge", json!({"seat": "gate", "confidence_threshold": 2})),
            })
            .collect();
        let started = std::time::Instant::now();
        let ds = check_configs(&spec(nodes), &builtin::default_registry());
        let took = started.elapsed();
        // Judges miss 3 required fields and have one bad value each.
        assert_eq!(ds.len(), 3333 * 4, "{:?}", &ds[..4]);
        assert!(took < std::time::Duration::from_secs(10), "{took:?}");
    }

    #[test]
    fn defaults_are_for_creation_only() {
        let r = builtin::default_registry();
        assert_eq!(
            defaults_for(&r, "wait"),
            Some(json!({"duration_ms": 1000}).as_object().cloned().unwrap_or_default())
        );
        assert_eq!(defaults_for(&r, "nope"), None);
        // A node with an empty config is not silently given its defaults: it is checked as is.
        let ds = check_configs(&spec(vec![node("w", "wait", json!({}))]), &r);
        assert_eq!(ds[0].code, codes::MISSING_FIELD);
    }
}
