//! Watching files with `notify` and its full debouncer: the one watcher of the app (the
//! shell's housekeeping loop drains it every tick) and of the tests.
//!
//! The parent folder of each watched file is watched (not the file): an atomic save, ours or
//! another editor's, replaces the file's inode, and a watch on the old inode would go deaf.
//! Every change in a watched folder is delivered, not only changes to the files asked for:
//! a file appearing beside a document can be a new registry or the target of a subgraph node.
//! What a change *means* (our own save, a reload, a conflict, a deletion, nothing) is decided
//! by [`crate::workspace::Workspace::handle_fs_changes`] against fingerprints, so this module
//! stays a thin, replaceable adapter.
//!
//! Typical use in the shell: `Watcher::with_channel()`, then on every tick
//! `watcher.set_paths(&workspace.watched_paths())` and hand what the channel holds to
//! `handle_fs_changes`.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

use notify::event::{ModifyKind, RenameMode};
use notify::{Event, EventKind, RecursiveMode};
use notify_debouncer_full::{new_debouncer, DebounceEventResult, Debouncer, RecommendedCache};
use trellis_spec::Diagnostic;

use crate::fs::parent_dir;
use crate::workspace::FsChange;

/// Diagnostic codes of watching.
pub mod codes {
    /// A folder could not be watched (outside changes to files in it go unnoticed).
    pub const WATCH_FAILED: &str = "doc/watch-failed";
}

/// How long the debouncer gathers events before delivering them: events on one file closer
/// together than this (an editor's write-then-rename) arrive in one batch.
pub const DEBOUNCE: Duration = Duration::from_millis(150);

/// Watches the folders of a set of files.
pub struct Watcher {
    debouncer: Debouncer<notify::RecommendedWatcher, RecommendedCache>,
    dirs: BTreeSet<PathBuf>,
}

impl std::fmt::Debug for Watcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Watcher").field("dirs", &self.dirs).finish_non_exhaustive()
    }
}

impl Watcher {
    /// A watcher calling `on_change` (on the debouncer's thread) with each batch of changes
    /// in the folders of the files set by [`Watcher::set_paths`].
    pub fn new(on_change: impl Fn(Vec<FsChange>) + Send + 'static) -> Result<Watcher, Diagnostic> {
        let debouncer = new_debouncer(DEBOUNCE, None, move |result: DebounceEventResult| {
            // notify reports errors (a watch limit, a removed folder) as `Err`; the next
            // `set_paths` retries the watches, and fingerprints catch up on save.
            let Ok(events) = result else { return };
            let changes = changes_of(events.iter().map(|e| &e.event));
            if !changes.is_empty() {
                on_change(changes);
            }
        })
        .map_err(|e| Diagnostic::error(codes::WATCH_FAILED, format!("cannot start watching files: {e}")))?;
        Ok(Watcher { debouncer, dirs: BTreeSet::new() })
    }

    /// A watcher delivering batches on a channel (the shell's loop and the tests drain it).
    pub fn with_channel() -> Result<(Watcher, Receiver<Vec<FsChange>>), Diagnostic> {
        let (tx, rx) = channel();
        let w = Watcher::new(move |batch| {
            let _ = tx.send(batch);
        })?;
        Ok((w, rx))
    }

    /// Sets the files to watch: watches their folders, stops watching folders no longer
    /// needed. A folder that does not exist (a deleted document's) is skipped until it comes
    /// back. Cheap when nothing changed, so it can be called on every tick. Returns the
    /// folders that could not be watched.
    pub fn set_paths(&mut self, paths: &[PathBuf]) -> Vec<Diagnostic> {
        let dirs: BTreeSet<PathBuf> = paths.iter().map(|p| parent_dir(p)).filter(|d| d.is_dir()).collect();
        let mut problems = Vec::new();
        for old in self.dirs.difference(&dirs).cloned().collect::<Vec<_>>() {
            let _ = self.debouncer.unwatch(&old);
            self.dirs.remove(&old);
        }
        for dir in dirs {
            if self.dirs.contains(&dir) {
                continue;
            }
            match self.debouncer.watch(&dir, RecursiveMode::NonRecursive) {
                Ok(()) => {
                    self.dirs.insert(dir);
                }
                Err(e) => problems.push(Diagnostic::warning(
                    codes::WATCH_FAILED,
                    format!("cannot watch {} for outside changes: {e}", dir.display()),
                )),
            }
        }
        problems
    }

