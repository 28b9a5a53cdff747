//! Registry manifests: JSON files that describe node types (title, category, docs, config
//! schema, defaults) so that a builder can offer them without running any code.
//!
//! ```json
//! { "name": "acme", "version": "1.2.0",
//!   "types": [ { "type": "crm_lookup", "title": "CRM lookup", "category": "Tools",
//!                "config_schema": { "type": "object", "properties": { ... } },
//!                "defaults": { ... } } ] }
//! ```
//!
//! Reading is tolerant: every problem is a [`Diagnostic`] pointing into the manifest, and
//! whatever is usable is kept. A type with a broken `config_schema` is kept without the
//! schema (nodes of that type then get no config checks, and the manifest error says why);
//! an entry without a usable `type` name is dropped. Only a manifest whose root is unusable
//! (not JSON, not an object, no `types` list) yields no [`Manifest`].
//!
//! The format itself is described by a JSON Schema generated from [`format::ManifestFormat`]
//! ([`manifest_json_schema`], printed by `trellis schema --registry`).

use std::collections::HashMap;
use std::sync::Arc;

use jsonschema::Validator;
use serde::Serialize;
use serde_json::{Map, Value};

use crate::config_schema::{self, describe, field_label, short, type_phrase, SchemaProblem};
use crate::diagnostic::{pointer, pointer_push, Diagnostic};
use crate::json;
use crate::registry::{Registry, TypeInfo};
use crate::suggest::strsim_hint;

pub use crate::suggest::closest;

/// Codes of the manifest reader. (Schema problems use [`config_schema::codes`].)
pub mod codes {
    /// The manifest's root is not an object, `types` is missing or not a list, or a `types`
    /// entry is not an object.
    pub const MANIFEST_SHAPE: &str = "registry/manifest-shape";
    /// A `types` entry without a `type` name.
    pub const MISSING_TYPE: &str = "registry/missing-type";
    /// A `type` name that is empty, too long, or holds whitespace or control characters.
    pub const BAD_TYPE_NAME: &str = "registry/bad-type-name";
    /// A field with the wrong JSON type (`title` that is not a string, `defaults` that is not
    /// an object, ...). The field is ignored.
    pub const FIELD_TYPE: &str = "registry/field-type";
    /// A field the manifest format does not define (a warning: it is ignored).
    pub const UNKNOWN_FIELD: &str = "registry/unknown-field";
    /// The same type twice in one manifest (the first is kept).
    pub const DUPLICATE_TYPE: &str = "registry/duplicate-type";
    /// `defaults` that do not validate against the type's own `config_schema`.
    pub const INVALID_DEFAULTS: &str = "registry/invalid-defaults";
    /// A `config_schema` that can never accept an object, which every node config is.
    pub const SCHEMA_NOT_OBJECT: &str = "registry/schema-not-object";
}

/// The longest type name accepted (in characters).
pub const MAX_TYPE_NAME: usize = 200;

const MANIFEST_FIELDS: &[&str] = &["$schema", "name", "version", "types"];
const TYPE_FIELDS: &[&str] = &[
    "type",
    "title",
    "category",
    "description",
    "docs",
    "config_schema",
    "defaults",
    "version",
    "deprecated",
    "origin",
];

/// A parsed manifest: its name, version and the types it describes, in file order.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Manifest {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    pub types: Vec<TypeInfo>,
    /// Where each of `types` is in the file's `types` list (parallel to `types`; entries that
    /// were dropped leave gaps), so that later messages can point at a type without the text.
    #[serde(skip)]
    pub entries: Vec<usize>,
}

impl Manifest {
    /// Adds every type to `registry` (metadata only, no factory), tagged with `source` (a
    /// path, or `built-in`). A type already in `registry` is replaced.
    pub fn add_to(&self, registry: &mut Registry, source: &str) {
        for info in &self.types {
            registry.describe(info.clone(), source);
        }
    }

    /// A registry holding just this manifest's types.
    pub fn to_registry(&self, source: &str) -> Registry {
        let mut registry = Registry::new();
        self.add_to(&mut registry, source);
        registry
    }
}

