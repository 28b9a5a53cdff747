//! Every reader on fixtures written from the reference page (`../shared/reference/runs.md`):
//! each `tests/fixtures/*` record is read and its run model, the diagnostics, the path on its
//! graph and the channel state after every step are compared with the insta snapshot
//! `<name>.snap` beside it. Ilmek's checkpoint fixtures are rows (`*.rows.json`) written into a
//! real SQLite database first, then read back through `file::open` as a user's file is.
//!
//! Regenerate after a deliberate change with
//! `INSTA_UPDATE=always cargo nextest run -p trellis-runs -E 'binary(readers)'` and review.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};
use trellis_runs::graph::GraphShape;
use trellis_runs::model::ReadRun;
use trellis_runs::state::StateIndex;
use trellis_runs::{file, overlay, ReadOptions};
use trellis_spec::Diagnostic;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

fn support() -> GraphShape {
    let text = std::fs::read_to_string(fixtures().join("support.json")).expect("support.json");
    GraphShape::from_spec(&trellis_spec::parse_spec(&text).spec.expect("a GraphSpec"))
}

/// The Weaveflow corpus's codespaces demo as runs see it (nodes, edges, the entry point).
fn codespaces() -> GraphShape {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/weaveflow/codespaces_demo.json");
    let doc: Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("corpus file")).expect("JSON");
    let mut shape = GraphShape::default();
    for n in doc["nodes"].as_array().expect("nodes") {
        shape.nodes.insert(n["id"].as_str().expect("id").to_owned());
    }
    let mut edges: Vec<(String, String)> = doc["edges"]
        .as_array()
        .expect("edges")
        .iter()
        .map(|e| (e["from"].as_str().unwrap_or("").to_owned(), e["to"].as_str().unwrap_or("").to_owned()))
        .collect();
    edges.insert(0, ("__start__".into(), doc["entry_point"].as_str().expect("entry").to_owned()));
    shape.with_edges(edges)
}

fn diagnostics(ds: &[Diagnostic]) -> Vec<Value> {
    ds.iter()
        .map(|d| {
            json!({
                "code": d.code,
                "severity": d.severity.as_str(),
                "line": d.span.map(|s| s.line),
                "message": d.message,
            })
        })
        .collect()
}

fn model(read: &ReadRun, graph: &GraphShape) -> Value {
    let index = StateIndex::build(&read.run, &graph.reducers);
    let states: Vec<Value> = (0..read.run.steps.len())
        .map(|i| {
            let s = index.after(&read.run, &graph.reducers, i);
            json!({"step": i, "recorded": s.recorded, "changed": s.changed, "channels": s.channels})
        })
        .collect();
    let path = overlay::path(&read.run, graph);
    json!({
        "run": read.run,
        "others": read.others,
        "diagnostics": diagnostics(&read.diagnostics),
        "path": path,
        "states": states,
    })
}

fn graph_for(name: &str) -> GraphShape {
    if name.starts_with("weaveflow") {
        codespaces()
    } else {
        support()
    }
}

/// Writes checkpoint rows into a fresh SQLite database shaped as Ilmek's checkpointer makes it.
fn database(rows: &Value, dir: &Path, pascal: bool) -> PathBuf {
    let path = dir.join(if pascal { "dotnet.sqlite" } else { "ilmek.sqlite" });
    let conn = rusqlite::Connection::open(&path).expect("create database");
    let table = if pascal { "app" } else { "ilmek" };
    conn.execute_batch(&format!(
        "CREATE TABLE {table}_checkpoints (thread_id TEXT NOT NULL, id TEXT NOT NULL, step INTEGER NOT NULL, data TEXT NOT NULL, PRIMARY KEY (thread_id, id));
         CREATE TABLE {table}_journals (task_id TEXT PRIMARY KEY, entries TEXT NOT NULL);"
    ))
    .expect("tables");
    for r in rows.as_array().expect("rows") {
        let data = r["data"].as_str().expect("data");
        let step = serde_json::from_str::<Value>(data)
            .ok()
            .and_then(|d| d.get("step").or(d.get("Step")).and_then(Value::as_i64));
        conn.execute(
            &format!("INSERT INTO {table}_checkpoints (thread_id, id, step, data) VALUES (?1, ?2, ?3, ?4)"),
            (r["thread"].as_str(), r["id"].as_str(), step.unwrap_or(0), data),
        )
        .expect("row");
    }
    path
}

