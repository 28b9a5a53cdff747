//! The text pane in the real app: the document's text beside the canvas, live both ways. Typing
//! changes the canvas and the inspector, undo from the canvas takes the typing back, a save
//! writes exactly the pane's text (GraphSpec: its canonical form), an edge drawn on the canvas
//! appears in the pane as its own lines, a text that does not read shows its error in place,
//! marks the canvas behind and refuses the save until it is fixed. The same for a Weaveflow
//! document (typing a change is the one-line change the canvas makes) and a GRAPH.md (the body
//! is kept byte for byte).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::json;
use thirtyfour::prelude::*;

use crate::harness::{canonical, corpus, read, wait_fs, Desktop, Launch, PATIENCE};

fn copy(from: &Path, dir: &Path, name: &str) -> PathBuf {
    let to = dir.join(name);
    std::fs::copy(from, &to).unwrap_or_else(|e| panic!("copy {}: {e}", from.display()));
    to
}

/// Opens the pane with its shortcut (from the canvas) and waits until it shows the text.
async fn open_pane(app: &Desktop) {
    app.focus_canvas().await;
    app.chord(&[Key::Control], "e").await;
    app.visible("[data-testid=\"text-pane\"] .cm-content").await;
    wait_synced(app).await;
}

/// Waits until the pane has nothing left to send and Rust has answered all of it.
async fn wait_synced(app: &Desktop) {
    app.wait_js(
        "const p = window.__trellisTextPane; return !!p && p.synced() && document.querySelector('[data-testid=text-pane]')?.dataset.state !== 'loading';",
        "the text pane to be in step",
    )
    .await;
}

/// The pane's text as the editor holds it.
async fn pane_text(app: &Desktop) -> String {
    app.js("return window.__trellisTextPane?.text() ?? null;").await.as_str().unwrap_or_default().to_owned()
}

/// Puts the pane's cursor on `needle` (selected, as a double-click or a drag selects it), or
/// just after it (`after`), then types `keys` with the keyboard.
async fn type_at(app: &Desktop, needle: &str, after: bool, keys: &str) {
    let text = pane_text(app).await;
    let at = text.find(needle).unwrap_or_else(|| panic!("{needle:?} in the pane:\n{text}"));
    let from = text[..at].encode_utf16().count();
    let to = from + needle.encode_utf16().count();
    let (anchor, head) = if after { (to, to) } else { (from, to) };
    let ok = app
        .driver
        .execute(
            "return window.__trellisTextPane.select(arguments[0], arguments[1]);",
            vec![json!(anchor), json!(head)],
        )
        .await;
    assert_eq!(ok.expect("select").json(), &json!(true));
    if !keys.is_empty() {
        let content = app.visible("[data-testid=\"text-pane\"] .cm-content").await;
        content.send_keys(keys).await.expect("type into the pane");
    }
}

