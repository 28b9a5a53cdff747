use std::path::{Path, PathBuf};

use serde_json::json;

use super::*;
use crate::edit::Edit;
use crate::session::codes as scodes;
use crate::workspace::{codes, DocEvent, FsChange};

fn edit(w: &mut Workspace, id: DocId, v: serde_json::Value) {
    w.apply(id, &serde_json::from_value::<Edit>(v).expect("edit")).expect("applies");
}

fn setup() -> (FakeFs, ManualClock, Workspace, DocId) {
    let c = clock();
    let fs = FakeFs::new();
    fs.put("/w/support.json", EXAMPLE);
    let mut w = workspace(&fs, &c);
    let id = w.open(Path::new("/w/support.json")).expect("opens");
    (fs, c, w, id)
}

fn change() -> Vec<FsChange> {
    vec![FsChange::at("/w/support.json")]
}

#[test]
fn our_own_save_is_not_an_outside_change() {
    let (_fs, _c, mut w, id) = setup();
    edit(&mut w, id, json!({"op": "rename_graph", "name": "x"}));
    w.save(id).expect("saved");
    assert!(w.handle_fs_changes(&change()).is_empty());
    assert!(!w.get(id).expect("doc").is_dirty());
}

#[test]
fn an_outside_change_to_a_clean_document_reloads_it_undoably() {
    let (fs, _c, mut w, id) = setup();
    fs.modify("/w/support.json", EXAMPLE.replace("support-agent", "edited-outside"));
    let events = w.handle_fs_changes(&change());
    let [DocEvent::Reloaded { id: rid, outcome }] = events.as_slice() else { panic!("{events:?}") };
    assert_eq!(*rid, id);
    assert!(outcome.changed.full && !outcome.dirty && outcome.can_undo);
    let s = w.get(id).expect("doc");
    assert_eq!(s.spec().and_then(|sp| sp.name.as_deref()), Some("edited-outside"));
    // A second notification of the same change does nothing.
    assert!(w.handle_fs_changes(&change()).is_empty());
    w.undo(id).expect("undo");
    let s = w.get(id).expect("doc");
    assert_eq!(s.spec().and_then(|sp| sp.name.as_deref()), Some("support-agent"));
    assert!(s.is_dirty(), "the file holds the outside version now");
}

#[test]
fn an_outside_change_to_a_dirty_document_is_a_conflict() {
    let (fs, _c, mut w, id) = setup();
    edit(&mut w, id, json!({"op": "rename_graph", "name": "mine"}));
    fs.modify("/w/support.json", EXAMPLE.replace("support-agent", "theirs"));
    let events = w.handle_fs_changes(&change());
    let [DocEvent::Conflict { conflict, .. }] = events.as_slice() else { panic!("{events:?}") };
    assert!(conflict.mine.contains("\"mine\"") && conflict.theirs.contains("\"theirs\""));
    assert!(w.handle_fs_changes(&change()).is_empty(), "reported once");
    assert!(w.save(id).expect_err("conflict").conflict);
    assert!(fs.get_string("/w/support.json").expect("file").contains("theirs"));
    w.take_theirs(id).expect("take theirs");
    assert!(!w.get(id).expect("doc").is_dirty());
}

#[test]
fn a_deleted_or_moved_file_leaves_the_document_open_and_dirty() {
    let (fs, _c, mut w, id) = setup();
    fs.delete("/w/support.json");
    let events = w.handle_fs_changes(&change());
    let [DocEvent::Gone { notice, .. }] = events.as_slice() else { panic!("{events:?}") };
    assert_eq!(notice.code, scodes::FILE_DELETED);
    let s = w.get(id).expect("still open");
    assert!(s.is_dirty());
    assert_eq!(s.info().notices.len(), 1);
    assert!(w.handle_fs_changes(&change()).is_empty(), "reported once");
    w.save(id).expect("writes it again");
    assert!(!w.get(id).expect("doc").is_dirty());
    assert!(w.get(id).expect("doc").notices().is_empty());

    let moved = vec![FsChange { path: "/w/support.json".into(), renamed_to: Some("/w/old.json".into()) }];
    fs.delete("/w/support.json");
    let events = w.handle_fs_changes(&moved);
    let [DocEvent::Gone { notice, .. }] = events.as_slice() else { panic!("{events:?}") };
    assert_eq!(notice.code, scodes::FILE_MOVED);
    assert!(notice.message.contains("/w/old.json"));
}

