//! Notes and groups (issue 16): the sidecar format (old sidecars read, unknown fields kept,
//! malformed ones warned about while the document opens, byte-identical output without
//! them), their edits with undo and redo in every format, Weaveflow's `metadata.web`, and
//! copy/paste of a group between documents.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::{json, Value};

use super::*;
use crate::edit::Edit;
use crate::layout::{codes as layout_codes, Layout};
use crate::save;

fn edit(s: &mut Session, v: Value) -> crate::edit::EditOutcome {
    s.apply(&serde_json::from_value::<Edit>(v.clone()).expect("edit"))
        .unwrap_or_else(|d| panic!("{v}: {d:?}"))
}

fn open(fs: &FakeFs, path: &str, c: &ManualClock) -> Session {
    Session::open(fs, DocId(1), Path::new(path), registries(), Arc::new(c.clone())).expect("opens")
}

/// The sidecar exactly as the first version of Trellis wrote it.
const V1_SIDECAR: &str = "{\n  \"version\": 1,\n  \"positions\": {\n    \"classify\": {\n      \"x\": 10.0,\n      \"y\": 20.0\n    }\n  },\n  \"viewport\": {\n    \"x\": 1.0,\n    \"y\": 2.0,\n    \"zoom\": 0.5\n  }\n}\n";

#[test]
fn a_version_1_sidecar_opens_and_is_written_back_byte_for_byte() {
    let c = clock();
    let fs = FakeFs::new();
    fs.put("/w/support.json", EXAMPLE);
    fs.put("/w/support.layout.json", V1_SIDECAR);
    let mut s = open(&fs, "/w/support.json", &c);
    assert!(!s.layout_missing());
    assert!(s.notices().is_empty(), "{:?}", s.notices());
    assert_eq!(s.layout().positions["classify"].x, 10.0);
    assert!(s.layout().notes.is_empty() && s.layout().groups.is_empty());
    // A change and its undo: the document is dirty again after... no: back at the saved state.
    edit(&mut s, json!({"op": "add_note", "text": "x", "position": {"x": 0, "y": 0}}));
    s.undo();
    edit(&mut s, json!({"op": "rename_graph", "name": "n"}));
    save::save(&fs, &mut s).expect("saved");
    assert_eq!(fs.get_string("/w/support.layout.json").as_deref(), Some(V1_SIDECAR));
}

#[test]
fn notes_and_groups_make_version_2_and_undoing_them_gives_version_1_again() {
    let c = clock();
    let fs = FakeFs::new();
    fs.put("/w/support.json", EXAMPLE);
    fs.put("/w/support.layout.json", V1_SIDECAR);
    let mut s = open(&fs, "/w/support.json", &c);
    edit(
        &mut s,
        json!({"op": "add_note", "text": "# Why\n*refunds* need approval", "position": {"x": 5, "y": 6}}),
    );
    edit(
        &mut s,
        json!({"op": "add_group", "name": "Refunds", "nodes": ["lookup_order", "approve_refund"], "notes": ["note"]}),
    );
    save::save(&fs, &mut s).expect("saved");
    let text = fs.get_string("/w/support.layout.json").expect("sidecar");
    assert_eq!(fs.get_string("/w/support.json").as_deref(), Some(EXAMPLE), "the spec is untouched");
    let v: Value = serde_json::from_str(&text).expect("json");
    assert_eq!(v["version"], 2);
    assert_eq!(v["notes"][0]["text"], "# Why\n*refunds* need approval");
    assert_eq!(
        v["groups"][0],
        json!({"id": "group", "name": "Refunds", "color": "blue",
        "nodes": ["lookup_order", "approve_refund"], "notes": ["note"]})
    );
    // Reopened: the same notes and groups.
    let again = open(&fs, "/w/support.json", &c);
    assert_eq!(again.layout().notes, s.layout().notes);
    assert_eq!(again.layout().groups, s.layout().groups);
    s.undo();
    s.undo();
    save::save(&fs, &mut s).expect("saved");
    assert_eq!(fs.get_string("/w/support.layout.json").as_deref(), Some(V1_SIDECAR));
}

