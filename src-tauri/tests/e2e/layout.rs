//! The automatic layout in the real app, read from the page as drawn: a document opened
//! without a layout file reads left to right (no edge points back, no node on another, no
//! label under a node), a loop back runs outside the forward edges, and the window is up with
//! the open's progress moving while a large file is laid out.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::harness::{repo_root, Desktop, Launch};

/// A box in flow coordinates.
#[derive(Debug, Clone, Copy)]
struct Rect {
    x: f64,
    y: f64,
    w: f64,
    h: f64,
}

impl Rect {
    fn of(v: &Value) -> Rect {
        let f = |k: &str| v[k].as_f64().unwrap_or(f64::NAN);
        Rect { x: f("x"), y: f("y"), w: f("w"), h: f("h") }
    }
    fn overlaps(&self, o: &Rect) -> bool {
        self.x < o.x + o.w && o.x < self.x + self.w && self.y < o.y + o.h && o.y < self.y + self.h
    }
    fn right(&self) -> f64 {
        self.x + self.w
    }
    fn bottom(&self) -> f64 {
        self.y + self.h
    }
}

/// What the page draws, in flow coordinates: nodes (from React Flow's node elements), edge
/// labels (from the label elements: their place and measured size) and edges (the drawn
/// path's box).
#[derive(Debug, Default)]
struct Drawn {
    nodes: HashMap<String, Rect>,
    labels: HashMap<String, Rect>,
    edges: HashMap<String, Rect>,
}

const READ_DRAWN: &str = r#"
    const out = { nodes: {}, labels: {}, edges: {} };
    const last = (t) => { const m = [...t.matchAll(/translate\(([-\d.e]+)px,\s*([-\d.e]+)px\)/g)].pop(); return m && [+m[1], +m[2]]; };
    for (const el of document.querySelectorAll('.react-flow__node')) {
      const p = last(el.style.transform || '');
      if (p) out.nodes[el.dataset.id] = { x: p[0], y: p[1], w: el.offsetWidth, h: el.offsetHeight };
    }
    for (const el of document.querySelectorAll('.te-label[data-edge]')) {
      const p = last(el.style.transform || '');
      const w = el.offsetWidth, h = el.offsetHeight;
      if (p) out.labels[el.dataset.edge] = { x: p[0] - w / 2, y: p[1] - h / 2, w, h };
    }
    for (const el of document.querySelectorAll('[data-testid^="rf__edge-"]')) {
      const path = el.querySelector('path.react-flow__edge-path');
      if (!path) continue;
      const b = path.getBBox();
      out.edges[el.dataset.testid.slice('rf__edge-'.length)] = { x: b.x, y: b.y, w: b.width, h: b.height };
    }
    return out;
"#;

/// Copies a layout fixture (crates/layout/fixtures) and its registry into a fresh folder: a
/// document without a layout file, as a user's would be.
fn fixture(dir: &Path, name: &str) -> PathBuf {
    let from = repo_root().join("crates/layout/fixtures");
    for f in [name, "flows.registry.json"] {
        std::fs::copy(from.join(f), dir.join(f)).expect("copy the fixture");
    }
    dir.join(name)
}

