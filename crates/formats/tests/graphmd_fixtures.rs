//! Fixture folders: every `fixtures/graphmd/{valid,invalid}/*.md` is read and validated and
//! its diagnostics compared with the insta snapshot `<name>.snap` beside it (code, severity, pointer,
//! line, column, message), plus whether the file comes back byte for byte after a read and
//! a write. `valid/` files must have no errors.
//!
//! Regenerate the snapshots after a deliberate change with:
//! `INSTA_UPDATE=always cargo nextest run -p trellis-formats -E 'binary(graphmd_fixtures)'`
//! and review the diff.

use serde_json::{json, Value};
use std::path::Path;
use trellis_formats::graphmd;

/// Runs an insta assertion whose snapshot lives beside `input` (`<stem>.snap`).
fn beside(input: &Path, assert: impl FnOnce()) {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(input.parent().expect("a fixture has a folder"));
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    settings.bind(assert);
}

fn snapshot(text: &str) -> Value {
    let r = graphmd::read_and_validate(text);
    let diags: Vec<Value> = r
        .diagnostics
        .iter()
        .map(|d| {
            json!({
                "code": d.code,
                "severity": d.severity.as_str(),
                "pointer": d.pointer,
                "line": d.span.map(|s| s.line),
                "column": d.span.map(|s| s.column),
                "message": d.message,
            })
        })
        .collect();
    // `canonical`: the canonical writer reproduces the file (it was already in that form).
    let canonical = r.doc.as_ref().map(|d| graphmd::to_canonical_string(d) == text);
    if let Some(d) = &r.doc {
        assert_eq!(graphmd::to_string(d), text, "an unedited document is written back as read");
    }
    json!({ "canonical": canonical, "diagnostics": diags })
}

fn run(folder: &str, must_be_valid: bool) -> usize {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/graphmd").join(folder);
    let mut entries: Vec<_> = std::fs::read_dir(&dir)
        .expect("fixture dir")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    entries.sort();
    let mut failures = Vec::new();
    for path in &entries {
        let text = std::fs::read_to_string(path).expect("utf-8 fixture");
        let got = snapshot(&text);
        let stem = path.file_stem().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        beside(path, || insta::assert_snapshot!(stem, pretty(&got)));
        let has_errors =
            got["diagnostics"].as_array().is_some_and(|a| a.iter().any(|d| d["severity"] == "error"));
        if must_be_valid && has_errors {
            failures.push(format!("{} is in valid/ but has errors", path.display()));
        }
        if !must_be_valid && got["diagnostics"].as_array().is_none_or(Vec::is_empty) {
            failures.push(format!("{} is in invalid/ but has no diagnostics", path.display()));
        }
        // Every diagnostic of a readable file points at a place in it.
        for d in got["diagnostics"].as_array().into_iter().flatten() {
            if d["line"].is_null() {
                failures.push(format!("{}: diagnostic without a line: {d}", path.display()));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    entries.len()
}

#[test]
fn invalid_fixtures_match_their_snapshots() {
    assert!(run("invalid", false) >= 25);
}

#[test]
fn valid_fixtures_match_their_snapshots() {
    assert!(run("valid", true) >= 3);
}

/// The snapshot's text: serde_json's own pretty form (insta's JSON writer cannot see number
/// text kept by `arbitrary_precision`).
fn pretty(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap_or_default()
}
