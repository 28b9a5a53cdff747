use std::path::PathBuf;

use serde_json::json;

use super::*;
use crate::edit::Edit;
use crate::fs::FileSystem;
use crate::journal::MIN_INTERVAL_MS;

fn edit(w: &mut Workspace, id: DocId, v: serde_json::Value) {
    w.apply(id, &serde_json::from_value::<Edit>(v).expect("edit")).expect("applies");
}

#[test]
fn unsaved_work_is_journaled_within_a_second_and_restored_after_a_crash() {
    let c = clock();
    let fs = FakeFs::new();
    fs.put("/w/support.json", EXAMPLE);
    let mut w = workspace(&fs, &c);
    let id = w.open(&PathBuf::from("/w/support.json")).expect("opens");
    assert!(w.tick().is_empty());
    assert!(w.journal().pending().0.is_empty(), "a clean document has no entry");
    edit(&mut w, id, json!({"op": "rename_graph", "name": "unsaved"}));
    edit(&mut w, id, json!({"op": "move_nodes", "positions": {"answer": {"x": 7, "y": 8}}}));
    // The app ticks every 250 ms: the entry is on disk by the first tick.
    c.advance(250);
    assert!(w.tick().is_empty());
    let (entries, problems) = w.journal().pending();
    assert!(problems.is_empty());
    assert_eq!(entries.len(), 1);
    assert!(entries[0].text.contains("\"unsaved\""));
    assert_eq!(entries[0].path.as_deref(), Some("/w/support.json"));
    let entry_file = fs.files().into_iter().find(|p| p.starts_with("/data/journal")).expect("entry file");
    assert_eq!(fs.metadata(&entry_file).map(|m| m.mode).ok(), Some(0o600), "private");

    // Typing keeps the entry at most MIN_INTERVAL_MS behind.
    edit(&mut w, id, json!({"op": "rename_graph", "name": "unsaved-2"}));
    c.advance(100);
    w.tick();
    assert!(w.journal().pending().0[0].text.contains("\"unsaved\""), "rate limited");
    c.advance(MIN_INTERVAL_MS);
    w.tick();
    assert!(w.journal().pending().0[0].text.contains("\"unsaved-2\""));

    // "Crash": drop the workspace without saving; a new one finds the entry.
    drop(w);
    let mut w2 = workspace(&fs, &c);
    let (pending, _) = w2.pending_recovery();
    assert_eq!(pending.len(), 1);
    let restored = w2.restore(&pending[0].key).expect("restores");
    let s = w2.get(restored).expect("open");
    assert!(s.is_dirty());
    assert_eq!(s.spec().and_then(|sp| sp.name.clone()).as_deref(), Some("unsaved-2"));
    assert_eq!(s.layout().positions["answer"].x, 7.0);
    assert_eq!(s.path(), Some(std::path::Path::new("/w/support.json")));
    assert!(w2.pending_recovery().0.is_empty(), "an entry in use is not offered again");
    // Saving clears the entry.
    w2.save(restored).expect("saves: the file did not change since");
    assert!(w2.journal().pending().0.is_empty());
    assert!(fs.get_string("/w/support.json").expect("file").contains("unsaved-2"));
}

#[test]
fn work_with_errors_is_journaled_and_a_save_of_restored_work_detects_outside_changes() {
    let c = clock();
    let fs = FakeFs::new();
    fs.put("/w/support.json", EXAMPLE);
    let mut w = workspace(&fs, &c);
    let id = w.open(&PathBuf::from("/w/support.json")).expect("opens");
    edit(&mut w, id, json!({"op": "set_node_type", "id": "answer", "type": "nope"}));
    c.advance(600);
    w.tick();
    let entry = w.journal().pending().0.pop().expect("entry");
    assert!(entry.has_errors);
    drop(w);
    // Someone changes the file between the crash and the restore.
    fs.modify("/w/support.json", "{\"name\": \"other\"}\n");
    let mut w2 = workspace(&fs, &c);
    let id = w2.restore(&entry.key).expect("restores");
    assert!(!errors(w2.get(id).expect("doc").diagnostics()).is_empty());
    edit(&mut w2, id, json!({"op": "set_node_type", "id": "answer", "type": "llm"}));
    let refused = w2.save(id).expect_err("conflict");
    assert!(refused.conflict);
    assert_eq!(fs.get_string("/w/support.json").as_deref(), Some("{\"name\": \"other\"}\n"));
}