#[test]
fn unknown_fields_are_kept_when_the_sidecar_is_rewritten() {
    let c = clock();
    let fs = FakeFs::new();
    fs.put("/w/support.json", EXAMPLE);
    let sidecar = json!({
        "version": 2,
        "positions": {"classify": {"x": 1, "y": 2}},
        "notes": [{"id": "n1", "text": "hi", "color": "pink", "x": 0, "y": 0, "width": 100, "height": 50, "pinned": true}],
        "groups": [{"id": "g", "name": "G", "color": "#123456", "nodes": ["classify"], "notes": ["n1"], "icon": {"k": [1, 2]}}],
        "minimap": {"shown": false}
    });
    fs.put("/w/support.layout.json", serde_json::to_string_pretty(&sidecar).expect("text"));
    let mut s = open(&fs, "/w/support.json", &c);
    assert!(s.notices().is_empty(), "{:?}", s.notices());
    edit(&mut s, json!({"op": "set_note", "id": "n1", "text": "hello"}));
    edit(&mut s, json!({"op": "set_group", "id": "g", "name": "Renamed"}));
    save::save(&fs, &mut s).expect("saved");
    let v: Value =
        serde_json::from_str(&fs.get_string("/w/support.layout.json").expect("sidecar")).expect("json");
    assert_eq!(v["minimap"], json!({"shown": false}));
    assert_eq!(v["notes"][0]["pinned"], true);
    assert_eq!(v["notes"][0]["text"], "hello");
    assert_eq!(v["groups"][0]["icon"], json!({"k": [1, 2]}));
    assert_eq!(v["groups"][0]["name"], "Renamed");
}

#[test]
fn a_newer_version_is_read_with_a_warning_and_keeps_its_number() {
    let c = clock();
    let fs = FakeFs::new();
    fs.put("/w/support.json", EXAMPLE);
    fs.put(
        "/w/support.layout.json",
        r#"{"version": 7, "positions": {"classify": {"x": 3, "y": 4}}, "layers": [1]}"#,
    );
    let mut s = open(&fs, "/w/support.json", &c);
    assert_eq!(s.layout().positions["classify"].x, 3.0);
    assert_eq!(s.notices().len(), 1);
    assert!(s.notices()[0].message.contains("version 7"), "{:?}", s.notices());
    edit(&mut s, json!({"op": "move_nodes", "positions": {"classify": {"x": 9, "y": 9}}}));
    save::save(&fs, &mut s).expect("saved");
    let v: Value =
        serde_json::from_str(&fs.get_string("/w/support.layout.json").expect("sidecar")).expect("json");
    assert_eq!((v["version"].as_u64(), v["layers"].clone()), (Some(7), json!([1])));
}

