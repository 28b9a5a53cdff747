//! Issue 8, the canvas floor and the frame's own cost, on the real app under Xvfb: the same
//! pointer-drag pan and wheel zoom as `tests/perf`, on an empty document and on generated ones,
//! with per frame the rAF interval, the main-thread busy time (rAF to the first task after the
//! rendering update, `ui/src/perf/hooks.ts`), the overview canvas's own draw time, the CPU
//! time of the WebKit web process, and that process's PSS (/proc/<pid>/smaps_rollup).
//!
//! By default only the empty document (a quick smoke: every hook answers, the view moves).
//! `TRELLIS_FRAMES_SIZES=0,1000,5000` measures more (0 = the empty document); WebKit switches
//! (`WEBKIT_DISABLE_COMPOSITING_MODE=1`, ...) reach the app through the environment.
#![cfg(feature = "e2e")]

#[allow(dead_code)]
#[path = "perf/drive.rs"]
mod drive;
#[allow(dead_code)]
#[path = "e2e/harness.rs"]
mod harness;
#[allow(dead_code)]
#[path = "perf/memory.rs"]
mod memory;

use std::time::Duration;

use serde_json::{json, Value};

use harness::{Desktop, Launch};

/// (nodes, zoomed in): `5000d` measures 5,000 nodes at zoom 1 (the DOM drawing) instead of fitted.
fn sizes() -> Vec<(usize, bool)> {
    match std::env::var("TRELLIS_FRAMES_SIZES") {
        Ok(s) if !s.trim().is_empty() => s
            .split(',')
            .map(|x| {
                let x = x.trim();
                let dom = x.ends_with('d');
                (x.trim_end_matches('d').parse().expect("TRELLIS_FRAMES_SIZES: numbers"), dom)
            })
            .collect(),
        _ => vec![(0, false)],
    }
}

/// The WebKitWebProcess under the app this test started (found by its data folder).
fn web_process(data_dir: &std::path::Path) -> u32 {
    memory::tree(memory::app_pid(data_dir))
        .into_iter()
        .find(|p| {
            std::fs::read_to_string(format!("/proc/{p}/comm")).is_ok_and(|c| c.starts_with("WebKitWebProces"))
        })
        .expect("the app's WebKitWebProcess")
}

/// utime + stime in ms (10 ms ticks).
fn cpu_ms(pid: u32) -> f64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
    let rest = stat.rsplit_once(')').map(|(_, r)| r).unwrap_or("");
    let f: Vec<&str> = rest.split_whitespace().collect();
    let t = |i: usize| f.get(i).and_then(|x| x.parse::<f64>().ok()).unwrap_or(0.0);
    (t(11) + t(12)) * 10.0
}

/// PSS (shared pages split between the processes mapping them: depends on what else runs).
fn pss_mb(pid: u32) -> f64 {
    rollup_mb(pid, "Pss:")
}

/// Anonymous memory (heaps, canvases, tiles): the page's own, whatever else runs.
fn anon_mb(pid: u32) -> f64 {
    rollup_mb(pid, "Anonymous:")
}

fn rollup_mb(pid: u32, key: &str) -> f64 {
    let text = std::fs::read_to_string(format!("/proc/{pid}/smaps_rollup")).unwrap_or_default();
    let kb = text
        .lines()
        .find(|l| l.starts_with(key))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|n| n.parse::<f64>().ok())
        .unwrap_or(0.0);
    (kb / 1024.0 * 10.0).round() / 10.0
}

fn brief(s: &Value) -> Value {
    let r = |k: &str| (s[k].as_f64().unwrap_or(0.0) * 10.0).round() / 10.0;
    let over = s["samples"].as_array().map(|a| a.iter().filter(|x| x.as_f64().unwrap_or(0.0) > 25.0).count());
    json!({ "frames": s["frames"], "median": r("median"), "p95": r("p95"), "max": r("max"), "over_25ms": over })
}

fn phase(stats: &Value, draws: &Value, cpu: f64) -> Value {
    let frames = stats["frames"].as_f64().unwrap_or(0.0).max(1.0);
    let mut d: Vec<f64> =
        draws.as_array().map(|a| a.iter().filter_map(Value::as_f64).collect()).unwrap_or_default();
    d.sort_by(f64::total_cmp);
    json!({
        "interval": brief(stats), "busy": brief(&stats["busy"]),
        "web_cpu_ms_per_frame": (cpu / frames * 10.0).round() / 10.0,
        "draw_max_ms": d.last().copied(), "draws": d.len(),
    })
}

