//! The command line on the runtimes' files as they are today: a `GRAPH.md` that is prose is
//! refused in one line (exit 2); a Weaveflow export bundle is validated as the definition it
//! carries, each finding at its line in the file; the Ilmek packages' types are built in.

#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

fn trellis(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_trellis")).args(args).output().expect("run trellis")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn transfer(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../formats/tests/fixtures/weaveflow/transfer").join(name)
}

#[test]
fn a_graph_md_that_is_prose_is_refused_in_one_line_with_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("GRAPH.md");
    std::fs::write(&path, "# Graph\n\nThis package draws graphs. See `docs/`.\n").unwrap();
    let o = trellis(&["validate", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", text(&o.stderr));
    let err = text(&o.stderr);
    let line = err.lines().find(|l| l.contains("detect/not-a-contract")).unwrap_or_else(|| panic!("{err}"));
    assert!(line.contains("not a GRAPH.md workflow contract: it has no YAML front matter"), "{line}");
    // Front matter of something else (a SKILL.md-like header) is no contract either.
    std::fs::write(&path, "---\nname: notes\nspec_version: 0.1.0\n---\nprose\n").unwrap();
    let o = trellis(&["validate", "--format", "json", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    let v: Value = serde_json::from_str(&text(&o.stdout)).unwrap();
    let d = &v["files"][0]["diagnostics"][0];
    assert_eq!(d["code"], "detect/not-a-contract");
    assert!(d["message"].as_str().unwrap_or_default().contains("none of the contract's keys"), "{d}");
}

#[test]
fn an_export_bundle_is_validated_as_its_definition_with_file_lines() {
    let ok = trellis(&["validate", transfer("support.weaveflow.json").to_str().unwrap()]);
    assert_eq!(ok.status.code(), Some(0), "{}{}", text(&ok.stdout), text(&ok.stderr));
    // A wrong entry point: pointed into the definition, placed on its line in the bundle.
    let original = std::fs::read_to_string(transfer("support.weaveflow.json")).unwrap();
    let broken = original.replace("\"entry_point\": \"input\"", "\"entry_point\": \"nowhere\"");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("support.weaveflow.json");
    std::fs::write(&path, &broken).unwrap();
    let o = trellis(&["validate", "--format", "json", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let v: Value = serde_json::from_str(&text(&o.stdout)).unwrap();
    let d = v["files"][0]["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "weaveflow/entry-point-not-found")
        .cloned()
        .unwrap_or_else(|| panic!("{v}"));
    let line = broken.lines().position(|l| l.contains("\"nowhere\"")).unwrap() + 1;
    assert_eq!(d["line"], line, "{d}");
}

#[test]
fn the_ilmek_types_are_built_in_and_say_who_publishes_them() {
    let o = trellis(&["registry", "show", "mcp_tool", "--no-discover"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let shown = text(&o.stdout);
    assert!(shown.contains("published by @ilmek/mcp 0.2.0 (Ilmek)"), "{shown}");
    assert!(shown.contains("argumentsFrom"), "{shown}");
    assert!(!shown.contains("output_channel"), "the old example's fields are gone: {shown}");
}
