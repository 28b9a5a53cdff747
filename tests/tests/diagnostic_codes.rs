//! The list of diagnostic codes in `docs/diagnostics.md` is the closed, documented list: every
//! code a crate declares (`pub const NAME: &str = "area/name";`) must appear there, and every
//! code the page lists must still be declared somewhere.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// `area/name` strings declared as `pub const X: &str = "area/name";`.
fn declared_codes() -> BTreeSet<String> {
    let mut files = Vec::new();
    for dir in [
        "crates/spec/src",
        "crates/formats/src",
        "crates/doc/src",
        "crates/cli/src",
        "crates/picture/src",
        "crates/runs/src",
        "src-tauri/src",
    ] {
        rust_files(&root().join(dir), &mut files);
    }
    let mut codes = BTreeSet::new();
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap_or_default();
        for line in text.lines() {
            let line = line.trim();
            if !(line.starts_with("pub const ") || line.starts_with("pub(crate) const "))
                || !line.contains(": &str = \"")
            {
                continue;
            }
            let Some(value) = line.split('"').nth(1) else { continue };
            let Some((area, name)) = value.split_once('/') else { continue };
            let is_code = !area.is_empty()
                && area.chars().all(|c| c.is_ascii_lowercase())
                && !name.is_empty()
                && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
            if is_code {
                codes.insert(value.to_owned());
            }
        }
    }
    codes
}

/// Codes in the first column of the tables of docs/diagnostics.md.
fn documented_codes() -> BTreeSet<String> {
    let text = std::fs::read_to_string(root().join("docs/diagnostics.md")).expect("docs/diagnostics.md");
    text.lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split('`').next())
        .filter(|c| c.contains('/'))
        .map(str::to_owned)
        .collect()
}

#[test]
fn every_declared_code_is_documented() {
    let declared = declared_codes();
    assert!(
        declared.len() > 50,
        "the scan found only {} codes; is it still finding the crates?",
        declared.len()
    );
    let documented = documented_codes();
    let missing: Vec<_> = declared.difference(&documented).collect();
    assert!(missing.is_empty(), "codes missing from docs/diagnostics.md: {missing:?}");
}

#[test]
fn every_documented_code_is_declared() {
    let declared = declared_codes();
    let documented = documented_codes();
    let stale: Vec<_> = documented.difference(&declared).collect();
    assert!(stale.is_empty(), "docs/diagnostics.md lists codes no crate declares: {stale:?}");
}