/// Parses manifest text. Diagnostics point into the manifest and carry spans.
/// `source_name` (a file name or `built-in`) is used in messages that need to say which file.
pub fn parse_manifest(text: &str, source_name: &str) -> (Option<Manifest>, Vec<Diagnostic>) {
    let value = match json::parse(text) {
        Ok(v) => v,
        Err(d) => return (None, vec![d]),
    };
    let (manifest, mut diagnostics) = manifest_from_owned(value, source_name);
    json::fill_spans(text, &mut diagnostics);
    (manifest, diagnostics)
}

/// Reads a manifest from an already parsed JSON value (no spans).
pub fn manifest_from_value(value: &Value, source_name: &str) -> (Option<Manifest>, Vec<Diagnostic>) {
    manifest_from_owned(value.clone(), source_name)
}

/// [`manifest_from_value`] taking the value: schemas and defaults move into the manifest
/// instead of being copied (a 50,000-type manifest spent a third of its reading in copies).
pub fn manifest_from_owned(value: Value, source_name: &str) -> (Option<Manifest>, Vec<Diagnostic>) {
    let mut reader =
        Reader { source: source_name, diagnostics: Vec::new(), schemas: HashMap::new(), trusted: false };
    let manifest = reader.manifest(value);
    (manifest, reader.diagnostics)
}

/// The manifest of a text known to be clean (the embedded built-in manifest, which a test
/// reads the checked way and finds without a problem): read without compiling its config
/// schemas or checking its defaults against them, which is most of the cost of every process
/// start that needs a registry (the schemas' regular expressions). For a clean text it is what
/// [`parse_manifest`] gives (test `builtin::tests::the_quick_reading_is_the_checked_one`).
pub(crate) fn parse_trusted_manifest(text: &str, source_name: &str) -> Option<Manifest> {
    let value = json::parse(text).ok()?;
    let mut reader =
        Reader { source: source_name, diagnostics: Vec::new(), schemas: HashMap::new(), trusted: true };
    reader.manifest(value)
}

/// A check result for one schema text: compiled, or its problems.
type Compiled = Result<Arc<Validator>, Arc<Vec<SchemaProblem>>>;

struct Reader<'s> {
    source: &'s str,
    diagnostics: Vec<Diagnostic>,
    /// Compiled schemas by their JSON text: generated manifests repeat the same schema many
    /// times, and compiling once keeps a 50,000-type manifest fast.
    schemas: HashMap<String, Compiled>,
    /// Schemas are taken as they are, not compiled, and defaults not checked against them
    /// ([`parse_trusted_manifest`]).
    trusted: bool,
}

