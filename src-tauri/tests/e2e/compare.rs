//! Issue 15 in the real app: "Compare with..." a Git revision (the change list and the canvas
//! marks are Rust's compare view, reverting a change is one undoable edit) for GraphSpec,
//! Weaveflow and GRAPH.md (whose own text style a revert keeps), and a merge driver's conflict
//! report resolved in the UI and saved.

use std::path::Path;
use std::process::Command;

use serde_json::{json, Value};
use thirtyfour::prelude::*;

use crate::harness::{corpus, read, wait_fs, Desktop, Launch};

/// The app's support example (File > New from Example).
const EXAMPLE: &str = include_str!("../../../crates/doc/assets/example.json");

fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .args([
            "-c",
            "user.name=Trellis Test",
            "-c",
            "user.email=test@example.com",
            "-c",
            "commit.gpgsign=false",
        ])
        .args(args)
        .current_dir(dir)
        .output()
        .expect("git runs");
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

fn edited(f: impl FnOnce(&mut Value)) -> String {
    let mut v: Value = serde_json::from_str(EXAMPLE).expect("json");
    f(&mut v);
    serde_json::to_string_pretty(&v).expect("text") + "\n"
}

/// The second commit: one node added, one condition changed.
fn second_version() -> String {
    edited(|v| {
        v["nodes"].as_array_mut().expect("nodes").push(json!({
            "id": "escalate",
            "type": "append_message",
            "config": {"channel": "messages", "role": "assistant", "content": "Passing you to a person."}
        }));
        let edge = v["edges"]
            .as_array_mut()
            .expect("edges")
            .iter_mut()
            .find(|e| e["from"] == "classify" && e["to"] == "answer")
            .expect("classify -> answer");
        edge["when"]["eq"] = json!("faq");
    })
}

/// Runs the palette command whose words are `words`.
async fn palette(app: &Desktop, words: &str) {
    app.chord(&[Key::Control], "k").await;
    let input = app.visible("[data-testid=palette-input]").await;
    input.send_keys(words).await.expect("type");
    input.send_keys(Key::Enter.value().to_string()).await.expect("enter");
}

/// `(kind, element, label)` of the rows of the change list.
async fn rows(app: &Desktop) -> Vec<(String, String, String)> {
    let r = app
        .driver
        .execute(
            "return [...document.querySelectorAll('[data-testid=compare-change]')].map(e => [e.dataset.kind, e.dataset.element, e.dataset.label]);",
            vec![],
        )
        .await
        .expect("rows");
    serde_json::from_value(r.json().clone()).expect("rows as triples")
}

/// The canvas marks: `kind:id` of nodes, `kind:from>to` of edges, `ghost:id` of ghosts.
async fn marks(app: &Desktop) -> Vec<String> {
    let r = app
        .driver
        .execute(
            r#"return [
                ...[...document.querySelectorAll('[data-testid=compare-node-mark]')].map(e => `${e.dataset.kind}:${e.dataset.id}`),
                ...[...document.querySelectorAll('[data-testid=compare-edge-mark]')].map(e => `${e.dataset.kind}:${e.dataset.from}>${e.dataset.to}`),
                ...[...document.querySelectorAll('[data-testid=compare-ghost]')].map(e => `ghost:${e.dataset.id}`),
            ].sort();"#,
            vec![],
        )
        .await
        .expect("marks");
    serde_json::from_value(r.json().clone()).expect("strings")
}

fn when_eq(view: &Value) -> Value {
    view["spec"]["edges"]
        .as_array()
        .and_then(|es| es.iter().find(|e| e["from"] == "classify" && e["to"] == "answer"))
        .map(|e| e["when"]["eq"].clone())
        .unwrap_or(Value::Null)
}

