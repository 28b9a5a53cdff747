//! The `trellis` binary, run as a user runs it: every command on the corpus, exit codes, the
//! human and JSON output shapes, fmt idempotence and `--check`, simulate with mocks, bad input.

// Helpers outside #[test] functions are test code too.
#![allow(clippy::unwrap_used)]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::{json, Value};

fn trellis(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_trellis")).args(args).output().expect("run trellis")
}

fn run_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_trellis")).current_dir(dir).args(args).output().expect("run trellis")
}

fn code(o: &Output) -> i32 {
    o.status.code().unwrap_or(-1)
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/ilmek")
}

fn case_path(name: &str) -> String {
    corpus().join("cases").join(name).display().to_string()
}

/// A registry describing the node types of the spec.test cases (`set_intent`, `say`) and the
/// `t` of hand-written documents: a type no registry describes is an error.
fn case_types(dir: &Path) -> String {
    registry_file(dir, &["set_intent", "say", "t"])
}

fn registry_file(dir: &Path, types: &[&str]) -> String {
    let doc = json!({"types": types.iter().map(|t| json!({"type": t})).collect::<Vec<_>>()});
    let path = dir.join(format!("registry-{}.json", types.join("-")));
    fs::write(&path, doc.to_string()).unwrap();
    path.display().to_string()
}

/// `message_regex` of cases.json: literal parts joined by `.*` (the only regex syntax used
/// there), with `\"` escapes.
fn matches_pattern(message: &str, pattern: &str) -> bool {
    let mut rest = message;
    for part in pattern.split(".*") {
        let part = part.replace("\\\"", "\"");
        match rest.find(&part) {
            Some(i) => rest = &rest[i + part.len()..],
            None => return false,
        }
    }
    true
}

fn json_out(o: &Output) -> Value {
    serde_json::from_str(&stdout(o)).unwrap_or_else(|e| panic!("not one JSON document ({e}):\n{}", stdout(o)))
}

#[test]
fn every_corpus_case_validates_as_listed() {
    let tmp = tempfile::tempdir().unwrap();
    let cases: Value =
        serde_json::from_str(&fs::read_to_string(corpus().join("cases/cases.json")).unwrap()).unwrap();
    let cases = cases["cases"].as_array().unwrap();
    assert!(cases.len() >= 12);
    for case in cases {
        let file = case["file"].as_str().unwrap();
        let types: Vec<&str> =
            case["registry_types"].as_array().unwrap().iter().filter_map(Value::as_str).collect();
        let reg = registry_file(tmp.path(), &types);
        let o = trellis(&["validate", "--format", "json", "--registry", &reg, &case_path(file)]);
        let doc = json_out(&o);
        let diagnostics = doc["files"][0]["diagnostics"].as_array().unwrap().clone();
        let errors: Vec<&Value> = diagnostics.iter().filter(|d| d["severity"] == "error").collect();
        match case["expect"]["outcome"].as_str().unwrap() {
            "ok" => {
                assert_eq!(code(&o), 0, "{file}: {}", stdout(&o));
                assert!(errors.is_empty(), "{file}: {errors:?}");
            }
            "error" => {
                assert_eq!(code(&o), 1, "{file}: {}", stdout(&o));
                let pattern = case["expect"]["message_regex"].as_str().unwrap();
                assert!(
                    errors.iter().any(|d| matches_pattern(d["message"].as_str().unwrap_or(""), pattern)),
                    "{file}: no error matches {pattern}: {errors:?}"
                );
            }
            other => panic!("unknown outcome {other}"),
        }
    }
}

#[test]
fn the_docs_examples_support_passes_and_support_agent_is_refused_for_intent() {
    let docs = corpus().join("docs");
    let o = trellis(&[
        "validate",
        "--format",
        "json",
        &docs.join("graphs-as-data.mdx-support.json").display().to_string(),
    ]);
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    for name in ["MODEL.md-s9-support-agent.json", "graphs-as-data.mdx-support-agent.json"] {
        let o = trellis(&["validate", "--format", "json", &docs.join(name).display().to_string()]);
        assert_eq!(code(&o), 1, "{name}: {}", stdout(&o));
        let doc = json_out(&o);
        let ds = doc["files"][0]["diagnostics"].as_array().unwrap();
        assert!(
            ds.iter().any(|d| d["severity"] == "error"
                && d["message"]
                    .as_str()
                    .unwrap_or("")
                    .contains("channel \"intent\", which this spec does not declare")),
            "{name}: {ds:?}"
        );
    }
}