impl Reader<'_> {
    fn manifest(&mut self, value: Value) -> Option<Manifest> {
        let mut root = match value {
            Value::Object(root) => root,
            other => {
                self.diagnostics.push(Diagnostic::error(
                    codes::MANIFEST_SHAPE,
                    format!(
                        "{} is not a registry manifest: expected an object with a \"types\" list, found {}",
                        self.source,
                        type_phrase(&other)
                    ),
                ));
                return None;
            }
        };
        self.unknown_fields(&root, "", MANIFEST_FIELDS, "the manifest");
        let name = self.string_field(&root, "", "name");
        let version = self.string_field(&root, "", "version");
        let _ = self.string_field(&root, "", "$schema");
        let types = match root.remove("types") {
            Some(Value::Array(items)) => items,
            Some(other) => {
                self.diagnostics.push(
                    Diagnostic::error(
                        codes::MANIFEST_SHAPE,
                        format!("\"types\" must be a list of type descriptions, not {}", type_phrase(&other)),
                    )
                    .at("/types"),
                );
                return None;
            }
            None => {
                self.diagnostics.push(Diagnostic::error(
                    codes::MANIFEST_SHAPE,
                    format!(
                        "{} has no \"types\" list (the smallest manifest is {{\"types\": []}})",
                        self.source
                    ),
                ));
                return None;
            }
        };
        let mut out: Vec<TypeInfo> = Vec::with_capacity(types.len());
        let mut entries: Vec<usize> = Vec::with_capacity(types.len());
        // Type name -> index in the file of its first definition.
        let mut seen: HashMap<String, usize> = HashMap::with_capacity(types.len());
        for (i, entry) in types.into_iter().enumerate() {
            let at = pointer(["types", &i.to_string()]);
            let Some(info) = self.type_entry(entry, &at) else { continue };
            if let Some(first) = seen.get(&info.type_name) {
                self.diagnostics.push(
                    Diagnostic::error(
                        codes::DUPLICATE_TYPE,
                        format!(
                            "type \"{}\" is defined twice in {} (types[{first}] and types[{i}]); the first is used",
                            info.type_name, self.source
                        ),
                    )
                    .at(pointer_push(&at, "type")),
                );
                continue;
            }
            seen.insert(info.type_name.clone(), i);
            out.push(info);
            entries.push(i);
        }
        Some(Manifest { name, version, types: out, entries })
    }

    fn type_entry(&mut self, entry: Value, at: &str) -> Option<TypeInfo> {
        let mut obj = match entry {
            Value::Object(obj) => obj,
            other => {
                self.diagnostics.push(
                    Diagnostic::error(
                        codes::MANIFEST_SHAPE,
                        format!("a type description must be an object, not {}", type_phrase(&other)),
                    )
                    .at(at),
                );
                return None;
            }
        };
        let type_name = match obj.get("type") {
            None => {
                self.diagnostics.push(
                    Diagnostic::error(codes::MISSING_TYPE, "this type description has no \"type\" name")
                        .at(at),
                );
                return None;
            }
            Some(Value::String(s)) => s.clone(),
            Some(other) => {
                self.diagnostics.push(
                    Diagnostic::error(
                        codes::BAD_TYPE_NAME,
                        format!("\"type\" must be a string, not {}", type_phrase(other)),
                    )
                    .at(pointer_push(at, "type")),
                );
                return None;
            }
        };
        if let Some(problem) = type_name_problem(&type_name) {
            self.diagnostics.push(
                Diagnostic::error(
                    codes::BAD_TYPE_NAME,
                    format!("type name {}: {problem}", short(&Value::String(type_name))),
                )
                .at(pointer_push(at, "type")),
            );
            return None;
        }
        let what = format!("type \"{type_name}\"");
        self.unknown_fields(&obj, at, TYPE_FIELDS, &what);
        let mut info = TypeInfo::named(type_name.clone());
        info.title = self.string_field(&obj, at, "title");
        info.category = self.string_field(&obj, at, "category");
        info.description = self.string_field(&obj, at, "description");
        info.docs = self.string_field(&obj, at, "docs");
        info.version = self.string_field(&obj, at, "version");
        info.deprecated = match obj.remove("deprecated") {
            None => None,
            Some(v @ (Value::Bool(_) | Value::String(_))) => Some(v),
            Some(other) => {
                self.field_type(
                    at,
                    "deprecated",
                    "true, false or a sentence saying what to use instead",
                    &other,
                );
                None
            }
        };
        info.origin = match obj.remove("origin") {
            None => None,
            Some(v) => match serde_json::from_value::<crate::registry::TypeOrigin>(v) {
                Ok(origin) => Some(origin),
                Err(e) => {
                    self.diagnostics.push(
                        Diagnostic::error(
                            codes::FIELD_TYPE,
                            format!(
                                "\"origin\" must be {{\"kind\": \"runtime\", \"runtime\": ..., \"version\": ...}} or \
                                 {{\"kind\": \"example\"}} ({e}); it is ignored"
                            ),
                        )
                        .at(pointer_push(at, "origin")),
                    );
                    None
                }
            },
        };
        info.defaults = match obj.remove("defaults") {
            None => None,
            Some(v @ Value::Object(_)) => Some(v),
            Some(other) => {
                self.field_type(at, "defaults", "an object (a node's starting config)", &other);
                None
            }
        };
        let schema = obj.remove("config_schema");
        if self.trusted {
            info.config_schema = schema;
            return Some(info);
        }
        let usable = match &schema {
            None => false,
            // Nothing to check or compile: such a schema is valid, and every config and every
            // `defaults` (an object, above) satisfies it. The config checks skip it too
            // (`config_check`). Compiling any schema first makes the JSON Schema meta-schema's
            // own validator, once per process: a large share of `trellis validate` of a document
            // whose registry gives `{"type": "object"}`.
            Some(schema) if config_schema::accepts_every_object(schema) => true,
            Some(schema) => match self.config_schema(&type_name, schema, at) {
                Some(validator) => {
                    if let Some(defaults) = &info.defaults {
                        self.check_defaults(&type_name, &validator, defaults, at);
                    }
                    true
                }
                None => false,
            },
        };
        if usable {
            info.config_schema = schema;
        }
        Some(info)
    }

    /// Checks a config schema; returns its compiled validator when it is usable.
    fn config_schema(&mut self, type_name: &str, schema: &Value, at: &str) -> Option<Arc<Validator>> {
        let schema_at = pointer_push(at, "config_schema");
        let key = serde_json::to_string(schema).unwrap_or_default();
        let compiled = self
            .schemas
            .entry(key)
            .or_insert_with(|| config_schema::compile(schema).map(Arc::new).map_err(Arc::new))
            .clone();
        match compiled {
            Ok(validator) => {
                if let Some(problem) = object_problem(schema) {
                    self.diagnostics.push(
                        Diagnostic::error(
                            codes::SCHEMA_NOT_OBJECT,
                            format!("type \"{type_name}\": config_schema {problem}, but a node's config is always an object"),
                        )
                        .at(schema_at),
                    );
                    return None;
                }
                Some(validator)
            }
            Err(problems) => {
                for p in problems.iter() {
                    self.diagnostics.push(
                        Diagnostic::error(
                            p.code,
                            format!("type \"{type_name}\": config_schema: {}", p.message),
                        )
                        .at(format!("{schema_at}{}", p.pointer)),
                    );
                }
                None
            }
        }
    }

    fn check_defaults(&mut self, type_name: &str, validator: &Validator, defaults: &Value, at: &str) {
        let defaults_at = pointer_push(at, "defaults");
        for e in validator.iter_errors(defaults).take(20) {
            let place = e.instance_path().as_str();
            let label = field_label(defaults, place);
            let what = if label.is_empty() { "defaults".to_owned() } else { format!("default \"{label}\"") };
            self.diagnostics.push(
                Diagnostic::error(
                    codes::INVALID_DEFAULTS,
                    format!("type \"{type_name}\": {what} {} (defaults must satisfy the type's own config_schema)", describe(&e)),
                )
                .at(format!("{defaults_at}{place}")),
            );
        }
    }

    fn string_field(&mut self, obj: &Map<String, Value>, at: &str, key: &str) -> Option<String> {
        match obj.get(key) {
            None => None,
            Some(Value::String(s)) => Some(s.clone()),
            Some(other) => {
                self.field_type(at, key, "a string", other);
                None
            }
        }
    }

    fn field_type(&mut self, at: &str, key: &str, expected: &str, found: &Value) {
        self.diagnostics.push(
            Diagnostic::error(
                codes::FIELD_TYPE,
                format!("\"{key}\" must be {expected}, not {}; it is ignored", type_phrase(found)),
            )
            .at(pointer_push(at, key)),
        );
    }

    fn unknown_fields(&mut self, obj: &Map<String, Value>, at: &str, known: &[&str], what: &str) {
        for key in obj.keys().filter(|k| !known.contains(&k.as_str())) {
            let hint = strsim_hint(key, known.iter().copied());
            self.diagnostics.push(
                Diagnostic::warning(
                    codes::UNKNOWN_FIELD,
                    format!(
                        "{what} has an unknown field \"{}\"{hint}; it is ignored",
                        config_schema::clip(key, 80)
                    ),
                )
                .at(pointer_push(at, key)),
            );
        }
    }
}