/// Waits until the pane's text holds `needle`.
async fn wait_text(app: &Desktop, what: &str, pred: impl Fn(&str) -> bool) -> String {
    let deadline = Instant::now() + PATIENCE;
    loop {
        let t = pane_text(app).await;
        if pred(&t) {
            return t;
        }
        assert!(Instant::now() < deadline, "timed out waiting for {what}; the pane shows:\n{t}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The lines of `after` that `before` does not have, and the lines of `before` that `after`
/// does not, with the common lines at both ends taken away.
fn changed_block(before: &str, after: &str) -> (Vec<String>, Vec<String>) {
    let (a, b): (Vec<&str>, Vec<&str>) = (before.lines().collect(), after.lines().collect());
    let p = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let s = a[p..].iter().rev().zip(b[p..].iter().rev()).take_while(|(x, y)| x == y).count();
    let removed = a[p..a.len() - s].iter().map(|l| (*l).to_owned()).collect();
    let added = b[p..b.len() - s].iter().map(|l| (*l).to_owned()).collect();
    (removed, added)
}

#[ignore = "fails since the merge: a node typed in the pane is not shown on the canvas beside the open pane"]
#[tokio::test(flavor = "multi_thread")]
async fn graphspec_text_and_canvas_follow_each_other() {
    let dir = tempfile::tempdir().expect("tmp");
    let path = copy(&corpus("ilmek/docs/graphs-as-data.mdx-support.json"), dir.path(), "support.json");
    let original = read(&path);
    let app = Desktop::launch(Launch { files: vec![path.clone()], ..Launch::default() }).await;
    let id = app.doc_named("support.json").await;
    open_pane(&app).await;

    // The pane shows what a save writes: the canonical text (the file is hand-spaced).
    let view = app.view(&id).await;
    let text = pane_text(&app).await;
    assert_eq!(text, canonical(&view["spec"]), "the pane shows the canonical text");
    assert_ne!(text, original, "the corpus file is not in canonical form");

    // Typing a config value: the canvas and the inspector follow.
    type_at(&app, "claude-opus-4-8", false, "gpt-5-mini").await;
    app.wait_view(&id, "the typed model", |v| v["spec"]["nodes"][0]["config"]["model"] == "gpt-5-mini").await;
    wait_synced(&app).await;
    // The cursor is in the node's text: the canvas selected it, the inspector shows it.
    let field = "[data-testid=\"config-field\"][data-path=\"/model\"] :is(input, textarea)";
    app.wait_js(
        &format!(
            "const f = document.querySelector('{}'); return !!f && f.value === 'gpt-5-mini';",
            field.replace('\'', "\\'")
        ),
        "the inspector to show the typed value",
    )
    .await;
    app.screenshot("text-pane-typed").await;

    // Undo from the canvas (the toolbar's Undo): the typing goes, in both views.
    app.visible("[data-testid=\"btn-undo\"]").await.click().await.expect("undo");
    wait_text(&app, "the undone typing", |t| t.contains("claude-opus-4-8")).await;
    app.wait_view(&id, "the model back", |v| v["spec"]["nodes"][0]["config"]["model"] == "claude-opus-4-8")
        .await;
    assert_eq!(pane_text(&app).await, text, "undo gives the text back byte for byte");

    // Save: the bytes are the canonical text, which the pane shows.
    app.focus_canvas().await;
    app.chord(&[Key::Control], "s").await;
    wait_fs("the save", || read(&path) != original).await;
    let saved = read(&path);
    let view = app.view(&id).await;
    assert_eq!(saved, canonical(&view["spec"]), "the save wrote the canonical text");
    assert_eq!(pane_text(&app).await, saved, "the pane shows the bytes on disk");

    // A node typed in the user's own form (one line): the canvas gets it.
    type_at(
        &app,
        "\"model\": \"claude-opus-4-8\"\n      }\n    }",
        true,
        ",\n{\"id\": \"notify\", \"type\": \"llm\", \"config\": {}}",
    )
    .await;
    app.wait_view(&id, "the typed node", |v| v["spec"]["nodes"].as_array().is_some_and(|n| n.len() == 2))
        .await;
    wait_synced(&app).await;
    app.visible("[data-testid=\"node-notify\"]").await;

    // An edge drawn on the canvas: exactly its lines appear in the pane, the typed line stays.
    let before = pane_text(&app).await;
    let out = app.visible("[data-testid=\"handle-out-agent\"]").await;
    let into = app.visible("[data-testid=\"handle-in-notify\"]").await;
    app.driver
        .action_chain()
        .move_to_element_center(&out)
        .click_and_hold()
        .move_by_offset(5, 5)
        .move_to_element_center(&into)
        .release()
        .perform()
        .await
        .expect("drag a connection");
    let view = app
        .wait_view(&id, "the new edge", |v| v["spec"]["edges"].as_array().is_some_and(|e| e.len() == 3))
        .await;
    let after = wait_text(&app, "the new edge's lines", |t| t != before).await;
    let (removed, added) = changed_block(&before, &after);
    assert!(removed.len() <= 1, "at most the line before the new edge changes (a comma): {removed:?}");
    let added_text = added.join("\n");
    assert!(
        added_text.contains("\"from\": \"agent\"") && added_text.contains("\"to\": \"notify\""),
        "the new edge's lines: {added:?}"
    );
    assert!(added.len() <= 5, "only the edge's lines: {added:?}");
    assert!(
        after.contains("{\"id\": \"notify\", \"type\": \"llm\", \"config\": {}}"),
        "the typed line is kept as typed"
    );
    assert_eq!(view["spec"]["edges"][2]["to"], "notify");
    app.screenshot("text-pane-edge-drawn").await;

    // A broken fragment: the error in place, the canvas marked behind, the save refused.
    let on_disk = read(&path);
    type_at(&app, "\"name\": \"support\"", true, " oops").await;
    app.visible("[data-testid=\"canvas-behind\"]").await;
    app.wait_js(
        "return document.querySelector('[data-testid=text-pane]')?.dataset.state === 'behind' && !!document.querySelector('[data-testid=text-pane] .cm-lintRange-error');",
        "the error underlined in the pane",
    )
    .await;
    let error = app.view(&id).await["textError"].clone();
    let line = error["span"]["line"].as_u64().expect("the error's line");
    assert_eq!(line, 2, "the error is where the typing is: {error}");
    app.screenshot("text-pane-behind").await;
    app.focus_canvas().await;
    app.chord(&[Key::Control], "s").await;
    app.wait_js(
        &format!("return [...document.querySelectorAll('[data-testid=problem]')].some(p => p.textContent.includes('line {line}, column'));"),
        "the save refused with the error's line and column",
    )
    .await;
    assert_eq!(read(&path), on_disk, "nothing written");

    // Fixed: the canvas catches up; the save writes the canonical text and the pane shows it.
    type_at(&app, " oops", false, &Key::Backspace.value().to_string()).await;
    app.wait_js("return !document.querySelector('[data-testid=canvas-behind]');", "the canvas caught up")
        .await;
    wait_synced(&app).await;
    app.focus_canvas().await;
    app.chord(&[Key::Control], "s").await;
    app.wait_view(&id, "a clean document", |v| v["dirty"] == false).await;
    let saved = read(&path);
    assert_eq!(saved, canonical(&app.view(&id).await["spec"]), "the save wrote the canonical text");
    wait_text(&app, "the canonical form after the save", |t| t == saved).await;
    app.visible("[data-testid=\"text-pane-notice\"]").await;
    app.quit().await;
}

/// The lines where `before` and `after` differ (same number of lines).
fn changed_lines(before: &str, after: &str) -> Vec<(String, String)> {
    let (a, b): (Vec<&str>, Vec<&str>) = (before.split('\n').collect(), after.split('\n').collect());
    assert_eq!(a.len(), b.len(), "the line count changed:\n--- before\n{before}\n--- after\n{after}");
    a.iter().zip(&b).filter(|(x, y)| x != y).map(|(x, y)| ((*x).to_owned(), (*y).to_owned())).collect()
}

/// Replaces an inspector field's text as a user does, then leaves it (Tab commits it).
async fn type_into_field(app: &Desktop, css: &str, text: &str) {
    let el = app.visible(css).await;
    el.click().await.expect("focus the field");
    app.chord(&[Key::Control], "a").await;
    el.send_keys(text).await.expect("type");
    app.chord(&[], &Key::Tab.value().to_string()).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn weaveflow_typing_is_the_one_line_change_the_canvas_makes() {
    let dir = tempfile::tempdir().expect("tmp");
    let path = copy(&corpus("weaveflow/state_operations.json"), dir.path(), "state_operations.json");
    let original = read(&path);
    let app = Desktop::launch(Launch { files: vec![path.clone()], ..Launch::default() }).await;
    let id = app.doc_named("state_operations.json").await;
    open_pane(&app).await;
    assert_eq!(pane_text(&app).await, original, "the pane shows the file as it is");

    // The canvas's change: the node's name in the inspector (the cursor in the node's text
    // selects the node, as a click on the canvas does).
    type_at(&app, "\"Set Seed\"", false, "").await;
    let name = "[data-testid=\"wf-node-name\"]";
    app.visible(name).await;
    type_into_field(&app, name, "Seed setter").await;
    let by_canvas = wait_text(&app, "the canvas's change in the pane", |t| t.contains("Seed setter")).await;
    let diff = changed_lines(&original, &by_canvas);
    assert_eq!(
        diff,
        vec![("      \"name\": \"Set Seed\",".to_owned(), "      \"name\": \"Seed setter\",".to_owned())]
    );

    // Undone from the canvas; then the same change typed in the pane.
    app.visible("[data-testid=\"btn-undo\"]").await.click().await.expect("undo");
    wait_text(&app, "the undone change", |t| t == original).await;
    type_at(&app, "Set Seed", false, "Seed setter").await;
    app.wait_view(&id, "the typed name", |v| {
        v["weaveflow"]["definition"]["nodes"][0]["name"] == "Seed setter"
    })
    .await;
    wait_synced(&app).await;
    assert_eq!(pane_text(&app).await, by_canvas, "typing made the canvas's change, byte for byte");
    app.screenshot("text-pane-weaveflow").await;

    // A broken text is refused a save, then fixed; the save writes the pane's text.
    type_at(&app, "\"Seed setter\"", true, " x").await;
    app.visible("[data-testid=\"canvas-behind\"]").await;
    type_at(&app, " x", false, &Key::Backspace.value().to_string()).await;
    app.wait_js("return !document.querySelector('[data-testid=canvas-behind]');", "the canvas caught up")
        .await;
    wait_synced(&app).await;
    app.focus_canvas().await;
    app.chord(&[Key::Control], "s").await;
    wait_fs("the save", || read(&path) != original).await;
    let saved = read(&path);
    assert_eq!(saved, by_canvas, "the file holds the one-line change");
    assert_eq!(changed_lines(&original, &saved).len(), 1);
    app.quit().await;
}

#[ignore = "fails since the merge: the typed GRAPH.md front matter is read as a YAML syntax error"]
#[tokio::test(flavor = "multi_thread")]
async fn graphmd_front_matter_follows_both_ways_and_the_body_is_kept() {
    let dir = tempfile::tempdir().expect("tmp");
    let path = copy(&corpus("graphmd/support-triage/GRAPH.md"), dir.path(), "GRAPH.md");
    // A body with a rule, trailing spaces and a code block: kept byte for byte.
    let body = "\n# Support triage\n\nThe router decides.  \n\n---\n\n```yaml\ntimeout_ms: 1000\n```\n";
    let mut original = read(&path);
    original.push_str(body);
    std::fs::write(&path, &original).expect("write GRAPH.md");
    let app = Desktop::launch(Launch { files: vec![path.clone()], ..Launch::default() }).await;
    let id = app.doc_named("GRAPH.md").await;
    open_pane(&app).await;
    assert_eq!(pane_text(&app).await, original, "the pane shows the file as it is");

    // Typed in the front matter: the judge's timeout, on the canvas and in its inspector.
    type_at(&app, "timeout_ms: 1000\n    fallback", false, "timeout_ms: 1500\n    fallback").await;
    app.wait_view(&id, "the typed timeout", |v| v["graphmd"]["front"]["nodes"][0]["timeout_ms"] == 1500)
        .await;
    wait_synced(&app).await;
    let field = "[data-testid=\"graphmd-timeout-ms\"]";
    app.wait_js(
        &format!(
            "const f = document.querySelector('{}'); return !!f && f.value === '1500';",
            field.replace('\'', "\\'")
        ),
        "the inspector to show the typed timeout",
    )
    .await;

    // Changed on the canvas (the inspector): the pane follows, the body stays as it is.
    type_into_field(&app, field, "400").await;
    let after = wait_text(&app, "the canvas's change in the pane", |t| t.contains("timeout_ms: 400")).await;
    assert!(after.ends_with(body), "the body is byte for byte as it was:\n{after}");
    app.screenshot("text-pane-graphmd").await;

    // Typed in the body: only the body changes, the canvas keeps its graph.
    let end = after.encode_utf16().count();
    app.driver
        .execute("return window.__trellisTextPane.select(arguments[0]);", vec![json!(end)])
        .await
        .expect("cursor at the end");
    app.visible("[data-testid=\"text-pane\"] .cm-content")
        .await
        .send_keys("Typed in the pane.")
        .await
        .expect("type");
    app.wait_view(&id, "the typed body", |v| {
        v["graphmd"]["body"].as_str().is_some_and(|b| b.ends_with("Typed in the pane."))
    })
    .await;
    wait_synced(&app).await;

    app.focus_canvas().await;
    app.chord(&[Key::Control], "s").await;
    app.wait_view(&id, "a clean document", |v| v["dirty"] == false).await;
    let saved = read(&path);
    assert_eq!(saved, pane_text(&app).await, "the save wrote the pane's text");
    assert!(saved.ends_with(&format!("{body}Typed in the pane.")), "the body as typed:\n{saved}");
    assert!(saved.contains("timeout_ms: 400"));
    app.quit().await;
}
