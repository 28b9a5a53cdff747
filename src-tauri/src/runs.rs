//! Runs beside their document (File > Open Run…, a drop, the command line), a second run to
//! compare, a folder as a heat map, and the simulator's runs: thin over trellis-runs (the model,
//! the path, the state) and trellis-doc (the document's shape). A record is read once and kept
//! per document until the run is closed; the overlay is recomputed when the document changes.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

use serde::Serialize;
use serde_json::{Map, Value};
use tauri::{AppHandle, Emitter, Manager, State, WebviewWindow};
use trellis_doc::{DocId, Session};
use trellis_runs::graph::GraphShape;
use trellis_runs::log::LogHeader;
use trellis_runs::model::ReadRun;
use trellis_runs::state::StateIndex;
use trellis_runs::{compare, identity, simulate, summary, ReadOptions};
use trellis_spec::Diagnostic;

use crate::answer::{codes, parse_id, Answer, CommandError};
use crate::dialogs;
use crate::runs_view::{self as view, RunCompareView, RunFolderView, RunView, StepDetail, UnreadRecord};
use crate::state::AppState;

/// The event telling the UI a run was opened beside a document (payload: the document id).
pub const RUN_OPENED: &str = "run-opened";

/// A run read and kept with what it takes to answer steps quickly.
struct Loaded {
    title: String,
    read: ReadRun,
    /// The hash of the document's file when the run was opened (runs log the file's hash).
    disk_hash: Option<String>,
    /// A simulation's run log, to save.
    log_text: Option<String>,
    /// The document revision the view and index were made for.
    made_for: Option<u64>,
    shape: GraphShape,
    /// The reducers the state is rebuilt with: the run's own graph's, else the document's.
    reducers: trellis_runs::Reducers,
    index: StateIndex,
    view: Option<RunView>,
}

#[derive(Default)]
struct DocRuns {
    main: Option<Loaded>,
    other: Option<Loaded>,
}

/// The open runs, by document.
#[derive(Default)]
pub struct RunsState {
    docs: Mutex<HashMap<DocId, DocRuns>>,
}

impl std::fmt::Debug for RunsState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("RunsState")
    }
}

impl RunsState {
    fn docs(&self) -> MutexGuard<'_, HashMap<DocId, DocRuns>> {
        self.docs.lock().unwrap_or_else(|e| e.into_inner())
    }
}

fn file_title(path: &Path) -> String {
    path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned())
}

/// The shape runs are drawn on: the run's own graph when it carries one (what it ran, with its
/// reducers), the document's otherwise; the document's nodes and edges decide what is drawn.
fn shape_for(session: &Session) -> GraphShape {
    trellis_doc::run_graph::shape(session.document())
}

fn reducers_source(read: &ReadRun, doc: &GraphShape) -> GraphShape {
    read.run
        .graph
        .spec
        .as_ref()
        .and_then(|v| serde_json::from_value::<trellis_spec::GraphSpec>(v.clone()).ok())
        .map(|s| GraphShape::from_spec(&s))
        .unwrap_or_else(|| doc.clone())
}

fn read_options(shape: &GraphShape) -> ReadOptions {
    ReadOptions { start_nodes: shape.start_nodes.clone(), ..ReadOptions::default() }
}

fn load(title: String, read: ReadRun, session: &Session, log_text: Option<String>) -> Loaded {
    let disk_hash = session.path().and_then(|p| std::fs::read(p).ok()).map(|b| identity::graph_hash(&b));
    let shape = shape_for(session);
    let reducers = reducers_source(&read, &shape).reducers;
    let index = StateIndex::build(&read.run, &reducers);
    Loaded { title, read, disk_hash, log_text, made_for: None, shape, reducers, index, view: None }
}

impl Loaded {
    /// The view against the document as it is now (made again after an edit).
    fn view(&mut self, session: &Session) -> &RunView {
        if self.made_for != Some(session.revision()) || self.view.is_none() {
            self.shape = shape_for(session);
            if self.read.run.graph.spec.is_none() {
                // The document's reducers, as they are now.
                self.reducers = self.shape.reducers.clone();
                self.index = StateIndex::build(&self.read.run, &self.reducers);
            }
            let mut hashes = vec![identity::graph_hash(session.text().as_bytes())];
            hashes.extend(self.disk_hash.clone());
            self.view = Some(view::build(
                &self.title,
                &self.read,
                &self.shape,
                &session.layout().positions,
                &hashes,
                self.log_text.is_some(),
            ));
            self.made_for = Some(session.revision());
        }
        self.view.as_ref().expect("made above")
    }

