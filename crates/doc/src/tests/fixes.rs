//! Fixes applied through the workspace: the registry write beside the document (created,
//! then extended keeping its text), errors clearing in every open document, document fixes
//! as single undo steps, channel renames carrying config references.

use std::path::Path;
use std::sync::Arc;

use serde_json::json;
use trellis_spec::FixEdit;

use super::*;
use crate::fixes::FixOutcome;
use crate::workspace::DocEvent;

const OWN_TYPES: &str = r#"{
  "name": "own",
  "channels": {"messages": {"reducer": "append"}},
  "nodes": [
    {"id": "plan", "type": "planner", "config": {"depth": 2}},
    {"id": "search", "type": "web_search", "config": {"q": "x", "n": 3}},
    {"id": "search2", "type": "web_search", "config": {"q": "y"}},
    {"id": "fetch", "type": "http", "config": {"url": "https://a.example", "methd": "GET"}}
  ],
  "edges": [
    {"from": "__start__", "to": "plan"}, {"from": "plan", "to": "search"},
    {"from": "search", "to": "search2"}, {"from": "search2", "to": "fetch"},
    {"from": "fetch", "to": "__end__", "when": {"channel": "status", "eq": 200}}
  ]
}"#;

fn setup() -> (FakeFs, Workspace, DocId, DocId) {
    let c = clock();
    let fs = FakeFs::new();
    fs.put("/p/.git/HEAD", "ref");
    fs.put("/p/own.json", OWN_TYPES);
    fs.put("/p/other.json", OWN_TYPES.replace("\"own\"", "\"other\""));
    let mut w = Workspace::new(
        Arc::new(fs.clone()),
        Arc::new(c),
        &std::path::PathBuf::from("/data"),
        crate::discovery::registry_loader(),
    );
    let a = w.open(Path::new("/p/own.json")).expect("opens");
    let b = w.open(Path::new("/p/other.json")).expect("opens");
    (fs, w, a, b)
}

fn unknown_types(w: &Workspace, id: DocId) -> usize {
    w.get(id).map_or(0, |s| s.diagnostics().iter().filter(|d| d.code == "spec/unknown-type").count())
}

#[test]
fn describing_types_writes_the_registry_beside_and_clears_every_document() {
    let (fs, mut w, a, b) = setup();
    assert_eq!(unknown_types(&w, a), 3);
    let fix = w.get(a).and_then(|s| s.diagnostics().iter().find(|d| d.code == "spec/unknown-type").cloned());
    let fix = fix.map(|d| d.fixes[0].edit.clone());
    assert_eq!(fix, Some(FixEdit::DescribeTypes { types: vec!["planner".into()] }));
    let all = FixEdit::DescribeTypes { types: vec!["planner".into(), "web_search".into()] };
    let FixOutcome::RegistryWritten { path, created, added, notice, events } =
        w.apply_fix(a, &all).expect("fix")
    else {
        panic!("not a registry write")
    };
    assert_eq!(path, Path::new("/p/project.registry.json"));
    assert!(created);
    assert_eq!(added, ["planner", "web_search"]);
    assert!(
        notice.contains("/p/project.registry.json") && notice.contains("planner, web_search"),
        "{notice}"
    );
    // Both open documents were revalidated: no unknown type left anywhere.
    assert_eq!(events.iter().filter(|e| matches!(e, DocEvent::Revalidated { .. })).count(), 2);
    assert_eq!(unknown_types(&w, a), 0);
    assert_eq!(unknown_types(&w, b), 0);
    let text = fs.get_string("/p/project.registry.json").expect("written");
    let v: serde_json::Value = serde_json::from_str(&text).expect("json");
    assert_eq!(v["types"][1]["config_schema"]["required"], json!(["q"]));
    // The document itself is unchanged (not dirty, nothing to undo).
    assert!(!w.get(a).expect("doc").is_dirty());

    // Extending: a hand edit of the file is kept, the new type is added at the end.
    let edited = text.replace("\"title\": \"Planner\"", "\"title\": \"My planner\"");
    fs.put("/p/project.registry.json", &edited);
    w.reload_registries();
    w.apply(
        a,
        &serde_json::from_value(json!({"op": "set_node_type", "id": "plan", "type": "critic"}))
            .expect("edit"),
    )
    .expect("applies");
    let FixOutcome::RegistryWritten { created, added, .. } =
        w.apply_fix(a, &FixEdit::DescribeTypes { types: vec!["critic".into()] }).expect("fix")
    else {
        panic!("not a registry write")
    };
    assert!(!created);
    assert_eq!(added, ["critic"]);
    let now = fs.get_string("/p/project.registry.json").expect("written");
    let cut = edited.rfind("\n  ]").expect("end of types");
    assert!(now.starts_with(&edited[..cut]), "the file's text is kept:\n{now}");
    assert_eq!(unknown_types(&w, a), 0);
}

