//! Issue 14's keyboard check in the real app: a graph built from an empty document with the
//! keyboard alone (WebDriver key input to whatever has the focus, no pointer action) saves its
//! canonical text.

use std::time::Instant;

use serde_json::{json, Value};
use thirtyfour::prelude::*;

use crate::harness::{read, Desktop, Launch, PATIENCE};

/// Keys typed into whatever has the keyboard focus (text, or one `Key`).
pub async fn keys(app: &Desktop, text: &str) {
    app.chord(&[], text).await;
}

pub async fn key(app: &Desktop, k: Key) {
    keys(app, &k.value().to_string()).await;
}

/// The `data-testid` of the focused element.
pub async fn focused(app: &Desktop) -> String {
    let r = app
        .driver
        .execute(
            "return document.activeElement?.dataset?.testid ?? document.activeElement?.tagName ?? '';",
            vec![],
        )
        .await
        .expect("script");
    r.json().as_str().unwrap_or_default().to_string()
}

/// Presses Tab until the element with `testid` has the focus (as a keyboard user would).
pub async fn tab_to(app: &Desktop, testid: &str) {
    let deadline = Instant::now() + PATIENCE;
    for _ in 0..250 {
        if focused(app).await == testid {
            return;
        }
        assert!(Instant::now() < deadline, "Tab never reached {testid}");
        key(app, Key::Tab).await;
    }
    panic!("250 Tabs did not reach {testid} (the focus is on {})", focused(app).await);
}

/// Waits until the canvas has the keyboard focus on `what` (`node:<id>` or `edge:<index>`).
pub async fn canvas_focus_on(app: &Desktop, what: &str) {
    app.wait_js(
        &format!(
            "return document.activeElement?.dataset?.testid === 'canvas' && \
             document.querySelector('[data-testid=focus-ring]')?.dataset.focus === '{what}';"
        ),
        &format!("the canvas focus on {what}"),
    )
    .await;
}

