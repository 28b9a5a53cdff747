//! What the perf test does to the app (and to the baseline page) and how it times it: all
//! times are taken in the page (`performance.now()`, requestAnimationFrame), so the WebDriver
//! round trips are not in them.

use std::time::Duration;

use serde_json::{json, Value};

use crate::harness::Desktop;

/// Order statistics of a list of samples (ms): median, p95, max, min, and the samples.
pub fn stats(samples: &[f64]) -> Value {
    let mut s: Vec<f64> = samples.to_vec();
    s.sort_by(f64::total_cmp);
    let q = |p: f64| -> f64 {
        if s.is_empty() {
            return 0.0;
        }
        s[((p * s.len() as f64).ceil() as usize).clamp(1, s.len()) - 1]
    };
    json!({"frames": s.len(), "median": q(0.5), "p95": q(0.95), "max": q(1.0), "min": s.first().copied().unwrap_or(0.0), "samples": samples})
}

/// React Flow's viewport transform as `[x, y, zoom]` (the same element on both pages).
const VIEWPORT: &str = "const v = document.querySelector('.react-flow__viewport'); if (!v) return null;
    const m = new DOMMatrix(getComputedStyle(v).transform); return [m.e, m.f, m.a];";

async fn viewport(app: &Desktop) -> [f64; 3] {
    let v = app.driver.execute(VIEWPORT, vec![]).await.expect("viewport").json().clone();
    let f = |i: usize| v[i].as_f64().unwrap_or(f64::NAN);
    [f(0), f(1), f(2)]
}

/// The drag: 60 moves of (-6, -3) px, 16 ms apart.
const DRAG_MOVES: i64 = 60;
const DRAG_DX: i64 = -6;
const DRAG_DY: i64 = -3;

/// A start point for the drag that is really empty pane on either page: the pane element is
/// what is hit there (no node, no edge, no panel), the point is outside every node box of the
/// generated grid (`n` nodes, `round(sqrt(n))` per column, 290 x 100 apart, boxes up to
/// 200 x 60 plus a margin; the overview canvas draws nodes without DOM elements, so
/// `elementFromPoint` alone cannot see them), and the whole drag stays inside the pane.
/// Searched from the bottom right (where the fitted graph leaves margins) inward. `null` when
/// there is none: the caller fails.
const START_POINT: &str = "const [n, mdx, mdy] = arguments;
    const pane = document.querySelector('.react-flow__pane'); if (!pane) return null;
    const r = pane.getBoundingClientRect();
    const v = document.querySelector('.react-flow__viewport');
    const m = new DOMMatrix(getComputedStyle(v).transform); const tx = m.e, ty = m.f, z = m.a;
    const perCol = Math.max(4, Math.round(Math.sqrt(n))); const cols = Math.ceil(n / perCol);
    const onNode = (fx, fy) => {
      const pad = 12 / z;
      // __start__ and __end__ sit at row 0, one column before and after the grid.
      for (let c = Math.floor((fx + pad) / 290) - 1; c <= Math.floor((fx + pad) / 290); c++) {
        if (c < -1 || c > cols) continue;
        for (let row = Math.floor((fy + pad) / 100) - 1; row <= Math.floor((fy + pad) / 100); row++) {
          if (row < 0 || row >= perCol) continue;
          if ((c === -1 || c === cols) && row !== 0) continue;
          if (c >= 0 && c < cols && c * perCol + row >= n) continue;
          const x = c * 290, y = row * 100;
          if (fx > x - pad && fx < x + 200 + pad && fy > y - pad && fy < y + 60 + pad) return true;
        }
      }
      return false;
    };
    const paneAt = (x, y) => { const el = document.elementFromPoint(x, y); return !!el && el === pane; };
    const x0 = r.left - mdx + 10, y0 = r.top - mdy + 10;
    for (let y = r.bottom - 12; y >= y0; y -= 7)
      for (let x = r.right - 12; x >= x0; x -= 9) {
        // Keep clear of the panels in the corners (controls, minimap).
        if (!paneAt(x, y) || !paneAt(x + mdx / 2, y + mdy / 2)) continue;
        if (onNode((x - r.left - tx) / z, (y - r.top - ty) / z)) continue;
        return { x, y };
      }
    return null;";

