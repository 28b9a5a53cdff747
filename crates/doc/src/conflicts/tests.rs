use std::path::PathBuf;
use std::sync::Arc;

use serde_json::{json, Value};

use super::*;
use crate::document::DocId;
use crate::fs::FakeFs;
use crate::tests::{clock, registries};
use crate::workspace::EXAMPLE;

fn edit(f: impl FnOnce(&mut Value)) -> String {
    let mut v: Value = serde_json::from_str(EXAMPLE).expect("json");
    f(&mut v);
    serde_json::to_string_pretty(&v).expect("text")
}

/// Base: the example; ours and theirs set the classifier's model and its default label
/// differently: two conflicts.
fn sides() -> (String, String, String) {
    let ours = edit(|v| {
        v["nodes"][0]["config"]["model"] = json!("ours-model");
        v["nodes"][0]["config"]["default_label"] = json!("question");
    });
    let theirs = edit(|v| {
        v["nodes"][0]["config"]["model"] = json!("their-model");
        v["nodes"][0]["config"]["default_label"] = json!("complaint");
    });
    (EXAMPLE.to_owned(), ours, theirs)
}

/// What the merge driver leaves on a fake disk (the merged text in the file, the report
/// beside it), and the document opened.
fn driver_leaves(base: &str, ours: &str, theirs: &str, conflicts: usize) -> (FakeFs, Session, String) {
    let read = |t: &str| ddoc::read(Some("support.json"), t.as_bytes(), None).expect("reads");
    let outcome = trellis_diff::merge_documents(&read(base), &read(ours), &read(theirs)).expect("merges");
    assert_eq!(outcome.conflicts.len(), conflicts, "{:?}", outcome.conflicts);
    assert_eq!(outcome.kept(), "merged");
    let fs = FakeFs::new();
    let merged = outcome.text.clone().expect("the merge is written");
    fs.put("/w/support.json", &merged);
    fs.put("/w/support.json.conflicts.json", trellis_diff::report_text("support.json", &outcome));
    let s = Session::open(&fs, DocId(1), &PathBuf::from("/w/support.json"), registries(), Arc::new(clock()))
        .expect("opens");
    (fs, s, merged)
}

fn conflicted() -> (FakeFs, Session, String) {
    let (base, ours, theirs) = sides();
    driver_leaves(&base, &ours, &theirs, 2)
}