/// `C` on the focused node `from`, the target's name, Enter; waits for the edge.
async fn connect_to(app: &Desktop, id: &str, from: &str, target: &str, edges: usize) {
    canvas_focus_on(app, &format!("node:{from}")).await;
    keys(app, "c").await;
    app.visible("[data-testid=\"connect-input\"]").await;
    assert_eq!(focused(app).await, "connect-input", "C puts the keys in the connect prompt");
    keys(app, target).await;
    key(app, Key::Enter).await;
    app.wait_view(id, &format!("the edge to {target}"), |v| {
        v["spec"]["edges"].as_array().is_some_and(|e| e.len() == edges)
    })
    .await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_graph_with_a_condition_built_with_the_keyboard_only_saves_its_canonical_text() {
    let dir = tempfile::tempdir().expect("tmp");
    let target = dir.path().join("keyboard.json");
    let app = Desktop::launch(Launch { dialog_path: Some(target.clone()), ..Launch::default() }).await;
    let first = app.documents().await[0]["id"].as_str().unwrap_or_default().to_string();

    // Ctrl+N: a new, empty document.
    app.chord(&[Key::Control], "n").await;
    let id = app.wait_other_doc(&first).await;
    assert!(app.view(&id).await["spec"]["nodes"].as_array().is_some_and(Vec::is_empty), "an empty document");

    // Three nodes from the type search: `/`, the type's name, Enter; Esc leaves the search.
    for (n, ty) in [(1, "llm"), (2, "http"), (3, "noop")] {
        keys(&app, "/").await;
        app.wait_js(
            "return document.activeElement?.dataset?.testid === 'registry-search';",
            "the type search",
        )
        .await;
        keys(&app, ty).await;
        key(&app, Key::Enter).await;
        app.wait_view(&id, &format!("node {n}"), |v| {
            v["spec"]["nodes"].as_array().is_some_and(|a| a.len() == n)
        })
        .await;
        key(&app, Key::Escape).await;
    }
    let view = app.view(&id).await;
    let ids: Vec<String> = view["spec"]["nodes"]
        .as_array()
        .expect("nodes")
        .iter()
        .map(|n| n["id"].as_str().expect("id").to_string())
        .collect();
    let (a, b, c) = (ids[0].as_str(), ids[1].as_str(), ids[2].as_str());

    // The first node started the graph, and the channels the llm and http defaults name came
    // with their nodes: fresh nodes start clean.
    let view = app.view(&id).await;
    assert_eq!(view["spec"]["edges"], json!([{"from": "__start__", "to": a}]));
    // Declared in the order the nodes were added (which type the search picks first varies).
    let mut declared: Vec<&String> = view["spec"]["channels"].as_object().expect("channels").keys().collect();
    declared.sort();
    assert_eq!(declared, ["messages", "response"]);

    // The channel for the condition, in the graph inspector (Esc clears the selection).
    key(&app, Key::Escape).await;
    app.wait_js(
        "return document.querySelector('[data-testid=inspector]')?.dataset.kind === 'graph';",
        "the graph inspector",
    )
    .await;
    tab_to(&app, "channel-new-name").await;
    keys(&app, "intent").await;
    key(&app, Key::Enter).await;
    app.wait_view(&id, "the channel", |v| !v["spec"]["channels"]["intent"].is_null()).await;
    app.wait_js("return document.activeElement?.dataset?.testid === 'channel-new-name' && document.activeElement.value === '';", "the name box, empty").await;

    // F6: the canvas, nothing selected, so the focus starts on Start. Wire
    // (start ->) a -> b (when intent == "yes") -> end, and a -> c -> end.
    key(&app, Key::Escape).await;
    key(&app, Key::F6).await;
    canvas_focus_on(&app, "node:__start__").await;
    keys(&app, "e").await; // the edge leaving Start
    canvas_focus_on(&app, "edge:0").await;
    key(&app, Key::Right).await; // along the focused edge to its end
    canvas_focus_on(&app, &format!("node:{a}")).await;
    connect_to(&app, &id, a, b, 2).await;
    canvas_focus_on(&app, "edge:1").await;

    // Enter on the edge: the inspector, keys in the condition builder (the first channel is
    // chosen: typing picks `intent`; the operator is `equals`); Tab to the value, type it,
    // Enter sets the condition.
    key(&app, Key::Enter).await;
    app.wait_js(
        "return document.querySelector('[data-testid=inspector]')?.dataset.kind === 'edge';",
        "the edge inspector",
    )
    .await;
    tab_to(&app, "condition-channel").await;
    keys(&app, "intent").await;
    app.wait_js(
        "return document.querySelector('[data-testid=condition-channel]')?.value === 'intent';",
        "intent chosen",
    )
    .await;
    tab_to(&app, "condition-value").await;
    keys(&app, "yes").await;
    key(&app, Key::Enter).await;
    app.wait_view(&id, "the condition", |v| {
        v["spec"]["edges"][1]["when"] == json!({"channel": "intent", "eq": "yes"})
    })
    .await;

    // Back to the canvas (F6 keeps the focus where it was: the edge).
    key(&app, Key::F6).await;
    canvas_focus_on(&app, "edge:1").await;
    key(&app, Key::Right).await;
    canvas_focus_on(&app, &format!("node:{b}")).await;
    connect_to(&app, &id, b, "__end__", 3).await;
    key(&app, Key::Left).await; // the edge's start: b
    canvas_focus_on(&app, &format!("node:{b}")).await;
    app.chord(&[Key::Control], &Key::Left.value().to_string()).await; // back along the edge into b: a
    canvas_focus_on(&app, &format!("node:{a}")).await;
    connect_to(&app, &id, a, c, 4).await;
    key(&app, Key::Right).await;
    canvas_focus_on(&app, &format!("node:{c}")).await;
    connect_to(&app, &id, c, "__end__", 5).await;

    // Ctrl+S: an untitled document, so Save As (answered by TRELLIS_TEST_DIALOG_PATH).
    app.chord(&[Key::Control], "s").await;
    let deadline = Instant::now() + PATIENCE;
    while !target.exists() {
        if Instant::now() > deadline {
            panic!("not saved; the document says {}", app.view(&id).await["diagnostics"]);
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    let saved = read(&target);
    let parsed = trellis_spec::read::parse_spec(&saved).spec.expect("the saved file is a GraphSpec");
    assert_eq!(
        saved,
        trellis_spec::writer::to_canonical_string(&parsed),
        "the bytes on disk are the canonical text"
    );
    let v: Value = serde_json::from_str(&saved).expect("json");
    for name in ["intent", "messages", "response"] {
        assert_eq!(v["channels"][name], json!({"reducer": "last_write"}), "{name} declared");
    }
    let nodes: Vec<&str> =
        v["nodes"].as_array().expect("nodes").iter().filter_map(|n| n["id"].as_str()).collect();
    assert_eq!(nodes, [a, b, c]);
    let edges: Vec<(String, String, Value)> = v["edges"]
        .as_array()
        .expect("edges")
        .iter()
        .map(|e| {
            (
                e["from"].as_str().unwrap_or_default().into(),
                e["to"].as_str().unwrap_or_default().into(),
                e["when"].clone(),
            )
        })
        .collect();
    let want: Vec<(String, String, Value)> = [
        ("__start__", a, Value::Null),
        (a, b, json!({"channel": "intent", "eq": "yes"})),
        (b, "__end__", Value::Null),
        (a, c, Value::Null),
        (c, "__end__", Value::Null),
    ]
    .into_iter()
    .map(|(f, t, w)| (f.to_string(), t.to_string(), w))
    .collect();
    assert_eq!(edges, want);
    app.quit().await;
}
