use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use serde_json::json;

use super::*;
use crate::document::Document;
use crate::edit::Edit;
use crate::fs::{FileSystem, FsOp};
use crate::save::{self, codes};

fn edit(s: &mut Session, v: serde_json::Value) {
    s.apply(&serde_json::from_value::<Edit>(v).expect("edit")).expect("applies");
}

fn p(s: &str) -> PathBuf {
    PathBuf::from(s)
}

#[test]
fn clean_save_writes_canonical_text_and_sidecar() {
    let c = clock();
    let (fs, mut s) = opened_example(&c);
    edit(&mut s, json!({"op": "rename_graph", "name": "support"}));
    edit(&mut s, json!({"op": "move_nodes", "positions": {"classify": {"x": 10, "y": 20}}}));
    let expected = s.text();
    let out = save::save(&fs, &mut s).expect("saved");
    assert_eq!(fs.get_string("/w/support.json").as_deref(), Some(expected.as_str()));
    assert_eq!(out.bytes, expected.len() as u64);
    assert_eq!(out.layout_path.as_deref(), Some("/w/support.layout.json"));
    let layout = fs.get_string("/w/support.layout.json").expect("sidecar");
    let parsed = crate::layout::Layout::parse(&layout).expect("layout parses");
    assert_eq!(parsed.positions.len(), 1);
    assert!(!s.is_dirty());
    assert!(!s.layout_missing());
    assert!(out.warnings.is_empty());
    assert!(expected.contains("\"name\": \"support\""));
    // The fingerprint is of the bytes on disk.
    let (fp, _) =
        crate::fingerprint::Fingerprint::read(&fs, &p("/w/support.json")).expect("read").expect("exists");
    assert!(fp.same_content(s.fingerprint().expect("fp")));
}

#[test]
fn missing_layout_is_written_by_the_next_save() {
    let c = clock();
    let (fs, mut s) = opened_example(&c);
    assert!(s.layout_missing());
    edit(
        &mut s,
        json!({"op": "apply_layout", "automatic": true, "positions": {"classify": {"x": 1, "y": 1}}}),
    );
    save::save(&fs, &mut s).expect("saved");
    assert!(fs.get_string("/w/support.layout.json").expect("written").contains("classify"));
}

#[test]
fn a_document_with_errors_is_saved_with_them_and_they_are_counted() {
    let c = clock();
    let (fs, mut s) = opened_example(&c);
    edit(&mut s, json!({"op": "set_node_type", "id": "answer", "type": "no_such_type"}));
    edit(&mut s, json!({"op": "set_config_field", "id": "classify", "path": "/temperature", "value": 7}));
    let errors: Vec<_> = s.diagnostics().iter().filter(|d| d.is_error()).cloned().collect();
    assert!(errors.len() >= 2, "{errors:#?}");
    let expected = s.text();
    save::save(&fs, &mut s).expect("saved with its problems");
    // The very text of the canonical writer, problems and all.
    assert_eq!(fs.get_string("/w/support.json").as_deref(), Some(expected.as_str()));
    assert!(expected.contains("\"no_such_type\""));
    assert!(!s.is_dirty());
    // The problems stay, as they were: on screen, and for `trellis validate` reading the file.
    assert_eq!(s.diagnostics().iter().filter(|d| d.is_error()).cloned().collect::<Vec<_>>(), errors);
    let again =
        Session::from_text(crate::DocId(2), None, &expected, registries(), std::sync::Arc::new(c.clone()))
            .expect("reads");
    assert!(again.diagnostics().iter().any(|d| d.code == "spec/unknown-type"), "{:#?}", again.diagnostics());
}

#[test]
fn a_new_untitled_document_with_an_unknown_type_is_saved_as_with_it() {
    let c = clock();
    let fs = crate::fs::FakeFs::new();
    fs.mkdir("/w");
    let text = r#"{"name": "mine", "channels": {}, "nodes": [{"id": "a", "type": "their_type", "config": {}}], "edges": [{"from": "__start__", "to": "a"}]}"#;
    let mut s =
        Session::from_text(crate::DocId(1), None, text, registries(), std::sync::Arc::new(c)).expect("reads");
    assert!(s.path().is_none());
    let refused = save::save(&fs, &mut s).expect_err("no path yet");
    assert_eq!(refused.diagnostics[0].code, codes::NO_PATH);
    save::save_as(&fs, &mut s, &p("/w/mine.json")).expect("saved");
    assert_eq!(super::errors(s.diagnostics()).len(), 1, "{:?}", s.diagnostics());
    assert!(fs.get_string("/w/mine.json").expect("written").contains("their_type"));
    assert_eq!(s.path(), Some(Path::new("/w/mine.json")));
}

