//! The desktop issue's end-to-end tests: open, edit, save (bytes on disk = canonical text);
//! outside changes (reload when clean, conflict when dirty); a document with errors is never
//! written; unsaved work survives a crash.

use serde_json::{json, Value};

use crate::harness::{canonical, read, replace_atomically, wait_fs, Desktop, Launch};

/// A small valid graph, written compactly (not canonical) so a save visibly rewrites it.
fn small_graph() -> Value {
    json!({
        "name": "greeter",
        "channels": {"messages": {"reducer": "append"}},
        "nodes": [
            {"id": "hello", "type": "append_message", "config": {"role": "assistant", "content": "Hello!"}}
        ],
        "edges": [
            {"from": "__start__", "to": "hello"},
            {"from": "hello", "to": "__end__"}
        ]
    })
}

fn write_spec(dir: &std::path::Path, name: &str, spec: &Value) -> std::path::PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, serde_json::to_string(spec).expect("json")).expect("write spec");
    path
}

#[tokio::test(flavor = "multi_thread")]
async fn open_edit_save_writes_the_canonical_text() {
    let dir = tempfile::tempdir().expect("tmp");
    let path = write_spec(dir.path(), "greeter.json", &small_graph());
    let app = Desktop::launch(Launch { files: vec![path.clone()], ..Launch::default() }).await;
    let id = app.doc_named("greeter.json").await;
    app.visible("[data-testid=\"node-hello\"]").await;

    let delta = app
        .edit(&id, json!({"op": "set_config_field", "id": "hello", "path": "/content", "value": "Hi there"}))
        .await;
    assert_eq!(delta["dirty"], true);
    assert_eq!(delta["nodes"][0]["insert"][0]["config"]["content"], "Hi there", "{delta}");
    app.wait_title("*greeter.json — Trellis").await;
    let saved = app.call("save_document", json!({"docId": id})).await;
    assert_eq!(saved["saved"], true, "{saved}");
    // A save does not change the document: its answer is what changed in the view.
    assert!(saved["view"].is_null(), "{saved}");
    assert_eq!(saved["delta"]["dirty"], false);

    let mut expected = small_graph();
    expected["nodes"][0]["config"]["content"] = json!("Hi there");
    assert_eq!(read(&path), canonical(&expected), "the bytes on disk are the canonical text");
    assert!(path.with_file_name("greeter.layout.json").exists(), "the layout sidecar is written");
    app.wait_title("greeter.json — Trellis").await;
    app.screenshot("desktop-saved").await;
    app.quit().await;
}