/// 40 wheel steps on the middle of the pane (20 in, 20 out), one per animation frame, with
/// the frame intervals sampled: `{stats, z0, zmax}` (the zoom before, and the largest seen).
/// React Flow's zoom listens to wheel events on the pane's ancestors. Shared with
/// `tests/canvas_frames.rs`.
pub async fn wheel_zoom(app: &Desktop) -> Value {
    app.driver
        .execute_async(
            "const done = arguments[arguments.length - 1];
             const pane = document.querySelector('.react-flow__pane'); const r = pane.getBoundingClientRect();
             const cx = r.left + r.width / 2, cy = r.top + r.height / 2;
             const z = () => new DOMMatrix(getComputedStyle(document.querySelector('.react-flow__viewport')).transform).a;
             const z0 = z(); let zmax = z0; let k = 0;
             window.__trellisPerf.startSampling();
             const tick = () => {
               if (k >= 40) { const s = window.__trellisPerf.stopSampling(); return done({ stats: s, z0, zmax }); }
               const dy = k < 20 ? -60 : 60; k++;
               pane.dispatchEvent(new WheelEvent('wheel', { deltaY: dy, deltaMode: 0, clientX: cx, clientY: cy, bubbles: true, cancelable: true }));
               requestAnimationFrame(() => { zmax = Math.max(zmax, z()); tick(); });
             };
             requestAnimationFrame(tick);",
            vec![],
        )
        .await
        .expect("zoom")
        .json()
        .clone()
}

/// A real pointer drag of the pane, then 40 wheel steps (20 in around the centre, 20 out),
/// one per animation frame; frame intervals (requestAnimationFrame) of each phase. The
/// viewport must have followed the drag (at least a third of it) and the wheel: a figure from
/// a drag that did not pan would be the cost of doing nothing, so that fails the test.
pub async fn pan_and_zoom(app: &Desktop, n: usize) -> Value {
    let (mdx, mdy) = (DRAG_MOVES * DRAG_DX, DRAG_MOVES * DRAG_DY);
    pan_and_zoom_from(app, n, START_POINT, vec![json!(n), json!(mdx), json!(mdy)]).await
}

/// [`pan_and_zoom`] on a graph laid out anywhere (not the generated grid): the drag starts at
/// the page's own `emptyPoint()` (the app's hit test; the baseline's `elementFromPoint`).
pub async fn pan_and_zoom_anywhere(app: &Desktop, n: usize) -> Value {
    pan_and_zoom_from(app, n, "return window.__trellisPerf.emptyPoint();", vec![]).await
}

