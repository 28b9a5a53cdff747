//! `trellis registry infer`: fixture snapshots, the manifest it writes makes the documents
//! free of unknown-type errors (fixtures, every corpus document in all three formats), `-o`
//! and `--merge`, and hostile input.
//!
//! Snapshots are insta's, `tests/fixtures/infer/<name>.snap`;
//! `INSTA_UPDATE=always cargo nextest run -p trellis-cli --test registry_infer` rewrites them
//! (review the diff before committing).

#![allow(clippy::unwrap_used)]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::{json, Value};

fn trellis(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_trellis")).args(args).output().expect("run trellis")
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

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/infer")
}

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus")
}

/// The codes `trellis validate --format json` reports for `doc` with `registry` added.
fn codes_with(doc: &Path, registry: &Path) -> Vec<String> {
    let o = trellis(&[
        "validate",
        "--format",
        "json",
        "--no-discover",
        "--registry",
        &registry.display().to_string(),
        &doc.display().to_string(),
    ]);
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap_or(Value::Null);
    v["files"][0]["diagnostics"]
        .as_array()
        .map(|ds| ds.iter().filter_map(|d| d["code"].as_str().map(str::to_owned)).collect())
        .unwrap_or_default()
}

fn is_unknown_type(code: &str) -> bool {
    code == "spec/unknown-type" || code == "weaveflow/unknown-node-type"
}

/// Copies a fixture into a fresh folder (no registry beside it) and returns its path there.
fn alone(tmp: &Path, name: &str) -> PathBuf {
    let to = tmp.join(name);
    fs::copy(fixtures().join(name), &to).unwrap();
    to
}

/// The manifest written, against its insta snapshot `tests/fixtures/infer/<name>.snap`.
fn check_snapshot(name: &str, got: &str) {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(fixtures());
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    settings.bind(|| insta::assert_snapshot!(name, got));
}

