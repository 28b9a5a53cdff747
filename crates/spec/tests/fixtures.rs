//! Fixture folders: `tests/fixtures/valid/*.json` must read, validate, compile and round-trip
//! with no diagnostic at all; `tests/fixtures/invalid/*.json` must produce exactly the
//! diagnostics of the insta snapshot beside each input (`<name>.snap`).
//!
//! Regenerate the snapshots after an intended change with
//! `INSTA_UPDATE=always cargo nextest run -p trellis-spec --test fixtures`, then review the diff.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::{json, Map, Value};
use trellis_spec::json::fill_spans;
use trellis_spec::{
    from_spec, parse_spec_bytes, to_canonical_string, to_spec, validate, Built, Diagnostic, Registry, State,
};

fn dir(kind: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures").join(kind)
}

fn inputs(kind: &str) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir(kind))
        .expect("fixture folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
}

/// The fixture registry: no-op types, plus `broken`, whose factory returns no function.
fn registry() -> Registry {
    let mut r = Registry::new();
    for t in ["noop", "say", "llm", "http", "set_intent"] {
        r.register(t, |_: &Value| Built::Node(Arc::new(|_: &State| Ok(Map::new()))));
    }
    r.register("broken", |_: &Value| Built::NotAFunction("undefined".into()));
    r
}

/// Everything Trellis reports for a file: reading, then the one validator, with places.
fn diagnose(bytes: &[u8], registry: &Registry) -> (Option<trellis_spec::GraphSpec>, Vec<Diagnostic>) {
    let parsed = parse_spec_bytes(bytes);
    let mut diags = parsed.diagnostics;
    if let Some(spec) = &parsed.spec {
        let mut more = validate(spec, Some(registry));
        if let Ok(text) = std::str::from_utf8(bytes) {
            fill_spans(text, &mut more);
        }
        diags.extend(more);
    }
    (parsed.spec, diags)
}

/// Runs an insta assertion whose snapshot lives beside `input` (`<stem>.snap`).
fn beside(input: &Path, assert: impl FnOnce()) {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(input.parent().expect("a fixture has a folder"));
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    settings.bind(assert);
}

fn snapshot(diags: &[Diagnostic]) -> Value {
    Value::Array(
        diags
            .iter()
            .map(|d| {
                json!({
                    "code": d.code,
                    "severity": d.severity,
                    "message": d.message,
                    "pointer": d.pointer,
                    "line": d.span.map(|s| s.line),
                    "column": d.span.map(|s| s.column),
                    "element": d.element,
                })
            })
            .collect(),
    )
}

#[test]
fn invalid_fixtures_match_their_snapshots() {
    let reg = registry();
    let files = inputs("invalid");
    assert!(files.len() >= 20, "expected at least 20 invalid fixtures, found {}", files.len());
    for input in &files {
        let bytes = std::fs::read(input).expect("read fixture");
        let (_, diags) = diagnose(&bytes, &reg);
        let name = input.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        assert!(!diags.is_empty(), "{name}: an invalid fixture must produce diagnostics");
        let got = snapshot(&diags);
        let stem = input.file_stem().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        beside(input, || insta::assert_snapshot!(stem, pretty(&got)));
    }
}

#[test]
fn valid_fixtures_have_no_diagnostics_and_round_trip() {
    let reg = registry();
    let files = inputs("valid");
    assert!(files.len() >= 5);
    for input in &files {
        let name = input.display().to_string();
        let bytes = std::fs::read(input).expect("read fixture");
        let (spec, diags) = diagnose(&bytes, &reg);
        assert!(diags.is_empty(), "{name}: {diags:#?}");
        let spec = spec.expect("document");
        let compiled = from_spec(&spec, &reg).expect("from_spec").compile().expect("compile");
        let back = to_spec(&compiled).expect("to_spec");
        assert_eq!(back, spec, "{name}: to_spec(compile(from_spec(s))) != s");
        let text = to_canonical_string(&back);
        let again = parse_spec_bytes(text.as_bytes()).spec.expect("canonical text reads");
        assert_eq!(to_canonical_string(&again), text, "{name}: canonical text is not idempotent");
    }
}

#[test]
fn canonical_fixtures_are_written_back_byte_for_byte() {
    for name in ["support.json", "numbers-kept.json", "prototype-names.json", "unicode-names.json"] {
        let path = dir("valid").join(name);
        let text = std::fs::read_to_string(&path).expect("read");
        let spec = parse_spec_bytes(text.as_bytes()).spec.expect("document");
        assert_eq!(to_canonical_string(&spec), text, "{name}");
    }
}

#[test]
fn every_spec_diagnostic_code_is_documented_and_exercised() {
    let docs =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/diagnostics.md"))
            .expect("docs/diagnostics.md");
    let mut seen = std::collections::BTreeSet::new();
    let reg = registry();
    for input in inputs("invalid") {
        let bytes = std::fs::read(&input).expect("read fixture");
        seen.extend(diagnose(&bytes, &reg).1.into_iter().map(|d| d.code));
    }
    for code in &seen {
        assert!(docs.contains(&format!("`{code}`")), "{code} is not in docs/diagnostics.md");
    }
    // The document-level rules (the code-only ones are covered by unit tests of the builder).
    for code in [
        "json/syntax",
        "json/duplicate-key",
        "spec/not-an-object",
        "spec/channel-not-object",
        "spec/empty-channel-name",
        "spec/unknown-reducer",
        "spec/node-not-object",
        "spec/invalid-node-id",
        "spec/reserved-node-id",
        "spec/duplicate-node",
        "spec/missing-type",
        "spec/unknown-type",
        "spec/factory-not-function",
        "spec/edge-not-object",
        "spec/malformed-predicate",
        "spec/undeclared-channel",
        "spec/no-operator",
        "spec/unknown-edge-source",
        "spec/unknown-edge-target",
        "spec/no-entry-edge",
        "spec/unknown-field",
        "spec/invalid-field",
        "spec/dropped-field",
        "spec/unreachable-node",
        "spec/endless-cycle",
        "spec/duplicate-edge",
        "spec/never-matches",
        "spec/unsafe-integer",
        "spec/number-overflow",
    ] {
        assert!(seen.contains(code), "no invalid fixture exercises {code}");
    }
}

/// The snapshot's text: serde_json's own pretty form (insta's JSON writer cannot see number
/// text kept by `arbitrary_precision`).
fn pretty(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap_or_default()
}
