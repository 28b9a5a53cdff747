//! JSON Schema handling for node-type config schemas, shared by the manifest reader (which
//! checks that a schema is usable) and the config checker (which validates node configs).
//!
//! Three rules keep this safe on hostile input:
//! - a schema is compiled **offline**: no reference is ever fetched (the `jsonschema` crate is
//!   built without its HTTP and file resolvers, and the retriever refuses every URI);
//! - a `$ref` that leaves the document is reported before compiling, with a pointer to it;
//! - only the JSON Schema dialects the library bundles are accepted (`$schema` naming anything
//!   else would need a download).
//!
//! Messages are written here rather than taken from the library's `Display`, which quotes
//! whole instance values (a 1 MB string would end up in a message).

use std::fmt::Write as _;

use jsonschema::error::{TypeKind, ValidationErrorKind};
use jsonschema::{Draft, ValidationError, Validator};
use serde_json::Value;

use crate::diagnostic::pointer_push;

/// Codes of the schema checks (reported by [`crate::manifest`]).
pub mod codes {
    /// A `config_schema` that is not a valid JSON Schema (fails the meta-schema or does not
    /// compile: an unknown `type`, a bad regular expression, a dangling local `$ref`, ...).
    pub const INVALID_SCHEMA: &str = "registry/invalid-schema";
    /// A `$ref` (or `$dynamicRef`) that points outside the schema document. It is never
    /// fetched: a manifest must be self-contained.
    pub const EXTERNAL_REF: &str = "registry/external-ref";
    /// `$schema` names a dialect other than the bundled JSON Schema drafts.
    pub const UNKNOWN_DIALECT: &str = "registry/unknown-dialect";
}

/// One problem with a schema, placed by a pointer relative to the schema's root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaProblem {
    pub code: &'static str,
    /// RFC 6901 pointer inside the schema ("" is the schema itself).
    pub pointer: String,
    pub message: String,
}

/// Dialect URIs accepted in `$schema` (the drafts bundled with the validator).
pub const KNOWN_DIALECTS: &[&str] = &[
    "https://json-schema.org/draft/2020-12/schema",
    "https://json-schema.org/draft/2019-09/schema",
    "http://json-schema.org/draft-07/schema",
    "http://json-schema.org/draft-06/schema",
    "http://json-schema.org/draft-04/schema",
];

/// Checks that `schema` is a usable, self-contained JSON Schema and compiles it.
///
/// The default dialect is 2020-12; `$schema` may name another bundled draft.
pub fn compile(schema: &Value) -> Result<Validator, Vec<SchemaProblem>> {
    let mut problems = Vec::new();
    if !schema.is_object() && !schema.is_boolean() {
        problems.push(SchemaProblem {
            code: codes::INVALID_SCHEMA,
            pointer: String::new(),
            message: format!("a schema must be an object or a boolean, not {}", type_phrase(schema)),
        });
        return Err(problems);
    }
    if let Some(dialect) = schema.get("$schema") {
        let known = dialect.is_string() && Draft::default().detect(schema) != Draft::Unknown;
        if !known {
            problems.push(SchemaProblem {
                code: codes::UNKNOWN_DIALECT,
                pointer: "/$schema".into(),
                message: format!(
                    "\"$schema\" is {}, which is not a bundled JSON Schema dialect (use one of {}); \
                     it is never downloaded",
                    short(dialect),
                    KNOWN_DIALECTS.join(", ")
                ),
            });
            return Err(problems);
        }
    }
    external_refs(schema, &mut problems);
    if !problems.is_empty() {
        return Err(problems);
    }
    if schema.is_object() {
        // The dialect was checked above, so this picks a bundled meta-schema and never fetches.
        match jsonschema::meta::validator_for(schema) {
            Ok(meta) => {
                for e in meta.iter_errors(schema) {
                    problems.push(SchemaProblem {
                        code: codes::INVALID_SCHEMA,
                        pointer: e.instance_path().as_str().to_owned(),
                        message: format!("not a valid JSON Schema: {}", meta_message(&e)),
                    });
                }
            }
            Err(e) => problems.push(SchemaProblem {
                code: codes::INVALID_SCHEMA,
                pointer: String::new(),
                message: format!("not a valid JSON Schema: {}", clip(&e.to_string(), 300)),
            }),
        }
        if !problems.is_empty() {
            problems.truncate(MAX_PROBLEMS);
            return Err(problems);
        }
    }
    jsonschema::options().offline().build(schema).map_err(|e| {
        vec![SchemaProblem {
            code: codes::INVALID_SCHEMA,
            pointer: compile_error_pointer(schema, &e),
            message: format!("the schema does not compile: {}", clip(&e.to_string(), 300)),
        }]
    })
}