#[test]
fn discard_and_clean_documents_clear_entries() {
    let c = clock();
    let fs = FakeFs::new();
    let mut w = workspace(&fs, &c);
    let id = w.new_from_example().expect("new");
    edit(&mut w, id, json!({"op": "rename_graph", "name": "draft"}));
    c.advance(600);
    w.tick();
    assert_eq!(w.journal().pending().0.len(), 1);
    // Undo back to the clean state: the entry goes at the next tick.
    w.undo(id).expect("undo");
    c.advance(600);
    w.tick();
    assert!(w.journal().pending().0.is_empty());
    edit(&mut w, id, json!({"op": "rename_graph", "name": "draft"}));
    c.advance(600);
    w.tick();
    drop(w);
    let mut w2 = workspace(&fs, &c);
    let (pending, _) = w2.pending_recovery();
    assert_eq!(pending.len(), 1);
    assert!(pending[0].path.is_none());
    w2.discard_recovery(&pending[0].key).expect("discard");
    assert!(w2.pending_recovery().0.is_empty());
}

#[test]
fn damaged_entries_are_reported_and_skipped() {
    let c = clock();
    let fs = FakeFs::new();
    fs.put("/data/journal/bad.json", "{not json");
    fs.put("/data/journal/.tmp-partial", "x");
    let w = workspace(&fs, &c);
    let (entries, problems) = w.pending_recovery();
    assert!(entries.is_empty());
    assert_eq!(problems.len(), 1);
    assert_eq!(problems[0].code, crate::journal::codes::BAD_ENTRY);
}

#[test]
fn journal_write_failures_are_reported_and_retried() {
    let c = clock();
    let fs = FakeFs::new();
    let mut w = workspace(&fs, &c);
    let id = w.new_from_example().expect("new");
    edit(&mut w, id, json!({"op": "rename_graph", "name": "draft"}));
    fs.fail_next(crate::fs::FsOp::Write, std::io::ErrorKind::StorageFull);
    c.advance(600);
    let problems = w.tick();
    assert_eq!(problems[0].code, crate::journal::codes::WRITE_FAILED);
    assert!(w.journal().pending().0.is_empty());
    c.advance(600);
    assert!(w.tick().is_empty());
    assert_eq!(w.journal().pending().0.len(), 1);
}

#[test]
fn opening_the_file_instead_of_restoring_keeps_the_entry_offered() {
    let c = clock();
    let fs = FakeFs::new();
    fs.put("/w/support.json", EXAMPLE);
    let mut w = workspace(&fs, &c);
    let id = w.open(&PathBuf::from("/w/support.json")).expect("opens");
    edit(&mut w, id, json!({"op": "rename_graph", "name": "crashed work"}));
    c.advance(600);
    w.tick();
    drop(w);
    // The next run opens the file directly and edits it: the old entry must survive.
    let mut w2 = workspace(&fs, &c);
    let id = w2.open(&PathBuf::from("/w/support.json")).expect("opens");
    edit(&mut w2, id, json!({"op": "rename_graph", "name": "new work"}));
    c.advance(600);
    w2.tick();
    let (pending, _) = w2.pending_recovery();
    assert_eq!(pending.len(), 1);
    assert!(pending[0].text.contains("crashed work"));
    let refused = w2.restore(&pending[0].key).expect_err("the file is open");
    assert_eq!(refused[0].code, crate::workspace::codes::ALREADY_OPEN);
    w2.close(id, true).expect("close");
    let restored = w2.restore(&pending[0].key).expect("restores now");
    assert!(w2.get(restored).expect("doc").text().contains("crashed work"));
}

/// A file system whose fsync of journal files takes `ms` (a large document's entry).
#[derive(Debug)]
struct SlowJournal {
    fs: FakeFs,
    ms: u64,
}

