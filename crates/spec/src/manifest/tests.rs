use super::*;
use crate::diagnostic::Severity;
use serde_json::json;

fn read(v: Value) -> (Option<Manifest>, Vec<Diagnostic>) {
    manifest_from_value(&v, "test.registry.json")
}

#[test]
fn the_minimal_manifest_is_valid() {
    let (m, ds) = parse_manifest(r#"{"types":[{"type":"noop"}]}"#, "m");
    assert!(ds.is_empty(), "{ds:?}");
    let m = m.unwrap_or_default();
    assert_eq!(m.types, vec![TypeInfo::named("noop")]);
    let r = m.to_registry("m");
    assert_eq!(r.get("noop").map(|t| t.source.as_str()), Some("m"));
    assert!(r.get("noop").is_some_and(|t| t.factory.is_none()));
}

#[test]
fn unusable_roots_yield_no_manifest() {
    for v in [json!([]), json!({}), json!({"types": {}})] {
        let (m, ds) = read(v.clone());
        assert!(m.is_none(), "{v}");
        assert_eq!(ds.len(), 1);
        assert_eq!(ds[0].code, codes::MANIFEST_SHAPE);
    }
    let (m, ds) = parse_manifest("{\"types\": [", "m");
    assert!(m.is_none());
    assert_eq!(ds[0].code, json::codes::SYNTAX);
}

#[test]
fn broken_entries_are_reported_and_the_rest_kept() {
    let (m, ds) = read(json!({"types": [
        {"type": "a", "title": 3, "colour": "red"},
        7,
        {"title": "nameless"},
        {"type": "has space"},
        {"type": "a"},
        {"type": "b", "deprecated": "use c", "defaults": []}
    ]}));
    let names: Vec<_> = m.unwrap_or_default().types.into_iter().map(|t| t.type_name).collect();
    assert_eq!(names, ["a", "b"]);
    let got: Vec<(&str, &str)> = ds.iter().map(|d| (d.code.as_str(), d.pointer.as_str())).collect();
    assert_eq!(
        got,
        [
            (codes::UNKNOWN_FIELD, "/types/0/colour"),
            (codes::FIELD_TYPE, "/types/0/title"),
            (codes::MANIFEST_SHAPE, "/types/1"),
            (codes::MISSING_TYPE, "/types/2"),
            (codes::BAD_TYPE_NAME, "/types/3/type"),
            (codes::DUPLICATE_TYPE, "/types/4/type"),
            (codes::FIELD_TYPE, "/types/5/defaults"),
        ]
    );
    assert_eq!(ds[0].severity, Severity::Warning);
    assert!(ds[5].message.contains("types[0] and types[4]"), "{}", ds[5].message);
}

#[test]
fn schema_problems_point_into_the_manifest() {
    let (m, ds) = read(json!({"types": [{"type": "t", "config_schema":
        {"type": "object", "properties": {"n": {"type": "integr"}}}}]}));
    assert_eq!(ds.len(), 1, "{ds:?}");
    assert_eq!(ds[0].code, config_schema::codes::INVALID_SCHEMA);
    assert_eq!(ds[0].pointer, "/types/0/config_schema/properties/n/type");
    // The type is kept, without the unusable schema.
    let m = m.unwrap_or_default();
    assert_eq!(m.types[0].type_name, "t");
    assert!(m.types[0].config_schema.is_none());
}

#[test]
fn defaults_must_satisfy_the_schema() {
    let (_, ds) = read(json!({"types": [{"type": "t",
        "config_schema": {"type": "object", "properties": {"k": {"type": "integer", "maximum": 3}}, "required": ["r"]},
        "defaults": {"k": 5}}]}));
    let got: Vec<(&str, &str)> = ds.iter().map(|d| (d.code.as_str(), d.pointer.as_str())).collect();
    assert_eq!(got.len(), 2, "{ds:?}");
    assert!(got.contains(&(codes::INVALID_DEFAULTS, "/types/0/defaults/k")));
    assert!(got.contains(&(codes::INVALID_DEFAULTS, "/types/0/defaults")));
    assert!(ds.iter().any(|d| d.message.contains("default \"k\" must be at most 3, got 5")), "{ds:?}");
}

#[test]
fn schemas_that_reject_objects_are_errors() {
    let (m, ds) = read(json!({"types": [{"type": "t", "config_schema": {"type": "string"}}]}));
    assert_eq!(ds[0].code, codes::SCHEMA_NOT_OBJECT);
    assert!(m.unwrap_or_default().types[0].config_schema.is_none());
}

#[test]
fn spans_are_filled() {
    let text = "{\n  \"types\": [\n    {\"type\": \"a\", \"title\": 1}\n  ]\n}";
    let (_, ds) = parse_manifest(text, "m");
    assert_eq!(ds[0].span.map(|s| s.line), Some(3));
}

#[test]
fn the_format_schema_is_generated_and_agrees_with_type_info() {
    let schema = manifest_json_schema();
    assert_eq!(schema["title"], "Trellis registry manifest");
    assert!(jsonschema::meta::is_valid(&schema));
    // Every TypeInfo field is a field of the format, and the other way round.
    let full = TypeInfo {
        type_name: "t".into(),
        title: Some("T".into()),
        category: Some("C".into()),
        description: Some("d".into()),
        docs: Some("# d".into()),
        config_schema: Some(json!({"type": "object"})),
        defaults: Some(json!({})),
        version: Some("1".into()),
        deprecated: Some(json!(true)),
        origin: Some(crate::registry::TypeOrigin::Example),
    };
    let as_json = serde_json::to_value(&full).unwrap_or_default();
    let keys: Vec<&str> =
        as_json.as_object().map(|o| o.keys().map(String::as_str).collect()).unwrap_or_default();
    assert_eq!(keys, TYPE_FIELDS);
    let validator = jsonschema::validator_for(&schema).unwrap_or_else(|e| panic!("{e}"));
    let doc = json!({"name": "n", "version": "1", "types": [as_json]});
    assert!(validator.is_valid(&doc));
    assert!(!validator.is_valid(&json!({"types": [{"type": ""}]})));
    assert!(!validator.is_valid(&json!({"name": null, "types": []})));
    assert!(!validator.is_valid(&json!({"types": [{"type": "t", "title": null}]})));
    assert!(validator.is_valid(&json!({"types": [{"type": "t", "deprecated": "use u"}]})));
    assert!(validator.is_valid(&json!({"types": [{"type": "noop"}]})));
    let (_, ds) = read(doc);
    assert!(ds.is_empty(), "{ds:?}");
}
