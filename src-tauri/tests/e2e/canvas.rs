//! The canvas issue's end-to-end tests, through the UI (keyboard, clicks, drag and drop) of the
//! real app. The DOM is found by the `data-testid`s of `ui/TESTIDS.md`.

use serde_json::{json, Value};
use thirtyfour::prelude::*;

use crate::harness::{canonical, corpus, read, Desktop, Launch};

const SUPPORT: &str = "ilmek/docs/graphs-as-data.mdx-support-agent.json";

fn node(id: &str) -> String {
    format!("[data-testid=\"node-{id}\"]")
}

/// Copies a corpus file into `dir` (the test must never write into the corpus).
fn copy_corpus(dir: &std::path::Path, rel: &str, name: &str) -> std::path::PathBuf {
    let to = dir.join(name);
    std::fs::copy(corpus(rel), &to).expect("copy the corpus document");
    to
}

#[tokio::test(flavor = "multi_thread")]
async fn the_support_agent_as_it_is_names_intent_and_is_saved_with_it() {
    let dir = tempfile::tempdir().expect("tmp");
    let path = copy_corpus(dir.path(), SUPPORT, "support-agent.json");
    let before: Value = serde_json::from_slice(&std::fs::read(&path).expect("read")).expect("json");
    let app = Desktop::launch(Launch { files: vec![path.clone()], ..Launch::default() }).await;
    app.visible(&node("agent")).await;

    // The problems panel names the undeclared channel.
    let names_intent = "return [...document.querySelectorAll('[data-testid=problem]')].some(p => p.dataset.severity === 'error' && p.textContent.includes('intent'));";
    app.wait_js(names_intent, "an error naming `intent` in the problems panel").await;
    app.screenshot("canvas-problems").await;

    // Save from the keyboard: written all the same (work is never trapped), in canonical form,
    // the message counting the problem, and the problem still in view.
    app.focus_canvas().await;
    app.chord(&[Key::Control], "s").await;
    app.wait_js(
        "return [...document.querySelectorAll('[data-testid=toast]')].some(t => t.textContent.startsWith('Saved support-agent.json') && / [0-9]+ problems?/.test(t.textContent));",
        "the save's message counting the problem",
    )
    .await;
    assert_eq!(read(&path), canonical(&before), "the canonical text of the document as it is");
    app.wait_js(names_intent, "the error naming `intent`, still there").await;
    let id = app.doc_named("support-agent.json").await;
    assert!(!app.view(&id).await["spec"]["channels"].as_object().is_some_and(|c| c.contains_key("intent")));
    app.quit().await;
}

/// A document whose edits are easy to tell apart.
fn twenty_edits() -> Vec<Value> {
    let mut edits = Vec::new();
    for i in 0..5 {
        edits.push(json!({"op": "add_node", "id": format!("n{i}"), "type": "noop", "config": {}, "position": {"x": 100 * i, "y": 300}}));
        edits.push(json!({"op": "set_config_field", "id": format!("n{i}"), "path": "/note", "value": format!("note {i}")}));
        edits.push(json!({"op": "connect", "from": "hello", "to": format!("n{i}")}));
        edits.push(json!({"op": "add_channel", "name": format!("c{i}"), "reducer": "append"}));
    }
    edits
}

