//! `trellis validate`, `fmt` and `convert` on Weaveflow files, run as a user runs them.

#![allow(clippy::unwrap_used)]

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::Value;

fn trellis(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_trellis")).args(args).output().expect("run trellis")
}

fn code(o: &Output) -> i32 {
    o.status.code().unwrap_or(-1)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn corpus(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../formats/tests/fixtures/weaveflow/corpus").join(name)
}

fn copy_to(dir: &Path, name: &str) -> PathBuf {
    let to = dir.join(name);
    fs::copy(corpus(name), &to).unwrap();
    to
}

#[test]
fn validate_reads_weaveflow_files() {
    let ok = trellis(&["validate", corpus("supervisor_mode.json").to_str().unwrap()]);
    assert_eq!(code(&ok), 0, "{}", text(&ok.stderr));
    // The documentation example has a node with no outgoing edge: the graph build refuses it.
    let bad = trellis(&["validate", corpus("assistant.json").to_str().unwrap()]);
    assert_eq!(code(&bad), 1);
    assert!(
        text(&bad.stdout).contains("weaveflow/no-outgoing-edge: node \"input\" has no outgoing edge"),
        "{}",
        text(&bad.stdout)
    );
}

#[test]
fn validate_takes_the_accepted_version() {
    let file = corpus("codespaces_demo.json");
    let o = trellis(&["validate", "--weaveflow-version", "2.0", "--format", "json", file.to_str().unwrap()]);
    assert_eq!(code(&o), 1);
    let v: Value = serde_json::from_str(&text(&o.stdout)).unwrap();
    let d = &v["files"][0]["diagnostics"][0];
    assert_eq!(d["code"], "weaveflow/version");
    // The runtime's words first; then which generation the document is, told from its own keys.
    let message = d["message"].as_str().unwrap_or_default();
    assert!(message.starts_with("graph definition version must be \"2.0\", got \"1.0\": "), "{message}");
    assert!(message.contains("the current \"1.0\" generation"), "{message}");
}

#[test]
fn convert_refuses_a_lossy_conversion_unless_allowed() {
    let dir = tempfile::tempdir().unwrap();
    let input = copy_to(dir.path(), "supervisor_mode.json");
    let out = dir.path().join("out.json");
    let o = trellis(&["convert", "--to", "graphspec", input.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(code(&o), 1);
    assert!(!out.exists(), "nothing is written without --allow-loss");
    let err = text(&o.stderr);
    assert!(err.contains("convert/failure-route") || err.contains("convert/metadata"), "{err}");
    assert!(err.contains("--allow-loss"), "{err}");

    let o = trellis(&[
        "convert",
        "--to",
        "graphspec",
        "--allow-loss",
        input.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code(&o), 0, "{}", text(&o.stderr));
    let spec: Value = serde_json::from_str(&fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(spec["name"], "supervisor_mode");
    assert_eq!(spec["edges"][0], serde_json::json!({"from": "__start__", "to": "supervisor"}));
    // Losses are still shown, on stderr.
    assert!(text(&o.stderr).contains("convert/metadata"));

    // And back to Weaveflow, through standard input.
    let mut child = Command::new(env!("CARGO_BIN_EXE_trellis"))
        .args(["convert", "--to", "weaveflow", "--allow-loss", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(fs::read_to_string(&out).unwrap().as_bytes()).unwrap();
    let o = child.wait_with_output().unwrap();
    assert_eq!(code(&o), 0, "{}", text(&o.stderr));
    let w: Value = serde_json::from_str(&text(&o.stdout)).unwrap();
    assert_eq!(w["version"], "1.0");
    assert_eq!(w["entry_point"], "supervisor");
}

#[test]
fn convert_to_the_same_format_is_a_usage_error() {
    let o = trellis(&["convert", "--to", "weaveflow", corpus("assistant.json").to_str().unwrap()]);
    assert_eq!(code(&o), 2);
    assert!(text(&o.stderr).contains("already a weaveflow document"));
}

#[test]
fn convert_refuses_a_source_that_does_not_read() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.json");
    fs::write(&bad, "{\"version\":\"1.0\",\"entry_point\":\"a\",\"colour\":1}").unwrap();
    let o = trellis(&["convert", "--to", "graphspec", "--allow-loss", bad.to_str().unwrap()]);
    assert_eq!(code(&o), 1);
    assert!(text(&o.stderr).contains("json: unknown field \"colour\""), "{}", text(&o.stderr));
    assert!(text(&o.stdout).is_empty());
}

#[test]
fn fmt_rewrites_weaveflow_whitespace_only() {
    let dir = tempfile::tempdir().unwrap();
    let file = copy_to(dir.path(), "supervisor_mode.json");
    let before = fs::read_to_string(&file).unwrap();
    let f = file.to_str().unwrap();
    assert_eq!(code(&trellis(&["fmt", "--check", f])), 1);
    assert_eq!(code(&trellis(&["fmt", f])), 0);
    let after = fs::read_to_string(&file).unwrap();
    assert_ne!(before, after);
    let (a, b): (Value, Value) =
        (serde_json::from_str(&before).unwrap(), serde_json::from_str(&after).unwrap());
    assert_eq!(a, b);
    assert_eq!(code(&trellis(&["fmt", "--check", f])), 0);
    // A file already in the writer's form is left alone.
    let same = copy_to(dir.path(), "codespaces_demo.json");
    let o = trellis(&["fmt", "--check", same.to_str().unwrap()]);
    assert_eq!(code(&o), 0, "{}", text(&o.stdout));
}