/// Why a type name is not acceptable, if it is not.
pub fn type_name_problem(name: &str) -> Option<&'static str> {
    if name.is_empty() {
        Some("must not be empty")
    } else if name.chars().count() > MAX_TYPE_NAME {
        Some("is longer than 200 characters")
    } else if name.chars().any(|c| c.is_whitespace() || c.is_control()) {
        Some("must not contain spaces or control characters")
    } else {
        None
    }
}

/// Why a schema that compiles can never accept an object, if it cannot (checked on its root
/// `type` only: deeper contradictions are the schema author's business).
fn object_problem(schema: &Value) -> Option<String> {
    match schema {
        Value::Bool(false) => Some("is false (it accepts nothing)".to_owned()),
        Value::Object(map) => match map.get("type") {
            Some(Value::String(t)) if t != "object" => Some(format!("has type \"{t}\"")),
            Some(Value::Array(ts)) if !ts.iter().any(|t| t == "object") => {
                Some(format!("has type {}", short(&Value::Array(ts.clone()))))
            }
            _ => None,
        },
        _ => None,
    }
}

/// The JSON Schema of the manifest format (2020-12), generated from [`format::ManifestFormat`].
pub fn manifest_json_schema() -> Value {
    let schema = schemars::schema_for!(format::ManifestFormat);
    serde_json::to_value(schema).unwrap_or(Value::Null)
}