#[test]
fn json_output_is_one_document_with_every_field() {
    let o = trellis(&[
        "validate",
        "--format",
        "json",
        &case_path("spec.test-unknown-reducer.json"),
        &case_path("boundaries-base.json"),
    ]);
    assert_eq!(code(&o), 1);
    let doc = json_out(&o);
    let files = doc["files"].as_array().unwrap();
    assert_eq!(files.len(), 2);
    assert!(files[0]["path"].as_str().unwrap().ends_with("spec.test-unknown-reducer.json"));
    assert_eq!(files[1]["diagnostics"], json!([]));
    let d = &files[0]["diagnostics"][0];
    let keys: Vec<&str> = d.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, vec!["code", "severity", "message", "pointer", "line", "column", "element"]);
    assert_eq!(d["code"], "spec/unknown-reducer");
    assert_eq!(d["pointer"], "/channels/messages/reducer");
    assert_eq!((d["line"].as_u64(), d["column"].as_u64()), (Some(5), Some(7)));
    assert_eq!(d["element"], json!({"kind": "channel", "name": "messages"}));
    // stderr holds notes only, never a second document.
    assert!(!stderr(&o).contains('{'), "{}", stderr(&o));
}

#[test]
fn a_long_chain_does_not_exhaust_the_stack() {
    // 50,000 nodes in one chain: graph algorithms that recurse per node must not crash.
    let n = 50_000;
    let mut nodes = Vec::with_capacity(n);
    let mut edges = vec![json!({"from": "__start__", "to": "n0"})];
    for i in 0..n {
        nodes.push(json!({"id": format!("n{i}"), "type": "t", "config": {}}));
        if i + 1 < n {
            edges.push(json!({"from": format!("n{i}"), "to": format!("n{}", i + 1)}));
        }
    }
    let doc = json!({"name": "chain", "channels": {}, "nodes": nodes, "edges": edges});
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("chain.json");
    fs::write(&path, serde_json::to_string_pretty(&doc).unwrap()).unwrap();
    let path = path.display().to_string();
    // A registry that knows `t`, so the run is about depth, not about 50,000 warnings.
    let reg = registry_file(tmp.path(), &["t"]);
    let o = trellis(&["validate", "--format", "json", "--registry", &reg, &path]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let o = trellis(&["simulate", &path, "--registry", &reg, "--limit", "3"]);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    assert_eq!(json_out(&o)["status"], "step_limit");
    let o = trellis(&["mermaid", &path]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().count(), 2 + n + n);
}

/// A chain of `n` nodes of type `t`, each config padded with `pad` characters, pretty-printed.
fn padded_chain(n: usize, pad: usize) -> String {
    let nodes: Vec<Value> = (0..n)
        .map(|i| json!({"id": format!("n{i}"), "type": "t", "config": {"note": "x".repeat(pad)}}))
        .collect();
    let mut edges = vec![json!({"from": "__start__", "to": "n0"})];
    edges.extend((1..n).map(|i| json!({"from": format!("n{}", i - 1), "to": format!("n{i}")})));
    // One finding in each: the last node is declared twice.
    edges.push(json!({"from": format!("n{}", n - 2), "to": format!("n{}", n - 1)}));
    serde_json::to_string_pretty(&json!({"name": "chain", "channels": {}, "nodes": nodes, "edges": edges}))
        .unwrap()
}

#[test]
fn a_large_document_is_checked_against_the_registries_found_beside_it() {
    // Over a megabyte, the registries are loaded while the document is read (validate.rs): the
    // findings, the registry's report, their order and the exit are those of a small document.
    let tmp = tempfile::tempdir().unwrap();
    fs::create_dir(tmp.path().join(".git")).unwrap();
    fs::write(
        tmp.path().join("types.registry.json"),
        "{\"types\": [\n  {\"type\": \"t\"},\n  {\"type\": \"u\", \"title\": 5}\n]}",
    )
    .unwrap();
    let (large, small) = (tmp.path().join("large.json"), tmp.path().join("small.json"));
    fs::write(&large, padded_chain(3_000, 400)).unwrap();
    fs::write(&small, padded_chain(3, 4)).unwrap();
    assert!(fs::metadata(&large).unwrap().len() > 1 << 20);
    let (large, small) = (large.display().to_string(), small.display().to_string());
    for files in [[&large, &small], [&small, &large]] {
        let o = trellis(&["validate", "--format", "json", files[0], files[1]]);
        assert_eq!(code(&o), 1, "the registry's error fails the run: {}", stderr(&o));
        let out = json_out(&o);
        let reports = out["files"].as_array().unwrap();
        let paths: Vec<&str> = reports.iter().map(|f| f["path"].as_str().unwrap()).collect();
        assert_eq!(&paths[..2], &[files[0].as_str(), files[1].as_str()]);
        assert!(paths[2].ends_with("types.registry.json"), "{paths:?}");
        for report in &reports[..2] {
            let codes: Vec<&str> = report["diagnostics"]
                .as_array()
                .unwrap()
                .iter()
                .map(|d| d["code"].as_str().unwrap())
                .collect();
            assert_eq!(codes, ["spec/duplicate-edge"], "type t is known from the registry found");
        }
        assert_eq!(reports[2]["diagnostics"][0]["code"], "registry/field-type");
    }
}

#[test]
fn human_output_names_the_place_shows_the_line_and_a_caret() {
    let path = case_path("spec.test-unknown-reducer.json");
    let o = trellis(&["validate", &path]);
    assert_eq!(code(&o), 1);
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        format!(
            "{path}:5:7: error spec/unknown-reducer: channel \"messages\": unknown reducer \"eval_this\". \
             A stored graph may only name a built-in reducer: \"last_write\", \"append\", \"merge\"."
        )
    );
    assert_eq!(lines[1], " 5 |       \"reducer\": \"eval_this\"");
    assert_eq!(lines[2], "   |       ^");
    // No "open world" note any more: unknown types are errors with or without a registry.
    assert!(!stderr(&o).contains("no registry given"), "{}", stderr(&o));
}

