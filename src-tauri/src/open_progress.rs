//! Progress of an open, told to the UI while a large file is read and laid out (a user's
//! 100,000-node file has no layout of its own and takes seconds), and stopped by the same
//! cancel as the automatic layout (`auto_layout::cancel_layout`). Every open path (the Open
//! dialog, the recent list, a drop) goes through `commands::open_path`, which uses this.

use std::path::Path;

use serde::Serialize;
use tauri::{AppHandle, Emitter};
use trellis_doc::OpenStage;
use ts_rs::TS;

use crate::auto_layout;

/// The event carrying an open's progress.
pub const OPEN_PROGRESS: &str = "open-progress";

/// Where an open is; the last one of an open has `done` set (opened, refused or stopped).
#[derive(Debug, Clone, Serialize, TS)]
#[ts(export)]
#[serde(rename_all = "camelCase")]
pub struct OpenProgress {
    pub file_name: String,
    /// `reading` or `layingOut`.
    pub stage: String,
    /// The document's node count once it is read (0 while reading).
    pub nodes: usize,
    /// In [0, 1] while laying out; 0 while reading.
    pub fraction: f64,
    pub done: bool,
}

/// Calls `open` with a progress function that emits [`OPEN_PROGRESS`] (at most every 2 % of
/// the layout) and answers false once the user has cancelled; emits the `done` event after.
pub fn with_progress<T>(
    app: &AppHandle,
    path: &Path,
    open: impl FnOnce(&mut dyn FnMut(OpenStage) -> bool) -> T,
) -> T {
    let file_name = path.file_name().unwrap_or(path.as_os_str()).to_string_lossy().into_owned();
    let generation = auto_layout::start();
    let emit = |stage: &str, nodes: usize, fraction: f64, done: bool| {
        let event =
            OpenProgress { file_name: file_name.clone(), stage: stage.to_owned(), nodes, fraction, done };
        let _ = app.emit(OPEN_PROGRESS, event);
    };
    let mut last = -1.0;
    let answer = open(&mut |stage| {
        match stage {
            OpenStage::Reading => emit("reading", 0, 0.0, false),
            OpenStage::LayingOut { nodes, fraction } => {
                if fraction - last >= 0.02 || fraction >= 1.0 {
                    last = fraction;
                    emit("layingOut", nodes, fraction, false);
                }
            }
        }
        auto_layout::is_current(generation)
    });
    emit("done", 0, 1.0, true);
    answer
}
