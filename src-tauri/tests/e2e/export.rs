//! Issue 14's pictures in the real app: the support example (the app's built-in example) exported as SVG (toolbar, dialog)
//! and as PNG (command palette, dialog), both checked from the files written: the SVG parses as
//! XML and names every node of the document, the PNG decodes to the SVG's size times the scale.
//! A selection exported through the command holds only its nodes. A document with a note, a
//! group and a collapsed group: the pictures hold them as the canvas draws them, and a
//! selection of the note from the canvas draws the note and its frame.

use std::path::Path;

use serde_json::{json, Value};
use thirtyfour::components::SelectElement;
use thirtyfour::prelude::*;

use crate::harness::{wait_fs, Desktop, Launch};

/// The node cards of an SVG the app wrote: `(data-id, title)` of each `g.node`.
fn cards(svg: &str) -> Vec<(String, String)> {
    let doc = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("the SVG is not well-formed: {e}"));
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    doc.descendants()
        .filter(|n| n.attribute("class") == Some("node"))
        .map(|n| {
            let title =
                n.children().find(|c| c.has_tag_name("title")).and_then(|c| c.text()).unwrap_or_default();
            (n.attribute("data-id").unwrap_or_default().to_string(), title.to_string())
        })
        .collect()
}

/// The SVG's `width` and `height`.
fn svg_size(svg: &str) -> (f64, f64) {
    let doc = roxmltree::Document::parse(svg).expect("xml");
    let r = doc.root_element();
    let n = |a: &str| r.attribute(a).and_then(|v| v.parse::<f64>().ok()).unwrap_or_else(|| panic!("svg {a}"));
    (n("width"), n("height"))
}

fn png_size(path: &Path) -> (u32, u32) {
    let file = std::fs::File::open(path).expect("open png");
    let reader = png::Decoder::new(std::io::BufReader::new(file)).read_info().expect("a PNG");
    (reader.info().width, reader.info().height)
}

fn node_ids(view: &Value) -> Vec<String> {
    view["spec"]["nodes"]
        .as_array()
        .expect("nodes")
        .iter()
        .map(|n| n["id"].as_str().expect("id").to_string())
        .collect()
}

