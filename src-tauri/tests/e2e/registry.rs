//! Issue 12 end to end: a spec written for the user's own runtime (12 node types no registry
//! describes, no registry anywhere) opens with one error per node; the fix in the problems
//! panel writes the project registry beside it, the errors clear, and the save writes exactly
//! what `trellis fmt` writes.

use serde_json::{json, Value};
use thirtyfour::prelude::*;

use crate::harness::{read, wait_fs, Desktop, Launch};

const TYPES: [&str; 12] = [
    "planner",
    "web_search",
    "critic",
    "summarizer",
    "fact_check",
    "citation_finder",
    "outline_writer",
    "draft_writer",
    "style_editor",
    "translator",
    "publisher",
    "notifier",
];

/// A 12-node chain, one node per type, each with a config of its own, written by hand (not
/// in canonical form: two-space indent, one node per line).
pub(crate) fn own_runtime_spec() -> String {
    let mut nodes = Vec::new();
    for (i, t) in TYPES.iter().enumerate() {
        let config =
            json!({"model": format!("m-{i}"), "max_steps": i + 1, "verbose": i % 2 == 0, "tags": [t]});
        nodes.push(format!("    {{\"id\": \"step_{i}\", \"type\": \"{t}\", \"config\": {config}}}"));
    }
    let mut edges = vec!["    {\"from\": \"__start__\", \"to\": \"step_0\"}".to_owned()];
    for i in 1..TYPES.len() {
        edges.push(format!("    {{\"from\": \"step_{}\", \"to\": \"step_{i}\"}}", i - 1));
    }
    edges.push(format!("    {{\"from\": \"step_{}\", \"to\": \"__end__\"}}", TYPES.len() - 1));
    format!(
        "{{\n  \"name\": \"research\",\n  \"channels\": {{\"messages\": {{\"reducer\": \"append\"}}}},\n  \"nodes\": [\n{}\n  ],\n  \"edges\": [\n{}\n  ]\n}}\n",
        nodes.join(",\n"),
        edges.join(",\n")
    )
}

