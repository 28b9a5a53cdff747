//! `trellis paths`, and `validate` / `fmt` on GRAPH.md files, run as a user runs them.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn trellis(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_trellis")).args(args).output().expect("run trellis")
}

fn code(o: &Output) -> i32 {
    o.status.code().unwrap_or(-1)
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn seed() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../formats/tests/fixtures/graphmd/support-triage.GRAPH.md")
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    let p = dir.join(name);
    fs::write(&p, text).expect("write");
    p.display().to_string()
}

#[test]
fn paths_on_the_seed_without_prices_is_within_budget() {
    let o = trellis(&["paths", &seed().display().to_string()]);
    assert_eq!(code(&o), 0, "{}", String::from_utf8_lossy(&o.stderr));
    let s = out(&o);
    assert!(s.contains("support-triage: 2 paths from `route`"), "{s}");
    assert!(s.contains("route -> answer -> close"), "{s}");
    assert!(s.contains("unknown"), "{s}");
    assert!(s.contains("over budget: none"), "{s}");
}

#[test]
fn paths_over_budget_exits_1_and_json_is_one_document() {
    let dir = tempfile::tempdir().expect("dir");
    let prices = write(
        dir.path(),
        "prices.json",
        r#"{"models": {"typesafe:jev-1.13": {"input_per_mtok": 1000, "output_per_mtok": 0}}}"#,
    );
    let s = seed().display().to_string();
    let o = trellis(&["paths", &s, "--prices", &prices]);
    assert_eq!(code(&o), 1);
    assert!(out(&o).contains("OVER BUDGET (cost_usd)"));
    let o = trellis(&["paths", &s, "--prices", &prices, "--format", "json"]);
    assert_eq!(code(&o), 1);
    let v: serde_json::Value = serde_json::from_str(&out(&o)).expect("json");
    assert_eq!(v["analysis"]["path_count"], "2");
    assert_eq!(v["analysis"]["over_budget"], serde_json::json!([1]));
    // Path 1 (route -> close by the fallback): 550 input tokens at 1000 USD / Mtok = 0.55 > 0.25.
    // Path 0 goes through `answer`, whose model is not in the table: cost unknown, not over.
    assert_eq!(v["analysis"]["paths"][1]["cost_usd"], serde_json::json!(0.55));
    assert_eq!(v["analysis"]["paths"][0]["cost_usd"], serde_json::Value::Null);
}

#[test]
fn paths_refuses_bad_input_with_exit_2() {
    let dir = tempfile::tempdir().expect("dir");
    let bad_prices = write(dir.path(), "p.json", "{\"models\": 3}");
    let s = seed().display().to_string();
    assert_eq!(code(&trellis(&["paths", &s, "--prices", &bad_prices])), 2);
    let json = write(dir.path(), "g.json", "{\"nodes\": []}");
    assert_eq!(code(&trellis(&["paths", &json])), 2);
    assert_eq!(code(&trellis(&["paths", "/nonexistent/GRAPH.md"])), 2);
}

#[test]
fn paths_on_a_document_with_errors_exits_1_with_diagnostics() {
    let dir = tempfile::tempdir().expect("dir");
    let f = write(
        dir.path(),
        "GRAPH.md",
        "---\nspec_version: \"1.1.0\"\nentry: a\nexits: [b]\nnodes:\n  - {id: a, kind: agent}\n---\n",
    );
    let o = trellis(&["paths", &f]);
    assert_eq!(code(&o), 1);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("graphmd/unknown-node"), "{err}");
}

#[test]
fn validate_and_fmt_understand_graphmd() {
    let dir = tempfile::tempdir().expect("dir");
    assert_eq!(code(&trellis(&["validate", &seed().display().to_string()])), 0);
    let bad = write(
        dir.path(),
        "x.graph.md",
        "---\nspec_version: \"1.1.0\"\nentry: a\nexits: [a]\nnodes:\n  - {id: a, kind: wizard}\n---\n",
    );
    let o = trellis(&["validate", "--format", "json", &bad]);
    assert_eq!(code(&o), 1);
    let v: serde_json::Value = serde_json::from_str(&out(&o)).expect("json");
    let d = &v["files"][0]["diagnostics"][0];
    assert_eq!(
        (d["code"].as_str(), d["line"].as_u64(), d["column"].as_u64()),
        (Some("graphmd/unknown-node-kind"), Some(6), Some(19))
    );
    let odd = write(dir.path(), "GRAPH.md", "---\nspec_version: \"1.1.0\"\nentry:    a\nexits: [a]\nnodes:\n  - {id: a, kind: agent}\n---\n# Body\n");
    assert_eq!(code(&trellis(&["fmt", "--check", &odd])), 1);
    assert_eq!(code(&trellis(&["fmt", &odd])), 0);
    assert_eq!(
        fs::read_to_string(&odd).expect("read"),
        "---\nspec_version: \"1.1.0\"\nentry: a\nexits: [a]\nnodes:\n  - {id: a, kind: agent}\n---\n# Body\n"
    );
    assert_eq!(code(&trellis(&["fmt", "--check", &odd])), 0);
}