#[test]
fn a_malformed_sidecar_gives_a_warning_and_the_document_opens() {
    let c = clock();
    for (bad, whole) in [
        (r#"{"version": 2, "notes": "not a list"}"#, true),
        (r#"{"version": 2, "groups": [{"name": "no id"}]}"#, true),
        (r#"{"version": 2, "notes": [{"id": "n", "x": "left"}]}"#, true),
        (r#"{"version": 2, "positions": {"classify": {"x": 1, "y": 1}}, "#, true),
        // Repairable: the rest is used, what was wrong is named.
        (
            r#"{"version": 2, "positions": {"classify": {"x": 1, "y": 1}}, "groups": [
                {"id": "a", "name": "A", "color": "blue", "nodes": ["classify"], "notes": [], "parent": "b"},
                {"id": "b", "name": "B", "color": "blue", "nodes": ["classify", "answer"], "notes": [], "parent": "a"}]}"#,
            false,
        ),
    ] {
        let fs = FakeFs::new();
        fs.put("/w/support.json", EXAMPLE);
        fs.put("/w/support.layout.json", bad);
        let s = open(&fs, "/w/support.json", &c);
        assert_eq!(s.document().node_ids().len(), 6, "{bad}");
        assert!(!s.notices().is_empty(), "{bad}: a warning");
        assert!(s.notices().iter().all(|n| n.code == layout_codes::BAD_LAYOUT && !n.is_error()), "{bad}");
        assert_eq!(s.layout_missing(), whole, "{bad}");
        if !whole {
            assert_eq!(s.layout().positions["classify"].x, 1.0);
            // The cycle is broken and classify stays in one group only.
            let g = &s.layout().groups;
            assert!(
                g.iter().all(|g| g.parent.is_none()) || g.iter().filter(|g| g.parent.is_some()).count() == 1
            );
            assert_eq!(g.iter().filter(|g| g.nodes.contains(&"classify".to_owned())).count(), 1);
        }
    }
}

/// Every GraphSpec and GRAPH.md document of the corpus: a save without notes and groups writes
/// the sidecar the first version wrote (same bytes), and the spec as its writer makes it.
#[test]
fn corpus_documents_without_notes_write_the_sidecar_as_before() {
    let c = clock();
    let corpus = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    let mut files = Vec::new();
    for dir in ["ilmek/cases", "ilmek/viz", "ilmek/docs", "graphmd/support-triage"] {
        for entry in std::fs::read_dir(corpus.join(dir)).expect("corpus folder") {
            let p = entry.expect("entry").path();
            if p.extension().is_some_and(|e| e == "json" || e == "md") && !p.ends_with("cases.json") {
                files.push(p);
            }
        }
    }
    assert!(files.len() > 10, "the corpus is there: {files:?}");
    let (mut saved, mut checked) = (0, 0);
    for p in files {
        let name = p.file_name().expect("name").to_string_lossy().into_owned();
        let fs = FakeFs::new();
        let at = format!("/w/{name}");
        fs.put(&at, std::fs::read(&p).expect("read"));
        let Ok(mut s) = Session::open(&fs, DocId(1), Path::new(&at), registries(), Arc::new(c.clone()))
        else {
            continue;
        };
        let ids: Vec<String> = s.document().node_ids().into_iter().map(str::to_owned).collect();
        let positions: serde_json::Map<String, Value> = ids
            .iter()
            .enumerate()
            .map(|(i, id)| (id.clone(), json!({"x": i as f64 * 10.5, "y": 3})))
            .collect();
        if ids.is_empty()
            || s.apply(
                &serde_json::from_value(json!({"op": "move_nodes", "positions": positions})).expect("edit"),
            )
            .is_err()
        {
            continue;
        }
        let text = s.text();
        let side = crate::layout::sidecar_path(Path::new(&at));
        // Saved when the document has no errors; the sidecar text is checked either way.
        let written = if save::save(&fs, &mut s).is_ok() {
            saved += 1;
            assert_eq!(fs.get_string(&at).as_deref(), Some(text.as_str()), "{name}");
            fs.get_string(&side).expect("sidecar written")
        } else {
            s.layout_text()
        };
        checked += 1;
        // The first version's writer: `{version: 1, positions}` pretty-printed, newline.
        let mut old = serde_json::Map::new();
        old.insert("version".into(), json!(1));
        let mut pos = serde_json::Map::new();
        for (i, id) in ids.iter().enumerate() {
            pos.insert(id.clone(), json!({"x": i as f64 * 10.5, "y": 3.0}));
        }
        old.insert("positions".into(), Value::Object(pos));
        let expected = serde_json::to_string_pretty(&Value::Object(old)).expect("text") + "\n";
        assert_eq!(written, expected, "{name}");
    }
    assert!(saved >= 4 && checked >= 12, "only {saved} corpus documents saved, {checked} checked");
}

fn group_of<'a>(s: &'a Session, node: &str) -> Option<&'a str> {
    s.layout().groups.iter().find(|g| g.nodes.iter().any(|n| n == node)).map(|g| g.id.as_str())
}

