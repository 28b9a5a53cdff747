use std::sync::Arc;

use serde_json::{json, Value};

use super::*;
use crate::document::DocId;
use crate::tests::{clock, registries};
use crate::workspace::EXAMPLE;

fn session(name: &str, text: &str) -> Session {
    Session::from_text(DocId(1), Some(name), text, registries(), Arc::new(clock())).expect("opens")
}

/// The example with one node added and one condition changed (the issue's scenario).
fn edited_example() -> String {
    let mut v: Value = serde_json::from_str(EXAMPLE).expect("json");
    v["nodes"].as_array_mut().expect("nodes").push(json!({"id": "escalate", "type": "noop", "config": {}}));
    v["edges"][1]["when"]["eq"] = json!("faq");
    serde_json::to_string_pretty(&v).expect("text")
}

fn compare(s: &Session, other: &str, sidecar: Option<&str>) -> Comparison {
    Comparison::new(
        s,
        "HEAD~1:support.json",
        Some("support.json"),
        other.as_bytes(),
        sidecar.map(str::as_bytes),
        "HEAD~1".into(),
        CompareAction::Revert,
    )
    .expect("compares")
}

#[test]
fn a_node_added_and_a_condition_changed_are_exactly_two_changes() {
    let mut s = session("support.json", &edited_example());
    let sidecar = json!({"version": 1, "positions": {"classify": {"x": 10, "y": 20}}}).to_string();
    let c = compare(&s, EXAMPLE, Some(&sidecar));
    let v = c.view(&s).expect("view");
    let kinds: Vec<(&str, ChangeKind, &str)> =
        v.changes.iter().map(|c| (c.element.as_str(), c.kind, c.label.as_str())).collect();
    assert_eq!(
        kinds,
        [("node", ChangeKind::Added, "escalate"), ("edge", ChangeKind::Changed, "classify → answer")]
    );
    assert_eq!(v.changes[1].fields[0].pointer, "/when/eq");
    assert_eq!(v.changes[1].fields[0].before.as_deref(), Some("\"question\""));
    assert_eq!(v.changes[1].fields[0].after.as_deref(), Some("\"faq\""));
    assert_eq!(
        v.nodes,
        [NodeMark { id: "escalate".into(), kind: ChangeKind::Added, change: v.changes[0].key.clone() }]
    );
    assert_eq!(v.edges.len(), 1);
    assert_eq!((v.edges[0].from.as_str(), v.edges[0].to.as_str()), ("classify", "answer"));

    // Revert the condition: one edit, one undo step; the list follows the document.
    let edit = c.edit_for(&s, &v.changes[1].key).expect("edit");
    let before_undo = s.can_undo();
    s.apply(&edit).expect("applies");
    assert!(s.can_undo() && s.is_dirty());
    let v2 = c.view(&s).expect("view");
    assert_eq!(v2.changes.len(), 1);
    assert_eq!(v2.changes[0].label, "escalate");
    assert!(s.text().contains("\"question\""));
    s.undo();
    assert_eq!(c.view(&s).expect("view").changes.len(), 2);
    assert_eq!(s.can_undo(), before_undo);
    assert_eq!(s.text(), session("support.json", &edited_example()).text());

    // Revert the node too: nothing differs, and the text is the other side's canonical text.
    let e1 = c.edit_for(&s, &v.changes[0].key).expect("edit");
    s.apply(&e1).expect("applies");
    let e2 = c.edit_for(&s, &v.changes[1].key).expect("edit");
    s.apply(&e2).expect("applies");
    assert!(c.view(&s).expect("view").changes.is_empty());
    assert_eq!(s.text(), session("support.json", EXAMPLE).text());
    assert_eq!(c.edit_for(&s, &v.changes[0].key).expect_err("gone").code, codes::CHANGE_GONE);
}

