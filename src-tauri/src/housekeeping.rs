//! The background loop beside the UI: every 250 ms it writes the recovery journal (unsaved
//! work is on disk within a second of the edit), keeps the file watcher
//! ([`trellis_doc::Watcher`], the one crates/doc tests on the real file system) on the folders
//! of the open documents and their registries, and turns outside changes into document events.

use std::sync::mpsc::Receiver;
use std::time::Duration;

use serde::Serialize;
use tauri::{AppHandle, Emitter, Manager};
use trellis_doc::{FsChange, Watcher};
use trellis_spec::Diagnostic;
use ts_rs::TS;

use crate::state::AppState;
use crate::ui_sync::{self, events};

const TICK: Duration = Duration::from_millis(250);

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
    let mut watcher = match Watcher::with_channel() {
        Ok(w) => Some(w),
        Err(e) => {
            eprintln!("trellis: file watching is off: {}", e.message);
            None
        }
    };
    let mut last_problems: Vec<String> = Vec::new();
    let mut watch_problems: Vec<String> = Vec::new();
    loop {
        std::thread::sleep(TICK);
        let state = app.state::<AppState>();
        // 1. Outside changes first, so the journal then writes the state after them.
        if let Some((_, rx)) = watcher.as_ref() {
            let changes = drain(rx);
            if !changes.is_empty() {
                let mut ws = state.ws();
                let doc_events = ws.handle_fs_changes(&changes);
                if !doc_events.is_empty() {
                    ui_sync::emit_doc_events(&app, &ws, &doc_events);
                }
            }
        }
        // 2. The journal: each entry due is taken from its document holding the workspace,
        // and written without it (an edit sent meanwhile does not wait for the disk).
        let (due, mut problems) = state.ws().journal_due();
        for w in due {
            let done = w.write();
            problems.extend(state.ws().journal_written(done));
        }
        let texts: Vec<String> = problems.iter().map(|d| d.message.clone()).collect();
        if texts != last_problems {
            last_problems = texts;
            let _ = app.emit(events::JOURNAL, JournalState { problems });
        }
        // 3. The watch set follows the open documents (a folder that cannot be watched is
        // retried every tick and told once).
        if let Some((w, _)) = watcher.as_mut() {
            let paths = state.ws().watched_paths();
            let texts: Vec<String> = w.set_paths(&paths).into_iter().map(|d| d.message).collect();
            for t in texts.iter().filter(|t| !watch_problems.contains(t)) {
                eprintln!("trellis: {t}");
            }
            watch_problems = texts;
        }
    }
}

/// Every batch the watcher delivered since the last tick, as one list, each path once.
fn drain(rx: &Receiver<Vec<FsChange>>) -> Vec<FsChange> {
    let mut out: Vec<FsChange> = Vec::new();
    for change in rx.try_iter().flatten() {
        if !out.contains(&change) {
            out.push(change);
        }
    }
    out
}
