//! Issue 8, the app figures: the real app under Xvfb through the e2e harness (tauri-driver +
//! WebKitWebDriver), measured with `window.__trellisPerf` (ui/src/perf/hooks.ts).
//!
//! `cargo nextest run -p trellis-app --features e2e --test perf` runs the 1,000-node smoke
//! version (not part of `npm test`: these are measurements). `scripts/bench.sh` runs it on the build
//! `npm start` runs (the dev profile: our crates at opt-level 1, dependencies optimised) with
//! `TRELLIS_BENCH_SIZES=1000,3000,5000` and `TRELLIS_BENCH_OUT=<file>` (one JSON object per
//! line, read by `scripts/bench-report.mjs`); a bench run adds an empty document first (the
//! memory floor). Per size, in a fresh app: time from the open command (Ctrl+O) to the new
//! document's first drawn frame; memory per process (`memory.rs`); frame times during a real
//! pointer drag of the pane and wheel zoom steps, which must move the viewport; edit to
//! screen (delete a node clicked on the overview, undo, a config field typed in the
//! inspector); memory again; then the same drag and zoom on `baseline.html` (plain React Flow,
//! same size and grid) in the same webview. Sizes of 20,000 and more: open and memory only.
//! And the start of the app to its first drawn frame; a user's file without a layout file
//! (`real_files_without_a_sidecar`); a spec written for another runtime, from the peer
//! harness's generator (`a_spec_for_another_runtime`). The steps are in `drive.rs`.

mod annotations;
mod drive;
#[allow(dead_code)]
#[path = "../e2e/harness.rs"]
mod harness;
mod memory;
mod runs;
mod text_pane;

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{json, Value};

use harness::{Desktop, Launch};

/// The build measured, as each record says it: the one `npm start` runs (Cargo's dev profile,
/// whose debug assertions our crates keep) or a release build.
fn build() -> &'static str {
    if cfg!(debug_assertions) {
        "npm start (dev profile)"
    } else {
        "release"
    }
}

fn sizes() -> Vec<usize> {
    sizes_from("TRELLIS_BENCH_SIZES")
}

fn sizes_from(var: &str) -> Vec<usize> {
    match std::env::var(var) {
        Ok(s) if !s.trim().is_empty() => {
            s.split(',').map(|x| x.trim().parse().unwrap_or_else(|_| panic!("{var}: numbers"))).collect()
        }
        _ if var == "TRELLIS_BENCH_REAL_SIZES" => vec![200],
        _ => vec![1000],
    }
}

/// The app as it ships, with its own data folder `data`, whose file dialogs answer `doc`: the
/// open command (Ctrl+O) opens it.
fn opening(doc: &Path, data: &Path) -> Launch {
    Launch {
        dialog_path: Some(doc.to_path_buf()),
        data_dir: Some(data.to_path_buf()),
        // As the app ships (no accelerated compositing without a GPU, webkit_env.rs);
        // `WEBKIT_DISABLE_COMPOSITING_MODE` in the environment still wins (bench.sh's rows).
        as_shipped: true,
        ..Launch::default()
    }
}

/// Appends one JSON line to `TRELLIS_BENCH_OUT` (and prints it).
fn record(v: Value) {
    println!("{v}");
    if let Ok(out) = std::env::var("TRELLIS_BENCH_OUT") {
        use std::io::Write;
        let mut f = std::fs::OpenOptions::new().create(true).append(true).open(out).expect("bench output");
        writeln!(f, "{v}").expect("write bench output");
    }
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .unwrap_or_default()
        .split_whitespace()
        .take(3)
        .collect::<Vec<_>>()
        .join(" ")
}

/// Milliseconds from the app process's start (/proc, 10 ms ticks) to the page's first drawn
/// frame (`performance.timeOrigin + firstDrawnAt()`, epoch ms).
async fn start_to_first_frame(app: &Desktop, pid: u64) -> Option<f64> {
    let r = app
        .driver
        .execute(
            "const f = window.__trellisPerf && window.__trellisPerf.firstDrawnAt(); return f == null ? null : performance.timeOrigin + f;",
            vec![],
        )
        .await
        .ok()?;
    let drawn_epoch_ms = r.json().as_f64()?;
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // Field 22 (starttime, clock ticks since boot), counted after the `(comm)` field.
    let after = stat.rsplit_once(')')?.1;
    let ticks: f64 = after.split_whitespace().nth(19)?.parse().ok()?;
    let uptime: f64 =
        std::fs::read_to_string("/proc/uptime").ok()?.split_whitespace().next()?.parse().ok()?;
    let now_epoch_ms =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).ok()?.as_secs_f64() * 1000.0;
    let start_epoch_ms = now_epoch_ms - (uptime - ticks / 100.0) * 1000.0;
    Some(drawn_epoch_ms - start_epoch_ms)
}

