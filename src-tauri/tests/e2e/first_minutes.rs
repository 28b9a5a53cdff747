//! The first minutes with a real file, in the real app, each gesture done as a user
//! does it: a new graph with a type Trellis does not know is saved with its problem, said so;
//! a refused save adds no problem; nodes added by keyboard land apart; a pan-drag on the
//! 100,000-node overview moves nothing; a new note lands in front of nodes; the registry
//! editor asks before dropping field edits and keeps `required` in order; an import's loss
//! notices are a list; the texts agree; a hand-formatted file offers its reformatting as a step.

use std::time::Duration;

use serde_json::{json, Value};
use thirtyfour::prelude::*;

use crate::harness::{canonical, corpus, read, replace_atomically, wait_fs, Desktop, Launch};

fn node(id: &str) -> String {
    format!("[data-testid=\"node-{id}\"]")
}

/// The client rectangle of the first element matching `css` (`[left, top, width, height]`).
async fn rect(app: &Desktop, css: &str) -> [f64; 4] {
    app.visible(css).await;
    let r = app
        .driver
        .execute(
            "const r = document.querySelector(arguments[0]).getBoundingClientRect(); return [r.left, r.top, r.width, r.height];",
            vec![json!(css)],
        )
        .await
        .expect("rect");
    let v = r.json().as_array().cloned().unwrap_or_default();
    let f = |i: usize| v.get(i).and_then(Value::as_f64).unwrap_or(0.0);
    [f(0), f(1), f(2), f(3)]
}

/// The texts of the toasts shown.
async fn toasts(app: &Desktop) -> Vec<String> {
    let r = app
        .driver
        .execute(
            "return [...document.querySelectorAll('[data-testid=toast]')].map(t => t.textContent);",
            vec![],
        )
        .await
        .expect("toasts");
    r.json().as_array().into_iter().flatten().filter_map(|t| t.as_str().map(str::to_owned)).collect()
}

/// The text of the first visible element matching `css`, as it is in the page (WebDriver's own
/// text is empty for some text cut with an ellipsis).
async fn text_of(app: &Desktop, css: &str) -> String {
    let el = app.visible(css).await;
    let text =
        app.driver.execute("return arguments[0].textContent;", vec![el.to_json().expect("element")]).await;
    text.expect("text").json().as_str().unwrap_or_default().to_owned()
}

async fn open_problems(app: &Desktop) {
    let shown = app.js("return !!document.querySelector('[data-testid=problems-panel]');").await;
    if shown != json!(true) {
        app.visible("[data-testid=\"status-problems\"]").await.click().await.expect("open problems");
    }
}

/// A spec of the user's own runtime: one node of a type no registry describes.
fn own_runtime_node() -> Value {
    json!({"name": "theirs", "channels": {},
        "nodes": [{"id": "plan", "type": "planner", "config": {"depth": 3}}],
        "edges": [{"from": "__start__", "to": "plan"}, {"from": "plan", "to": "__end__"}]})
}