#[test]
fn a_position_the_file_cannot_hold_is_refused_naming_it_and_adds_no_problem() {
    let c = clock();
    let (fs, mut s) = opened_example(&c);
    let before = fs.get("/w/support.json");
    edit(&mut s, json!({"op": "rename_graph", "name": "mine"}));
    s.layout.positions.insert("classify".into(), crate::edit::Position { x: f64::NAN, y: 0.0 });
    let findings = s.diagnostics().to_vec();
    fs.clear_log();
    let refused = save::save(&fs, &mut s).expect_err("refused");
    assert_eq!(refused.diagnostics.len(), 1);
    assert_eq!(refused.diagnostics[0].code, codes::BAD_LAYOUT);
    assert!(refused.diagnostics[0].message.contains("\"classify\""), "{:?}", refused.diagnostics);
    assert_eq!(fs.get("/w/support.json"), before);
    assert!(fs.log().is_empty(), "nothing was written: {:?}", fs.log());
    assert!(s.is_dirty());
    assert_eq!(s.diagnostics(), findings.as_slice(), "a refusal is not a finding of the document");
}

#[test]
fn warnings_do_not_block_a_save() {
    let c = clock();
    let (fs, mut s) = opened_example(&c);
    // An unreachable node is a warning.
    edit(
        &mut s,
        json!({"op": "add_node", "id": "orphan", "type": "noop", "config": {}, "position": {"x": 0, "y": 0}}),
    );
    assert!(s.diagnostics().iter().any(|d| !d.is_error()));
    save::save(&fs, &mut s).expect("saved despite warnings");
}

#[test]
fn an_outside_change_is_a_conflict_and_nothing_is_written() {
    let c = clock();
    let (fs, mut s) = opened_example(&c);
    edit(&mut s, json!({"op": "rename_graph", "name": "mine"}));
    fs.modify("/w/support.json", "{\"name\": \"theirs\"}\n");
    fs.clear_log();
    let refused = save::save(&fs, &mut s).expect_err("conflict");
    assert!(refused.conflict);
    assert_eq!(refused.diagnostics[0].code, codes::CONFLICT);
    assert_eq!(fs.get_string("/w/support.json").as_deref(), Some("{\"name\": \"theirs\"}\n"));
    assert!(fs.log().is_empty());
    let conflict = s.conflict().expect("conflict data for compare");
    assert!(conflict.mine.contains("\"mine\""));
    assert!(conflict.theirs.contains("\"theirs\""));
    // Keep mine: the next save overwrites theirs.
    s.keep_mine();
    save::save(&fs, &mut s).expect("saved after keep mine");
    assert!(fs.get_string("/w/support.json").expect("file").contains("\"mine\""));
}

#[test]
fn take_theirs_reloads_and_is_undoable() {
    let c = clock();
    let (fs, mut s) = opened_example(&c);
    edit(&mut s, json!({"op": "rename_graph", "name": "mine"}));
    fs.modify("/w/support.json", "{\"name\": \"theirs\", \"nodes\": []}\n");
    save::save(&fs, &mut s).expect_err("conflict");
    let out = s.take_theirs().expect("reloads");
    assert!(out.changed.full);
    assert!(!s.is_dirty());
    assert_eq!(s.spec().expect("spec").name.as_deref(), Some("theirs"));
    s.undo();
    assert_eq!(s.spec().expect("spec").name.as_deref(), Some("mine"));
    assert!(s.is_dirty());
}

#[test]
fn a_touch_without_new_content_is_not_a_conflict() {
    let c = clock();
    let (fs, mut s) = opened_example(&c);
    edit(&mut s, json!({"op": "rename_graph", "name": "mine"}));
    fs.touch("/w/support.json");
    save::save(&fs, &mut s).expect("same bytes: no conflict");
}

