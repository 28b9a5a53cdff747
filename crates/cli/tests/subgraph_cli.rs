//! `trellis validate` reports subgraph references the app cannot follow, as warnings (exit 0),
//! with the app's codes and messages (`trellis_doc::subgraphs`).

use std::fs;
use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

fn trellis(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_trellis")).args(args).output().expect("run trellis")
}

fn json_of(o: &Output) -> Value {
    serde_json::from_str(&String::from_utf8_lossy(&o.stdout)).expect("one JSON document")
}

fn codes(v: &Value) -> Vec<String> {
    v["files"][0]["diagnostics"]
        .as_array()
        .map(|ds| ds.iter().filter_map(|d| d["code"].as_str()).map(str::to_owned).collect())
        .unwrap_or_default()
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    if let Some(parent) = p.parent() {
        fs::create_dir_all(parent).expect("folder");
    }
    fs::write(&p, text).expect("write");
    p.display().to_string()
}

const PARENT_MD: &str = "---\nname: parent\nspec_version: \"1.1.0\"\nentry: a\nexits: [sub]\nnodes:\n  - id: a\n    kind: agent\n  - id: sub\n    kind: subgraph\n    ref: child/GRAPH.md\nedges:\n  - from: a\n    to: sub\n---\n";
const CHILD_MD: &str = "---\nname: child\nspec_version: \"1.1.0\"\nentry: x\nexits: [x]\nnodes:\n  - id: x\n    kind: agent\nedges: []\n---\n";

fn weaveflow(name: &str, graph_ref: &str) -> String {
    serde_json::json!({
        "version": "1.0", "name": name,
        "state_modules": [{"name": "weaveflow.protocols", "version": "1"}],
        "entry_point": "run", "finish_point": "run",
        "nodes": [{"id": "run", "name": "run", "type": "subgraph", "config": {"graph_ref": graph_ref}, "state": {}}]
    })
    .to_string()
}

#[test]
fn a_missing_graphmd_reference_is_a_warning_until_the_file_exists() {
    let dir = tempfile::tempdir().expect("dir");
    let parent = write(dir.path(), "GRAPH.md", PARENT_MD);
    let o = trellis(&["validate", "--format", "json", &parent]);
    assert_eq!(o.status.code(), Some(0), "warnings only: {}", String::from_utf8_lossy(&o.stdout));
    let v = json_of(&o);
    assert!(codes(&v).contains(&"subgraph/not-found".to_owned()), "{v}");
    let d = v["files"][0]["diagnostics"]
        .as_array()
        .and_then(|ds| ds.iter().find(|d| d["code"] == "subgraph/not-found"))
        .cloned()
        .expect("the warning");
    assert_eq!(d["severity"], "warning");
    assert_eq!(d["pointer"], "/nodes/1/ref");
    assert!(d["message"].as_str().is_some_and(|m| m.contains("Subgraph node \"sub\"")), "{d}");

    write(dir.path(), "child/GRAPH.md", CHILD_MD);
    let o = trellis(&["validate", "--format", "json", &parent]);
    assert_eq!(o.status.code(), Some(0));
    assert!(!codes(&json_of(&o)).iter().any(|c| c.starts_with("subgraph/")), "{}", json_of(&o));
}

#[test]
fn a_weaveflow_cycle_is_reported_in_the_human_form() {
    let dir = tempfile::tempdir().expect("dir");
    let a = write(dir.path(), "a.json", &weaveflow("a", "b.json"));
    write(dir.path(), "b.json", &weaveflow("b", "a.json"));
    let o = trellis(&["validate", &a]);
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(o.status.code(), Some(0), "{out}");
    assert!(out.contains("subgraph/cycle") && out.contains("a.json → b.json → a.json"), "{out}");
}