#[tokio::test(flavor = "multi_thread")]
async fn comparing_with_the_first_revision_shows_the_two_changes_and_reverts_one() {
    let dir = tempfile::tempdir().expect("tmp");
    let repo = dir.path().join("repo");
    std::fs::create_dir(&repo).expect("repo folder");
    let path = repo.join("support.json");
    git(&repo, &["init", "-q", "-b", "main"]);
    std::fs::write(&path, EXAMPLE).expect("write");
    git(&repo, &["add", "."]);
    git(&repo, &["commit", "-q", "-m", "support example"]);
    std::fs::write(&path, second_version()).expect("write");
    git(&repo, &["add", "."]);
    git(&repo, &["commit", "-q", "-m", "escalate, faq"]);
    // A document outside any repository, and a binary file the "another file" dialog answers.
    let outside = dir.path().join("outside.json");
    std::fs::write(&outside, EXAMPLE).expect("write");
    let binary = dir.path().join("picture.json");
    std::fs::write(&binary, b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR").expect("write");

    let app = Desktop::launch(Launch {
        files: vec![path.clone(), outside.clone()],
        dialog_path: Some(binary.clone()),
        ..Launch::default()
    })
    .await;
    let id = app.doc_named("support.json").await;
    let outside_id = app.doc_named("outside.json").await;
    app.wait_js(
        &format!("return document.querySelector('[data-testid=app]').dataset.activeDoc === '{id}';"),
        "support.json to be shown",
    )
    .await;

    // File > Compare With… (from the palette): the file's two commits, newest first.
    palette(&app, "compare with a git revision").await;
    app.visible("[data-testid=compare-commit]").await;
    let summaries = app
        .driver
        .execute("return [...document.querySelectorAll('[data-testid=compare-commit]')].map(e => e.dataset.summary);", vec![])
        .await
        .expect("commits");
    assert_eq!(summaries.json(), &json!(["escalate, faq", "support example"]));
    app.visible("[data-testid=compare-commit][data-summary='support example']")
        .await
        .click()
        .await
        .expect("choose");

    // Exactly the two changes, in the list and on the canvas, as Rust's compare view says.
    app.wait_js(
        "return document.querySelector('[data-testid=compare-panel]')?.dataset.count === '2';",
        "two changes",
    )
    .await;
    let rust = app.call("compare_view", json!({"docId": id})).await;
    let from_rust: Vec<(String, String, String)> = rust["changes"]
        .as_array()
        .expect("changes")
        .iter()
        .map(|c| {
            let s = |k: &str| c[k].as_str().unwrap_or_default().to_owned();
            (s("kind"), s("element"), s("label"))
        })
        .collect();
    assert_eq!(
        from_rust,
        [
            ("added".to_owned(), "node".to_owned(), "escalate".to_owned()),
            ("changed".to_owned(), "edge".to_owned(), "classify → answer".to_owned())
        ]
    );
    assert_eq!(rows(&app).await, from_rust, "the list shows Rust's changes");
    let field =
        app.visible("[data-testid=compare-change][data-element=edge] [data-testid=compare-field]").await;
    assert_eq!(field.attr("data-pointer").await.expect("attr").as_deref(), Some("/when/eq"));
    let text = field.text().await.expect("text");
    assert!(text.contains("\"question\"") && text.contains("\"faq\""), "old → new: {text}");
    app.wait_js("return document.querySelectorAll('[data-testid=compare-node-mark], [data-testid=compare-edge-mark]').length === 2;", "the marks").await;
    assert_eq!(marks(&app).await, ["added:escalate", "changed:classify>answer"]);
    app.screenshot("compare-revision").await;

    // Clicking a change selects and frames it.
    app.visible("[data-testid=compare-change][data-element=node] button.compare-change-head")
        .await
        .click()
        .await
        .expect("choose");
    app.wait_js("return document.querySelector('[data-testid=compare-change][data-element=node]').classList.contains('selected');", "the row chosen").await;

    // Revert the condition: the document changes, one Ctrl+Z restores it, the list follows.
    app.visible("[data-testid=compare-change][data-element=edge] [data-testid=compare-take]")
        .await
        .click()
        .await
        .expect("revert");
    let v = app.wait_view(&id, "the condition reverted", |v| when_eq(v) == json!("question")).await;
    assert_eq!(v["dirty"], true);
    assert!(
        v["spec"]["nodes"].as_array().expect("nodes").iter().any(|n| n["id"] == "escalate"),
        "only that change"
    );
    app.wait_js(
        "return document.querySelector('[data-testid=compare-panel]')?.dataset.count === '1';",
        "one change left",
    )
    .await;
    assert_eq!(marks(&app).await, ["added:escalate"]);
    app.visible(".react-flow__pane").await.click().await.expect("focus the canvas");
    app.chord(&[Key::Control], "z").await;
    let v = app.wait_view(&id, "the revert undone", |v| when_eq(v) == json!("faq")).await;
    assert_eq!(v["dirty"], false, "undo gives back the file's state");
    app.wait_js(
        "return document.querySelector('[data-testid=compare-panel]')?.dataset.count === '2';",
        "two changes again",
    )
    .await;

    // Leaving compare mode: the normal canvas.
    app.visible("[data-testid=compare-close]").await.click().await.expect("done");
    app.wait_js("return !document.querySelector('[data-testid=compare-overlay]') && !document.querySelector('[data-testid=compare-panel]');", "the marks gone").await;

    // Clear refusals: an unknown revision, a binary file, a document outside any repository.
    let e = app
        .invoke("compare_with_revision", json!({"docId": id, "rev": "no-such-branch"}))
        .await
        .expect_err("refused");
    assert!(e["message"].as_str().unwrap_or_default().contains("no revision \"no-such-branch\""), "{e}");
    let e = app.invoke("compare_with_file", json!({"docId": id})).await.expect_err("binary refused");
    assert_eq!(e["diagnostics"][0]["code"], "compare/binary", "{e}");
    let targets = app.call("compare_targets", json!({"docId": outside_id})).await;
    assert!(
        targets["unavailable"].as_str().unwrap_or_default().contains("is not in a Git repository"),
        "{targets}"
    );
    let e = app
        .invoke("compare_with_revision", json!({"docId": outside_id, "rev": "HEAD"}))
        .await
        .expect_err("no repo");
    assert_eq!(e["diagnostics"][0]["code"], "compare/not-in-git", "{e}");
    assert_eq!(read(&path), second_version(), "nothing was written");
    app.quit().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_conflict_report_is_resolved_in_the_ui_and_the_save_removes_it() {
    let dir = tempfile::tempdir().expect("tmp");
    let path = dir.path().join("support.json");
    let report_path = dir.path().join("support.json.conflicts.json");
    // Each side makes a clean change (ours a timeout, theirs a prompt) and sets two fields of
    // the classifier differently. What the merge driver leaves: the merge of the clean changes
    // in the file (ours at the conflicts), the report beside it.
    let ours_clean = |v: &mut Value| v["nodes"][1]["config"]["timeout_ms"] = json!(9000);
    let theirs_clean = |v: &mut Value| v["nodes"][2]["config"]["prompt"] = json!("Refund this order?");
    let ours = edited(|v| {
        ours_clean(v);
        v["nodes"][0]["config"]["model"] = json!("ours-model");
        v["nodes"][0]["config"]["default_label"] = json!("question");
    });
    let theirs = edited(|v| {
        theirs_clean(v);
        v["nodes"][0]["config"]["model"] = json!("their-model");
        v["nodes"][0]["config"]["default_label"] = json!("complaint");
    });
    let doc = |t: &str| trellis_diff::read(Some("support.json"), t.as_bytes(), None).expect("reads");
    let outcome = trellis_diff::merge_documents(&doc(EXAMPLE), &doc(&ours), &doc(&theirs)).expect("merges");
    assert_eq!(outcome.conflicts.len(), 2);
    std::fs::write(&path, outcome.text.as_deref().expect("the merge")).expect("write the merge");
    std::fs::write(&report_path, trellis_diff::report_text("support.json", &outcome)).expect("write report");

    let app = Desktop::launch(Launch { files: vec![path.clone()], ..Launch::default() }).await;
    let id = app.doc_named("support.json").await;
    app.wait_js(
        "return document.querySelector('[data-testid=conflict-panel]')?.dataset.open === '2';",
        "two open conflicts",
    )
    .await;
    let model = "[data-testid=conflict][data-pointer='/config/model']";
    let label = "[data-testid=conflict][data-pointer='/config/default_label']";
    let shown = app.visible(model).await.text().await.expect("text");
    assert!(shown.contains("\"ours-model\"") && shown.contains("\"their-model\""), "{shown}");
    assert!(shown.contains("node \"classify\""), "{shown}");
    let opened = app.view(&id).await;
    assert_eq!(opened["spec"]["nodes"][2]["config"]["prompt"], "Refund this order?", "theirs' clean change");
    assert_eq!(opened["spec"]["nodes"][1]["config"]["timeout_ms"], 9000, "ours' clean change");
    let holds_ours_only =
        app.driver.find_all(By::Css("[data-testid=conflict-kept-ours]")).await.expect("find");
    assert!(holds_ours_only.is_empty(), "the file holds the merge: no 'ours only' notice");
    app.screenshot("conflicts").await;

    // Theirs for the model: an edit; Ctrl+Z reopens the conflict, the pick again resolves it.
    app.visible(&format!("{model} [data-testid=conflict-pick-theirs]")).await.click().await.expect("theirs");
    app.wait_js(
        &format!("return document.querySelector(\"{model}\").dataset.resolved === 'true';"),
        "model resolved",
    )
    .await;
    let v = app.view(&id).await;
    assert_eq!(v["spec"]["nodes"][0]["config"]["model"], "their-model");
    app.visible(".react-flow__pane").await.click().await.expect("focus the canvas");
    app.chord(&[Key::Control], "z").await;
    app.wait_js(
        &format!("return document.querySelector(\"{model}\").dataset.resolved === 'false';"),
        "model reopened",
    )
    .await;
    assert_eq!(app.view(&id).await["spec"]["nodes"][0]["config"]["model"], "ours-model");
    app.visible(&format!("{model} [data-testid=conflict-pick-theirs]"))
        .await
        .click()
        .await
        .expect("theirs again");
    app.wait_js(
        &format!("return document.querySelector(\"{model}\").dataset.resolved === 'true';"),
        "model resolved",
    )
    .await;

    // The label: an edited value (JSON), first a broken one.
    app.visible(&format!("{label} [data-testid=conflict-edit]")).await.click().await.expect("edit");
    let area = app.visible(&format!("{label} [data-testid=conflict-edit-text]")).await;
    area.click().await.expect("focus");
    app.chord(&[Key::Control], "a").await;
    area.send_keys("refund\"").await.expect("type");
    app.visible(&format!("{label} [data-testid=conflict-edit-apply]")).await.click().await.expect("apply");
    app.wait_js(
        "return [...document.querySelectorAll('.toast')].some(t => t.textContent.includes('not JSON'));",
        "the JSON error",
    )
    .await;
    area.click().await.expect("focus");
    app.chord(&[Key::Control], "a").await;
    area.send_keys("\"refund\"").await.expect("type");
    app.visible(&format!("{label} [data-testid=conflict-edit-apply]")).await.click().await.expect("apply");
    app.wait_js(
        "return document.querySelector('[data-testid=conflict-panel]')?.dataset.open === '0';",
        "all resolved",
    )
    .await;

    // Save: the writer's bytes, the whole merge (both sides' clean changes and the picks), and
    // the report is gone.
    app.visible(".react-flow__pane").await.click().await.expect("focus the canvas");
    app.chord(&[Key::Control], "s").await;
    wait_fs("the report removed", || !report_path.exists()).await;
    let expected = doc(&edited(|v| {
        ours_clean(v);
        theirs_clean(v);
        v["nodes"][0]["config"]["model"] = json!("their-model");
        v["nodes"][0]["config"]["default_label"] = json!("refund");
    }))
    .to_text()
    .expect("canonical");
    assert_eq!(read(&path), expected);
    app.wait_js("return !document.querySelector('[data-testid=conflict-panel]');", "the panel gone").await;
    app.quit().await;
}

/// Replaces the one occurrence of `from` in `text` (the test's edits are made in the file's own
/// text, as a person edits it, so the file keeps its hand formatting).
fn replace_once(text: &str, from: &str, to: &str) -> String {
    assert_eq!(text.matches(from).count(), 1, "{from:?} occurs once");
    text.replacen(from, to, 1)
}

/// The file's text after `first` and `second` were committed (a repository in `dir`), the app
/// open on it and compared with the first commit: the change list shows exactly `expected`
/// (kind, element, label), as Rust's compare view says.
async fn compare_with_first_commit(
    dir: &Path,
    name: &str,
    first: &str,
    second: &str,
    expected: &[(&str, &str, &str)],
) -> (Desktop, String) {
    let path = dir.join(name);
    git(dir, &["init", "-q", "-b", "main"]);
    std::fs::write(&path, first).expect("write");
    git(dir, &["add", "."]);
    git(dir, &["commit", "-q", "-m", "as found"]);
    std::fs::write(&path, second).expect("write");
    git(dir, &["commit", "-q", "-a", "-m", "edited by hand"]);

    let app = Desktop::launch(Launch { files: vec![path], ..Launch::default() }).await;
    let id = app.doc_named(name).await;
    palette(&app, "compare with a git revision").await;
    app.visible("[data-testid=compare-commit][data-summary='as found']").await.click().await.expect("choose");
    app.wait_js(
        &format!(
            "return document.querySelector('[data-testid=compare-panel]')?.dataset.count === '{}';",
            expected.len()
        ),
        "the changes listed",
    )
    .await;
    let rust = app.call("compare_view", json!({"docId": id})).await;
    let from_rust: Vec<(String, String, String)> = rust["changes"]
        .as_array()
        .expect("changes")
        .iter()
        .map(|c| {
            let s = |k: &str| c[k].as_str().unwrap_or_default().to_owned();
            (s("kind"), s("element"), s("label"))
        })
        .collect();
    let want: Vec<(String, String, String)> =
        expected.iter().map(|(a, b, c)| ((*a).to_owned(), (*b).to_owned(), (*c).to_owned())).collect();
    assert_eq!(from_rust, want);
    assert_eq!(rows(&app).await, from_rust, "the list shows Rust's changes");
    (app, id)
}

/// Reverts the change of the row `row` (a CSS selector), checks that one Ctrl+Z undoes it,
/// reverts it again and saves with Ctrl+S; answers the file's text once saved.
async fn revert_undo_revert_save(
    app: &Desktop,
    id: &str,
    path: &Path,
    row: &str,
    reverted: impl Fn(&Value) -> bool,
) -> String {
    let before = read(path);
    let take = format!("{row} [data-testid=compare-take]");
    app.visible(&take).await.click().await.expect("revert");
    let v = app.wait_view(id, "the change reverted", &reverted).await;
    assert_eq!(v["dirty"], true);
    app.focus_canvas().await;
    app.chord(&[Key::Control], "z").await;
    let v = app.wait_view(id, "the revert undone in one step", |v| !reverted(v)).await;
    assert_eq!(v["dirty"], false, "one undo gives back the file's state");
    app.visible(&take).await.click().await.expect("revert again");
    app.wait_view(id, "the change reverted again", &reverted).await;
    app.focus_canvas().await;
    app.chord(&[Key::Control], "s").await;
    wait_fs("the save", || read(path) != before).await;
    app.wait_view(id, "a clean document", |v| v["dirty"] == false).await;
    read(path)
}

/// Weaveflow: a revision where one worker's config and the graph's description changed by hand;
/// compare names exactly those two, reverting the worker's change is one undo step, and the
/// saved file is the edited file with that one line back: its own formatting (inline objects,
/// one-line lists) kept.
#[tokio::test(flavor = "multi_thread")]
async fn comparing_a_weaveflow_document_reverts_one_change_and_keeps_the_file_s_own_text() {
    let dir = tempfile::tempdir().expect("tmp");
    let first = read(&corpus("weaveflow/supervisor_mode.json"));
    let second = replace_once(
        &replace_once(
            &first,
            "evidence-oriented brief.\",\n        \"max_iterations\": 4,",
            "evidence-oriented brief.\",\n        \"max_iterations\": 9,",
        ),
        "then synthesizes the final answer.",
        "then writes the final answer.",
    );
    let (app, id) = compare_with_first_commit(
        dir.path(),
        "supervisor_mode.json",
        &first,
        &second,
        &[("changed", "graph", "graph description"), ("changed", "node", "researcher")],
    )
    .await;
    let field =
        app.visible("[data-testid=compare-change][data-element=node] [data-testid=compare-field]").await;
    assert_eq!(field.attr("data-pointer").await.expect("attr").as_deref(), Some("/config/max_iterations"));
    app.screenshot("compare-weaveflow").await;

    let researcher = |v: &Value| {
        v["weaveflow"]["definition"]["nodes"]
            .as_array()
            .and_then(|ns| ns.iter().find(|n| n["id"] == "researcher"))
            .map(|n| n["config"]["max_iterations"].clone())
            .unwrap_or(Value::Null)
    };
    let path = dir.path().join("supervisor_mode.json");
    let saved =
        revert_undo_revert_save(&app, &id, &path, "[data-testid=compare-change][data-element=node]", |v| {
            researcher(v) == json!(4)
        })
        .await;
    let expected =
        replace_once(&first, "then synthesizes the final answer.", "then writes the final answer.");
    assert_eq!(saved, expected, "only the reverted line changed, in the file's own style");
    app.wait_js(
        "return document.querySelector('[data-testid=compare-panel]')?.dataset.count === '1';",
        "one change left",
    )
    .await;
    app.quit().await;
}

/// GRAPH.md: a revision where the judge's timeout and a Markdown line changed by hand; compare
/// names exactly those two, reverting the timeout is one undo step, and the saved file is the
/// edited file with that one line back (YAML styles, flow lists, the body kept).
#[tokio::test(flavor = "multi_thread")]
async fn comparing_a_graphmd_document_reverts_one_change_and_keeps_the_file_s_own_text() {
    let dir = tempfile::tempdir().expect("tmp");
    let first =
        read(&corpus("graphmd/support-triage/GRAPH.md")) + "\n# Support triage\n\nThe router decides.\n";
    let second = replace_once(
        &replace_once(&first, "timeout_ms: 1000", "timeout_ms: 2500"),
        "The router decides.",
        "The router decides, then a person closes.",
    );
    let (app, id) = compare_with_first_commit(
        dir.path(),
        "GRAPH.md",
        &first,
        &second,
        &[("changed", "node", "route"), ("changed", "body", "Markdown body")],
    )
    .await;
    let field =
        app.visible("[data-testid=compare-change][data-element=node] [data-testid=compare-field]").await;
    assert_eq!(field.attr("data-pointer").await.expect("attr").as_deref(), Some("/timeout_ms"));
    app.screenshot("compare-graphmd").await;

    let timeout = |v: &Value| v["graphmd"]["front"]["nodes"][0]["timeout_ms"].clone();
    let path = dir.path().join("GRAPH.md");
    let saved =
        revert_undo_revert_save(&app, &id, &path, "[data-testid=compare-change][data-element=node]", |v| {
            timeout(v) == json!(1000)
        })
        .await;
    let expected = replace_once(&first, "The router decides.", "The router decides, then a person closes.");
    assert_eq!(saved, expected, "only the reverted line changed, in the file's own style");
    app.quit().await;
}