fn snapshot(name: &str, value: &Value) {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(fixtures());
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    let text = serde_json::to_string_pretty(value).expect("JSON");
    settings.bind(|| insta::assert_snapshot!(name.to_owned(), text));
}

fn read(path: &Path, options: &ReadOptions) -> Value {
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    match file::open(path, options) {
        Ok(r) => model(&r, &graph_for(&name)),
        Err(ds) => json!({"refused": diagnostics(&ds)}),
    }
}

#[test]
fn every_fixture_reads_as_its_snapshot_says() {
    let mut names: Vec<String> = std::fs::read_dir(fixtures())
        .expect("fixtures")
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !n.ends_with(".snap") && n != "support.json")
        .collect();
    names.sort();
    assert!(names.len() >= 15, "fixtures found: {names:?}");
    let dir = tempfile::tempdir().expect("temp dir");
    let options = ReadOptions { start_nodes: support().start_nodes, ..ReadOptions::default() };
    for name in &names {
        let path = fixtures().join(name);
        let got = if let Some(stem) = name.strip_suffix(".rows.json") {
            let rows: Value =
                serde_json::from_str(&std::fs::read_to_string(&path).expect("rows")).expect("JSON");
            read(&database(&rows, dir.path(), stem.ends_with("dotnet")), &options)
        } else {
            read(&path, &options)
        };
        // `ilmek-events.json` and `ilmek-events.jsonl` are two fixtures: the whole name tells them apart.
        snapshot(&name.replace('.', "-"), &got);
    }
}

#[test]
fn the_truncated_log_reads_what_came_before_the_cut() {
    let whole = file::open(&fixtures().join("trellis-log.jsonl"), &ReadOptions::default()).expect("whole");
    let cut =
        file::open(&fixtures().join("trellis-log-truncated.jsonl"), &ReadOptions::default()).expect("cut");
    let truncated: Vec<&Diagnostic> =
        cut.diagnostics.iter().filter(|d| d.code == trellis_runs::codes::TRUNCATED).collect();
    assert_eq!(truncated.len(), 1, "{:?}", cut.diagnostics);
    assert_eq!(truncated[0].span.map(|s| s.line), Some(13));
    // The steps before the cut are the whole run's, as far as they went.
    assert!(cut.run.steps.len() >= 3);
    for (a, b) in cut.run.steps.iter().zip(&whole.run.steps) {
        assert_eq!(a.node, b.node);
        assert_eq!(a.attempt, b.attempt);
    }
    assert_eq!(cut.run.status, trellis_runs::RunOutcome::Unknown);
}

#[test]
fn many_runs_in_one_file_can_be_chosen() {
    let path = fixtures().join("otlp.jsonl");
    let first = file::open(&path, &ReadOptions::default()).expect("read");
    assert_eq!(first.others, ["5b8aa5a2d2c872e8321cf37308d69df2"]);
    let other = ReadOptions { run: Some(first.others[0].clone()), ..ReadOptions::default() };
    let second = file::open(&path, &other).expect("read the other");
    assert_eq!(second.run.steps.len(), 1);
    let missing = ReadOptions { run: Some("nope".into()), ..ReadOptions::default() };
    let err = file::open(&path, &missing).expect_err("no such trace");
    assert_eq!(err[0].code, trellis_runs::codes::NO_SUCH_RUN);
}

#[test]
fn an_otlp_node_attribute_can_be_named() {
    let path = fixtures().join("otlp.jsonl");
    let options = ReadOptions { node_attributes: vec!["gen_ai.agent.name".into()], ..ReadOptions::default() };
    let read = file::open(&path, &options).expect("read");
    let nodes: Vec<&str> = read.run.path().filter_map(|i| read.run.steps[i].node.as_deref()).collect();
    assert_eq!(nodes, ["agent"], "only the agent span carries gen_ai.agent.name");
}