#[tokio::test(flavor = "multi_thread")]
async fn twenty_edits_twenty_undos_twenty_redos() {
    let dir = tempfile::tempdir().expect("tmp");
    let spec = json!({
        "name": "undo-me",
        "channels": {"messages": {"reducer": "append"}},
        "nodes": [{"id": "hello", "type": "append_message", "config": {"role": "assistant", "content": "Hello!"}}],
        "edges": [{"from": "__start__", "to": "hello"}, {"from": "hello", "to": "__end__"}]
    });
    let path = dir.path().join("undo.json");
    let original = canonical(&spec);
    std::fs::write(&path, &original).expect("write");
    let app = Desktop::launch(Launch { files: vec![path.clone()], ..Launch::default() }).await;
    let id = app.doc_named("undo.json").await;
    app.visible(&node("hello")).await;

    let edits = twenty_edits();
    assert_eq!(edits.len(), 20);
    for e in &edits {
        app.edit(&id, e.clone()).await;
    }
    // Save the edited document: these are "the edited bytes".
    let saved = app.call("save_document", json!({"docId": id})).await;
    assert_eq!(saved["saved"], true, "{saved}");
    let edited = read(&path);
    assert_ne!(edited, original);
    assert!(edited.contains("\"n4\"") && edited.contains("\"c4\"") && edited.contains("note 4"));
    // The UI did not make these edits: let it start again from what Rust holds.
    app.reload_ui().await;

    // 20 undos from the keyboard give back the original bytes.
    app.focus_canvas().await;
    for _ in 0..20 {
        app.chord(&[Key::Control], "z").await;
    }
    app.wait_view(&id, "20 undos", |v| v["canUndo"] == false && v["spec"] == spec).await;
    let saved = app.call("save_document", json!({"docId": id})).await;
    assert_eq!(saved["saved"], true, "{saved}");
    assert_eq!(read(&path), original, "20 undos give the original bytes");

    // 20 redos give the edited ones.
    for _ in 0..20 {
        app.chord(&[Key::Control, Key::Shift], "z").await;
    }
    app.wait_view(&id, "20 redos", |v| v["canRedo"] == false).await;
    let saved = app.call("save_document", json!({"docId": id})).await;
    assert_eq!(saved["saved"], true, "{saved}");
    assert_eq!(read(&path), edited, "20 redos give the edited bytes");
    app.screenshot("canvas-after-redo").await;
    app.quit().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn three_nodes_copied_from_one_document_paste_into_another() {
    let dir = tempfile::tempdir().expect("tmp");
    let from = json!({
        "name": "source",
        "channels": {},
        "nodes": [
            {"id": "a", "type": "noop", "config": {"note": "first"}},
            {"id": "b", "type": "noop", "config": {"note": "second"}},
            {"id": "c", "type": "wait", "config": {"duration_ms": 5}},
            {"id": "d", "type": "noop", "config": {}}
        ],
        "edges": [
            {"from": "__start__", "to": "a"}, {"from": "a", "to": "b"}, {"from": "b", "to": "c"},
            {"from": "c", "to": "d"}, {"from": "d", "to": "__end__"}
        ]
    });
    let to = json!({
        "name": "target", "channels": {},
        "nodes": [{"id": "x", "type": "noop", "config": {}}],
        "edges": [{"from": "__start__", "to": "x"}, {"from": "x", "to": "__end__"}]
    });
    let a = dir.path().join("source.json");
    let b = dir.path().join("target.json");
    std::fs::write(&a, canonical(&from)).expect("write");
    std::fs::write(&b, canonical(&to)).expect("write");
    let app = Desktop::launch(Launch { files: vec![a, b], ..Launch::default() }).await;
    let source = app.doc_named("source.json").await;
    let target = app.doc_named("target.json").await;

    // Show the source document and select a, b and c (Ctrl+click adds to the selection).
    app.visible(&format!("[data-testid=\"tab\"][data-doc-id=\"{source}\"]"))
        .await
        .click()
        .await
        .expect("tab");
    // The document opens readable (100 % around the entry when fitting would go under 60 %), so
    // c may be out of view: F fits the graph first.
    app.focus_canvas().await;
    app.chord(&[], "f").await;
    app.visible(&node("c")).await;
    app.visible(&node("a")).await.click().await.expect("click a");
    for id in ["b", "c"] {
        let el = app.visible(&node(id)).await;
        app.driver
            .action_chain()
            .key_down(Key::Control)
            .click_element(&el)
            .key_up(Key::Control)
            .perform()
            .await
            .expect("ctrl+click");
    }
    app.chord(&[Key::Control], "c").await;

    // Show the target document and paste.
    app.visible(&format!("[data-testid=\"tab\"][data-doc-id=\"{target}\"]"))
        .await
        .click()
        .await
        .expect("tab");
    app.visible(&node("x")).await;
    app.focus_canvas().await;
    app.chord(&[Key::Control], "v").await;
    let view = app
        .wait_view(&target, "the pasted nodes", |v| {
            v["spec"]["nodes"].as_array().is_some_and(|ns| ns.len() == 4)
        })
        .await;
    let ids: Vec<&str> =
        view["spec"]["nodes"].as_array().into_iter().flatten().filter_map(|n| n["id"].as_str()).collect();
    assert_eq!(ids, ["x", "a", "b", "c"]);
    assert_eq!(view["spec"]["nodes"][1]["config"], json!({"note": "first"}));
    assert_eq!(view["spec"]["nodes"][3]["config"], json!({"duration_ms": 5}));
    // The edges between the copied nodes came along; those to d and __start__ did not.
    let edges: Vec<(String, String)> = view["spec"]["edges"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|e| (e["from"].as_str().unwrap_or("").to_string(), e["to"].as_str().unwrap_or("").to_string()))
        .collect();
    assert!(
        edges.contains(&("a".into(), "b".into())) && edges.contains(&("b".into(), "c".into())),
        "{edges:?}"
    );
    assert!(!edges.iter().any(|(f, t)| t == "d" || (f == "__start__" && t == "a")), "{edges:?}");
    app.visible(&node("c")).await;
    app.screenshot("canvas-pasted").await;
    // The source is unchanged.
    assert_eq!(app.view(&source).await["dirty"], false);
    app.quit().await;
}

/// A 200-node graph: a tree of `noop` nodes, fan-out 3, with no layout file.
fn two_hundred_nodes() -> Value {
    let nodes: Vec<Value> =
        (0..200).map(|i| json!({"id": format!("n{i}"), "type": "noop", "config": {}})).collect();
    let mut edges = vec![json!({"from": "__start__", "to": "n0"})];
    for i in 1..200 {
        edges.push(json!({"from": format!("n{}", (i - 1) / 3), "to": format!("n{i}")}));
    }
    for i in 67..200 {
        edges.push(json!({"from": format!("n{i}"), "to": "__end__"}));
    }
    json!({"name": "big", "channels": {}, "nodes": nodes, "edges": edges})
}

#[tokio::test(flavor = "multi_thread")]
async fn automatic_layout_of_200_nodes_has_no_overlaps() {
    let dir = tempfile::tempdir().expect("tmp");
    let path = dir.path().join("big.json");
    std::fs::write(&path, canonical(&two_hundred_nodes())).expect("write");
    let app = Desktop::launch(Launch { files: vec![path.clone()], ..Launch::default() }).await;
    let id = app.doc_named("big.json").await;
    // Scramble the positions (one undoable move), then lay out from the keyboard.
    let pile: serde_json::Map<String, Value> =
        (0..200).map(|i| (format!("n{i}"), json!({"x": (i % 3) * 10, "y": 0}))).collect();
    app.edit(&id, json!({"op": "move_nodes", "positions": pile.clone()})).await;
    app.reload_ui().await;
    app.focus_canvas().await;
    app.chord(&[Key::Control, Key::Shift], "l").await;
    let view = app
        .wait_view(&id, "the automatic layout", |v| {
            let p = &v["layout"]["positions"];
            (0..200).all(|i| {
                let n = format!("n{i}");
                p[&n] != pile[&n]
            })
        })
        .await;
    assert_eq!(view["canUndo"], true, "the layout is an undo step");

    // The size of a node as drawn at zoom 1.
    app.driver
        .execute("window.__trellisPerf.setViewport({x: 0, y: 0, zoom: 1});", vec![])
        .await
        .expect("zoom 1");
    let size = app
        .driver
        .execute(
            "const n = document.querySelector('[data-testid=\"node-n0\"]'); if (!n) return null; const r = n.getBoundingClientRect(); return [r.width, r.height];",
            vec![],
        )
        .await
        .expect("measure")
        .json()
        .clone();
    let (w, h) = (size[0].as_f64().unwrap_or(200.0).max(1.0), size[1].as_f64().unwrap_or(60.0).max(1.0));
    let pos: Vec<(String, f64, f64)> = (0..200)
        .map(|i| {
            let p = &view["layout"]["positions"][format!("n{i}")];
            (format!("n{i}"), p["x"].as_f64().expect("x"), p["y"].as_f64().expect("y"))
        })
        .collect();
    for (i, (a, ax, ay)) in pos.iter().enumerate() {
        for (b, bx, by) in &pos[i + 1..] {
            let overlap = (ax - bx).abs() < w && (ay - by).abs() < h;
            assert!(!overlap, "{a} at ({ax}, {ay}) and {b} at ({bx}, {by}) overlap (nodes are {w}x{h})");
        }
    }
    app.driver.execute("window.__trellisPerf.fitView();", vec![]).await.expect("fit");
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    app.screenshot("canvas-auto-layout-200").await;
    app.quit().await;
}

/// Drags a node type from the registry browser onto the canvas at client point (x, y).
/// WebDriver cannot start a native HTML5 drag, so the page gets the same events a drag sends:
/// `dragstart` on the item, `dragover` and `drop` on the pane, sharing one `DataTransfer`.
async fn drag_type(app: &Desktop, type_name: &str, x: f64, y: f64) {
    let script = r#"
        const [type, x, y] = arguments;
        const item = document.querySelector(`[data-testid="registry-item"][data-type="${type}"]`);
        const pane = document.querySelector('.react-flow__pane');
        if (!item || !pane) return false;
        const dt = new DataTransfer();
        item.dispatchEvent(new DragEvent('dragstart', { bubbles: true, cancelable: true, dataTransfer: dt }));
        const at = { bubbles: true, cancelable: true, dataTransfer: dt, clientX: x, clientY: y };
        pane.dispatchEvent(new DragEvent('dragenter', at));
        pane.dispatchEvent(new DragEvent('dragover', at));
        pane.dispatchEvent(new DragEvent('drop', at));
        item.dispatchEvent(new DragEvent('dragend', { bubbles: true, dataTransfer: dt }));
        return true;
    "#;
    let ok =
        app.driver.execute(script, vec![json!(type_name), json!(x), json!(y)]).await.expect("drag script");
    assert_eq!(ok.json(), &json!(true), "the registry item {type_name} and the pane are there");
}

/// Replaces the text of an input or textarea the way a user does (select all, type).
async fn type_into(app: &Desktop, css: &str, text: &str, then_enter: bool) {
    let el = app.visible(css).await;
    el.click().await.expect("focus");
    app.chord(&[Key::Control], "a").await;
    let mut keys = text.to_string();
    if then_enter {
        keys.push(Key::Enter.value());
    }
    el.send_keys(keys).await.expect("type");
}

/// Drags from one handle to another with the mouse (React Flow's connection gesture).
pub(crate) async fn connect(app: &Desktop, from: &str, to: &str) {
    let a = app.visible(&format!("[data-testid=\"handle-out-{from}\"]")).await;
    let b = app.visible(&format!("[data-testid=\"handle-in-{to}\"]")).await;
    app.driver
        .action_chain()
        .move_to_element_center(&a)
        .click_and_hold()
        .move_by_offset(5, 5)
        .move_to_element_center(&b)
        .release()
        .perform()
        .await
        .expect("drag a connection");
}

async fn select_value(app: &Desktop, css: &str, value: &str) {
    let el = app.visible(css).await;
    let select = thirtyfour::components::SelectElement::new(&el).await.expect("a select");
    select.select_by_value(value).await.expect("choose");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_support_agent_built_by_hand_from_an_empty_document_saves_its_canonical_text() {
    let dir = tempfile::tempdir().expect("tmp");
    let target = dir.path().join("support-agent.json");
    let app = Desktop::launch(Launch { dialog_path: Some(target.clone()), ..Launch::default() }).await;
    let first = app.documents().await[0]["id"].as_str().unwrap_or_default().to_string();

    // New, empty document.
    app.visible("[data-testid=\"btn-new\"]").await.click().await.expect("New");
    let id = app.wait_other_doc(&first).await;

    // Drag an LLM call and an HTTP request from the registry browser.
    let rect = app
        .driver
        .execute("const r = document.querySelector('.react-flow__pane').getBoundingClientRect(); return [r.left, r.top, r.width, r.height];", vec![])
        .await
        .expect("pane")
        .json()
        .clone();
    let (left, top, width, height) = (
        rect[0].as_f64().unwrap_or(0.0),
        rect[1].as_f64().unwrap_or(0.0),
        rect[2].as_f64().unwrap_or(800.0),
        rect[3].as_f64().unwrap_or(600.0),
    );
    // One above the other, far enough apart that neither covers the other's handles.
    drag_type(&app, "llm", left + width * 0.4, top + height * 0.2).await;
    // The first node of an empty graph starts it, and the channel its defaults name is declared
    // with it: a fresh node starts clean (no problem at all).
    let view = app
        .wait_view(&id, "the llm node", |v| v["spec"]["nodes"].as_array().is_some_and(|n| n.len() == 1))
        .await;
    assert_eq!(view["spec"]["edges"], json!([{"from": "__start__", "to": view["spec"]["nodes"][0]["id"]}]));
    assert_eq!(view["spec"]["channels"], json!({"messages": {"reducer": "last_write"}}));
    assert_eq!(view["diagnostics"], json!([]), "no problem appears");
    assert_eq!(app.visible("[data-testid=\"problem-count\"]").await.text().await.expect("count"), "0");
    drag_type(&app, "http", left + width * 0.4, top + height * 0.75).await;
    let view = app
        .wait_view(&id, "the http node", |v| v["spec"]["nodes"].as_array().is_some_and(|n| n.len() == 2))
        .await;
    let llm = view["spec"]["nodes"][0]["id"].as_str().expect("id").to_string();
    let http = view["spec"]["nodes"][1]["id"].as_str().expect("id").to_string();

    // Rename them and fill their config: the raw JSON view replaces the defaults, the form
    // sets the URL.
    app.visible(&node(&llm)).await.click().await.expect("select llm");
    type_into(&app, "[data-testid=\"node-id-input\"]", "agent", true).await;
    app.wait_view(&id, "the rename to agent", |v| v["spec"]["nodes"][0]["id"] == "agent").await;
    type_into(
        &app,
        "[data-testid=\"config-raw\"]",
        r#"{"model": "claude-opus-4-8", "tools": ["search"]}"#,
        false,
    )
    .await;
    app.visible("[data-testid=\"config-raw-apply\"]").await.click().await.expect("apply JSON");
    app.wait_view(&id, "the agent config", |v| v["spec"]["nodes"][0]["config"]["tools"] == json!(["search"]))
        .await;

    app.visible(&node(&http)).await.click().await.expect("select http");
    type_into(&app, "[data-testid=\"node-id-input\"]", "checkout", true).await;
    app.wait_view(&id, "the rename to checkout", |v| v["spec"]["nodes"][1]["id"] == "checkout").await;
    type_into(&app, "[data-testid=\"config-raw\"]", r#"{"url": "x"}"#, false).await;
    app.visible("[data-testid=\"config-raw-apply\"]").await.click().await.expect("apply JSON");
    app.wait_view(&id, "the checkout config", |v| v["spec"]["nodes"][1]["config"] == json!({"url": "x"}))
        .await;
    type_into(
        &app,
        "[data-testid=\"config-field\"][data-path=\"/url\"] :is(input, textarea)",
        "https://shop.example.com/api/checkout",
        false,
    )
    .await;
    // Leaving the field commits it.
    app.chord(&[], &Key::Tab.value().to_string()).await;
    app.wait_view(&id, "the URL", |v| {
        v["spec"]["nodes"][1]["config"]["url"] == "https://shop.example.com/api/checkout"
    })
    .await;

    // Wire (start ->) agent -> checkout -> end.
    connect(&app, "agent", "checkout").await;
    app.wait_view(&id, "the second edge", |v| v["spec"]["edges"].as_array().is_some_and(|e| e.len() == 2))
        .await;
    connect(&app, "checkout", "__end__").await;
    app.wait_view(&id, "the third edge", |v| v["spec"]["edges"].as_array().is_some_and(|e| e.len() == 3))
        .await;

    // Declare the channels in the graph inspector (nothing selected).
    app.chord(&[], &Key::Escape.value().to_string()).await;
    app.focus_canvas().await;
    select_value(&app, "[data-testid=\"channel-reducer-messages\"]", "append").await;
    app.wait_view(&id, "messages appends", |v| v["spec"]["channels"]["messages"]["reducer"] == "append")
        .await;
    for (name, reducer) in [("cart", "last_write"), ("intent", "last_write")] {
        type_into(&app, "[data-testid=\"channel-new-name\"]", name, false).await;
        select_value(&app, "[data-testid=\"channel-new-reducer\"]", reducer).await;
        app.visible("[data-testid=\"channel-add\"]").await.click().await.expect("add channel");
        app.wait_view(&id, "the channel", |v| !v["spec"]["channels"][name].is_null()).await;
    }
    type_into(&app, "[data-testid=\"graph-name\"]", "support-agent", true).await;
    app.wait_view(&id, "the graph name", |v| v["spec"]["name"] == "support-agent").await;

    // The condition on agent -> checkout, with the builder.
    // Edges are drawn as `e<index>`; agent -> checkout is the second edge of the document.
    let clicked = app
        .driver
        .execute(
            "const e = document.querySelector('[data-testid=\"rf__edge-e1\"]'); if (!e) return false; e.dispatchEvent(new MouseEvent('click', {bubbles: true})); return true;",
            vec![],
        )
        .await
        .expect("select the edge");
    assert_eq!(clicked.json(), &json!(true), "the agent -> checkout edge is drawn");
    select_value(&app, "[data-testid=\"condition-channel\"]", "intent").await;
    select_value(&app, "[data-testid=\"condition-operator\"]", "eq").await;
    type_into(&app, "input[data-testid=\"condition-value\"]", "buy", false).await;
    app.visible("[data-testid=\"condition-apply\"]").await.click().await.expect("set condition");
    app.wait_view(&id, "the condition", |v| {
        v["spec"]["edges"][1]["when"] == json!({"channel": "intent", "eq": "buy"})
    })
    .await;
    app.screenshot("canvas-built-by-hand").await;

    // Save (an untitled document: Save As, answered by TRELLIS_TEST_DIALOG_PATH).
    app.focus_canvas().await;
    app.chord(&[Key::Control], "s").await;
    crate::harness::wait_fs("the saved file", || target.exists()).await;
    let expected = json!({
        "name": "support-agent",
        // `response`: declared with the http node, whose defaults name it.
        "channels": {"messages": {"reducer": "append"}, "response": {"reducer": "last_write"}, "cart": {"reducer": "last_write"}, "intent": {"reducer": "last_write"}},
        "nodes": [
            {"id": "agent", "type": "llm", "config": {"model": "claude-opus-4-8", "tools": ["search"]}},
            {"id": "checkout", "type": "http", "config": {"url": "https://shop.example.com/api/checkout"}}
        ],
        "edges": [
            {"from": "__start__", "to": "agent"},
            {"from": "agent", "to": "checkout", "when": {"channel": "intent", "eq": "buy"}},
            {"from": "checkout", "to": "__end__"}
        ]
    });
    assert_eq!(read(&target), canonical(&expected), "the bytes on disk are the canonical text of the graph");
    app.quit().await;
}