async fn pan_and_zoom_from(app: &Desktop, n: usize, start_script: &str, args: Vec<Value>) -> Value {
    let d = &app.driver;
    let (mdx, mdy) = (DRAG_MOVES * DRAG_DX, DRAG_MOVES * DRAG_DY);
    let start = d.execute(start_script, args).await.expect("start point");
    let start = start.json().clone();
    assert!(start.is_object(), "no point of empty pane to start the drag from ({n} nodes)");
    let (x, y) = (start["x"].as_f64().unwrap_or(0.0) as i64, start["y"].as_f64().unwrap_or(0.0) as i64);
    let before = viewport(app).await;
    d.execute("window.__trellisPerf.startSampling()", vec![]).await.expect("sampling");
    let mut chain =
        d.action_chain_with_delay(None, Some(Duration::from_millis(16))).move_to(x, y).click_and_hold();
    for _ in 0..DRAG_MOVES {
        chain = chain.move_by_offset(DRAG_DX, DRAG_DY);
    }
    chain.release().perform().await.expect("pan");
    let pan =
        d.execute("return window.__trellisPerf.stopSampling()", vec![]).await.expect("stop").json().clone();
    let after = viewport(app).await;
    let (pdx, pdy) = (after[0] - before[0], after[1] - before[1]);
    let panned = pdx.hypot(pdy);
    let wanted = ((mdx * mdx + mdy * mdy) as f64).sqrt();
    assert!(
        panned >= wanted / 3.0,
        "the drag from ({x}, {y}) did not pan ({n} nodes): the viewport moved by ({pdx:.0}, {pdy:.0}) px for a {wanted:.0} px drag; before {before:?}, after {after:?}"
    );
    let zoom = wheel_zoom(app).await;
    let (z0, zmax) = (zoom["z0"].as_f64().unwrap_or(0.0), zoom["zmax"].as_f64().unwrap_or(0.0));
    assert!(zmax > z0 * 1.5, "the wheel steps did not zoom in ({n} nodes): zoom {z0} -> at most {zmax}");
    let samples = |v: &Value| -> Vec<f64> {
        v["samples"].as_array().map(|a| a.iter().filter_map(Value::as_f64).collect()).unwrap_or_default()
    };
    let pan_samples = samples(&pan);
    let zoom_samples = samples(&zoom["stats"]);
    let all: Vec<f64> = pan_samples.iter().chain(zoom_samples.iter()).copied().collect();
    let mode = d
        .execute("return window.__trellisPerf.renderMode()", vec![])
        .await
        .map(|r| r.json().clone())
        .unwrap_or_default();
    json!({
        "pan": stats(&pan_samples), "zoom": stats(&zoom_samples), "all": stats(&all),
        "pan_start": [x, y], "pan_moved_px": [pdx.round(), pdy.round()], "zoom_range": [z0, zmax],
        "mode_after": mode,
    })
}

/// Ctrl+O (the open command, answered by the dialog bypass) to the new document's first drawn
/// frame: the UI marks it (`firstDrawnAt`, `data-ready`) two animation frames after it fitted
/// the view and scheduled the drawing of every node in view (ui/src/canvas/Canvas.tsx). Also
/// reads `drawnNodes()` (the overview's count of nodes in its cached bitmap) at that frame and
/// once more a second later, to show what that hook reports.
pub async fn open_to_drawn(app: &Desktop, n: usize, limit_ms: u64) -> Value {
    app.driver
        .execute_async(
            "const [n, limit, done] = arguments; const t0 = performance.now();
             window.__trellisPerf?.editTrace?.(true);
             window.dispatchEvent(new KeyboardEvent('keydown', { key: 'o', code: 'KeyO', ctrlKey: true, bubbles: true, cancelable: true }));
             const check = () => {
               const Q = window.__trellisPerf; const a = document.querySelector('[data-testid=app]');
               const f = Q && Q.firstDrawnAt();
               if (Q && Q.nodeCount() === n && a && a.dataset.ready === 'true' && f != null && f > t0) {
                 const atFirst = Q.drawnNodes();
                 // Where the time went (the UI's trace, as for an edit), up to the first frame.
                 const stages = (Q.editTrace?.(true) ?? []).filter((m) => m.at <= f)
                   .map((m) => [m.stage, Math.round(m.at - t0), m.ms === undefined ? null : Math.round(m.ms)]);
                 return setTimeout(() => done({ ms: f - t0, stages, mode: Q.renderMode(), dom_nodes: Q.domNodeCount(),
                   drawn_nodes_at_first_frame: atFirst, drawn_nodes_1s_later: Q.drawnNodes() }), 1000);
               }
               if (performance.now() - t0 > limit) return done({ ms: null, waited_ms: performance.now() - t0, count: Q && Q.nodeCount(), ready: a && a.dataset.ready, first: f, t0 });
               requestAnimationFrame(check);
             };
             requestAnimationFrame(check);",
            vec![json!(n), json!(limit_ms)],
        )
        .await
        .expect("open script")
        .json()
        .clone()
}