#[test]
fn note_and_group_edits_undo_and_redo_step_by_step() {
    let c = clock();
    let (_fs, mut s) = opened_example(&c);
    let start = s.layout().clone();
    let mut states = vec![start.clone()];
    let mut step = |s: &mut Session, v: Value| {
        let out = edit(s, v.clone());
        assert!(out.changed.annotations || !out.changed.positions.is_empty(), "{v}");
        states.push(s.layout().clone());
    };
    step(&mut s, json!({"op": "add_note", "text": "**bold**", "position": {"x": 0, "y": 0}}));
    step(
        &mut s,
        json!({"op": "set_note", "id": "note", "color": "green", "size": {"width": 300, "height": 90}}),
    );
    step(&mut s, json!({"op": "add_group", "nodes": ["lookup_order", "approve_refund"], "name": "Refund"}));
    step(
        &mut s,
        json!({"op": "add_group", "groups": ["group"], "nodes": ["open_ticket"], "notes": ["note"], "name": "Outer"}),
    );
    assert_eq!(s.layout().group("group").and_then(|g| g.parent.as_deref()), Some("group_2"));
    // A group made of some members of a group nests inside it.
    step(&mut s, json!({"op": "add_group", "nodes": ["approve_refund"], "name": "Inner"}));
    assert_eq!(s.layout().group("group_3").and_then(|g| g.parent.as_deref()), Some("group"));
    step(
        &mut s,
        json!({"op": "set_group", "id": "group", "collapsed": true, "color": "red", "name": "Refunds"}),
    );
    // Moving a group: its members and notes in one step.
    step(
        &mut s,
        json!({"op": "move_nodes", "positions": {"lookup_order": {"x": 100, "y": 100}, "open_ticket": {"x": 120, "y": 100}},
        "notes": {"note": {"x": 50, "y": 60}}}),
    );
    // Dragged out of its group, then into another.
    step(
        &mut s,
        json!({"op": "move_nodes", "positions": {"lookup_order": {"x": 900, "y": 900}}, "groups": {"lookup_order": null}}),
    );
    assert_eq!(group_of(&s, "lookup_order"), None);
    step(
        &mut s,
        json!({"op": "move_nodes", "positions": {"answer": {"x": 110, "y": 110}}, "groups": {"answer": "group"}}),
    );
    assert_eq!(group_of(&s, "answer"), Some("group"));
    step(&mut s, json!({"op": "ungroup", "id": "group"}));
    assert_eq!(group_of(&s, "answer"), Some("group_2"), "members go to the parent");
    assert_eq!(s.layout().group("group_3").and_then(|g| g.parent.as_deref()), Some("group_2"));
    step(&mut s, json!({"op": "remove_notes", "ids": ["note"]}));
    step(&mut s, json!({"op": "remove_nodes", "ids": ["approve_refund"]}));
    assert!(s.layout().group("group_3").is_none(), "a group left empty goes");
    // Undo everything, one step at a time, through every state; then redo it all.
    let end = s.layout().clone();
    for want in states.iter().rev().skip(1) {
        assert!(s.can_undo());
        s.undo();
        assert_eq!(s.layout().notes, want.notes);
        assert_eq!(s.layout().groups, want.groups);
    }
    assert_eq!(*s.layout(), start);
    for want in states.iter().skip(1) {
        s.redo();
        assert_eq!(s.layout().groups, want.groups);
    }
    assert_eq!(*s.layout(), end);
}

#[test]
fn bad_note_and_group_edits_are_refused_and_change_nothing() {
    let c = clock();
    let (_fs, mut s) = opened_example(&c);
    edit(&mut s, json!({"op": "add_note", "text": "n", "position": {"x": 0, "y": 0}}));
    edit(&mut s, json!({"op": "add_group", "nodes": ["answer"]}));
    let before = s.layout().clone();
    for bad in [
        json!({"op": "add_note", "text": "x", "position": {"x": 0, "y": 0}, "color": "url(x)"}),
        json!({"op": "add_note", "text": "x", "position": {"x": 0, "y": 0}, "size": {"width": 1, "height": 1}}),
        json!({"op": "add_note", "id": "note", "text": "x", "position": {"x": 0, "y": 0}}),
        json!({"op": "add_note", "text": "x".repeat(200_000), "position": {"x": 0, "y": 0}}),
        json!({"op": "set_note", "id": "nope", "text": "x"}),
        json!({"op": "remove_notes", "ids": ["nope"]}),
        json!({"op": "add_group", "nodes": []}),
        json!({"op": "add_group", "nodes": ["ghost"]}),
        json!({"op": "add_group", "nodes": ["__start__"]}),
        json!({"op": "set_group", "id": "group", "name": "  "}),
        json!({"op": "set_group", "id": "nope", "collapsed": true}),
        json!({"op": "ungroup", "id": "nope"}),
        json!({"op": "move_nodes", "positions": {}, "groups": {"answer": "nope"}}),
        json!({"op": "move_nodes", "positions": {}, "notes": {"nope": {"x": 1, "y": 1}}}),
    ] {
        let e: Edit = serde_json::from_value(bad.clone()).expect("edit");
        let d = s.apply(&e).expect_err(&bad.to_string());
        assert!(d.is_error(), "{bad}");
        assert_eq!(*s.layout(), before, "{bad}");
    }
}