async fn pan_and_zoom(app: &Desktop, web: u32) -> Value {
    let d = &app.driver;
    let start = d
        .execute(
            "const P = window.__trellisPerf; const p = P.emptyPoint ? P.emptyPoint() : null; if (p) return p;
             const r = document.querySelector('.react-flow__pane').getBoundingClientRect();
             return { x: r.left + r.width * 0.6, y: r.top + r.height * 0.6 };",
            vec![],
        )
        .await
        .expect("start point")
        .json()
        .clone();
    let (x, y) = (start["x"].as_f64().unwrap_or(400.0) as i64, start["y"].as_f64().unwrap_or(300.0) as i64);
    let vp = "return JSON.stringify(window.__trellisPerf.getViewport())";
    let before = d.execute(vp, vec![]).await.expect("viewport").json().clone();
    d.execute("window.__trellisPerf.startSampling(); window.__trellisPerf.drawLog(true);", vec![])
        .await
        .expect("sampling");
    let c0 = cpu_ms(web);
    let mut chain =
        d.action_chain_with_delay(None, Some(Duration::from_millis(16))).move_to(x, y).click_and_hold();
    for _ in 0..60 {
        chain = chain.move_by_offset(-6, -3);
    }
    chain.release().perform().await.expect("pan");
    let pan =
        d.execute("return window.__trellisPerf.stopSampling()", vec![]).await.expect("stop").json().clone();
    let c1 = cpu_ms(web);
    let pan_draws =
        d.execute("return window.__trellisPerf.drawLog(true)", vec![]).await.expect("draws").json().clone();
    let after = d.execute(vp, vec![]).await.expect("viewport").json().clone();
    let zoom = drive::wheel_zoom(app).await;
    let c2 = cpu_ms(web);
    let zoom_draws =
        d.execute("return window.__trellisPerf.drawLog(true)", vec![]).await.expect("draws").json().clone();
    json!({
        "pan": phase(&pan, &pan_draws, c1 - c0), "zoom": phase(&zoom["stats"], &zoom_draws, c2 - c1),
        "pan_moved": before != after, "zoom_from": zoom["z0"], "zoom_max": zoom["zmax"],
    })
}

#[tokio::test(flavor = "multi_thread")]
async fn frame_floor_and_cost() {
    let work = tempfile::tempdir().expect("tmp");
    let envs: Vec<String> =
        std::env::vars().filter(|(k, _)| k.starts_with("WEBKIT_")).map(|(k, v)| format!("{k}={v}")).collect();
    for (n, dom) in sizes() {
        let doc =
            (n > 0).then(|| trellis_bench::write_document(work.path(), n, 42).expect("generated document"));
        let data = tempfile::tempdir().expect("data dir");
        let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
        let app = Desktop::launch(Launch {
            files: doc.into_iter().collect(),
            data_dir: Some(data.path().to_path_buf()),
            as_shipped: true,
            ..Launch::default()
        })
        .await;
        app.wait_js(
            // Without a file the app starts on a new, empty document (or a starter few nodes).
            &format!(
                "return !!window.__trellisPerf && window.__trellisPerf.nodeCount() {};",
                if n > 0 { format!("=== {n}") } else { "< 10".to_owned() }
            ),
            "the document",
        )
        .await;
        tokio::time::sleep(Duration::from_millis(2000)).await;
        let web = web_process(data.path());
        let (pss_open, anon_open) = (pss_mb(web), anon_mb(web));
        app.driver.execute("window.__trellisPerf.fitView()", vec![]).await.expect("fit");
        if dom {
            // Zoom 1 around the middle of the fitted view: close enough to read, the DOM drawing.
            app.driver
                .execute(
                    "const P = window.__trellisPerf; const v = P.getViewport(); const r = document.querySelector('.react-flow__pane').getBoundingClientRect();
                     const cx = (r.width / 2 - v.x) / v.zoom, cy = (r.height / 2 - v.y) / v.zoom;
                     P.setViewport({ x: r.width / 2 - cx, y: r.height / 2 - cy, zoom: 1 });",
                    vec![],
                )
                .await
                .expect("zoom in");
        }
        tokio::time::sleep(Duration::from_millis(1500)).await;
        let m = pan_and_zoom(&app, web).await;
        tokio::time::sleep(Duration::from_millis(1500)).await;
        let (pss_after, anon_after) = (pss_mb(web), anon_mb(web));
        let mode = app
            .driver
            .execute("return window.__trellisPerf.renderMode()", vec![])
            .await
            .expect("mode")
            .json()
            .clone();
        let count = app
            .driver
            .execute("return window.__trellisPerf.nodeCount()", vec![])
            .await
            .expect("count")
            .json()
            .clone();
        let v = json!({
            "kind": "canvas_frames", "nodes": count, "zoomed_in": dom, "env": envs, "load": load.split_whitespace().take(3).collect::<Vec<_>>().join(" "),
            "mode": mode, "web_pss_mb": { "open": pss_open, "after_pan_zoom": pss_after },
            "web_anon_mb": { "open": anon_open, "after_pan_zoom": anon_after }, "frames": m,
        });
        println!("{v}");
        assert!(m["pan"]["interval"]["frames"].as_u64().unwrap_or(0) >= 10, "too few pan frames: {v}");
        assert!(m["pan"]["busy"]["frames"].as_u64().unwrap_or(0) >= 10, "no busy times: {v}");
        assert!(
            m["zoom_max"].as_f64().unwrap_or(0.0) > m["zoom_from"].as_f64().unwrap_or(0.0),
            "the wheel did not zoom: {v}"
        );
        assert_eq!(m["pan_moved"], true, "the drag did not pan: {v}");
        assert!(pss_open > 10.0, "no PSS for the web process: {v}");
        app.quit().await;
    }
}
