//! Issue 14 in the real app: files that do not open are told in the window (command line and
//! Open dialog), a JSON file that is no graph is refused as such, and the find bar lands on a
//! node found by a config value in a 5,000-node document.

use serde_json::{json, Value};
use thirtyfour::prelude::*;

use crate::harness::{Desktop, Launch};

/// The notice about `file` (waits for it) and its text.
async fn notice_text(app: &Desktop, file: &str) -> String {
    let el = app.visible(&format!("[data-testid=\"open-failure\"][data-file=\"{file}\"]")).await;
    el.text().await.expect("notice text")
}

#[tokio::test(flavor = "multi_thread")]
async fn files_that_do_not_open_get_a_notice_with_the_reason_and_the_place() {
    let dir = tempfile::tempdir().expect("tmp");
    // A comma too many on line 3: a JSON syntax error with a place.
    let broken = dir.path().join("broken.json");
    std::fs::write(
        &broken,
        "{\n  \"nodes\": [\n    {\"id\": \"a\",, \"type\": \"noop\"}\n  ],\n  \"edges\": []\n}\n",
    )
    .expect("write");
    let package = dir.path().join("package.json");
    std::fs::write(
        &package,
        "{\n  \"name\": \"some-app\",\n  \"version\": \"1.0.0\",\n  \"scripts\": {\"test\": \"vitest\"}\n}\n",
    )
    .expect("write");
    let app = Desktop::launch(Launch {
        files: vec![broken.clone(), package.clone()],
        dialog_path: Some(package.clone()),
        ..Launch::default()
    })
    .await;

    // Named on the command line: neither opened, and the window says why.
    let text = notice_text(&app, "broken.json").await;
    assert!(text.contains("Could not open broken.json:3:"), "{text}");
    let text = notice_text(&app, "package.json").await;
    assert!(text.contains("not a graph document: no `nodes`"), "{text}");
    let docs = app.documents().await;
    assert!(
        docs.iter().all(|d| d["fileName"] != "broken.json" && d["fileName"] != "package.json"),
        "neither file opened as a document: {docs:?}"
    );
    app.screenshot("open-failures").await;

    // Dismissed, then the same file through the Open dialog: refused again, told again.
    app.visible("[data-testid=\"open-failure\"][data-file=\"package.json\"] button")
        .await
        .click()
        .await
        .expect("dismiss");
    app.wait_js(
        "return !document.querySelector('[data-testid=open-failure][data-file=\"package.json\"]');",
        "the notice to go",
    )
    .await;
    let refused = app.invoke("open_document_dialog", json!({})).await;
    let err = refused.expect_err("package.json is refused");
    assert!(err.to_string().contains("not a graph document"), "{err}");
    let text = notice_text(&app, "package.json").await;
    assert!(text.contains("not a graph document: no `nodes`"), "{text}");
    app.quit().await;
}

/// A 5,000-node GraphSpec whose nodes differ only by a config value, with a layout sidecar.
fn big_document(dir: &std::path::Path) -> std::path::PathBuf {
    let n = 5000;
    let nodes: Vec<Value> = (0..n)
        .map(|i| json!({"id": format!("step_{i}"), "type": "noop", "config": {"endpoint": format!("https://svc.example.com/orders/{i:05}")}}))
        .collect();
    let mut edges = vec![json!({"from": "__start__", "to": "step_0"})];
    edges.extend((1..n).map(|i| json!({"from": format!("step_{}", i - 1), "to": format!("step_{i}")})));
    edges.push(json!({"from": format!("step_{}", n - 1), "to": "__end__"}));
    let spec = json!({"name": "big", "channels": {}, "nodes": nodes, "edges": edges});
    let positions: serde_json::Map<String, Value> =
        (0..n).map(|i| (format!("step_{i}"), json!({"x": (i / 70) * 280, "y": (i % 70) * 100}))).collect();
    let path = dir.join("big.json");
    std::fs::write(&path, serde_json::to_string(&spec).expect("json")).expect("write");
    std::fs::write(dir.join("big.layout.json"), json!({"version": 1, "positions": positions}).to_string())
        .expect("write layout");
    path
}

#[tokio::test(flavor = "multi_thread")]
async fn find_lands_on_a_node_found_by_a_config_value_in_5000_nodes() {
    let dir = tempfile::tempdir().expect("tmp");
    let path = big_document(dir.path());
    let app = Desktop::launch(Launch { files: vec![path], ..Launch::default() }).await;
    app.doc_named("big.json").await;
    // Opened readable (around the entry, or the overview of the whole graph when the canvas
    // draws it): either way the node searched for is far from the view, not in the DOM.
    app.wait_js("return !!document.querySelector('[data-testid=canvas]')?.dataset.renderMode;", "the canvas")
        .await;
    let before: Value = app
        .driver
        .execute(
            "return [document.querySelector('[data-testid=canvas]').dataset.renderMode, \
             document.querySelector('.react-flow__viewport')?.style.transform ?? '', \
             !!document.querySelector('[data-testid=node-step_4321]')];",
            vec![],
        )
        .await
        .expect("script")
        .json()
        .clone();
    assert_eq!(before[2], json!(false), "the node is not drawn before it is found: {before}");

    app.chord(&[Key::Control], "f").await;
    let input = app.visible("[data-testid=\"find-input\"]").await;
    input.send_keys("orders/04321").await.expect("type");
    app.wait_js(
        "return document.querySelector('[data-testid=find-count]')?.dataset.total === '1';",
        "one match",
    )
    .await;
    input.send_keys(Key::Enter).await.expect("enter");

    // Landed: the node is drawn, in view, selected, and the inspector shows it.
    let node = app.visible("[data-testid=\"node-step_4321\"]").await;
    let class = node.attr("class").await.expect("class").unwrap_or_default();
    assert!(class.contains("tn-selected"), "the found node is selected: {class}");
    let inspector = app.visible("[data-testid=\"inspector\"]").await;
    assert_eq!(inspector.attr("data-kind").await.expect("kind").as_deref(), Some("node"));
    let in_view: bool = app
        .driver
        .execute(
            "const r = document.querySelector('[data-testid=node-step_4321]').getBoundingClientRect(); \
             const c = document.querySelector('[data-testid=canvas]').getBoundingClientRect(); \
             return r.left >= c.left && r.right <= c.right && r.top >= c.top && r.bottom <= c.bottom;",
            vec![],
        )
        .await
        .expect("script")
        .json()
        .as_bool()
        .unwrap_or(false);
    assert!(in_view, "the found node is inside the canvas");
    app.screenshot("find-5000").await;

    // Esc: back to the view from before (same drawing mode, same pan and zoom).
    input.send_keys(Key::Escape).await.expect("esc");
    app.wait_js(
        &format!(
            "return document.querySelector('[data-testid=canvas]')?.dataset.renderMode === {} && \
             (document.querySelector('.react-flow__viewport')?.style.transform ?? '') === {};",
            before[0], before[1]
        ),
        "the view from before",
    )
    .await;
    assert!(app.driver.find_all(By::Css("[data-testid=\"find-bar\"]")).await.expect("query").is_empty());
    app.quit().await;
}