#[test]
fn failure_at_each_atomic_step_leaves_the_old_file_intact() {
    for op in [FsOp::CreateTemp, FsOp::Write, FsOp::SetMode, FsOp::SyncFile, FsOp::Rename] {
        let c = clock();
        let (fs, mut s) = opened_example(&c);
        edit(&mut s, json!({"op": "rename_graph", "name": "new"}));
        fs.fail_next(op, ErrorKind::Other);
        let refused = save::save(&fs, &mut s).expect_err("fails");
        assert_eq!(refused.diagnostics[0].code, codes::WRITE_FAILED, "{op:?}");
        assert!(
            refused.diagnostics[0].message.contains(op.describe()),
            "{op:?}: {}",
            refused.diagnostics[0].message
        );
        assert_eq!(fs.get_string("/w/support.json").as_deref(), Some(EXAMPLE), "{op:?}");
        assert_eq!(fs.files(), vec![p("/w/support.json")], "{op:?}: no temporary file left");
        assert!(s.is_dirty(), "{op:?}");
        // The next save works and is not a conflict.
        save::save(&fs, &mut s).expect("retry works");
        assert!(fs.get_string("/w/support.json").expect("file").contains("\"new\""));
    }
}

#[test]
fn folder_sync_failure_saves_with_a_warning() {
    let c = clock();
    let (fs, mut s) = opened_example(&c);
    edit(&mut s, json!({"op": "rename_graph", "name": "new"}));
    fs.fail_next(FsOp::SyncDir, ErrorKind::Other);
    let out = save::save(&fs, &mut s).expect("saved");
    assert_eq!(out.warnings[0].code, codes::SYNC_FAILED);
    assert!(!s.is_dirty());
}

#[test]
fn layout_failure_keeps_the_document_saved_and_retries() {
    let c = clock();
    let (fs, mut s) = opened_example(&c);
    edit(&mut s, json!({"op": "rename_graph", "name": "new"}));
    // The second temporary file is the sidecar's.
    fs.fail_nth(FsOp::CreateTemp, 1, ErrorKind::PermissionDenied);
    let out = save::save(&fs, &mut s).expect("saved");
    assert_eq!(out.warnings[0].code, codes::LAYOUT_WRITE_FAILED);
    assert!(out.layout_path.is_none());
    assert!(s.layout_missing());
    assert!(fs.get("/w/support.layout.json").is_none());
    save::save(&fs, &mut s).expect("saved");
    assert!(fs.get("/w/support.layout.json").is_some());
}

#[test]
fn permissions_are_kept() {
    let c = clock();
    let fs = FakeFs::new();
    fs.put_with_mode("/w/support.json", EXAMPLE, 0o600);
    let mut s = Session::open(&fs, DocId(1), &p("/w/support.json"), registries(), Arc::new(c.clone()))
        .expect("opens");
    edit(&mut s, json!({"op": "rename_graph", "name": "x"}));
    save::save(&fs, &mut s).expect("saved");
    assert_eq!(fs.metadata(&p("/w/support.json")).expect("meta").mode, 0o600);
}

#[test]
fn a_symlink_is_kept_and_its_target_replaced() {
    let c = clock();
    let fs = FakeFs::new();
    fs.put("/real/support.json", EXAMPLE);
    fs.symlink("../real/support.json", "/w/support.json");
    let mut s = Session::open(&fs, DocId(1), &p("/w/support.json"), registries(), Arc::new(c.clone()))
        .expect("opens");
    edit(&mut s, json!({"op": "rename_graph", "name": "x"}));
    let out = save::save(&fs, &mut s).expect("saved");
    assert_eq!(out.target, "/real/support.json");
    assert!(fs.is_symlink("/w/support.json"));
    assert!(fs.get_string("/real/support.json").expect("target").contains("\"x\""));
    assert_eq!(out.layout_path.as_deref(), Some("/w/support.layout.json"));
}

#[test]
fn a_deleted_file_is_written_again() {
    let c = clock();
    let (fs, mut s) = opened_example(&c);
    fs.delete("/w/support.json");
    let out = save::save(&fs, &mut s).expect("saved");
    assert!(out.recreated);
    assert_eq!(fs.get_string("/w/support.json").as_deref(), Some(EXAMPLE));
}

#[test]
fn save_as_writes_the_new_file_and_moves_the_session() {
    let c = clock();
    let mut s = example_session(&c);
    let fs = FakeFs::new();
    fs.mkdir("/new");
    assert_eq!(save::save(&fs, &mut s).expect_err("no path").diagnostics[0].code, codes::NO_PATH);
    let out = save::save_as(&fs, &mut s, Path::new("/new/agent.json")).expect("saved");
    assert_eq!(out.path, "/new/agent.json");
    assert_eq!(fs.get_string("/new/agent.json").as_deref(), Some(EXAMPLE));
    assert!(fs.get("/new/agent.layout.json").is_some());
    assert_eq!(s.path(), Some(Path::new("/new/agent.json")));
    // Save As over an existing file the dialog confirmed: no conflict check.
    fs.put("/new/other.json", "{}");
    save::save_as(&fs, &mut s, Path::new("/new/other.json")).expect("overwrites");
    assert_eq!(fs.get_string("/new/other.json").as_deref(), Some(EXAMPLE));
}

