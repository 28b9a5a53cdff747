//! Notes and groups in pictures (issue 14 with issue 16's annotations): frames with name and
//! count behind their members, nested frames, collapsed groups as one box with Rust's
//! aggregated `×N` edges, notes with their Markdown as escaped plain text clipped to the box;
//! selections; all three formats (Weaveflow's from `metadata.web`); the PNG still renders.

use serde_json::{json, Value};
use trellis_doc::Session;

use super::{corpus_dir, open, svg};
use crate::xml::readable;
use crate::{Scene, Scope, Selection, Theme};

fn edit(s: &mut Session, v: Value) {
    let e = serde_json::from_value(v.clone()).expect("an edit");
    s.apply(&e).unwrap_or_else(|d| panic!("{v}: {d:?}"));
}

/// What the SVG holds of notes and groups, read back with a real XML parser.
#[derive(Debug, Default)]
struct Drawn {
    /// Per frame: `(data-id, title, shown name, count)`, in drawing order.
    frames: Vec<(String, String, String, String)>,
    /// Per note: `(data-id, title (the Markdown), text lines)`.
    notes: Vec<(String, String, Vec<String>)>,
    /// Per collapsed box: `(data-id, name, count text)`.
    boxes: Vec<(String, String, String)>,
    /// Node cards' ids.
    nodes: Vec<String>,
    /// Edge labels.
    labels: Vec<String>,
    /// Edges `(from, to)`.
    edges: Vec<(String, String)>,
    /// Classes of the top-level layers, in order.
    layers: Vec<String>,
}

fn read(svg: &str) -> Drawn {
    let doc = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("not well-formed: {e}"));
    let mut out = Drawn::default();
    let text_of = |n: roxmltree::Node<'_, '_>, class: &str| {
        n.descendants()
            .find(|c| c.attribute("class") == Some(class))
            .map(|c| c.text().unwrap_or_default().to_string())
            .unwrap_or_default()
    };
    let title = |n: roxmltree::Node<'_, '_>| {
        n.children().find(|c| c.has_tag_name("title")).and_then(|c| c.text()).unwrap_or_default().to_string()
    };
    for n in doc.root_element().children().filter(|n| n.is_element() && n.has_tag_name("g")) {
        out.layers.push(n.attribute("class").unwrap_or_default().to_string());
    }
    for n in doc.descendants().filter(|n| n.is_element()) {
        let id = n.attribute("data-id").unwrap_or_default().to_string();
        match n.attribute("class").unwrap_or_default() {
            "group" => out.frames.push((id, title(n), text_of(n, "group-name"), text_of(n, "group-count"))),
            "note" => {
                let lines = n
                    .descendants()
                    .filter(|c| c.has_tag_name("tspan"))
                    .map(|c| c.text().unwrap_or_default().to_string())
                    .collect();
                out.notes.push((id, title(n), lines));
            }
            "group-box" => out.boxes.push((id, text_of(n, "group-box-name"), text_of(n, "group-box-count"))),
            "node" => out.nodes.push(id),
            "edge-label" => out.labels.push(title(n)),
            "edge" => out.edges.push((
                n.attribute("data-from").unwrap_or_default().to_string(),
                n.attribute("data-to").unwrap_or_default().to_string(),
            )),
            _ => {}
        }
    }
    out
}

/// The support example with a note and a nested pair of groups.
fn annotated() -> Session {
    let mut s = open("support.json", trellis_doc::workspace::EXAMPLE).expect("opens");
    edit(
        &mut s,
        json!({"op": "add_note", "id": "why", "text": "# Refunds\nOver 100 EUR need *approval*.\n\n- ask `ops`\n- [policy](https://example.com)",
               "position": {"x": 900, "y": 40}, "color": "yellow"}),
    );
    edit(
        &mut s,
        json!({"op": "add_group", "id": "refunds", "name": "Refunds", "color": "blue",
                        "nodes": ["lookup_order", "approve_refund"], "notes": ["why"]}),
    );
    edit(
        &mut s,
        json!({"op": "add_group", "id": "inner", "name": "Approval", "color": "#3366aa",
                        "nodes": ["approve_refund"]}),
    );
    s
}