#[test]
fn a_type_no_registry_describes_is_an_error_with_a_hint_registry_or_not() {
    let tmp = tempfile::tempdir().unwrap();
    let doc = case_path("spec.test-DOC.json");
    // Built-in registry only: still an error per node, each with its fixes as hints.
    let o = trellis(&["validate", &doc]);
    assert_eq!(code(&o), 1, "{}", stdout(&o));
    assert_eq!(stdout(&o).matches("error spec/unknown-type").count(), 3, "{}", stdout(&o));
    assert!(
        stdout(&o).contains("  = hint: Describe type \"set_intent\" in a project registry"),
        "{}",
        stdout(&o)
    );
    assert!(stdout(&o).contains(": trellis registry infer "), "{}", stdout(&o));
    assert!(!stderr(&o).contains("not checked"), "{}", stderr(&o));
    // The JSON form carries the fixes as data.
    let o = trellis(&["validate", "--format", "json", &doc]);
    let v = json_out(&o);
    let first = &v["files"][0]["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["code"] == "spec/unknown-type")
        .unwrap()["fixes"][0];
    assert_eq!(first["edit"], json!({"kind": "describe_types", "types": ["set_intent"]}));
    let reg = registry_file(tmp.path(), &["say"]);
    let o = trellis(&["validate", "--registry", &reg, &doc]);
    assert_eq!(code(&o), 1);
    assert!(
        stdout(&o).contains("error spec/unknown-type: node \"classify\" has type \"set_intent\""),
        "{}",
        stdout(&o)
    );
    assert!(!stderr(&o).contains("not checked"));
    // Two registry files add up.
    let reg2 = registry_file(tmp.path(), &["set_intent"]);
    let o = trellis(&["validate", "--registry", &reg, "--registry", &reg2, &doc]);
    assert_eq!(code(&o), 0, "{}", stdout(&o));
    // A malformed registry file is reported with its own place; a missing one is an I/O error.
    let bad = tmp.path().join("bad-registry.json");
    fs::write(&bad, "{\"types\": [{\"title\": 1}]}").unwrap();
    let o = trellis(&["validate", "--registry", &bad.display().to_string(), &doc]);
    assert_eq!(code(&o), 1);
    assert!(stdout(&o).contains("registry/missing-type"), "{}", stdout(&o));
    let o = trellis(&["validate", "--registry", "/nonexistent/registry.json", &doc]);
    assert_eq!(code(&o), 2);
}

#[test]
fn bad_input_gets_the_right_exit_and_a_place() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    // Missing file and directory: I/O, exit 2, on stderr.
    let o = run_in(dir, &["validate", "missing.json"]);
    assert_eq!(code(&o), 2);
    assert!(
        stderr(&o).contains("missing.json: error cli/read-failed: cannot read: No such file or directory"),
        "{}",
        stderr(&o)
    );
    let o = run_in(dir, &["validate", "."]);
    assert_eq!(code(&o), 2);
    assert!(stderr(&o).contains("it is a directory"));
    // Invalid JSON: exit 1 with line and column.
    fs::write(dir.join("bad.json"), "{\n  \"nodes\": [1,\n}").unwrap();
    let o = run_in(dir, &["validate", "bad.json"]);
    assert_eq!(code(&o), 1);
    assert!(stdout(&o).starts_with("bad.json:3:1: error json/syntax: "), "{}", stdout(&o));
    // Truncated.
    fs::write(dir.join("trunc.json"), "{\"name\": \"x\", \"nodes\": [{\"id\"").unwrap();
    let o = run_in(dir, &["validate", "--format", "json", "trunc.json"]);
    assert_eq!(code(&o), 1);
    assert_eq!(json_out(&o)["files"][0]["diagnostics"][0]["code"], "json/syntax");
    // Invalid UTF-8: exit 1, the place of the bad byte.
    fs::write(dir.join("utf.json"), b"{\"name\": \"caf\xe9\"}").unwrap();
    let o = run_in(dir, &["validate", "utf.json"]);
    assert_eq!(code(&o), 1);
    assert!(stdout(&o).starts_with("utf.json:1:14: error json/invalid-utf8"), "{}", stdout(&o));
    // 10,000-deep nesting: a diagnostic, not a crash.
    let deep = format!("{{\"name\": {}{}}}", "[".repeat(10_000), "]".repeat(10_000));
    fs::write(dir.join("deep.json"), deep).unwrap();
    let o = run_in(dir, &["validate", "--format", "json", "deep.json"]);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    assert_eq!(json_out(&o)["files"][0]["diagnostics"][0]["code"], "json/too-deep");
    // Not an object.
    fs::write(dir.join("array.json"), "[]").unwrap();
    let o = run_in(dir, &["validate", "array.json"]);
    assert_eq!(code(&o), 1);
    // Every command refuses a missing file with exit 2.
    for args in
        [vec!["fmt", "missing.json"], vec!["mermaid", "missing.json"], vec!["simulate", "missing.json"]]
    {
        assert_eq!(code(&run_in(dir, &args)), 2, "{args:?}");
    }
    // A mix: the worst exit wins, every file is reported.
    fs::copy(case_path("boundaries-base.json"), dir.join("ok.json")).unwrap();
    let o = run_in(dir, &["validate", "--format", "json", "ok.json", "bad.json", "missing.json"]);
    assert_eq!(code(&o), 2);
    assert_eq!(json_out(&o)["files"].as_array().unwrap().len(), 3);
}