/// A new Untitled graph holding a node of a type Trellis does not know is saved (Save As, the
/// dialog answered by the test bypass): the file is written, the message and the status name
/// the problem, which stays on screen. Then a save refused for a change on disk adds no problem.
#[tokio::test(flavor = "multi_thread")]
async fn an_untitled_graph_with_an_unknown_type_is_saved_and_its_problem_named() {
    let dir = tempfile::tempdir().expect("tmp");
    std::fs::create_dir_all(dir.path().join(".git")).expect("no registry above");
    let theirs = dir.path().join("theirs.json");
    std::fs::write(&theirs, canonical(&own_runtime_node())).expect("write");
    let target = dir.path().join("mine.json");
    let app = Desktop::launch(Launch {
        files: vec![theirs],
        dialog_path: Some(target.clone()),
        ..Launch::default()
    })
    .await;
    let source = app.doc_named("theirs.json").await;

    // Copy the node of the user's own type, New, paste it there, and start the graph with it.
    app.visible(&node("plan")).await.click().await.expect("select plan");
    app.chord(&[Key::Control], "c").await;
    app.visible("[data-testid=\"btn-new\"]").await.click().await.expect("New");
    let id = app.wait_other_doc(&source).await;
    assert_eq!(text_of(&app, "[data-testid=\"status-dirty\"]").await, "not saved yet", "never saved");
    app.focus_canvas().await;
    app.chord(&[Key::Control], "v").await;
    app.wait_view(&id, "the pasted node", |v| v["spec"]["nodes"].as_array().is_some_and(|n| n.len() == 1))
        .await;
    crate::canvas::connect(&app, "__start__", "plan").await;
    let view = app
        .wait_view(&id, "the entry edge", |v| v["spec"]["edges"].as_array().is_some_and(|e| e.len() == 1))
        .await;
    let errors: Vec<&Value> =
        view["diagnostics"].as_array().into_iter().flatten().filter(|d| d["severity"] == "error").collect();
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert_eq!(errors[0]["code"], "spec/unknown-type");
    assert_eq!(text_of(&app, "[data-testid=\"status-dirty\"]").await, "not saved yet");

    // Ctrl+S on an untitled document is Save As: written with its problem, and said so.
    app.focus_canvas().await;
    app.chord(&[Key::Control], "s").await;
    wait_fs("the saved file", || target.exists()).await;
    let written = read(&target);
    assert!(written.contains("\"type\": \"planner\""), "{written}");
    assert_eq!(
        written,
        canonical(&serde_json::from_str(&written).expect("json")),
        "the canonical writer's text"
    );
    app.wait_js(
        "return [...document.querySelectorAll('[data-testid=toast]')].some(t => t.textContent.startsWith('Saved mine.json with 1 problem: ') && t.textContent.includes('The runtime will refuse it until it is fixed.'));",
        "the message naming the problem",
    )
    .await;
    let said = toasts(&app).await;
    assert!(said.iter().any(|t| t.contains("planner")), "the problem is named: {said:?}");
    let view = app.wait_view(&id, "saved", |v| v["dirty"] == false && v["path"].is_string()).await;
    assert_eq!(text_of(&app, "[data-testid=\"problem-count\"]").await, "1");
    assert_eq!(text_of(&app, "[data-testid=\"status-dirty\"]").await, "saved");
    open_problems(&app).await;
    let rows = app
        .js("return [...document.querySelectorAll('[data-testid=problem]')].map(p => p.dataset.code);")
        .await;
    assert_eq!(rows, json!(["spec/unknown-type"]), "the problem stays on screen, and only it");
    assert_eq!(view["diagnostics"].as_array().map(Vec::len), Some(1));

    // A save refused (the file changed on disk while edited) adds no problem of its own.
    // Nothing selected (Esc): the graph's inspector, where its name is.
    app.focus_canvas().await;
    app.chord(&[], &Key::Escape.value().to_string()).await;
    type_into(&app, "[data-testid=\"graph-name\"]", "mine").await;
    app.wait_view(&id, "the rename", |v| v["dirty"] == true).await;
    replace_atomically(&target, "{\"name\": \"someone else's\", \"nodes\": []}\n");
    app.visible("[data-testid=\"conflict-bar\"]").await;
    app.focus_canvas().await;
    app.chord(&[Key::Control], "s").await;
    app.wait_js(
        "return [...document.querySelectorAll('[data-testid=toast]')].some(t => t.textContent.includes('was not saved'));",
        "the refusal told",
    )
    .await;
    assert_eq!(text_of(&app, "[data-testid=\"problem-count\"]").await, "1", "a refusal is no problem");
    let rows = app.js("return document.querySelectorAll('[data-testid=problem]').length;").await;
    assert_eq!(rows, json!(1));
    assert_eq!(read(&target), "{\"name\": \"someone else's\", \"nodes\": []}\n", "nothing written");
    app.screenshot("first-minutes-saved-with-a-problem").await;
    app.quit().await;
}

/// Replaces the text of an input the way a user does (select all, type) and leaves it.
async fn type_into(app: &Desktop, css: &str, text: &str) {
    let el = app.visible(css).await;
    el.click().await.expect("focus");
    app.chord(&[Key::Control], "a").await;
    el.send_keys(text).await.expect("type");
    app.chord(&[], &Key::Tab.value().to_string()).await;
}

