//! A 5,000-node document (the size) draws every node; its PNG stays within budget.

use serde_json::json;

use super::{open, parse, svg};
use crate::{Scope, Theme};

/// A generated graph: a chain of 5,000 nodes of several types, every tenth edge guarded, a
/// branch every hundred nodes; no layout file, so the automatic layout places it (as the app).
pub fn big(n: usize) -> String {
    let types = ["noop", "llm", "http", "router"];
    let nodes: Vec<_> = (0..n)
        .map(|i| json!({"id": format!("node_{i:05}"), "type": types[i % types.len()], "config": {}}))
        .collect();
    let mut edges = vec![json!({"from": "__start__", "to": "node_00000"})];
    for i in 1..n {
        let mut e = json!({"from": format!("node_{:05}", i - 1), "to": format!("node_{i:05}")});
        if i % 10 == 0 {
            e["when"] = json!({"channel": "route", "eq": format!("r{i}")});
        }
        edges.push(e);
        if i % 100 == 0 && i + 50 < n {
            edges.push(json!({"from": format!("node_{i:05}"), "to": format!("node_{:05}", i + 50)}));
        }
    }
    edges.push(json!({"from": format!("node_{:05}", n - 1), "to": "__end__"}));
    json!({"name": "big", "channels": {"route": {"reducer": "last_value"}}, "nodes": nodes, "edges": edges})
        .to_string()
}

#[test]
fn five_thousand_nodes_draw_and_parse_with_every_name() {
    let s = open("big.json", &big(5000)).expect("opens");
    let text = svg(&s, &Scope::Whole, Theme::Light);
    let p = parse(&text);
    assert_eq!(p.nodes.len(), 5000);
    for (i, (id, title, shown)) in p.nodes.iter().enumerate() {
        let want = format!("node_{i:05}");
        assert_eq!((id, title, shown), (&want, &want, &want));
    }
    assert_eq!(p.labels.len(), 499, "every tenth chain edge is guarded");
    assert_eq!(p.marks, ["start", "end"]);

    // Selection of a tenth of it: its nodes only, and the chain edges among them.
    let pick: Vec<String> = (1000..1500).map(|i| format!("node_{i:05}")).collect();
    let part = parse(&svg(&s, &Scope::nodes(pick), Theme::Dark));
    assert_eq!(part.nodes.len(), 500);
    assert!(part.edges.iter().all(|(a, b)| a.as_str() >= "node_01000" && b.as_str() < "node_01500"));
    assert_eq!(
        part.edges.len(),
        499 + 5,
        "the chain inside, plus 5 branches (1000 to 1400) whose both ends are in it"
    );
}

#[test]
fn five_thousand_nodes_rasterise_within_the_pixel_budget() {
    let s = open("big.json", &big(5000)).expect("opens");
    let text = svg(&s, &Scope::Whole, Theme::Dark);
    let options = crate::PngOptions::default();
    let png = crate::png(&text, crate::system_fonts(), &options).expect("a png");
    assert!(png.capped, "5,000 nodes at scale 2 exceed the budget");
    assert!(
        u64::from(png.width) * u64::from(png.height)
            <= options.max_pixels + u64::from(png.width + png.height)
    );
    assert!(png.width <= options.max_side && png.height <= options.max_side);
    let (w, h) = super::png_size::decoded_size(&png.bytes);
    assert_eq!((w, h), (png.width, png.height));
}

/// The 5,000-node document with 50 groups of 100 nodes (every fifth one collapsed, the next
/// one nested in it) and a note per group.
pub fn annotated_big(s: &mut trellis_doc::Session) {
    let edit = |s: &mut trellis_doc::Session, v: serde_json::Value| {
        let e = serde_json::from_value(v.clone()).expect("an edit");
        s.apply(&e).unwrap_or_else(|d| panic!("{v}: {d:?}"));
    };
    for g in 0..50 {
        let nodes: Vec<String> = (g * 100..g * 100 + 100).map(|i| format!("node_{i:05}")).collect();
        let p = s.layout().positions[&nodes[0]];
        edit(
            s,
            json!({"op": "add_note", "id": format!("note_{g}"), "text": format!("# Part {g}\nnodes {} to {}", g * 100, g * 100 + 99),
                       "position": {"x": p.x, "y": p.y - 400.0}}),
        );
        edit(
            s,
            json!({"op": "add_group", "id": format!("g{g}"), "name": format!("Part {g}"), "color": "teal",
                       "nodes": nodes, "notes": [format!("note_{g}")]}),
        );
    }
    for g in (0..50).step_by(5) {
        // The next group nests in this one, which is collapsed: one box for both.
        edit(
            s,
            json!({"op": "add_group", "id": format!("outer{g}"), "name": format!("Parts {g}-{}", g + 1),
                       "groups": [format!("g{g}"), format!("g{}", g + 1)]}),
        );
        edit(s, json!({"op": "set_group", "id": format!("outer{g}"), "collapsed": true}));
    }
}

#[test]
fn five_thousand_nodes_with_groups_and_notes_draw_them_all() {
    let mut s = open("big.json", &big(5000)).expect("opens");
    annotated_big(&mut s);
    let text = svg(&s, &Scope::Whole, Theme::Light);
    let doc = roxmltree::Document::parse(&text).expect("well-formed");
    let count = |class: &str| doc.descendants().filter(|n| n.attribute("class") == Some(class)).count();
    // 10 boxes stand for 20 groups (2,000 nodes, 20 notes); 30 frames and notes remain.
    assert_eq!(count("group-box"), 10);
    assert_eq!(count("group"), 30);
    assert_eq!(count("note"), 30);
    assert_eq!(count("node"), 3000);
    let boxes: Vec<&str> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("group-box-count"))
        .filter_map(|n| n.text())
        .collect();
    assert!(boxes.iter().all(|b| *b == "202 members"), "{boxes:?}");
    let png =
        crate::png(&text, crate::system_fonts(), &crate::PngOptions { scale: 0.25, ..Default::default() })
            .expect("renders");
    assert!(png.width > 1000);
}
