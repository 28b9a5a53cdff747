//! Hostile registry manifests and configs: huge, deep, and schemas that try to make Trellis
//! fetch something. Each must end quickly with diagnostics, never a panic, a hang, or a
//! network connection.

use std::net::TcpListener;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use trellis_spec::config_check::check_configs;
use trellis_spec::config_schema::codes as schema_codes;
use trellis_spec::manifest::{manifest_from_value, parse_manifest};
use trellis_spec::model::{GraphSpec, NodeSpec};
use trellis_spec::{builtin, json as tjson};

/// A local port nobody else uses, and a way to ask whether anything connected to it.
struct Tripwire {
    listener: TcpListener,
    port: u16,
}

impl Tripwire {
    fn new() -> Tripwire {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        listener.set_nonblocking(true).expect("nonblocking");
        let port = listener.local_addr().expect("addr").port();
        Tripwire { listener, port }
    }
    fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}/{path}", self.port)
    }
    fn touched(&self) -> bool {
        self.listener.accept().is_ok()
    }
}

#[test]
fn remote_refs_are_reported_and_never_fetched() {
    let wire = Tripwire::new();
    let manifest = json!({"types": [
        {"type": "a", "config_schema": {"type": "object", "properties": {"x": {"$ref": "https://example.com/x.json"}}}},
        {"type": "b", "config_schema": {"type": "object", "properties": {"x": {"$ref": wire.url("x.json")}}}},
        {"type": "c", "config_schema": {"$schema": wire.url("meta"), "type": "object"}},
        {"type": "d", "config_schema": {"$id": wire.url("root.json"), "type": "object",
            "properties": {"x": {"$ref": "sibling.json"}}}},
        {"type": "e", "config_schema": {"$id": wire.url("root.json"), "$ref": "#/$defs/missing"}}
    ]});
    let started = Instant::now();
    let (m, ds) = manifest_from_value(&manifest, "hostile");
    assert!(started.elapsed() < Duration::from_secs(5), "{:?}", started.elapsed());
    assert!(!wire.touched(), "something connected to the tripwire");
    let got: Vec<(&str, &str)> = ds.iter().map(|d| (d.code.as_str(), d.pointer.as_str())).collect();
    assert_eq!(
        got,
        [
            (schema_codes::EXTERNAL_REF, "/types/0/config_schema/properties/x/$ref"),
            (schema_codes::EXTERNAL_REF, "/types/1/config_schema/properties/x/$ref"),
            (schema_codes::UNKNOWN_DIALECT, "/types/2/config_schema/$schema"),
            (schema_codes::EXTERNAL_REF, "/types/3/config_schema/properties/x/$ref"),
            (schema_codes::INVALID_SCHEMA, "/types/4/config_schema/$ref"),
        ],
        "{ds:#?}"
    );
    assert!(ds[0].message.contains("https://example.com/x.json") && ds[0].message.contains("never fetched"));
    // The types are still there for the palette, without the unusable schemas.
    let m = m.expect("manifest");
    assert_eq!(m.types.len(), 5);
    assert!(m.types.iter().all(|t| t.config_schema.is_none()));
}

#[test]
fn fifty_thousand_types() {
    let mut text = String::from("{\"types\": [");
    for i in 0..50_000 {
        if i > 0 {
            text.push(',');
        }
        text.push_str(&format!(
            "{{\"type\": \"t{i}\", \"title\": \"Type {i}\", \"category\": \"C{}\", \
             \"config_schema\": {{\"type\": \"object\", \"properties\": {{\"n\": {{\"type\": \"integer\", \"maximum\": {}}}}}}}, \
             \"defaults\": {{\"n\": {}}}}}",
            i % 7,
            i % 50,
            // Every 10,000th type has a default above its maximum.
            if i % 10_000 == 9_999 { 1_000_000 } else { 0 }
        ));
    }
    text.push_str("]}");
    let started = Instant::now();
    let (m, ds) = parse_manifest(&text, "huge");
    let took = started.elapsed();
    assert_eq!(m.map(|m| m.types.len()), Some(50_000));
    assert_eq!(ds.len(), 5, "{ds:?}");
    assert!(ds.iter().all(|d| d.span.is_some()));
    assert_eq!(ds[0].pointer, "/types/9999/defaults/n");
    assert!(took < Duration::from_secs(30), "{took:?}");
}