/// Above this size only the open and the memory are measured: the baseline page would need
/// minutes to lay out that many DOM nodes, and the interaction figures are the 5,000 ones.
const SCALE_ONLY: usize = 20_000;

/// The document of `n` generated nodes, or an empty GraphSpec (`n` = 0).
fn document(dir: &Path, n: usize) -> PathBuf {
    if n == 0 {
        let path = dir.join("empty.json");
        let text = trellis_spec::to_canonical_string(&trellis_spec::GraphSpec::default());
        std::fs::write(&path, text).expect("empty document");
        return path;
    }
    trellis_bench::write_document(dir, n, 42).expect("generated document")
}

#[tokio::test(flavor = "multi_thread")]
async fn canvas_figures_against_plain_react_flow() {
    let work = tempfile::tempdir().expect("tmp");
    let release = !cfg!(debug_assertions);
    let bench = std::env::var_os("TRELLIS_BENCH_OUT").is_some();
    // The empty document first: the floor of the app's memory.
    let mut all = sizes();
    if bench && !all.contains(&0) && all.iter().any(|&n| n < SCALE_ONLY) {
        all.insert(0, 0);
    }
    for n in all {
        let doc = document(work.path(), n);
        let data = tempfile::tempdir().expect("data dir");
        let load_before = load_average();
        let app = Desktop::launch(opening(&doc, data.path())).await;
        let app_pid = memory::app_pid(data.path());
        let startup_ms = start_to_first_frame(&app, u64::from(app_pid)).await;
        tokio::time::sleep(Duration::from_millis(500)).await;

        let wall = std::time::Instant::now();
        // `TRELLIS_BENCH_OPEN_LIMIT_S` (bench.sh's BENCH_SCALE_LIMIT) for the scale figure.
        let limit_ms = if n >= SCALE_ONLY {
            let s: u64 =
                std::env::var("TRELLIS_BENCH_OPEN_LIMIT_S").ok().and_then(|v| v.parse().ok()).unwrap_or(600);
            app.driver.set_script_timeout(Duration::from_secs(s + 30)).await.expect("script timeout");
            s * 1000
        } else {
            25_000
        };
        let open = drive::open_to_drawn(&app, n, limit_ms).await;
        let open_wall_ms = wall.elapsed().as_secs_f64() * 1000.0;
        if !open["ms"].is_number() {
            let png = app.driver.screenshot_as_png().await.expect("screenshot");
            std::fs::write(std::env::temp_dir().join(format!("trellis-perf-open-{n}.png")), png)
                .expect("write");
        }
        assert!(open["ms"].is_number(), "{n} nodes were not all drawn after the open command: {open}");
        tokio::time::sleep(Duration::from_millis(2000)).await;
        let memory = memory::memory_of(data.path());
        let mut line = json!({
            "kind": "canvas", "nodes": n, "release": release, "build": build(), "load_before": load_before,
            "startup_ms": startup_ms, "open": open, "open_wall_ms": open_wall_ms, "memory": memory,
        });
        if n >= SCALE_ONLY {
            line["view_over_ipc"] = drive::view_over_ipc(&app).await;
            line["save"] = drive::save_to_screen(&app, n, if bench { 3 } else { 1 }).await;
        }
        if n == 0 || n >= SCALE_ONLY {
            line["load_after"] = json!(load_average());
            record(line);
            app.quit().await;
            continue;
        }
        app.driver.execute("window.__trellisPerf.fitView()", vec![]).await.expect("fit");
        tokio::time::sleep(Duration::from_millis(1500)).await;
        let trellis = drive::pan_and_zoom(&app, n).await;
        assert!(trellis["pan"]["frames"].as_u64().unwrap_or(0) >= 10, "too few frames: {trellis}");
        let edit = drive::edit_to_screen(&app, n, if bench { 5 } else { 2 }, drive::Layout::Grid).await;
        tokio::time::sleep(Duration::from_millis(1000)).await;
        // After panning, zooming and editing: the caches the drawing keeps are all there.
        let memory_used = memory::memory_of(data.path());

        let origin =
            app.driver.execute("return location.origin", vec![]).await.expect("origin").json().clone();
        let base = drive::baseline(&app, origin.as_str().unwrap_or("tauri://localhost"), n).await;
        assert!(base["pan"]["frames"].as_u64().unwrap_or(0) >= 5, "too few baseline frames: {base}");
        let ratio = |k: &str| {
            let b = base["all"][k].as_f64().unwrap_or(0.0);
            let t = trellis["all"][k].as_f64().unwrap_or(0.0).max(0.001);
            (b / t * 10.0).round() / 10.0
        };
        line["ratio_p95"] = json!(ratio("p95"));
        line["ratio_median"] = json!(ratio("median"));
        line["load_after"] = json!(load_average());
        line["memory_after_use"] = memory_used;
        line["trellis"] = trellis;
        line["edit"] = edit;
        line["baseline"] = base;
        record(line);
        app.quit().await;
    }
}

