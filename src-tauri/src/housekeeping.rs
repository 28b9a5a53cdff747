//! The background loop beside the UI: every 250 ms it writes the recovery journal (unsaved
//! work is on disk within a second of the edit), keeps the file watcher on the folders of the
//! open documents and their registries, and turns outside changes into document events.
//!
//! notify watches the *parent folder* of each file, not the file: an atomic save (ours or an
//! editor's) replaces the inode, and a watch on the old inode would go silent.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

use notify::event::{ModifyKind, RenameMode};
use notify::{EventKind, RecursiveMode};
use notify_debouncer_full::{new_debouncer, DebounceEventResult, DebouncedEvent};
use serde::Serialize;
use tauri::{AppHandle, Emitter, Manager};
use trellis_doc::FsChange;
use trellis_spec::Diagnostic;
use ts_rs::TS;

use crate::state::AppState;
use crate::ui_sync::{self, events};

const TICK: Duration = Duration::from_millis(250);
/// Events on one file closer together than this are merged (an editor's write-then-rename).
const DEBOUNCE: Duration = Duration::from_millis(150);

/// The `journal` event: problems writing the journal (shown once each), and how many
/// documents have unsaved work in it.
#[derive(Debug, Clone, Serialize, TS)]
#[ts(export)]
pub struct JournalState {
    pub problems: Vec<Diagnostic>,
}

/// Starts the loop on its own thread.
pub fn start(app: AppHandle) {
    let spawned = std::thread::Builder::new().name("trellis-housekeeping".into()).spawn(move || run(app));
    if let Err(e) = spawned {
        eprintln!("trellis: could not start the journal and watcher thread: {e}");
    }
}

fn run(app: AppHandle) {
    let (tx, rx) = channel::<DebounceEventResult>();
    let mut debouncer = match new_debouncer(DEBOUNCE, None, tx) {
        Ok(d) => Some(d),
        Err(e) => {
            eprintln!("trellis: file watching is off: {e}");
            None
        }
    };
    let mut watched: BTreeSet<PathBuf> = BTreeSet::new();
    let mut last_problems: Vec<String> = Vec::new();
    loop {
        std::thread::sleep(TICK);
        let state = app.state::<AppState>();
        // 1. Outside changes first, so the journal then writes the state after them.
        let changes = drain(&rx);
        if !changes.is_empty() {
            let mut ws = state.ws();
            let doc_events = ws.handle_fs_changes(&changes);
            if !doc_events.is_empty() {
                ui_sync::emit_doc_events(&app, &ws, &doc_events);
            }
        }
        // 2. The journal.
        let problems = state.ws().tick();
        let texts: Vec<String> = problems.iter().map(|d| d.message.clone()).collect();
        if texts != last_problems {
            last_problems = texts;
            let _ = app.emit(events::JOURNAL, JournalState { problems });
        }
        // 3. The watch set follows the open documents.
        if let Some(d) = debouncer.as_mut() {
            let want: BTreeSet<PathBuf> =
                state.ws().watched_paths().iter().filter_map(|p| watch_dir(p)).collect();
            for gone in watched.difference(&want) {
                let _ = d.unwatch(gone);
            }
            for dir in want.difference(&watched) {
                if let Err(e) = d.watch(dir, RecursiveMode::NonRecursive) {
                    eprintln!("trellis: cannot watch {}: {e}", dir.display());
                }
            }
            watched = want;
        }
    }
}

/// The folder to watch for a file.
fn watch_dir(file: &Path) -> Option<PathBuf> {
    let parent = file.parent()?;
    if parent.as_os_str().is_empty() {
        return Some(PathBuf::from("."));
    }
    parent.is_dir().then(|| parent.to_path_buf())
}

/// Everything the watcher reported since the last tick, as changed paths.
fn drain(rx: &Receiver<DebounceEventResult>) -> Vec<FsChange> {
    let mut out: Vec<FsChange> = Vec::new();
    while let Ok(result) = rx.try_recv() {
        let Ok(batch) = result else { continue };
        for ev in batch {
            to_changes(&ev, &mut out);
        }
    }
    out
}

fn to_changes(ev: &DebouncedEvent, out: &mut Vec<FsChange>) {
    match ev.event.kind {
        EventKind::Access(_) => {}
        EventKind::Modify(ModifyKind::Name(RenameMode::Both)) if ev.event.paths.len() == 2 => {
            let (from, to) = (&ev.event.paths[0], &ev.event.paths[1]);
            push(out, FsChange { path: from.clone(), renamed_to: Some(to.clone()) });
            // The destination may be an open file replaced atomically.
            push(out, FsChange::at(to.clone()));
        }
        _ => {
            for p in &ev.event.paths {
                push(out, FsChange::at(p.clone()));
            }
        }
    }
}

fn push(out: &mut Vec<FsChange>, change: FsChange) {
    if !out.contains(&change) {
        out.push(change);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use notify::event::{CreateKind, DataChange};
    use notify::Event;
    use std::time::Instant;

    fn ev(kind: EventKind, paths: &[&str]) -> DebouncedEvent {
        let mut e = Event::new(kind);
        for p in paths {
            e = e.add_path(PathBuf::from(p));
        }
        DebouncedEvent::new(e, Instant::now())
    }

    #[test]
    fn an_editor_atomic_save_reports_the_target() {
        // write temp, rename over: the rename names both; the target must be checked.
        let mut out = Vec::new();
        to_changes(&ev(EventKind::Create(CreateKind::File), &["/d/.g.json.tmp"]), &mut out);
        to_changes(
            &ev(EventKind::Modify(ModifyKind::Name(RenameMode::Both)), &["/d/.g.json.tmp", "/d/g.json"]),
            &mut out,
        );
        assert!(out.contains(&FsChange::at("/d/g.json")), "{out:?}");
        assert!(
            out.contains(&FsChange { path: "/d/.g.json.tmp".into(), renamed_to: Some("/d/g.json".into()) })
        );
    }

    #[test]
    fn changes_are_reported_once_and_reads_not_at_all() {
        let mut out = Vec::new();
        let write = EventKind::Modify(ModifyKind::Data(DataChange::Content));
        to_changes(&ev(write, &["/d/g.json"]), &mut out);
        to_changes(&ev(write, &["/d/g.json"]), &mut out);
        to_changes(&ev(EventKind::Access(notify::event::AccessKind::Read), &["/d/other.json"]), &mut out);
        assert_eq!(out, vec![FsChange::at("/d/g.json")]);
    }

    #[test]
    fn the_watched_folder_is_the_parent() {
        let dir = tempfile::tempdir().expect("tmp");
        let file = dir.path().join("g.json");
        assert_eq!(watch_dir(&file), Some(dir.path().to_path_buf()));
        assert_eq!(watch_dir(Path::new("/no/such/folder/g.json")), None);
    }
}
