//! Watching files with `notify` and its full debouncer.
//!
//! The parent folder of each watched file is watched (not the file): an atomic save, ours or
//! another editor's, replaces the file's inode, and a watch on the old inode would go deaf.
//! Events are filtered by name to the files asked for and delivered in batches as
//! [`FsChange`]s. What a change *means* (our own save, a reload, a conflict, a deletion) is
//! decided by [`crate::workspace::Workspace::handle_fs_changes`] against fingerprints, so
//! this module stays a thin, replaceable adapter.
//!
//! Typical use in the shell: `Watcher::new(callback)`, then after every open, close and save
//! `watcher.set_paths(&workspace.watched_paths())`; the callback locks the workspace, calls
//! `handle_fs_changes` and forwards the events to the UI.

use std::collections::{BTreeSet, HashSet};
use std::path::{Path, PathBuf};
use std::sync::mpsc::{channel, Receiver};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use notify::event::{ModifyKind, RenameMode};
use notify::{EventKind, RecursiveMode};
use notify_debouncer_full::{new_debouncer, DebounceEventResult, Debouncer, RecommendedCache};
use trellis_spec::Diagnostic;

use crate::fs::parent_dir;
use crate::workspace::FsChange;

/// Diagnostic codes of watching.
pub mod codes {
    /// A folder could not be watched (outside changes to files in it go unnoticed).
    pub const WATCH_FAILED: &str = "doc/watch-failed";
}

/// How long the debouncer gathers events before delivering them.
pub const DEBOUNCE: Duration = Duration::from_millis(150);

/// Watches the folders of a set of files.
pub struct Watcher {
    debouncer: Debouncer<notify::RecommendedWatcher, RecommendedCache>,
    /// The files of interest (shared with the event callback).
    files: Arc<Mutex<HashSet<PathBuf>>>,
    dirs: BTreeSet<PathBuf>,
}

impl std::fmt::Debug for Watcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Watcher").field("dirs", &self.dirs).finish_non_exhaustive()
    }
}

impl Watcher {
    /// A watcher calling `on_change` (on the debouncer's thread) with each batch of changes
    /// to the files set by [`Watcher::set_paths`].
    pub fn new(on_change: impl Fn(Vec<FsChange>) + Send + 'static) -> Result<Watcher, Diagnostic> {
        let files: Arc<Mutex<HashSet<PathBuf>>> = Arc::default();
        let filter = files.clone();
        let debouncer = new_debouncer(DEBOUNCE, None, move |result: DebounceEventResult| {
            let Ok(events) = result else {
                // notify reports errors (a watch limit, a removed folder) here; the next
                // `set_paths` retries the watches, and fingerprints catch up on save.
                return;
            };
            let wanted = filter.lock().unwrap_or_else(|p| p.into_inner()).clone();
            let mut changes: Vec<FsChange> = Vec::new();
            for event in events {
                let renamed = matches!(event.kind, EventKind::Modify(ModifyKind::Name(RenameMode::Both)));
                if renamed && event.paths.len() == 2 {
                    let (from, to) = (&event.paths[0], &event.paths[1]);
                    if wanted.contains(from) {
                        push(&mut changes, FsChange { path: from.clone(), renamed_to: Some(to.clone()) });
                    }
                    if wanted.contains(to) {
                        push(&mut changes, FsChange::at(to.clone()));
                    }
                    continue;
                }
                for p in &event.paths {
                    if wanted.contains(p) {
                        push(&mut changes, FsChange::at(p.clone()));
                    }
                }
            }
            if !changes.is_empty() {
                on_change(changes);
            }
        })
        .map_err(|e| Diagnostic::error(codes::WATCH_FAILED, format!("cannot start watching files: {e}")))?;
        Ok(Watcher { debouncer, files, dirs: BTreeSet::new() })
    }

    /// A watcher delivering batches on a channel (handy for tests and simple loops).
    pub fn with_channel() -> Result<(Watcher, Receiver<Vec<FsChange>>), Diagnostic> {
        let (tx, rx) = channel();
        let w = Watcher::new(move |batch| {
            let _ = tx.send(batch);
        })?;
        Ok((w, rx))
    }

    /// Sets the files to watch (absolute paths): watches their folders, stops watching
    /// folders no longer needed. Returns the folders that could not be watched.
    pub fn set_paths(&mut self, paths: &[PathBuf]) -> Vec<Diagnostic> {
        let wanted: HashSet<PathBuf> = paths.iter().cloned().collect();
        let dirs: BTreeSet<PathBuf> = paths.iter().map(|p| parent_dir(p)).collect();
        *self.files.lock().unwrap_or_else(|p| p.into_inner()) = wanted;
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

fn push(changes: &mut Vec<FsChange>, change: FsChange) {
    if let Some(existing) = changes.iter_mut().find(|c| c.path == change.path) {
        if change.renamed_to.is_some() {
            existing.renamed_to = change.renamed_to;
        }
    } else {
        changes.push(change);
    }
}
