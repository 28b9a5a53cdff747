//! Issue 14's pictures in the real app: the support example (the app's built-in example) exported as SVG (toolbar, dialog)
//! and as PNG (command palette, dialog), both checked from the files written: the SVG parses as
//! XML and names every node of the document, the PNG decodes to the SVG's size times the scale.
//! A selection exported through the command holds only its nodes.

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