/// A small document read from non-canonical text (a number written `1.50`).
const SMALL: &str = r#"{"name":"g","channels":{"v":{}},"nodes":[{"id":"a","type":"set_value","config":{"channel":"v","value":1.50}}],"edges":[{"from":"__start__","to":"a"}]}"#;

#[test]
fn the_bytes_written_are_exactly_the_canonical_text() {
    // A document read from non-canonical text is written in canonical form, number text kept.
    let c = clock();
    let fs = FakeFs::new();
    fs.put("/w/a.json", SMALL);
    let mut s =
        Session::open(&fs, DocId(1), &p("/w/a.json"), registries(), Arc::new(c.clone())).expect("opens");
    let expected = trellis_spec::writer::to_canonical_string(s.spec().expect("spec"));
    edit(&mut s, json!({"op": "rename_graph", "name": "h"}));
    save::save(&fs, &mut s).expect("saved");
    let written = fs.get_string("/w/a.json").expect("file");
    assert_eq!(written, expected.replace("\"g\"", "\"h\""));
    assert!(written.contains("1.50"));
}

/// Opens `text` as `/w/hand.json` (the example's registry, no sidecar).
fn opened_text(c: &crate::clock::ManualClock, text: &str) -> (FakeFs, Session) {
    let fs = FakeFs::new();
    fs.put("/w/hand.json", text);
    let s =
        Session::open(&fs, DocId(1), &p("/w/hand.json"), registries(), Arc::new(c.clone())).expect("opens");
    (fs, s)
}

#[test]
fn the_first_save_of_a_hand_formatted_file_counts_what_it_reformats_not_the_edits() {
    let c = clock();
    let canonical = opened_example(&c).1.text();
    // One blank line and one re-indented line: exactly two lines the writer changes.
    let mut lines: Vec<String> = canonical.lines().map(str::to_owned).collect();
    lines.insert(1, String::new());
    lines[2] = format!("\t{}", lines[2].trim_start());
    let hand = lines.join("\n") + "\n";
    let (fs, mut s) = opened_text(&c, &hand);
    // An edit changes lines too; they are the user's, not reformatting.
    edit(&mut s, json!({"op": "set_config_field", "id": "answer", "path": "/temperature", "value": 0.5}));
    let out = save::save(&fs, &mut s).expect("saved");
    assert_eq!(out.reformatted_lines, Some(2));
    // The file is canonical now: the next save reformats nothing.
    edit(&mut s, json!({"op": "set_config_field", "id": "answer", "path": "/temperature", "value": 0.25}));
    assert_eq!(save::save(&fs, &mut s).expect("saved").reformatted_lines, None);
}

#[test]
fn an_unedited_hand_formatted_file_counts_every_changed_line() {
    let c = clock();
    let canonical = opened_example(&c).1.text();
    // An odd indentation (canonical text indents by two): every indented line changes, and none
    // of them can match another canonical line by accident; the braces at column 0 do not change.
    let hand: String = canonical
        .lines()
        .map(|l| {
            let depth = l.len() - l.trim_start().len();
            format!("{}{}\n", " ".repeat(if depth == 0 { 0 } else { depth * 2 + 1 }), l.trim_start())
        })
        .collect();
    let expected = hand.lines().filter(|l| l.starts_with(' ')).count() as u64;
    assert!(expected > 20, "the example has nested lines: {expected}");
    let (fs, mut s) = opened_text(&c, &hand);
    let out = save::save(&fs, &mut s).expect("saved");
    assert_eq!(out.reformatted_lines, Some(expected));
    assert_eq!(fs.get_string("/w/hand.json").as_deref(), Some(canonical.as_str()));
}