#[test]
fn frames_and_notes_are_drawn_behind_the_nodes_with_their_names_counts_and_text() {
    let s = annotated();
    assert_eq!(
        s.layout().groups.iter().find(|g| g.id == "inner").and_then(|g| g.parent.as_deref()),
        Some("refunds")
    );
    for theme in [Theme::Light, Theme::Dark] {
        let text = svg(&s, &Scope::Whole, theme);
        let d = read(&text);
        // Outer frame first (under the inner one); the count is the canvas's: nodes and notes,
        // nested groups' included.
        assert_eq!(
            d.frames,
            vec![
                ("refunds".into(), "Refunds".into(), "Refunds".into(), "3".into()),
                ("inner".into(), "Approval".into(), "Approval".into(), "1".into()),
            ]
        );
        assert_eq!(d.notes.len(), 1);
        let (id, source, lines) = &d.notes[0];
        assert_eq!(id, "why");
        assert!(
            source.starts_with("# Refunds\nOver 100 EUR"),
            "the note's title is its Markdown: {source:?}"
        );
        assert_eq!(lines[0], "Refunds");
        assert!(lines.iter().any(|l| l.contains("Over 100 EUR need")), "{lines:?}");
        assert!(lines.iter().any(|l| l.trim_start().starts_with('•') && l.contains("ask ops")), "{lines:?}");
        assert!(lines.iter().all(|l| !l.contains('*') && !l.contains("](")), "markup is gone: {lines:?}");
        // Frames, then notes, under the edges and the cards.
        let at =
            |c: &str| d.layers.iter().position(|l| l == c).unwrap_or_else(|| panic!("{c} in {:?}", d.layers));
        assert!(at("groups") < at("notes") && at("notes") < at("edges") && at("edges") < at("nodes"));
        assert_eq!(d.nodes.len(), 6);
    }
    // The frame encloses its members (nodes and the note) with the canvas's padding.
    let scene = Scene::of(&s, &Scope::Whole).expect("scene");
    let outer = &scene.frames[0];
    for member in scene.items.iter().filter(|i| i.id == "lookup_order" || i.id == "approve_refund") {
        assert!(outer.x + 20.0 <= member.x + 1e-9 && member.x + member.w <= outer.x + outer.w - 20.0 + 1e-9);
        assert!(outer.y + 48.0 <= member.y + 1e-9 && member.y + member.h <= outer.y + outer.h - 20.0 + 1e-9);
    }
    let note = &scene.notes[0];
    assert!(outer.x <= note.x && note.x + note.w <= outer.x + outer.w);
    let inner = &scene.frames[1];
    assert!(outer.x < inner.x && inner.x + inner.w < outer.x + outer.w, "nested inside");
}

#[test]
fn a_collapsed_group_is_one_box_with_the_aggregated_edges_rust_computes() {
    let mut s = open("support.json", trellis_doc::workspace::EXAMPLE).expect("opens");
    // classify -> lookup_order and classify -> open_ticket go into the box: one edge, ×2.
    edit(
        &mut s,
        json!({"op": "add_group", "id": "work", "name": "Work", "color": "green",
                        "nodes": ["lookup_order", "approve_refund", "open_ticket"]}),
    );
    edit(&mut s, json!({"op": "set_group", "id": "work", "collapsed": true}));
    let view = trellis_doc::collapse::CollapsedView::of(s.spec().expect("graphspec"), s.layout());
    let d = read(&svg(&s, &Scope::Whole, Theme::Light));
    assert_eq!(d.boxes, vec![("work".into(), "Work".into(), "3 members".into())]);
    assert!(d.frames.is_empty(), "a collapsed group has no frame");
    for hidden in ["lookup_order", "approve_refund", "open_ticket"] {
        assert!(!d.nodes.iter().any(|n| n == hidden), "{hidden} is hidden in the box");
        assert!(!d.edges.iter().any(|(a, b)| a == hidden || b == hidden));
    }
    // The edges drawn for the box are exactly Rust's, with their counts.
    for e in &view.edges {
        assert!(d.edges.contains(&(e.from.id.clone(), e.to.id.clone())), "{e:?} in {:?}", d.edges);
    }
    let counted: Vec<String> =
        view.edges.iter().filter(|e| e.edges.len() > 1).map(|e| format!("×{}", e.edges.len())).collect();
    assert_eq!(counted, ["×2", "×2"], "in from classify, out to answer");
    for c in &counted {
        assert!(d.labels.contains(c), "{c} in {:?}", d.labels);
    }
    // The box sits where the canvas puts it: the top-left corner of its members' frame.
    let scene = Scene::of(&s, &Scope::Whole).expect("scene");
    let b = scene.items.iter().find(|i| i.id == "work").expect("the box");
    let p = &s.layout().positions;
    let min_x =
        ["lookup_order", "approve_refund", "open_ticket"].iter().map(|n| p[*n].x).fold(f64::MAX, f64::min);
    let min_y =
        ["lookup_order", "approve_refund", "open_ticket"].iter().map(|n| p[*n].y).fold(f64::MAX, f64::min);
    assert_eq!((b.x, b.y, b.w, b.h), (min_x - 20.0, min_y - 48.0, 200.0, 60.0));
}

