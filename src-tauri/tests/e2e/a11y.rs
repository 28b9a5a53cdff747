//! Issue 14's accessibility check in the real app: axe-core (a dev dependency of the UI) finds
//! no serious or critical WCAG A/AA violation on the support example with a node selected from
//! the keyboard and the inspector open on it.

use std::time::Duration;

use thirtyfour::prelude::*;

use crate::harness::{corpus, Desktop, Launch};
use crate::keyboard::{canvas_focus_on, key};

/// axe-core (ui/node_modules or the workspace's node_modules), read from disk.
fn axe_source() -> String {
    let root = crate::harness::repo_root();
    for p in [root.join("ui/node_modules/axe-core/axe.min.js"), root.join("node_modules/axe-core/axe.min.js")]
    {
        if let Ok(s) = std::fs::read_to_string(&p) {
            return s;
        }
    }
    panic!("axe-core is not installed (npm install: it is a dev dependency of ui)");
}

#[tokio::test(flavor = "multi_thread")]
async fn axe_finds_no_serious_violation_on_the_support_example_with_the_inspector_open() {
    let dir = tempfile::tempdir().expect("tmp");
    let path = dir.path().join("support-agent.json");
    std::fs::copy(corpus("ilmek/docs/graphs-as-data.mdx-support-agent.json"), &path).expect("copy");
    let app = Desktop::launch(Launch { files: vec![path], ..Launch::default() }).await;
    let id = app.doc_named("support-agent.json").await;
    let view = app.view(&id).await;
    let node = view["spec"]["nodes"][0]["id"].as_str().expect("a node").to_string();

    // A node selected with the keyboard, the inspector open on it.
    key(&app, Key::F6).await;
    canvas_focus_on(&app, "node:__start__").await;
    app.chord(&[Key::Control], &Key::Right.value().to_string()).await;
    key(&app, Key::Enter).await;
    app.wait_js(
        "return document.querySelector('[data-testid=inspector]')?.dataset.kind === 'node';",
        "the node inspector",
    )
    .await;
    app.visible(&format!("[data-testid=\"node-{node}\"]")).await;

    app.driver.execute(&axe_source(), vec![]).await.expect("axe-core loads");
    let script = r#"
        const done = arguments[arguments.length - 1];
        axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"] }, resultTypes: ["violations"] })
          .then((r) => done({ ok: r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
              nodes: v.nodes.slice(0, 5).map((n) => n.target.join(" ") + " :: " + (n.failureSummary || "").replace(/\s+/g, " ")) })) }),
                (e) => done({ err: String(e) }));
    "#;
    let r = tokio::time::timeout(Duration::from_secs(120), app.driver.execute_async(script, vec![]))
        .await
        .expect("axe answers within two minutes")
        .expect("axe ran");
    let r = r.json().clone();
    let violations = r["ok"].as_array().unwrap_or_else(|| panic!("axe failed: {r}")).clone();
    let all: Vec<String> = violations
        .iter()
        .map(|v| format!("{} [{}] {}: {}", v["id"], v["impact"], v["help"], v["nodes"]))
        .collect();
    eprintln!("axe-core violations ({}):\n{}", all.len(), all.join("\n"));
    let serious: Vec<&String> = violations
        .iter()
        .zip(&all)
        .filter(|(v, _)| matches!(v["impact"].as_str(), Some("serious" | "critical")))
        .map(|(_, s)| s)
        .collect();
    assert!(
        serious.is_empty(),
        "serious or critical accessibility violations:\n{}",
        serious.iter().map(|s| s.as_str()).collect::<Vec<_>>().join("\n")
    );
    app.quit().await;
}