#[test]
fn a_changed_registry_revalidates_open_documents() {
    let c = clock();
    let fs = FakeFs::new();
    fs.put("/w/support.json", EXAMPLE);
    let loads = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let counter = loads.clone();
    let loader: crate::workspace::RegistryLoader = Arc::new(move |_fs, _p| {
        counter.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let mut r = registries();
        r.files = vec![PathBuf::from("/w/team.registry.json")];
        r
    });
    let mut w = Workspace::new(Arc::new(fs.clone()), Arc::new(c.clone()), Path::new("/data"), loader);
    let id = w.open(Path::new("/w/support.json")).expect("opens");
    assert!(w.watched_paths().contains(&PathBuf::from("/w/team.registry.json")));
    let events = w.handle_fs_changes(&[FsChange::at("/w/team.registry.json")]);
    assert!(matches!(events.as_slice(), [DocEvent::Revalidated { id: rid, .. }] if *rid == id));
    // A new registry file in a folder above the document counts too.
    let events = w.handle_fs_changes(&[FsChange::at("/more.registry.json")]);
    assert_eq!(events.len(), 1);
    assert!(w.handle_fs_changes(&[FsChange::at("/w/unrelated.json")]).is_empty());
    assert_eq!(loads.load(std::sync::atomic::Ordering::SeqCst), 3);
}

#[test]
fn close_asks_before_losing_unsaved_changes() {
    let (_fs, _c, mut w, id) = setup();
    edit(&mut w, id, json!({"op": "rename_graph", "name": "x"}));
    assert_eq!(w.dirty(), vec![id]);
    let refused = w.close(id, false).expect_err("dirty");
    assert_eq!(refused.diagnostic.code, codes::UNSAVED_CHANGES);
    assert!(w.get(id).is_some());
    w.close(id, true).expect("discarded");
    assert!(w.get(id).is_none());
    assert!(w.close(id, true).is_err());
}

#[test]
fn opening_twice_focuses_the_open_document_and_recent_files_persist() {
    let (fs, c, mut w, id) = setup();
    fs.put("/w/b.json", "{\"nodes\": []}");
    assert_eq!(w.open(Path::new("/w/support.json")).expect("again"), id);
    let b = w.open(Path::new("/w/b.json")).expect("b");
    assert_ne!(b, id);
    assert_eq!(w.recent(), [PathBuf::from("/w/b.json"), PathBuf::from("/w/support.json")]);
    let w2 = workspace(&fs, &c);
    assert_eq!(w2.recent(), w.recent(), "persisted in the data folder");
    assert!(w.open(Path::new("/w/missing.json")).is_err());
    fs.put("/w/bad.json", "{\"nodes\": 5}");
    let d = w.open(Path::new("/w/bad.json")).expect_err("bad");
    assert!(d.iter().any(|d| d.is_error()));
}

#[test]
fn new_documents_are_clean_untitled_and_need_save_as() {
    let c = clock();
    let fs = FakeFs::new();
    let mut w = workspace(&fs, &c);
    let ex = w.new_from_example().expect("example");
    let empty = w.new_empty();
    assert!(w.dirty().is_empty());
    assert_eq!(w.get(ex).expect("doc").info().title, "Untitled");
    assert_eq!(
        w.get(empty).expect("doc").text(),
        "{\n  \"name\": null,\n  \"channels\": {},\n  \"nodes\": [],\n  \"edges\": []\n}\n"
    );
    assert!(w.save(ex).is_err());
    fs.mkdir("/w");
    w.save_as(ex, Path::new("/w/new.json")).expect("save as");
    assert_eq!(fs.get_string("/w/new.json").as_deref(), Some(EXAMPLE));
    assert_eq!(w.recent(), [PathBuf::from("/w/new.json")]);
    assert_eq!(w.find_by_path(Path::new("/w/new.json")), Some(ex));
}

#[test]
fn hostile_files_give_diagnostics_not_panics() {
    let c = clock();
    let fs = FakeFs::new();
    let mut w = workspace(&fs, &c);
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("/w/empty.json", Vec::new()),
        ("/w/binary.json", vec![0xff, 0xfe, 0x00, 0x81]),
        ("/w/deep.json", format!("{}{}", "[".repeat(10_000), "]".repeat(10_000)).into_bytes()),
        ("/w/array.json", b"[1, 2, 3]".to_vec()),
        ("/w/dupe.json", br#"{"nodes": [], "nodes": []}"#.to_vec()),
    ];
    for (path, bytes) in cases {
        fs.put(path, &bytes);
        let d = w.open(Path::new(path)).expect_err(path);
        assert!(d.iter().any(|d| d.is_error()), "{path}: {d:?}");
    }
    assert!(w.ids().is_empty());
    // A Weaveflow document with errors opens (the user is here to fix them), errors shown.
    fs.put("/w/weave.json", br#"{"version": "1", "state_modules": [], "entry_point": "a"}"#);
    let id = w.open(Path::new("/w/weave.json")).expect("weaveflow opens");
    assert!(w.get(id).expect("doc").diagnostics().iter().any(|d| d.is_error()));
    fs.put("/w/GRAPH.md", b"---\nspec_version: 1.0\nentry: a\n---\n");
    let id = w.open(Path::new("/w/GRAPH.md")).expect("GRAPH.md opens");
    assert!(w.get(id).expect("doc").diagnostics().iter().any(|d| d.is_error()));
    // A GRAPH.md that is prose is no workflow contract: refused in one line, not opened.
    fs.put("/w/docs/GRAPH.md", b"# Graph\n\nHow the graph package draws edges.\n");
    let d = w.open(Path::new("/w/docs/GRAPH.md")).expect_err("prose is refused");
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0].code, trellis_formats::detect::codes::NOT_A_CONTRACT);
    assert!(
        d[0].message.starts_with("not a GRAPH.md workflow contract: it has no YAML front matter"),
        "{d:?}"
    );
    // A broken layout sidecar is a warning; the document opens with layout_missing.
    fs.put("/w/ok.json", EXAMPLE);
    fs.put("/w/ok.layout.json", "{\"version\": 1, \"positions\": {\"a\": {\"x\": \"no\"}}}");
    let id = w.open(Path::new("/w/ok.json")).expect("opens");
    let s = w.get(id).expect("doc");
    assert!(s.layout_missing());
    assert_eq!(s.notices()[0].code, crate::layout::codes::BAD_LAYOUT);
}