#[test]
fn a_canonical_file_or_a_save_as_elsewhere_reformats_nothing() {
    let c = clock();
    let (fs, mut s) = opened_example(&c);
    edit(&mut s, json!({"op": "rename_graph", "name": "support"}));
    assert_eq!(save::save(&fs, &mut s).expect("saved").reformatted_lines, None);

    let hand = opened_example(&c).1.text().replace("\n  ", "\n   ");
    let (fs, mut s) = opened_text(&c, &hand);
    let out = save::save_as(&fs, &mut s, &p("/w/copy.json")).expect("saved");
    assert_eq!(out.reformatted_lines, None, "the file that was read is left as it was");
    assert_eq!(fs.get_string("/w/hand.json").as_deref(), Some(hand.as_str()));
}

#[test]
fn the_save_that_creates_the_layout_file_says_so_once() {
    let c = clock();
    let (fs, mut s) = opened_example(&c);
    assert!(!fs.exists(&p("/w/support.layout.json")));
    edit(&mut s, json!({"op": "move_nodes", "positions": {"classify": {"x": 10, "y": 20}}}));
    let first = save::save(&fs, &mut s).expect("saved");
    assert!(first.layout_created);
    assert_eq!(first.layout_path.as_deref(), Some("/w/support.layout.json"));
    edit(&mut s, json!({"op": "move_nodes", "positions": {"classify": {"x": 30, "y": 20}}}));
    let second = save::save(&fs, &mut s).expect("saved");
    assert!(!second.layout_created);
    assert_eq!(second.layout_path.as_deref(), Some("/w/support.layout.json"));
}

/// A GraphSpec opens with its configs kept as their text, so a save writes them without
/// keeping their values built; an edit drops the text of what it changed only, and the text
/// saved is the same either way.
#[test]
fn an_opened_graphspec_keeps_its_configs_as_text_until_they_are_edited() {
    let c = clock();
    let (fs, mut s) = opened_example(&c);
    let raw_configs = |s: &Session| match s.document() {
        Document::GraphSpec(spec) => spec.nodes.iter().filter(|n| n.config.raw_text().is_some()).count(),
        _ => 0,
    };
    let nodes = match s.document() {
        Document::GraphSpec(spec) => spec.nodes.len(),
        _ => 0,
    };
    assert!(nodes > 2);
    assert_eq!(raw_configs(&s), nodes, "every config is kept as text when opened");
    edit(&mut s, json!({"op": "set_config_field", "id": "answer", "path": "/temperature", "value": 0.125}));
    assert_eq!(raw_configs(&s), nodes - 1, "only the edited config lost its text");
    let expected = s.text();
    save::save(&fs, &mut s).expect("saved");
    assert_eq!(fs.get_string("/w/support.json").as_deref(), Some(expected.as_str()));
    assert!(expected.contains("\"temperature\": 0.125"));
}

/// Opening reads the document exactly as the tree of values reads it.
#[test]
fn the_opening_reads_what_the_tree_of_values_reads() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    let mut compared = 0;
    let mut folders = vec![root];
    while let Some(folder) = folders.pop() {
        for path in std::fs::read_dir(&folder).into_iter().flatten().flatten().map(|e| e.path()) {
            if path.is_dir() {
                folders.push(path);
                continue;
            }
            let Ok(text) = std::fs::read_to_string(&path) else { continue };
            let name = path.file_name().and_then(|n| n.to_str());
            let Ok((Document::GraphSpec(fast), findings)) = crate::document::parse_document(name, &text)
            else {
                continue;
            };
            let tree = trellis_spec::read::spec_from_value(trellis_spec::json::parse(&text).expect("json"));
            assert!(tree.spec.as_ref().is_some_and(|t| t.identical(&fast)), "{}", path.display());
            assert_eq!(findings.len(), tree.diagnostics.len(), "{}", path.display());
            compared += 1;
        }
    }
    assert!(compared >= 5, "only {compared} corpus documents compared");
}

