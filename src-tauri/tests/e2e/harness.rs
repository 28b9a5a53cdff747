//! The end-to-end harness: the real app (built with `--features e2e`, so it serves the built
//! UI), driven through tauri-driver and WebKitWebDriver, under Xvfb when there is no display.
//!
//! Each test gets its own Xvfb (when needed), its own tauri-driver on free ports, its own data
//! folder (recovery journal, recent list) and its own answer for native dialogs
//! (`TRELLIS_TEST_DIALOG_PATH`), so tests run in parallel without seeing each other. Every
//! process started here is in a guard that stops it with SIGTERM (never SIGKILL: tauri-driver
//! would orphan WebKitWebDriver, which holds the test's output open) when the test ends, also
//! when it fails.

use std::io::{BufRead, BufReader};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use thirtyfour::prelude::*;
use thirtyfour::Capabilities;

/// How long to wait for anything the app does in reaction to a test (a reload, a render).
pub const PATIENCE: Duration = Duration::from_secs(45);

/// The built app.
fn built_app() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_trellis-app"))
}

/// The repository root (screenshots go to `docs/screenshots/`).
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().map(Path::to_path_buf).unwrap_or_default()
}

/// A corpus document (`../shared/corpus` beside the repository).
pub fn corpus(rel: &str) -> PathBuf {
    repo_root().join("..").join("shared").join("corpus").join(rel)
}

/// How to start the app.
#[derive(Debug, Clone, Default)]
pub struct Launch {
    /// Files on the command line.
    pub files: Vec<PathBuf>,
    /// The data folder (journal, recent list); a fresh one when `None`.
    pub data_dir: Option<PathBuf>,
    /// What every file dialog answers (`TRELLIS_TEST_DIALOG_PATH`); `None` = cancel.
    pub dialog_path: Option<PathBuf>,
    /// What unsaved-changes prompts answer (`TRELLIS_TEST_CONFIRM`).
    pub confirm: Option<&'static str>,
    /// Draw as the app ships (`src-tauri/src/webkit_env.rs`: no GPU here, so no accelerated
    /// compositing). The behaviour tests keep compositing on instead: without it WebKitWebDriver's
    /// screenshot command never answers (WebKitGTK 2.50 under Xvfb). The measurements
    /// (`tests/perf`, `tests/canvas_frames.rs`) and one smoke test run as shipped.
    pub as_shipped: bool,
    /// The longest one WebDriver command may take (thirtyfour's 120 s when `None`). The perf
    /// test's elkjs baseline is one asynchronous script that answers when elkjs has laid the
    /// graph out or been given up (`TRELLIS_BENCH_ELK_LIMIT_S`, 300 s by default).
    pub request_timeout: Option<Duration>,
    /// Answer as soon as the window's page is up, without waiting for a document to show (a
    /// test that watches a large file open).
    pub early: bool,
    /// The app to start: the one this test binary was built with when `None`; the installed
    /// package's (`/usr/bin/trellis-app`) for the package tests.
    pub binary: Option<PathBuf>,
    /// The app runs as a user with this home folder, and without `TRELLIS_DATA_DIR`: its
    /// settings, data and log go where an installed app's go (`~/.config`, `~/.local/share`).
    pub home: Option<PathBuf>,
    /// More environment for the app (`DBUS_SESSION_BUS_ADDRESS` of a test's own bus).
    pub env: Vec<(String, String)>,
}

/// Processes started for one app session, stopped on drop (SIGTERM, then wait).
#[derive(Debug, Default)]
struct Procs {
    driver: Option<Child>,
    xvfb: Option<Child>,
}