#[test]
fn a_registry_that_cannot_be_extended_is_left_alone() {
    let (fs, mut w, a, _) = setup();
    fs.put("/p/broken.registry.json", "{\"types\": [");
    w.reload_registries();
    let err = w.apply_fix(a, &FixEdit::DescribeTypes { types: vec!["planner".into()] });
    // The broken file is not in force (nothing usable was read), so the fix writes the
    // default file; had it been in force, merging would be refused. Either way the broken
    // file is untouched.
    assert!(err.is_ok() || err.as_ref().is_err_and(|d| d.code == "doc/fix-failed"));
    assert_eq!(fs.get_string("/p/broken.registry.json").as_deref(), Some("{\"types\": ["));
}

#[test]
fn an_untitled_document_is_asked_to_be_saved_first() {
    let (_fs, mut w, _, _) = setup();
    let id = w.new_empty();
    let err = w.apply_fix(id, &FixEdit::DescribeTypes { types: vec!["x".into()] }).expect_err("refused");
    assert_eq!(err.code, "doc/fix-failed");
    assert!(err.message.contains("save the document first"), "{}", err.message);
}

#[test]
fn document_fixes_are_one_undo_step_each() {
    let (_fs, mut w, a, _) = setup();
    let rename = w
        .get(a)
        .and_then(|s| s.diagnostics().iter().find(|d| d.code == "config/unknown-field").cloned())
        .expect("methd is unknown");
    assert_eq!(
        rename.fixes[0].edit,
        FixEdit::RenameConfigField { node: "fetch".into(), from: "methd".into(), to: "method".into() }
    );
    w.apply_fix(a, &rename.fixes[0].edit).expect("renamed");
    let config = |w: &Workspace| {
        w.get(a).and_then(|s| s.spec()).map(|s| serde_json::Value::Object(s.nodes[3].config.as_map().clone()))
    };
    assert_eq!(config(&w), Some(json!({"url": "https://a.example", "method": "GET"})));
    let declare = w
        .get(a)
        .and_then(|s| s.diagnostics().iter().find(|d| d.code == "spec/undeclared-channel").cloned())
        .expect("status is undeclared");
    w.apply_fix(a, &declare.fixes[0].edit).expect("declared");
    assert!(w.get(a).and_then(|s| s.spec()).is_some_and(|s| s.channels.contains_key("status")));
    w.undo(a).expect("undo");
    assert!(w.get(a).and_then(|s| s.spec()).is_some_and(|s| !s.channels.contains_key("status")));
    w.undo(a).expect("undo");
    assert_eq!(config(&w), Some(json!({"url": "https://a.example", "methd": "GET"})));
}

#[test]
fn renaming_a_channel_rewrites_config_references_in_one_step() {
    let c = clock();
    let fs = FakeFs::new();
    fs.put(
        "/q/g.json",
        r#"{"channels": {"messages": {"reducer": "append"}, "answer": {"reducer": "last_write"}},
            "nodes": [
              {"id": "a", "type": "llm", "config": {"messages_channel": "messages", "output_channel": "answer"}},
              {"id": "h", "type": "human_approval", "config": {"prompt": "ok?", "decision_channel": "answer", "show_channels": ["messages", "answer"]}}
            ],
            "edges": [{"from": "__start__", "to": "a"}, {"from": "a", "to": "h"}, {"from": "h", "to": "__end__", "when": {"channel": "answer", "truthy": true}}]}"#,
    );
    let mut w = workspace(&fs, &c);
    let id = w.open(Path::new("/q/g.json")).expect("opens");
    let edit = |v| serde_json::from_value::<crate::edit::Edit>(v).expect("edit");
    // Removing a channel configs name is refused, naming the nodes.
    let refused =
        w.apply(id, &edit(json!({"op": "remove_channel", "name": "messages"}))).expect_err("refused");
    assert!(
        refused.message.contains("\"a\" (messages_channel)")
            && refused.message.contains("\"h\" (show_channels)"),
        "{}",
        refused.message
    );
    w.apply(id, &edit(json!({"op": "rename_channel", "from": "answer", "to": "reply"}))).expect("renamed");
    let spec = w.get(id).and_then(|s| s.spec()).cloned().expect("spec");
    assert_eq!(spec.nodes[0].config["output_channel"], "reply");
    assert_eq!(spec.nodes[1].config["decision_channel"], "reply");
    assert_eq!(spec.nodes[1].config["show_channels"], json!(["messages", "reply"]));
    assert_eq!(spec.edges[2].when.as_ref().and_then(|p| p.channel()), Some("reply"));
    assert!(
        w.get(id).is_some_and(|s| !s.diagnostics().iter().any(|d| d.is_error())),
        "{:?}",
        w.get(id).map(|s| s.diagnostics().to_vec())
    );
    // One undo restores every reference.
    w.undo(id).expect("undo");
    let spec = w.get(id).and_then(|s| s.spec()).cloned().expect("spec");
    assert_eq!(spec.nodes[0].config["output_channel"], "answer");
    assert_eq!(spec.nodes[1].config["show_channels"], json!(["messages", "answer"]));
    assert_eq!(spec.edges[2].when.as_ref().and_then(|p| p.channel()), Some("answer"));
}