#[test]
fn hostile_note_text_and_group_names_come_back_escaped() {
    let mut s = open("support.json", trellis_doc::workspace::EXAMPLE).expect("opens");
    let hostile = "<script>alert(1)</script> & \"quotes\" 'too' ]]><!-- \u{202E}evil \u{1}\u{0} <img src=x onerror=alert(1)>";
    edit(
        &mut s,
        json!({"op": "add_note", "id": "n<&>", "text": hostile, "position": {"x": 0, "y": -300},
                        "size": {"width": 600, "height": 200}}),
    );
    edit(
        &mut s,
        json!({"op": "add_group", "id": "g\"'", "name": "</title><script>x</script>", "color": "red",
                        "nodes": ["classify"]}),
    );
    let text = svg(&s, &Scope::Whole, Theme::Dark);
    assert!(!text.contains("<script"), "no markup gets through");
    assert!(!text.contains("<img"), "no markup gets through");
    let d = read(&text);
    assert_eq!(d.notes[0].0, "n<&>");
    assert_eq!(d.notes[0].1, readable(hostile), "the note's text comes back exactly");
    let shown = d.notes[0].2.join(" ");
    assert!(shown.contains("<script>alert(1)</script>"), "raw HTML is shown as text: {shown:?}");
    assert_eq!(d.frames[0].0, "g\"'");
    assert_eq!(d.frames[0].1, "</title><script>x</script>");
    // And it still rasterises.
    let png =
        crate::png(&text, crate::system_fonts(), &crate::PngOptions { scale: 0.5, ..Default::default() })
            .expect("renders");
    assert!(png.width > 100 && png.height > 100);
}

#[test]
fn a_long_note_is_wrapped_and_clipped_to_its_box() {
    let mut s = open("support.json", trellis_doc::workspace::EXAMPLE).expect("opens");
    let long = format!("# Title\n{}", "lorem ipsum dolor sit amet ".repeat(3_500));
    assert!(long.len() < trellis_doc::annotations::NOTE_TEXT_MAX);
    edit(
        &mut s,
        json!({"op": "add_note", "id": "long", "text": long, "position": {"x": 0, "y": 400},
                        "size": {"width": 240, "height": 160}}),
    );
    let d = read(&svg(&s, &Scope::Whole, Theme::Light));
    let lines = &d.notes[0].2;
    // 160 high: the grip, padding and 17.55-high lines leave room for 7.
    assert_eq!(lines.len(), 7, "{lines:?}");
    assert!(lines.last().is_some_and(|l| l.ends_with('…')), "{lines:?}");
    // 240 wide: 220 of text at about 7.15 per character.
    assert!(lines.iter().all(|l| l.chars().count() <= 30), "{lines:?}");
}

