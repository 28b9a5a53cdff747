//! Issue 49's figures: the text pane on the peer harness's generated GraphSpec
//! (`../shared/peer-bench/gen-spec.mjs N`, opened without a layout file), in the real app as it
//! ships, timed in the page (`window.__trellisTextPerf`, ui/src/textPane/textPerf.ts):
//!
//! - the pane opening (Ctrl+E to the frame showing the text), after the canvas drew the graph;
//! - keystrokes typed into a config value in the middle of the text (keydown to the next frame);
//! - the canvas taking what was typed (the last keystroke before the pause to the frame after the
//!   canvas took Rust's answer: the pause itself, 150 ms, is in it);
//! - a canvas edit (a config field set as the inspector sets it) to the frame after the pane
//!   showed its text change.
//!
//! `TRELLIS_TEXT_BENCH_NODES` sets the sizes (default `10000`); at 100,000 the text is too large to
//! edit and the pane says so: only its opening is measured. It records and does not judge (the
//! machine is shared); it fails only when something did not happen at all.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{json, Value};
use thirtyfour::prelude::*;

use crate::harness::{repo_root, Desktop, Launch};
use crate::{drive, load_average, record};

fn sizes() -> Vec<usize> {
    match std::env::var("TRELLIS_TEXT_BENCH_NODES") {
        Ok(s) if !s.trim().is_empty() => s.split(',').map(|x| x.trim().parse().expect("a number")).collect(),
        _ => vec![10_000],
    }
}

/// The peer harness's document of `n` nodes (no layout file beside it).
fn generated(dir: &Path, n: usize) -> PathBuf {
    let doc = dir.join("peer.json");
    let generator = repo_root().join("../shared/peer-bench/gen-spec.mjs");
    let made = std::process::Command::new("node")
        .arg(&generator)
        .arg(n.to_string())
        .arg(&doc)
        .stdout(std::process::Stdio::null())
        .status()
        .unwrap_or_else(|e| panic!("node {}: {e}", generator.display()));
    assert!(made.success(), "{} {n} failed", generator.display());
    doc
}

async fn perf(app: &Desktop, key: &str) -> Vec<f64> {
    let v = app.js(&format!("return window.__trellisTextPerf.{key};")).await;
    v.as_array().map(|a| a.iter().filter_map(Value::as_f64).collect()).unwrap_or_default()
}

/// Where `needle` is in the pane's text (UTF-16), searched from about the middle.
async fn place_in_middle(app: &Desktop, needle: &str) -> Option<u64> {
    let v = app
        .driver
        .execute(
            "const t = window.__trellisTextPane.text(); const at = t.indexOf(arguments[0], t.length >> 1); return at < 0 ? null : at;",
            vec![json!(needle)],
        )
        .await
        .ok()?;
    v.json().as_u64()
}

#[tokio::test(flavor = "multi_thread")]
async fn text_pane_figures() {
    for n in sizes() {
        let work = tempfile::tempdir().expect("tmp");
        let doc = generated(work.path(), n);
        let data = tempfile::tempdir().expect("data dir");
        let load_before = load_average();
        let app = Desktop::launch(Launch {
            files: vec![doc.clone()],
            data_dir: Some(data.path().to_path_buf()),
            as_shipped: true,
            request_timeout: Some(Duration::from_secs(600)),
            ..Launch::default()
        })
        .await;
        app.driver.set_script_timeout(Duration::from_secs(300)).await.expect("script timeout");
        let first_drawn = app.js("return window.__trellisPerf?.firstDrawnAt() ?? null;").await;
        tokio::time::sleep(Duration::from_millis(1500)).await;

        // Open: Ctrl+E from the canvas to the frame showing the text.
        app.focus_canvas().await;
        app.chord(&[Key::Control], "e").await;
        app.wait_js("return (window.__trellisTextPerf?.opened.length ?? 0) > 0;", "the pane to open").await;
        let opened = perf(&app, "opened").await;
        let chars = app.js("return window.__trellisTextPane.text().length;").await;
        let read_only = app
            .js("return document.querySelector('[data-testid=text-pane-read-only]')?.textContent ?? null;")
            .await;
        let mut line = json!({
            "kind": "text-pane", "nodes": n, "release": !cfg!(debug_assertions), "load_before": load_before,
            "canvas_first_drawn_ms": first_drawn, "pane_open_ms": opened.first(), "text_units": chars,
            "read_only": read_only,
        });
        if !read_only.is_null() {
            line["load_after"] = json!(load_average());
            record(line);
            app.quit().await;
            continue;
        }
        app.wait_js("return window.__trellisTextPane.synced();", "the pane in step").await;

        // Keystrokes: a config value in the middle of the text, typed into one key at a time.
        let at = place_in_middle(&app, "\"model\": \"").await.expect("a model value in the text");
        let at = at + "\"model\": \"".len() as u64;
        app.driver
            .execute(
                "window.__trellisTextPerf.reset(); return window.__trellisTextPane.select(arguments[0]);",
                vec![json!(at)],
            )
            .await
            .expect("cursor");
        let content = app.visible("[data-testid=\"text-pane\"] .cm-content").await;
        for round in 0..6 {
            for c in ["t", "y", "p", "e", "d"] {
                content.send_keys(c).await.expect("a key");
                tokio::time::sleep(Duration::from_millis(60)).await;
            }
            // The pause: the canvas takes what was typed.
            tokio::time::sleep(Duration::from_millis(1200)).await;
            let _ = round;
        }
        app.wait_js("return window.__trellisTextPane.synced();", "the typing read").await;
        let keys = perf(&app, "keys").await;
        let reflect = perf(&app, "reflect").await;
        assert!(keys.len() >= 20, "the keystrokes were seen: {keys:?}");
        assert!(!reflect.is_empty(), "the canvas took the typing: {reflect:?}");

        // Canvas edits: a config field set as the inspector sets it, to the pane showing it.
        let id = app.doc_named("peer.json").await;
        let node = app
            .driver
            .execute_async(
                "const [id, done] = arguments; window.__TAURI_INTERNALS__.invoke('get_document', {docId: id}).then((v) => done(v.spec.nodes[v.spec.nodes.length >> 1].id));",
                vec![json!(id)],
            )
            .await
            .expect("a node")
            .json()
            .clone();
        let mut reach = Vec::new();
        for k in 0..12 {
            let ms = app
                .driver
                .execute_async(
                    "const [node, k, done] = arguments; window.__trellisTextPerf.canvasEdit({op: 'set_config_field', id: node, path: '/bench', value: k}).then(done, () => done(null));",
                    vec![node.clone(), json!(k)],
                )
                .await
                .expect("a canvas edit")
                .json()
                .as_f64();
            reach.push(ms.expect("the pane got the edit's text"));
            tokio::time::sleep(Duration::from_millis(300)).await;
        }
        let text = app.js("return window.__trellisTextPane.text();").await;
        assert!(
            text.as_str().is_some_and(|t| t.contains("\"bench\": 11")),
            "the pane shows the last canvas edit"
        );

        line["keystroke"] = drive::stats(&keys);
        line["canvas_reflects_typing"] = drive::stats(&reflect);
        line["canvas_edit_to_pane"] = drive::stats(&reach);
        line["load_after"] = json!(load_average());
        record(line);
        app.quit().await;
    }
}