#[test]
fn fifty_thousand_duplicate_types() {
    let types: Vec<Value> = (0..50_000).map(|_| json!({"type": "same"})).collect();
    let (m, ds) = manifest_from_value(&json!({"types": types}), "dups");
    assert_eq!(m.map(|m| m.types.len()), Some(1));
    assert_eq!(ds.len(), 49_999);
}

#[test]
fn deep_nesting_is_refused_by_the_reader() {
    let text = format!(
        "{{\"types\": [{{\"type\": \"t\", \"config_schema\": {}true{}}}]}}",
        "{\"not\": ".repeat(200),
        "}".repeat(200)
    );
    let (m, ds) = parse_manifest(&text, "deep");
    assert!(m.is_none());
    assert_eq!(ds[0].code, tjson::codes::TOO_DEEP);
}

#[test]
fn deep_schemas_below_the_limit_are_checked_without_overflow() {
    // As deep as the JSON reader allows: 120 levels of nested "not".
    let mut schema = json!(true);
    for _ in 0..60 {
        schema = json!({"not": {"not": schema}});
    }
    let manifest =
        json!({"types": [{"type": "t", "config_schema": {"type": "object", "properties": {"x": schema}}}]});
    let text = serde_json::to_string(&manifest).expect("text");
    assert!(tjson::max_depth(&text) < tjson::MAX_DEPTH);
    let (m, ds) = parse_manifest(&text, "deep");
    assert!(ds.is_empty(), "{ds:?}");
    // And validating a config against it works too.
    let spec = GraphSpec {
        nodes: vec![NodeSpec {
            id: "n".into(),
            type_name: Some("t".into()),
            config: json!({"x": 1}).as_object().cloned().unwrap_or_default().into(),
        }],
        ..Default::default()
    };
    let registry = m.expect("manifest").to_registry("deep");
    assert!(check_configs(&spec, &registry).is_empty());
}

#[test]
fn catastrophic_patterns_do_not_hang() {
    let manifest = json!({"types": [{"type": "t", "config_schema": {"type": "object",
        "properties": {"s": {"type": "string", "pattern": "^(a+)+$"}}}}]});
    let (m, ds) = manifest_from_value(&manifest, "regex");
    assert!(ds.is_empty(), "{ds:?}");
    let registry = m.expect("manifest").to_registry("regex");
    let evil = format!("{}!", "a".repeat(5_000));
    let spec = GraphSpec {
        nodes: vec![NodeSpec {
            id: "n".into(),
            type_name: Some("t".into()),
            config: json!({"s": evil}).as_object().cloned().unwrap_or_default().into(),
        }],
        ..Default::default()
    };
    let started = Instant::now();
    let ds = check_configs(&spec, &registry);
    assert!(started.elapsed() < Duration::from_secs(10), "{:?}", started.elapsed());
    assert_eq!(ds.len(), 1, "{ds:?}");
    assert_eq!(ds[0].pointer, "/nodes/0/config/s");
}

#[test]
fn huge_config_values_give_short_messages() {
    let spec = GraphSpec {
        nodes: vec![NodeSpec {
            id: "agent".into(),
            type_name: Some("llm".into()),
            config: json!({"model": "x".repeat(1_000_000), "temperature": "hot", "tools": (0..10_000).collect::<Vec<_>>()})
                .as_object()
                .cloned()
                .unwrap_or_default()
                .into(),
        }],
        ..Default::default()
    };
    let ds = check_configs(&spec, &builtin::default_registry());
    assert!(!ds.is_empty());
    assert!(ds.len() <= 25, "{}", ds.len());
    assert!(ds.iter().all(|d| d.message.len() < 300), "{:?}", ds.iter().map(|d| d.message.len()).max());
}