impl FileSystem for SlowJournal {
    fn read(&self, p: &std::path::Path) -> std::io::Result<Vec<u8>> {
        self.fs.read(p)
    }
    fn metadata(&self, p: &std::path::Path) -> std::io::Result<crate::fs::Metadata> {
        self.fs.metadata(p)
    }
    fn symlink_metadata(&self, p: &std::path::Path) -> std::io::Result<crate::fs::Metadata> {
        self.fs.symlink_metadata(p)
    }
    fn read_dir(&self, p: &std::path::Path) -> std::io::Result<Vec<PathBuf>> {
        self.fs.read_dir(p)
    }
    fn canonicalize(&self, p: &std::path::Path) -> std::io::Result<PathBuf> {
        self.fs.canonicalize(p)
    }
    fn resolve_symlink(&self, p: &std::path::Path) -> std::io::Result<PathBuf> {
        self.fs.resolve_symlink(p)
    }
    fn create_temp(&self, dir: &std::path::Path, prefix: &str) -> std::io::Result<PathBuf> {
        self.fs.create_temp(dir, prefix)
    }
    fn write(&self, p: &std::path::Path, bytes: &[u8]) -> std::io::Result<()> {
        self.fs.write(p, bytes)
    }
    fn set_mode(&self, p: &std::path::Path, mode: u32) -> std::io::Result<()> {
        self.fs.set_mode(p, mode)
    }
    fn sync_file(&self, p: &std::path::Path) -> std::io::Result<()> {
        if p.starts_with("/data/journal") {
            std::thread::sleep(std::time::Duration::from_millis(self.ms));
        }
        self.fs.sync_file(p)
    }
    fn rename(&self, from: &std::path::Path, to: &std::path::Path) -> std::io::Result<()> {
        self.fs.rename(from, to)
    }
    fn sync_dir(&self, dir: &std::path::Path) -> std::io::Result<()> {
        self.fs.sync_dir(dir)
    }
    fn remove(&self, p: &std::path::Path) -> std::io::Result<()> {
        self.fs.remove(p)
    }
    fn create_dir_all(&self, p: &std::path::Path) -> std::io::Result<()> {
        self.fs.create_dir_all(p)
    }
}

#[test]
fn a_slow_journal_entry_waits_for_the_editing_to_rest_but_not_for_ever() {
    use crate::workspace::{MAX_JOURNAL_DELAY_MS, REST_PER_WRITE_MS};
    let c = clock();
    let fs = FakeFs::new();
    fs.put("/w/support.json", EXAMPLE);
    let slow = SlowJournal { fs: fs.clone(), ms: 30 };
    let mut w = Workspace::new(
        std::sync::Arc::new(slow),
        std::sync::Arc::new(c.clone()),
        &PathBuf::from("/data"),
        builtin_loader(),
    );
    let id = w.open(&PathBuf::from("/w/support.json")).expect("opens");
    let name = |w: &Workspace| w.journal().pending().0.first().map(|e| e.text.clone()).unwrap_or_default();
    edit(&mut w, id, json!({"op": "rename_graph", "name": "first"}));
    c.advance(600);
    w.tick();
    // The first entry is written at once (its cost is not known yet): 30 ms or more.
    assert!(name(&w).contains("\"first\""));
    // Now an entry costs >= 30 ms: while edits keep coming it waits ...
    edit(&mut w, id, json!({"op": "rename_graph", "name": "second"}));
    c.advance(MIN_INTERVAL_MS);
    edit(&mut w, id, json!({"op": "rename_graph", "name": "third"}));
    w.tick();
    assert!(name(&w).contains("\"first\""), "written while the editing goes on");
    // ... until the editing rests about four times the write's cost.
    c.advance(30 * REST_PER_WRITE_MS - 10);
    w.tick();
    assert!(name(&w).contains("\"first\""), "rested too briefly");
    c.advance(2_000);
    w.tick();
    assert!(name(&w).contains("\"third\""), "rested: written");
    // Editing without a pause: written anyway once a change has waited MAX_JOURNAL_DELAY_MS.
    let mut k = 0;
    let mut waited = 0;
    while !name(&w).contains("\"again-") {
        edit(&mut w, id, json!({"op": "rename_graph", "name": format!("again-{k}")}));
        w.tick();
        c.advance(50);
        waited += 50;
        k += 1;
        assert!(waited <= MAX_JOURNAL_DELAY_MS + 300, "never written while editing");
    }
    assert!(waited >= MAX_JOURNAL_DELAY_MS - 300, "written after {waited} ms of editing");
}

