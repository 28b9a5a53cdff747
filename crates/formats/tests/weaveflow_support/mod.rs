//! Shared helpers of the `weaveflow_*` tests: fixture paths and expected-output files.
//!
//! Expected outputs are insta snapshots beside their inputs (`x.json` -> `x.diagnostics.snap`).
//! Regenerate them with
//! `INSTA_UPDATE=always cargo nextest run -p trellis-formats -E 'binary(/weaveflow/)'`, then
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

/// Compares `actual` with its insta snapshot (`x.diagnostics.json` names the snapshot
/// `x.diagnostics.snap` in the same folder). A mismatch is returned as a failure message, so a
/// test can check every file before it fails (with `INSTA_UPDATE=always` every snapshot is
/// rewritten in one run).
pub fn expect(path: &Path, actual: &Value) -> Option<String> {
    let text = serde_json::to_string_pretty(actual).unwrap_or_default();
    let file = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
    let name = file.strip_suffix(".json").unwrap_or(file).to_owned();
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(path.parent().expect("a fixture has a folder"));
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    let checked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        settings.bind(|| insta::assert_snapshot!(name, text));
    }));
    checked.err().map(|_| format!("{} differs from its snapshot (see above)", path.display()))
}

/// Panics with every failure at once.
pub fn finish(failures: Vec<String>) {
    assert!(failures.is_empty(), "{} failure(s):\n\n{}", failures.len(), failures.join("\n\n"));
}