/// Two nodes added from the type search with the keyboard ("/", the name, Enter, Enter) land
/// on free spots: they do not overlap each other nor what was there.
#[tokio::test(flavor = "multi_thread")]
async fn two_nodes_added_by_keyboard_do_not_overlap() {
    let app = Desktop::launch(Launch::default()).await;
    let first = app.active_doc().await;
    app.visible("[data-testid=\"btn-new\"]").await.click().await.expect("New");
    let id = app.wait_other_doc(&first).await;
    app.focus_canvas().await;
    app.chord(&[], "/").await;
    let search = app.visible("[data-testid=\"registry-search\"]").await;
    search.send_keys("llm").await.expect("type");
    search.send_keys(Key::Enter.value().to_string()).await.expect("enter");
    let view = app
        .wait_view(&id, "the first node", |v| v["spec"]["nodes"].as_array().is_some_and(|n| n.len() == 1))
        .await;
    assert_eq!(view["diagnostics"], json!([]), "a fresh node on an empty document starts clean");
    search.send_keys(Key::Enter.value().to_string()).await.expect("enter again");
    let view = app
        .wait_view(&id, "the second node", |v| v["spec"]["nodes"].as_array().is_some_and(|n| n.len() == 2))
        .await;
    let pos = |id: &str| {
        let p = &view["layout"]["positions"][id];
        (p["x"].as_f64().unwrap_or(f64::NAN), p["y"].as_f64().unwrap_or(f64::NAN))
    };
    let ids: Vec<&str> =
        view["spec"]["nodes"].as_array().into_iter().flatten().filter_map(|n| n["id"].as_str()).collect();
    let (a, b) = (pos(ids[0]), pos(ids[1]));
    assert!((a.0 - b.0).abs() >= 200.0 || (a.1 - b.1).abs() >= 60.0, "{ids:?} overlap: {a:?} {b:?}");
    // Nor on the terminals, which the view places too.
    for t in ["__start__", "__end__"] {
        let p = pos(t);
        for q in [a, b] {
            let apart = p.0 + 44.0 <= q.0 || q.0 + 200.0 <= p.0 || p.1 + 44.0 <= q.1 || q.1 + 60.0 <= p.1;
            assert!(apart || p.0.is_nan(), "{t} at {p:?} under a node at {q:?}");
        }
    }
    // Both drawn, apart on screen.
    let ra = rect(&app, &node(ids[0])).await;
    let rb = rect(&app, &node(ids[1])).await;
    let overlap =
        ra[0] < rb[0] + rb[2] && rb[0] < ra[0] + ra[2] && ra[1] < rb[1] + rb[3] && rb[1] < ra[1] + ra[3];
    assert!(!overlap, "drawn over each other: {ra:?} {rb:?}");
    app.screenshot("first-minutes-two-keyboard-adds").await;
    app.quit().await;
}