#[test]
fn the_accepted_weaveflow_version_is_a_setting_that_revalidates_and_persists() {
    let c = clock();
    let fs = FakeFs::new();
    let text = std::fs::read_to_string(
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../formats/tests/fixtures/weaveflow/corpus/state_operations.json"),
    )
    .expect("corpus copy");
    assert!(text.contains("\"version\": \"1.0\""), "the example declares version 1.0");
    fs.put("/w/graph.json", &text);
    let mut w = workspace(&fs, &c);
    assert_eq!(w.weaveflow_version(), "1.0");
    let id = w.open(Path::new("/w/graph.json")).expect("opens");
    let version_errors = |w: &Workspace| {
        w.get(id)
            .expect("doc")
            .diagnostics()
            .iter()
            .filter(|d| d.pointer == "/version" && d.is_error())
            .count()
    };
    assert_eq!(version_errors(&w), 0);

    let events = w.set_weaveflow_version(" 2.0 ").expect("set");
    assert!(!events.is_empty(), "open documents are revalidated");
    assert_eq!(w.weaveflow_version(), "2.0");
    assert_eq!(version_errors(&w), 1, "{:?}", w.get(id).expect("doc").diagnostics());
    // Saved all the same, problem and all (the file keeps its own version).
    w.save(id).expect("saved with its problem");
    assert_eq!(version_errors(&w), 1, "the problem stays");
    assert!(fs.get_string("/w/graph.json").expect("file").contains("\"version\": \"1.0\""));

    // A new workspace on the same data folder reads the setting back.
    let w2 = workspace(&fs, &c);
    assert_eq!(w2.weaveflow_version(), "2.0");
    // An empty version is refused and changes nothing.
    let err = w.set_weaveflow_version("  ").expect_err("refused");
    assert_eq!(err.code, codes::SETTINGS_FAILED);
    assert_eq!(w.weaveflow_version(), "2.0");
}

/// An open in two steps: the document read is shown with its reading's findings only, is
/// checked apart, and is in the workspace (and the recent list) only once finished; it is the
/// document a one-step open gives.
#[test]
fn an_open_in_two_steps_checks_the_document_apart() {
    let c = clock();
    let fs = FakeFs::new();
    // A node of a type nobody describes: a finding of the validator, not of the reading.
    fs.put("/w/odd.json", EXAMPLE.replacen("\"type\": \"llm\"", "\"type\": \"no_such_type\"", 1));
    let mut w = workspace(&fs, &c);
    let crate::Begun::Read(mut opening) =
        w.begin_open(Path::new("/w/odd.json"), &mut |_| true).expect("reads")
    else {
        panic!("not open yet")
    };
    let id = opening.session().id();
    assert!(w.get(id).is_none(), "not in the workspace before it is finished");
    assert!(w.recent().is_empty());
    let unknown_type =
        |s: &Session| s.diagnostics().iter().any(|d| d.code == trellis_spec::checks::codes::UNKNOWN_TYPE);
    assert!(!unknown_type(opening.session()), "not checked yet");
    opening.check();
    assert!(unknown_type(opening.session()));
    assert_eq!(w.finish_open(opening), id);
    assert_eq!(w.recent(), [PathBuf::from("/w/odd.json")]);
    let two_steps = w.get(id).expect("open").diagnostics().to_vec();
    // The same file opened in one step (in another workspace) has the same findings.
    let mut other = workspace(&fs, &c);
    let one = other.open(Path::new("/w/odd.json")).expect("opens");
    assert_eq!(other.get(one).expect("open").diagnostics(), two_steps.as_slice());
    // Opening it again finds it.
    assert!(
        matches!(w.begin_open(Path::new("/w/odd.json"), &mut |_| true), Ok(crate::Begun::AlreadyOpen(i)) if i == id)
    );
}
