//! The installed app, used as a user does: started with a file, started again with another
//! (which opens as a second tab in the first window, no second app), resized, the theme and a
//! pane changed, quit and started again (all kept, the recent files too), Help > About, the
//! log, and a broken settings file (set aside with a notice; the defaults).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use thirtyfour::prelude::*;

use crate::bus::SessionBus;
use crate::harness::{corpus, wait_fs, Desktop, Launch, PATIENCE};

/// Where an installed app keeps things for a user with this home folder.
struct UserFolders {
    config: PathBuf,
    data: PathBuf,
    logs: PathBuf,
}

impl UserFolders {
    fn of(home: &Path) -> UserFolders {
        let data = home.join(".local/share/dev.trellis.desktop");
        UserFolders { config: home.join(".config/dev.trellis.desktop"), logs: data.join("logs"), data }
    }
}

async fn launch(app: &Path, home: &Path, bus: &SessionBus, files: Vec<PathBuf>) -> Desktop {
    Desktop::launch(Launch {
        files,
        binary: Some(app.to_path_buf()),
        home: Some(home.to_path_buf()),
        env: vec![("DBUS_SESSION_BUS_ADDRESS".into(), bus.address.clone())],
        ..Launch::default()
    })
    .await
}

/// Quits as the user does (File > Quit; nothing unsaved) and waits for the app to end: the
/// window state is written on the way out.
async fn quit(app: Desktop) {
    let _ = app.driver.execute("window.__TAURI_INTERNALS__.invoke('quit', {}); return true;", vec![]).await;
    wait_fs("the app to quit", || !app.app_running()).await;
    app.quit().await;
}