#[tokio::test(flavor = "multi_thread")]
async fn the_support_example_exports_as_svg_and_png_from_the_ui() {
    let dir = tempfile::tempdir().expect("tmp");
    let out = dir.path().join("pictures");
    std::fs::create_dir(&out).expect("mkdir");
    // The save dialog answers with a folder: the picture gets its suggested name in it.
    // No file named: the app opens its built-in example, the support agent.
    let app = Desktop::launch(Launch { dialog_path: Some(out.clone()), ..Launch::default() }).await;
    let docs = app.documents().await;
    assert_eq!(docs.len(), 1, "{docs:?}");
    let id = docs[0]["id"].as_str().expect("id").to_string();
    assert_eq!(app.view(&id).await["spec"]["name"], "support-agent");
    let names = node_ids(&app.view(&id).await);
    assert!(names.len() >= 4, "{names:?}");

    // SVG: the toolbar's Export choice opens the dialog; SVG and the whole graph are the defaults.
    let select = app.visible("[data-testid=\"export-select\"]").await;
    SelectElement::new(&select).await.expect("a select").select_by_value("image").await.expect("choose");
    app.visible("[data-testid=\"export-image\"]").await;
    app.visible("[data-testid=\"export-image-svg\"]").await.click().await.expect("svg");
    app.visible("[data-testid=\"export-image-whole\"]").await.click().await.expect("whole");
    app.visible("[data-testid=\"export-image-go\"]").await.click().await.expect("export");
    let svg_path = out.join("support-agent.svg");
    wait_fs("the SVG", || svg_path.exists()).await;
    app.wait_js("return !document.querySelector('[data-testid=export-image]');", "the dialog to close").await;
    let svg = std::fs::read_to_string(&svg_path).expect("read svg");
    let drawn = cards(&svg);
    let mut drawn_ids: Vec<&str> = drawn.iter().map(|c| c.0.as_str()).collect();
    let mut want: Vec<&str> = names.iter().map(String::as_str).collect();
    drawn_ids.sort_unstable();
    want.sort_unstable();
    assert_eq!(drawn_ids, want, "every node of the document, once");
    assert!(drawn.iter().all(|(id, title)| id == title), "each card is titled with its name");
    assert!(!svg.contains("href="), "self-contained");

    // PNG at 1×: from the command palette, then the dialog.
    app.chord(&[Key::Control, Key::Shift], "p").await;
    let input = app.visible("[data-testid=\"palette-input\"]").await;
    input.send_keys("export image").await.expect("type");
    input.send_keys(Key::Enter.value().to_string()).await.expect("enter");
    app.visible("[data-testid=\"export-image\"]").await;
    app.visible("[data-testid=\"export-image-png\"]").await.click().await.expect("png");
    let scale = app.visible("[data-testid=\"export-image-scale\"]").await;
    SelectElement::new(&scale).await.expect("a select").select_by_value("1").await.expect("1x");
    app.visible("[data-testid=\"export-image-go\"]").await.click().await.expect("export");
    let png_path = out.join("support-agent.png");
    wait_fs("the PNG", || png_path.exists()).await;
    // The same theme and scope as the SVG, so the same size in pixels at 1×.
    let (w, h) = svg_size(&svg);
    assert_eq!(png_size(&png_path), (w.ceil() as u32, h.ceil() as u32));

    // A selection through the command, dark, at 2×: only those nodes and the edge between them.
    let pick = vec![names[0].clone(), names[1].clone()];
    let answer = app
        .call("export_image", json!({ "docId": id, "format": "svg", "theme": "dark", "nodes": pick }))
        .await;
    assert_eq!(answer["written"], true, "{answer}");
    assert_eq!(answer["nodes"], 2);
    let part = std::fs::read_to_string(&svg_path).expect("read");
    let mut got: Vec<String> = cards(&part).into_iter().map(|c| c.0).collect();
    got.sort_unstable();
    let mut pick_sorted = pick.clone();
    pick_sorted.sort_unstable();
    assert_eq!(got, pick_sorted);
    let png = app
        .call("export_image", json!({ "docId": id, "format": "png", "theme": "dark", "scale": 2.0 }))
        .await;
    let (pw, ph) = png_size(&png_path);
    assert_eq!((png["width"].as_u64(), png["height"].as_u64()), (Some(u64::from(pw)), Some(u64::from(ph))));
    assert_eq!((pw, ph), ((w * 2.0).ceil() as u32, (h * 2.0).ceil() as u32), "2× the SVG's size");
    assert_eq!(png["bytes"].as_u64(), std::fs::metadata(&png_path).ok().map(|m| m.len()));

    // Refusals: a selection of nothing in this document, an unknown format; nothing written.
    let before = std::fs::read(&svg_path).expect("read");
    let refused = app
        .invoke("export_image", json!({ "docId": id, "format": "svg", "theme": "light", "nodes": ["nope"] }))
        .await;
    assert!(refused.is_err_and(|e| e.to_string().contains("picture/empty-selection")));
    let refused = app.invoke("export_image", json!({ "docId": id, "format": "gif", "theme": "light" })).await;
    assert!(refused.is_err());
    assert_eq!(std::fs::read(&svg_path).expect("read"), before);
    assert_eq!(app.view(&id).await["dirty"], false, "a picture does not change the document");
    app.quit().await;
}

const EXAMPLE: &str = include_str!("../../../crates/doc/assets/example.json");

/// What an SVG the app wrote holds of notes and groups: frames `(id, name, count)`, notes
/// `(id, source text, lines)`, collapsed boxes `(id, count text)`, edge labels.
type Annotated =
    (Vec<(String, String, String)>, Vec<(String, String, Vec<String>)>, Vec<(String, String)>, Vec<String>);

