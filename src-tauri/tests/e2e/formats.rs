//! The Weaveflow and GRAPH.md issues' end-to-end tests: open a document of each format in the
//! real app, change one value through its inspector, save with Ctrl+S, and check that the file
//! on disk differs from the original in that one line only (the formats are written back in
//! their own text, not regenerated).

use std::path::{Path, PathBuf};

use serde_json::{json, Value};
use thirtyfour::components::SelectElement;
use thirtyfour::error::WebDriverErrorInner;
use thirtyfour::prelude::*;

use crate::harness::{read, repo_root, wait_fs, Desktop, Launch};

fn node(id: &str) -> String {
    format!("[data-testid=\"node-{id}\"]")
}

/// Copies a fixture of `crates/formats/tests/fixtures` into `dir` as `name` (the test never
/// writes into the repository).
fn copy_fixture(dir: &Path, rel: &str, name: &str) -> PathBuf {
    let from = repo_root().join("crates/formats/tests/fixtures").join(rel);
    let to = dir.join(name);
    std::fs::copy(&from, &to).unwrap_or_else(|e| panic!("copy {}: {e}", from.display()));
    to
}

/// Replaces the text of an input or textarea the way a user does (select all, type), then
/// leaves it with Tab, which commits it. A field may be drawn anew between being found and
/// being typed into (a committed app setting remounts its field with the value Rust kept, a
/// moment after the document's view already shows the change): then it is found again and
/// the typing starts over.
pub(crate) async fn type_and_leave(app: &Desktop, css: &str, text: &str) {
    for _ in 0..5 {
        let el = app.visible(css).await;
        let typed = async {
            el.click().await?;
            app.chord(&[Key::Control], "a").await;
            el.send_keys(text).await
        }
        .await;
        match typed {
            Ok(()) => {
                app.chord(&[], &Key::Tab.value().to_string()).await;
                return;
            }
            Err(e) if matches!(e.as_inner(), WebDriverErrorInner::StaleElementReference(_)) => continue,
            Err(e) => panic!("typing into {css}: {e:?}"),
        }
    }
    panic!("{css} was drawn anew at each of five tries");
}

/// The lines where `before` and `after` differ, as (line number, old, new); the files must have
/// the same number of lines.
pub(crate) fn changed_lines(before: &str, after: &str) -> Vec<(usize, String, String)> {
    let (a, b): (Vec<&str>, Vec<&str>) = (before.split('\n').collect(), after.split('\n').collect());
    assert_eq!(a.len(), b.len(), "the line count changed:\n--- before\n{before}\n--- after\n{after}");
    a.iter()
        .zip(&b)
        .enumerate()
        .filter(|(_, (x, y))| x != y)
        .map(|(i, (x, y))| (i + 1, (*x).to_string(), (*y).to_string()))
        .collect()
}

/// The latency figure of the first path in the path panel (`"1000 ms"` -> 1000).
async fn first_path_latency(app: &Desktop) -> u64 {
    let text = app.visible("[data-testid=\"path-0-latency\"]").await.text().await.expect("latency text");
    text.trim().trim_end_matches("ms").trim().parse().unwrap_or_else(|e| panic!("latency {text:?}: {e}"))
}