#[test]
fn each_format_gets_only_its_own_palette() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    let c = clock();
    let fs = FakeFs::new();
    fs.put("/r/.git/HEAD", "ref");
    fs.put("/r/wf.json", std::fs::read(corpus.join("weaveflow/assistant.json")).expect("corpus"));
    fs.put("/r/GRAPH.md", std::fs::read(corpus.join("graphmd/support-triage/GRAPH.md")).expect("corpus"));
    fs.put("/r/own.registry.json", r#"{"types": [{"type": "acme_step"}]}"#);
    fs.put("/r/g.json", OWN_TYPES);
    let mut w = Workspace::new(
        Arc::new(fs),
        Arc::new(c),
        &std::path::PathBuf::from("/data"),
        crate::discovery::registry_loader(),
    );
    let names = |w: &Workspace, id: DocId| -> Vec<String> {
        w.get(id).map(crate::palette::palette).unwrap_or_default().into_iter().map(|t| t.type_name).collect()
    };
    let wf = w.open(Path::new("/r/wf.json")).expect("opens");
    let wf_types = names(&w, wf);
    assert!(
        wf_types.contains(&"llm_turn".to_owned()) && wf_types.contains(&"acme_step".to_owned()),
        "{wf_types:?}"
    );
    assert!(!wf_types.contains(&"llm".to_owned()) && !wf_types.contains(&"http".to_owned()), "{wf_types:?}");
    let md = w.open(Path::new("/r/GRAPH.md")).expect("opens");
    assert_eq!(names(&w, md), ["agent", "human", "judge", "router", "subgraph", "tool", "verifier"]);
    let gs = w.open(Path::new("/r/g.json")).expect("opens");
    let gs_types = names(&w, gs);
    assert!(gs_types.contains(&"llm".to_owned()) && gs_types.contains(&"acme_step".to_owned()));
    assert!(!gs_types.contains(&"llm_turn".to_owned()));
}

/// A built-in type the document uses otherwise (its `http` node has a field the built-in type
/// does not define): the finding offers to describe it as the document uses it, and that fix
/// writes it to the project registry, whose type then replaces the built-in one.
#[test]
fn a_built_in_type_used_otherwise_is_described_and_replaced() {
    let (fs, mut w, a, _) = setup();
    let config_errors = |w: &Workspace| {
        w.get(a).map_or(0, |s| s.diagnostics().iter().filter(|d| d.code.starts_with("config/")).count())
    };
    assert!(config_errors(&w) > 0);
    let finding = w
        .get(a)
        .and_then(|s| s.diagnostics().iter().find(|d| d.code == "config/unknown-field").cloned())
        .expect("methd is not a field of the built-in http");
    let describe = finding
        .fixes
        .iter()
        .find(|f| matches!(f.edit, FixEdit::DescribeTypes { .. }))
        .map(|f| f.edit.clone())
        .expect("a fix describing http");
    assert_eq!(describe, FixEdit::DescribeTypes { types: vec!["http".into()] });
    let FixOutcome::RegistryWritten { added, .. } = w.apply_fix(a, &describe).expect("fix") else {
        panic!("not a registry write")
    };
    assert_eq!(added, ["http"]);
    assert_eq!(config_errors(&w), 0);
    let text = fs.get_string("/p/project.registry.json").expect("written");
    assert!(text.contains("\"methd\""), "{text}");
}