#[test]
fn a_large_documents_first_entry_waits_for_the_editing_to_rest() {
    // 5,000 nodes, about 2.7 MB: an entry is expected to cost about 50 ms before one was
    // written, so the first change waits about 200 ms of rest (a small document's is written at
    // the next tick: the test above).
    let c = clock();
    let fs = FakeFs::new();
    fs.put("/w/large.json", large_text(5_000, None));
    let mut w = workspace(&fs, &c);
    let id = w.open(&PathBuf::from("/w/large.json")).expect("opens");
    let written = |w: &Workspace| w.journal().pending().0.len();
    c.advance(MIN_INTERVAL_MS);
    edit(&mut w, id, json!({"op": "rename_graph", "name": "first"}));
    c.advance(100);
    w.tick();
    assert_eq!(written(&w), 0, "taken 100 ms after the change, while the user goes on");
    c.advance(200);
    w.tick();
    assert_eq!(written(&w), 1, "written once the editing rested");
}

#[test]
fn an_entry_written_outside_the_workspace_is_recorded_or_cleared_by_what_happened_meanwhile() {
    // The app takes the entries due holding the workspace and writes them without it; the
    // document may be edited, saved, saved under another name or closed in between.
    let c = clock();
    let fs = FakeFs::new();
    fs.put("/w/support.json", EXAMPLE);
    let mut w = workspace(&fs, &c);
    let id = w.open(&PathBuf::from("/w/support.json")).expect("opens");
    let entries = |w: &Workspace| w.journal().pending().0;

    // Edited while the entry is on its way: the entry is the state taken, and the next tick
    // writes the newer one.
    edit(&mut w, id, json!({"op": "rename_graph", "name": "taken"}));
    c.advance(250);
    let (due, problems) = w.journal_due();
    assert!(problems.is_empty());
    assert_eq!(due.len(), 1);
    edit(&mut w, id, json!({"op": "rename_graph", "name": "after"}));
    let done: Vec<_> = due.into_iter().map(|d| d.write()).collect();
    for d in done {
        assert!(w.journal_written(d).is_none());
    }
    assert!(entries(&w)[0].text.contains("\"taken\""));
    c.advance(MIN_INTERVAL_MS);
    assert!(w.tick().is_empty());
    assert!(entries(&w)[0].text.contains("\"after\""), "the newer state follows");

    // Saved while the entry is on its way: the entry written for work now saved goes at the
    // next tick.
    edit(&mut w, id, json!({"op": "rename_graph", "name": "saved soon"}));
    c.advance(MIN_INTERVAL_MS);
    let (due, _) = w.journal_due();
    assert_eq!(due.len(), 1);
    w.save(id).expect("saves");
    assert!(entries(&w).is_empty(), "the save removed the entry");
    for d in due {
        assert!(w.journal_written(d.write()).is_none());
    }
    assert_eq!(entries(&w).len(), 1, "the late write put one back");
    assert!(w.tick().is_empty());
    assert!(entries(&w).is_empty(), "and the next tick removes it: the work is saved");

    // Saved under another name meanwhile: the entry under the old key is removed at once.
    edit(&mut w, id, json!({"op": "rename_graph", "name": "moving"}));
    c.advance(MIN_INTERVAL_MS);
    let (due, _) = w.journal_due();
    assert_eq!(due.len(), 1);
    w.save_as(id, &PathBuf::from("/w/elsewhere.json")).expect("saves as");
    for d in due {
        assert!(w.journal_written(d.write()).is_none());
    }
    assert!(entries(&w).is_empty(), "no entry is left under the old name");

    // Closed (discarding) meanwhile: the entry written is removed at once.
    edit(&mut w, id, json!({"op": "rename_graph", "name": "dropped"}));
    c.advance(MIN_INTERVAL_MS);
    let (due, _) = w.journal_due();
    assert_eq!(due.len(), 1);
    w.close(id, true).expect("closes");
    for d in due {
        assert!(w.journal_written(d.write()).is_none());
    }
    assert!(entries(&w).is_empty(), "a closed document leaves no entry");
    assert!(w.journal().pending().1.is_empty());
}