/// Rust types that exist to generate the manifest format's JSON Schema with `schemars` (the
/// reader above is hand-written because it must report every problem with a pointer, keep
/// going, and never panic). A test checks that these and [`TypeInfo`] agree on field names.
/// Optional fields are generated with their plain type (`with = ...`): the reader refuses
/// `null` for them, so the schema must not allow it either.
pub mod format {
    use schemars::JsonSchema;
    use serde::{Deserialize, Serialize};
    use serde_json::{Map, Value};

    /// A Trellis registry manifest: node types a graph builder can offer, with their
    /// documentation, config schema and defaults. Files are named `*.registry.json`.
    #[derive(Debug, Serialize, Deserialize, JsonSchema)]
    #[serde(deny_unknown_fields)]
    #[schemars(title = "Trellis registry manifest")]
    pub struct ManifestFormat {
        /// The JSON Schema of this file, for editors. Ignored by Trellis.
        #[serde(rename = "$schema", default, skip_serializing_if = "Option::is_none")]
        #[schemars(with = "String")]
        pub schema: Option<String>,
        /// A name for the registry (shown in the registry browser).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schemars(with = "String")]
        pub name: Option<String>,
        /// The registry's version.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schemars(with = "String")]
        pub version: Option<String>,
        /// The node types, in the order the registry browser lists them.
        pub types: Vec<TypeFormat>,
    }

    /// One node type.
    #[derive(Debug, Serialize, Deserialize, JsonSchema)]
    #[serde(deny_unknown_fields)]
    pub struct TypeFormat {
        /// The type name a document stores in `nodes[].type`. No spaces or control characters.
        #[serde(rename = "type")]
        #[schemars(length(min = 1, max = 200), pattern(r"^\S+$"))]
        pub type_name: String,
        /// A short human name ("LLM call").
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schemars(with = "String")]
        pub title: Option<String>,
        /// The palette group ("Model", "Tools", "Control", "State", "Human", "Memory", ...).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schemars(with = "String")]
        pub category: Option<String>,
        /// One sentence saying what a node of this type does.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schemars(with = "String")]
        pub description: Option<String>,
        /// Documentation in Markdown.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schemars(with = "String")]
        pub docs: Option<String>,
        /// A JSON Schema (2020-12 unless `$schema` names another bundled draft) for the node's
        /// `config` object. Must be self-contained: only `#...` references; nothing is fetched.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schemars(schema_with = "schema_or_bool")]
        pub config_schema: Option<Value>,
        /// The config a newly created node starts with. Must satisfy `config_schema`. Never
        /// applied to nodes read from a file.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schemars(with = "Map<String, Value>")]
        pub defaults: Option<Map<String, Value>>,
        /// The type's version.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schemars(with = "String")]
        pub version: Option<String>,
        /// `true`, or a sentence saying what to use instead.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schemars(with = "Deprecated")]
        pub deprecated: Option<Deprecated>,
        /// Who defines the type: a runtime's package at a version, or Trellis's own example.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[schemars(with = "crate::registry::TypeOrigin")]
        pub origin: Option<crate::registry::TypeOrigin>,
    }

    /// `true`/`false`, or a sentence saying what to use instead.
    #[derive(Debug, Serialize, Deserialize, JsonSchema)]
    #[serde(untagged)]
    pub enum Deprecated {
        Flag(bool),
        Note(String),
    }

    fn schema_or_bool(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "description": "A JSON Schema for the node's config (an object or a boolean schema).",
            "type": ["object", "boolean"]
        })
    }
}

#[cfg(test)]
mod tests;
