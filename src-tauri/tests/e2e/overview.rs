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

    // A chain edge whose middle no condition label covers (labels are drawn on top and hit
    // first): the one farthest from every labelled edge's middle.
    let edges = view["spec"]["edges"].as_array().expect("edges");
    let pos = |id: &str| {
        let p = &positions[id];
        (p["x"].as_f64().unwrap_or(0.0), p["y"].as_f64().unwrap_or(0.0))
    };
    let middle = |e: &Value| {
        let (a, b) = (pos(e["from"].as_str().unwrap_or("")), pos(e["to"].as_str().unwrap_or("")));
        ((a.0 + 200.0 + b.0) / 2.0, (a.1 + 30.0 + b.1 + 30.0) / 2.0)
    };
    let labelled: Vec<(f64, f64)> = edges.iter().filter(|e| e.get("when").is_some()).map(middle).collect();
    let (k, (mx, my)) = (0..40)
        .filter_map(|i| {
            let k = edges
                .iter()
                .position(|e| e["from"] == format!("step_{i}") && e["to"] == format!("step_{}", i + 1))?;
            Some((k, middle(&edges[k])))
        })
        .max_by(|(_, a), (_, b)| {
            let clear = |m: &(f64, f64)| {
                labelled.iter().map(|l| (l.0 - m.0).hypot(l.1 - m.1)).fold(f64::INFINITY, f64::min)
            };
            clear(a).total_cmp(&clear(b))
        })
        .expect("a chain edge");
    let from = edges[k]["from"].as_str().expect("from").to_owned();
    let to = edges[k]["to"].as_str().expect("to").to_owned();

    // Zoomed out into the overview drawing, around that edge: its ends' names are drawn.
    let script = format!(
        "const r = document.querySelector('[data-testid=canvas]').getBoundingClientRect();
         window.__trellisPerf.setViewport({{x: r.width / 2 - {mx} * 0.3, y: r.height / 2 - {my} * 0.3, zoom: 0.3}});"
    );
    app.driver.execute(&script, vec![]).await.expect("zoom out");
    app.wait_js(
        &format!(
            "const p = window.__trellisPerf; return p.renderMode() === 'canvas' && p.overviewNames().includes('{from}');"
        ),
        "the overview to draw the name of the edge's source",
    )
    .await;

    // A real click on the middle of that edge as drawn selects it.
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
    assert!(text.contains(&format!("{from} → {to}")), "the inspector shows {from} → {to}: {text}");
    app.quit().await;
}