fn errors(view: &Value) -> Vec<String> {
    view["diagnostics"]
        .as_array()
        .map(|ds| {
            ds.iter()
                .filter(|d| d["severity"] == "error")
                .map(|d| {
                    format!("{}: {}", d["code"].as_str().unwrap_or(""), d["message"].as_str().unwrap_or(""))
                })
                .collect()
        })
        .unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread")]
async fn twelve_unknown_types_are_described_by_the_fix_and_the_save_is_canonical() {
    let dir = tempfile::tempdir().expect("tmp");
    // A repository root, so discovery stops here: no registry anywhere above the document.
    std::fs::create_dir_all(dir.path().join(".git")).expect("mkdir");
    let path = dir.path().join("research.json");
    let original = own_runtime_spec();
    std::fs::write(&path, &original).expect("write");
    let registry = dir.path().join("project.registry.json");

    let app = Desktop::launch(Launch { files: vec![path.clone()], ..Launch::default() }).await;
    let id = app.doc_named("research.json").await;
    let view = app.view(&id).await;
    let before = errors(&view);
    assert_eq!(before.len(), 12, "{before:#?}");
    assert!(before.iter().all(|e| e.starts_with("spec/unknown-type")), "{before:#?}");

    // The problems panel shows each fix as a button, and one for all twelve types.
    let shown = app
        .driver
        .execute("return !!document.querySelector('[data-testid=problems-panel]');", vec![])
        .await
        .expect("js");
    if shown.json() != &json!(true) {
        app.visible("[data-testid=\"status-problems\"]").await.click().await.expect("open problems");
    }
    app.wait_js(
        "return document.querySelectorAll('[data-testid=problem] [data-testid=fix][data-fix=describe_types]').length === 12;",
        "a describe fix on each of the 12 problems",
    )
    .await;
    app.visible("[data-testid=\"fix-describe-all\"]").await.click().await.expect("apply the fix");

    // The registry is written beside the document, the notice names it, the errors clear.
    wait_fs("the project registry", || registry.exists()).await;
    let view = app.wait_view(&id, "no errors", |v| errors(v).is_empty()).await;
    assert_eq!(view["dirty"], false, "describing types does not change the document");
    app.wait_js(
        "return [...document.querySelectorAll('[data-testid=toast]')].some(t => t.textContent.includes('project.registry.json'));",
        "the notice naming the registry file",
    )
    .await;
    app.wait_js(
        "return document.querySelectorAll('[data-testid=problem][data-severity=error]').length === 0;",
        "an empty error list in the problems panel",
    )
    .await;
    let manifest: Value = serde_json::from_str(&read(&registry)).expect("the registry is JSON");
    let mut described: Vec<&str> =
        manifest["types"].as_array().expect("types").iter().filter_map(|t| t["type"].as_str()).collect();
    described.sort_unstable();
    let mut want = TYPES.to_vec();
    want.sort_unstable();
    assert_eq!(described, want);
    assert_eq!(manifest["types"][0]["category"], "project");

    // Save: the bytes written are what `trellis fmt` writes for the same document.
    app.visible(".react-flow__pane").await.click().await.expect("focus the canvas");
    app.chord(&[Key::Control], "s").await;
    wait_fs("the save", || read(&path) != original).await;
    let parsed = trellis_spec::read::parse_spec(&original).spec.expect("the document reads");
    let fmt = trellis_spec::writer::to_canonical_string(&parsed);
    assert_eq!(read(&path), fmt, "saved bytes equal `trellis fmt` of the same document");
    app.quit().await;
}

/// Types `text` into the input at `css` (select all first) and leaves it with Tab.
async fn type_into(app: &Desktop, css: &str, text: &str) {
    let el = app.visible(css).await;
    el.click().await.expect("focus");
    app.chord(&[Key::Control], "a").await;
    el.send_keys(text).await.expect("type");
    app.chord(&[], &Key::Tab.value().to_string()).await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_field_added_in_the_registry_editor_checks_configs_within_two_seconds() {
    let dir = tempfile::tempdir().expect("tmp");
    std::fs::create_dir_all(dir.path().join(".git")).expect("mkdir");
    let path = dir.path().join("plan.json");
    std::fs::write(
        &path,
        r#"{"name": "p", "channels": {}, "nodes": [{"id": "plan", "type": "planner", "config": {"depth": 11}}],
            "edges": [{"from": "__start__", "to": "plan"}, {"from": "plan", "to": "__end__"}]}"#,
    )
    .expect("write");
    let registry = dir.path().join("project.registry.json");
    std::fs::write(&registry, r#"{"types": [{"type": "planner", "title": "Planner"}]}"#).expect("write");

    let app = Desktop::launch(Launch { files: vec![path.clone()], ..Launch::default() }).await;
    let id = app.doc_named("plan.json").await;
    assert!(errors(&app.view(&id).await).is_empty());

    app.visible("[data-testid=\"registry-edit-toggle\"]").await.click().await.expect("open the editor");
    app.visible("[data-testid=\"registry-edit-type-planner\"]").await.click().await.expect("select the type");
    let name = app.visible("[data-testid=\"field-new-name\"]").await;
    name.send_keys("depth").await.expect("name");
    let kind = app.visible("[data-testid=\"field-new-type\"]").await;
    thirtyfour::components::SelectElement::new(&kind)
        .await
        .expect("select")
        .select_by_value("integer")
        .await
        .expect("integer");
    app.visible("[data-testid=\"field-new-max\"]").await.send_keys("10").await.expect("max");
    let save = app.visible("[data-testid=\"field-new-save\"]").await;
    let started = std::time::Instant::now();
    save.click().await.expect("add the field");
    // The error shows in the problems panel at the config field's pointer.
    let shown = app
        .driver
        .execute("return !!document.querySelector('[data-testid=problems-panel]');", vec![])
        .await
        .expect("js");
    if shown.json() != &json!(true) {
        app.visible("[data-testid=\"status-problems\"]").await.click().await.expect("open problems");
    }
    app.wait_js(
        "return [...document.querySelectorAll('[data-testid=problem]')].some(p => p.dataset.pointer === '/nodes/0/config/depth' && p.dataset.code === 'config/invalid');",
        "the maximum error at /nodes/0/config/depth",
    )
    .await;
    let took = started.elapsed();
    assert!(took < std::time::Duration::from_secs(2), "the error took {took:?}");
    let manifest: Value = serde_json::from_str(&read(&registry)).expect("json");
    assert_eq!(
        manifest["types"][0]["config_schema"]["properties"]["depth"],
        json!({"type": "integer", "maximum": 10})
    );

    // Bad input is refused with a reason and changes nothing.
    let before = read(&registry);
    type_into(&app, "[data-testid=\"registry-new-type\"]", "__start__").await;
    app.visible("[data-testid=\"registry-create-type\"]").await.click().await.expect("create");
    app.wait_js(
        "const m = document.querySelector('[data-testid=registry-message]'); return !!m && m.textContent.includes('reserved');",
        "the refusal of __start__",
    )
    .await;
    assert_eq!(read(&registry), before);

    // Undo in the editor puts the file back, and the error goes.
    app.visible("[data-testid=\"registry-undo\"]").await.click().await.expect("undo");
    app.wait_view(&id, "no error after undo", |v| errors(v).is_empty()).await;
    assert_eq!(read(&registry), r#"{"types": [{"type": "planner", "title": "Planner"}]}"#);
    app.quit().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn weaveflow_and_graph_md_documents_each_get_only_their_own_palette() {
    let dir = tempfile::tempdir().expect("tmp");
    std::fs::create_dir_all(dir.path().join(".git")).expect("mkdir");
    let wf = dir.path().join("assistant.json");
    std::fs::copy(crate::harness::corpus("weaveflow/assistant.json"), &wf).expect("copy");
    let md = dir.path().join("GRAPH.md");
    std::fs::copy(crate::harness::corpus("graphmd/support-triage/GRAPH.md"), &md).expect("copy");
    let app = Desktop::launch(Launch { files: vec![wf.clone(), md.clone()], ..Launch::default() }).await;
    let types = |v: &Value| -> Vec<String> {
        v["registry"]
            .as_array()
            .map(|a| a.iter().filter_map(|t| t["type"].as_str().map(str::to_owned)).collect())
            .unwrap_or_default()
    };
    let wf_id = app.doc_named("assistant.json").await;
    let wf_types = types(&app.view(&wf_id).await);
    assert!(wf_types.iter().any(|t| t == "llm_turn"), "{wf_types:?}");
    assert!(
        !wf_types.iter().any(|t| t == "llm" || t == "http"),
        "no GraphSpec built-in in a Weaveflow palette: {wf_types:?}"
    );
    let md_id = app.doc_named("GRAPH.md").await;
    assert_eq!(
        types(&app.view(&md_id).await),
        ["agent", "human", "judge", "router", "subgraph", "tool", "verifier"]
    );
    // The registry panel of the active document shows its palette.
    app.wait_js(
        "const items = [...document.querySelectorAll('[data-testid=registry-item]')].map(i => i.dataset.type); \
         return items.length > 0 && (items.every(t => ['agent','human','judge','router','subgraph','tool','verifier'].includes(t)) || (items.includes('llm_turn') && !items.includes('llm')));",
        "a palette of the document's own format",
    )
    .await;
    app.quit().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn renaming_a_channel_rewrites_configs_and_one_undo_restores_all() {
    let dir = tempfile::tempdir().expect("tmp");
    std::fs::create_dir_all(dir.path().join(".git")).expect("mkdir");
    let path = dir.path().join("chat.json");
    std::fs::write(
        &path,
        r#"{"name": "chat", "channels": {"messages": {"reducer": "append"}, "answer": {"reducer": "last_write"}},
            "nodes": [
              {"id": "agent", "type": "llm", "config": {"messages_channel": "messages", "output_channel": "answer"}},
              {"id": "ask", "type": "human_approval", "config": {"prompt": "ok?", "decision_channel": "answer", "show_channels": ["messages", "answer"]}}
            ],
            "edges": [{"from": "__start__", "to": "agent"}, {"from": "agent", "to": "ask"}, {"from": "ask", "to": "__end__"}]}"#,
    )
    .expect("write");
    let app = Desktop::launch(Launch { files: vec![path.clone()], ..Launch::default() }).await;
    let id = app.doc_named("chat.json").await;
    // The channel table counts config references: "answer" is named three times.
    app.wait_js(
        "const r = document.querySelector('[data-testid=channel-row][data-channel=answer]'); return !!r && r.querySelector('td.num').textContent.trim() === '3';",
        "the used count of answer",
    )
    .await;
    type_into(&app, "[data-testid=\"channel-name-answer\"]", "reply").await;
    let view = app.wait_view(&id, "the rename", |v| v["spec"]["channels"].get("reply").is_some()).await;
    assert_eq!(view["spec"]["nodes"][0]["config"]["output_channel"], "reply");
    assert_eq!(view["spec"]["nodes"][1]["config"]["decision_channel"], "reply");
    assert_eq!(view["spec"]["nodes"][1]["config"]["show_channels"], json!(["messages", "reply"]));
    app.visible(".react-flow__pane").await.click().await.expect("focus the canvas");
    app.chord(&[Key::Control], "z").await;
    let view = app.wait_view(&id, "the undo", |v| v["spec"]["channels"].get("answer").is_some()).await;
    assert_eq!(view["spec"]["nodes"][0]["config"]["output_channel"], "answer");
    assert_eq!(view["spec"]["nodes"][1]["config"]["decision_channel"], "answer");
    assert_eq!(view["spec"]["nodes"][1]["config"]["show_channels"], json!(["messages", "answer"]));
    assert_eq!(view["canUndo"], false, "one undo step restored everything");
    app.quit().await;
}
