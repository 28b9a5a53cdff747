//! Issue 14: files dropped from the OS onto the window open, as File > Open opens them. The drop
//! is a real one: a second process (`trellis-test-drag-source`, a GTK window offering files as
//! `text/uri-list`, as a file manager does) is dragged onto Trellis with the X pointer moved by
//! XTest (libxdo), so the desktop's XDND protocol carries the files from one process to the
//! other and the app's GTK handler (src/file_drop.rs) receives them; the page never sees a
//! path. While the files are over the window a hint says a drop opens them; a GraphSpec, a
//! Weaveflow file and a folder holding a GRAPH.md open in three tabs; a `package.json` dropped
//! with them is refused with the same notice as the Open dialog's, a folder without a GRAPH.md
//! and a web link are refused with theirs.
//! And a real HTML5 drag inside the page (the registry browser onto the canvas, the same X
//! pointer gesture) still adds its node: the handler leaves the page's own drags to WebKit.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use crate::harness::{corpus, Desktop, Launch, PATIENCE};

const EXAMPLE: &str = include_str!("../../../crates/doc/assets/example.json");

/// A file URI for a path (the spaces and non-ASCII letters percent-encoded, as file managers do).
fn file_uri(p: &Path) -> String {
    let mut out = String::from("file://");
    for b in p.to_string_lossy().bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'/' | b'-' | b'_' | b'.' | b'~' => out.push(b as char),
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// The drag source on `display` at (`x`, `y`), offering `uris`; answers its output lines.
fn drag_source(
    display: &str,
    x: i32,
    y: i32,
    uris: &[String],
) -> (std::process::Child, mpsc::Receiver<String>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_trellis-test-drag-source"))
        .arg(x.to_string())
        .arg(y.to_string())
        .args(uris)
        .env("DISPLAY", display)
        .env("NO_AT_BRIDGE", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the drag source");
    let out = child.stdout.take().expect("stdout");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(out).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    (child, rx)
}

fn wait_line(rx: &mpsc::Receiver<String>, want: &str) {
    let deadline = std::time::Instant::now() + PATIENCE;
    loop {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        match rx.recv_timeout(left) {
            Ok(l) if l == want => return,
            Ok(_) => {}
            Err(e) => panic!("the drag source did not say {want:?}: {e}"),
        }
    }
}

/// Presses the pointer at `from` and moves it in steps to `to`, as a hand does (XTest: the X
/// server sees real device events); the button stays down.
fn press_and_move(display: &str, from: (i32, i32), to: (i32, i32)) {
    let xdo = libxdo::XDo::new(Some(display)).expect("an XTest connection");
    let pause = || std::thread::sleep(Duration::from_millis(40));
    xdo.move_mouse(from.0, from.1, 0).expect("move");
    pause();
    xdo.mouse_down(1).expect("press");
    pause();
    let steps = 25;
    for i in 1..=steps {
        let x = from.0 + (to.0 - from.0) * i / steps;
        let y = from.1 + (to.1 - from.1) * i / steps;
        xdo.move_mouse(x, y, 0).expect("move");
        pause();
    }
}

/// A few moves on the target so it sees the drag settle, as a hand's tremor does, then the
/// release (a new XTest connection: the button state is the server's).
fn settle_and_release(display: &str, at: (i32, i32)) {
    let xdo = libxdo::XDo::new(Some(display)).expect("an XTest connection");
    for d in [1, -1, 1] {
        xdo.move_mouse(at.0 + d, at.1, 0).expect("move");
        std::thread::sleep(Duration::from_millis(40));
    }
    xdo.mouse_up(1).expect("release");
}

/// A whole drag: press at `from`, move to `to`, release there.
fn drag_pointer(display: &str, from: (i32, i32), to: (i32, i32)) {
    press_and_move(display, from, to);
    settle_and_release(display, to);
}

#[tokio::test(flavor = "multi_thread")]
async fn files_dropped_from_the_desktop_open_in_tabs_and_the_others_are_told() {
    let dir = tempfile::tempdir().expect("tmp");
    let folder = dir.path().join("my flows é");
    std::fs::create_dir(&folder).expect("mkdir");
    let support = folder.join("support.json");
    std::fs::write(&support, EXAMPLE).expect("write");
    let weaveflow = folder.join("supervisor_mode.json");
    std::fs::copy(corpus("weaveflow/supervisor_mode.json"), &weaveflow).expect("copy");
    let triage = folder.join("triage");
    std::fs::create_dir(&triage).expect("mkdir");
    std::fs::copy(corpus("graphmd/support-triage/GRAPH.md"), triage.join("GRAPH.md")).expect("copy");
    let empty = folder.join("empty-folder");
    std::fs::create_dir(&empty).expect("mkdir");
    let package = folder.join("package.json");
    std::fs::write(&package, "{\n  \"name\": \"some-app\",\n  \"version\": \"1.0.0\"\n}\n").expect("write");

    let app = Desktop::launch(Launch::default()).await;
    let before = app.documents().await.len();

    // Trellis's window and, right of it, the file manager's window with three files and a link.
    let r = app.driver.get_window_rect().await.expect("window rect");
    let target = ((r.x + r.width / 2) as i32, (r.y + r.height / 2) as i32);
    let uris = vec![
        file_uri(&support),
        file_uri(&weaveflow),
        file_uri(&package),
        file_uri(&empty),
        file_uri(&triage),
        "https://example.com/graph.json".to_owned(),
    ];
    let source_at = ((r.x + r.width) as i32 + 10, (r.y + r.height) as i32 - 120);
    let (mut child, lines) = drag_source(&app.display, source_at.0, source_at.1, &uris);
    let display = app.display.clone();
    let lines = tokio::task::spawn_blocking(move || {
        wait_line(&lines, "ready");
        press_and_move(&display, (source_at.0 + 50, source_at.1 + 50), target);
        lines
    })
    .await
    .expect("the drag");
    // Over the window, before the drop: the hint says a drop opens the files.
    let hint = app.visible("[data-testid=\"file-drop-hint\"]").await;
    assert!(hint.text().await.expect("text").contains("Drop to open"));
    let display = app.display.clone();
    tokio::task::spawn_blocking(move || {
        settle_and_release(&display, target);
        wait_line(&lines, "dragged");
        wait_line(&lines, "end");
    })
    .await
    .expect("the drop");
    let _ = child.wait();
    app.wait_js("return !document.querySelector('[data-testid=file-drop-hint]');", "the hint to go").await;

    // Three documents opened (a folder's GRAPH.md among them), each in its own tab, the last
    // one shown.
    let deadline = std::time::Instant::now() + PATIENCE;
    while app.documents().await.len() < before + 3 {
        assert!(
            std::time::Instant::now() < deadline,
            "the dropped files did not open: {:?}",
            app.documents().await
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let docs = app.documents().await;
    assert_eq!(docs.len(), before + 3, "{docs:?}");
    let support_id = app.doc_named("support.json").await;
    let weaveflow_id = app.doc_named("supervisor_mode.json").await;
    let graph_id = app.doc_named("GRAPH.md").await;
    for id in [&support_id, &weaveflow_id, &graph_id] {
        app.visible(&format!("[data-testid=\"tab\"][data-doc-id=\"{id}\"]")).await;
    }
    app.wait_js(
        &format!("return document.querySelector('[data-testid=app]').dataset.activeDoc === '{graph_id}';"),
        "the last file dropped to be shown",
    )
    .await;
    let path = app.view(&support_id).await["path"].as_str().unwrap_or_default().to_owned();
    assert!(path.ends_with("my flows é/support.json"), "the path decoded from the URI: {path}");
    assert_eq!(app.view(&weaveflow_id).await["format"], "weaveflow");
    assert_eq!(app.view(&graph_id).await["format"], "graphmd");
    let path = app.view(&graph_id).await["path"].as_str().unwrap_or_default().to_owned();
    assert!(path.ends_with("triage/GRAPH.md"), "the folder's GRAPH.md: {path}");

    // package.json: refused as the Open dialog refuses it, told in the window; the link too.
    let notice = app.visible("[data-testid=\"open-failure\"][data-file=\"package.json\"]").await;
    let text = notice.text().await.expect("text");
    assert!(text.contains("not a graph document: no `nodes`"), "{text}");
    let folder_notice = app.visible("[data-testid=\"open-failure\"][data-file=\"empty-folder\"]").await;
    let text = folder_notice.text().await.expect("text");
    assert!(text.contains("folder without a GRAPH.md"), "{text}");
    let link = app.visible("[data-testid=\"open-failure\"][data-file=\"graph.json\"]").await;
    let text = link.text().await.expect("text");
    assert!(text.contains("not a file"), "{text}");
    assert!(docs.iter().all(|d| d["fileName"] != "package.json"), "{docs:?}");
    app.quit().await;
}

/// Where the page's (0, 0) is on the screen: the pointer is moved to a screen point with XTest
/// and the page says where it saw it (so window decorations and the menu bar need no guessing).
async fn page_origin(app: &Desktop) -> (i32, i32) {
    app.driver
        .execute(
            "window.__seen = null; window.addEventListener('mousemove', (e) => { window.__seen = [e.clientX, e.clientY]; });",
            vec![],
        )
        .await
        .expect("listen");
    let r = app.driver.get_window_rect().await.expect("window rect");
    let probe = ((r.x + r.width / 2) as i32, (r.y + r.height / 2) as i32);
    let display = app.display.clone();
    tokio::task::spawn_blocking(move || {
        let xdo = libxdo::XDo::new(Some(&display)).expect("an XTest connection");
        xdo.move_mouse(probe.0 - 5, probe.1 - 5, 0).expect("move");
        std::thread::sleep(Duration::from_millis(50));
        xdo.move_mouse(probe.0, probe.1, 0).expect("move");
    })
    .await
    .expect("probe");
    let deadline = std::time::Instant::now() + PATIENCE;
    loop {
        let seen = app.driver.execute("return window.__seen;", vec![]).await.expect("read").json().clone();
        if let (Some(x), Some(y)) = (seen[0].as_f64(), seen[1].as_f64()) {
            if (x, y) != (0.0, 0.0) {
                return (probe.0 - x.round() as i32, probe.1 - y.round() as i32);
            }
        }
        assert!(std::time::Instant::now() < deadline, "the page never saw the pointer");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn a_real_html5_drag_from_the_registry_browser_still_adds_a_node() {
    // The drop handler takes only drags from outside the app: a drag the page starts (the
    // registry browser's) must still reach the page. A real one, with the X pointer, from the
    // item to the canvas.
    let app = Desktop::launch(Launch::default()).await;
    let first = app.documents().await[0]["id"].as_str().unwrap_or_default().to_string();
    app.visible("[data-testid=\"btn-new\"]").await.click().await.expect("New");
    let id = app.wait_other_doc(&first).await;
    let item = app.visible("[data-testid=\"registry-item\"][data-type=\"llm\"]").await;
    item.scroll_into_view().await.expect("in view");
    let rects = app
        .driver
        .execute(
            "const i = document.querySelector('[data-testid=\"registry-item\"][data-type=\"llm\"]').getBoundingClientRect();
             const p = document.querySelector('.react-flow__pane').getBoundingClientRect();
             return [i.left + i.width / 2, i.top + i.height / 2, p.left + p.width * 0.5, p.top + p.height * 0.4];",
            vec![],
        )
        .await
        .expect("rects")
        .json()
        .clone();
    let at = |k: usize| rects[k].as_f64().expect("a number").round() as i32;
    let origin = page_origin(&app).await;
    let from = (origin.0 + at(0), origin.1 + at(1));
    let to = (origin.0 + at(2), origin.1 + at(3));
    let display = app.display.clone();
    tokio::task::spawn_blocking(move || drag_pointer(&display, from, to)).await.expect("the drag");
    let view = app
        .wait_view(&id, "the node dropped from the registry browser", |v| {
            v["spec"]["nodes"].as_array().is_some_and(|n| n.len() == 1)
        })
        .await;
    assert_eq!(view["spec"]["nodes"][0]["type"], "llm", "{}", view["spec"]);
    assert_eq!(app.documents().await.len(), 2, "nothing was opened as a file");
    app.quit().await;
}