#[test]
fn an_opened_file_keeps_its_text_as_read_and_bad_utf8_is_told_where() {
    // The bytes read become the session's source text without a copy (the text as read, hand
    // formatting and all, as `from_text` keeps it), and the document is the one that text gives.
    let c = clock();
    let fs = FakeFs::new();
    let hand = "{\n    \"name\": \"g\",\n    \"channels\": {},\n    \"nodes\": [],\n    \"edges\": []\n}\n";
    fs.put("/w/hand.json", hand);
    let s =
        Session::open(&fs, DocId(1), &p("/w/hand.json"), registries(), Arc::new(c.clone())).expect("opens");
    assert_eq!(s.source.as_deref(), Some(hand));
    let from_text = Session::from_text(DocId(2), Some("hand.json"), hand, registries(), Arc::new(c.clone()))
        .expect("reads");
    assert_eq!(from_text.source, s.source);
    assert_eq!(from_text.text(), s.text());

    // A byte that is not UTF-8 on line 3: refused with its place, nothing opened.
    let mut bad = b"{\n  \"name\": \"g\",\n  \"channels\": {\"".to_vec();
    bad.push(0xff);
    bad.extend_from_slice(b"\": {}},\n  \"nodes\": [],\n  \"edges\": []\n}\n");
    fs.put("/w/bad.json", &bad);
    let Err(ds) = Session::open(&fs, DocId(3), &p("/w/bad.json"), registries(), Arc::new(c.clone())) else {
        panic!("a file that is not UTF-8 must be refused")
    };
    assert_eq!(ds.len(), 1);
    assert_eq!(ds[0].code, trellis_spec::json::codes::INVALID_UTF8);
    assert!(ds[0].message.contains("line 3, column 17"), "{}", ds[0].message);
}

/// No temporary file of a save is left beside the document.
fn no_temporary_files(fs: &FakeFs) -> bool {
    fs.files().iter().all(|f| !f.to_string_lossy().contains(".trellis-tmp-"))
}

/// A large document opened from `/w/hand.json`, edited, and saved with `op` failing once on
/// the save's temporary file: the file system, the session, the text the file held, and the
/// refusal.
fn large_save_failing_on(
    c: &crate::clock::ManualClock,
    op: FsOp,
) -> (FakeFs, Session, String, save::SaveRefused) {
    let text = large_text(2_500, None);
    let (fs, mut s) = opened_text(c, &text);
    edit(&mut s, json!({"op": "rename_graph", "name": "not saved"}));
    fs.fail_next_on(op, "/.hand.json.trellis-tmp-", ErrorKind::Other);
    let refused = save::save(&fs, &mut s).expect_err("the save's file operation failed");
    (fs, s, text, refused)
}

/// A save that did not go ahead: `/w/hand.json` holds `text` as before, nothing is left beside
/// it, and the work is still unsaved.
fn left_as_it_was(fs: &FakeFs, s: &Session, text: &str) {
    assert_eq!(fs.get_string("/w/hand.json").as_deref(), Some(text));
    assert!(no_temporary_files(fs));
    assert!(s.is_dirty());
}

/// A large document is written while its text is checked and the file on disk read; the new
/// text is put in place only once both say so.
#[test]
fn a_large_document_is_written_beside_its_checks() {
    let c = clock();
    let text = large_text(2_500, None);
    assert!(text.len() > 1 << 20);
    let (fs, mut s) = opened_text(&c, &text);
    edit(&mut s, json!({"op": "rename_graph", "name": "large, renamed"}));
    let expected = s.text();
    let out = save::save(&fs, &mut s).expect("saved");
    assert_eq!(fs.get_string("/w/hand.json").as_deref(), Some(expected.as_str()));
    assert!(no_temporary_files(&fs));
    let (fp, _) =
        crate::fingerprint::Fingerprint::read(&fs, &p("/w/hand.json")).expect("read").expect("exists");
    assert_eq!(out.fingerprint, fp);
    assert!(!s.is_dirty());
    let layout = fs.get_string("/w/hand.layout.json").expect("the layout file is written too");
    assert_eq!(layout, s.layout_text());
    assert_eq!(out.layout_path.as_deref(), Some("/w/hand.layout.json"));

    // The layout file's write fails (its rename, the second of the save): the document is saved,
    // the layout file is retried on the next save, and nothing is left beside them.
    edit(&mut s, json!({"op": "rename_graph", "name": "again"}));
    fs.fail_nth(FsOp::Rename, 1, ErrorKind::Other);
    let out = save::save(&fs, &mut s).expect("saved");
    assert_eq!(out.layout_path, None);
    assert_eq!(out.warnings[0].code, codes::LAYOUT_WRITE_FAILED, "{:?}", out.warnings);
    assert!(s.layout_missing());
    assert!(no_temporary_files(&fs));
}

/// Changed outside while it was edited: the save is a conflict, the file keeps the other
/// program's text, and the new text written beside it is gone.
#[test]
fn a_large_documents_conflict_leaves_the_file_and_no_temporary_file() {
    let c = clock();
    let (fs, mut s) = opened_text(&c, &large_text(2_500, None));
    edit(&mut s, json!({"op": "rename_graph", "name": "mine"}));
    let theirs = large_text(2_600, None);
    fs.put("/w/hand.json", &theirs);
    let refused = save::save(&fs, &mut s).expect_err("a conflict");
    assert!(refused.conflict, "{:?}", refused.diagnostics);
    left_as_it_was(&fs, &s, &theirs);
}

