//! Issue 16's figure: pan and zoom of a generated graph with notes and groups against the same
//! graph without them, each in a fresh app, in the same run (the ratio of the p95 frame
//! intervals is the figure; the goal is at most 1.2). One group per 100 nodes (consecutive
//! ids: neighbours in the generated grid) and one note per 50 nodes; 5,000 nodes gives the
//! issue's 50 groups and 100 notes. `TRELLIS_NOTES_BENCH_NODES` sets the size (default 1,000,
//! one round: a quick check). Not a timed test: it records, it does not judge (the machine is
//! shared); it fails only when the drawing did not pan or zoom at all. Figures and how to
//! rerun: docs/BENCHMARKS.md, "Issue 16".

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{json, Value};

use crate::harness::{Desktop, Launch};
use crate::{drive, load_average, record};

fn size() -> usize {
    std::env::var("TRELLIS_NOTES_BENCH_NODES").ok().and_then(|v| v.trim().parse().ok()).unwrap_or(1000)
}

/// The generated document, and a copy of it whose sidecar also holds the notes and groups.
fn documents(dir: &Path, n: usize) -> (PathBuf, PathBuf) {
    let plain = trellis_bench::write_document(dir, n, 42).expect("generated document");
    let spec = trellis_bench::generate(n, 42);
    let mut sidecar: Value = serde_json::from_str(&trellis_bench::layout_text(&spec)).expect("sidecar JSON");
    let ids: Vec<&str> = spec.nodes.iter().map(|n| n.id.as_str()).collect();
    let colors = ["yellow", "blue", "green", "pink", "teal"];
    let groups: Vec<Value> = ids
        .chunks(100)
        .enumerate()
        .map(|(k, chunk)| json!({"id": format!("g{k}"), "name": format!("Stage {k}"), "color": colors[k % 5], "nodes": chunk, "notes": []}))
        .collect();
    let notes: Vec<Value> = ids
        .iter()
        .step_by(50)
        .enumerate()
        .map(|(k, id)| {
            let p = &sidecar["positions"][*id];
            json!({"id": format!("n{k}"), "text": format!("# Step {k}\nWhy *this* stage exists, in `markdown`."),
                "color": colors[k % 5], "x": p["x"].as_f64().unwrap_or(0.0) + 210.0, "y": p["y"], "width": 240, "height": 120})
        })
        .collect();
    sidecar["version"] = json!(2);
    sidecar["notes"] = Value::Array(notes);
    sidecar["groups"] = Value::Array(groups);
    let annotated_dir = dir.join("annotated");
    std::fs::create_dir_all(&annotated_dir).expect("folder");
    let annotated = annotated_dir.join(plain.file_name().expect("name"));
    std::fs::copy(&plain, &annotated).expect("copy");
    std::fs::write(
        trellis_doc::layout::sidecar_path(&annotated),
        serde_json::to_string_pretty(&sidecar).expect("text"),
    )
    .expect("sidecar");
    (plain, annotated)
}

async fn measure(doc: &Path, n: usize) -> Value {
    let data = tempfile::tempdir().expect("data dir");
    let app = Desktop::launch(Launch {
        files: vec![doc.to_path_buf()],
        data_dir: Some(data.path().to_path_buf()),
        as_shipped: true,
        ..Launch::default()
    })
    .await;
    app.driver.set_script_timeout(Duration::from_secs(120)).await.expect("script timeout");
    app.wait_js(
        &format!("return window.__trellisPerf && window.__trellisPerf.nodeCount() === {n};"),
        "the document",
    )
    .await;
    let groups = app
        .driver
        .execute("return document.querySelectorAll('.an-frame').length + '/' + document.querySelectorAll('.an-note').length", vec![])
        .await
        .map(|r| r.json().clone())
        .unwrap_or_default();
    app.driver.execute("window.__trellisPerf.fitView()", vec![]).await.expect("fit");
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let mut figures = drive::pan_and_zoom(&app, n).await;
    figures["frames_notes_drawn"] = groups;
    app.quit().await;
    figures
}

#[tokio::test(flavor = "multi_thread")]
async fn pan_and_zoom_with_notes_and_groups_against_without() {
    let n = size();
    let work = tempfile::tempdir().expect("tmp");
    let (plain, annotated) = documents(work.path(), n);
    let load_before = load_average();
    // Alternated (twice each when a size is asked for, else once), so a load change during
    // the run weighs on both.
    let mut rows = Vec::new();
    let rounds = if std::env::var_os("TRELLIS_NOTES_BENCH_NODES").is_some() { 2 } else { 1 };
    for round in 0..rounds {
        for (kind, doc) in [("without", &plain), ("with", &annotated)] {
            let f = measure(doc, n).await;
            assert!(f["pan"]["frames"].as_u64().unwrap_or(0) >= 10, "too few frames ({kind}): {f}");
            rows.push(json!({"round": round, "kind": kind, "figures": f}));
        }
    }
    let p95 = |kind: &str| -> f64 {
        let v: Vec<f64> = rows
            .iter()
            .filter(|r| r["kind"] == kind)
            .filter_map(|r| r["figures"]["all"]["p95"].as_f64())
            .collect();
        v.iter().sum::<f64>() / v.len().max(1) as f64
    };
    let (without, with) = (p95("without"), p95("with"));
    record(json!({
        "kind": "notes_and_groups", "nodes": n, "groups": n.div_ceil(100), "notes": n.div_ceil(50),
        "release": !cfg!(debug_assertions), "build": super::build(), "load_before": load_before, "load_after": load_average(),
        "p95_without_ms": without, "p95_with_ms": with, "ratio_p95": (with / without.max(0.001) * 100.0).round() / 100.0,
        "runs": rows,
    }));
}
