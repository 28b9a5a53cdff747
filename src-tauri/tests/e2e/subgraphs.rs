//! Issue 16's subgraphs in the real app: a GRAPH.md parent and a Weaveflow parent whose
//! subgraph nodes refer to child files. The nodes show the child's name and size; opening one
//! (double-click, Enter) shows the child in a new tab with a breadcrumb back; the breadcrumb
//! returns to the parent tab, still open, at the view it was left at; a reference to a missing
//! file says so on its node and opens nothing.

use std::path::Path;

use serde_json::{json, Value};
use thirtyfour::prelude::*;

use crate::harness::{Desktop, Launch};
use crate::keyboard::{canvas_focus_on, key};

fn write(dir: &Path, rel: &str, text: &str) -> std::path::PathBuf {
    let p = dir.join(rel);
    std::fs::create_dir_all(p.parent().expect("folder")).expect("folder");
    std::fs::write(&p, text).expect("write");
    p
}

/// The text of an element on screen (waits for it to be drawn with a size; WebKitWebDriver's
/// `is_displayed` answers false for the one-line texts of a node, so this asks the page).
async fn text_of(app: &Desktop, css: &str) -> String {
    let script = format!(
        "const e = document.querySelector('{css}'); const r = e?.getBoundingClientRect(); \
         return !!r && r.width > 0 && r.height > 0;"
    );
    app.wait_js(&script, &format!("{css} on screen")).await;
    let r = app.driver.execute(&format!("return document.querySelector('{css}').textContent;"), vec![]).await;
    r.expect("script").json().as_str().unwrap_or_default().to_string()
}

/// React Flow's viewport transform (what the user sees).
async fn transform(app: &Desktop) -> String {
    let r = app
        .driver
        .execute(
            "return getComputedStyle(document.querySelector('.react-flow__viewport')).transform;",
            vec![],
        )
        .await;
    r.expect("script").json().as_str().unwrap_or_default().to_string()
}

/// Clicks the breadcrumb of `parent` and waits for its tab, drawn at `expected` transform.
async fn back_by_crumb(app: &Desktop, parent: &str, expected: &str) {
    app.visible(&format!("[data-testid=crumb][data-doc-id=\"{parent}\"]"))
        .await
        .click()
        .await
        .expect("crumb");
    app.wait_js(
        &format!("const a = document.querySelector('[data-testid=app]'); return a.dataset.activeDoc === '{parent}' && a.dataset.ready === 'true';"),
        "the parent tab again",
    )
    .await;
    let script = format!(
        "const v = document.querySelector('.react-flow__viewport'); return !!v && getComputedStyle(v).transform === '{expected}';"
    );
    app.wait_js(&script, "the parent at the view it was left at").await;
    // No breadcrumb on the parent itself.
    app.wait_js(
        "return !document.querySelector('[data-testid=breadcrumbs]');",
        "no breadcrumb on the parent",
    )
    .await;
}

const PARENT_MD: &str = "---
name: support
spec_version: \"1.1.0\"
entry: intake
exits: [billing, lost]
nodes:
  - id: intake
    kind: agent
  - id: billing
    kind: subgraph
    ref: ../billing
  - id: lost
    kind: subgraph
    ref: refunds/GRAPH.md
edges:
  - from: intake
    to: billing
  - from: intake
    to: lost
---

The support flow; billing is its own graph.
";

const CHILD_MD: &str = "---
name: billing-flow
spec_version: \"1.1.0\"
entry: charge
exits: [receipt]
nodes:
  - id: charge
    kind: tool
  - id: check
    kind: verifier
  - id: receipt
    kind: agent
edges:
  - from: charge
    to: check
  - from: check
    to: receipt
---
";