/// A 100,000-node graph (its layout file beside it: a grid), fitted into the overview drawing:
/// a pan-drag starting between nodes moves the view, never a node; the document stays clean.
#[tokio::test(flavor = "multi_thread")]
async fn a_pan_drag_on_the_100000_node_overview_moves_nothing() {
    let dir = tempfile::tempdir().expect("tmp");
    let n = 100_000;
    let cols = 316;
    let nodes: Vec<Value> =
        (0..n).map(|i| json!({"id": format!("n{i}"), "type": "noop", "config": {}})).collect();
    let mut edges = vec![json!({"from": "__start__", "to": "n0"})];
    edges.extend((1..n).map(|i| json!({"from": format!("n{}", i - 1), "to": format!("n{i}")})));
    edges.push(json!({"from": format!("n{}", n - 1), "to": "__end__"}));
    let spec = json!({"name": "big", "channels": {}, "nodes": nodes, "edges": edges});
    let at = |i: usize| ((i % cols) as f64 * 260.0, (i / cols) as f64 * 120.0);
    let mut positions = serde_json::Map::new();
    for i in 0..n {
        let (x, y) = at(i);
        positions.insert(format!("n{i}"), json!({"x": x, "y": y}));
    }
    positions.insert("__start__".into(), json!({"x": -200, "y": 0}));
    positions.insert("__end__".into(), json!({"x": cols as f64 * 260.0 + 100.0, "y": 0}));
    let path = dir.path().join("big.json");
    std::fs::write(&path, canonical(&spec)).expect("write");
    std::fs::write(
        dir.path().join("big.layout.json"),
        json!({"version": 1, "positions": positions}).to_string(),
    )
    .expect("layout");
    let app = Desktop::launch(Launch { files: vec![path.clone()], ..Launch::default() }).await;
    let id = app.doc_named("big.json").await;

    // Fit (F): the whole graph, drawn by the overview canvas.
    app.focus_canvas().await;
    app.chord(&[], "f").await;
    app.wait_js("return window.__trellisPerf.renderMode() === 'canvas';", "the overview drawing").await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let before = app.js("return window.__trellisPerf.getViewport();").await;
    let zoom = before["zoom"].as_f64().expect("zoom");
    assert!(zoom < 0.05, "fitted far out: {before}");
    // A point in the gap between two nodes of the middle of the grid, on screen.
    let k = (n / 2 / cols) * cols + cols / 2;
    let (x, y) = at(k);
    let (gx, gy) = (x + 200.0 + 30.0, y + 30.0);
    let box_ = rect(&app, "[data-testid=\"canvas\"]").await;
    let sx = box_[0] + before["x"].as_f64().unwrap_or(0.0) + gx * zoom;
    let sy = box_[1] + before["y"].as_f64().unwrap_or(0.0) + gy * zoom;
    let mut chain = app.driver.action_chain_with_delay(None, Some(Duration::from_millis(16)));
    chain = chain.move_to(sx.round() as i64, sy.round() as i64).click_and_hold();
    for _ in 0..20 {
        chain = chain.move_by_offset(-6, -3);
    }
    chain.release().perform().await.expect("drag");
    tokio::time::sleep(Duration::from_millis(800)).await;
    let after = app.js("return window.__trellisPerf.getViewport();").await;
    let moved = (after["x"].as_f64().unwrap_or(0.0) - before["x"].as_f64().unwrap_or(0.0))
        .hypot(after["y"].as_f64().unwrap_or(0.0) - before["y"].as_f64().unwrap_or(0.0));
    assert!(moved > 40.0, "the drag panned the view: {before} -> {after}");
    let doc = app.documents().await.into_iter().find(|d| d["id"] == id.as_str()).expect("the document");
    assert_eq!(doc["dirty"], false, "the document stays clean: {doc}");
    let undo = app.js("return document.querySelector('[data-testid=btn-undo]').disabled;").await;
    assert_eq!(undo, json!(true), "no step was made");
    app.screenshot("first-minutes-overview-pan").await;
    app.quit().await;
}