#[test]
fn usage_errors_exit_2_and_help_exits_0() {
    assert_eq!(code(&trellis(&[])), 2);
    assert_eq!(code(&trellis(&["frobnicate"])), 2);
    assert_eq!(code(&trellis(&["validate"])), 2);
    assert_eq!(code(&trellis(&["validate", "--format", "yaml", "x.json"])), 2);
    assert_eq!(code(&trellis(&["mermaid", "--direction", "XY", "x.json"])), 2);
    assert_eq!(code(&trellis(&["simulate", "x.json", "--limit", "-1"])), 2);
    assert_eq!(code(&trellis(&["simulate", "x.json", "--limit", "10001"])), 2);
    for cmd in ["validate", "fmt", "convert", "mermaid", "simulate", "paths", "schema", "registry"] {
        let o = trellis(&[cmd, "--help"]);
        assert_eq!(code(&o), 0, "{cmd}");
        assert!(stdout(&o).contains("Usage: trellis"), "{cmd}");
    }
    let o = trellis(&["--version"]);
    assert_eq!(code(&o), 0);
    assert!(stdout(&o).starts_with("trellis "));
}

#[test]
fn fmt_rewrites_only_what_changes_keeps_permissions_and_is_idempotent() {
    use std::os::unix::fs::PermissionsExt;
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    fs::copy(case_path("boundaries-channel-no-reducer.json"), dir.join("a.json")).unwrap();
    fs::copy(case_path("spec.test-DOC.json"), dir.join("canonical.json")).unwrap();
    fs::set_permissions(dir.join("a.json"), fs::Permissions::from_mode(0o640)).unwrap();
    let canonical_before = fs::metadata(dir.join("canonical.json")).unwrap().modified().unwrap();

    let o = run_in(dir, &["fmt", "--check", "a.json", "canonical.json"]);
    assert_eq!(code(&o), 1);
    assert_eq!(stdout(&o), "would reformat a.json\n");
    assert_eq!(
        fs::read_to_string(dir.join("a.json")).unwrap(),
        fs::read_to_string(case_path("boundaries-channel-no-reducer.json")).unwrap()
    );

    let o = run_in(dir, &["fmt", "a.json", "canonical.json"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(stdout(&o), "formatted a.json\n");
    let text = fs::read_to_string(dir.join("a.json")).unwrap();
    let v: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(v["channels"]["v"], json!({"reducer": "last_write"}));
    assert_eq!(v["nodes"][0]["config"], json!({}));
    assert!(text.ends_with("}\n") && text.contains("\n  \"channels\": {\n"));
    assert_eq!(fs::metadata(dir.join("a.json")).unwrap().permissions().mode() & 0o777, 0o640);
    assert_eq!(fs::metadata(dir.join("canonical.json")).unwrap().modified().unwrap(), canonical_before);
    // No temporary file is left behind.
    let names: Vec<String> =
        fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    assert_eq!(names.len(), 2, "{names:?}");

    // Idempotent: a second run changes nothing, --check is clean.
    let o = run_in(dir, &["fmt", "a.json"]);
    assert_eq!((code(&o), stdout(&o).as_str()), (0, ""));
    assert_eq!(fs::read_to_string(dir.join("a.json")).unwrap(), text);
    assert_eq!(code(&run_in(dir, &["fmt", "--check", "a.json", "canonical.json"])), 0);
}

#[test]
fn fmt_never_writes_an_unreadable_file_nor_drops_unknown_fields_silently() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let broken = "{\"name\": \"x\",, }";
    fs::write(dir.join("broken.json"), broken).unwrap();
    let o = run_in(dir, &["fmt", "broken.json"]);
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).contains("broken.json:1:"), "{}", stderr(&o));
    assert_eq!(fs::read_to_string(dir.join("broken.json")).unwrap(), broken);

    let extra = r#"{"name":"x","layout":{"a":[1,2]},"channels":{},"nodes":[{"id":"a","type":"t","ui":1}],"edges":[{"from":"__start__","to":"a"}]}"#;
    fs::write(dir.join("extra.json"), extra).unwrap();
    let o = run_in(dir, &["fmt", "extra.json"]);
    assert_eq!(code(&o), 1);
    let err = stderr(&o);
    assert!(err.contains("layout") && err.contains("ui") && err.contains("--drop-unknown"), "{err}");
    assert_eq!(fs::read_to_string(dir.join("extra.json")).unwrap(), extra);
    let o = run_in(dir, &["fmt", "--drop-unknown", "extra.json"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v: Value = serde_json::from_str(&fs::read_to_string(dir.join("extra.json")).unwrap()).unwrap();
    assert!(v.get("layout").is_none() && v["nodes"][0].get("ui").is_none());
}

#[test]
fn fmt_follows_a_symlink_and_rewrites_its_target() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    fs::copy(case_path("boundaries-channel-no-reducer.json"), dir.join("real.json")).unwrap();
    std::os::unix::fs::symlink(dir.join("real.json"), dir.join("link.json")).unwrap();
    let o = run_in(dir, &["fmt", "link.json"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(fs::symlink_metadata(dir.join("link.json")).unwrap().file_type().is_symlink());
    assert!(fs::read_to_string(dir.join("real.json")).unwrap().contains("\"reducer\": \"last_write\""));
}

/// Writes the `spec` of a viz case into `dir` as a document of its own.
fn viz_spec(dir: &Path, case: &str) -> (String, String) {
    let viz = corpus().join("viz");
    let case_doc: Value =
        serde_json::from_str(&fs::read_to_string(viz.join(format!("{case}.json"))).unwrap()).unwrap();
    let path = dir.join(format!("{case}.spec.json"));
    fs::write(&path, serde_json::to_string_pretty(&case_doc["spec"]).unwrap()).unwrap();
    let want = fs::read_to_string(viz.join(format!("{case}.mmd"))).unwrap().replace("\r\n", "\n");
    (path.display().to_string(), want)
}

#[test]
fn mermaid_prints_the_corpus_vectors_byte_for_byte() {
    let tmp = tempfile::tempdir().unwrap();
    let (support, want) = viz_spec(tmp.path(), "support");
    let o = trellis(&["mermaid", &support]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(stdout(&o), want);
    let (predicates, want) = viz_spec(tmp.path(), "predicates");
    let o = trellis(&["mermaid", "--direction", "LR", &predicates]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(stdout(&o), want);
    // Highlighting from the command line.
    let o = trellis(&["mermaid", "--next", "checkout", "--pending", "agent", &support]);
    let out = stdout(&o);
    assert!(out.contains("  agent[\"⏸ agent\"]\n") && out.ends_with("  class checkout next\n  classDef pending stroke-width:3px,stroke-dasharray:5 3\n  class agent pending\n"), "{out}");
}

#[test]
fn mermaid_draws_a_document_with_problems_and_refuses_one_it_cannot_read() {
    let o = trellis(&["mermaid", &case_path("boundaries-edge-to-undefined-node.json")]);
    assert_eq!(code(&o), 0);
    assert!(stdout(&o).contains("  a --> ghost\n"), "{}", stdout(&o));
    let tmp = tempfile::tempdir().unwrap();
    fs::write(tmp.path().join("bad.json"), "{").unwrap();
    let o = run_in(tmp.path(), &["mermaid", "bad.json"]);
    assert_eq!(code(&o), 1);
    assert_eq!(stdout(&o), "");
    assert!(stderr(&o).starts_with("bad.json:1:"), "{}", stderr(&o));
}

fn simulate(args: &[&str]) -> (i32, Value, String) {
    let o = trellis(&[&["simulate"], args].concat());
    let v = if o.stdout.is_empty() { Value::Null } else { json_out(&o) };
    (code(&o), v, stderr(&o))
}

#[test]
fn simulate_reproduces_the_spec_test_runs_with_mocks_by_id() {
    // set_intent writes its config's intent; say appends its config's text to messages.
    let doc = case_path("spec.test-DOC.json");
    let mocks = [
        "--mock",
        r#"classify={"intent":"buy"}"#,
        "--mock",
        r#"buy={"messages":"bought"}"#,
        "--mock",
        r#"browse={"messages":"browsed"}"#,
    ];
    let tmp = tempfile::tempdir().unwrap();
    let reg = case_types(tmp.path());
    let (c, v, err) = simulate(&[&[doc.as_str(), "--registry", &reg, "--input", "{}"], &mocks[..]].concat());
    assert_eq!(c, 0, "{err}");
    assert_eq!(v["status"], "done");
    assert_eq!(v["state"]["messages"], json!(["bought"]));
    assert_eq!(
        v["steps"],
        json!([
            {"step": 0, "ran": ["__start__"], "fired": [{"from": "__start__", "to": "classify"}]},
            {"step": 1, "ran": ["classify"], "fired": [{"from": "classify", "to": "buy"}]},
            {"step": 2, "ran": ["buy"], "fired": [{"from": "buy", "to": "__end__"}]}
        ])
    );
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(keys, vec!["status", "steps", "state"]);

    let browsing = case_path("spec.test-browsing.json");
    let mocks = [
        "--mock",
        r#"classify={"intent":"browse"}"#,
        "--mock",
        r#"buy={"messages":"bought"}"#,
        "--mock",
        r#"browse={"messages":"browsed"}"#,
    ];
    let (c, v, _) =
        simulate(&[&[browsing.as_str(), "--registry", &reg, "--input", "{}"], &mocks[..]].concat());
    assert_eq!(c, 0);
    assert_eq!(v["status"], "done");
    assert_eq!(v["state"]["messages"], json!(["browsed"]));
    assert_eq!(v["steps"][1]["fired"], json!([{"from": "classify", "to": "browse"}]));
}

#[test]
fn simulate_mocks_by_type_with_ids_winning_and_unmocked_nodes_return_nothing() {
    let doc = case_path("spec.test-DOC.json");
    let tmp = tempfile::tempdir().unwrap();
    let reg = case_types(tmp.path());
    // Without a registry describing its types, the document is not run.
    let (c, v, err) = simulate(&[doc.as_str()]);
    assert_eq!((c, v), (1, Value::Null));
    assert!(err.contains("spec/unknown-type") && err.contains("= hint: Describe type"), "{err}");
    let (c, v, _) = simulate(&[
        doc.as_str(),
        "--registry",
        &reg,
        "--input",
        r#"{"messages":"hello"}"#,
        "--mock",
        r#"set_intent={"intent":"browse"}"#,
        "--mock",
        r#"say={"messages":"said"}"#,
        "--mock",
        r#"browse={"messages":["browsed", "twice"]}"#,
    ]);
    assert_eq!(c, 0);
    assert_eq!(v["state"], json!({"messages": ["hello", "browsed", "twice"], "intent": "browse"}));
    // No mocks: intent never set, so only `neq "buy"` holds (an unset channel is not "buy").
    let (c, v, _) = simulate(&[doc.as_str(), "--registry", &reg]);
    assert_eq!(c, 0);
    assert_eq!(v["steps"][1]["fired"], json!([{"from": "classify", "to": "browse"}]));
    assert_eq!(v["state"], json!({}));
}

#[test]
fn simulate_reports_limits_run_errors_bad_options_and_invalid_documents() {
    let tmp = tempfile::tempdir().unwrap();
    let loop_doc = tmp.path().join("loop.json");
    fs::write(
        &loop_doc,
        r#"{"name":"l","channels":{"n":{"reducer":"append"}},"nodes":[{"id":"spin","type":"t","config":{}}],
            "edges":[{"from":"__start__","to":"spin"},{"from":"spin","to":"spin"}]}"#,
    )
    .unwrap();
    let loop_doc = loop_doc.display().to_string();
    let types = case_types(tmp.path());
    let (c, v, err) =
        simulate(&[&loop_doc, "--registry", &types, "--mock", r#"spin={"n":1}"#, "--limit", "4"]);
    assert_eq!(c, 1);
    assert_eq!(v["status"], "step_limit");
    assert_eq!(v["steps"].as_array().unwrap().len(), 5);
    assert_eq!(v["state"]["n"], json!([1, 1, 1, 1]));
    assert!(v["error"]["message"].as_str().unwrap().starts_with("exceeded 4 supersteps"), "{v}");
    assert!(err.contains("exceeded 4 supersteps"));
    let (_, v, _) = simulate(&[&loop_doc, "--registry", &types]);
    assert_eq!(v["steps"].as_array().unwrap().len(), 26);

    // A mock that writes an undeclared channel.
    let (c, v, _) = simulate(&[&loop_doc, "--registry", &types, "--mock", r#"t={"ghost":1}"#]);
    assert_eq!(c, 1);
    assert_eq!(v["status"], "error");
    assert_eq!(v["error"]["message"], "undeclared channel \"ghost\"");

    // Bad options: exit 2, nothing on stdout.
    for bad in [
        vec![loop_doc.as_str(), "--input", "[1]"],
        vec![loop_doc.as_str(), "--input", "{"],
        vec![loop_doc.as_str(), "--mock", "spin"],
        vec![loop_doc.as_str(), "--mock", "spin=3"],
        vec![loop_doc.as_str(), "--mock", "nobody={}"],
    ] {
        let (c, v, err) = simulate(&bad);
        assert_eq!(c, 2, "{bad:?}");
        assert_eq!(v, Value::Null, "{bad:?}");
        assert!(err.starts_with("trellis: "), "{err}");
    }

    // An invalid document is not run.
    let (c, v, err) = simulate(&[&case_path("spec.test-unknown-reducer.json")]);
    assert_eq!(c, 1);
    assert_eq!(v, Value::Null);
    assert!(err.contains("spec/unknown-reducer"), "{err}");
    // With a registry, node types are checked first.
    let reg = registry_file(tmp.path(), &["other"]);
    let (c, _, err) = simulate(&[&loop_doc, "--registry", &reg]);
    assert_eq!(c, 1);
    assert!(err.contains("spec/unknown-type"), "{err}");
}

#[test]
fn schema_prints_the_graphspec_json_schema() {
    let o = trellis(&["schema"]);
    assert_eq!(code(&o), 0);
    let v = json_out(&o);
    assert!(v["$schema"].as_str().unwrap_or("").contains("json-schema.org"));
    assert!(v.to_string().contains("nodes"));
}

#[test]
fn simulate_mocks_a_node_whose_id_holds_an_equals_sign() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("eq.json");
    fs::write(
        &path,
        r#"{"name":null,"channels":{"v":{"reducer":"last_write"}},"nodes":[{"id":"a=b","type":"t","config":{}}],
            "edges":[{"from":"__start__","to":"a=b"}]}"#,
    )
    .unwrap();
    let reg = case_types(tmp.path());
    let (c, v, err) =
        simulate(&[&path.display().to_string(), "--registry", &reg, "--mock", r#"a=b={"v":"x=y"}"#]);
    assert_eq!(c, 0, "{err}");
    assert_eq!(v["state"], json!({"v": "x=y"}));
}

#[test]
fn files_are_read_in_the_format_they_are_in() {
    let shared = corpus().join("..");
    // A Weaveflow definition is validated as Weaveflow, never as a GraphSpec.
    let wf = shared.join("weaveflow/assistant.json").display().to_string();
    let o = trellis(&["validate", "--format", "json", &wf]);
    assert!(code(&o) <= 1, "{}", stderr(&o));
    let doc = json_out(&o);
    for d in doc["files"][0]["diagnostics"].as_array().unwrap() {
        assert!(!d["code"].as_str().unwrap_or("").starts_with("spec/"), "{d}");
    }
    // GraphSpec-only commands name the format they got.
    let o = trellis(&["mermaid", &wf]);
    assert_eq!(code(&o), 1);
    assert!(stderr(&o).contains("cli/wrong-format") && stderr(&o).contains("Weaveflow"), "{}", stderr(&o));
    // A JSON object of no known format is refused, not read as an empty GraphSpec.
    let cases = corpus().join("cases/cases.json").display().to_string();
    let o = trellis(&["validate", "--format", "json", &cases]);
    assert_eq!(code(&o), 1);
    assert_eq!(json_out(&o)["files"][0]["diagnostics"][0]["code"], "detect/unknown-format");
    let o = trellis(&["fmt", "--check", &cases]);
    assert_eq!(code(&o), 1);
    assert_eq!(stdout(&o), "");
}

fn trellis_stdin(args: &[&str], input: &[u8]) -> Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_trellis"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run trellis");
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}

#[test]
fn a_dash_reads_standard_input() {
    let text = fs::read(case_path("boundaries-channel-no-reducer.json")).unwrap();
    // fmt as a filter: canonical text out, nothing written anywhere.
    let o = trellis_stdin(&["fmt", "-"], &text);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["channels"]["v"], json!({"reducer": "last_write"}));
    let o = trellis_stdin(&["fmt", "--check", "-"], &text);
    assert_eq!((code(&o), stdout(&o).as_str()), (1, "would reformat <stdin>\n"));
    let canonical = trellis_stdin(&["fmt", "-"], &text).stdout;
    assert_eq!(code(&trellis_stdin(&["fmt", "--check", "-"], &canonical)), 0);
    // Unknown fields are not dropped silently on stdin either.
    let o = trellis_stdin(&["fmt", "-"], br#"{"name":"x","extra":1}"#);
    assert_eq!(code(&o), 1);
    assert_eq!(stdout(&o), "");
    // validate, mermaid and simulate read it too, and name it <stdin>.
    let o = trellis_stdin(&["validate", "-"], b"{\n  \"nodes\": [,\n}");
    assert_eq!(code(&o), 1);
    assert!(stdout(&o).starts_with("<stdin>:2:"), "{}", stdout(&o));
    let doc = fs::read(case_path("spec.test-DOC.json")).unwrap();
    let o = trellis_stdin(&["mermaid", "-"], &doc);
    assert_eq!(code(&o), 0);
    assert!(stdout(&o).starts_with("flowchart TD\n"));
    let tmp = tempfile::tempdir().unwrap();
    let reg = case_types(tmp.path());
    let o = trellis_stdin(
        &[
            "simulate",
            "-",
            "--registry",
            &reg,
            "--mock",
            r#"buy={"messages":"bought"}"#,
            "--mock",
            r#"classify={"intent":"buy"}"#,
        ],
        &doc,
    );
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert_eq!(json_out(&o)["state"]["messages"], json!(["bought"]));
}
