//! Registry manifests against fixtures: every `*.registry.json` under
//! `tests/fixtures/registry/{valid,invalid}` is read, and what the reader makes of it (the type
//! names kept and every diagnostic with its place) is compared with the insta snapshot
//! beside it (`<name>.registry.snap`). `valid/` files must give no errors; `invalid/` files must give at least one.
//!
//! Regenerate the snapshots after a deliberate change with
//! `INSTA_UPDATE=always cargo nextest run -p trellis-spec --test registry_manifests`
//! and review the diff.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};
use trellis_spec::diagnostic::has_errors;
use trellis_spec::manifest::parse_manifest;

fn fixtures(kind: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/registry").join(kind);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(".registry.json"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no fixtures in {}", dir.display());
    files
}

/// What a fixture produces, as stable JSON.
fn outcome(path: &Path) -> (Value, bool) {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let (manifest, diagnostics) = parse_manifest(&text, &name);
    let types: Option<Vec<Value>> = manifest.as_ref().map(|m| {
        m.types
            .iter()
            .map(|t| json!({"type": t.type_name, "has_schema": t.config_schema.is_some(), "has_defaults": t.defaults.is_some()}))
            .collect()
    });
    let ds: Vec<Value> = diagnostics
        .iter()
        .map(|d| {
            json!({
                "code": d.code,
                "severity": d.severity,
                "pointer": d.pointer,
                "line": d.span.map(|s| s.line),
                "column": d.span.map(|s| s.column),
                "message": d.message,
            })
        })
        .collect();
    (json!({"types": types, "diagnostics": ds}), has_errors(&diagnostics))
}

/// The insta snapshot beside the fixture: `<name>.registry.snap`.
fn check_against_snapshot(path: &Path, got: &Value) {
    let stem = path.file_stem().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(path.parent().expect("a fixture has a folder"));
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    settings.bind(|| insta::assert_snapshot!(stem, pretty(got)));
}

#[test]
fn valid_manifests_match_their_snapshots() {
    for path in fixtures("valid") {
        let (got, errors) = outcome(&path);
        assert!(!errors, "{} has errors: {got:#}", path.display());
        assert!(got["types"].is_array(), "{}", path.display());
        check_against_snapshot(&path, &got);
    }
}

#[test]
fn invalid_manifests_match_their_snapshots() {
    for path in fixtures("invalid") {
        let (got, errors) = outcome(&path);
        assert!(errors, "{} has no errors", path.display());
        // Every diagnostic is placed: a pointer into the manifest resolves to a line.
        for d in got["diagnostics"].as_array().into_iter().flatten() {
            assert!(d["line"].is_u64(), "{}: {d}", path.display());
        }
        check_against_snapshot(&path, &got);
    }
}

#[test]
fn every_snapshot_has_a_fixture() {
    // A renamed fixture must not leave a stale snapshot that nothing checks.
    for kind in ["valid", "invalid"] {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/registry").join(kind);
        for entry in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            let p = entry.path().to_string_lossy().into_owned();
            if let Some(stem) = p.strip_suffix(".registry.snap") {
                assert!(Path::new(&format!("{stem}.registry.json")).exists(), "stale snapshot {p}");
            }
        }
    }
}

/// The snapshot's text: serde_json's own pretty form (insta's JSON writer cannot see number
/// text kept by `arbitrary_precision`).
fn pretty(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap_or_default()
}
