//! Watching on the real file system: an outside edit in place, an outside atomic replace
//! (write a temporary file, rename it over), a delete, and our own save (not reported as an
//! outside change). Waits are bounded: each step waits for the watcher's batch that names
//! the file, up to a deadline, instead of sleeping a fixed time.

use std::path::Path;
use std::sync::mpsc::Receiver;
use std::sync::Arc;
use std::time::{Duration, Instant};

use trellis_doc::edit::Edit;
use trellis_doc::workspace::{builtin_loader, DocEvent, FsChange, Workspace, EXAMPLE};
use trellis_doc::{DocId, RealFs, SystemClock, Watcher};

const DEADLINE: Duration = Duration::from_secs(10);

/// Handles batches naming `path` until `done` accepts the events of one, or the deadline.
fn until(
    rx: &Receiver<Vec<FsChange>>,
    w: &mut Workspace,
    path: &Path,
    what: &str,
    mut done: impl FnMut(&[DocEvent]) -> bool,
) {
    let end = Instant::now() + DEADLINE;
    loop {
        let left = end.saturating_duration_since(Instant::now());
        let batch = rx
            .recv_timeout(left)
            .unwrap_or_else(|_| panic!("no watcher event for {what} within {DEADLINE:?}"));
        if !batch.iter().any(|c| c.path == path) {
            continue;
        }
        let events = w.handle_fs_changes(&batch);
        if done(&events) {
            return;
        }
    }
}

fn setup() -> (tempfile::TempDir, Workspace, DocId, Watcher, Receiver<Vec<FsChange>>) {
    let dir = tempfile::tempdir().expect("tempdir");
    // Canonical path: the watcher reports paths under the folder it was given.
    let root = dir.path().canonicalize().expect("canonical");
    let path = root.join("support.json");
    std::fs::write(&path, EXAMPLE).expect("seed");
    let mut w = Workspace::new(Arc::new(RealFs), Arc::new(SystemClock), &root.join("data"), builtin_loader());
    let id = w.open(&path).expect("opens");
    let (mut watcher, rx) = Watcher::with_channel().expect("watcher");
    assert!(watcher.set_paths(&w.watched_paths()).is_empty());
    (dir, w, id, watcher, rx)
}

#[test]
fn watching_sees_outside_changes_and_not_our_own_saves() {
    let (dir, mut w, id, _watcher, rx) = setup();
    let path = dir.path().canonicalize().expect("canonical").join("support.json");

    // Our own save: the watcher sees the write, the fingerprint recognizes it.
    w.apply(id, &Edit::RenameGraph { name: Some("ours".into()) }).expect("edit");
    w.save(id).expect("save");
    until(&rx, &mut w, &path, "our own save", |events| {
        assert!(events.is_empty(), "our own save was reported as an outside change: {events:?}");
        true
    });
    assert!(!w.get(id).expect("doc").is_dirty());

    // An outside edit in place (same inode).
    std::fs::write(&path, EXAMPLE.replace("support-agent", "in-place")).expect("write");
    until(&rx, &mut w, &path, "an in-place edit", |events| {
        events.iter().any(|e| matches!(e, DocEvent::Reloaded { .. }))
    });
    assert_eq!(w.get(id).and_then(|s| s.spec()).and_then(|s| s.name.as_deref()), Some("in-place"));

    // An outside atomic replace: a temporary file renamed over the document.
    let temp = path.with_file_name(".support.json.swp");
    std::fs::write(&temp, EXAMPLE.replace("support-agent", "replaced")).expect("write temp");
    std::fs::rename(&temp, &path).expect("rename over");
    until(&rx, &mut w, &path, "an atomic replace", |events| {
        events.iter().any(|e| matches!(e, DocEvent::Reloaded { .. }))
    });
    assert_eq!(w.get(id).and_then(|s| s.spec()).and_then(|s| s.name.as_deref()), Some("replaced"));
    // Still watching after the inode changed: one more in-place edit, while dirty.
    w.apply(id, &Edit::RenameGraph { name: Some("mine".into()) }).expect("edit");
    std::fs::write(&path, EXAMPLE.replace("support-agent", "theirs")).expect("write");
    until(&rx, &mut w, &path, "an edit while dirty", |events| {
        events.iter().any(|e| matches!(e, DocEvent::Conflict { .. }))
    });
    assert!(w.get(id).expect("doc").conflict().is_some());
    assert!(w.save(id).is_err(), "a conflict writes nothing");
    assert!(std::fs::read_to_string(&path).expect("read").contains("theirs"));
    w.take_theirs(id).expect("take theirs");

    // A delete: the document stays open and dirty.
    std::fs::remove_file(&path).expect("delete");
    until(&rx, &mut w, &path, "a delete", |events| events.iter().any(|e| matches!(e, DocEvent::Gone { .. })));
    let s = w.get(id).expect("still open");
    assert!(s.is_dirty());
    assert!(!s.notices().is_empty());
}