/// Where an open's time goes past Rust's own work: the whole document view asked for again
/// (`get_document`: the view built, written as JSON, carried over IPC and read by the page), and
/// the page's `JSON.parse` of the same text alone.
pub async fn view_over_ipc(app: &Desktop) -> Value {
    app.driver
        .execute_async(
            "const done = arguments[0]; const I = window.__TAURI_INTERNALS__;
             I.invoke('list_documents').then(async (docs) => {
               const t0 = performance.now();
               const v = await I.invoke('get_document', { docId: docs[docs.length - 1].id });
               const ipc = performance.now() - t0;
               const text = JSON.stringify(v);
               const t1 = performance.now();
               JSON.parse(text);
               const parse = performance.now() - t1;
               done({ ms: Math.round(ipc), parse_ms: Math.round(parse), mb: Math.round(text.length / 1e5) / 10,
                      nodes: v.spec.nodes.length });
             }, (e) => done({ error: String(e) }));",
            vec![],
        )
        .await
        .expect("view script")
        .json()
        .clone()
}

/// Where the document's nodes are: on the generated grid of its sidecar (issue 8's documents),
/// or wherever the app drew them (a document opened without positions, laid out by the app).
#[derive(Clone, Copy)]
pub enum Layout {
    Grid,
    Drawn,
}

/// The generated grid's place of node `n<i>` (flow coordinates of its top-left corner).
fn grid_pos(n: usize, i: usize) -> (f64, f64) {
    let per_col = ((n as f64).sqrt().round() as usize).max(4);
    ((i / per_col) as f64 * 290.0, (i % per_col) as f64 * 100.0)
}

/// Fits the whole graph in view (the overview drawing at these sizes; zoomed in on the node
/// when that leaves it a pixel or less, as at 100,000 nodes), then clicks node
/// `n<i>` where it is drawn, a real pointer click, and checks the inspector shows it (the
/// selection took). The same way as the e2e tests select on the overview canvas.
async fn select_node(app: &Desktop, n: usize, i: usize, layout: Layout) {
    let id = format!("n{i}");
    app.driver.execute("window.__trellisPerf.fitView()", vec![]).await.expect("fit");
    tokio::time::sleep(Duration::from_millis(700)).await;
    let at = match layout {
        Layout::Grid => {
            let (fx, fy) = grid_pos(n, i);
            app.driver
                .execute(
                    "const [fx, fy] = arguments;
                     const r = document.querySelector('.react-flow__pane').getBoundingClientRect();
                     const m = new DOMMatrix(getComputedStyle(document.querySelector('.react-flow__viewport')).transform);
                     // The middle of the node's 200 x 60 box.
                     return { x: r.left + m.e + (fx + 100) * m.a, y: r.top + m.f + (fy + 30) * m.a, zoom: m.a };",
                    vec![json!(fx), json!(fy)],
                )
                .await
        }
        Layout::Drawn => {
            // Fitted, 100,000 nodes are under a pixel each (zoom 0.01): no one clicks one
            // there. Zoom in on it as a user would (still the overview drawing, below 45%).
            app.driver
                .execute(
                    "const P = window.__trellisPerf; const v = P.getViewport();
                     if (60 * v.zoom >= 6) return false;
                     const p = P.nodePoint(arguments[0]);
                     const r = document.querySelector('[data-testid=canvas]').getBoundingClientRect();
                     const fx = (p.x - r.left - v.x) / v.zoom, fy = (p.y - r.top - v.y) / v.zoom, z = 0.25;
                     P.setViewport({ x: r.width / 2 - fx * z, y: r.height / 2 - fy * z, zoom: z });
                     return true;",
                    vec![json!(id)],
                )
                .await
                .expect("zoom in on the node");
            tokio::time::sleep(Duration::from_millis(700)).await;
            app.driver
                .execute(
                    "const p = window.__trellisPerf.nodePoint(arguments[0]);
                     const m = new DOMMatrix(getComputedStyle(document.querySelector('.react-flow__viewport')).transform);
                     return p && { x: p.x, y: p.y, zoom: m.a };",
                    vec![json!(id)],
                )
                .await
        }
    }
    .expect("where the node is")
    .json()
    .clone();
    assert!(at.is_object(), "the canvas does not know where {id} is drawn");
    let (x, y) =
        (at["x"].as_f64().unwrap_or(0.0).round() as i64, at["y"].as_f64().unwrap_or(0.0).round() as i64);
    app.driver
        .action_chain_with_delay(None, Some(Duration::from_millis(20)))
        .move_to(x, y)
        .click()
        .perform()
        .await
        .expect("click the node");
    app.wait_js(
        &format!(
            "const e = document.querySelector('[data-testid=node-id-input]'); return !!e && e.value === '{id}';"
        ),
        &format!("the inspector to show {id} after a click on it at ({x}, {y}), zoom {}", at["zoom"]),
    )
    .await;
}

