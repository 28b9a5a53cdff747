use std::path::PathBuf;
use std::sync::Arc;

use serde_json::{json, Value};

use super::*;
use crate::fs::FakeFs;
use crate::session::DocId;
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

/// The report the merge driver writes, and the file it leaves (OURS), on a fake disk; the
/// document opened.
fn conflicted() -> (FakeFs, Session, String) {
    let (base, ours, theirs) = sides();
    let read = |t: &str| ddoc::read(Some("support.json"), t.as_bytes(), None).expect("reads");
    let outcome = trellis_diff::merge_documents(&read(&base), &read(&ours), &read(&theirs)).expect("merges");
    assert_eq!(outcome.conflicts.len(), 2, "{:?}", outcome.conflicts);
    let fs = FakeFs::new();
    let ours_text = read(&ours).to_text().expect("canonical");
    fs.put("/w/support.json", &ours_text);
    fs.put("/w/support.json.conflicts.json", trellis_diff::report_text("support.json", &outcome));
    let s = Session::open(&fs, DocId(1), &PathBuf::from("/w/support.json"), registries(), Arc::new(clock()))
        .expect("opens");
    (fs, s, ours_text)
}

#[test]
fn each_pick_is_one_undoable_edit_and_the_save_removes_the_report() {
    let (fs, mut s, _) = conflicted();
    let mut set = load(&fs, &PathBuf::from("/w/support.json")).expect("a report").expect("reads");
    let v = set.view(&s);
    assert_eq!(v.open, 2);
    assert_eq!(v.report, "support.json.conflicts.json");
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