/// Starts the installed app a second time, as a file manager does, from `cwd` with `args`;
/// it must hand them over and exit on its own.
fn second_start(app_path: &Path, first: &Desktop, home: &Path, bus: &SessionBus, cwd: &Path, args: &[&str]) {
    let mut child = Command::new(app_path)
        .args(args)
        .current_dir(cwd)
        .env("DISPLAY", &first.display)
        .env("HOME", home)
        .env("DBUS_SESSION_BUS_ADDRESS", &bus.address)
        .env("NO_AT_BRIDGE", "1")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("a second start");
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            assert!(status.success(), "the second start ended with {status}");
            return;
        }
        if Instant::now() > deadline {
            let _ = Command::new("kill").arg("-TERM").arg(child.id().to_string()).status();
            let _ = child.wait();
            panic!("the second start did not hand its files over and exit: it ran on as a second app");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

async fn wait_documents(app: &Desktop, names: &[&str]) -> Vec<Value> {
    let deadline = Instant::now() + PATIENCE;
    loop {
        let docs = app.documents().await;
        let has = |n: &&str| docs.iter().any(|d| d["fileName"] == **n);
        if names.iter().all(has) {
            return docs;
        }
        assert!(Instant::now() < deadline, "timed out waiting for {names:?} to be open: {docs:?}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

async fn tab_names(app: &Desktop) -> Vec<String> {
    let v = app
        .js("return [...document.querySelectorAll('[data-testid=tab]')].map(t => t.textContent.trim());")
        .await;
    v.as_array().map(|a| a.iter().filter_map(|x| x.as_str().map(String::from)).collect()).unwrap_or_default()
}

async fn theme(app: &Desktop) -> Value {
    app.js("return document.documentElement.dataset.theme ?? null;").await
}

/// The registry panel's width on screen, in CSS pixels.
async fn registry_width(app: &Desktop) -> f64 {
    app.visible(".registry").await;
    app.js("return document.querySelector('.registry').getBoundingClientRect().width;")
        .await
        .as_f64()
        .unwrap_or(-1.0)
}

async fn palette(app: &Desktop, words: &str) {
    app.chord(&[Key::Control], "k").await;
    let input = app.visible("[data-testid=palette-input]").await;
    input.send_keys(words).await.expect("type");
    input.send_keys(Key::Enter.value().to_string()).await.expect("enter");
}

/// The whole scenario (the package is installed; `home` is the user's fresh home folder).
pub async fn open_second_start_keep_settings(app_path: &Path, home: &Path, work: &Path) {
    let bus = SessionBus::start();
    let folders = UserFolders::of(home);
    let support = work.join("support.graph.json");
    std::fs::copy(corpus("ilmek/docs/graphs-as-data.mdx-support.json"), &support).expect("copy");
    let supervisor = work.join("supervisor.weaveflow.json");
    std::fs::copy(corpus("weaveflow/supervisor_mode.json"), &supervisor).expect("copy");
    let triage = work.join("triage");
    std::fs::create_dir_all(&triage).expect("mkdir");
    std::fs::copy(corpus("graphmd/support-triage/GRAPH.md"), triage.join("GRAPH.md")).expect("copy");

    // 1. A file on the command line opens.
    let app = launch(app_path, home, &bus, vec![support.clone()]).await;
    let first = app.doc_named("support.graph.json").await;
    app.wait_title("support.graph.json — Trellis").await;

    // 2. A second start with another file (a relative path, from its own folder): a second tab
    //    in this window, shown; then a folder, which opens its GRAPH.md. One app all along.
    let pid = app.app_pid().expect("the app runs");
    second_start(app_path, &app, home, &bus, work, &["supervisor.weaveflow.json"]);
    wait_documents(&app, &["support.graph.json", "supervisor.weaveflow.json"]).await;
    let shown = app.wait_other_doc(&first).await;
    assert_eq!(shown, app.doc_named("supervisor.weaveflow.json").await, "the handed-over file is shown");
    app.wait_title("supervisor.weaveflow.json — Trellis").await;
    second_start(app_path, &app, home, &bus, work, &[&triage.to_string_lossy()]);
    wait_documents(&app, &["GRAPH.md"]).await;
    let tabs = tab_names(&app).await;
    assert_eq!(tabs.len(), 3, "three tabs in the first window: {tabs:?}");
    assert_eq!(app.app_pid(), Some(pid), "still the first app");
    app.screenshot("installed-second-start").await;

    // 3. Change what is kept: the window's size and place, the theme (twice through the
    //    palette: light, then dark), the node types panel's width (dragging its handle).
    app.driver.set_window_rect(40, 30, 1100, 700).await.expect("resize the window");
    let rect = app.driver.get_window_rect().await.expect("rect");
    assert_eq!((rect.width, rect.height), (1100, 700), "the window took the new size");
    app.focus_canvas().await;
    palette(&app, "toggle light dark theme").await;
    app.wait_js("return document.documentElement.dataset.theme === 'light';", "the light theme").await;
    palette(&app, "toggle light dark theme").await;
    app.wait_js("return document.documentElement.dataset.theme === 'dark';", "the dark theme").await;
    let before = registry_width(&app).await;
    let handle = app.visible("[data-testid=splitter-registry]").await;
    app.driver
        .action_chain()
        .move_to_element_center(&handle)
        .click_and_hold()
        .move_by_offset(40, 0)
        .move_by_offset(50, 0)
        .release()
        .perform()
        .await
        .expect("drag the handle");
    let after = registry_width(&app).await;
    assert!((after - (before + 90.0)).abs() <= 2.0, "the panel is 90 px wider: {before} -> {after}");
    let settings_file = folders.config.join("settings.json");
    wait_fs("the settings to be written", || {
        std::fs::read_to_string(&settings_file)
            .is_ok_and(|t| t.contains("\"dark\"") && t.contains("\"registry\""))
    })
    .await;
    quit(app).await;

    let kept: Value =
        serde_json::from_str(&std::fs::read_to_string(&settings_file).expect("settings")).expect("json");
    assert_eq!(kept["theme"], "dark", "{kept}");
    assert_eq!(kept["splits"]["registry"].as_f64(), Some(after.round()), "{kept}");
    let window: Value = serde_json::from_str(
        &std::fs::read_to_string(folders.config.join("window-state.json")).expect("window state"),
    )
    .expect("json");
    assert_eq!(
        (window["main"]["width"].as_u64(), window["main"]["height"].as_u64()),
        (Some(1100), Some(700)),
        "{window}"
    );

    // 4. Started again (no file): the window's size and place, the theme, the pane's width and
    //    the recent files are as they were.
    let app = launch(app_path, home, &bus, vec![]).await;
    let rect = app.driver.get_window_rect().await.expect("rect");
    assert_eq!((rect.width, rect.height), (1100, 700), "the window's size is kept");
    assert_eq!((rect.x, rect.y), (40, 30), "the window's place is kept");
    assert_eq!(theme(&app).await, json!("dark"), "the theme is kept");
    app.wait_js(
        &format!("return Math.abs(document.querySelector('.registry').getBoundingClientRect().width - {after}) <= 1;"),
        "the panel's width to be kept",
    )
    .await;
    let recent = app.call("recent_files", json!({})).await;
    let paths: Vec<&str> =
        recent.as_array().expect("list").iter().filter_map(|r| r["path"].as_str()).collect();
    let want = [triage.join("GRAPH.md"), supervisor.clone(), support.clone()]
        .map(|p| p.to_string_lossy().into_owned());
    assert_eq!(paths, want.iter().map(String::as_str).collect::<Vec<_>>(), "the recent files, newest first");

    // Help > About (from the palette, as the menu sends the same action): the version and the
    // commit of `--version`, the licence, the log folder.
    palette(&app, "about trellis").await;
    let version = app.visible("[data-testid=about-version]").await.text().await.expect("text");
    assert_eq!(version, env!("CARGO_PKG_VERSION"));
    let commit = app.visible("[data-testid=about-commit]").await.text().await.expect("text");
    assert_eq!(commit, crate::packages::commit());
    assert_eq!(
        app.visible("[data-testid=about-license]").await.text().await.expect("text"),
        "MIT OR Apache-2.0"
    );
    let webkit = app.visible("[data-testid=about-webkitgtk]").await.text().await.expect("text");
    assert!(webkit.starts_with("2."), "the WebKitGTK package's version: {webkit}");
    let logs = app.visible("[data-testid=about-log-folder]").await.text().await.expect("text");
    assert_eq!(PathBuf::from(&logs), folders.logs);
    app.screenshot("installed-about").await;
    quit(app).await;

    // The log: what a bug report needs, none of the documents' names or content.
    let log = std::fs::read_to_string(folders.logs.join("trellis.log")).expect("the log file");
    for want in [
        format!("Trellis {} (commit {})", env!("CARGO_PKG_VERSION"), crate::packages::commit()),
        "OS: ".to_string(),
        "WebKitGTK 2.".to_string(),
        "opened a GraphSpec file: ".to_string(),
        "opened a Weaveflow file: ".to_string(),
        "opened a GRAPH.md file: ".to_string(),
        "another start handed over 1 file(s)".to_string(),
    ] {
        assert!(log.contains(&want), "the log has {want:?}:\n{log}");
    }
    let spec: Value = serde_json::from_str(&std::fs::read_to_string(&support).expect("read")).expect("json");
    let mut private: Vec<String> =
        vec![work.to_string_lossy().into_owned(), "support.graph.json".into(), "supervisor".into()];
    private.extend(
        spec["nodes"].as_array().into_iter().flatten().filter_map(|n| n["id"].as_str()).map(String::from),
    );
    private.extend(spec["name"].as_str().map(String::from));
    for p in private.iter().filter(|p| p.len() >= 6) {
        assert!(!log.contains(p.as_str()), "the log holds {p:?}:\n{log}");
    }

    // 5. A settings file that cannot be read: set aside (kept byte for byte), a notice, the
    //    default settings; the window state (its own file) is still kept.
    let broken = b"{\"theme\": \"dark\", \"splits\": {\"registry\": 3";
    std::fs::write(&settings_file, broken).expect("break the settings");
    let app = launch(app_path, home, &bus, vec![]).await;
    let notice = app.visible("[data-testid=settings-notice]").await;
    assert_eq!(notice.attr("data-code").await.expect("attr").as_deref(), Some("settings/set-aside"));
    let text = notice.text().await.expect("text");
    assert!(text.contains("default settings"), "{text}");
    assert_eq!(theme(&app).await, Value::Null, "the default theme (the system's)");
    assert!((registry_width(&app).await - 250.0).abs() <= 1.0, "the panel's default width");
    let aside: Vec<PathBuf> = std::fs::read_dir(&folders.config)
        .expect("config folder")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.to_string_lossy().contains("settings.json.unreadable-"))
        .collect();
    assert_eq!(aside.len(), 1, "{aside:?}");
    assert_eq!(std::fs::read(&aside[0]).expect("aside"), broken);
    assert!(
        text.contains(&aside[0].to_string_lossy().into_owned()),
        "the notice names the kept file: {text}"
    );
    app.screenshot("installed-settings-notice").await;
    // The theme changed now is kept in a fresh file.
    app.focus_canvas().await;
    palette(&app, "toggle light dark theme").await;
    wait_fs("a fresh settings file", || {
        std::fs::read_to_string(&settings_file).is_ok_and(|t| t.contains("\"light\""))
    })
    .await;
    quit(app).await;
    assert!(folders.data.join("recent.json").is_file());
}