/// Whether every object is valid against `schema`, decided without compiling it: `true`, `{}`,
/// or an object whose keywords are only `"type": "object"` and annotations that never make a
/// validation fail (`title`, `description`, `$comment` as strings, `examples` as an array,
/// `default`). Anything else (another keyword, an annotation of the wrong kind that the
/// meta-schema would refuse, `$schema`) answers `false` and goes through [`compile`].
pub fn accepts_every_object(schema: &Value) -> bool {
    match schema {
        Value::Bool(accepts) => *accepts,
        Value::Object(keywords) => keywords.iter().all(|(key, v)| match key.as_str() {
            "type" => v.as_str() == Some("object"),
            "title" | "description" | "$comment" => v.is_string(),
            "examples" => v.is_array(),
            "default" => true,
            _ => false,
        }),
        _ => false,
    }
}

/// At most this many problems are reported per schema (a generated schema can be wrong in
/// thousands of places; the first few say enough).
const MAX_PROBLEMS: usize = 20;

/// Keywords whose values are data, not subschemas: a `$ref` key inside them is not a reference.
const DATA_KEYWORDS: &[&str] = &["const", "enum", "default", "examples"];

/// Reports every `$ref`/`$dynamicRef`/`$recursiveRef` whose target is not in this document.
/// Iterative (schemas are bounded by the JSON depth limit anyway, but this never recurses).
fn external_refs(schema: &Value, problems: &mut Vec<SchemaProblem>) {
    let mut stack: Vec<(&Value, String)> = vec![(schema, String::new())];
    while let Some((value, at)) = stack.pop() {
        match value {
            Value::Object(map) => {
                for (key, child) in map {
                    let here = pointer_push(&at, key);
                    let is_ref = matches!(key.as_str(), "$ref" | "$dynamicRef" | "$recursiveRef");
                    if let (true, Some(target)) = (is_ref, child.as_str()) {
                        if !target.starts_with('#') && problems.len() < MAX_PROBLEMS {
                            problems.push(SchemaProblem {
                                code: codes::EXTERNAL_REF,
                                pointer: here.clone(),
                                message: format!(
                                    "{key} \"{}\" points outside this schema; references are never \
                                     fetched, so only same-document references (\"#/$defs/...\") are allowed",
                                    clip(target, 200)
                                ),
                            });
                        }
                    }
                    if !DATA_KEYWORDS.contains(&key.as_str()) {
                        stack.push((child, here));
                    }
                }
            }
            Value::Array(items) => {
                for (i, child) in items.iter().enumerate() {
                    stack.push((child, pointer_push(&at, &i.to_string())));
                }
            }
            _ => {}
        }
    }
    // The walk is depth-first from the end; report in document order.
    problems.sort_by(|a, b| a.pointer.cmp(&b.pointer));
}

/// The JSON types a `type` keyword may name.
const JSON_TYPES: &[&str] = &["array", "boolean", "integer", "null", "number", "object", "string"];

/// A message for a meta-schema violation (the "instance" is the schema being checked), naming
/// the keyword at fault; the pointer says where it is.
fn meta_message(e: &ValidationError<'_>) -> String {
    let segments = crate::diagnostic::pointer_segments(e.instance_path().as_str());
    let keyword = segments.last().map(String::as_str);
    let value = e.instance();
    // The commonest mistake: a misspelt type name, which the meta-schema reports as "matches
    // none of anyOf[simpleTypes, array of simpleTypes]".
    let in_type = keyword == Some("type") || segments.iter().rev().nth(1).is_some_and(|s| s == "type");
    if in_type {
        if let Some(name) = value.as_str() {
            let hint = crate::suggest::strsim_hint(name, JSON_TYPES.iter().copied());
            return format!(
                "\"{}\" is not a JSON type{hint}; use one of {}",
                clip(name, 80),
                JSON_TYPES.join(", ")
            );
        }
    }
    match keyword {
        Some(k) => format!("\"{}\" {}", clip(k, 80), describe(e)),
        None => format!("the schema {}", describe(e)),
    }
}

