//! `trellis simulate --record`, `trellis runs show` and `trellis runs diff` as a user runs them:
//! the corpus's branching support example simulated down both branches, the logs read back,
//! compared and aggregated; the reader fixtures of trellis-runs shown against their graph; a
//! cut-off log, a folder with a file that is no run, and unreadable input.

#![allow(clippy::unwrap_used)]

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

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

fn fixture(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../runs/tests/fixtures").join(name).display().to_string()
}

/// The corpus's branching support example (agent, then checkout or answer) as a file of its own,
/// its http node given the URL the built-in `http` type requires.
fn branching_support(dir: &Path) -> PathBuf {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus/ilmek/viz/support.json");
    let wrapped: Value = serde_json::from_str(&fs::read_to_string(corpus).unwrap()).unwrap();
    let mut spec = wrapped["spec"].clone();
    let checkout = spec["nodes"].as_array_mut().unwrap().iter_mut().find(|n| n["id"] == "checkout").unwrap();
    checkout["config"] = serde_json::json!({"url": "https://shop.example/checkout"});
    let path = dir.join("support.json");
    fs::write(&path, serde_json::to_string_pretty(&spec).unwrap()).unwrap();
    path
}

fn record(graph: &Path, intent: &str, run: &Path) {
    let mock = format!(r#"agent={{"intent":"{intent}"}}"#);
    let out = trellis(&[
        "simulate",
        &graph.display().to_string(),
        "--input",
        r#"{"messages":"hi"}"#,
        "--mock",
        &mock,
        "--record",
        &run.display().to_string(),
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
}

#[test]
fn a_recorded_simulation_reads_back_with_its_path_and_graph() {
    let dir = tempfile::tempdir().unwrap();
    let graph = branching_support(dir.path());
    let run = dir.path().join("buy.jsonl");
    record(&graph, "buy", &run);

    let text = fs::read_to_string(&run).unwrap();
    let header: Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_eq!(header["format"], "trellis-run/1");
    assert_eq!(header["graph"]["name"], "support");
    assert!(header["graph"]["hash"].as_str().unwrap().starts_with("sha256:"));
    assert!(
        text.lines().skip(1).all(|l| serde_json::from_str::<Value>(l).unwrap()["at"].is_number()),
        "every event has its time"
    );

    let g = graph.display().to_string();
    let out = trellis(&["runs", "show", &run.display().to_string(), "--graph", &g]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let shown = stdout(&out);
    assert!(shown.contains("path:   __start__ → agent → checkout → __end__"), "{shown}");
    assert!(shown.contains("this version of the graph"), "{shown}");

    let out = trellis(&["runs", "show", &run.display().to_string(), "--graph", &g, "--format", "json"]);
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["source"], "trellis-log", "{json}");
    assert_eq!(json["match"]["verdict"], "same", "{json}");
    assert_eq!(json["edges"].as_array().unwrap().len(), 3, "{json}");
}

#[test]
fn two_runs_that_took_other_branches_part_at_the_third_step() {
    let dir = tempfile::tempdir().unwrap();
    let graph = branching_support(dir.path());
    let (buy, ask) = (dir.path().join("buy.jsonl"), dir.path().join("ask.jsonl"));
    record(&graph, "buy", &buy);
    record(&graph, "ask", &ask);
    let out = trellis(&["runs", "diff", &buy.display().to_string(), &ask.display().to_string()]);
    assert_eq!(code(&out), 1, "runs that differ exit 1: {}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.contains("The runs part at step 3: A ran checkout in superstep 1, B ran answer in superstep 1."),
        "{text}"
    );
    assert!(text.contains(r#"the channel "intent" differs: A has "buy", B has "ask""#), "{text}");

    let same = trellis(&["runs", "diff", &buy.display().to_string(), &buy.display().to_string()]);
    assert_eq!(code(&same), 0, "{}", stdout(&same));
}

#[test]
fn a_folder_aggregates_its_runs_and_names_what_it_did_not_read() {
    let dir = tempfile::tempdir().unwrap();
    let graph = branching_support(dir.path());
    let runs = dir.path().join("runs");
    fs::create_dir(&runs).unwrap();
    record(&graph, "buy", &runs.join("a.jsonl"));
    record(&graph, "buy", &runs.join("b.jsonl"));
    fs::write(runs.join("notes.txt"), "not a run\n").unwrap();
    let out = trellis(&[
        "runs",
        "show",
        &runs.display().to_string(),
        "--graph",
        &graph.display().to_string(),
        "--format",
        "json",
    ]);
    assert_eq!(code(&out), 0, "{}", stderr(&out));
    let json: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["aggregate"]["runs"], 2, "{json}");
    let dead: Vec<String> = json["aggregate"]["dead"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| format!("{}>{}", e["from"].as_str().unwrap(), e["to"].as_str().unwrap()))
        .collect();
    assert_eq!(dead, ["agent>answer", "answer>__end__"]);
    assert!(
        json["unreadable"][0]["file"].as_str().unwrap().ends_with("notes.txt"),
        "the file not read is named: {json}"
    );
}

#[test]
fn every_reader_fixture_shows_and_bad_records_say_why() {
    for name in [
        "ilmek-events.jsonl",
        "weaveflow-inspection.json",
        "otlp.jsonl",
        "langsmith.jsonl",
        "trellis-log.jsonl",
    ] {
        let out = trellis(&["runs", "show", &fixture(name)]);
        assert!(code(&out) <= 1, "{name}: {}", stderr(&out));
        assert!(stdout(&out).contains("path:"), "{name}: {}", stdout(&out));
    }
    // A writer that crashed mid-line: read up to the cut, with a warning naming the line.
    let out = trellis(&["runs", "show", &fixture("trellis-log-truncated.jsonl")]);
    assert!(code(&out) <= 1, "{}", stderr(&out));
    assert!(stderr(&out).contains("warning"), "{}", stderr(&out));

    let out = trellis(&["runs", "show", &fixture("not-json.txt")]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("not-json.txt"), "{}", stderr(&out));
    let out = trellis(&["runs", "show", "/nonexistent/run.jsonl"]);
    assert_eq!(code(&out), 2);
    assert!(stderr(&out).contains("cannot be read"), "{}", stderr(&out));
}