#[test]
fn a_removed_node_is_a_ghost_at_its_old_place_and_comes_back_there() {
    let mut v: Value = serde_json::from_str(EXAMPLE).expect("json");
    v["nodes"].as_array_mut().expect("nodes").retain(|n| n["id"] != "open_ticket");
    v["edges"]
        .as_array_mut()
        .expect("edges")
        .retain(|e| e["from"] != "open_ticket" && e["to"] != "open_ticket");
    let mut s = session("support.json", &serde_json::to_string_pretty(&v).expect("text"));
    let sidecar = json!({"version": 1, "positions": {"open_ticket": {"x": 640, "y": 480}}}).to_string();
    let c = compare(&s, EXAMPLE, Some(&sidecar));
    let view = c.view(&s).expect("view");
    assert_eq!(view.ghosts.len(), 1);
    assert_eq!(view.ghosts[0].position, Position { x: 640.0, y: 480.0 });
    assert_eq!(view.ghosts[0].type_name.as_deref(), Some("http"));
    let node = view.changes.iter().find(|c| c.element == "node").expect("node row");
    assert_eq!(node.kind, ChangeKind::Removed);
    assert!(view.edges.iter().all(|e| e.kind == ChangeKind::Removed));
    assert_eq!(view.edges.len(), 2);
    s.apply(&c.edit_for(&s, &node.key).expect("edit")).expect("applies");
    assert!(c.view(&s).expect("view").changes.is_empty(), "the node came back with its edges");
    assert_eq!(s.layout().positions.get("open_ticket"), Some(&Position { x: 640.0, y: 480.0 }));
}

#[test]
fn weaveflow_and_graphmd_revert_to_the_other_text() {
    let wf = std::fs::read_to_string("../../../shared/corpus/weaveflow/supervisor_mode.json");
    let md = std::fs::read_to_string("../../../shared/corpus/graphmd/support-triage/GRAPH.md");
    for (name, text) in [("supervisor_mode.json", wf), ("GRAPH.md", md)] {
        let text = text.expect("the shared corpus is beside the worktree");
        // The file as the session holds it: GRAPH.md as is, the Weaveflow JSON indented by
        // serde (so the edit below is a one-line change of it).
        let text = match name {
            "GRAPH.md" => text,
            _ => serde_json::to_string_pretty(&serde_json::from_str::<Value>(&text).expect("json"))
                .expect("text"),
        };
        let mut v = match name {
            "GRAPH.md" => text.replacen("timeout_ms: 1000", "timeout_ms: 2500", 1),
            _ => text.replacen("\"name\": \"supervisor_mode\"", "\"name\": \"renamed\"", 1),
        };
        assert_ne!(v, text);
        let mut s = session(name, &v);
        let c = Comparison::new(
            &s,
            "other",
            Some(name),
            text.as_bytes(),
            None,
            "other".into(),
            CompareAction::TakeTheirs,
        )
        .expect("compares");
        let view = c.view(&s).expect("view");
        assert_eq!(view.changes.len(), 1, "{name}: {:?}", view.changes);
        s.apply(&c.edit_for(&s, &view.changes[0].key).expect("edit")).expect("applies");
        assert!(c.view(&s).expect("view").changes.is_empty(), "{name}");
        v = s.text();
        assert_eq!(v, text, "{name}: taking the change gives the file's own text back");
    }
}

#[test]
fn binary_other_format_and_broken_versions_are_refused_with_reasons() {
    let s = session("support.json", EXAMPLE);
    let make = |bytes: &[u8]| {
        Comparison::new(
            &s,
            "HEAD~1:support.json",
            Some("support.json"),
            bytes,
            None,
            "x".into(),
            CompareAction::Revert,
        )
    };
    let e = make(b"\x89PNG\r\n\x1a\n\0\0").expect_err("binary");
    assert_eq!(e.code, codes::BINARY);
    assert!(
        e.message.starts_with("HEAD~1:support.json cannot be compared: the file is binary"),
        "{}",
        e.message
    );
    let wf = r#"{"version": "1.0", "name": "w", "entry_point": "a", "nodes": [{"id": "a", "type": "user_input"}], "edges": []}"#;
    let e = make(wf.as_bytes()).expect_err("other format");
    assert_eq!(e.code, codes::OTHER_FORMAT);
    assert!(e.message.contains("is a Weaveflow document and this one is GraphSpec"), "{}", e.message);
    let e = make(b"{\"nodes\": [").expect_err("broken");
    assert_eq!(e.code, codes::UNREADABLE);
    assert!(e.message.contains("line"), "{}", e.message);
}