/// A new note (command palette) lands where nothing is under it, and in front of the nodes.
#[tokio::test(flavor = "multi_thread")]
async fn a_new_note_lands_in_front_of_nodes() {
    let app = Desktop::launch(Launch::default()).await;
    let id = app.active_doc().await;
    app.focus_canvas().await;
    app.chord(&[Key::Control], "k").await;
    app.visible("[data-testid=\"palette-input\"]").await.send_keys("add a note").await.expect("type");
    app.visible("[data-testid=\"palette-item\"][data-action=\"add-note\"]").await;
    app.chord(&[], &Key::Enter.value().to_string()).await;
    let view = app
        .wait_view(&id, "the note", |v| v["layout"]["notes"].as_array().is_some_and(|n| n.len() == 1))
        .await;
    let note = view["layout"]["notes"][0]["id"].as_str().expect("note id").to_owned();
    let css = format!("[data-testid=\"note-{note}\"]");
    let r = rect(&app, &css).await;
    // Its centre and its corners show the note itself, not a node drawn over it.
    for (fx, fy) in [(0.5, 0.5), (0.1, 0.1), (0.9, 0.1), (0.1, 0.9), (0.9, 0.9)] {
        let on_top = app
            .driver
            .execute(
                "const [css, x, y] = arguments; const e = document.elementFromPoint(x, y); return !!e && !!e.closest(css);",
                vec![json!(css), json!(r[0] + r[2] * fx), json!(r[1] + r[3] * fy)],
            )
            .await
            .expect("hit");
        assert_eq!(on_top.json(), &json!(true), "the note is in front at ({fx}, {fy}) of {r:?}");
    }
    // And no node lies under it (the free spot nearest the centre of the view).
    let (nx, ny) = (
        view["layout"]["notes"][0]["x"].as_f64().unwrap_or(0.0),
        view["layout"]["notes"][0]["y"].as_f64().unwrap_or(0.0),
    );
    for (nid, p) in view["layout"]["positions"].as_object().into_iter().flatten() {
        let (x, y) = (p["x"].as_f64().unwrap_or(0.0), p["y"].as_f64().unwrap_or(0.0));
        let apart = x + 200.0 <= nx || nx + 240.0 <= x || y + 60.0 <= ny || ny + 160.0 <= y;
        assert!(apart, "the note at ({nx}, {ny}) covers {nid} at ({x}, {y})");
    }
    app.screenshot("first-minutes-new-note").await;
    app.quit().await;
}

/// The registry editor: a field edited and not saved is not dropped without asking (closing or
/// choosing another type asks; "Keep editing" keeps the edit, "Discard" drops it), and saving a
/// required field keeps `required` in the user's order.
#[tokio::test(flavor = "multi_thread")]
async fn the_registry_editor_asks_before_dropping_field_edits_and_keeps_required_in_order() {
    let dir = tempfile::tempdir().expect("tmp");
    std::fs::create_dir_all(dir.path().join(".git")).expect("mkdir");
    let path = dir.path().join("plan.json");
    std::fs::write(
        &path,
        canonical(&json!({"name": "p", "channels": {}, "nodes": [{"id": "plan", "type": "planner", "config": {"goal": "g", "depth": 2, "style": "s"}}],
            "edges": [{"from": "__start__", "to": "plan"}, {"from": "plan", "to": "__end__"}]})),
    )
    .expect("write");
    let registry = dir.path().join("project.registry.json");
    std::fs::write(
        &registry,
        serde_json::to_string_pretty(&json!({"types": [
            {"type": "planner", "title": "Planner", "config_schema": {"type": "object",
                "properties": {"goal": {"type": "string"}, "depth": {"type": "integer"}, "style": {"type": "string"}},
                "required": ["style", "goal", "depth"]}},
            {"type": "critic", "title": "Critic"}]}))
        .expect("json"),
    )
    .expect("write");
    let app = Desktop::launch(Launch { files: vec![path], ..Launch::default() }).await;
    app.visible("[data-testid=\"registry-edit-toggle\"]").await.click().await.expect("open the editor");
    app.visible("[data-testid=\"registry-edit-type-planner\"]").await.click().await.expect("planner");

    // Save an edit of `goal` (required, second): `required` keeps its order.
    app.visible("[data-testid=\"field-goal-description\"]")
        .await
        .send_keys("what to plan")
        .await
        .expect("type");
    app.visible("[data-testid=\"field-goal-save\"]").await.click().await.expect("save the field");
    wait_fs("the registry written", || read(&registry).contains("what to plan")).await;
    let manifest: Value = serde_json::from_str(&read(&registry)).expect("json");
    assert_eq!(manifest["types"][0]["config_schema"]["required"], json!(["style", "goal", "depth"]));

    // An unsaved edit of `depth`; choosing another type asks; keep editing keeps it.
    app.visible("[data-testid=\"field-depth-description\"]").await.send_keys("how deep").await.expect("type");
    app.visible("[data-testid=\"registry-edit-type-critic\"]").await.click().await.expect("another type");
    app.visible("[data-testid=\"registry-unsaved\"]").await;
    assert_eq!(
        app.js("return document.querySelector('[data-testid=type-editor]').dataset.type;").await,
        json!("planner")
    );
    app.visible("[data-testid=\"registry-keep-editing\"]").await.click().await.expect("keep editing");
    let kept =
        app.js("return document.querySelector('[data-testid=\"field-depth-description\"]').value;").await;
    assert_eq!(kept, json!("how deep"));
    // Closing the editor asks too; discarding drops the edit and closes it.
    app.visible("[data-testid=\"registry-editor-close\"]").await.click().await.expect("close");
    app.visible("[data-testid=\"registry-unsaved\"]").await;
    assert!(app.js("return !!document.querySelector('[data-testid=registry-editor]');").await == json!(true));
    app.screenshot("first-minutes-registry-asks").await;
    app.visible("[data-testid=\"registry-discard\"]").await.click().await.expect("discard");
    app.wait_js("return !document.querySelector('[data-testid=registry-editor]');", "the editor to close")
        .await;
    assert!(!read(&registry).contains("how deep"), "the discarded edit was not written");
    app.quit().await;
}

