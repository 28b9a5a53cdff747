//! Weaveflow transfer files in a session (formats.md §5.2): a Workbench export bundle and an
//! upload envelope open as the definition they carry; a save writes the same file back with
//! only the definition's changed parts (and a bundle's `ui.web`) changed, byte for byte.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::{json, Value};

use crate::clock::ManualClock;
use crate::document::{DocFormat, DocId};
use crate::edit::Edit;
use crate::fs::FakeFs;
use crate::registries::Registries;
use crate::save;
use crate::session::Session;

fn fixture(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../formats/tests/fixtures/weaveflow/transfer")
        .join(name);
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn open(fs: &FakeFs, path: &str) -> Session {
    let registries = Registries::new(trellis_spec::builtin::default_registry());
    Session::open(fs, DocId(1), Path::new(path), registries, Arc::new(ManualClock::new(1_000_000)))
        .unwrap_or_else(|ds| panic!("{path} does not open: {ds:?}"))
}

fn edit(s: &mut Session, v: Value) {
    s.apply(&serde_json::from_value::<Edit>(v).expect("edit")).expect("applies");
}

fn errors(s: &Session) -> Vec<String> {
    s.diagnostics().iter().filter(|d| d.is_error()).map(|d| format!("{} {}", d.pointer, d.message)).collect()
}

/// The lines that differ (both texts must have as many lines).
fn changed_lines(a: &str, b: &str) -> Vec<(String, String)> {
    let (la, lb): (Vec<_>, Vec<_>) = (a.split('\n').collect(), b.split('\n').collect());
    assert_eq!(la.len(), lb.len(), "line counts differ:\n{b}");
    la.iter().zip(&lb).filter(|(x, y)| x != y).map(|(x, y)| ((*x).to_owned(), (*y).to_owned())).collect()
}

#[test]
fn an_export_bundle_opens_as_its_definition_and_saves_only_what_changed() {
    let original = fixture("support.weaveflow.json");
    let fs = FakeFs::new();
    fs.put("/w/support.weaveflow.json", &original);
    let mut s = open(&fs, "/w/support.weaveflow.json");
    assert_eq!(s.format(), DocFormat::Weaveflow);
    assert!(errors(&s).is_empty(), "{:?}", errors(&s));
    assert_eq!(s.document().node_ids(), ["input", "message", "answer"]);
    // `ui.web` is the definition's `metadata.web`: the positions are the bundle's.
    assert_eq!(s.layout().positions.get("message").map(|p| (p.x, p.y)), Some((320.0, 0.0)));
    assert_eq!(s.text(), original, "an unedited bundle writes back unchanged");

    edit(&mut s, json!({"op": "move_nodes", "positions": {"message": {"x": 360, "y": 40}}}));
    edit(
        &mut s,
        json!({"op": "set_config_field", "id": "answer", "path": "/system_prompt", "value": "Answer in one sentence."}),
    );
    save::save(&fs, &mut s).unwrap_or_else(|r| panic!("not saved: {:?}", r.diagnostics));
    let now = fs.get_string("/w/support.weaveflow.json").expect("saved");
    let diff = changed_lines(&original, &now);
    assert_eq!(
        diff,
        [
            (
                "          \"system_prompt\": \"You answer support questions in two sentences.\",".to_owned(),
                "          \"system_prompt\": \"Answer in one sentence.\",".to_owned()
            ),
            (
                "        \"message\": { \"x\": 320, \"y\": 0 },".to_owned(),
                "        \"message\": { \"x\": 360, \"y\": 40 },".to_owned()
            ),
        ]
    );
    // The definition holds no `metadata.web`: the bundle's rule.
    let v: Value = serde_json::from_str(&now).expect("json");
    assert!(v["definition"].get("metadata").is_none(), "{now}");
    // Reopened, the moved node is where it was put.
    let again = open(&fs, "/w/support.weaveflow.json");
    assert_eq!(again.layout().positions.get("message").map(|p| (p.x, p.y)), Some((360.0, 40.0)));
}

#[test]
fn a_first_move_in_a_bundle_without_ui_declares_it() {
    let mut v: Value = serde_json::from_str(&fixture("support.weaveflow.json")).expect("json");
    let root = v.as_object_mut().expect("object");
    root.shift_remove("ui");
    root.insert("contents".into(), json!(["graph", "config", "settings", "triggers"]));
    let original = serde_json::to_string_pretty(&v).expect("text") + "\n";
    let fs = FakeFs::new();
    fs.put("/w/b.weaveflow.json", &original);
    let mut s = open(&fs, "/w/b.weaveflow.json");
    assert!(errors(&s).is_empty(), "{:?}", errors(&s));
    edit(&mut s, json!({"op": "move_nodes", "positions": {"input": {"x": 5, "y": 6}}}));
    assert!(errors(&s).is_empty(), "the bundle's rules hold after the move: {:?}", errors(&s));
    save::save(&fs, &mut s).unwrap_or_else(|r| panic!("not saved: {:?}", r.diagnostics));
    let now: Value =
        serde_json::from_str(&fs.get_string("/w/b.weaveflow.json").expect("saved")).expect("json");
    assert_eq!(now["contents"], json!(["graph", "config", "settings", "triggers", "ui"]));
    assert_eq!(now["ui"]["web"]["positions"]["input"], json!({"x": 5, "y": 6}));
    assert!(now["definition"].get("metadata").is_none());
}

#[test]
fn an_upload_envelope_keeps_its_settings_and_its_definitions_positions() {
    let original = fixture("envelope.json");
    let fs = FakeFs::new();
    fs.put("/w/envelope.json", &original);
    let mut s = open(&fs, "/w/envelope.json");
    assert!(errors(&s).is_empty(), "{:?}", errors(&s));
    assert_eq!(s.layout().positions.get("answer").map(|p| p.x), Some(10.0));
    edit(&mut s, json!({"op": "move_nodes", "positions": {"answer": {"x": 11, "y": 20}}}));
    save::save(&fs, &mut s).unwrap_or_else(|r| panic!("not saved: {:?}", r.diagnostics));
    let now = fs.get_string("/w/envelope.json").expect("saved");
    let diff = changed_lines(&original, &now);
    assert_eq!(diff.len(), 1, "{diff:?}");
    assert!(diff[0].1.contains("\"answer\": {\"x\": 11, \"y\": 20}"), "{diff:?}");
}

#[test]
fn findings_about_the_definition_point_into_it_and_are_placed_in_the_file() {
    let text = fixture("support.weaveflow.json")
        .replace("\"entry_point\": \"input\"", "\"entry_point\": \"nowhere\"");
    let fs = FakeFs::new();
    fs.put("/w/s.weaveflow.json", &text);
    let s = open(&fs, "/w/s.weaveflow.json");
    let d = s.diagnostics().iter().find(|d| d.code == "weaveflow/entry-point-not-found").expect("found");
    assert_eq!(d.pointer, "/entry_point", "the inspector's pointer, into the definition");
    let line = text.lines().position(|l| l.contains("\"nowhere\"")).expect("the line") + 1;
    assert_eq!(d.span.map(|s| s.line as usize), Some(line), "placed where it is in the file");
}