#[test]
fn weaveflow_keeps_notes_and_groups_in_metadata_web() {
    let c = clock();
    let fs = FakeFs::new();
    let original = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../../shared/corpus/weaveflow/supervisor_mode.json"),
    )
    .expect("corpus");
    fs.put("/w/sup.json", &original);
    let mut s = open(&fs, "/w/sup.json", &c);
    edit(
        &mut s,
        json!({"op": "add_note", "text": "The *supervisor* routes", "position": {"x": 10, "y": 10}}),
    );
    edit(
        &mut s,
        json!({"op": "add_group", "nodes": ["researcher", "quantitative_analyst"], "name": "Workers"}),
    );
    edit(&mut s, json!({"op": "set_group", "id": "group", "collapsed": true}));
    save::save(&fs, &mut s).expect("saved");
    assert!(fs.get_string("/w/sup.layout.json").is_none(), "no sidecar for Weaveflow");
    let v: Value = serde_json::from_str(&fs.get_string("/w/sup.json").expect("file")).expect("json");
    let web = &v["metadata"]["web"];
    assert_eq!(web["positions"]["supervisor"], json!({"x": 360, "y": 40}));
    assert_eq!(web["notes"][0]["text"], "The *supervisor* routes");
    assert_eq!(web["groups"][0]["nodes"], json!(["researcher", "quantitative_analyst"]));
    assert_eq!(web["groups"][0]["collapsed"], true);
    let again = open(&fs, "/w/sup.json", &c);
    assert_eq!(again.layout().groups, s.layout().groups);
    assert_eq!(again.layout().notes, s.layout().notes);
    // Renaming a node renames it in its group; undoing everything gives the file's bytes back.
    edit(&mut s, json!({"op": "rename_node", "from": "researcher", "to": "finder"}));
    assert_eq!(group_of(&s, "finder"), Some("group"));
    while s.can_undo() {
        s.undo();
    }
    assert!(s.layout().notes.is_empty() && s.layout().groups.is_empty());
    save::save(&fs, &mut s).expect("saved");
    assert_eq!(fs.get_string("/w/sup.json").as_deref(), Some(original.as_str()));
}

#[test]
fn graphmd_keeps_notes_and_groups_in_its_sidecar() {
    let c = clock();
    let fs = FakeFs::new();
    let original = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../../shared/corpus/graphmd/support-triage/GRAPH.md"),
    )
    .expect("corpus");
    fs.put("/w/GRAPH.md", &original);
    let mut s = open(&fs, "/w/GRAPH.md", &c);
    let ids: Vec<String> = s.document().node_ids().into_iter().take(2).map(str::to_owned).collect();
    edit(&mut s, json!({"op": "add_note", "text": "triage", "position": {"x": 1, "y": 2}}));
    edit(&mut s, json!({"op": "add_group", "nodes": ids, "notes": ["note"]}));
    save::save(&fs, &mut s).expect("saved");
    assert_eq!(fs.get_string("/w/GRAPH.md").as_deref(), Some(original.as_str()));
    let v: Value =
        serde_json::from_str(&fs.get_string("/w/GRAPH.layout.json").expect("sidecar")).expect("json");
    assert_eq!(v["version"], 2);
    assert_eq!(v["groups"][0]["nodes"], json!(ids));
    s.undo();
    assert!(s.layout().groups.is_empty());
}