/// A Weaveflow definition imported as a GraphSpec leaves many loss notices: the status bar shows
/// one line and "+N more", which opens them all as a list inside the window, one per line.
#[tokio::test(flavor = "multi_thread")]
async fn an_imports_loss_notices_are_a_readable_list() {
    let file = corpus("weaveflow/supervisor_mode.json");
    let app = Desktop::launch(Launch { dialog_path: Some(file), ..Launch::default() }).await;
    let first = app.active_doc().await;
    app.chord(&[Key::Control], "k").await;
    app.visible("[data-testid=\"palette-input\"]").await.send_keys("import").await.expect("type");
    app.visible("[data-testid=\"palette-item\"][data-action=\"import\"]").await;
    app.chord(&[], &Key::Enter.value().to_string()).await;
    let id = app.wait_other_doc(&first).await;
    let view = app.view(&id).await;
    let n = view["notices"].as_array().map_or(0, Vec::len);
    assert!(n > 5, "an import with many losses: {n}");
    let window_w = app.js("return window.innerWidth;").await.as_f64().unwrap_or(0.0);
    let status = rect(&app, "[data-testid=\"status-bar\"]").await;
    assert!(status[2] <= window_w + 1.0 && status[3] < 40.0, "the status bar stays one line: {status:?}");
    let toggle = app.visible("[data-testid=\"notices-toggle\"]").await;
    assert_eq!(toggle.text().await.expect("text"), format!("+{} more", n - 1));
    toggle.click().await.expect("open the list");
    let list = rect(&app, "[data-testid=\"notices-list\"]").await;
    assert!(list[0] >= 0.0 && list[0] + list[2] <= window_w + 1.0, "inside the window: {list:?}");
    let items = app
        .js("return [...document.querySelectorAll('[data-testid=notice-item]')].map(e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.width]; });")
        .await;
    let items = items.as_array().cloned().unwrap_or_default();
    assert_eq!(items.len(), n);
    let left = items[0][0].as_f64().unwrap_or(0.0);
    let mut top = f64::NEG_INFINITY;
    for it in &items {
        assert!((it[0].as_f64().unwrap_or(0.0) - left).abs() < 1.0, "one column: {items:?}");
        let t = it[1].as_f64().unwrap_or(0.0);
        assert!(t > top, "one per line, in order: {items:?}");
        top = t;
    }
    app.screenshot("first-minutes-import-notices").await;
    app.quit().await;
}

