//! Issue 13 in the real app: a graph opened without a layout file is drawn at Rust's layout,
//! the overview drawing shows node names where they are legible, and an edge clicked in the
//! overview is selected and shown by the inspector.

use serde_json::{json, Value};

use crate::harness::{canonical, Desktop, Launch};

/// A 200-node pipeline shaped like the corpus and `gen-spec.mjs`: a chain with forward skips,
/// a few guarded routes and loops back; no layout file.
fn pipeline() -> Value {
    let n = 200;
    let nodes: Vec<Value> =
        (0..n).map(|i| json!({"id": format!("step_{i}"), "type": "noop", "config": {}})).collect();
    let mut edges = vec![json!({"from": "__start__", "to": "step_0"})];
    for i in 0..n - 1 {
        edges.push(json!({"from": format!("step_{i}"), "to": format!("step_{}", i + 1)}));
        if i % 3 == 0 && i + 5 < n {
            edges.push(json!({"from": format!("step_{i}"), "to": format!("step_{}", i + 5),
                "when": {"channel": "route", "eq": "skip"}}));
        }
        if i % 17 == 0 && i > 10 {
            edges.push(json!({"from": format!("step_{i}"), "to": format!("step_{}", i - 7),
                "when": {"channel": "retry", "truthy": true}}));
        }
    }
    edges.push(json!({"from": format!("step_{}", n - 1), "to": "__end__"}));
    json!({"name": "pipeline", "channels": {"route": {"reducer": "last_write"}, "retry": {"reducer": "last_write"}},
        "nodes": nodes, "edges": edges})
}

#[tokio::test(flavor = "multi_thread")]
async fn a_200_node_graph_without_layout_opens_laid_out_names_drawn_and_edges_clickable() {
    let dir = tempfile::tempdir().expect("tmp");
    let path = dir.path().join("pipeline.json");
    std::fs::write(&path, canonical(&pipeline())).expect("write");
    let app = Desktop::launch(Launch { files: vec![path.clone()], ..Launch::default() }).await;
    let id = app.doc_named("pipeline.json").await;

    // Laid out by Rust before the first view: every node placed, no undo step, not dirty.
    let view = app.view(&id).await;
    let positions = &view["layout"]["positions"];
    assert!((0..200).all(|i| positions[format!("step_{i}")]["x"].is_number()), "every node is placed");
    assert_eq!(view["canUndo"], false);
    assert_eq!(view["dirty"], false);
    assert!(!dir.path().join("pipeline.layout.json").exists(), "nothing is written on open");

    // Zoomed out into the overview drawing, around step_0: its name is drawn.
    let p = &positions["step_0"];
    let (x, y) = (p["x"].as_f64().expect("x"), p["y"].as_f64().expect("y"));
    let script = format!(
        "const r = document.querySelector('[data-testid=canvas]').getBoundingClientRect();
         window.__trellisPerf.setViewport({{x: r.width / 2 - {cx} * 0.3, y: r.height / 2 - {cy} * 0.3, zoom: 0.3}});",
        cx = x + 100.0,
        cy = y + 30.0
    );
    app.driver.execute(&script, vec![]).await.expect("zoom out");
    app.wait_js(
        "const p = window.__trellisPerf; return p.renderMode() === 'canvas' && p.overviewNames().includes('step_0');",
        "the overview to draw the name of step_0",
    )
    .await;

    // A real click on the middle of the edge step_0 -> step_1 as drawn selects it.
    let edges = view["spec"]["edges"].as_array().expect("edges");
    let k = edges.iter().position(|e| e["from"] == "step_0" && e["to"] == "step_1").expect("the edge");
    let at = app
        .driver
        .execute(
            "const [k] = arguments; const c = document.querySelector('[data-testid=canvas]').getBoundingClientRect();
             const p = window.__trellisPerf.edgePoint(k); return p && [p.x - (c.left + c.width / 2), p.y - (c.top + c.height / 2)];",
            vec![json!(k)],
        )
        .await
        .expect("edge point")
        .json()
        .clone();
    let (dx, dy) = (at[0].as_f64().expect("dx"), at[1].as_f64().expect("dy"));
    let canvas = app.visible("[data-testid=\"canvas\"]").await;
    app.driver
        .action_chain()
        .move_to_element_with_offset(&canvas, dx.round() as i64, dy.round() as i64)
        .click()
        .perform()
        .await
        .expect("click the edge in the overview");
    let inspector = app.visible("[data-testid=\"edge-inspector\"]").await;
    let text = inspector.text().await.expect("inspector text");
    assert!(text.contains("step_0") && text.contains("step_1"), "the inspector shows the edge: {text}");
    app.quit().await;
}