/// Pans over the whole graph at a zoom the DOM drawing is used at, reading what is drawn at
/// each stop (React Flow renders only what is in view).
async fn read_drawing(app: &Desktop, id: &str) -> Drawn {
    let view = app.view(id).await;
    let positions = view["layout"]["positions"].as_object().expect("positions").clone();
    let (mut x0, mut y0, mut x1, mut y1) =
        (f64::INFINITY, f64::INFINITY, f64::NEG_INFINITY, f64::NEG_INFINITY);
    for p in positions.values() {
        let (x, y) = (p["x"].as_f64().unwrap_or(0.0), p["y"].as_f64().unwrap_or(0.0));
        (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x + 200.0), y1.max(y + 60.0));
    }
    let size = app
        .js("const r = document.querySelector('[data-testid=canvas]').getBoundingClientRect(); return [r.width, r.height];")
        .await;
    let (cw, ch) = (size[0].as_f64().expect("width"), size[1].as_f64().expect("height"));
    let zoom = 0.7;
    let (vw, vh) = (cw / zoom, ch / zoom);
    let mut drawn = Drawn::default();
    let mut cy = y0 - 200.0 + vh / 2.0;
    loop {
        let mut cx = x0 - 200.0 + vw / 2.0;
        loop {
            let script = format!(
                "window.__trellisPerf.setViewport({{x: {} , y: {}, zoom: {zoom}}});",
                cw / 2.0 - cx * zoom,
                ch / 2.0 - cy * zoom
            );
            app.driver.execute(&script, vec![]).await.expect("pan");
            app.wait_js("return window.__trellisPerf.renderMode() === 'dom';", "the DOM drawing").await;
            tokio::time::sleep(Duration::from_millis(700)).await;
            let got = app.js(READ_DRAWN).await;
            for (key, map) in
                [("nodes", &mut drawn.nodes), ("labels", &mut drawn.labels), ("edges", &mut drawn.edges)]
            {
                for (k, v) in got[key].as_object().into_iter().flatten() {
                    map.insert(k.clone(), Rect::of(v));
                }
            }
            if cx + vw / 2.0 > x1 + 200.0 {
                break;
            }
            cx += vw * 0.7;
        }
        if cy + vh / 2.0 > y1 + 300.0 {
            break;
        }
        cy += vh * 0.7;
    }
    drawn
}

/// Fits the graph (F) and takes a screenshot of what a user sees then.
async fn fit_and_look(app: &Desktop, name: &str) {
    app.focus_canvas().await;
    app.chord(&[], "f").await;
    tokio::time::sleep(Duration::from_millis(800)).await;
    app.screenshot(name).await;
}