/// The script's helpers for a timed edit. `drawnThen`, called in an animation frame callback
/// (the first frame that sees the edit applied), runs its argument once that frame has been
/// rendered: a message posted in the callback is handled only after the frame's rendering
/// update (how the frame sampler measures a frame's cost too). `traced` is the answer,
/// `{ms, stages}`, the stages being the UI's edit trace (`ui/src/perf/editTrace.ts`) as
/// `[stage, at ms after the key, own ms]`: where the time went.
const TRACED: &str = "const drawnThen = (f) => { const c = new MessageChannel(); c.port1.onmessage = () => f(); c.port2.postMessage(0); };
const traced = (P, t0) => ({ ms: performance.now() - t0, stages: (P.editTrace?.(true) ?? []).map((m) => [m.stage, Math.round((m.at - t0) * 10) / 10, m.ms === undefined ? null : Math.round(m.ms * 10) / 10]) });";

/// Splits a timed edit's answer into its figure and its stages (null figure: not done).
fn timed(answer: &Value) -> (Option<f64>, Value) {
    (answer["ms"].as_f64(), answer["stages"].clone())
}

/// From a key press (dispatched as the UI receives it) to the end of the first frame rendered
/// once the UI's document shows `want` nodes (`drawnThen`): Rust answered, the UI applied it,
/// and the result was drawn.
fn timed_key(key: &str, ctrl: bool, want: usize) -> String {
    format!(
        "{TRACED}
         const done = arguments[arguments.length - 1]; const P = window.__trellisPerf;
         P.editTrace?.(true);
         const t0 = performance.now();
         window.dispatchEvent(new KeyboardEvent('keydown', {{ key: '{key}', ctrlKey: {ctrl}, bubbles: true, cancelable: true }}));
         const check = () => {{
           if (P.nodeCount() === {want}) return drawnThen(() => done(traced(P, t0)));
           if (performance.now() - t0 > 30000) return done(null);
           requestAnimationFrame(check);
         }};
         requestAnimationFrame(check);"
    )
}

/// Save to screen: node `n3` deleted (the document dirty), then Ctrl+S, from the key press to
/// the end of the first frame rendered once the UI's document is clean (Rust wrote the file and
/// its layout file, answered, and the UI applied the answer). `runs` times (the node deleted
/// each time is the next one). Answers the times and the file's bytes afterwards (read by the
/// caller).
pub async fn save_to_screen(app: &Desktop, n: usize, runs: usize) -> Value {
    let d = &app.driver;
    let mut saves = Vec::new();
    let mut stages = Value::Null;
    for run in 0..runs {
        select_node(app, n, 3 + run, Layout::Drawn).await;
        let deleted =
            d.execute_async(&timed_key("Delete", false, n - run - 1), vec![]).await.expect("delete");
        assert!(timed(deleted.json()).0.is_some(), "Delete did not remove n{} within 30 s", 3 + run);
        let answer = d
            .execute_async(
                &format!(
                    "{TRACED}
                     const done = arguments[arguments.length - 1]; const P = window.__trellisPerf;
                     if (!P.activeView().dirty) return done(null);
                     P.editTrace?.(true);
                     const t0 = performance.now();
                     window.dispatchEvent(new KeyboardEvent('keydown', {{ key: 's', ctrlKey: true, bubbles: true, cancelable: true }}));
                     const check = () => {{
                       if (!P.activeView().dirty) return drawnThen(() => done(traced(P, t0)));
                       if (performance.now() - t0 > 30000) return done(null);
                       requestAnimationFrame(check);
                     }};
                     requestAnimationFrame(check);"
                ),
                vec![],
            )
            .await
            .expect("save");
        let (ms, trace) = timed(answer.json());
        assert!(ms.is_some(), "Ctrl+S did not leave the document clean within 30 s: {}", answer.json());
        saves.push(ms.unwrap_or_default());
        stages = trace;
    }
    json!({ "save": stats(&saves), "stages": stages })
}