#[test]
fn a_selection_draws_selected_notes_and_groups_and_the_groups_of_its_members() {
    let s = annotated();
    // One node of the inner group: both frames it is in are drawn, around it alone; the note
    // (not selected) is not.
    let d = read(&svg(&s, &Scope::nodes(vec!["approve_refund".into()]), Theme::Light));
    assert_eq!(d.nodes, ["approve_refund"]);
    assert_eq!(d.frames.iter().map(|f| f.0.as_str()).collect::<Vec<_>>(), ["refunds", "inner"]);
    assert!(d.notes.is_empty());
    // A selected group brings its members, nested groups and notes.
    let sel = Selection { groups: vec!["refunds".into()], ..Selection::default() };
    let d = read(&svg(&s, &Scope::Selection(sel), Theme::Light));
    assert_eq!(d.nodes, ["lookup_order", "approve_refund"]);
    assert_eq!(d.frames.len(), 2);
    assert_eq!(d.notes.len(), 1);
    assert_eq!(d.edges, [("lookup_order".to_string(), "approve_refund".to_string())]);
    // A note alone is a picture too.
    let sel = Selection { notes: vec!["why".into()], ..Selection::default() };
    let scene = Scene::of(&s, &Scope::Selection(sel)).expect("a note is something to draw");
    assert_eq!((scene.notes.len(), scene.items.len(), scene.frames.len()), (1, 0, 1));
    // A selection of a node hidden in a collapsed group draws the box.
    let mut s = annotated();
    edit(&mut s, json!({"op": "set_group", "id": "refunds", "collapsed": true}));
    let d = read(&svg(&s, &Scope::nodes(vec!["lookup_order".into(), "classify".into()]), Theme::Light));
    assert_eq!(d.boxes.len(), 1);
    assert_eq!(d.boxes[0].2, "3 members");
    assert_eq!(d.nodes, ["classify"]);
    assert_eq!(d.edges, [("classify".to_string(), "refunds".to_string())]);
    // Nothing of the document: refused.
    let none = Selection { notes: vec!["nope".into()], groups: vec!["nope".into()], ..Selection::default() };
    let refused = Scene::of(&s, &Scope::Selection(none)).expect_err("nothing to draw");
    assert_eq!(refused.code, crate::codes::EMPTY_SELECTION);
}

#[test]
fn weaveflow_notes_and_groups_in_metadata_web_are_drawn() {
    let path = corpus_dir().join("weaveflow/supervisor_mode.json");
    let mut doc: Value = serde_json::from_str(&std::fs::read_to_string(path).expect("read")).expect("json");
    doc["metadata"]["web"]["notes"] = json!([{"id": "n", "text": "**Supervisor** picks a worker", "color": "teal",
                                             "x": 700, "y": 40, "width": 240, "height": 120}]);
    doc["metadata"]["web"]["groups"] = json!([{"id": "workers", "name": "Workers", "color": "purple",
                                              "nodes": ["researcher", "quantitative_analyst"], "notes": []}]);
    let s = open("supervisor_mode.json", &doc.to_string()).expect("opens");
    assert_eq!(s.layout().notes.len(), 1, "{:?}", s.notices());
    let d = read(&svg(&s, &Scope::Whole, Theme::Light));
    assert_eq!(d.frames.iter().map(|f| (f.0.as_str(), f.3.as_str())).collect::<Vec<_>>(), [("workers", "2")]);
    assert_eq!(d.notes[0].2, ["Supervisor picks a worker"]);
}

#[test]
fn graphmd_documents_draw_their_sidecars_groups() {
    let dir = corpus_dir().join("graphmd/support-triage");
    let text = std::fs::read_to_string(dir.join("GRAPH.md")).expect("read");
    let mut s = open("GRAPH.md", &text).expect("opens");
    let first = s
        .spec()
        .map(|g| g.nodes[0].id.clone())
        .or_else(|| trellis_doc::formats::view::display_spec(s.document()).map(|g| g.nodes[0].id.clone()));
    let first = first.expect("a node");
    edit(&mut s, json!({"op": "add_group", "id": "g", "name": "Intake", "nodes": [first]}));
    edit(&mut s, json!({"op": "add_note", "text": "triage *first*", "position": {"x": -400, "y": 0}}));
    let d = read(&svg(&s, &Scope::Whole, Theme::Dark));
    assert_eq!(d.frames.len(), 1);
    assert_eq!(d.notes[0].2, ["triage first"]);
}
