//! The runtimes' own documents in the real app (issue: the runtimes as they are today): the
//! Ilmek documentation's MCP example opens without a problem and its channel field takes part
//! in the channel checks; a Weaveflow Workbench export bundle opens as the definition it
//! carries and saves back with every byte outside what was edited unchanged.

use std::path::PathBuf;

use serde_json::Value;
use thirtyfour::prelude::*;

use crate::formats::{changed_lines, click_node, type_and_leave};
use crate::harness::{canonical, corpus, read, repo_root, wait_fs, Desktop, Launch};

fn node(id: &str) -> String {
    format!("[data-testid=\"node-{id}\"]")
}

/// Copies `from` into `dir` as `name` (the test never writes into the corpus or the repository).
fn copy(from: PathBuf, dir: &std::path::Path, name: &str) -> PathBuf {
    let to = dir.join(name);
    std::fs::copy(&from, &to).unwrap_or_else(|e| panic!("copy {}: {e}", from.display()));
    to
}

fn errors(view: &Value) -> Vec<Value> {
    view["diagnostics"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|d| d["severity"] == "error")
        .cloned()
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn the_ilmek_mcp_example_opens_clean_and_an_undeclared_to_is_the_channel_problem_with_its_fix() {
    let dir = tempfile::tempdir().expect("tmp");
    let path = copy(
        corpus("third-party/ilmek/AimTune__ilmek__website__docs__mcp.mdx__search.json"),
        dir.path(),
        "search.json",
    );
    let app = Desktop::launch(Launch { files: vec![path.clone()], ..Launch::default() }).await;
    let id = app.doc_named("search.json").await;
    let view = app.view(&id).await;
    assert_eq!(view["format"], "graphspec");
    assert_eq!(view["diagnostics"], serde_json::json!([]), "the runtime's own example has no problem");
    app.wait_js(
        "return document.querySelectorAll('[data-testid=problem]').length === 0;",
        "an empty problems list",
    )
    .await;

    // The node's form: the runtime's fields, `to` among them, and the host's names marked.
    app.visible(&node("search")).await.click().await.expect("select the node");
    let to = app.visible("[data-testid=\"config-field-to\"]").await;
    assert_eq!(to.prop("value").await.expect("value").as_deref(), Some("hits"));
    app.visible("[data-testid=\"host-resolved-server\"]").await;
    app.screenshot("ilmek-mcp-example").await;

    // `to` names a channel the graph does not declare: the channel problem, on the field, with
    // the same fix a condition's undeclared channel gets.
    type_and_leave(&app, "[data-testid=\"config-field-to\"]", "found").await;
    let view = app
        .wait_view(&id, "the channel problem", |v| {
            errors(v)
                .iter()
                .any(|d| d["code"] == "config/undeclared-channel" && d["names"]["channel"] == "found")
        })
        .await;
    let d = errors(&view).into_iter().find(|d| d["code"] == "config/undeclared-channel").expect("found");
    assert_eq!(d["pointer"], "/nodes/0/config/to");
    assert_eq!(d["fixes"][0]["edit"], serde_json::json!({"kind": "declare_channel", "name": "found"}));
    let shown = app.visible("[data-testid=\"field-error-to\"]").await.text().await.expect("text");
    assert!(shown.contains("\u{201c}found\u{201d}"), "the form says it under the field: {shown}");
    app.screenshot("ilmek-mcp-undeclared-to").await;

    // The fix declares it; the problem goes.
    app.visible(
        "[data-testid=\"node-problem\"][data-code=\"config/undeclared-channel\"] [data-testid=\"fix\"]",
    )
    .await
    .click()
    .await
    .expect("apply the fix");
    let view =
        app.wait_view(&id, "the channel declared", |v| v["spec"]["channels"].get("found").is_some()).await;
    assert!(errors(&view).is_empty(), "{view}");

    // Saved, the bytes are the canonical text (what `trellis fmt` writes) of the file as read
    // with the two changes: the expectation is built from the file itself, since objects that
    // come back through WebDriver do not keep their key order.
    let original = read(&path);
    let mut expected: Value = serde_json::from_str(&original).expect("json");
    expected["nodes"][0]["config"]["to"] = Value::from("found");
    expected["channels"]["found"] = serde_json::json!({});
    app.visible(".react-flow__pane").await.click().await.expect("focus the canvas");
    app.chord(&[Key::Control], "s").await;
    wait_fs("the save", || read(&path) != original).await;
    app.wait_view(&id, "a clean document", |v| v["dirty"] == false).await;
    let saved = read(&path);
    assert_eq!(saved, canonical(&expected));
    let reread: Value = serde_json::from_str(&saved).expect("json");
    assert_eq!(reread["nodes"][0]["config"]["to"], "found");
    assert_eq!(reread["channels"]["found"]["reducer"], "last_write");
    app.quit().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_workbench_export_bundle_saves_with_every_byte_outside_the_edits_unchanged() {
    let dir = tempfile::tempdir().expect("tmp");
    let path = copy(
        repo_root().join("crates/formats/tests/fixtures/weaveflow/transfer/support.weaveflow.json"),
        dir.path(),
        "support.weaveflow.json",
    );
    let original = read(&path);
    let app = Desktop::launch(Launch { files: vec![path.clone()], ..Launch::default() }).await;
    let id = app.doc_named("support.weaveflow.json").await;
    let view = app.view(&id).await;
    assert_eq!(view["format"], "weaveflow", "a bundle opens as the definition it carries");
    assert!(errors(&view).is_empty(), "{view}");
    assert_eq!(view["layout"]["positions"]["message"]["x"], 320.0, "ui.web's positions");
    app.visible("[data-testid=\"wf-transfer\"]").await;

    // Move a node with the mouse, down and clear of its neighbour (whose box it would cover).
    let message = app.visible(&node("message")).await;
    app.driver
        .action_chain()
        .move_to_element_center(&message)
        .click_and_hold()
        .move_by_offset(20, 30)
        .move_by_offset(30, 70)
        .release()
        .perform()
        .await
        .expect("drag the node");
    let moved = app
        .wait_view(&id, "the node moved", |v| {
            v["layout"]["positions"]["message"]["y"].as_f64().is_some_and(|y| y > 60.0)
        })
        .await;
    let at = moved["layout"]["positions"]["message"].clone();

    // Edit the model turn's prompt in its config. The inspector that opened with the drag
    // narrowed the canvas over the right-hand node: fit the view first, as a user would.
    app.visible("[data-testid=\"fit-view\"]").await.click().await.expect("fit the view");
    click_node(&app, &id, "answer").await;
    app.wait_js(
        "return document.querySelector('[data-testid=wf-node-config]')?.value.includes('reasoning_effort');",
        "the model turn's config in the inspector",
    )
    .await;
    let config = app.visible("[data-testid=\"wf-node-config\"]").await;
    let shown = config.prop("value").await.expect("config").unwrap_or_default();
    let mut shown: Value = serde_json::from_str(&shown).expect("the config as JSON");
    shown["system_prompt"] = Value::from("Answer in one sentence.");
    type_and_leave(&app, "[data-testid=\"wf-node-config\"]", &shown.to_string()).await;
    app.wait_view(&id, "the new prompt", |v| {
        v["weaveflow"]["definition"]["nodes"][2]["config"]["system_prompt"] == "Answer in one sentence."
    })
    .await;
    app.screenshot("weaveflow-bundle-edited").await;

    app.visible(".react-flow__pane").await.click().await.expect("focus the canvas");
    app.chord(&[Key::Control], "s").await;
    wait_fs("the save", || read(&path) != original).await;
    app.wait_view(&id, "a clean document", |v| v["dirty"] == false).await;

    // Two lines changed: the prompt inside the definition and the node's place in `ui.web`.
    let saved = read(&path);
    let diff = changed_lines(&original, &saved);
    assert_eq!(diff.len(), 2, "{diff:?}");
    assert!(
        diff[0].1.contains("two sentences") && diff[0].2.contains("\"Answer in one sentence.\""),
        "{diff:?}"
    );
    assert!(diff[1].1.trim_start().starts_with("\"message\": { \"x\": 320"), "{diff:?}");
    let v: Value = serde_json::from_str(&saved).expect("json");
    assert_eq!(v["ui"]["web"]["positions"]["message"], at);
    assert!(v["definition"].get("metadata").is_none(), "positions stay in ui.web");
    app.quit().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_graph_md_that_is_prose_is_not_opened_and_the_notice_says_why_in_one_line() {
    let dir = tempfile::tempdir().expect("tmp");
    let prose = dir.path().join("GRAPH.md");
    std::fs::write(&prose, "# Graph\n\nHow this library lays out graphs. See `src/layout`.\n")
        .expect("write");
    let example = copy(
        corpus("third-party/ilmek/AimTune__ilmek__website__docs__skills.mdx__briefed.json"),
        dir.path(),
        "briefed.json",
    );
    let app = Desktop::launch(Launch { files: vec![prose, example], ..Launch::default() }).await;
    let notice = app.visible("[data-testid=\"open-failure\"][data-file=\"GRAPH.md\"]").await;
    assert_eq!(notice.attr("data-code").await.expect("code").as_deref(), Some("detect/not-a-contract"));
    let text = notice.text().await.expect("text");
    assert!(text.contains("not a GRAPH.md workflow contract: it has no YAML front matter"), "{text}");
    assert!(!text.contains('\n'), "one line: {text}");
    let names: Vec<String> =
        app.documents().await.iter().filter_map(|d| d["fileName"].as_str().map(str::to_owned)).collect();
    assert!(!names.iter().any(|n| n == "GRAPH.md"), "{names:?}");
    app.screenshot("graphmd-prose-refused").await;
    app.quit().await;
}