/// Edit to screen, `runs` times each: select node `n3` with a click, Delete, to the frame
/// drawn without it; Ctrl+Z, to the frame with it back; then a config field typed in the
/// inspector (`max_tokens` of the llm node `n0`), from Enter to the frame drawn after Rust's
/// answer was applied (the inspector's raw JSON view shows the new value). Every step is
/// checked: a null figure fails the test.
pub async fn edit_to_screen(app: &Desktop, n: usize, runs: usize, layout: Layout) -> Value {
    let d = &app.driver;
    let (mut delete, mut undo, mut config) = (Vec::new(), Vec::new(), Vec::new());
    // The stages of the last run of each (where the time went).
    let mut stages = json!({});
    for _ in 0..runs {
        select_node(app, n, 3, layout).await;
        let answer = d.execute_async(&timed_key("Delete", false, n - 1), vec![]).await.expect("delete");
        let (ms, trace) = timed(answer.json());
        stages["delete"] = trace;
        assert!(ms.is_some(), "Delete did not remove the selected node n3 within 30 s");
        delete.push(ms.unwrap_or_default());
        if delete.len() == 1 {
            // The node removed is the one clicked (Rust's document, not only the count).
            let doc = d
                .execute("return document.querySelector('[data-testid=app]').dataset.activeDoc", vec![])
                .await
                .expect("active doc");
            // Read in the page: the whole view of 100,000 nodes is too large for a WebDriver answer.
            let left = d
                .execute_async(
                    "const [id, done] = arguments; window.__TAURI_INTERNALS__.invoke('get_document', {docId: id}).then((v) => done({ count: v.spec.nodes.length, n3: v.spec.nodes.some((x) => x.id === 'n3') }), () => done(null));",
                    vec![doc.json().clone()],
                )
                .await
                .expect("the document after Delete");
            let left = left.json();
            assert!(
                left["count"].as_u64() == u64::try_from(n - 1).ok() && left["n3"] == false,
                "Delete removed something else than n3: {left}"
            );
        }
        tokio::time::sleep(Duration::from_millis(300)).await;
        let answer = d.execute_async(&timed_key("z", true, n), vec![]).await.expect("undo");
        let (ms, trace) = timed(answer.json());
        stages["undo"] = trace;
        assert!(ms.is_some(), "Ctrl+Z did not bring n3 back within 30 s");
        undo.push(ms.unwrap_or_default());
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
    select_node(app, n, 0, layout).await;
    // The raw JSON view follows the document: it changes when Rust's answer is applied.
    d.execute(
        "const t = document.querySelector('[data-testid=config-raw-toggle]'); if (t && !t.parentElement.open) t.click();",
        vec![],
    )
    .await
    .expect("open the raw JSON view");
    app.wait_js("return !!document.querySelector('[data-testid=config-raw]');", "the raw JSON view").await;
    for k in 0..runs {
        let value = 1000 + k as u64 * 7;
        let field = app.visible("[data-testid=\"config-field-max_tokens\"]").await;
        field.click().await.expect("focus max_tokens");
        app.chord(&[thirtyfour::prelude::Key::Control], "a").await;
        field.send_keys(value.to_string()).await.expect("type");
        let answer = d
            .execute_async(
                &format!("{TRACED}
                 const [value, done] = arguments; const f = document.querySelector('[data-testid=config-field-max_tokens]');
                 const raw = () => document.querySelector('[data-testid=config-raw]').value;
                 const want = new RegExp('\"max_tokens\": ' + value + '\\\\b');
                 if (want.test(raw())) return done('already applied');
                 const P = window.__trellisPerf;
                 P.editTrace?.(true);
                 const t0 = performance.now();
                 f.dispatchEvent(new KeyboardEvent('keydown', {{ key: 'Enter', bubbles: true, cancelable: true }}));
                 const check = () => {{
                   if (want.test(raw())) return drawnThen(() => done(traced(P, t0)));
                   if (performance.now() - t0 > 30000) return done(null);
                   requestAnimationFrame(check);
                 }};
                 requestAnimationFrame(check);"),
                vec![json!(value)],
            )
            .await
            .expect("config edit");
        let (ms, trace) = timed(answer.json());
        assert!(ms.is_some(), "the max_tokens edit to {value} was not applied and drawn: {}", answer.json());
        stages["config_field"] = trace;
        config.push(ms.unwrap_or_default());
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
    json!({"delete": stats(&delete), "undo": stats(&undo), "config_field": stats(&config), "runs": runs, "stages": stages})
}

/// The IPC floor: a command that does next to nothing (`list_documents`), invoked from the page
/// 30 times one after another: the part of every edit's "answered" that is not Rust's work.
pub async fn ipc_round_trip(app: &Desktop) -> Value {
    let js = "const done = arguments[0]; const I = window.__TAURI_INTERNALS__; const ms = [];
      (async () => {
        for (let i = 0; i < 30; i++) { const t0 = performance.now(); await I.invoke('list_documents'); ms.push(performance.now() - t0); }
        ms.sort((a, b) => a - b);
        done({ median: ms[15], min: ms[0], max: ms[29] });
      })().catch((e) => done({ error: String(e) }));";
    app.driver.execute_async(js, vec![]).await.expect("IPC round trips").json().clone()
}

/// The baseline page in the same webview: plain React Flow, same size and grid.
pub async fn baseline(app: &Desktop, origin: &str, n: usize) -> Value {
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
    let mut v = pan_and_zoom(app, n).await;
    v["open_ms"] = json!(open_ms);
    v
}

/// The real-file baseline (issue 13): plain React Flow on `baseline.html?external=1`, handed the
/// document's nodes and edges (and trellis-layout's positions), laid out by elkjs in a worker
/// (given up after `limit_ms`), then the same drag and zoom as the app's at zoom 1.
/// `{layout_ms, timed_out, error, drawn, open_ms, pan, zoom, all}`: when elkjs gave up or failed
/// the page draws the positions handed over (`drawn: "trellis-layout"`); without the frame
/// figures when nothing was drawn.
pub async fn baseline_real(app: &Desktop, origin: &str, graph: &Value, limit_ms: u64) -> Value {
    let t0 = std::time::Instant::now();
    app.driver.goto(format!("{origin}/baseline.html?external=1")).await.expect("baseline page");
    app.wait_js("return typeof window.__trellisBaseline === 'function';", "the baseline page").await;
    app.driver.set_script_timeout(Duration::from_millis(limit_ms + 60_000)).await.expect("script timeout");
    let loaded = app
        .driver
        .execute_async(
            "const [g, limit, done] = arguments; window.__trellisBaseline(g, limit).then(done, (e) => done({ error: String(e) }));",
            vec![graph.clone(), json!(limit_ms)],
        )
        .await
        .expect("the baseline layout")
        .json()
        .clone();
    let outcome = json!({
        "layout_ms": loaded["layout_ms"], "timed_out": loaded["timed_out"], "limit_ms": limit_ms,
        "error": loaded["error"], "drawn": loaded["drawn"],
    });
    if loaded["drawn"].is_null() {
        return outcome;
    }
    let n = graph["nodes"].as_array().map_or(0, Vec::len);
    app.wait_js(
        &format!("return document.querySelectorAll('.react-flow__node').length >= {n};"),
        "the baseline to draw its nodes",
    )
    .await;
    let open_ms = t0.elapsed().as_secs_f64() * 1000.0;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let mut v = pan_and_zoom_anywhere(app, n).await;
    v["open_ms"] = json!(open_ms);
    for key in ["layout_ms", "timed_out", "limit_ms", "error", "drawn"] {
        v[key] = outcome[key].clone();
    }
    v
}