#[test]
fn each_pick_is_one_undoable_edit_and_the_save_removes_the_report() {
    let (fs, mut s, _) = conflicted();
    let mut set = load(&fs, &PathBuf::from("/w/support.json")).expect("a report").expect("reads");
    let v = set.view(&s);
    assert_eq!(v.open, 2);
    assert_eq!(v.report, "support.json.conflicts.json");
    assert_eq!(v.kept, "merged");
    let model = v.conflicts.iter().find(|c| c.pointer == "/config/model").expect("model conflict");
    assert_eq!(model.element, "node \"classify\"");
    assert_eq!(model.ours.as_deref(), Some("\"ours-model\""));
    assert_eq!(model.theirs.as_deref(), Some("\"their-model\""));
    assert_eq!(model.current.as_deref(), Some("\"ours-model\""));
    let (mi, ei) = (model.index, 1 - model.index);

    // Theirs for the model: an edit, undone and redone.
    let e = set.pick(&s, mi, &ConflictPick::Theirs).expect("pick").expect("an edit");
    s.apply(&e).expect("applies");
    assert!(s.text().contains("their-model"));
    assert_eq!(set.view(&s).open, 1);
    s.undo();
    assert_eq!(set.view(&s).open, 2, "undoing a pick reopens its conflict");
    s.redo();
    assert_eq!(set.view(&s).open, 1);

    // The default label: an edited value.
    let bad_json = set.pick(&s, ei, &ConflictPick::Edited { json: "{type: ".into() }).expect_err("not JSON");
    assert_eq!(bad_json.code, codes::BAD_PICK);
    set.unpick(ei);
    let e = set
        .pick(&s, ei, &ConflictPick::Edited { json: r#""refund""#.into() })
        .expect("pick")
        .expect("an edit");
    s.apply(&e).expect("applies");
    assert!(set.all_resolved(&s));

    // Saved through the pipeline: the bytes are the writer's, and the report goes.
    crate::save::save(&fs, &mut s).expect("saves");
    let written = fs.get_string("/w/support.json").expect("written");
    assert_eq!(written, s.text());
    assert!(written.contains("their-model") && written.contains("\"default_label\": \"refund\""));
    let note = set.after_save(&fs, &s);
    assert_eq!(note.code, codes::REPORT_REMOVED);
    assert!(fs.get("/w/support.json.conflicts.json").is_none());
}

#[test]
fn picking_ours_resolves_without_an_edit_and_an_open_conflict_keeps_the_report() {
    let (fs, s, _) = conflicted();
    let mut set = load(&fs, &PathBuf::from("/w/support.json")).expect("a report").expect("reads");
    assert_eq!(set.pick(&s, 0, &ConflictPick::Ours).expect("pick"), None, "the file already holds ours");
    assert_eq!(set.view(&s).open, 1);
    let note = set.after_save(&fs, &s);
    assert_eq!(note.code, codes::STILL_OPEN);
    assert!(note.message.starts_with("1 of 2 conflicts are still open"), "{}", note.message);
    assert!(fs.get("/w/support.json.conflicts.json").is_some());
}

/// Ours and theirs each make clean changes (ours a node's timeout and a new node, theirs
/// another node's prompt and a condition) and set one field differently: the file the driver
/// leaves already holds both sides' clean changes, and resolving the conflict (theirs) gives the
/// whole three-way merge, the same as a clean merge with theirs' value on our side.
#[test]
fn resolving_the_conflict_gives_the_whole_merge_with_both_sides_clean_changes() {
    let ours_edits = |v: &mut Value| {
        v["nodes"][1]["config"]["timeout_ms"] = json!(9000);
        v["nodes"].as_array_mut().expect("nodes").push(json!({
            "id": "audit", "type": "append_message",
            "config": {"channel": "messages", "role": "assistant", "content": "Logged."}
        }));
    };
    let theirs_edits = |v: &mut Value| {
        v["nodes"][2]["config"]["prompt"] = json!("Refund this order?");
        v["edges"][1]["when"]["eq"] = json!("faq");
    };
    let ours = edit(|v| {
        ours_edits(v);
        v["nodes"][0]["config"]["model"] = json!("ours-model");
    });
    let theirs = edit(|v| {
        theirs_edits(v);
        v["nodes"][0]["config"]["model"] = json!("their-model");
    });
    let (fs, mut s, merged) = driver_leaves(EXAMPLE, &ours, &theirs, 1);
    let file: Value = serde_json::from_str(&merged).expect("json");
    assert_eq!(file["nodes"][1]["config"]["timeout_ms"], json!(9000), "ours' clean change");
    assert_eq!(file["nodes"][2]["config"]["prompt"], json!("Refund this order?"), "theirs' clean change");
    assert_eq!(file["nodes"][0]["config"]["model"], json!("ours-model"), "ours at the conflict");

    let mut set = load(&fs, &PathBuf::from("/w/support.json")).expect("a report").expect("reads");
    assert_eq!(set.view(&s).open, 1);
    let e = set.pick(&s, 0, &ConflictPick::Theirs).expect("pick").expect("an edit");
    s.apply(&e).expect("applies");
    assert!(set.all_resolved(&s));
    crate::save::save(&fs, &mut s).expect("saves");
    assert_eq!(set.after_save(&fs, &s).code, codes::REPORT_REMOVED);

    // The whole merge: what a clean merge of the same clean changes with theirs' value gives.
    let read = |t: &str| ddoc::read(Some("support.json"), t.as_bytes(), None).expect("reads");
    let ours_taking_theirs = edit(|v| {
        ours_edits(v);
        v["nodes"][0]["config"]["model"] = json!("their-model");
    });
    let whole = trellis_diff::merge_documents(&read(EXAMPLE), &read(&ours_taking_theirs), &read(&theirs))
        .expect("merges");
    assert!(whole.is_clean(), "{:?}", whole.conflicts);
    let saved = fs.get_string("/w/support.json").expect("saved");
    assert_eq!(read(&saved).graph, read(&whole.text.expect("text")).graph);
    let saved: Value = serde_json::from_str(&saved).expect("json");
    assert!(saved["nodes"].as_array().expect("nodes").iter().any(|n| n["id"] == "audit"));
    assert_eq!(saved["edges"][1]["when"]["eq"], json!("faq"));
}

/// A version 1 report (an older driver: the file held OURS only) is still read and resolved,
/// and says what the file holds; a version 2 report must say it.
#[test]
fn an_old_report_is_read_and_says_the_file_holds_ours_only() {
    let (base, ours, theirs) = sides();
    let read = |t: &str| ddoc::read(Some("support.json"), t.as_bytes(), None).expect("reads");
    let outcome = trellis_diff::merge_documents(&read(&base), &read(&ours), &read(&theirs)).expect("merges");
    let mut report: Value =
        serde_json::from_str(&trellis_diff::report_text("support.json", &outcome)).expect("json");
    report["version"] = json!(1);
    report["kept"] = json!("ours");
    let fs = FakeFs::new();
    fs.put("/w/support.json", read(&ours).to_text().expect("canonical"));
    fs.put("/w/support.json.conflicts.json", report.to_string());
    let mut s =
        Session::open(&fs, DocId(1), &PathBuf::from("/w/support.json"), registries(), Arc::new(clock()))
            .expect("opens");
    let mut set = load(&fs, &PathBuf::from("/w/support.json")).expect("a report").expect("reads");
    assert_eq!(set.view(&s).kept, "ours");
    let e = set.pick(&s, 0, &ConflictPick::Theirs).expect("pick").expect("an edit");
    s.apply(&e).expect("applies");
    assert_eq!(set.view(&s).open, 1);

    report["version"] = json!(2);
    report.as_object_mut().expect("object").remove("kept");
    fs.put("/w/support.json.conflicts.json", report.to_string());
    let e = load(&fs, &PathBuf::from("/w/support.json")).expect("a report").expect_err("no kept");
    assert!(e.message.contains("does not say what the file holds"), "{}", e.message);
}

#[test]
fn a_malformed_report_is_a_clear_notice() {
    let fs = FakeFs::new();
    fs.put("/w/support.json", EXAMPLE);
    for (text, says) in [
        ("{not json", "key must be a string"),
        (
            r#"{"trellis": "something-else", "version": 1, "conflicts": []}"#,
            "it says it is \"something-else\"",
        ),
        (r#"{"trellis": "merge-conflicts", "version": 9, "conflicts": []}"#, "version 9"),
        (
            r#"{"trellis": "merge-conflicts", "version": 1, "conflicts": [{"element": {"kind": "moon"}}]}"#,
            "moon",
        ),
    ] {
        fs.put("/w/support.json.conflicts.json", text);
        let e = load(&fs, &PathBuf::from("/w/support.json")).expect("a report").expect_err("malformed");
        assert_eq!(e.code, codes::MALFORMED_REPORT);
        assert!(
            e.message.starts_with("support.json.conflicts.json beside the document is not a conflict report"),
            "{}",
            e.message
        );
        assert!(e.message.contains(says), "{}: {}", says, e.message);
    }
    assert!(load(&fs, &PathBuf::from("/w/other.json")).is_none());
}