/// Clicks a node where it is on screen: its DOM element when the canvas shows elements, else
/// its spot on the overview drawing (flow position through React Flow's viewport transform).
pub(crate) async fn click_node(app: &Desktop, doc_id: &str, id: &str) {
    let script = r#"
        const [id] = arguments;
        const el = document.querySelector(`[data-testid="node-${id}"]`);
        if (el && el.getBoundingClientRect().width > 0) return { dom: true };
        const vp = document.querySelector('.react-flow__viewport');
        const pane = document.querySelector('[data-testid=canvas]');
        if (!vp || !pane) return null;
        const m = new DOMMatrix(getComputedStyle(vp).transform);
        return { dom: false, tx: m.e, ty: m.f, zoom: m.a, rect: pane.getBoundingClientRect().toJSON() };
    "#;
    let deadline = std::time::Instant::now() + crate::harness::PATIENCE;
    loop {
        let r = app.driver.execute(script, vec![serde_json::json!(id)]).await.expect("locate");
        let r = r.json().clone();
        if r["dom"] == true {
            app.visible(&node(id)).await.click().await.expect("click the node");
            return;
        }
        let view = app.view(doc_id).await;
        let pos = &view["layout"]["positions"][id];
        if let (Some(x), Some(y), Some(tx), Some(ty), Some(z)) =
            (pos["x"].as_f64(), pos["y"].as_f64(), r["tx"].as_f64(), r["ty"].as_f64(), r["zoom"].as_f64())
        {
            // 20 flow units into the node's box, relative to the canvas element's centre.
            let (w, h) =
                (r["rect"]["width"].as_f64().unwrap_or(0.0), r["rect"]["height"].as_f64().unwrap_or(0.0));
            let dx = tx + (x + 20.0) * z - w / 2.0;
            let dy = ty + (y + 20.0) * z - h / 2.0;
            let canvas = app.visible("[data-testid=\"canvas\"]").await;
            app.driver
                .action_chain()
                .move_to_element_with_offset(&canvas, dx as i64, dy as i64)
                .click()
                .perform()
                .await
                .expect("click on the overview");
            return;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "node {id} is neither in the DOM nor laid out: {r} {pos}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_weaveflow_node_config_edited_in_the_inspector_saves_as_one_changed_line() {
    let dir = tempfile::tempdir().expect("tmp");
    let path = copy_fixture(dir.path(), "weaveflow/corpus/state_operations.json", "state_operations.json");
    let original = read(&path);
    let app = Desktop::launch(Launch { files: vec![path.clone()], ..Launch::default() }).await;
    let id = app.doc_named("state_operations.json").await;
    let view = app.view(&id).await;
    assert_eq!(view["format"], "weaveflow", "detected from the content");
    assert_eq!(view["weaveflow"]["definition"]["nodes"][0]["config"]["value"]["value"], "base");

    // Select the node on the canvas: the inspector shows its fields.
    // A 7-node chain fits the window at ~30 % zoom, so the canvas shows its overview drawing
    // (no DOM nodes): click where the node is drawn, as a user does.
    click_node(&app, &id, "set_seed").await;
    app.visible("[data-testid=\"weaveflow-node\"]").await;
    let config = app.visible("[data-testid=\"wf-node-config\"]").await;
    let shown = config.prop("value").await.expect("config text").unwrap_or_default();
    let shown: Value = serde_json::from_str(&shown).expect("the config field shows JSON");
    assert_eq!(shown["value"]["value"], "base", "the config form shows the node's config: {shown}");

    type_and_leave(
        &app,
        "[data-testid=\"wf-node-config\"]",
        r#"{"value":{"value":"edited by hand","nested":{"left":1}}}"#,
    )
    .await;
    let view = app
        .wait_view(&id, "the new config", |v| {
            v["weaveflow"]["definition"]["nodes"][0]["config"]["value"]["value"] == "edited by hand"
        })
        .await;
    assert_eq!(view["dirty"], true);
    assert!(
        !view["diagnostics"].as_array().is_some_and(|d| d.iter().any(|x| x["severity"] == "error")),
        "{view}"
    );
    app.wait_title("*state_operations.json — Trellis").await;
    app.screenshot("weaveflow-edited").await;

    // Ctrl+S from the canvas (focus out of the text field first).
    app.visible(".react-flow__pane").await.click().await.expect("focus the canvas");
    app.chord(&[Key::Control], "s").await;
    wait_fs("the save", || read(&path) != original).await;
    app.wait_view(&id, "a clean document", |v| v["dirty"] == false).await;
    app.wait_title("state_operations.json — Trellis").await;

    let saved = read(&path);
    let diff = changed_lines(&original, &saved);
    assert_eq!(diff.len(), 1, "exactly one line differs: {diff:?}");
    let (_, old, new) = &diff[0];
    assert!(old.contains("\"base\""), "the changed line held the old value: {old:?}");
    assert_eq!(new, &old.replace("\"base\"", "\"edited by hand\""), "only the value changed in it");
    app.quit().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_graphmd_judge_timeout_edited_in_the_inspector_updates_the_paths_and_saves_one_line() {
    let dir = tempfile::tempdir().expect("tmp");
    let path = copy_fixture(dir.path(), "graphmd/support-triage.GRAPH.md", "GRAPH.md");
    // The seed has no body; give it one (with a `---` rule and trailing spaces) so "the body is
    // kept byte for byte" is a real check.
    let body = "\n# Support triage\n\nThe router decides.  \n\n---\n\n```yaml\ntimeout_ms: 1000\n```\n";
    let mut original = read(&path);
    original.push_str(body);
    std::fs::write(&path, &original).expect("write GRAPH.md");

    let app = Desktop::launch(Launch { files: vec![path.clone()], ..Launch::default() }).await;
    let id = app.doc_named("GRAPH.md").await;
    let view = app.view(&id).await;
    assert_eq!(view["format"], "graphmd");
    assert_eq!(view["graphmd"]["body"], body, "the body as read");

    // Select the judge: its fields show, and the path panel is there.
    app.visible(&node("route")).await.click().await.expect("select the judge");
    app.visible("[data-testid=\"graphmd-node\"]").await;
    let timeout = app.visible("[data-testid=\"graphmd-timeout-ms\"]").await;
    assert_eq!(timeout.prop("value").await.expect("value").as_deref(), Some("1000"));
    let before = first_path_latency(&app).await;
    assert!(before >= 1000, "the judge's latency is its timeout (1000 ms): {before}");

    type_and_leave(&app, "[data-testid=\"graphmd-timeout-ms\"]", "400").await;
    let view = app
        .wait_view(&id, "the new timeout", |v| v["graphmd"]["front"]["nodes"][0]["timeout_ms"] == 400)
        .await;
    assert_eq!(view["dirty"], true);
    // The path panel follows: the judge's part of the latency drops by 600 ms.
    app.wait_js(
        &format!(
            "const e = document.querySelector('[data-testid=path-0-latency]'); return !!e && e.textContent.trim() === '{} ms';",
            before - 600
        ),
        "the path panel's latency to drop by 600 ms",
    )
    .await;
    let panel = app.visible("[data-testid=\"paths-panel\"]").await;
    panel.scroll_into_view().await.expect("show the path panel");
    app.screenshot("graphmd-edited").await;

    app.visible(".react-flow__pane").await.click().await.expect("focus the canvas");
    app.chord(&[Key::Control], "s").await;
    wait_fs("the save", || read(&path) != original).await;
    app.wait_view(&id, "a clean document", |v| v["dirty"] == false).await;

    let saved = read(&path);
    let diff = changed_lines(&original, &saved);
    assert_eq!(diff.len(), 1, "exactly one line differs: {diff:?}");
    assert_eq!(diff[0].1, "    timeout_ms: 1000");
    assert_eq!(diff[0].2, "    timeout_ms: 400");
    assert!(saved.ends_with(body), "the Markdown body is byte-identical:\n{saved}");
    let front_end = original.len() - body.len();
    assert_eq!(&saved[saved.len() - body.len()..], &original[front_end..]);
    app.quit().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_weaveflow_document_exported_as_graphspec_lists_its_losses_then_writes_a_valid_spec() {
    let dir = tempfile::tempdir().expect("tmp");
    let path = copy_fixture(dir.path(), "weaveflow/corpus/state_operations.json", "state_operations.json");
    let original = read(&path);
    let out = dir.path().join("exported.json");
    // The Save dialog of Export answers this path (TRELLIS_TEST_DIALOG_PATH).
    let app = Desktop::launch(Launch {
        files: vec![path.clone()],
        dialog_path: Some(out.clone()),
        ..Launch::default()
    })
    .await;
    let id = app.doc_named("state_operations.json").await;
    assert_eq!(app.view(&id).await["format"], "weaveflow");
    // What the confirmation will list: the conversion's own losses (nothing written yet).
    let preview =
        app.call("export_document", json!({ "docId": id, "format": "graphspec", "confirm": false })).await;
    let losses = preview["losses"].as_array().cloned().unwrap_or_default();
    assert!(!losses.is_empty(), "state operations do not fit GraphSpec: {preview}");
    assert!(!out.exists(), "the preview writes nothing");

    // The user's path: Export as GraphSpec (the toolbar's choice runs the menu's action).
    let select = app.visible("[data-testid=\"export-select\"]").await;
    SelectElement::new(&select).await.expect("a select").select_by_value("graphspec").await.expect("choose");
    app.visible("[data-testid=\"export-confirm\"]").await;
    let rows = app.driver.find_all(By::Css("[data-testid=\"export-loss\"]")).await.expect("rows");
    assert_eq!(rows.len(), losses.len(), "one row per loss");
    for (row, loss) in rows.iter().zip(&losses) {
        let text = row.text().await.expect("row text");
        let message = loss["message"].as_str().unwrap_or_default();
        assert!(text.contains(message), "row {text:?} shows {message:?}");
    }
    assert!(!out.exists(), "nothing is written before the user confirms");
    app.visible("[data-testid=\"export-go\"]").await.click().await.expect("confirm");
    wait_fs("the exported file", || out.exists()).await;
    app.wait_js(
        "return !document.querySelector('[data-testid=export-confirm]');",
        "the confirmation to close",
    )
    .await;

    let exported = read(&out);
    let parsed = trellis_spec::read::parse_spec(&exported);
    assert!(parsed.spec.is_some(), "a GraphSpec:\n{exported}");
    let errors: Vec<_> =
        parsed.diagnostics.iter().filter(|d| d.severity == trellis_spec::Severity::Error).collect();
    assert!(errors.is_empty(), "read without errors: {errors:?}\n{exported}");
    assert_eq!(read(&path), original, "the open Weaveflow file is untouched");
    let view = app.view(&id).await;
    assert_eq!(view["dirty"], false, "exporting does not change the document");
    app.quit().await;
}

/// The accepted Weaveflow `version` is an app setting: set to "2.0" in the graph inspector, the
/// open "1.0" document gets the version error and cannot be saved; set back, the error goes.
#[tokio::test(flavor = "multi_thread")]
async fn the_accepted_weaveflow_version_is_a_setting_that_revalidates_open_documents() {
    let dir = tempfile::tempdir().expect("tmp");
    let path = copy_fixture(dir.path(), "weaveflow/corpus/state_operations.json", "state_operations.json");
    let app = Desktop::launch(Launch { files: vec![path.clone()], ..Launch::default() }).await;
    let id = app.doc_named("state_operations.json").await;
    let version_error =
        |v: &Value| v["diagnostics"].as_array().is_some_and(|d| d.iter().any(|x| x["pointer"] == "/version"));
    assert!(!version_error(&app.view(&id).await), "a 1.0 document is fine with the default setting");

    let field = "[data-testid=\"wf-accepted-version\"]";
    let shown = app.visible(field).await.prop("value").await.expect("value").unwrap_or_default();
    assert_eq!(shown, "1.0");
    type_and_leave(&app, field, "2.0").await;
    let view = app.wait_view(&id, "the version error", version_error).await;
    let message = view["diagnostics"]
        .as_array()
        .and_then(|d| d.iter().find(|x| x["pointer"] == "/version"))
        .map(|x| x["message"].as_str().unwrap_or_default().to_string())
        .unwrap_or_default();
    assert!(message.contains("\"2.0\""), "the message names the accepted version: {message}");

    type_and_leave(&app, field, "1.0").await;
    app.wait_view(&id, "no version error", |v| !version_error(v)).await;
    app.quit().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn weaveflow_problem_positions_in_the_app_are_those_of_the_file() {
    // A Weaveflow file formatted by hand (objects on one line): the writer would spread it
    // over more lines, and a position taken from the writer's text (12:5) would not be the
    // file's (9:5, where `trellis validate` puts it).
    let dir = tempfile::tempdir().expect("tmp");
    let text = std::fs::read_to_string(
        repo_root().join("crates/formats/tests/fixtures/weaveflow/corpus/assistant.json"),
    )
    .expect("read")
    .replace("\"edges\": []", "\"edges\": [\n    { \"from\": \"input\", \"to\": \"ghost\" }\n  ]");
    let path = dir.path().join("assistant.json");
    std::fs::write(&path, &text).expect("write");
    let app = Desktop::launch(Launch { files: vec![path.clone()], ..Launch::default() }).await;
    let id = app.doc_named("assistant.json").await;
    let view = app.view(&id).await;
    let at = |pointer: &str| {
        view["diagnostics"]
            .as_array()
            .and_then(|d| d.iter().find(|x| x["pointer"] == pointer))
            .map(|x| (x["span"]["line"].as_u64(), x["span"]["column"].as_u64()))
    };
    assert_eq!(at("/nodes/0"), Some((Some(9), Some(5))), "{view}");
    assert_eq!(at("/edges/0/to"), Some((Some(18), Some(24))), "{view}");
    app.wait_js(
        "return [...document.querySelectorAll('[data-testid=problem][data-pointer=\"/nodes/0\"]')] \
         .some((e) => e.textContent.includes('9:5'));",
        "the problems panel to show 9:5",
    )
    .await;
    app.quit().await;
}
