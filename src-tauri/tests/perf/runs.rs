//! Issue 50's figures in the real app: a run of 100,000 steps on a 10,000-node graph opened
//! beside its graph (File > Open Run… through `window.__trellisRuns.open`, the menu's own
//! function) to the timeline shown with its first step's detail; the scrubber (the arrow key
//! on the step list, as a user presses it) to the new step's node ringed and its detail shown,
//! per step; and a folder of 1,000 runs read and aggregated to its panel shown.
//!
//! `TRELLIS_RUNS_BENCH=nodes,steps,folder` sets the sizes (default 10000,100000,1000: the
//! issue's). Not a timed test: it records the figures (docs/BENCHMARKS.md, "Issue 50"); it
//! fails only when something did not happen at all.

use std::path::Path;
use std::time::Duration;

use serde_json::{json, Value};

use crate::harness::{Desktop, Launch};
use crate::{drive, load_average, record};

fn sizes() -> (usize, usize, usize) {
    let v: Vec<usize> = std::env::var("TRELLIS_RUNS_BENCH")
        .ok()
        .map(|s| s.split(',').filter_map(|x| x.trim().parse().ok()).collect())
        .unwrap_or_default();
    match v.as_slice() {
        [n, s, f] => (*n, *s, *f),
        _ => (10_000, 100_000, 1_000),
    }
}

async fn launch(graph: &Path, dialog: &Path, data: &Path) -> Desktop {
    let app = Desktop::launch(Launch {
        files: vec![graph.to_path_buf()],
        dialog_path: Some(dialog.to_path_buf()),
        data_dir: Some(data.to_path_buf()),
        as_shipped: true,
        request_timeout: Some(Duration::from_secs(600)),
        ..Launch::default()
    })
    .await;
    app.driver.set_script_timeout(Duration::from_secs(600)).await.expect("script timeout");
    app
}

/// Opens the run and answers the milliseconds to the timeline shown with the first step's detail.
const OPEN: &str = r#"
const done = arguments[arguments.length - 1];
const t0 = performance.now();
window.__trellisRuns.open().then(() => {
  const wait = () => {
    const s = window.__trellisRuns.state();
    const shown = document.querySelector('[data-testid=run-timeline]') && s.detail && s.detail.index === s.current;
    if (shown) requestAnimationFrame(() => done({ms: performance.now() - t0, steps: s.view.steps.label.length}));
    else requestAnimationFrame(wait);
  };
  wait();
}, (e) => done({error: String(e)}));
"#;

/// Presses → on the step list `n` times, each time waiting until the new step's node is ringed
/// (the canvas) and its detail is in the inspector; answers the milliseconds of each.
const SCRUB: &str = r#"
const [n] = arguments;
const done = arguments[arguments.length - 1];
const list = document.querySelector('[data-testid=run-steps]');
const ring = () => document.querySelector('[data-testid=run-current]');
const insp = () => document.querySelector('[data-testid=run-inspector]');
const local = [], full = [];
let k = 0;
const one = () => {
  if (k >= n) return done({local, full});
  k++;
  const want = window.__trellisRuns.state().current + 1;
  const t0 = performance.now();
  list.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight', bubbles: true}));
  let seen = false;
  const poll = () => {
    const s = window.__trellisRuns.state();
    if (!seen && s.current === want && ring()) { seen = true; local.push(performance.now() - t0); }
    if (seen && insp() && insp().dataset.step === String(want)) { full.push(performance.now() - t0); setTimeout(one, 30); }
    else if (performance.now() - t0 > 5000) done({local, full, stuck: want});
    else requestAnimationFrame(poll);
  };
  requestAnimationFrame(poll);
};
one();
"#;

const FOLDER: &str = r#"
const done = arguments[arguments.length - 1];
const t0 = performance.now();
window.__trellisRuns.openFolder().then(() => {
  const wait = () => {
    const el = document.querySelector('[data-testid=run-folder]');
    if (el) requestAnimationFrame(() => done({ms: performance.now() - t0, runs: Number(el.dataset.runs)}));
    else if (performance.now() - t0 > 300000) done({error: 'no folder panel'});
    else requestAnimationFrame(wait);
  };
  wait();
}, (e) => done({error: String(e)}));
"#;

async fn script(app: &Desktop, text: &str, args: Vec<Value>) -> Value {
    app.driver.execute_async(text, args).await.expect("script").json().clone()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_large_run_opens_steps_and_a_folder_aggregates() {
    let (nodes, steps, folder_runs) = sizes();
    let work = tempfile::tempdir().expect("tmp");
    let graph = work.path().join("ring.json");
    std::fs::write(&graph, trellis_runs::generate::graph(nodes)).expect("graph");
    let run = work.path().join("run.jsonl");
    std::fs::write(&run, trellis_runs::generate::run_log(nodes, steps, 7)).expect("run");
    let folder = work.path().join("runs");
    std::fs::create_dir(&folder).expect("folder");
    for k in 0..folder_runs {
        let text = trellis_runs::generate::run_log(nodes.min(200), 100 + k % 50, k as u64);
        std::fs::write(folder.join(format!("run-{k:04}.jsonl")), text).expect("folder run");
    }
    let load_before = load_average();

    let data = tempfile::tempdir().expect("data");
    let app = launch(&graph, &run, data.path()).await;
    app.wait_js(
        &format!("return window.__trellisPerf && window.__trellisPerf.nodeCount() === {nodes};"),
        "the graph",
    )
    .await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let open = script(&app, OPEN, vec![]).await;
    assert_eq!(open["steps"].as_u64(), Some(steps as u64 + 1), "the run opened: {open}");
    let scrub = script(&app, SCRUB, vec![json!(200)]).await;
    let samples = |k: &str| -> Vec<f64> {
        scrub[k].as_array().map(|a| a.iter().filter_map(Value::as_f64).collect()).unwrap_or_default()
    };
    let (local, full) = (samples("local"), samples("full"));
    assert!(full.len() >= 100, "the scrubber moved: {scrub}");
    app.quit().await;

    let app = launch(&graph, &folder, data.path()).await;
    app.wait_js(
        &format!("return window.__trellisPerf && window.__trellisPerf.nodeCount() === {nodes};"),
        "the graph",
    )
    .await;
    let agg = script(&app, FOLDER, vec![]).await;
    assert_eq!(agg["runs"].as_u64(), Some(folder_runs as u64), "the folder aggregated: {agg}");
    app.quit().await;

    record(json!({
        "kind": "runs", "nodes": nodes, "steps": steps, "folder_runs": folder_runs,
        "release": !cfg!(debug_assertions), "load_before": load_before, "load_after": load_average(),
        "open_ms": open["ms"], "scrub_to_ring": drive::stats(&local), "scrub_to_detail": drive::stats(&full),
        "folder_ms": agg["ms"],
    }));
}
