//! Issue 16 in the real app: a note with Markdown, five nodes grouped with Ctrl+G, the group
//! collapsed (one box, the edges into and out of it aggregated and counted, in both drawing
//! modes), moved, expanded (members where they were relative to each other), every step undone
//! one at a time and redone, saved (the spec byte-identical, the sidecar holding the notes and
//! groups) and reopened. The same on a Weaveflow document, whose `metadata.web` holds them.

use serde_json::{json, Value};
use thirtyfour::prelude::*;

use crate::harness::{corpus, read, Desktop, Launch};

const EXAMPLE: &str = include_str!("../../../crates/doc/assets/example.json");
const FIVE: [&str; 5] = ["lookup_order", "approve_refund", "open_ticket", "answer", "reply"];

fn node(id: &str) -> String {
    format!("[data-testid=\"node-{id}\"]")
}

/// A version-1 sidecar as the previous Trellis wrote it: every node in view at 100 %.
fn v1_sidecar() -> String {
    let at = |x: f64, y: f64| json!({"x": x, "y": y});
    let sidecar = json!({
        "version": 1,
        "positions": {
            "classify": at(60.0, 220.0), "lookup_order": at(300.0, 80.0), "approve_refund": at(540.0, 80.0),
            "open_ticket": at(300.0, 360.0), "answer": at(540.0, 220.0), "reply": at(780.0, 220.0),
            "__start__": at(-20.0, 228.0), "__end__": at(1020.0, 228.0)
        },
        "viewport": {"x": 30.0, "y": 120.0, "zoom": 0.6}
    });
    serde_json::to_string_pretty(&sidecar).expect("text") + "\n"
}

fn layout_of(view: &Value) -> (Value, Value) {
    (view["layout"]["notes"].clone(), view["layout"]["groups"].clone())
}

fn positions_of(view: &Value, ids: &[&str]) -> Vec<(f64, f64)> {
    ids.iter()
        .map(|id| {
            let p = &view["layout"]["positions"][id];
            (p["x"].as_f64().expect("x"), p["y"].as_f64().expect("y"))
        })
        .collect()
}

async fn ctrl_click(app: &Desktop, css: &str) {
    let el = app.visible(css).await;
    app.driver
        .action_chain()
        .key_down(Key::Control)
        .click_element(&el)
        .key_up(Key::Control)
        .perform()
        .await
        .expect("ctrl+click");
}