/// The texts agree: "1 node" (not "1 nodes"), the problems panel's heading and the status count
/// the same, and the channel table counts the configs that name a channel.
#[tokio::test(flavor = "multi_thread")]
async fn the_texts_agree() {
    let dir = tempfile::tempdir().expect("tmp");
    let path = dir.path().join("one.json");
    std::fs::write(
        &path,
        canonical(&json!({"name": "one", "channels": {"messages": {"reducer": "append"}, "spare": {"reducer": "last_write"}},
            "nodes": [{"id": "ask", "type": "llm", "config": {"model": "m", "messages_channel": "messages", "temperature": 9}}],
            "edges": [{"from": "__start__", "to": "ask"}, {"from": "ask", "to": "ghost"}]})),
    )
    .expect("write");
    let app = Desktop::launch(Launch { files: vec![path], ..Launch::default() }).await;
    let size = text_of(&app, "[data-testid=\"status-size\"]").await;
    assert_eq!(size, "1 node · 2 edges");
    open_problems(&app).await;
    let errors = text_of(&app, "[data-testid=\"problem-count\"]").await;
    let summary = app.visible("[data-testid=\"problems-summary\"]").await;
    assert_eq!(summary.attr("data-errors").await.expect("attr").as_deref(), Some(errors.as_str()));
    let summary_text = summary.text().await.expect("text");
    assert!(summary_text.contains(&format!("{errors} error")), "{summary_text} vs ✖ {errors}");
    // Nothing selected: the graph inspector's channel table.
    app.focus_canvas().await;
    app.wait_js_showing(
        "return JSON.stringify([...document.querySelectorAll('[data-testid=channel-row]')].map(r => [r.dataset.channel, r.querySelector('.num').textContent])) === '[[\"messages\",\"1\"],[\"spare\",\"0\"]]';",
        "the channel table's uses",
        "return JSON.stringify([...document.querySelectorAll('[data-testid=channel-row]')].map(r => [r.dataset.channel, r.querySelector('.num').textContent]));",
    )
    .await;
    app.quit().await;
}

/// The hand-formatted 12-node spec of a runtime Trellis does not know: marked on open with the
/// lines its first save reformats; "Reformat now" is an undo step of its own, and the save that
/// follows writes only the reformatting (the canonical text of the document as read).
#[tokio::test(flavor = "multi_thread")]
async fn a_hand_formatted_file_offers_its_reformatting_as_a_step() {
    let dir = tempfile::tempdir().expect("tmp");
    std::fs::create_dir_all(dir.path().join(".git")).expect("mkdir");
    let path = dir.path().join("research.json");
    let original = crate::registry::own_runtime_spec();
    std::fs::write(&path, &original).expect("write");
    let app = Desktop::launch(Launch { files: vec![path.clone()], ..Launch::default() }).await;
    let id = app.doc_named("research.json").await;
    let parsed = trellis_spec::read::parse_spec(&original).spec.expect("reads");
    let canonical_text = trellis_spec::writer::to_canonical_string(&parsed);
    // Lines of the file that the canonical text does not hold, each counted as often as it is
    // missing (the save's own measure).
    let mut left: Vec<&str> = canonical_text.lines().collect();
    let mut changed = 0;
    for line in original.lines() {
        match left.iter().position(|c| *c == line) {
            Some(k) => {
                left.swap_remove(k);
            }
            None => changed += 1,
        }
    }
    let css = "[data-testid=\"notice\"][data-code=\"doc/hand-formatted\"]";
    app.visible(css).await;
    assert_eq!(
        text_of(&app, css).await,
        format!("research.json is not in canonical form: its first save will reformat {changed} lines")
    );
    app.screenshot("first-minutes-hand-formatted").await;
    app.visible("[data-testid=\"reformat-now\"]").await.click().await.expect("reformat now");
    let view = app.wait_view(&id, "the reformat step", |v| v["dirty"] == true && v["canUndo"] == true).await;
    assert!(!view["notices"].as_array().into_iter().flatten().any(|n| n["code"] == "doc/hand-formatted"));
    assert_eq!(read(&path), original, "nothing is written before Save");
    app.focus_canvas().await;
    app.chord(&[Key::Control], "s").await;
    wait_fs("the reformatting saved", || read(&path) != original).await;
    assert_eq!(read(&path), canonical_text, "the save writes the reformatting alone");
    // Saved with its problems (twelve types no registry describes), and the reformatting said.
    app.wait_js(
        &format!("return [...document.querySelectorAll('[data-testid=toast]')].some(t => t.textContent.startsWith('Saved research.json in canonical form with 12 problems') && t.textContent.includes('{changed} lines reformatted'));"),
        "the save says what it reformatted",
    )
    .await;
    app.quit().await;
}
