//! The "Auto layout" action: the document's canvas laid out by `trellis-layout` on a worker
//! thread (never the UI's or the main thread), with progress events, cancellable. The answer
//! is the positions; the UI applies them as one `apply_layout` edit (one undo step).

use std::sync::atomic::{AtomicU64, Ordering};

use indexmap::IndexMap;
use serde::Serialize;
use tauri::{AppHandle, Emitter, State};
use trellis_doc::auto_layout::CanvasGraph;
use trellis_doc::Position;
use ts_rs::TS;

use crate::answer::{parse_id, CommandError};
use crate::state::AppState;

/// The event carrying a running layout's progress.
pub const LAYOUT_PROGRESS: &str = "layout-progress";

/// A running layout's progress, at most every 2 % of the work.
#[derive(Debug, Clone, Serialize, TS)]
#[ts(export)]
#[serde(rename_all = "camelCase")]
pub struct LayoutProgress {
    pub doc_id: String,
    /// In [0, 1].
    pub fraction: f64,
}

/// Bumped by every start and every cancel: a layout (or an open laying out) goes on while the
/// number is its own.
static GENERATION: AtomicU64 = AtomicU64::new(0);

/// A new generation for work that [`cancel_layout`] (or a newer start) stops.
pub fn start() -> u64 {
    GENERATION.fetch_add(1, Ordering::SeqCst) + 1
}

/// Whether work started as `generation` may go on.
pub fn is_current(generation: u64) -> bool {
    GENERATION.load(Ordering::SeqCst) == generation
}

/// Lays the document out; `null` when cancelled (by `cancel_layout` or a newer layout).
#[tauri::command]
pub async fn layout_document(
    app: AppHandle,
    state: State<'_, AppState>,
    doc_id: String,
) -> Result<Option<IndexMap<String, Position>>, CommandError> {
    let id = parse_id(&doc_id)?;
    // Only the ids and edges are copied under the lock; the layout runs without it.
    // Groups are kept together.
    let canvas = {
        let ws = state.ws();
        let session = ws.session(id)?;
        CanvasGraph::of(session.document()).with_groups(session.layout())
    };
    let generation = start();
    let work = tauri::async_runtime::spawn_blocking(move || {
        let mut last = -1.0;
        canvas
            .layout(&mut |fraction| {
                if fraction - last >= 0.02 || fraction >= 1.0 {
                    last = fraction;
                    let _ = app.emit(LAYOUT_PROGRESS, LayoutProgress { doc_id: doc_id.clone(), fraction });
                }
                is_current(generation)
            })
            .ok()
    });
    Ok(work.await.ok().flatten())
}

/// Cancels the running layout, if any (its `layout_document` answers `null`), and an open
/// that is being read or laid out (`open_progress`: nothing opens).
#[tauri::command]
pub fn cancel_layout() {
    GENERATION.fetch_add(1, Ordering::SeqCst);
}