#[tokio::test(flavor = "multi_thread")]
async fn a_graphmd_subgraph_opens_its_child_by_double_click_and_the_breadcrumb_goes_back() {
    let dir = tempfile::tempdir().expect("tmp");
    let parent = write(dir.path(), "support/GRAPH.md", PARENT_MD);
    write(dir.path(), "billing/GRAPH.md", CHILD_MD);
    let app = Desktop::launch(Launch { files: vec![parent.clone()], ..Launch::default() }).await;
    let parent_id = app.active_doc().await;
    // The subgraph node shows the child's name and size; the missing one says so, with a badge.
    let shown = text_of(&app, "[data-testid=node-subgraph-billing]").await;
    assert!(shown.contains("billing-flow · 3 nodes"), "{shown}");
    let lost = text_of(&app, "[data-testid=node-subgraph-lost]").await;
    assert!(lost.contains("file not found"), "{lost}");
    assert_eq!(text_of(&app, "[data-testid=node-unresolved-lost]").await, "!");
    assert_eq!(text_of(&app, "[data-testid=node-badge-lost]").await, "1");
    let view = app.view(&parent_id).await;
    let warning = view["diagnostics"]
        .as_array()
        .and_then(|ds| ds.iter().find(|d| d["code"] == "subgraph/not-found"))
        .cloned()
        .expect("the missing reference is a diagnostic");
    assert_eq!(warning["element"], json!({"kind": "node", "id": "lost"}));
    assert_eq!(warning["pointer"], "/nodes/2/ref");
    let message = warning["message"].as_str().unwrap_or_default();
    assert!(message.contains("refunds/GRAPH.md"), "{message}");
    // The problems panel lists it in the same words.
    app.wait_js(
        "return [...document.querySelectorAll('[data-testid=problem]')].some(e => e.textContent.includes('Subgraph node \"lost\" refers to'));",
        "the warning in the problems panel",
    )
    .await;
    app.screenshot("subgraph-parent").await;

    // Double-click: the child in a new tab, with the breadcrumb parent › child.
    let before = transform(&app).await;
    let node = app.visible("[data-testid=node-billing]").await;
    app.driver.action_chain().double_click_element(&node).perform().await.expect("double-click");
    let child_id = app.wait_other_doc(&parent_id).await;
    let child = app.view(&child_id).await;
    assert!(child["path"].as_str().is_some_and(|p| p.ends_with("billing/GRAPH.md")), "{}", child["path"]);
    assert_eq!(app.documents().await.len(), 2, "a new tab beside the parent");
    let crumbs = text_of(&app, "[data-testid=breadcrumbs]").await;
    assert!(crumbs.contains("support") && crumbs.contains("billing-flow"), "{crumbs}");
    assert!(crumbs.find("support") < crumbs.find("billing-flow"), "parent first: {crumbs}");
    app.visible("[data-testid=node-charge]").await;
    app.screenshot("subgraph-child").await;

    // Back by the breadcrumb: the parent tab, still open, where it was.
    back_by_crumb(&app, &parent_id, &before).await;
    assert_eq!(app.documents().await.len(), 2);

    // Opening it again focuses the child's tab instead of opening a third.
    let node = app.visible("[data-testid=node-billing]").await;
    app.driver.action_chain().double_click_element(&node).perform().await.expect("double-click");
    assert_eq!(app.wait_other_doc(&parent_id).await, child_id);
    assert_eq!(app.documents().await.len(), 2);
    back_by_crumb(&app, &parent_id, &before).await;

    // The missing reference opens nothing and says why.
    let node = app.visible("[data-testid=node-lost]").await;
    app.driver.action_chain().double_click_element(&node).perform().await.expect("double-click");
    app.wait_js(
        "return [...document.querySelectorAll('[data-testid=toast]')].some(t => t.textContent.includes('refunds/GRAPH.md'));",
        "the reason as a message",
    )
    .await;
    assert_eq!(app.active_doc().await, parent_id);
    assert_eq!(app.documents().await.len(), 2);

    // The file appears; showing the tab again resolves it.
    write(dir.path(), "support/refunds/GRAPH.md", CHILD_MD);
    app.call("set_active_document", json!({"docId": parent_id})).await;
    app.wait_js(
        "return document.querySelector('[data-testid=node-subgraph-lost]')?.dataset.state === 'resolved';",
        "the appeared file to resolve",
    )
    .await;

    // The child's file is deleted outside the app: the watcher alone updates the parent's node.
    std::fs::remove_file(dir.path().join("billing/GRAPH.md")).expect("delete the child");
    app.wait_js(
        "const e = document.querySelector('[data-testid=node-subgraph-billing]'); \
         return e?.dataset.state === 'unresolved' && e.textContent.includes('file not found');",
        "the deleted child to show on its node",
    )
    .await;
    app.quit().await;
}

