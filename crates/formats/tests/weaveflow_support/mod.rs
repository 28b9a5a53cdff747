//! Shared helpers of the `weaveflow_*` tests: fixture paths and expected-output files.
//!
//! Expected files sit beside their inputs (`x.json` -> `x.diagnostics.json`). Regenerate them
//! with `UPDATE_EXPECT=1 cargo nextest run -p trellis-formats -E 'binary(/weaveflow/)'`, then
//! read the diff before committing it.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

use serde_json::Value;

pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/weaveflow")
}

/// The shared corpus, when this checkout sits beside it (not in a clean clone).
pub fn shared_corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus")
}

pub fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()))
}

/// `*.json` files of a folder, sorted, skipping expected-output files.
pub fn inputs(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("listing {}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or_default();
            name.ends_with(".json") && name.matches('.').count() == 1
        })
        .collect();
    out.sort();
    out
}

/// `dir/stem.<suffix>` beside `input`.
pub fn beside(input: &Path, suffix: &str) -> PathBuf {
    let stem = input.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
    input.with_file_name(format!("{stem}.{suffix}"))
}

/// Compares `actual` with the expected file, or writes it when `UPDATE_EXPECT` is set.
/// Returns a failure message instead of panicking so a test can check every file first.
pub fn expect(path: &Path, actual: &Value) -> Option<String> {
    let text = format!("{}\n", serde_json::to_string_pretty(actual).unwrap_or_default());
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(path, &text).unwrap_or_else(|e| panic!("writing {}: {e}", path.display()));
        return None;
    }
    let Ok(expected) = std::fs::read_to_string(path) else {
        return Some(format!(
            "{} is missing; run with UPDATE_EXPECT=1 to create it. Actual:\n{text}",
            path.display()
        ));
    };
    (expected != text).then(|| format!("{} differs.\nexpected:\n{expected}\nactual:\n{text}", path.display()))
}

/// Panics with every failure at once.
pub fn finish(failures: Vec<String>) {
    assert!(failures.is_empty(), "{} failure(s):\n\n{}", failures.len(), failures.join("\n\n"));
}