/// Issue 12: a hand-formatted file's first save says it rewrote the file in canonical form, and
/// how many lines that changed; the layout file it creates beside the document is announced.
#[tokio::test(flavor = "multi_thread")]
async fn the_first_save_of_a_hand_formatted_file_says_what_it_reformatted() {
    use serde::Serialize;
    use thirtyfour::prelude::Key;
    let dir = tempfile::tempdir().expect("tmp");
    // Tab indentation: the canonical text indents with spaces, so every indented line changes
    // and none can equal another canonical line by accident.
    let mut text = Vec::new();
    let fmt = serde_json::ser::PrettyFormatter::with_indent(b"\t");
    small_graph().serialize(&mut serde_json::Serializer::with_formatter(&mut text, fmt)).expect("json");
    let text = String::from_utf8(text).expect("utf-8");
    let changed = text.lines().filter(|l| l.starts_with('\t')).count();
    let path = dir.path().join("greeter.json");
    std::fs::write(&path, &text).expect("write spec");

    let app = Desktop::launch(Launch { files: vec![path.clone()], ..Launch::default() }).await;
    let id = app.doc_named("greeter.json").await;
    app.visible("[data-testid=\"node-hello\"]").await;
    app.edit(&id, json!({"op": "set_config_field", "id": "hello", "path": "/content", "value": "Hi"})).await;
    app.wait_title("*greeter.json — Trellis").await;
    app.focus_canvas().await;
    app.chord(&[Key::Control], "s").await;
    let notice = format!("Saved greeter.json in canonical form: {changed} lines reformatted.");
    app.wait_js_showing(
        &format!(
            "return [...document.querySelectorAll('[data-testid=toast]')].some(t => t.textContent.includes({notice:?}) && t.textContent.includes('greeter.layout.json'));"
        ),
        "the notice of the reformatting and of the new layout file",
        "return [...document.querySelectorAll('[data-testid=toast]')].map(t => t.textContent);",
    )
    .await;
    app.wait_title("greeter.json — Trellis").await;
    let mut expected = small_graph();
    expected["nodes"][0]["config"]["content"] = json!("Hi");
    assert_eq!(read(&path), canonical(&expected));

    // The second save reformats nothing and creates nothing: a plain notice.
    let answer = app.call("save_document", json!({"docId": id})).await;
    assert_eq!(answer["saved"], true, "{answer}");
    assert_eq!(answer["reformattedLines"], Value::Null, "{answer}");
    assert_eq!(answer["newLayoutFile"], Value::Null, "{answer}");
    app.quit().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn an_outside_change_to_a_clean_document_reloads_it() {
    let dir = tempfile::tempdir().expect("tmp");
    let path = write_spec(dir.path(), "greeter.json", &small_graph());
    let app = Desktop::launch(Launch { files: vec![path.clone()], ..Launch::default() }).await;
    let id = app.doc_named("greeter.json").await;
    app.visible("[data-testid=\"node-hello\"]").await;

    let mut theirs = small_graph();
    theirs["nodes"][0]["id"] = json!("welcome");
    theirs["edges"][0]["to"] = json!("welcome");
    theirs["edges"][1]["from"] = json!("welcome");
    replace_atomically(&path, &canonical(&theirs));

    let view = app.wait_view(&id, "the reload", |v| v["spec"]["nodes"][0]["id"] == "welcome").await;
    assert_eq!(view["dirty"], false, "a reload leaves the document clean");
    assert_eq!(view["canUndo"], true, "the reload is undoable");
    app.visible("[data-testid=\"node-welcome\"]").await;
    app.quit().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn an_outside_change_to_a_dirty_document_is_a_conflict_and_nothing_is_written() {
    let dir = tempfile::tempdir().expect("tmp");
    let path = write_spec(dir.path(), "greeter.json", &small_graph());
    let app = Desktop::launch(Launch { files: vec![path.clone()], ..Launch::default() }).await;
    let id = app.doc_named("greeter.json").await;
    app.visible("[data-testid=\"node-hello\"]").await;
    app.edit(&id, json!({"op": "rename_graph", "name": "mine"})).await;

    let mut theirs = small_graph();
    theirs["name"] = json!("theirs");
    let theirs_text = canonical(&theirs);
    std::fs::write(&path, &theirs_text).expect("outside edit in place");

    let view = app.wait_view(&id, "the conflict", |v| !v["conflict"].is_null()).await;
    assert_eq!(view["spec"]["name"], "mine", "my work is kept");
    assert_eq!(view["dirty"], true);
    app.visible("[data-testid=\"conflict-bar\"]").await;
    app.screenshot("desktop-conflict").await;

    let saved = app.call("save_document", json!({"docId": id})).await;
    assert_eq!(saved["saved"], false, "{saved}");
    assert_eq!(saved["conflict"], true, "{saved}");
    assert_eq!(read(&path), theirs_text, "nothing was written over their change");

    // Keep mine, then save: now my version wins, on purpose.
    app.call("resolve_conflict", json!({"docId": id, "choice": "keep_mine"})).await;
    let saved = app.call("save_document", json!({"docId": id})).await;
    assert_eq!(saved["saved"], true, "{saved}");
    let mut mine = small_graph();
    mine["name"] = json!("mine");
    assert_eq!(read(&path), canonical(&mine));
    app.quit().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_spec_with_an_error_is_saved_with_it_and_the_error_stays() {
    let dir = tempfile::tempdir().expect("tmp");
    // The predicate reads `intent`, which is never declared: an error.
    let mut spec = small_graph();
    spec["edges"][1]["when"] = json!({"channel": "intent", "eq": "buy"});
    let path = write_spec(dir.path(), "broken.json", &spec);
    let app = Desktop::launch(Launch { files: vec![path.clone()], ..Launch::default() }).await;
    let id = app.doc_named("broken.json").await;
    let before = app.view(&id).await["diagnostics"].clone();

    // Edit so there is something to save, then save: written, problem and all.
    app.edit(&id, json!({"op": "rename_graph", "name": "renamed"})).await;
    let saved = app.call("save_document", json!({"docId": id})).await;
    assert_eq!(saved["saved"], true, "{saved}");
    let mut expected = spec.clone();
    expected["name"] = json!("renamed");
    assert_eq!(read(&path), canonical(&expected), "the canonical writer's text");
    let view = app.view(&id).await;
    assert_eq!(view["diagnostics"], before, "the same findings, no more, no fewer");
    assert!(
        view["diagnostics"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|d| d["message"].as_str().unwrap_or("").contains("intent")),
        "the undeclared channel is still named: {view}"
    );
    app.quit().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn unsaved_work_survives_a_crash_and_is_restored() {
    let dir = tempfile::tempdir().expect("tmp");
    let data = tempfile::tempdir().expect("data");
    let path = write_spec(dir.path(), "greeter.json", &small_graph());
    let before = std::fs::read(&path).expect("read");
    let launch = Launch { data_dir: Some(data.path().to_path_buf()), ..Launch::default() };

    let app = Desktop::launch(Launch { files: vec![path.clone()], ..launch.clone() }).await;
    let id = app.doc_named("greeter.json").await;
    app.edit(&id, json!({"op": "rename_graph", "name": "unsaved work"})).await;
    app.edit(
        &id,
        json!({"op": "set_config_field", "id": "hello", "path": "/content", "value": "typed, never saved"}),
    )
    .await;
    // The journal writes within a second of the edit.
    let journal = data.path().join("journal");
    wait_fs("the journal entry", || {
        std::fs::read_dir(&journal)
            .map(|d| d.flatten().any(|e| e.path().extension().is_some_and(|x| x == "json")))
            .unwrap_or(false)
    })
    .await;
    tokio::time::sleep(std::time::Duration::from_millis(1200)).await;
    app.crash_app();
    app.quit().await;
    assert_eq!(std::fs::read(&path).expect("read"), before, "the crash wrote nothing to the file");

    // Start again with no file on the command line: the work comes back, dirty.
    let app = Desktop::launch(launch).await;
    let id = app.doc_named("greeter.json").await;
    let view = app.view(&id).await;
    assert_eq!(view["dirty"], true);
    assert_eq!(view["spec"]["name"], "unsaved work");
    assert_eq!(view["spec"]["nodes"][0]["config"]["content"], "typed, never saved");
    assert!(
        view["notices"].as_array().is_some_and(|ns| ns.iter().any(|n| n["code"] == "doc/restored")),
        "a notice says it was restored: {}",
        view["notices"]
    );
    app.screenshot("desktop-restored").await;
    let saved = app.call("save_document", json!({"docId": id})).await;
    assert_eq!(saved["saved"], true, "{saved}");
    let mut expected = small_graph();
    expected["name"] = json!("unsaved work");
    expected["nodes"][0]["config"]["content"] = json!("typed, never saved");
    assert_eq!(read(&path), canonical(&expected));
    app.quit().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn the_webview_can_touch_no_path_and_no_network() {
    let app = Desktop::launch(Launch::default()).await;
    // No plugin is there to call: no file system, no shell, no dialog.
    for (cmd, args) in [
        ("plugin:fs|read_text_file", json!({"path": "/etc/passwd"})),
        ("plugin:shell|execute", json!({"program": "sh", "args": ["-c", "id"]})),
        ("plugin:dialog|open", json!({})),
    ] {
        assert!(app.invoke(cmd, args).await.is_err(), "{cmd} must not be callable");
    }
    // Documents are named by id only; a path is not an id.
    let refused = app.invoke("get_document", json!({"docId": "/etc/passwd"})).await;
    assert!(refused.is_err_and(|e| e.to_string().contains("app/bad-document-id")));
    // The CSP: no request leaves the app, no inline script runs.
    let fetched = app
        .driver
        .execute_async(
            "const done = arguments[0]; fetch('https://example.com/').then(() => done('fetched'), () => done('blocked'));",
            vec![],
        )
        .await
        .expect("script")
        .json()
        .clone();
    assert_eq!(fetched, json!("blocked"));
    let inline = app
        .driver
        .execute(
            "window.__inlineRan = false; const s = document.createElement('script'); s.textContent = 'window.__inlineRan = true'; document.head.appendChild(s); return window.__inlineRan;",
            vec![],
        )
        .await
        .expect("script")
        .json()
        .clone();
    assert_eq!(inline, json!(false), "an injected inline script must not run");
    // The prototype is frozen.
    let frozen =
        app.driver.execute("return Object.isFrozen(Object.prototype);", vec![]).await.expect("script");
    assert_eq!(frozen.json(), &json!(true));
    app.quit().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn quit_asks_about_each_dirty_document_and_saves_when_told() {
    let dir = tempfile::tempdir().expect("tmp");
    let path = write_spec(dir.path(), "greeter.json", &small_graph());
    // Every "save changes?" prompt answers Save.
    let app =
        Desktop::launch(Launch { files: vec![path.clone()], confirm: Some("save"), ..Launch::default() })
            .await;
    let id = app.doc_named("greeter.json").await;
    app.edit(&id, json!({"op": "rename_graph", "name": "saved on quit"})).await;
    // Quit does not answer (the app is gone by then): fire and forget.
    let _ = app.driver.execute("window.__TAURI_INTERNALS__.invoke('quit', {}); return true;", vec![]).await;
    wait_fs("the app to quit", || !app.app_running()).await;
    let mut expected = small_graph();
    expected["name"] = json!("saved on quit");
    assert_eq!(read(&path), canonical(&expected), "the dirty document was saved before quitting");
    app.quit().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn open_from_the_toolbar_takes_the_dialog_path_and_adds_it_to_recent_files() {
    let dir = tempfile::tempdir().expect("tmp");
    let path = write_spec(dir.path(), "greeter.json", &small_graph());
    // The Open dialog answers this path (TRELLIS_TEST_DIALOG_PATH).
    let app = Desktop::launch(Launch { dialog_path: Some(path.clone()), ..Launch::default() }).await;
    app.visible("[data-testid=\"btn-open\"]").await.click().await.expect("Open");
    app.visible("[data-testid=\"node-hello\"]").await;
    let id = app.doc_named("greeter.json").await;
    app.wait_js(
        &format!("return document.querySelector('[data-testid=app]').dataset.activeDoc === '{id}';"),
        "the opened document to be shown",
    )
    .await;
    let recent = app.call("recent_files", json!({})).await;
    assert_eq!(recent[0]["path"], json!(path.display().to_string()), "{recent}");
    assert_eq!(recent[0]["fileName"], "greeter.json");
    app.quit().await;
}

/// A document whose view is over 1 MiB: a chain of placeholder nodes, each with a sentence in
/// its config.
fn large_graph(nodes: usize) -> Value {
    let ids: Vec<String> = (0..nodes).map(|i| format!("step{i}")).collect();
    // About 500 bytes a node: few nodes (the debug build lays them out) and a view over 1 MiB.
    let note =
        "a placeholder that stands for a step of the real flow, kept so reviewers see the route; ".repeat(5);
    let mut edges = vec![json!({"from": "__start__", "to": ids[0]})];
    edges.extend(ids.windows(2).map(|w| json!({"from": w[0], "to": w[1]})));
    edges.push(json!({"from": ids[nodes - 1], "to": "__end__"}));
    // One config the type refuses: a finding of the checks (which run while the page reads
    // the view on an open), not of the reading.
    let config = |i: usize| match i {
        7 => json!({"note": "seven", "colour": "red"}),
        _ => json!({"note": format!("{i}: {note}")}),
    };
    json!({
        "name": "large",
        "nodes": ids.iter().enumerate().map(|(i, id)| json!({"id": id, "type": "noop", "config": config(i)})).collect::<Vec<_>>(),
        "edges": edges,
    })
}

/// Waits for the page to show the large document named `name` (`spec.name`), then checks that
/// the view it holds is, field by field, what Rust answers for the same document. Answers the
/// document's id.
async fn page_holds_the_large_view(app: &Desktop, name: &str) -> String {
    app.wait_js(
        &format!(
            "const P = window.__trellisPerf; return P?.nodeCount() === 2500 && P.activeView()?.spec.name === {};",
            json!(name)
        ),
        "the page to show the large document's 2,500 nodes",
    )
    .await;
    let id = app.doc_named("large.json").await;
    let held = app.js("return window.__trellisPerf.activeView();").await;
    let view = app.view(&id).await;
    assert!(view["spec"].to_string().len() > 1 << 20, "the document's view is large enough");
    // (The viewport is the page's own: it tells Rust where it looks after the first frame.)
    for key in ["/id", "/spec", "/layout/positions", "/edgeLabels", "/diagnostics", "/registry", "/collapsed"]
    {
        let (page, rust) = (held.pointer(key), view.pointer(key));
        assert!(rust.is_some() && page == rust, "the page's {key} is not Rust's");
    }
    let findings = held["diagnostics"].as_array().cloned().unwrap_or_default();
    assert!(
        findings
            .iter()
            .any(|d| d["code"] == "config/unknown-field" && d["pointer"] == "/nodes/7/config/colour"),
        "the checks' finding is in the page's view: {findings:?}"
    );
    id
}

#[tokio::test(flavor = "multi_thread")]
async fn a_large_document_opened_from_the_toolbar_comes_to_the_page_whole() {
    let dir = tempfile::tempdir().expect("tmp");
    let path = write_spec(dir.path(), "large.json", &large_graph(2_500));
    let app = Desktop::launch(Launch { dialog_path: Some(path.clone()), ..Launch::default() }).await;
    app.visible("[data-testid=\"btn-open\"]").await.click().await.expect("Open");
    page_holds_the_large_view(&app, "large").await;
    app.quit().await;
}

/// Changed on disk, the document's new view is named by a `document-changed` event (an event's
/// payload is written into a script the page runs: no place for tens of megabytes), and the
/// page asks for it (`document_view`).
#[tokio::test(flavor = "multi_thread")]
async fn a_large_document_changed_outside_comes_to_the_page_again_whole() {
    let dir = tempfile::tempdir().expect("tmp");
    let mut spec = large_graph(2_500);
    let path = write_spec(dir.path(), "large.json", &spec);
    let app = Desktop::launch(Launch { files: vec![path.clone()], ..Launch::default() }).await;
    // Listed at start, it is asked for with `get_document` (the start page's own are small).
    page_holds_the_large_view(&app, "large").await;
    spec["name"] = json!("large, renamed outside");
    replace_atomically(&path, &canonical(&spec));
    page_holds_the_large_view(&app, "large, renamed outside").await;
    app.quit().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_file_deleted_outside_stays_open_dirty_and_save_writes_it_again() {
    let dir = tempfile::tempdir().expect("tmp");
    let path = write_spec(dir.path(), "greeter.json", &small_graph());
    let app = Desktop::launch(Launch { files: vec![path.clone()], ..Launch::default() }).await;
    let id = app.doc_named("greeter.json").await;
    app.visible("[data-testid=\"node-hello\"]").await;

    std::fs::remove_file(&path).expect("delete outside");
    let view = app
        .wait_view(&id, "the deleted notice", |v| {
            v["notices"].as_array().is_some_and(|n| n.iter().any(|n| n["code"] == "doc/file-deleted"))
        })
        .await;
    assert_eq!(view["dirty"], true, "the document stays open with unsaved changes: {view}");
    assert_eq!(view["spec"]["nodes"][0]["id"], "hello", "nothing of the graph is lost");
    app.visible("[data-testid=\"notice\"][data-code=\"doc/file-deleted\"]").await;
    app.wait_title("*greeter.json — Trellis").await;

    let saved = app.call("save_document", json!({"docId": id})).await;
    assert_eq!(saved["saved"], true, "{saved}");
    assert_eq!(read(&path), canonical(&small_graph()), "Save wrote the file again, canonically");
    app.wait_title("greeter.json — Trellis").await;
    app.quit().await;
}

/// A project registry declaring the type `greet` (a string `text` is required).
fn greet_registry(with_type: bool) -> String {
    let types = if with_type {
        json!([{
            "type": "greet",
            "title": "Greet",
            "category": "Tools",
            "config_schema": {
                "type": "object",
                "properties": {"text": {"type": "string"}},
                "required": ["text"]
            },
            "defaults": {"text": "Hello"}
        }])
    } else {
        json!([])
    };
    serde_json::to_string_pretty(&json!({"name": "greetings", "types": types})).expect("json")
}

fn errors_on(view: &Value, code: &str) -> usize {
    view["diagnostics"]
        .as_array()
        .map_or(0, |ds| ds.iter().filter(|d| d["code"] == code && d["severity"] == "error").count())
}

#[tokio::test(flavor = "multi_thread")]
async fn a_registry_file_changed_outside_revalidates_the_open_document() {
    let dir = tempfile::tempdir().expect("tmp");
    // Discovery walks up the folders and stops at a repository root: keep it in this one.
    std::fs::create_dir(dir.path().join(".git")).expect(".git");
    let registry = dir.path().join("greetings.registry.json");
    std::fs::write(&registry, greet_registry(true)).expect("registry");
    let spec = json!({
        "name": "greeter",
        "nodes": [{"id": "hi", "type": "greet", "config": {"text": "Hi"}}],
        "edges": [{"from": "__start__", "to": "hi"}, {"from": "hi", "to": "__end__"}]
    });
    let path = write_spec(dir.path(), "greeter.json", &spec);
    let app = Desktop::launch(Launch { files: vec![path.clone()], ..Launch::default() }).await;
    let id = app.doc_named("greeter.json").await;
    app.visible("[data-testid=\"node-hi\"]").await;
    let view = app.view(&id).await;
    assert_eq!(errors_on(&view, "spec/unknown-type"), 0, "the project registry declares greet: {view}");
    assert!(
        view["registry"].as_array().is_some_and(|r| r.iter().any(|t| t["type"] == "greet")),
        "the palette has the project's type"
    );

    // The type is removed from the registry file: the node's type is now unknown.
    replace_atomically(&registry, &greet_registry(false));
    let view = app.wait_view(&id, "unknown-type error", |v| errors_on(v, "spec/unknown-type") == 1).await;
    assert_eq!(view["dirty"], false, "revalidating is not an edit");
    app.visible("[data-testid=\"problem\"][data-code=\"spec/unknown-type\"]").await;
    // Saved all the same (in canonical form, the problem kept): work is never trapped.
    let saved = app.call("save_document", json!({"docId": id})).await;
    assert_eq!(saved["saved"], true, "a node without a registered type is saved with its problem: {saved}");
    assert_eq!(read(&path), canonical(&spec));
    let view = app.view(&id).await;
    assert_eq!(errors_on(&view, "spec/unknown-type"), 1, "the problem stays");

    // It comes back: the error goes away without touching the document.
    replace_atomically(&registry, &greet_registry(true));
    app.wait_view(&id, "the error to clear", |v| errors_on(v, "spec/unknown-type") == 0).await;
    app.quit().await;
}

/// Issue 13: a user's large file without a layout says what it is doing while it opens, and
/// Stop opens nothing; opened again, it opens and the notice goes away.
#[tokio::test(flavor = "multi_thread")]
async fn a_large_file_without_a_layout_shows_its_progress_and_can_be_stopped() {
    let dir = tempfile::tempdir().expect("tmp");
    // Large enough that laying it out lasts seconds in the build the tests drive.
    let path = trellis_bench::write_real_file(dir.path(), 100_000, 13).expect("write the file");
    let app = Desktop::launch(Launch { dialog_path: Some(path.clone()), ..Launch::default() }).await;
    let before = app.documents().await.len();
    let first = app.active_doc().await;

    app.visible("[data-testid=\"btn-open\"]").await.click().await.expect("Open");
    let notice = app.visible("[data-testid=\"open-progress\"][data-stage=\"layingOut\"]").await;
    let text = notice.text().await.expect("notice text");
    assert!(text.starts_with("Laying out real-100000.json: 100,000 nodes, "), "{text}");
    app.visible("[data-testid=\"open-progress-stop\"]").await.click().await.expect("Stop");
    app.wait_js(
        "return !document.querySelector('[data-testid=open-progress]');",
        "the progress notice to go once stopped",
    )
    .await;
    assert_eq!(app.documents().await.len(), before, "nothing opened");
    let recent = app.call("recent_files", json!({})).await;
    assert!(
        !recent.as_array().is_some_and(|r| r.iter().any(|f| f["fileName"] == "real-100000.json")),
        "a stopped open is not a recent file: {recent}"
    );
    assert!(
        app.driver
            .find_all(thirtyfour::By::Css("[data-testid=open-failure]"))
            .await
            .expect("query")
            .is_empty(),
        "stopping is not a failure"
    );

    // Not stopped this time: it opens, laid out, and the notice goes.
    app.visible("[data-testid=\"btn-open\"]").await.click().await.expect("Open");
    let id = app.wait_other_doc(&first).await;
    assert_eq!(id, app.doc_named("real-100000.json").await);
    app.wait_js(
        "return !document.querySelector('[data-testid=open-progress]');",
        "the progress notice to go once opened",
    )
    .await;
    let placed = app.placed_count(&id).await;
    assert_eq!(placed, 100_002, "every node and both terminals placed before the first view");
    app.quit().await;
}