/// The real-file baseline (React Flow + elkjs) runs up to this size; above it elkjs is not
/// tried (it needed minutes at 10,000 nodes, issue 13).
const BASELINE_MAX: usize = 10_000;

/// Issue 13's real-file scenario, per size of `TRELLIS_BENCH_REAL_SIZES` (smoke: 1,000): a
/// user's GraphSpec (`trellis_bench::write_real_file`: 12 project types described by the
/// registry beside it, **no layout sidecar**) opened in a fresh app: the layout time of
/// trellis-layout on it (in this process, the same code the app runs), Ctrl+O to the first
/// drawn frame (the app lays the graph out before its first view), memory per process before
/// and after, pan and zoom at the opening view (a readable zoom: names drawn), edit to screen,
/// Ctrl+S to the clean frame (the file checked on disk, the new layout file beside it);
/// then plain React Flow + elkjs on the same nodes and edges in the same webview (sizes up to
/// 10,000, elkjs given up after `TRELLIS_BENCH_ELK_LIMIT_S`, default 300 s).
#[tokio::test(flavor = "multi_thread")]
async fn real_files_without_a_sidecar() {
    let bench = std::env::var_os("TRELLIS_BENCH_OUT").is_some();
    for n in sizes_from("TRELLIS_BENCH_REAL_SIZES") {
        let work = tempfile::tempdir().expect("tmp");
        let doc = trellis_bench::write_real_file(work.path(), n, 42).expect("the real file");
        let text = std::fs::read_to_string(&doc).expect("read back");
        let spec: Value = serde_json::from_str(&text).expect("json");

        // The layout alone, as the app runs it on open (`lay_out_if_missing`).
        let registries = (trellis_doc::discovery::registry_loader())(&trellis_doc::RealFs, Some(&doc));
        let mut session = trellis_doc::Session::open(
            &trellis_doc::RealFs,
            trellis_doc::DocId(1),
            &doc,
            registries,
            std::sync::Arc::new(trellis_doc::SystemClock),
        )
        .expect("the real file opens");
        assert!(session.layout_missing(), "a real file has no sidecar");
        assert!(
            session.diagnostics().iter().all(|d| !d.is_error()),
            "the project registry describes every type"
        );
        let t = std::time::Instant::now();
        session.lay_out_if_missing();
        let layout_ms = t.elapsed().as_secs_f64() * 1000.0;
        // For the baseline to draw when elkjs cannot lay the graph out.
        let trellis_positions = serde_json::to_value(&session.layout().positions).expect("positions");
        // What each edge says (Rust's words), for elkjs to leave room for the labels.
        let labels: Vec<String> = trellis_doc::view::DocumentView::of(&session)
            .edge_labels
            .into_iter()
            .map(|l| l.map(|l| l.text).unwrap_or_default())
            .collect();
        drop(session);

        let data = tempfile::tempdir().expect("data dir");
        let load_before = load_average();
        let elk_limit_s: u64 =
            std::env::var("TRELLIS_BENCH_ELK_LIMIT_S").ok().and_then(|v| v.parse().ok()).unwrap_or(300);
        let app = Desktop::launch(Launch {
            // The baseline's command waits for elkjs up to its limit, then for the drawing.
            request_timeout: Some(Duration::from_secs(elk_limit_s + 120)),
            ..opening(&doc, data.path())
        })
        .await;
        tokio::time::sleep(Duration::from_millis(1000)).await;
        let memory_before = memory::memory_of(data.path());
        let limit_s: u64 =
            std::env::var("TRELLIS_BENCH_OPEN_LIMIT_S").ok().and_then(|v| v.parse().ok()).unwrap_or(600);
        app.driver.set_script_timeout(Duration::from_secs(limit_s + 30)).await.expect("script timeout");
        let open = drive::open_to_drawn(&app, n, limit_s * 1000).await;
        assert!(open["ms"].is_number(), "{n} nodes were not drawn after the open command: {open}");
        // Drawn once, at its final layout: every node has a place from Rust's first view.
        let id = app.doc_named(doc.file_name().and_then(|f| f.to_str()).unwrap_or_default()).await;
        let placed = app.placed_count(&id).await;
        assert!(
            placed >= i64::try_from(n).unwrap_or(i64::MAX),
            "the first view placed {placed} of {n} nodes"
        );
        tokio::time::sleep(Duration::from_millis(2000)).await;
        let memory_open = memory::memory_of(data.path());
        // At the opening view (no fit): the zoom the app chose to be readable.
        let opening = app
            .driver
            .execute(
                "const P = window.__trellisPerf; return { zoom: P.getViewport().zoom, mode: P.renderMode(), names: P.overviewNames ? P.overviewNames().length : 0, dom_nodes: P.domNodeCount() };",
                vec![],
            )
            .await
            .expect("the opening view")
            .json()
            .clone();
        let trellis = drive::pan_and_zoom_anywhere(&app, n).await;
        assert!(trellis["pan"]["frames"].as_u64().unwrap_or(0) >= 10, "too few frames: {trellis}");
        let edit = drive::edit_to_screen(&app, n, if bench { 5 } else { 2 }, drive::Layout::Drawn).await;
        let ipc = drive::ipc_round_trip(&app).await;
        assert!(ipc["median"].is_number(), "no IPC round trip: {ipc}");
        // Ctrl+S over the user's file: node n3 deleted, the document saved, and the layout file
        // the app made written beside it for the first time.
        let save = drive::save_to_screen(&app, n, 1).await;
        let saved: Value = serde_json::from_str(&std::fs::read_to_string(&doc).expect("the saved file"))
            .expect("the saved file is JSON");
        let saved_nodes = saved["nodes"].as_array().map_or(0, Vec::len);
        assert_eq!(saved_nodes, n - 1, "the save did not write the document without n3");
        assert!(trellis_doc::layout::sidecar_path(&doc).is_file(), "the first save wrote no layout file");
        tokio::time::sleep(Duration::from_millis(1000)).await;
        let memory_used = memory::memory_of(data.path());

        let mut line = json!({
            "kind": "real", "nodes": n, "edges": spec["edges"].as_array().map_or(0, Vec::len),
            "release": !cfg!(debug_assertions), "build": build(), "load_before": load_before, "layout_ms": layout_ms,
            "open": open, "opening_view": opening, "memory_before_open": memory_before,
            "memory": memory_open, "memory_after_use": memory_used, "trellis": trellis, "edit": edit, "ipc": ipc,
            "save": save,
        });
        if n <= BASELINE_MAX {
            let graph = json!({
                "nodes": spec["nodes"].as_array().map(|a| a.iter().map(|x| json!({"id": x["id"]})).collect::<Vec<_>>()),
                "edges": spec["edges"],
                "positions": trellis_positions,
                "labels": labels,
            });
            let origin =
                app.driver.execute("return location.origin", vec![]).await.expect("origin").json().clone();
            let base = drive::baseline_real(
                &app,
                origin.as_str().unwrap_or("tauri://localhost"),
                &graph,
                elk_limit_s * 1000,
            )
            .await;
            if let (Some(b), Some(t)) = (base["all"]["p95"].as_f64(), trellis["all"]["p95"].as_f64()) {
                line["ratio_p95"] = json!((b / t.max(0.001) * 10.0).round() / 10.0);
            }
            if let (Some(b), Some(t)) = (base["open_ms"].as_f64(), open["ms"].as_f64()) {
                line["ratio_open"] = json!((b / t.max(0.001) * 10.0).round() / 10.0);
            }
            line["baseline"] = base;
        }
        line["load_after"] = json!(load_average());
        record(line);
        app.quit().await;
    }
}