    fn detail(&mut self, session: &Session, index: usize) -> Answer<StepDetail> {
        let len = self.read.run.steps.len();
        if index >= len {
            return Err(Diagnostic::error(
                codes::BAD_ARGUMENT,
                format!("the run has {len} steps; there is no step {}", index + 1),
            )
            .into());
        }
        self.view(session);
        let Some(v) = self.view.as_ref() else { return Err(not_open()) };
        let state = self.index.after(&self.read.run, &self.reducers, index);
        Ok(view::step_detail(&self.read.run, &v.overlay, index, state))
    }
}

fn not_open() -> CommandError {
    Diagnostic::error(codes::BAD_ARGUMENT, "no run is open beside this document").into()
}

/// Reads the record at `path` for the document `id` and keeps it as its run.
fn open_for(state: &AppState, runs: &RunsState, id: DocId, path: &Path) -> Answer<RunView> {
    let ws = state.ws();
    let session = ws.session(id)?;
    let read = trellis_runs::file::open(path, &read_options(&shape_for(session)))?;
    let mut loaded = load(file_title(path), read, session, None);
    let view = loaded.view(session).clone();
    let mut docs = runs.docs();
    let entry = docs.entry(id).or_default();
    entry.main = Some(loaded);
    entry.other = None;
    Ok(view)
}

/// File > Open Run…: asks for a run record and opens it beside the document (`null` when the
/// dialog was cancelled).
#[tauri::command]
pub async fn run_open_dialog(
    window: WebviewWindow,
    state: State<'_, AppState>,
    runs: State<'_, RunsState>,
    doc_id: String,
) -> Answer<Option<RunView>> {
    let id = parse_id(&doc_id)?;
    let Some(path) = dialogs::pick_run_file(&window, "Open a run record").await else { return Ok(None) };
    open_for(&state, &runs, id, &path).map(Some)
}

/// The run beside the document, as it stands now (`null`: none).
#[tauri::command]
pub fn run_view(
    state: State<'_, AppState>,
    runs: State<'_, RunsState>,
    doc_id: String,
) -> Answer<Option<RunView>> {
    let id = parse_id(&doc_id)?;
    let ws = state.ws();
    let session = ws.session(id)?;
    let mut docs = runs.docs();
    Ok(docs.get_mut(&id).and_then(|d| d.main.as_mut()).map(|l| l.view(session).clone()))
}

/// One step of the run (`second`: of the run compared with it), with the channels after it.
#[tauri::command]
pub fn run_step(
    state: State<'_, AppState>,
    runs: State<'_, RunsState>,
    doc_id: String,
    index: usize,
    second: bool,
) -> Answer<StepDetail> {
    let id = parse_id(&doc_id)?;
    let ws = state.ws();
    let session = ws.session(id)?;
    let mut docs = runs.docs();
    let d = docs.get_mut(&id).ok_or_else(not_open)?;
    let loaded = if second { d.other.as_mut() } else { d.main.as_mut() };
    loaded.ok_or_else(not_open)?.detail(session, index)
}

/// Closes the run (and the run compared with it) beside the document.
#[tauri::command]
pub fn run_close(runs: State<'_, RunsState>, doc_id: String, second_only: bool) -> Answer<()> {
    let id = parse_id(&doc_id)?;
    let mut docs = runs.docs();
    if second_only {
        if let Some(d) = docs.get_mut(&id) {
            d.other = None;
        }
    } else {
        docs.remove(&id);
    }
    Ok(())
}