/// Where a compile error is: the `$ref` whose target is named in the error message (a
/// dangling reference), else the schema root.
fn compile_error_pointer(schema: &Value, e: &ValidationError<'_>) -> String {
    let at = e.instance_path().as_str();
    if !at.is_empty() {
        return at.to_owned();
    }
    let message = e.to_string();
    let mut stack: Vec<(&Value, String)> = vec![(schema, String::new())];
    while let Some((value, here)) = stack.pop() {
        match value {
            Value::Object(map) => {
                for (key, child) in map {
                    let child_at = pointer_push(&here, key);
                    if matches!(key.as_str(), "$ref" | "$dynamicRef") {
                        if let Some(fragment) = child.as_str().and_then(|t| t.strip_prefix('#')) {
                            if !fragment.is_empty() && message.contains(fragment) {
                                return child_at;
                            }
                        }
                    }
                    if !DATA_KEYWORDS.contains(&key.as_str()) {
                        stack.push((child, child_at));
                    }
                }
            }
            Value::Array(items) => {
                for (i, child) in items.iter().enumerate() {
                    stack.push((child, pointer_push(&here, &i.to_string())));
                }
            }
            _ => {}
        }
    }
    String::new()
}

/// What is wrong with the value an error is about, as a predicate: "must be at most 2, got 3".
/// The caller says what the value is ("config field \"temperature\"").
pub fn describe(e: &ValidationError<'_>) -> String {
    let v = e.instance();
    match e.kind() {
        ValidationErrorKind::Type { kind } => {
            let expected: Vec<String> = match kind {
                TypeKind::Single(t) => vec![t.to_string()],
                TypeKind::Multiple(set) => set.iter().map(|t| t.to_string()).collect(),
            };
            let expected: Vec<String> = expected.iter().map(|t| with_article(t)).collect();
            format!("must be {}, not {}", expected.join(" or "), type_phrase(v))
        }
        ValidationErrorKind::Required { property } => {
            format!("is missing the required field {}", short(property))
        }
        ValidationErrorKind::AdditionalProperties { unexpected }
        | ValidationErrorKind::UnevaluatedProperties { unexpected } => {
            let names: Vec<String> = unexpected.iter().map(|u| format!("\"{}\"", clip(u, 80))).collect();
            format!("has fields that are not allowed: {}", names.join(", "))
        }
        ValidationErrorKind::Maximum { limit } => format!("must be at most {limit}, got {}", short(v)),
        ValidationErrorKind::ExclusiveMaximum { limit } => {
            format!("must be less than {limit}, got {}", short(v))
        }
        ValidationErrorKind::Minimum { limit } => format!("must be at least {limit}, got {}", short(v)),
        ValidationErrorKind::ExclusiveMinimum { limit } => {
            format!("must be greater than {limit}, got {}", short(v))
        }
        ValidationErrorKind::MultipleOf { multiple_of } => {
            format!("must be a multiple of {multiple_of}, got {}", short(v))
        }
        ValidationErrorKind::MinLength { limit: 1 } => "must not be empty".to_owned(),
        ValidationErrorKind::MinLength { limit } => format!(
            "must be at least {limit} characters long, got {}",
            v.as_str().map_or(0, |s| s.chars().count())
        ),
        ValidationErrorKind::MaxLength { limit } => format!(
            "must be at most {limit} characters long, got {}",
            v.as_str().map_or(0, |s| s.chars().count())
        ),
        ValidationErrorKind::MinItems { limit } => {
            format!(
                "must have at least {limit} item{}, got {}",
                plural(*limit),
                v.as_array().map_or(0, Vec::len)
            )
        }
        ValidationErrorKind::MaxItems { limit } => {
            format!(
                "must have at most {limit} item{}, got {}",
                plural(*limit),
                v.as_array().map_or(0, Vec::len)
            )
        }
        ValidationErrorKind::MinProperties { limit } => format!(
            "must have at least {limit} field{}, got {}",
            plural(*limit),
            v.as_object().map_or(0, serde_json::Map::len)
        ),
        ValidationErrorKind::MaxProperties { limit } => format!(
            "must have at most {limit} field{}, got {}",
            plural(*limit),
            v.as_object().map_or(0, serde_json::Map::len)
        ),
        ValidationErrorKind::Enum { options } => {
            format!("must be one of {}, got {}", list_values(options), short(v))
        }
        ValidationErrorKind::Constant { expected_value } => {
            format!("must be {}, got {}", short(expected_value), short(v))
        }
        ValidationErrorKind::Pattern { pattern } => {
            format!("{} does not match the pattern {}", short(v), clip(pattern, 120))
        }
        ValidationErrorKind::Format { format } => format!("{} is not a valid {format}", short(v)),
        ValidationErrorKind::UniqueItems => "must not contain the same item twice".to_owned(),
        ValidationErrorKind::AnyOf { .. } | ValidationErrorKind::OneOfNotValid { .. } => {
            format!("{} does not match any of the allowed forms", short(v))
        }
        ValidationErrorKind::OneOfMultipleValid { .. } => {
            format!("{} matches more than one of the allowed forms", short(v))
        }
        ValidationErrorKind::Not { .. } => format!("{} is a value that is explicitly excluded", short(v)),
        ValidationErrorKind::FalseSchema => "is not allowed here".to_owned(),
        ValidationErrorKind::Contains => "must contain at least one matching item".to_owned(),
        ValidationErrorKind::AdditionalItems { limit } => {
            format!("must have at most {limit} item{}", plural(*limit as u64))
        }
        ValidationErrorKind::UnevaluatedItems { .. } => "has items that are not allowed".to_owned(),
        ValidationErrorKind::PropertyNames { error } => {
            format!("has a key that is not allowed: {}", describe(error))
        }
        _ => clip(&e.to_string(), 300),
    }
}