/// A large document with an error is saved (side by side) with its error counted; one whose
/// text cannot hold a position, or whose write fails half way, is not saved: the file is as it
/// was, and nothing is left beside it.
#[test]
fn a_large_document_not_saved_leaves_the_file_and_no_temporary_file() {
    let c = clock();
    let text = large_text(2_500, Some(7));
    let (fs, mut s) = opened_text(&c, &text);
    edit(&mut s, json!({"op": "rename_graph", "name": "with an error"}));
    let expected = s.text();
    save::save(&fs, &mut s).expect("saved with its error");
    assert_eq!(super::errors(s.diagnostics()).len(), 1);
    assert_eq!(fs.get_string("/w/hand.json").as_deref(), Some(expected.as_str()));
    assert!(no_temporary_files(&fs));

    let (fs, mut s) = opened_text(&c, &text);
    edit(&mut s, json!({"op": "rename_graph", "name": "with a position no file holds"}));
    s.layout.positions.insert("step3".into(), crate::edit::Position { x: 0.0, y: f64::INFINITY });
    let refused = save::save(&fs, &mut s).expect_err("refused");
    assert_eq!(refused.diagnostics[0].code, codes::BAD_LAYOUT, "{:?}", refused.diagnostics);
    assert!(!refused.conflict);
    assert_eq!(fs.get_string("/w/hand.json").as_deref(), Some(text.as_str()));
    assert!(no_temporary_files(&fs));

    let (fs, mut s, text, refused) = large_save_failing_on(&c, FsOp::SyncFile);
    assert_eq!(refused.diagnostics[0].code, codes::WRITE_FAILED, "{:?}", refused.diagnostics);
    left_as_it_was(&fs, &s, &text);
    // The next save goes through.
    save::save(&fs, &mut s).expect("saved");
    assert!(no_temporary_files(&fs));
}

/// Saves of a large document one after another: the file holds exactly each new canonical text,
/// nothing of the one before, whether the text got shorter or longer.
#[test]
fn a_large_document_saved_again_and_again_holds_each_new_text() {
    let c = clock();
    let (fs, mut s) = opened_text(&c, &large_text(2_500, None));
    edit(&mut s, json!({"op": "rename_graph", "name": "first"}));
    save::save(&fs, &mut s).expect("saved");
    for (name, grows) in [("a much longer name than the one before", true), ("x", false)] {
        edit(&mut s, json!({"op": "rename_graph", "name": name}));
        let expected = s.text();
        save::save(&fs, &mut s).expect("saved");
        assert_eq!(fs.get_string("/w/hand.json").as_deref(), Some(expected.as_str()), "grows: {grows}");
    }
}

/// The new text cannot be read back: a large document's text is read back before it is put in
/// place, so nothing is saved and the file is as it was; a small one's is read back once in
/// place, so the save is not recorded (the document stays dirty, what is on disk is unknown).
/// Either way the next save goes through, and is not a conflict: the file holds its text.
#[test]
fn a_text_that_cannot_be_read_back_is_not_recorded_as_saved() {
    let c = clock();
    let (fs, mut s, text, refused) = large_save_failing_on(&c, FsOp::Read);
    assert_eq!(refused.diagnostics[0].code, codes::VERIFY_FAILED, "{:?}", refused.diagnostics);
    assert!(refused.diagnostics[0].message.contains("the file on disk is unchanged"));
    left_as_it_was(&fs, &s, &text);
    assert!(fs.get_string("/w/hand.layout.json").is_none(), "the layout file is not put in place either");
    let out = save::save(&fs, &mut s).expect("saved");
    let (fp, _) =
        crate::fingerprint::Fingerprint::read(&fs, &p("/w/hand.json")).expect("read").expect("exists");
    assert_eq!(out.fingerprint, fp, "the fingerprint read back beside the file is the saved file's");

    let fs = FakeFs::new();
    fs.put("/w/a.json", SMALL);
    let mut s =
        Session::open(&fs, DocId(1), &p("/w/a.json"), registries(), Arc::new(c.clone())).expect("opens");
    edit(&mut s, json!({"op": "rename_graph", "name": "h"}));
    // The first read is the conflict check, the second the read-back once in place.
    fs.fail_nth(FsOp::Read, 1, ErrorKind::Other);
    let refused = save::save(&fs, &mut s).expect_err("the read-back failed");
    assert_eq!(refused.diagnostics[0].code, codes::VERIFY_FAILED, "{:?}", refused.diagnostics);
    assert!(s.is_dirty());
    save::save(&fs, &mut s).expect("saved");
    assert!(!s.is_dirty());
}