fn terminate(child: &mut Child) {
    if matches!(child.try_wait(), Ok(Some(_))) {
        return;
    }
    let _ = Command::new("kill").arg("-TERM").arg(child.id().to_string()).status();
    let deadline = Instant::now() + Duration::from_secs(10);
    while Instant::now() < deadline {
        if matches!(child.try_wait(), Ok(Some(_))) {
            return;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    // Still there after 10 s: this one process only, by id.
    let _ = child.kill();
    let _ = child.wait();
}

impl Drop for Procs {
    fn drop(&mut self) {
        if let Some(c) = self.driver.as_mut() {
            // WebKitWebDriver, the app and WebKit's helper processes: tauri-driver stops them
            // on SIGTERM; whatever is still there afterwards gets SIGTERM too, by id.
            let below = descendants(c.id());
            terminate(c);
            let deadline = Instant::now() + Duration::from_secs(10);
            for pid in below {
                if exe_of(pid).is_some() {
                    let _ = Command::new("kill").arg("-TERM").arg(pid.to_string()).status();
                }
                while exe_of(pid).is_some() && Instant::now() < deadline {
                    std::thread::sleep(Duration::from_millis(50));
                }
            }
        }
        if let Some(c) = self.xvfb.as_mut() {
            terminate(c);
        }
    }
}

/// A running app with a WebDriver session on it.
pub struct Desktop {
    pub driver: WebDriver,
    /// The X display the app is on.
    pub display: String,
    _log_tmp: tempfile::TempDir,
    /// Keeps the fresh data folder alive for the test.
    _data_tmp: Option<tempfile::TempDir>,
    procs: Procs,
    /// The app's executable (to find its process).
    binary: PathBuf,
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map(|a| a.port()).expect("a free port")
}

/// Starts Xvfb on a free display and answers it (`:N`).
fn start_xvfb() -> (Child, String) {
    let mut child = Command::new("Xvfb")
        .args(["-displayfd", "1", "-screen", "0", "1400x900x24", "-nolisten", "tcp"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("Xvfb (apt package xvfb; scripts/setup.sh installs it)");
    let stdout = child.stdout.take().expect("Xvfb stdout");
    let mut line = String::new();
    BufReader::new(stdout).read_line(&mut line).expect("Xvfb tells its display");
    let n = line.trim();
    assert!(!n.is_empty(), "Xvfb did not start");
    (child, format!(":{n}"))
}

fn wait_port(port: u16, what: &str) {
    let deadline = Instant::now() + Duration::from_secs(20);
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        assert!(Instant::now() < deadline, "{what} did not listen on port {port}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

impl Desktop {
    /// Starts the app and waits until the UI has rendered its first document.
    pub async fn launch(opts: Launch) -> Desktop {
        let mut procs = Procs::default();
        let display = match std::env::var("DISPLAY") {
            Ok(d) if !d.is_empty() => d,
            _ => {
                let (child, display) = start_xvfb();
                procs.xvfb = Some(child);
                display
            }
        };
        let (data_dir, data_tmp) = match opts.data_dir {
            Some(d) => (d, None),
            None => {
                let t = tempfile::tempdir().expect("temp dir");
                (t.path().to_path_buf(), Some(t))
            }
        };
        let log_tmp = tempfile::tempdir().expect("temp dir");
        let log = log_tmp.path().join("tauri-driver.log");
        let port = free_port();
        let native_port = free_port();
        let mut cmd = Command::new("tauri-driver");
        if !opts.as_shipped {
            cmd.env("WEBKIT_DISABLE_COMPOSITING_MODE", "0");
        }
        match &opts.home {
            Some(home) => {
                cmd.env("HOME", home).env_remove("TRELLIS_DATA_DIR");
                for var in ["XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"] {
                    cmd.env_remove(var);
                }
            }
            None => {
                cmd.env("TRELLIS_DATA_DIR", &data_dir);
            }
        }
        cmd.envs(opts.env.iter().map(|(k, v)| (k, v)));
        cmd.args(["--port", &port.to_string(), "--native-port", &native_port.to_string()])
            .env("DISPLAY", &display)
            .env("TRELLIS_TEST_DIALOG_PATH", opts.dialog_path.as_deref().unwrap_or(Path::new("")))
            .env("TRELLIS_TEST_CONFIRM", opts.confirm.unwrap_or("cancel"))
            // No accessibility bus in a bare container: without this GTK waits for it.
            .env("NO_AT_BRIDGE", "1")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            // Not the test's own stderr: WebKit's processes would inherit it and keep the
            // test's output open after it ends. The log is printed when the test fails.
            .stderr(Stdio::from(std::fs::File::create(&log).expect("driver log")));
        procs.driver =
            Some(cmd.spawn().expect("tauri-driver (cargo install tauri-driver --locked --version 2.1.0)"));
        wait_port(port, "tauri-driver");
        // tauri-driver listens before the WebKitWebDriver it started does; a session request in
        // between is dropped.
        wait_port(native_port, "WebKitWebDriver");

        let mut caps = Capabilities::new();
        caps.set("browserName", "wry").expect("caps");
        let args: Vec<String> = opts.files.iter().map(|p| p.display().to_string()).collect();
        let binary = opts.binary.clone().unwrap_or_else(built_app);
        caps.set("tauri:options", json!({ "application": binary, "args": args })).expect("caps");
        let mut builder = WebDriver::builder(format!("http://127.0.0.1:{port}"), caps);
        if let Some(t) = opts.request_timeout {
            builder = builder.request_timeout(t);
        }
        let driver = match builder.await {
            Ok(d) => d,
            Err(e) => {
                panic!("no WebDriver session: {e}\n{}", std::fs::read_to_string(&log).unwrap_or_default())
            }
        };
        let desktop = Desktop { driver, display, _log_tmp: log_tmp, _data_tmp: data_tmp, procs, binary };
        if opts.early {
            desktop.wait_js("return !!document.querySelector('[data-testid=app]');", "the page").await;
            return desktop;
        }
        desktop.wait_ready().await;
        desktop.wait_files(&opts.files).await;
        desktop
    }

    /// Waits until every file named on the command line has opened or been refused (the
    /// window comes first; the files are opened after it, one by one).
    pub async fn wait_files(&self, files: &[PathBuf]) {
        // A run record opens beside a document, not as one: only documents are waited for.
        let names: Vec<String> = files
            .iter()
            .filter(|p| !(p.is_file() && trellis_runs::file::looks_like_run(p)))
            .filter_map(|p| p.file_name())
            .map(|n| n.to_string_lossy().into_owned())
            .collect();
        let deadline = Instant::now() + PATIENCE;
        loop {
            let docs = self.documents().await;
            let refused = self
                .js("return [...document.querySelectorAll('[data-testid=open-failure]')].map((e) => e.dataset.file);")
                .await;
            let settled = names.iter().all(|n| {
                docs.iter().any(|d| d["fileName"] == n.as_str())
                    || refused.as_array().is_some_and(|r| r.iter().any(|f| f == n.as_str()))
            });
            if settled {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "the files {names:?} did not open: {docs:?}, refused {refused}"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Waits until the UI shows its active document (`data-ready="true"` on the `app` element:
    /// the view is rendered and React Flow has measured the nodes).
    pub async fn wait_ready(&self) {
        self.wait_js(
            "const a = document.querySelector('[data-testid=app]'); return !!a && a.dataset.ready === 'true';",
            "the UI to start",
        )
        .await;
    }

    /// Reloads the page: the UI starts again from what Rust holds (after edits a test sent
    /// through IPC, which the UI did not make and so does not know about).
    pub async fn reload_ui(&self) {
        let _ = self.driver.execute("setTimeout(() => location.reload(), 0);", vec![]).await;
        tokio::time::sleep(Duration::from_millis(300)).await;
        self.wait_ready().await;
    }

    /// Runs `script` in the page and answers what it returns.
    pub async fn js(&self, script: &str) -> Value {
        self.driver.execute(script, vec![]).await.expect("script ran").json().clone()
    }

    /// Polls a script until it returns true.
    pub async fn wait_js(&self, script: &str, what: &str) {
        self.wait_js_showing(script, what, "").await;
    }

    /// `wait_js`, and on timeout the failure shows what `shown` (a script) returns: what the
    /// page held instead.
    pub async fn wait_js_showing(&self, script: &str, what: &str, shown: &str) {
        let deadline = Instant::now() + PATIENCE;
        loop {
            if let Ok(r) = self.driver.execute(script, vec![]).await {
                if r.json().as_bool() == Some(true) {
                    return;
                }
            }
            if Instant::now() >= deadline {
                let seen = match shown {
                    "" => Value::Null,
                    s => {
                        self.driver.execute(s, vec![]).await.map(|r| r.json().clone()).unwrap_or(Value::Null)
                    }
                };
                panic!("timed out waiting for {what}; the page shows: {seen}");
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Calls one of the app's commands through the webview's IPC (the same path, permissions
    /// and capability checks as the UI's calls). `Err` carries what the command rejected with.
    pub async fn invoke(&self, cmd: &str, args: Value) -> Result<Value, Value> {
        let script = r#"
            const [cmd, args, done] = arguments;
            window.__TAURI_INTERNALS__.invoke(cmd, args).then(
                (v) => done({ ok: v === undefined ? null : v }),
                (e) => done({ err: e === undefined ? null : e }));
        "#;
        let r = self.driver.execute_async(script, vec![json!(cmd), args]).await.expect("script ran");
        let v = r.json().clone();
        match v.get("ok") {
            Some(ok) => Ok(ok.clone()),
            None => Err(v.get("err").cloned().unwrap_or(Value::Null)),
        }
    }

    /// `invoke` that must succeed.
    pub async fn call(&self, cmd: &str, args: Value) -> Value {
        match self.invoke(cmd, args.clone()).await {
            Ok(v) => v,
            Err(e) => panic!("{cmd} {args} was refused: {e}"),
        }
    }

    /// The open documents (`list_documents`).
    pub async fn documents(&self) -> Vec<Value> {
        self.call("list_documents", json!({})).await.as_array().cloned().unwrap_or_default()
    }

    /// The view of a document.
    pub async fn view(&self, id: &str) -> Value {
        self.call("get_document", json!({ "docId": id })).await
    }

    /// How many elements the document's layout places (nodes, terminals), counted in the page:
    /// the whole view of a large document is too big for a WebDriver answer. -1 when the view
    /// could not be read.
    pub async fn placed_count(&self, id: &str) -> i64 {
        let placed = self
            .driver
            .execute_async(
                "const [id, done] = arguments; window.__TAURI_INTERNALS__.invoke('get_document', {docId: id}).then((v) => done(Object.keys(v.layout.positions).length), () => done(-1));",
                vec![json!(id)],
            )
            .await
            .expect("script ran");
        placed.json().as_i64().unwrap_or(-1)
    }

    /// The id of the only document open whose file name is `name`.
    pub async fn doc_named(&self, name: &str) -> String {
        let docs = self.documents().await;
        let found: Vec<&Value> = docs.iter().filter(|d| d["fileName"] == name).collect();
        assert_eq!(found.len(), 1, "one document named {name} in {docs:?}");
        found[0]["id"].as_str().expect("id").to_string()
    }

    /// Applies an edit (must be accepted) and answers what it changed (a `ViewDelta`: `dirty`,
    /// `canUndo`, list edits of the nodes and edges, ...).
    pub async fn edit(&self, id: &str, edit: Value) -> Value {
        self.call("apply_edit", json!({ "docId": id, "edit": edit })).await
    }

    /// Polls the view of `id` until `pred` holds.
    pub async fn wait_view(&self, id: &str, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let v = self.view(id).await;
            if pred(&v) {
                return v;
            }
            assert!(Instant::now() < deadline, "timed out waiting for {what}; the view is {v}");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Waits for a visible element matching a CSS selector (React Flow keeps nodes hidden
    /// until measured, so a read at once can see nothing).
    pub async fn visible(&self, css: &str) -> WebElement {
        let deadline = Instant::now() + PATIENCE;
        loop {
            if let Ok(els) = self.driver.find_all(By::Css(css)).await {
                for el in els {
                    if el.is_displayed().await.unwrap_or(false) || self.shown(&el).await {
                        return el;
                    }
                }
                // Scrolled out of a panel: bring the first one into view and look again.
                if let Some(el) =
                    self.driver.find_all(By::Css(css)).await.ok().and_then(|v| v.into_iter().next())
                {
                    let _ = el.scroll_into_view().await;
                    if el.is_displayed().await.unwrap_or(false) {
                        return el;
                    }
                }
            }
            if Instant::now() >= deadline {
                // What is there instead: the first match (hidden, or none at all), and its size.
                let found = self
                    .driver
                    .execute(
                        "const e = document.querySelector(arguments[0]); if (!e) return null; const r = e.getBoundingClientRect(); return [e.outerHTML.slice(0, 400), r.left, r.top, r.width, r.height, innerWidth, innerHeight];",
                        vec![serde_json::json!(css)],
                    )
                    .await
                    .map(|r| r.json().clone())
                    .unwrap_or_default();
                let shot: String = css.chars().filter(char::is_ascii_alphanumeric).take(60).collect();
                self.screenshot(&format!("timed-out-{shot}")).await;
                panic!("timed out waiting for a visible {css}; the first match (html, left, top, width, height, window): {found}");
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// The document shown (`data-active-doc` on the app element).
    pub async fn active_doc(&self) -> String {
        let r = self
            .driver
            .execute("return document.querySelector('[data-testid=app]').dataset.activeDoc;", vec![])
            .await;
        r.expect("script").json().as_str().unwrap_or_default().to_string()
    }

    /// Waits until a document other than `not` is shown and drawn, and answers its id.
    pub async fn wait_other_doc(&self, not: &str) -> String {
        self.wait_js(
            &format!("const a = document.querySelector('[data-testid=app]'); return !!a.dataset.activeDoc && a.dataset.activeDoc !== '{not}' && a.dataset.ready === 'true';"),
            "another document to be shown",
        )
        .await;
        self.active_doc().await
    }

    /// Whether `el` is on screen and nothing covers its centre: what a user sees. WebKit's
    /// WebDriver answers "not displayed" for some text cut with an ellipsis in the status bar
    /// that is plainly there.
    async fn shown(&self, el: &WebElement) -> bool {
        let script = "const e = arguments[0]; const r = e.getBoundingClientRect(); \
            if (r.width <= 0 || r.height <= 0 || getComputedStyle(e).visibility !== 'visible') return false; \
            const x = r.left + r.width / 2, y = r.top + r.height / 2; \
            if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) return false; \
            const hit = document.elementFromPoint(x, y); return !!hit && (hit === e || e.contains(hit));";
        match el.to_json() {
            Ok(arg) => self
                .driver
                .execute(script, vec![arg])
                .await
                .is_ok_and(|r| r.json() == &serde_json::json!(true)),
            Err(_) => false,
        }
    }

    /// Gives the canvas the keyboard focus (a click on its empty pane), as a user does before
    /// pressing a shortcut.
    pub async fn focus_canvas(&self) {
        let pane = self.visible(".react-flow__pane").await;
        pane.click().await.expect("click the pane");
    }

    /// Presses a key chord in the webview (`keys` as thirtyfour `Key` + text).
    pub async fn chord(&self, modifiers: &[Key], key: &str) {
        let mut actions = self.driver.action_chain();
        for m in modifiers {
            actions = actions.key_down(m.clone());
        }
        actions = actions.send_keys(key);
        for m in modifiers.iter().rev() {
            actions = actions.key_up(m.clone());
        }
        actions.perform().await.expect("keys");
    }

    /// Saves a screenshot of the window to `<target dir>/screenshots/<name>.png`, or to
    /// `docs/screenshots/` (the pictures the docs show) with `TRELLIS_UPDATE_SCREENSHOTS=1`:
    /// an ordinary test run must not leave the working tree dirty.
    pub async fn screenshot(&self, name: &str) {
        let dir = if std::env::var_os("TRELLIS_UPDATE_SCREENSHOTS").is_some_and(|v| v == "1") {
            repo_root().join("docs").join("screenshots")
        } else {
            let target = std::env::var_os("CARGO_TARGET_DIR")
                .map_or_else(|| repo_root().join("target"), std::path::PathBuf::from);
            target.join("screenshots")
        };
        std::fs::create_dir_all(&dir).expect("screenshot folder");
        let png = self.driver.screenshot_as_png().await.expect("screenshot");
        std::fs::write(dir.join(format!("{name}.png")), png).expect("write screenshot");
    }

    /// Simulates a crash: SIGKILL to the app process itself (found by id, as the child of
    /// WebKitWebDriver, the child of our tauri-driver). The harness processes stay up.
    pub fn crash_app(&self) {
        let driver_pid = self.procs.driver.as_ref().map(Child::id).expect("tauri-driver runs");
        let app = descendants(driver_pid)
            .into_iter()
            .find(|pid| exe_of(*pid).is_some_and(|e| e == self.binary))
            .expect("the app process under tauri-driver");
        let status = Command::new("kill").arg("-KILL").arg(app.to_string()).status().expect("kill");
        assert!(status.success(), "could not kill the app ({app})");
        let deadline = Instant::now() + Duration::from_secs(10);
        while Path::new(&format!("/proc/{app}")).exists() && exe_of(app).is_some() {
            assert!(Instant::now() < deadline, "the app did not die");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// The native window's title (read from the X server: WebDriver only sees the page's).
    pub fn window_title(&self) -> String {
        let out = Command::new("xwininfo")
            .args(["-root", "-tree"])
            .env("DISPLAY", &self.display)
            .output()
            .expect("xwininfo (apt package x11-utils)");
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        // Lines look like: `0x200003 "*name — Trellis": ("trellis-app" "Trellis-app") ...`
        text.lines()
            .filter(|l| l.contains("(\"trellis-app\""))
            .filter_map(|l| l.split('"').nth(1))
            .find(|t| t.ends_with("Trellis"))
            .unwrap_or_default()
            .to_string()
    }

    /// Polls the window title until it is `want`.
    pub async fn wait_title(&self, want: &str) {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let t = self.window_title();
            if t == want {
                return;
            }
            assert!(Instant::now() < deadline, "the window title is {t:?}, not {want:?}");
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Whether the app process is still running (under our tauri-driver).
    pub fn app_running(&self) -> bool {
        let Some(driver_pid) = self.procs.driver.as_ref().map(Child::id) else { return false };
        descendants(driver_pid).into_iter().any(|pid| exe_of(pid).is_some_and(|e| e == self.binary))
    }

    /// The app's process id (under our tauri-driver), when it runs.
    // The perf and installed-package tests ask for it; the e2e tests themselves do not.
    #[allow(dead_code)]
    pub fn app_pid(&self) -> Option<u32> {
        let driver_pid = self.procs.driver.as_ref().map(Child::id)?;
        descendants(driver_pid).into_iter().find(|pid| exe_of(*pid).is_some_and(|e| e == self.binary))
    }

    /// Ends the session (the app quits) and stops the harness processes.
    pub async fn quit(self) {
        let Desktop { driver, procs, _data_tmp, _log_tmp, .. } = self;
        let _ = tokio::time::timeout(Duration::from_secs(15), driver.quit()).await;
        drop(procs);
    }
}

/// Every process below `pid`, children first.
fn descendants(pid: u32) -> Vec<u32> {
    let mut out = Vec::new();
    let mut frontier = vec![pid];
    while let Some(p) = frontier.pop() {
        let Ok(tasks) = std::fs::read_dir(format!("/proc/{p}/task")) else { continue };
        for t in tasks.flatten() {
            let children = std::fs::read_to_string(t.path().join("children")).unwrap_or_default();
            for c in children.split_whitespace().filter_map(|s| s.parse::<u32>().ok()) {
                out.push(c);
                frontier.push(c);
            }
        }
    }
    out
}

fn exe_of(pid: u32) -> Option<PathBuf> {
    std::fs::read_link(format!("/proc/{pid}/exe")).ok()
}

/// Writes a file the way an editor does an atomic save: a temporary file, then rename.
pub fn replace_atomically(path: &Path, text: &str) {
    let tmp = path.with_extension("outside-tmp");
    std::fs::write(&tmp, text).expect("write temp");
    std::fs::rename(&tmp, path).expect("rename over");
}

/// The canonical text of a GraphSpec given as JSON (what a save must write).
pub fn canonical(spec: &Value) -> String {
    let text = serde_json::to_string(spec).expect("json");
    let parsed = trellis_spec::read::parse_spec(&text);
    let spec = parsed.spec.expect("a GraphSpec");
    trellis_spec::writer::to_canonical_string(&spec)
}

/// Reads a file as text.
pub fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()))
}

/// Polls until the path satisfies `pred` (a file the app writes in the background).
pub async fn wait_fs(what: &str, pred: impl Fn() -> bool) {
    let deadline = Instant::now() + PATIENCE;
    while !pred() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}