/// Compare With Run…: a second run beside the first, and where they part.
#[tauri::command]
pub async fn run_compare_dialog(
    window: WebviewWindow,
    state: State<'_, AppState>,
    runs: State<'_, RunsState>,
    doc_id: String,
) -> Answer<Option<RunCompareView>> {
    let id = parse_id(&doc_id)?;
    if runs.docs().get(&id).and_then(|d| d.main.as_ref()).is_none() {
        return Err(Diagnostic::error(
            codes::BAD_ARGUMENT,
            "open a run first, then a second one to compare with it",
        )
        .into());
    }
    let Some(path) = dialogs::pick_run_file(&window, "Compare with a run").await else { return Ok(None) };
    let ws = state.ws();
    let session = ws.session(id)?;
    let read = trellis_runs::file::open(&path, &read_options(&shape_for(session)))?;
    let mut other = load(file_title(&path), read, session, None);
    let other_view = other.view(session).clone();
    let mut docs = runs.docs();
    let d = docs.get_mut(&id).ok_or_else(not_open)?;
    let main = d.main.as_mut().ok_or_else(not_open)?;
    main.view(session);
    let comparison = compare::compare(&main.read.run, &other.read.run, &main.shape);
    let mut notices = Vec::new();
    if let Some(div) = &comparison.divergence {
        notices.push(Diagnostic::info(trellis_runs::codes::DIVERGED, div.message.clone()));
    }
    d.other = Some(other);
    Ok(Some(RunCompareView { other: other_view, comparison, notices }))
}

/// Open Runs Folder…: every run record in a folder, aggregated on the document.
#[tauri::command]
pub async fn run_folder_dialog(
    window: WebviewWindow,
    state: State<'_, AppState>,
    doc_id: String,
) -> Answer<Option<RunFolderView>> {
    let id = parse_id(&doc_id)?;
    let Some(dir) = dialogs::pick_run_folder(&window).await else { return Ok(None) };
    let shape = {
        let ws = state.ws();
        shape_for(ws.session(id)?)
    };
    // Reading a thousand records takes a moment: off the command thread's lock.
    let answer = tauri::async_runtime::spawn_blocking(move || folder(&dir, &shape)).await.map_err(|e| {
        CommandError::from(Diagnostic::error(codes::BAD_ARGUMENT, format!("reading the folder failed: {e}")))
    })?;
    answer.map(Some)
}

fn folder(dir: &Path, shape: &GraphShape) -> Answer<RunFolderView> {
    use rayon::prelude::*;
    let entries = std::fs::read_dir(dir).map_err(|e| {
        CommandError::from(Diagnostic::error(
            trellis_runs::codes::UNREADABLE,
            format!("{} cannot be read: {e}", dir.display()),
        ))
    })?;
    let mut files: Vec<PathBuf> =
        entries.filter_map(Result::ok).map(|e| e.path()).filter(|p| p.is_file()).collect();
    files.sort();
    let options = read_options(shape);
    let read: Vec<_> = files.par_iter().map(|p| (p, trellis_runs::file::open(p, &options))).collect();
    let mut runs = Vec::new();
    let mut unread = Vec::new();
    for (p, r) in read {
        match r {
            Ok(r) => runs.push(r.run),
            Err(ds) => unread.push(UnreadRecord {
                file: file_title(p),
                message: ds.first().map(|d| d.message.clone()).unwrap_or_default(),
            }),
        }
    }
    if runs.is_empty() {
        return Err(Diagnostic::error(
            trellis_runs::codes::NO_STEPS,
            format!("{} holds no run record Trellis reads ({} file(s) tried)", dir.display(), unread.len()),
        )
        .into());
    }
    Ok(RunFolderView { title: file_title(dir), aggregate: summary::aggregate(&runs, shape), unread })
}