/// A label for a place inside `root` given by a pointer: `temperature`, `headers.Accept`,
/// `tools[0]`. Array indices are told apart from keys by looking at the value.
pub fn field_label(root: &Value, pointer: &str) -> String {
    let mut out = String::new();
    let mut node = Some(root);
    for seg in crate::diagnostic::pointer_segments(pointer) {
        match node {
            Some(Value::Array(items)) => {
                let _ = write!(out, "[{seg}]");
                node = seg.parse::<usize>().ok().and_then(|i| items.get(i));
            }
            other => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(&clip(&seg, 80));
                node = other.and_then(|v| v.get(&seg));
            }
        }
    }
    out
}

fn plural(n: u64) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

fn with_article(t: &str) -> String {
    match t {
        "null" => "null".to_owned(),
        "object" | "array" | "integer" => format!("an {t}"),
        _ => format!("a {t}"),
    }
}

/// "a string", "an array", "null", ...
pub fn type_phrase(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// A value as JSON text, cut short for messages.
pub fn short(v: &Value) -> String {
    match v {
        Value::Array(a) if a.len() > 8 => format!("an array of {} items", a.len()),
        Value::Object(o) if o.len() > 8 => format!("an object with {} fields", o.len()),
        _ => clip(&serde_json::to_string(v).unwrap_or_default(), 80),
    }
}

fn list_values(options: &Value) -> String {
    match options.as_array() {
        Some(items) if items.len() <= 12 => items.iter().map(short).collect::<Vec<_>>().join(", "),
        Some(items) => format!(
            "{}, ... ({} values)",
            items.iter().take(10).map(short).collect::<Vec<_>>().join(", "),
            items.len()
        ),
        None => short(options),
    }
}

/// Cuts `s` to at most `max` characters, marking the cut.
pub fn clip(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_owned();
    }
    let mut out: String = s.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::time::{Duration, Instant};

    fn problems(schema: Value) -> Vec<SchemaProblem> {
        compile(&schema).err().unwrap_or_default()
    }

    #[test]
    fn every_object_shortcut_agrees_with_the_validator() {
        let objects = [json!({}), json!({"a": 1, "b": [1, "x"]}), json!({"type": null})];
        let trivial = [
            json!(true),
            json!({}),
            json!({"type": "object"}),
            json!({"type": "object", "title": "T", "description": "d", "$comment": "c", "examples": [{}], "default": {}}),
        ];
        for schema in &trivial {
            assert!(accepts_every_object(schema), "{schema}");
            let v = compile(schema).unwrap_or_else(|p| panic!("{schema}: {p:?}"));
            assert!(objects.iter().all(|o| v.is_valid(o)), "{schema}");
        }
        // Anything that constrains, or that compile would refuse, is not decided here.
        let not_trivial = [
            json!(false),
            json!({"type": "object", "required": ["a"]}),
            json!({"type": "object", "properties": {"a": {"type": "string"}}}),
            json!({"type": ["object", "null"]}),
            json!({"type": "string"}),
            json!({"title": 5}),
            json!({"$schema": "https://example.com/mine"}),
            json!({"additionalProperties": false}),
            json!(5),
        ];
        for schema in &not_trivial {
            assert!(!accepts_every_object(schema), "{schema}");
        }
        // The one that constrains really does refuse some object.
        let v = compile(&not_trivial[1]).unwrap_or_else(|p| panic!("{p:?}"));
        assert!(!v.is_valid(&objects[0]));
        assert!(compile(&not_trivial[5]).is_err());
    }

    #[test]
    fn good_schemas_compile() {
        assert!(compile(&json!({"type": "object", "properties": {"a": {"type": "string"}}})).is_ok());
        assert!(compile(&json!(true)).is_ok());
        assert!(
            compile(&json!({"$schema": "http://json-schema.org/draft-07/schema#", "type": "object"})).is_ok()
        );
        assert!(compile(
            &json!({"$defs": {"x": {"type": "integer"}}, "properties": {"a": {"$ref": "#/$defs/x"}}})
        )
        .is_ok());
    }

    #[test]
    fn meta_schema_violations_are_placed() {
        let p = problems(json!({"type": "object", "properties": {"t": {"type": "strnig"}}}));
        assert_eq!(p.len(), 1, "{p:?}");
        assert_eq!(p[0].code, codes::INVALID_SCHEMA);
        assert_eq!(p[0].pointer, "/properties/t/type");
        assert!(
            p[0].message.contains("\"strnig\" is not a JSON type (did you mean \"string\"?)"),
            "{}",
            p[0].message
        );
        let p = problems(json!({"minimum": "zero"}));
        assert_eq!(p[0].pointer, "/minimum");
        assert!(p[0].message.contains("must be a number"), "{}", p[0].message);
        let p = problems(json!(3));
        assert_eq!(p[0].message, "a schema must be an object or a boolean, not a number");
    }

    #[test]
    fn bad_regex_does_not_compile() {
        let p = problems(json!({"properties": {"a": {"type": "string", "pattern": "(unclosed"}}}));
        assert_eq!(p.len(), 1, "{p:?}");
        assert_eq!(p[0].code, codes::INVALID_SCHEMA);
    }

    #[test]
    fn dangling_local_ref_does_not_compile() {
        let p = problems(json!({"properties": {"a": {"$ref": "#/$defs/missing"}}}));
        assert_eq!(p.len(), 1, "{p:?}");
        assert_eq!(p[0].code, codes::INVALID_SCHEMA);
        assert_eq!(p[0].pointer, "/properties/a/$ref");
    }

    #[test]
    fn remote_refs_are_reported_and_never_fetched() {
        let started = Instant::now();
        let p = problems(json!({"properties": {
            "a": {"$ref": "https://example.com/x.json"},
            "b": {"$ref": "other.json#/x"},
            "c": {"const": {"$ref": "https://example.com/data-not-a-ref"}}
        }}));
        assert!(started.elapsed() < Duration::from_secs(2));
        let pointers: Vec<_> = p.iter().map(|p| p.pointer.as_str()).collect();
        assert_eq!(pointers, ["/properties/a/$ref", "/properties/b/$ref"]);
        assert!(p.iter().all(|p| p.code == codes::EXTERNAL_REF));
        assert!(p[0].message.contains("https://example.com/x.json"), "{}", p[0].message);
    }

    #[test]
    fn id_based_remote_resolution_is_refused_offline() {
        // `$id` makes "#..." resolve against example.com; nothing outside is fetched.
        let started = Instant::now();
        let p = problems(json!({"$id": "https://example.com/root.json", "$ref": "#/$defs/none"}));
        assert!(started.elapsed() < Duration::from_secs(2));
        assert_eq!(p.len(), 1);
    }

    #[test]
    fn unknown_dialects_are_refused() {
        let p = problems(json!({"$schema": "https://example.com/my-dialect"}));
        assert_eq!(p[0].code, codes::UNKNOWN_DIALECT);
        assert_eq!(p[0].pointer, "/$schema");
        let p = problems(json!({"$schema": 7}));
        assert_eq!(p[0].code, codes::UNKNOWN_DIALECT);
    }

    #[test]
    fn labels_tell_indices_from_keys() {
        let v = json!({"tools": ["a", "b"], "headers": {"0": "x"}});
        assert_eq!(field_label(&v, "/tools/1"), "tools[1]");
        assert_eq!(field_label(&v, "/headers/0"), "headers.0");
        assert_eq!(field_label(&v, ""), "");
    }

    #[test]
    fn messages_are_short_for_huge_values() {
        let validator = compile(
            &json!({"type": "object", "properties": {"a": {"maxLength": 2}, "b": {"type": "integer"}}}),
        )
        .unwrap_or_else(|p| panic!("{p:?}"));
        let big = "x".repeat(1_000_000);
        let instance = json!({"a": big, "b": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]});
        let messages: Vec<String> = validator.iter_errors(&instance).map(|e| describe(&e)).collect();
        assert!(messages.iter().all(|m| m.len() < 200), "{messages:?}");
        assert!(
            messages.contains(&"must be at most 2 characters long, got 1000000".to_owned()),
            "{messages:?}"
        );
        assert!(messages.contains(&"must be an integer, not an array".to_owned()), "{messages:?}");
    }
}