fn annotations(svg: &str) -> Annotated {
    let doc = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("the SVG is not well-formed: {e}"));
    let text_of = |n: roxmltree::Node<'_, '_>, class: &str| {
        n.descendants()
            .find(|c| c.attribute("class") == Some(class))
            .and_then(|c| c.text())
            .unwrap_or("")
            .to_owned()
    };
    let title = |n: roxmltree::Node<'_, '_>| {
        n.children().find(|c| c.has_tag_name("title")).and_then(|c| c.text()).unwrap_or("").to_owned()
    };
    let (mut frames, mut notes, mut boxes, mut labels) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for n in doc.descendants().filter(|n| n.is_element()) {
        let id = n.attribute("data-id").unwrap_or_default().to_owned();
        match n.attribute("class").unwrap_or_default() {
            "group" => frames.push((id, title(n), text_of(n, "group-count"))),
            "note" => notes.push((
                id,
                title(n),
                n.descendants()
                    .filter(|c| c.has_tag_name("tspan"))
                    .map(|c| c.text().unwrap_or("").to_owned())
                    .collect(),
            )),
            "group-box" => boxes.push((id, text_of(n, "group-box-count"))),
            "edge-label" => labels.push(title(n)),
            _ => {}
        }
    }
    (frames, notes, boxes, labels)
}