async fn click_pane(app: &Desktop) {
    // The pane's top-left corner: nothing is drawn there at this viewport.
    let pane = app.visible(".react-flow__pane").await;
    app.driver
        .action_chain()
        .move_to_element_with_offset(&pane, -300, -250)
        .click()
        .perform()
        .await
        .expect("click");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_note_and_a_collapsed_group_of_five_undo_step_by_step_save_beside_the_spec_and_reopen() {
    let dir = tempfile::tempdir().expect("tmp");
    let spec = dir.path().join("support.json");
    let side = dir.path().join("support.layout.json");
    std::fs::write(&spec, EXAMPLE).expect("write");
    std::fs::write(&side, v1_sidecar()).expect("write");
    let app = Desktop::launch(Launch { files: vec![spec.clone()], ..Launch::default() }).await;
    let id = app.doc_named("support.json").await;
    app.visible(&node("reply")).await;
    let start = app.view(&id).await;
    let original = positions_of(&start, &FIVE);

    // 1. A note from the command palette, written in place (Markdown), rendered.
    click_pane(&app).await;
    app.chord(&[Key::Control], "k").await;
    app.visible("[data-testid=palette-input]").await.send_keys("add a note").await.expect("type");
    app.visible("[data-testid=palette-item][data-action=add-note]").await.click().await.expect("run");
    let text_area = app.visible("[data-testid^=note-edit-]").await;
    text_area.send_keys("# Refunds").await.expect("type the note");
    text_area.send_keys(Key::Enter).await.expect("a new line");
    text_area.send_keys("Over *100 EUR* need `approve_refund`").await.expect("type the note");
    click_pane(&app).await;
    let v = app
        .wait_view(&id, "the note's text", |v| {
            v["layout"]["notes"][0]["text"] == "# Refunds\nOver *100 EUR* need `approve_refund`"
        })
        .await;
    let note = v["layout"]["notes"][0]["id"].as_str().expect("note id").to_owned();
    app.visible(&format!("[data-testid=note-body-{note}] h1")).await;
    let em = app.visible(&format!("[data-testid=note-body-{note}] em")).await;
    assert_eq!(em.text().await.expect("text"), "100 EUR");
    app.visible(&format!("[data-testid=note-body-{note}] code")).await;

    // 2. Five nodes selected with the mouse, grouped with Ctrl+G.
    app.visible(&node(FIVE[0])).await.click().await.expect("click");
    for n in &FIVE[1..] {
        ctrl_click(&app, &node(n)).await;
    }
    app.chord(&[Key::Control], "g").await;
    let v = app
        .wait_view(&id, "a group of five", |v| {
            v["layout"]["groups"][0]["nodes"].as_array().is_some_and(|n| n.len() == 5)
        })
        .await;
    let group = v["layout"]["groups"][0]["id"].as_str().expect("group id").to_owned();
    app.visible(&format!("[data-testid=group-{group}]")).await;
    app.screenshot("notes-group").await;

    // 3. Collapsed: one box, the members gone, the edges aggregated and counted.
    app.visible(&format!("[data-testid=group-collapse-{group}]")).await.click().await.expect("collapse");
    app.visible(&format!("[data-testid=group-box-{group}]")).await;
    let count = app.visible(&format!("[data-testid=group-count-{group}]")).await.text().await.expect("count");
    assert_eq!(count, "5 members");
    app.wait_js(
        &format!("return !document.querySelector('{}');", node("answer").replace('\'', "\\'")),
        "the members hidden",
    )
    .await;
    let v = app.view(&id).await;
    let drawn: Vec<(String, String, usize)> = v["collapsed"]["edges"]
        .as_array()
        .expect("edges")
        .iter()
        .map(|e| {
            (
                e["from"]["id"].as_str().unwrap_or("").to_owned(),
                e["to"]["id"].as_str().unwrap_or("").to_owned(),
                e["edges"].as_array().map_or(0, Vec::len),
            )
        })
        .collect();
    assert_eq!(drawn, vec![("classify".into(), group.clone(), 3), (group.clone(), "__end__".into(), 1)]);
    // Drawn once each, with the count on the edge standing for three.
    app.wait_js(
        "return document.querySelectorAll('.react-flow__edge').length === 3 && [...document.querySelectorAll('.te-label')].some(l => l.textContent === '×3');",
        "three edges on the canvas, one labelled ×3",
    )
    .await;
    app.screenshot("notes-collapsed").await;
    // The overview drawing shows the same: the box, not the members.
    app.driver
        .execute("window.__trellisPerf.setViewport({x: 200, y: 150, zoom: 0.3})", vec![])
        .await
        .expect("zoom out");
    app.wait_js(
        "const n = window.__trellisPerf.overviewNames(); return window.__trellisPerf.renderMode() === 'canvas' && n.includes('group:' + arguments[0]) && !n.includes('answer') && n.includes('classify');"
            .replace("arguments[0]", &format!("'{group}'"))
            .as_str(),
        "the overview draws the box instead of the members",
    )
    .await;
    app.driver
        .execute("window.__trellisPerf.setViewport({x: 30, y: 120, zoom: 0.6})", vec![])
        .await
        .expect("zoom in");

    // 4. Moved by its box: every member by the same offset.
    let bx = app.visible(&format!("[data-testid=group-box-{group}]")).await;
    app.driver
        .action_chain()
        .click_and_hold_element(&bx)
        .move_by_offset(20, 20)
        .move_by_offset(40, 100)
        .release()
        .perform()
        .await
        .expect("drag the box");
    let moved = app.wait_view(&id, "the members moved", |v| positions_of(v, &FIVE)[0] != original[0]).await;
    let after = positions_of(&moved, &FIVE);
    let (dx, dy) = (after[0].0 - original[0].0, after[0].1 - original[0].1);
    assert!(dy > 50.0, "moved down: {dy}");
    for (a, o) in after.iter().zip(&original) {
        assert_eq!((a.0 - o.0, a.1 - o.1), (dx, dy), "every member by the same offset");
    }

    // 5. Expanded: the members back, where they were relative to each other.
    app.visible(&format!("[data-testid=group-expand-{group}]")).await.click().await.expect("expand");
    app.visible(&node("answer")).await;
    let expanded = app.wait_view(&id, "expanded", |v| v["layout"]["groups"][0]["collapsed"] == false).await;
    assert_eq!(positions_of(&expanded, &FIVE), after);

    // 6. Undo every step, one at a time, checking each state; then redo them all.
    click_pane(&app).await;
    app.chord(&[Key::Control], "z").await; // expand
    app.wait_view(&id, "undo expand", |v| v["layout"]["groups"][0]["collapsed"] == true).await;
    app.chord(&[Key::Control], "z").await; // move
    app.wait_view(&id, "undo move", |v| positions_of(v, &FIVE) == original).await;
    app.chord(&[Key::Control], "z").await; // collapse
    app.wait_view(&id, "undo collapse", |v| v["layout"]["groups"][0]["collapsed"] == false).await;
    app.chord(&[Key::Control], "z").await; // group
    app.wait_view(&id, "undo group", |v| v["layout"]["groups"].as_array().is_some_and(Vec::is_empty)).await;
    app.chord(&[Key::Control], "z").await; // note text
    app.wait_view(&id, "undo the text", |v| v["layout"]["notes"][0]["text"] == "").await;
    app.chord(&[Key::Control], "z").await; // note
    let bare = app
        .wait_view(&id, "undo the note", |v| v["layout"]["notes"].as_array().is_some_and(Vec::is_empty))
        .await;
    assert_eq!(layout_of(&bare), layout_of(&start));
    assert_eq!(bare["canUndo"], false);
    for _ in 0..6 {
        app.chord(&[Key::Control], "y").await;
    }
    let redone = app
        .wait_view(&id, "everything redone", |v| {
            v["canRedo"] == false && v["layout"]["groups"][0]["collapsed"] == false
        })
        .await;
    assert_eq!(layout_of(&redone), layout_of(&expanded));

    // 7. Saved: the spec as it was, byte for byte; the sidecar holds the notes and groups.
    app.chord(&[Key::Control], "s").await;
    app.wait_view(&id, "saved", |v| v["dirty"] == false).await;
    assert_eq!(read(&spec), EXAMPLE, "the spec file is byte-identical");
    let sidecar: Value = serde_json::from_str(&read(&side)).expect("sidecar JSON");
    assert_eq!(sidecar["version"], 2);
    assert_eq!(sidecar["notes"][0]["text"], "# Refunds\nOver *100 EUR* need `approve_refund`");
    assert_eq!(sidecar["groups"][0]["nodes"], json!(FIVE));
    app.quit().await;

    // 8. Reopened: the note and the group are there.
    let app = Desktop::launch(Launch { files: vec![spec.clone()], ..Launch::default() }).await;
    let id = app.doc_named("support.json").await;
    app.visible(&format!("[data-testid=note-body-{note}] h1")).await;
    app.visible(&format!("[data-testid=group-{group}]")).await;
    assert_eq!(layout_of(&app.view(&id).await), layout_of(&redone));
    app.quit().await;
}

#[tokio::test(flavor = "multi_thread")]
async fn a_weaveflow_document_keeps_its_notes_and_groups_in_metadata_web() {
    let dir = tempfile::tempdir().expect("tmp");
    let path = dir.path().join("supervisor.json");
    std::fs::copy(corpus("weaveflow/supervisor_mode.json"), &path).expect("copy");
    let before: Value = serde_json::from_str(&read(&path)).expect("json");
    let app = Desktop::launch(Launch { files: vec![path.clone()], ..Launch::default() }).await;
    let id = app.doc_named("supervisor.json").await;
    app.visible(&node("researcher")).await;

    app.edit(&id, json!({"op": "add_note", "text": "**Workers** report to the supervisor", "position": {"x": 80, "y": 380}})).await;
    app.reload_ui().await;
    app.visible("[data-testid=note-body-note] strong").await;
    app.visible(&node("researcher")).await.click().await.expect("click");
    ctrl_click(&app, &node("quantitative_analyst")).await;
    app.chord(&[Key::Control], "g").await;
    app.wait_view(&id, "a group", |v| {
        v["layout"]["groups"][0]["nodes"] == json!(["researcher", "quantitative_analyst"])
    })
    .await;
    app.visible("[data-testid=group-collapse-group]").await.click().await.expect("collapse");
    app.visible("[data-testid=group-box-group]").await;
    click_pane(&app).await;
    app.chord(&[Key::Control], "s").await;
    app.wait_view(&id, "saved", |v| v["dirty"] == false).await;

    assert!(!dir.path().join("supervisor.layout.json").exists(), "no sidecar for Weaveflow");
    let mut saved: Value = serde_json::from_str(&read(&path)).expect("json");
    let web = saved["metadata"]["web"].as_object_mut().expect("metadata.web");
    assert_eq!(web["notes"][0]["text"], "**Workers** report to the supervisor");
    assert_eq!(web["groups"][0]["collapsed"], true);
    assert_eq!(web["positions"], before["metadata"]["web"]["positions"], "positions beside them, untouched");
    // Without them, the document is what it was.
    web.remove("notes");
    web.remove("groups");
    assert_eq!(saved, before);
    app.quit().await;

    let app = Desktop::launch(Launch { files: vec![path.clone()], ..Launch::default() }).await;
    app.visible("[data-testid=group-box-group]").await;
    app.visible("[data-testid=note-body-note] strong").await;
    app.quit().await;
}