    /// The folders being watched.
    pub fn watched_dirs(&self) -> Vec<&Path> {
        self.dirs.iter().map(PathBuf::as_path).collect()
    }
}

/// The changed paths a batch of events names, each once. Reads are not changes; a rename
/// names both ends, and the destination is reported as changed too (it may be an open file
/// replaced atomically).
fn changes_of<'a>(events: impl IntoIterator<Item = &'a Event>) -> Vec<FsChange> {
    let mut changes: Vec<FsChange> = Vec::new();
    for event in events {
        match event.kind {
            EventKind::Access(_) => {}
            EventKind::Modify(ModifyKind::Name(RenameMode::Both)) if event.paths.len() == 2 => {
                let (from, to) = (&event.paths[0], &event.paths[1]);
                push(&mut changes, FsChange { path: from.clone(), renamed_to: Some(to.clone()) });
                push(&mut changes, FsChange::at(to.clone()));
            }
            _ => {
                for p in &event.paths {
                    push(&mut changes, FsChange::at(p.clone()));
                }
            }
        }
    }
    changes
}

fn push(changes: &mut Vec<FsChange>, change: FsChange) {
    if let Some(existing) = changes.iter_mut().find(|c| c.path == change.path) {
        if change.renamed_to.is_some() {
            existing.renamed_to = change.renamed_to;
        }
    } else {
        changes.push(change);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use notify::event::{AccessKind, CreateKind, DataChange};

    fn ev(kind: EventKind, paths: &[&str]) -> Event {
        paths.iter().fold(Event::new(kind), |e, p| e.add_path(PathBuf::from(p)))
    }

    #[test]
    fn an_editor_atomic_save_reports_the_target_and_the_move() {
        // Write a temporary file, rename it over: the rename names both; the target is checked.
        let events = [
            ev(EventKind::Create(CreateKind::File), &["/d/.g.json.tmp"]),
            ev(EventKind::Modify(ModifyKind::Name(RenameMode::Both)), &["/d/.g.json.tmp", "/d/g.json"]),
        ];
        let out = changes_of(&events);
        assert!(out.contains(&FsChange::at("/d/g.json")), "{out:?}");
        assert!(
            out.contains(&FsChange { path: "/d/.g.json.tmp".into(), renamed_to: Some("/d/g.json".into()) }),
            "{out:?}"
        );
        assert_eq!(out.len(), 2, "each path once: {out:?}");
    }

    #[test]
    fn changes_are_reported_once_and_reads_not_at_all() {
        let write = EventKind::Modify(ModifyKind::Data(DataChange::Content));
        let events = [
            ev(write, &["/d/g.json"]),
            ev(write, &["/d/g.json"]),
            ev(EventKind::Access(AccessKind::Read), &["/d/other.json"]),
        ];
        assert_eq!(changes_of(&events), vec![FsChange::at("/d/g.json")]);
    }

    #[test]
    fn a_file_appearing_beside_a_watched_one_is_reported() {
        // A new registry or a subgraph's target: the workspace decides what it means.
        let events = [ev(EventKind::Create(CreateKind::File), &["/d/team.registry.json"])];
        assert_eq!(changes_of(&events), vec![FsChange::at("/d/team.registry.json")]);
    }

    #[test]
    fn the_watched_folder_is_the_parent_and_a_missing_one_is_skipped() {
        let dir = tempfile::tempdir().expect("tmp");
        let (mut w, _rx) = Watcher::with_channel().expect("watcher");
        let problems = w.set_paths(&[dir.path().join("g.json"), PathBuf::from("/no/such/folder/g.json")]);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(w.watched_dirs(), vec![dir.path()]);
        // Dropping the file from the set stops watching its folder.
        assert!(w.set_paths(&[]).is_empty());
        assert!(w.watched_dirs().is_empty());
    }
}