#[test]
fn graphspec_fixture_matches_its_snapshot_and_clears_unknown_types() {
    let tmp = tempfile::tempdir().unwrap();
    let doc = alone(tmp.path(), "research.json");
    // Before: one error per node of an undescribed type, each with fixes as hints.
    let o = trellis(&["validate", "--no-discover", &doc.display().to_string()]);
    assert_eq!(code(&o), 1, "{}", stdout(&o));
    assert_eq!(stdout(&o).matches("error spec/unknown-type").count(), 6, "{}", stdout(&o));
    assert!(stdout(&o).contains("= hint: Describe type \"planner\" in a project registry"), "{}", stdout(&o));
    assert!(stdout(&o).contains("trellis registry infer"), "{}", stdout(&o));

    let o = trellis(&["registry", "infer", "--no-discover", &doc.display().to_string()]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let text = stdout(&o);
    check_snapshot("research", &text);
    assert!(stderr(&o).contains("described 4 types"), "{}", stderr(&o));
    // Deterministic: a second run gives the same bytes.
    let again = trellis(&["registry", "infer", "--no-discover", &doc.display().to_string()]);
    assert_eq!(stdout(&again), text);
    // The built-in `llm` is not described again.
    let v: Value = serde_json::from_str(&text).unwrap();
    let names: Vec<&str> = v["types"].as_array().unwrap().iter().filter_map(|t| t["type"].as_str()).collect();
    assert_eq!(names, ["critic", "humanGate", "planner", "web_search"]);
    let reg = tmp.path().join("out.registry.json");
    fs::write(&reg, &text).unwrap();
    let codes = codes_with(&doc, &reg);
    assert!(!codes.iter().any(|c| is_unknown_type(c)), "{codes:?}");
    // The inferred schemas accept the configs they came from: no config errors either.
    assert!(!codes.iter().any(|c| c.starts_with("config/") || c.starts_with("registry/")), "{codes:?}");
}

#[test]
fn weaveflow_fixture_matches_its_snapshot_and_clears_unknown_types() {
    let tmp = tempfile::tempdir().unwrap();
    let doc = alone(tmp.path(), "pipeline.weaveflow.json");
    let before = trellis(&["validate", "--format", "json", "--no-discover", &doc.display().to_string()]);
    let v: Value = serde_json::from_str(&stdout(&before)).unwrap();
    let unknown: Vec<&Value> = v["files"][0]["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "weaveflow/unknown-node-type")
        .collect();
    assert_eq!(unknown.len(), 2);
    assert_eq!(unknown[0]["fixes"][0]["edit"], json!({"kind": "describe_types", "types": ["acme_fetch"]}));

    let out = tmp.path().join("project.registry.json");
    let o = trellis(&[
        "registry",
        "infer",
        "--no-discover",
        &doc.display().to_string(),
        "-o",
        &out.display().to_string(),
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let text = fs::read_to_string(&out).unwrap();
    check_snapshot("pipeline.weaveflow", &text);
    let codes = codes_with(&doc, &out);
    assert!(!codes.iter().any(|c| is_unknown_type(c)), "{codes:?}");
    // Discovered beside the document, it works without --registry too.
    let o = trellis(&["validate", &doc.display().to_string()]);
    assert!(!stdout(&o).contains("unknown-node-type"), "{}", stdout(&o));
}

#[test]
fn output_onto_an_existing_file_needs_merge_which_keeps_its_text() {
    let tmp = tempfile::tempdir().unwrap();
    let doc = alone(tmp.path(), "research.json");
    let out = tmp.path().join("mine.json");
    let original = "{\n  \"name\": \"mine\",\n  \"types\": [\n    { \"type\": \"planner\", \"title\": \"My planner\", \"category\": \"Agents\" }\n  ]\n}\n";
    fs::write(&out, original).unwrap();
    let args = |merge: bool| {
        let mut a =
            vec!["registry".to_owned(), "infer".into(), "--no-discover".into(), doc.display().to_string()];
        a.extend(["-o".to_owned(), out.display().to_string()]);
        if merge {
            a.push("--merge".into());
        }
        a
    };
    let refused = Command::new(env!("CARGO_BIN_EXE_trellis")).args(args(false)).output().unwrap();
    assert_eq!(code(&refused), 2);
    assert!(stderr(&refused).contains("cli/output-exists"), "{}", stderr(&refused));
    assert!(stderr(&refused).contains("--merge"), "{}", stderr(&refused));
    assert_eq!(fs::read_to_string(&out).unwrap(), original, "a refusal writes nothing");

    let merged = Command::new(env!("CARGO_BIN_EXE_trellis")).args(args(true)).output().unwrap();
    assert_eq!(code(&merged), 0, "{}", stderr(&merged));
    let text = fs::read_to_string(&out).unwrap();
    // The file's own entry and text come first, untouched; only the missing types follow.
    let head = "{\n  \"name\": \"mine\",\n  \"types\": [\n    { \"type\": \"planner\", \"title\": \"My planner\", \"category\": \"Agents\" },\n    {\n      \"type\": \"critic\",";
    assert!(text.starts_with(head), "{text}");
    assert!(text.ends_with("\n  ]\n}\n"), "{text}");
    let v: Value = serde_json::from_str(&text).unwrap();
    let names: Vec<&str> = v["types"].as_array().unwrap().iter().filter_map(|t| t["type"].as_str()).collect();
    assert_eq!(names, ["planner", "critic", "humanGate", "web_search"]);
    assert!(!codes_with(&doc, &out).iter().any(|c| is_unknown_type(c)));
    // Merging again adds nothing and leaves the bytes alone.
    let again = Command::new(env!("CARGO_BIN_EXE_trellis")).args(args(true)).output().unwrap();
    assert_eq!(code(&again), 0);
    assert_eq!(fs::read_to_string(&out).unwrap(), text);
    // A broken file is not merged into.
    fs::write(&out, "{\"types\": [").unwrap();
    let broken = Command::new(env!("CARGO_BIN_EXE_trellis")).args(args(true)).output().unwrap();
    assert_eq!(code(&broken), 2, "{}", stderr(&broken));
    assert_eq!(fs::read_to_string(&out).unwrap(), "{\"types\": [");
}

/// Every document of the shared corpus, all three formats.
fn corpus_documents() -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![corpus()];
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).unwrap().flatten() {
            let p = entry.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|e| e == "json")
                || p.file_name().is_some_and(|n| n == "GRAPH.md")
            {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

#[test]
fn every_corpus_document_has_no_unknown_type_under_its_inferred_manifest() {
    let docs = corpus_documents();
    assert!(docs.len() >= 20, "found only {} corpus documents", docs.len());
    let tmp = tempfile::tempdir().unwrap();
    let mut described = 0;
    let mut formats = std::collections::BTreeSet::new();
    for (i, doc) in docs.iter().enumerate() {
        let out = tmp.path().join(format!("{i}.registry.json"));
        let o = trellis(&["registry", "infer", &doc.display().to_string(), "-o", &out.display().to_string()]);
        let shown = doc.display().to_string();
        // Documents that are not readable at all (cases of broken JSON) are refused, with exit 1.
        if code(&o) != 0 {
            assert_eq!(code(&o), 1, "{shown}: {}", stderr(&o));
            assert!(!out.exists(), "{shown}: nothing is written for an unreadable document");
            continue;
        }
        if shown.ends_with("GRAPH.md") {
            formats.insert("graphmd");
        } else if fs::read_to_string(doc).unwrap().contains("\"state_modules\"") {
            formats.insert("weaveflow");
        } else {
            formats.insert("graphspec");
        }
        if !out.exists() {
            // Nothing to describe: validation must agree.
            let o = trellis(&["validate", "--format", "json", &shown]);
            assert!(
                !stdout(&o).contains("unknown-type") && !stdout(&o).contains("unknown-node-type"),
                "{shown}"
            );
            continue;
        }
        described += 1;
        let codes = codes_with(doc, &out);
        assert!(!codes.iter().any(|c| is_unknown_type(c)), "{shown}: {codes:?}");
        assert!(
            !codes.iter().any(|c| c.starts_with("registry/")),
            "{shown}: the manifest itself is valid: {codes:?}"
        );
    }
    assert!(described >= 5, "only {described} corpus documents needed describing");
    assert_eq!(formats.len(), 3, "{formats:?}");
}

#[test]
fn fifty_thousand_types_and_deep_configs_are_handled() {
    let tmp = tempfile::tempdir().unwrap();
    // 50,000 nodes of 50,000 types, one with a config nested 100 deep and one with a huge list.
    let mut deep = json!("leaf");
    for _ in 0..100 {
        deep = json!({ "d": deep });
    }
    let mut nodes = vec![
        json!({"id": "deep", "type": "deep_type", "config": {"x": deep}}),
        json!({"id": "wide", "type": "wide_type", "config": {"choices": (0..100_000).map(|i| format!("v{i}")).collect::<Vec<_>>()}}),
    ];
    let mut edges = vec![json!({"from": "__start__", "to": "deep"})];
    for i in 0..50_000 {
        nodes.push(json!({"id": format!("n{i}"), "type": format!("t{i}"), "config": {"k": i}}));
    }
    edges.push(json!({"from": "deep", "to": "__end__"}));
    let doc = tmp.path().join("huge.json");
    fs::write(&doc, json!({"name": "huge", "channels": {}, "nodes": nodes, "edges": edges}).to_string())
        .unwrap();
    let out = tmp.path().join("huge.registry.json");
    let o = trellis(&[
        "registry",
        "infer",
        "--no-discover",
        &doc.display().to_string(),
        "-o",
        &out.display().to_string(),
    ]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v: Value = serde_json::from_str(&fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(v["types"].as_array().map(Vec::len), Some(50_002));
    // Deep nesting stops at the depth limit instead of mirroring 100 levels.
    let deep_schema = serde_json::to_string(&v["types"][0]["config_schema"]).unwrap();
    assert!(deep_schema.matches("\"properties\"").count() <= 34, "{}", deep_schema.len());
    // A huge list gives one `items`, not a huge enum.
    let wide = v["types"].as_array().unwrap().iter().find(|t| t["type"] == "wide_type").unwrap();
    assert_eq!(
        wide["config_schema"]["properties"]["choices"],
        json!({"type": "array", "items": {"type": "string"}})
    );
    // And the 50,000-type manifest is a registry the validator reads without an unknown type.
    let codes = codes_with(&doc, &out);
    assert!(!codes.iter().any(|c| is_unknown_type(c)), "{:?}", &codes[..codes.len().min(5)]);
}

/// A spec for a runtime whose `llm` is not the built-in one (it has a `system` field): the
/// error's hint names `--type llm`, and running it writes a project registry under which the
/// document validates; without `--type` the built-in type is left alone.
#[test]
fn a_built_in_type_used_otherwise_is_described_when_named() {
    let tmp = tempfile::tempdir().unwrap();
    let doc = tmp.path().join("own.json");
    let spec = json!({
        "name": "own", "channels": {},
        "nodes": [{"id": "think", "type": "llm", "config": {"model": "m", "system": "be brief"}}],
        "edges": [{"from": "__start__", "to": "think"}, {"from": "think", "to": "__end__"}],
    });
    fs::write(&doc, spec.to_string()).unwrap();
    let o = trellis(&["validate", "--no-discover", &doc.display().to_string()]);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    let hint = format!("trellis registry infer {} --type llm -o ", doc.display());
    assert!(stderr(&o).contains(&hint) || stdout(&o).contains(&hint), "{}{}", stdout(&o), stderr(&o));

    let out = tmp.path().join("project.registry.json");
    let infer = |extra: &[&str]| {
        let mut args = vec!["registry", "infer", "--no-discover"];
        args.extend_from_slice(extra);
        let doc = doc.display().to_string();
        let out = out.display().to_string();
        let mut all: Vec<&str> = args.clone();
        all.extend([doc.as_str(), "-o", out.as_str()]);
        trellis(&all)
    };
    let o = infer(&[]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    assert!(!out.exists(), "llm is described by the built-in registry: nothing to write");

    // A type no node has (mistyped): said, nothing written.
    let o = infer(&["--type", "lm"]);
    assert_eq!(code(&o), 1, "{}", stderr(&o));
    assert!(stderr(&o).contains("no node of the documents has type \"lm\""), "{}", stderr(&o));
    assert!(!out.exists());

    let o = infer(&["--type", "llm"]);
    assert_eq!(code(&o), 0, "{}", stderr(&o));
    let v: Value = serde_json::from_str(&fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(v["types"][0]["type"], "llm");
    assert!(v["types"][0]["config_schema"]["properties"]["system"].is_object(), "{v}");
    let codes = codes_with(&doc, &out);
    assert!(!codes.iter().any(|c| c.starts_with("config/")), "{codes:?}");
}