/// A document with an escaped quote in an id is read back and saved.
#[test]
fn a_document_with_an_escaped_id_is_read_back_and_saved() {
    let c = clock();
    let id = "say \"hi\"";
    let spec = json!({
        "name": "declined",
        "channels": {},
        "nodes": [{"id": id, "type": "noop", "config": {"note": "n"}}],
        "edges": [{"from": "__start__", "to": id}, {"from": id, "to": "__end__"}],
    });
    let spec: trellis_spec::GraphSpec = serde_json::from_value(spec).expect("a GraphSpec");
    let text = trellis_spec::to_canonical_string(&spec);
    let (fs, mut s) = opened_text(&c, &text);
    edit(&mut s, json!({"op": "rename_graph", "name": "declined, renamed"}));
    save::save(&fs, &mut s).expect("saves");
    let saved = fs.get_string("/w/hand.json").expect("the file");
    let back = trellis_spec::read::parse_spec(&saved).spec.expect("reads");
    assert_eq!(back.name.as_deref(), Some("declined, renamed"));
    assert_eq!(back.nodes[0].id, id);
}

/// A hand-formatted file is marked on open with the lines its first save reformats (the save's
/// own count); `reformat` is a step of its own (dirty, undoable), after which the save writes
/// exactly the canonical text of the document as read. Refused once the document was edited
/// or the file is canonical; a canonical file is not marked.
#[test]
fn a_hand_formatted_file_is_marked_and_its_reformatting_is_a_step_of_its_own() {
    use crate::session::codes::{HAND_FORMATTED, NOTHING_TO_REFORMAT};
    let c = clock();
    let canonical = opened_example(&c).1.text();
    let mut lines: Vec<String> = canonical.lines().map(str::to_owned).collect();
    lines.insert(1, String::new());
    lines[2] = format!("\t{}", lines[2].trim_start());
    let hand = lines.join("\n") + "\n";
    let marked =
        |s: &Session| s.notices().iter().find(|n| n.code == HAND_FORMATTED).map(|n| n.message.clone());

    // Opened through the workspace, as the app does: the open's check learns the form.
    let fs = FakeFs::new();
    fs.put("/w/hand.json", &hand);
    let mut w = super::workspace(&fs, &c);
    let id = w.open(&p("/w/hand.json")).expect("opens");
    assert_eq!(
        marked(w.get(id).expect("doc")).as_deref(),
        Some("hand.json is not in canonical form: its first save will reformat 2 lines")
    );

    let (fs, mut s) = opened_text(&c, &hand);
    s.learn_source_form();
    assert!(marked(&s).is_some());
    assert!(!s.is_dirty());
    s.apply(&Edit::Reformat).expect("a step");
    assert!(s.is_dirty() && s.can_undo());
    assert_eq!(marked(&s), None, "the step is there: nothing more to offer");
    s.undo();
    assert!(!s.is_dirty());
    assert!(marked(&s).is_some(), "undone: offered again");
    s.redo();
    assert!(s.is_dirty());
    let out = save::save(&fs, &mut s).expect("saved");
    assert_eq!(out.reformatted_lines, Some(2));
    assert_eq!(fs.get_string("/w/hand.json").as_deref(), Some(canonical.as_str()), "the reformatting alone");
    assert_eq!(marked(&s), None);
    assert_eq!(s.apply(&Edit::Reformat).expect_err("canonical now").code, NOTHING_TO_REFORMAT);

    // Edited first: the reformatting can no longer be saved apart; the notice stays.
    let (_, mut s) = opened_text(&c, &hand);
    s.learn_source_form();
    edit(&mut s, json!({"op": "rename_graph", "name": "edited"}));
    assert_eq!(s.apply(&Edit::Reformat).expect_err("edited").code, NOTHING_TO_REFORMAT);
    assert!(marked(&s).is_some());

    // A canonical file is not marked.
    let (_, mut s) = opened_example(&c);
    s.learn_source_form();
    assert_eq!(marked(&s), None);
}