/// Run > Simulate…: runs the document on the simulator (its input a JSON object, `mocks` a
/// JSON object of node id or type to the update it returns) and opens the result as its run.
#[tauri::command]
pub fn run_simulate(
    state: State<'_, AppState>,
    runs: State<'_, RunsState>,
    doc_id: String,
    input: String,
    mocks: String,
    limit: usize,
) -> Answer<RunView> {
    let id = parse_id(&doc_id)?;
    let bad = |what: &str, why: String| {
        CommandError::from(Diagnostic::error(codes::BAD_ARGUMENT, format!("{what}: {why}")))
    };
    let input: Map<String, Value> =
        match serde_json::from_str::<Value>(if input.trim().is_empty() { "{}" } else { &input }) {
            Ok(Value::Object(m)) => m,
            Ok(_) => return Err(bad("the input", "must be a JSON object of channel values".into())),
            Err(e) => return Err(bad("the input", format!("is not JSON ({e})"))),
        };
    let mocks: Vec<simulate::Mock> =
        match serde_json::from_str::<Value>(if mocks.trim().is_empty() { "{}" } else { &mocks }) {
            Ok(Value::Object(m)) => {
                let mut out = Vec::new();
                for (k, v) in m {
                    match v {
                        Value::Object(u) => out.push((k, u)),
                        _ => {
                            return Err(bad(
                                &format!("the mock of {k}"),
                                "must be a JSON object (the update it returns)".into(),
                            ))
                        }
                    }
                }
                out
            }
            Ok(_) => {
                return Err(bad("the mocks", "must be a JSON object of node id or type to update".into()))
            }
            Err(e) => return Err(bad("the mocks", format!("are not JSON ({e})"))),
        };
    let ws = state.ws();
    let session = ws.session(id)?;
    let Some(spec) = session.spec() else {
        return Err(bad(
            "the simulator",
            "runs GraphSpec documents; export this one as GraphSpec to simulate it".into(),
        ));
    };
    if let Some(e) = session.diagnostics().iter().find(|d| d.is_error()) {
        return Err(bad("the document has errors to fix before it can run", e.message.clone()));
    }
    let run_id = format!("sim-{:x}", now_ms() as u64);
    let graph = simulate::mocked_graph(spec, &mocks)?;
    let sim = simulate::run(graph, spec, input.clone(), limit.clamp(1, 100_000), &run_id, "app")?;
    let text = session.text();
    let header = LogHeader {
        graph_name: spec.name.clone(),
        graph_hash: Some(identity::graph_hash(text.as_bytes())),
        graph_spec: serde_json::from_str(&text).ok(),
        runtime: Some("trellis simulator".into()),
        run_id: Some(run_id),
        input: Some(input),
        captured_ms: Some(now_ms()),
    };
    let log = simulate::log_text(&sim, &header, &mut now_ms);
    let read = trellis_runs::read_text(&log, &ReadOptions::default())?;
    let mut loaded = load("Simulation".into(), read, session, Some(log));
    let view = loaded.view(session).clone();
    let mut docs = runs.docs();
    let entry = docs.entry(id).or_default();
    entry.main = Some(loaded);
    entry.other = None;
    Ok(view)
}

fn now_ms() -> f64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64() * 1000.0)
}

/// Where a saved run log went.
#[derive(Debug, Clone, Serialize, ts_rs::TS)]
#[ts(export)]
pub struct SavedRun {
    pub path: String,
}

/// Saves the simulated run as a run log (`null` when the dialog was cancelled).
#[tauri::command]
pub async fn run_save_log(
    window: WebviewWindow,
    runs: State<'_, RunsState>,
    doc_id: String,
) -> Answer<Option<SavedRun>> {
    let id = parse_id(&doc_id)?;
    let text = runs.docs().get(&id).and_then(|d| d.main.as_ref()).and_then(|l| l.log_text.clone());
    let Some(text) = text else {
        return Err(
            Diagnostic::error(codes::BAD_ARGUMENT, "only a simulated run is saved as a run log").into()
        );
    };
    let Some(path) = dialogs::pick_run_save_path(&window, "run.jsonl").await else { return Ok(None) };
    trellis_doc::fs::atomic_write(&trellis_doc::fs::RealFs, &path, text.as_bytes(), 0o644).map_err(|e| {
        CommandError::from(Diagnostic::error(
            trellis_runs::codes::UNREADABLE,
            format!("{} cannot be written: {}", path.display(), e.error),
        ))
    })?;
    Ok(Some(SavedRun { path: path.display().to_string() }))
}

/// Whether a file named on the command line or dropped is a run record rather than a graph.
pub fn is_run_file(path: &Path) -> bool {
    path.is_file() && trellis_runs::file::looks_like_run(path)
}

/// Opens a run record (dropped, or named on the command line) beside the active document and
/// tells the UI. A record that cannot be read is reported like a file that does not open.
pub fn open_beside_active(app: &AppHandle, path: &Path) {
    let state = app.state::<AppState>();
    let runs = app.state::<RunsState>();
    let Some(id) = state.active().or_else(|| state.ws().ids().first().copied()) else {
        let d = Diagnostic::error(
            trellis_runs::codes::UNMATCHED,
            "open the graph the run ran first, then the run",
        );
        crate::open_failures::report(app, path, &[d]);
        return;
    };
    match open_for(&state, &runs, id, path) {
        Ok(_) => {
            let _ = app.emit(RUN_OPENED, id.0.to_string());
        }
        Err(e) => crate::open_failures::report(app, path, &e.diagnostics),
    }
}