#[tokio::test(flavor = "multi_thread")]
async fn notes_and_groups_are_in_the_pictures_whole_and_selected() {
    let dir = tempfile::tempdir().expect("tmp");
    let out = dir.path().join("pictures");
    std::fs::create_dir(&out).expect("mkdir");
    let spec = dir.path().join("support.json");
    std::fs::write(&spec, EXAMPLE).expect("write");
    let at = |x: f64, y: f64| json!({"x": x, "y": y});
    let note_text = "# Refunds\nOver 100 EUR need *approval* <script>alert(1)</script>";
    let sidecar = json!({
        "version": 2,
        "positions": {
            "classify": at(60.0, 220.0), "lookup_order": at(300.0, 80.0), "approve_refund": at(540.0, 80.0),
            "open_ticket": at(300.0, 400.0), "answer": at(780.0, 400.0), "reply": at(1020.0, 220.0),
            "__start__": at(-20.0, 228.0), "__end__": at(1260.0, 228.0)
        },
        "viewport": {"x": 30.0, "y": 120.0, "zoom": 0.5},
        "notes": [{"id": "why", "text": note_text, "color": "yellow", "x": 300.0, "y": -160.0, "width": 260.0, "height": 120.0}],
        "groups": [
            {"id": "refunds", "name": "Refunds", "color": "blue", "nodes": ["lookup_order", "approve_refund"], "notes": ["why"]},
            {"id": "tickets", "name": "Tickets", "color": "orange", "nodes": ["open_ticket", "answer"], "notes": [], "collapsed": true}
        ]
    });
    std::fs::write(
        dir.path().join("support.layout.json"),
        serde_json::to_string_pretty(&sidecar).expect("json"),
    )
    .expect("write");
    let app =
        Desktop::launch(Launch { files: vec![spec], dialog_path: Some(out.clone()), ..Launch::default() })
            .await;
    let id = app.doc_named("support.json").await;
    app.visible("[data-testid=\"note-why\"]").await;
    app.visible("[data-testid=\"group-box-tickets\"]").await;

    // The whole graph from the dialog: both groups, the note, the box's counted edges as Rust
    // aggregated them for the canvas.
    let select = app.visible("[data-testid=\"export-select\"]").await;
    SelectElement::new(&select).await.expect("a select").select_by_value("image").await.expect("choose");
    app.visible("[data-testid=\"export-image-whole\"]").await.click().await.expect("whole");
    app.visible("[data-testid=\"export-image-go\"]").await.click().await.expect("export");
    let svg_path = out.join("support.svg");
    wait_fs("the SVG", || svg_path.exists()).await;
    app.wait_js("return !document.querySelector('[data-testid=export-image]');", "the dialog to close").await;
    let svg = std::fs::read_to_string(&svg_path).expect("read");
    assert!(!svg.contains("<script"), "the note's markup is escaped");
    let (frames, notes, boxes, labels) = annotations(&svg);
    assert_eq!(frames, [("refunds".to_owned(), "Refunds".to_owned(), "3".to_owned())]);
    assert_eq!(boxes, [("tickets".to_owned(), "2 members".to_owned())]);
    assert_eq!(notes.len(), 1);
    assert_eq!(notes[0].1, note_text, "the note's Markdown is its title, exactly");
    assert_eq!(notes[0].2[0], "Refunds");
    assert!(notes[0].2.join(" ").contains("need approval <script>alert(1)</script>"), "{:?}", notes[0].2);
    let mut hidden = cards(&svg).into_iter().map(|c| c.0).filter(|n| n == "open_ticket" || n == "answer");
    assert!(hidden.next().is_none(), "the collapsed group's members are its box");
    let view = app.view(&id).await;
    let counted: Vec<String> = view["collapsed"]["edges"]
        .as_array()
        .expect("Rust's aggregated edges")
        .iter()
        .filter_map(|e| e["edges"].as_array().map(Vec::len).filter(|n| *n > 1).map(|n| format!("×{n}")))
        .collect();
    assert!(!counted.is_empty(), "the example has edges aggregated by the box: {}", view["collapsed"]);
    for c in &counted {
        assert!(labels.contains(c), "{c} drawn: {labels:?}");
    }
    // The PNG of the same still renders, at the SVG's size.
    let png = app
        .call("export_image", json!({ "docId": id, "format": "png", "theme": "dark", "scale": 1.0 }))
        .await;
    let (w, h) = svg_size(&svg);
    assert_eq!(png_size(&out.join("support.png")), (w.ceil() as u32, h.ceil() as u32), "{png}");

    // The selection from the canvas: the note alone (a click on it) draws the note and the
    // frame of the group it is in, no node.
    app.visible("[data-testid=\"note-body-why\"]").await.click().await.expect("select the note");
    app.chord(&[Key::Control, Key::Shift], "p").await;
    let input = app.visible("[data-testid=\"palette-input\"]").await;
    input.send_keys("export image").await.expect("type");
    input.send_keys(Key::Enter.value().to_string()).await.expect("enter");
    let scope = app.visible("[data-testid=\"export-image-selection\"]").await;
    let label = app
        .driver
        .execute("return arguments[0].parentElement.textContent;", vec![scope.to_json().expect("el")])
        .await;
    assert!(
        label.expect("label").json().as_str().unwrap_or("").contains("1 note"),
        "the dialog counts the note"
    );
    scope.click().await.expect("selection");
    std::fs::remove_file(&svg_path).expect("rm");
    app.visible("[data-testid=\"export-image-go\"]").await.click().await.expect("export");
    wait_fs("the selection's SVG", || svg_path.exists()).await;
    let part = std::fs::read_to_string(&svg_path).expect("read");
    let (frames, notes, boxes, _) = annotations(&part);
    assert_eq!(notes.iter().map(|n| n.0.as_str()).collect::<Vec<_>>(), ["why"]);
    assert_eq!(frames.iter().map(|f| f.0.as_str()).collect::<Vec<_>>(), ["refunds"]);
    assert!(boxes.is_empty() && cards(&part).is_empty(), "only the note and its frame");

    // Through the command: a selected group brings its members; a box is drawn for its group.
    let answer = app
        .call("export_image", json!({ "docId": id, "format": "svg", "theme": "light", "groups": ["tickets"], "nodes": ["classify"] }))
        .await;
    assert_eq!(answer["nodes"], 1, "{answer}");
    let part = std::fs::read_to_string(&svg_path).expect("read");
    let (frames, notes, boxes, _) = annotations(&part);
    assert_eq!(boxes, [("tickets".to_owned(), "2 members".to_owned())]);
    assert!(frames.is_empty() && notes.is_empty());
    assert_eq!(app.view(&id).await["dirty"], false, "a picture does not change the document");
    app.quit().await;
}