fn weaveflow(name: &str, nodes: Value, edges: Value) -> String {
    serde_json::to_string_pretty(&json!({
        "version": "1.0", "name": name,
        "state_modules": [{"name": "weaveflow.protocols", "version": "1"}],
        "entry_point": "seed",
        "nodes": nodes, "edges": edges,
    }))
    .expect("json")
}

#[tokio::test(flavor = "multi_thread")]
async fn a_weaveflow_subgraph_opens_its_child_with_enter_and_shift_enter_inspects() {
    let dir = tempfile::tempdir().expect("tmp");
    let state = |p: &str| json!({"target": {"path": p}});
    let parent = write(
        dir.path(),
        "parent.json",
        &weaveflow(
            "orders",
            json!([
                {"id": "seed", "name": "seed", "type": "state_set", "config": {"value": 1}, "state": state("shared.seed")},
                {"id": "run", "name": "run", "type": "subgraph", "config": {"graph_ref": "flows/child"}, "state": {}},
            ]),
            json!([{"from": "seed", "to": "run"}, {"from": "run", "to": "__end__"}]),
        ),
    );
    write(
        dir.path(),
        "flows/child.json",
        &weaveflow(
            "orders-child",
            json!([
                {"id": "seed", "name": "seed", "type": "state_set", "config": {"value": 2}, "state": state("shared.x")},
                {"id": "tail", "name": "tail", "type": "state_set", "config": {"value": 3}, "state": state("shared.y")},
            ]),
            json!([{"from": "seed", "to": "tail"}, {"from": "tail", "to": "__end__"}]),
        ),
    );
    let app = Desktop::launch(Launch { files: vec![parent], ..Launch::default() }).await;
    let parent_id = app.active_doc().await;
    let shown = text_of(&app, "[data-testid=node-subgraph-run]").await;
    assert!(shown.contains("orders-child · 2 nodes"), "{shown}");

    // The keyboard: F6 to the canvas, then right to the subgraph node.
    key(&app, Key::F6).await;
    app.wait_js("return document.activeElement?.dataset?.testid === 'canvas';", "the canvas focused").await;
    for _ in 0..6 {
        let at = app
            .driver
            .execute(
                "return document.querySelector('[data-testid=focus-ring]')?.dataset.focus ?? '';",
                vec![],
            )
            .await
            .expect("script");
        if at.json() == "node:run" {
            break;
        }
        // The nearest node to the right (the entry mark is not an edge of the document).
        key(&app, Key::Right).await;
        tokio::time::sleep(std::time::Duration::from_millis(150)).await;
    }
    canvas_focus_on(&app, "node:run").await;

    // Shift+Enter inspects the subgraph node (its graph_ref is edited there).
    app.chord(&[Key::Shift], &Key::Enter.value().to_string()).await;
    let inspected = format!(
        "return !!document.querySelector('[data-testid=node-run].tn-selected') && \
         document.querySelector('[data-testid=app]').dataset.activeDoc === '{parent_id}' && \
         document.activeElement?.closest('[data-testid=inspector]') != null;"
    );
    app.wait_js(&inspected, "the inspector on run, in the parent").await;
    assert_eq!(app.documents().await.len(), 1, "Shift+Enter opens nothing");

    // Enter opens the child in a new tab, with the breadcrumb.
    let before = transform(&app).await;
    key(&app, Key::F6).await;
    canvas_focus_on(&app, "node:run").await;
    key(&app, Key::Enter).await;
    let child_id = app.wait_other_doc(&parent_id).await;
    let child = app.view(&child_id).await;
    assert_eq!(child["fileName"], "child.json");
    assert_eq!(child["format"], "weaveflow");
    let crumbs = text_of(&app, "[data-testid=breadcrumbs]").await;
    assert!(
        crumbs.contains("orders") && crumbs.contains("orders-child") && crumbs.contains("(run)"),
        "{crumbs}"
    );
    app.visible("[data-testid=node-tail]").await;

    back_by_crumb(&app, &parent_id, &before).await;
    assert_eq!(app.documents().await.len(), 2, "the child stays open in its tab");

    // A refused open through the command: the node's own reason.
    let err = app
        .invoke("open_subgraph", json!({"docId": parent_id, "nodeId": "seed"}))
        .await
        .expect_err("not a subgraph");
    assert!(err.to_string().contains("not a subgraph node"), "{err}");
    app.quit().await;
}