/// The errors of document `id` by code, counted in the page (a large view is too big for a
/// WebDriver answer).
async fn errors_by_code(app: &Desktop, id: &str) -> Value {
    app.driver
        .execute_async(
            "const [id, done] = arguments; window.__TAURI_INTERNALS__.invoke('get_document', {docId: id}).then((v) => {
               const c = {}; for (const d of v.diagnostics) if (d.severity === 'error') c[d.code] = (c[d.code] ?? 0) + 1; done(c);
             }, (e) => done({ failed: String(e) }));",
            vec![json!(id)],
        )
        .await
        .expect("counted in the page")
        .json()
        .clone()
}

/// Polls the errors of `id` until `pred` holds; the milliseconds it took from `since`.
async fn wait_errors(
    app: &Desktop,
    id: &str,
    what: &str,
    since: std::time::Instant,
    pred: impl Fn(&Value) -> bool,
) -> f64 {
    let deadline = since + Duration::from_secs(120);
    loop {
        let errors = errors_by_code(app, id).await;
        if pred(&errors) {
            return since.elapsed().as_secs_f64() * 1000.0;
        }
        assert!(std::time::Instant::now() < deadline, "timed out waiting for {what}: errors {errors}");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Clicks the first fix button of the problems panel that `css` finds (in the page: the
/// panel's rows are many).
async fn click_fix(app: &Desktop, css: &str) {
    let clicked = app
        .driver
        .execute(
            "const b = document.querySelector(arguments[0]); if (b) b.click(); return !!b;",
            vec![json!(css)],
        )
        .await
        .expect("script")
        .json()
        .clone();
    assert_eq!(clicked, json!(true), "no button {css}");
}

/// A spec written for another runtime, as a new user has it: the peer harness's generator
/// (`../shared/peer-bench/gen-spec.mjs`, not Trellis's), whose twelve node types are ten that
/// no registry describes and two built-in names used otherwise (its `llm` has a `system`
/// field), in a repository with no registry and no layout file. Opened with Ctrl+O, the
/// problems panel's "Describe all" describes the unknown types, the `llm` finding's own fix
/// describes that type as the document uses it (replacing the built-in one), then Ctrl+S: no
/// error is left and the file holds what `trellis fmt` writes. Sizes from
/// `TRELLIS_BENCH_FOREIGN_SIZES` (1,000 by default).
#[tokio::test(flavor = "multi_thread")]
async fn a_spec_for_another_runtime() {
    for n in sizes_from("TRELLIS_BENCH_FOREIGN_SIZES") {
        let work = tempfile::tempdir().expect("tmp");
        std::fs::create_dir_all(work.path().join(".git")).expect("a repository root: discovery stops here");
        let doc = work.path().join("runtime.json");
        let generator = harness::repo_root().join("../shared/peer-bench/gen-spec.mjs");
        let made = std::process::Command::new("node")
            .arg(&generator)
            .arg(n.to_string())
            .arg(&doc)
            .stdout(std::process::Stdio::null())
            .status()
            .unwrap_or_else(|e| panic!("node {}: {e}", generator.display()));
        assert!(made.success(), "{} {n} failed", generator.display());
        let original = std::fs::read_to_string(&doc).expect("the generated spec");
        let data = tempfile::tempdir().expect("data dir");
        let app = Desktop::launch(opening(&doc, data.path())).await;
        tokio::time::sleep(Duration::from_millis(1000)).await;
        app.driver.set_script_timeout(Duration::from_secs(300)).await.expect("script timeout");
        let open = drive::open_to_drawn(&app, n, 240_000).await;
        assert!(open["ms"].is_number(), "{n} nodes were not drawn after the open command: {open}");
        let id = app.doc_named("runtime.json").await;
        let before = errors_by_code(&app, &id).await;
        let unknown = before["spec/unknown-type"].as_u64().unwrap_or(0);
        let built_in = before["config/unknown-field"].as_u64().unwrap_or(0);
        assert!(unknown > 0 && built_in > 0, "unknown types and a built-in type used otherwise: {before}");

        let panel_open = app.js("return !!document.querySelector('[data-testid=problems-panel]');").await;
        if panel_open != json!(true) {
            click_fix(&app, "[data-testid=status-problems]").await;
        }
        app.wait_js("return !!document.querySelector('[data-testid=fix-describe-all]');", "Describe all")
            .await;
        let t = std::time::Instant::now();
        click_fix(&app, "[data-testid=fix-describe-all]").await;
        let registry = work.path().join("project.registry.json");
        harness::wait_fs("the project registry", || registry.exists()).await;
        let describe_all_ms =
            wait_errors(&app, &id, "no unknown type", t, |e| e.get("spec/unknown-type").is_none()).await;
        app.wait_js(
            "return !!document.querySelector('[data-testid=problem][data-code^=\"config/\"] [data-testid=fix][data-fix=describe_types]');",
            "the built-in type's own fix",
        )
        .await;
        let t = std::time::Instant::now();
        click_fix(
            &app,
            "[data-testid=problem][data-code^=\"config/\"] [data-testid=fix][data-fix=describe_types]",
        )
        .await;
        let describe_llm_ms =
            wait_errors(&app, &id, "no error", t, |e| e.as_object().is_some_and(|m| m.is_empty())).await;
        let manifest: Value =
            serde_json::from_str(&std::fs::read_to_string(&registry).expect("registry")).expect("JSON");
        let described: Vec<&str> = manifest["types"]
            .as_array()
            .map_or(Vec::new(), |t| t.iter().filter_map(|x| x["type"].as_str()).collect());
        assert!(described.contains(&"llm") && described.len() >= 11, "{described:?}");

        // Ctrl+S: the document was not changed, so the file keeps what `trellis fmt` writes
        // (the generator writes that already), and the layout the app made is written beside it.
        let t = std::time::Instant::now();
        app.driver
            .execute("window.dispatchEvent(new KeyboardEvent('keydown', { key: 's', ctrlKey: true, bubbles: true, cancelable: true }));", vec![])
            .await
            .expect("Ctrl+S");
        let side = trellis_doc::layout::sidecar_path(&doc);
        harness::wait_fs("the layout file", || side.is_file()).await;
        let save_ms = t.elapsed().as_secs_f64() * 1000.0;
        let parsed = trellis_spec::read::parse_spec(&original).spec.expect("the spec reads");
        assert_eq!(
            harness::read(&doc),
            trellis_spec::writer::to_canonical_string(&parsed),
            "the file after the save"
        );

        record(json!({
            "kind": "foreign", "nodes": n, "release": !cfg!(debug_assertions), "build": build(), "load": load_average(),
            "open": open["ms"], "errors_before": before, "describe_all_ms": describe_all_ms,
            "describe_builtin_ms": describe_llm_ms, "described": described.len(), "save_to_layout_file_ms": save_ms,
        }));
        app.quit().await;
    }
}

/// Start of the app (no document) to its first drawn frame: three times in a bench run, once
/// in the smoke version. `TRELLIS_BENCH_APP` starts another build of the app instead of this
/// test's (bench.sh: the installed package's `/usr/bin/trellis-app`, recorded as
/// `startup_package`).
#[tokio::test(flavor = "multi_thread")]
async fn start_to_first_drawn_frame() {
    let binary = std::env::var_os("TRELLIS_BENCH_APP").map(PathBuf::from);
    let mut runs = Vec::new();
    let times = if std::env::var_os("TRELLIS_BENCH_OUT").is_some() { 3 } else { 1 };
    for _ in 0..times {
        let data = tempfile::tempdir().expect("data dir");
        let app = Desktop::launch(Launch {
            data_dir: Some(data.path().to_path_buf()),
            as_shipped: true,
            binary: binary.clone(),
            ..Launch::default()
        })
        .await;
        let pid = u64::from(app.app_pid().expect("the app runs"));
        let ms = start_to_first_frame(&app, pid).await.expect("the first drawn frame is known");
        assert!(ms > 0.0 && ms < 60_000.0, "{ms}");
        runs.push(ms);
        app.quit().await;
    }
    let kind = if binary.is_some() { "startup_package" } else { "startup" };
    let exe = binary.unwrap_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_trellis-app")));
    let size = std::fs::metadata(&exe).map(|m| m.len()).unwrap_or(0);
    record(json!({
        "kind": kind, "release": !cfg!(debug_assertions), "build": build(), "load": load_average(), "runs_ms": runs,
        "binary": exe.display().to_string(), "binary_bytes": size,
    }));
}