#[test]
fn a_group_copied_from_one_document_pastes_into_another_with_ids_renamed() {
    let c = clock();
    let (_fs, mut a) = opened_example(&c);
    edit(&mut a, json!({"op": "add_note", "text": "about refunds", "position": {"x": 0, "y": 0}}));
    edit(
        &mut a,
        json!({"op": "add_group", "nodes": ["lookup_order", "approve_refund"], "notes": ["note"], "name": "Refunds"}),
    );
    edit(&mut a, json!({"op": "add_group", "groups": ["group"], "nodes": ["open_ticket"], "name": "Outer"}));
    // The fragment the UI builds on copy (ui/src/lib/clipboard.ts): nodes, edges among them,
    // and `layout` with relative positions, the notes and the groups.
    let fragment = json!({
        "nodes": [{"id": "lookup_order", "type": "noop", "config": {}}, {"id": "approve_refund", "type": "noop", "config": {}},
                  {"id": "open_ticket", "type": "noop", "config": {}}],
        "edges": [{"from": "lookup_order", "to": "approve_refund"}],
        "layout": {
            "positions": {"lookup_order": {"x": 0, "y": 0}, "approve_refund": {"x": 0, "y": 100}, "open_ticket": {"x": 200, "y": 0}},
            "notes": a.layout().notes,
            "groups": a.layout().groups,
        }
    });
    // Into the same document: every id is taken, so all are renamed and the groups follow.
    edit(&mut a, json!({"op": "paste", "fragment": fragment.clone(), "at": {"x": 1000, "y": 1000}}));
    let g = a.layout().groups.clone();
    assert_eq!(g.len(), 4);
    let copy = &g[2];
    assert_eq!(
        (copy.id.as_str(), copy.nodes.clone()),
        ("group_3", vec!["lookup_order_2".to_owned(), "approve_refund_2".to_owned()])
    );
    assert_eq!(copy.notes, vec!["note_2".to_owned()]);
    assert_eq!(copy.parent.as_deref(), Some("group_4"));
    assert_eq!(g[3].nodes, vec!["open_ticket_2".to_owned()]);
    let note = a.layout().notes.iter().find(|n| n.id == "note_2").expect("pasted note");
    assert_eq!((note.x, note.y, note.text.as_str()), (1000.0, 1000.0, "about refunds"));
    a.undo();
    assert_eq!(a.layout().groups.len(), 2, "a paste is one step");
    assert_eq!(a.layout().notes.len(), 1);

    // Into another document that has none of the ids: they are kept.
    let fs = FakeFs::new();
    fs.put(
        "/w/other.json",
        r#"{"nodes": [{"id": "x", "type": "noop", "config": {}}], "edges": [{"from": "__start__", "to": "x"}, {"from": "x", "to": "__end__"}]}"#,
    );
    let mut b = open(&fs, "/w/other.json", &c);
    edit(&mut b, json!({"op": "paste", "fragment": fragment.to_string()}));
    assert_eq!(group_of(&b, "lookup_order"), Some("group"));
    assert_eq!(b.layout().group("group").and_then(|g| g.parent.as_deref()), Some("group_2"));
    save::save(&fs, &mut b).expect("saved");
    let v: Value =
        serde_json::from_str(&fs.get_string("/w/other.layout.json").expect("sidecar")).expect("json");
    assert_eq!(v["groups"].as_array().map(Vec::len), Some(2));
    // A fragment whose groups name nodes it does not hold keeps only those it does.
    let mut partial = fragment.clone();
    partial["nodes"] = json!([{"id": "open_ticket", "type": "noop", "config": {}}]);
    edit(&mut b, json!({"op": "paste", "fragment": partial}));
    assert!(b.layout().groups.iter().all(|g| !g.nodes.is_empty()
        || b.layout().groups.iter().any(|c| c.parent.as_ref() == Some(&g.id))
        || !g.notes.is_empty()));
}

#[test]
fn layouts_without_notes_parse_the_fast_way_and_with_them_the_general_way() {
    let v1 = Layout::parse(V1_SIDECAR).expect("v1");
    assert_eq!(v1.version, 1);
    let v2 =
        Layout::parse(r#"{"version": 2, "positions": {}, "notes": [{"id": "n", "text": "t"}]}"#).expect("v2");
    assert_eq!((v2.notes[0].width, v2.notes[0].color.as_str()), (crate::annotations::NOTE_WIDTH, "yellow"));
}

#[test]
fn the_automatic_layout_keeps_a_groups_members_together() {
    let c = clock();
    let (_fs, mut s) = opened_example(&c);
    // Members far apart in the flow: the first and the last steps.
    let members = ["classify", "answer", "reply"];
    edit(&mut s, json!({"op": "add_group", "nodes": members}));
    let canvas = crate::auto_layout::CanvasGraph::of(s.document()).with_groups(s.layout());
    let p = canvas.layout(&mut |_| true).expect("laid out");
    let (w, h) = (crate::canvas_sizes::NODE.w, crate::canvas_sizes::NODE.h);
    let xs = members.iter().map(|m| p[*m].x);
    let ys = members.iter().map(|m| p[*m].y);
    let (x0, y0) = (xs.clone().fold(f64::INFINITY, f64::min), ys.clone().fold(f64::INFINITY, f64::min));
    let (x1, y1) = (xs.fold(f64::NEG_INFINITY, f64::max) + w, ys.fold(f64::NEG_INFINITY, f64::max) + h);
    for (id, q) in &p {
        if members.contains(&id.as_str()) {
            continue;
        }
        let size =
            if id.starts_with("__") { crate::canvas_sizes::TERMINAL } else { crate::canvas_sizes::NODE };
        let overlaps = q.x < x1 && q.x + size.w > x0 && q.y < y1 && q.y + size.h > y0;
        assert!(!overlaps, "{id} at {q:?} is inside the group's box ({x0}, {y0}) - ({x1}, {y1})");
    }
    // Without the group the layout is another one: the group is what moved them together.
    let plain = crate::auto_layout::CanvasGraph::of(s.document()).layout(&mut |_| true).expect("plain");
    assert_ne!(plain, p, "the groups changed the layout");
}