/// The page's drawing reads left to right: every node drawn, no two on each other, every edge
/// of the document from a node into a node further right, no label over a node.
fn assert_reads_left_to_right(view: &Value, drawn: &Drawn, back_edges: &[usize]) {
    let ids: Vec<&str> =
        view["spec"]["nodes"].as_array().expect("nodes").iter().filter_map(|n| n["id"].as_str()).collect();
    for id in ids.iter().chain(&["__start__", "__end__"]) {
        assert!(drawn.nodes.contains_key(*id), "{id} is not drawn: {:?}", drawn.nodes.keys());
    }
    let nodes: Vec<(&String, &Rect)> = drawn.nodes.iter().collect();
    for (i, (a, ra)) in nodes.iter().enumerate() {
        for (b, rb) in &nodes[i + 1..] {
            assert!(!ra.overlaps(rb), "{a} {ra:?} and {b} {rb:?} overlap");
        }
    }
    for (k, e) in view["spec"]["edges"].as_array().expect("edges").iter().enumerate() {
        let (from, to) = (e["from"].as_str().expect("from"), e["to"].as_str().expect("to"));
        if from == to || back_edges.contains(&k) {
            continue;
        }
        let (a, b) = (drawn.nodes[from], drawn.nodes[to]);
        assert!(b.x >= a.right(), "edge {k} {from} -> {to} points back: {a:?} -> {b:?}");
    }
    for (edge, l) in &drawn.labels {
        for (id, n) in &drawn.nodes {
            assert!(!l.overlaps(n), "the label of {edge} {l:?} lies under {id} {n:?}");
        }
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_three_lane_pipeline_without_a_layout_file_reads_left_to_right() {
    let dir = tempfile::tempdir().expect("tmp");
    let path = fixture(dir.path(), "three-lane-pipeline.json");
    let app = Desktop::launch(Launch { files: vec![path], ..Launch::default() }).await;
    let id = app.doc_named("three-lane-pipeline.json").await;
    app.screenshot("layout-three-lanes-first-view").await;
    let view = app.view(&id).await;
    assert_eq!(view["layoutMissing"], true, "opened without a layout file");
    let drawn = read_drawing(&app, &id).await;
    assert_reads_left_to_right(&view, &drawn, &[]);
    // Every guarded edge's label is drawn, and the lanes are lanes: each lane's six steps on
    // one line.
    let guarded =
        view["spec"]["edges"].as_array().expect("edges").iter().filter(|e| e.get("when").is_some()).count();
    assert_eq!(drawn.labels.len(), guarded, "labels drawn: {:?}", drawn.labels.keys());
    for lane in ["inv", "rcp", "ctr"] {
        let ys: Vec<f64> =
            drawn.nodes.iter().filter(|(id, _)| id.starts_with(lane)).map(|(_, r)| r.y).collect();
        assert_eq!(ys.len(), 6);
        assert!(ys.iter().all(|&y| y == ys[0]), "lane {lane} is not one line: {ys:?}");
    }
    app.js("window.__trellisPerf.setViewport({x: 20, y: 20, zoom: 0.45});").await;
    app.screenshot("layout-three-lanes").await;
    fit_and_look(&app, "layout-three-lanes-fit").await;
    app.quit().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_loop_back_is_drawn_around_the_forward_edges_and_no_label_is_under_a_node() {
    let dir = tempfile::tempdir().expect("tmp");
    let path = fixture(dir.path(), "hand-flow.json");
    let app = Desktop::launch(Launch { files: vec![path], ..Launch::default() }).await;
    let id = app.doc_named("hand-flow.json").await;
    let view = app.view(&id).await;
    let edges = view["spec"]["edges"].as_array().expect("edges").clone();
    let back =
        edges.iter().position(|e| e["from"] == "review" && e["to"] == "draft_reply").expect("the loop");
    let drawn = read_drawing(&app, &id).await;
    assert_reads_left_to_right(&view, &drawn, &[back]);

    // The loop's lane runs under (or over) every node between its ends, and every forward
    // edge between those nodes runs on the other side of it.
    let lane = drawn.edges[&format!("e{back}")];
    let (target, source) = (drawn.nodes["draft_reply"], drawn.nodes["review"]);
    let spanned: Vec<&Rect> =
        drawn.nodes.values().filter(|n| n.right() > target.x && n.x < source.right()).collect();
    let below = spanned.iter().all(|n| lane.bottom() > n.bottom() + 8.0);
    let above = spanned.iter().all(|n| lane.y < n.y - 8.0);
    assert!(below || above, "the loop {lane:?} runs between the nodes it spans");
    for (k, e) in edges.iter().enumerate() {
        let (from, to) = (e["from"].as_str().unwrap_or(""), e["to"].as_str().unwrap_or(""));
        let inside =
            |id: &str| drawn.nodes.get(id).is_some_and(|n| n.right() > target.x && n.x < source.right());
        if k == back || from == to || !inside(from) || !inside(to) {
            continue;
        }
        let f = drawn.edges[&format!("e{k}")];
        let clear = if below { f.bottom() < lane.bottom() - 4.0 } else { f.y > lane.y + 4.0 };
        assert!(clear, "forward edge {k} {from} -> {to} {f:?} runs past the loop's lane {lane:?}");
    }
    // Its label sits on its lane, outside every node (checked above for all labels).
    let label = drawn.labels[&format!("e{back}")];
    assert!(if below {
        label.y > target.bottom().max(source.bottom())
    } else {
        label.bottom() < target.y.min(source.y)
    });
    app.js("window.__trellisPerf.setViewport({x: 20, y: 60, zoom: 0.55});").await;
    app.screenshot("layout-hand-flow").await;
    fit_and_look(&app, "layout-hand-flow-fit").await;
    app.quit().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_window_is_up_before_a_large_file_without_layout_is_laid_out() {
    // A user's large file of their own types, no layout file: large enough that its layout
    // outlasts the window's start even in the optimised build.
    let dir = tempfile::tempdir().expect("tmp");
    let path = trellis_bench::write_real_file(dir.path(), 250_000, 7).expect("a generated spec");
    let app = Desktop::launch(Launch { files: vec![path.clone()], early: true, ..Launch::default() }).await;
    // The window is up, and answers a command, with no document yet: the open does not hold
    // the documents while the file is read and laid out. Then the file opens, laid out.
    let open_at_first_look = !app.documents().await.is_empty();
    assert!(!open_at_first_look, "the file was open before the window answered");
    let deadline = Instant::now() + Duration::from_secs(300);
    loop {
        let ready = app
            .js("const a = document.querySelector('[data-testid=app]'); return a.dataset.ready === 'true';")
            .await;
        if ready == json!(true) {
            break;
        }
        assert!(Instant::now() < deadline, "the file did not open");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    app.screenshot("layout-250000-opened").await;
    let id = app.doc_named(path.file_name().and_then(|n| n.to_str()).expect("name")).await;
    assert!(app.placed_count(&id).await >= 250_000);
    app.quit().await;
}
