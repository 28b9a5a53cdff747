//! Names that are markup, quotes, right-to-left text, control characters and 10 KB long are
//! escaped: the picture stays well-formed and gives every name back exactly. Selections.

use serde_json::json;

use super::{open, parse, svg};
use crate::xml::readable;
use crate::{Scene, Scope, Theme};

fn hostile_names() -> Vec<String> {
    vec![
        "<script>alert(1)</script>".into(),
        "a & b && c".into(),
        r#"say "hi" it's"#.into(),
        "]]><!--".into(),
        "مرحبا_بالعالم".into(),
        "שלום\u{202E}evil".into(),
        "tab\there\nnewline".into(),
        "bell\u{7}and\u{1}nul\u{0}".into(),
        "x".repeat(10 * 1024),
        "日本語のノード名".into(),
        "emoji 👋🏽 node".into(),
    ]
}

fn document(names: &[String]) -> String {
    let nodes: Vec<_> = names.iter().map(|n| json!({"id": n, "type": "noop"})).collect();
    let mut edges = vec![json!({"from": "__start__", "to": names[0]})];
    for w in names.windows(2) {
        edges.push(json!({"from": w[0], "to": w[1], "when": {"channel": "route", "eq": "<&\"'>"}}));
    }
    edges.push(json!({"from": names[names.len() - 1], "to": "__end__"}));
    json!({"name": "<hostile & \"graph\">", "channels": {"route": {"reducer": "last_value"}}, "nodes": nodes, "edges": edges})
        .to_string()
}

#[test]
fn hostile_names_are_escaped_and_come_back_exactly() {
    let names = hostile_names();
    let s = open("hostile.json", &document(&names)).expect("opens");
    for theme in [Theme::Light, Theme::Dark] {
        let text = svg(&s, &Scope::Whole, theme);
        let p = parse(&text);
        let got: Vec<&str> = p.nodes.iter().map(|n| n.0.as_str()).collect();
        let want: Vec<String> = names.iter().map(|n| readable(n)).collect();
        assert_eq!(got, want.iter().map(String::as_str).collect::<Vec<_>>());
        for (id, title, shown) in &p.nodes {
            assert_eq!(title, id);
            assert!(
                shown.chars().count() <= 22,
                "a long name is shortened on its card: {} chars",
                shown.chars().count()
            );
        }
        assert_eq!(p.labels.len(), names.len() - 1);
        assert!(p.labels.iter().all(|l| l == r#"route == "<&\"'>""#), "{:?}", p.labels);
        assert!(!text.contains("<script>"), "markup in a name is text, not markup");
    }
}

#[test]
fn a_selection_draws_only_its_nodes_and_the_edges_between_them() {
    let names: Vec<String> = (0..6).map(|i| format!("n{i}")).collect();
    let s = open("chain.json", &document(&names)).expect("opens");
    let whole = parse(&svg(&s, &Scope::Whole, Theme::Light));
    assert_eq!(whole.nodes.len(), 6);
    assert_eq!(whole.edges.len(), 7, "start → n0 → … → n5 → end");

    let pick = vec!["n1".to_string(), "n2".to_string(), "n4".to_string(), "not-a-node".to_string()];
    let part = parse(&svg(&s, &Scope::nodes(pick), Theme::Light));
    let ids: Vec<&str> = part.nodes.iter().map(|n| n.0.as_str()).collect();
    assert_eq!(ids, ["n1", "n2", "n4"]);
    assert_eq!(
        part.edges,
        [("n1".to_string(), "n2".to_string())],
        "only the edge between two selected nodes"
    );
    assert!(part.marks.is_empty(), "the marks are not selected");
    // The frame is the selection's box (plus margin), smaller than the whole graph's.
    assert!(part.view_box[2] * part.view_box[3] < whole.view_box[2] * whole.view_box[3]);

    let with_start = parse(&svg(&s, &Scope::nodes(vec!["__start__".into(), "n0".into()]), Theme::Light));
    assert_eq!(with_start.marks, ["start"]);
    assert_eq!(with_start.edges, [("__start__".to_string(), "n0".to_string())]);

    let none = Scene::of(&s, &Scope::nodes(vec!["nope".into()]));
    assert_eq!(none.err().map(|d| d.code), Some(crate::codes::EMPTY_SELECTION.to_string()));
    let only_marks = Scene::of(&s, &Scope::nodes(vec!["__start__".into()]));
    assert!(only_marks.is_err(), "a mark alone is not a picture of the graph");
}

#[test]
fn an_empty_document_gives_an_empty_but_valid_picture() {
    let s = open("empty.json", r#"{"nodes": [], "edges": []}"#).expect("opens");
    let p = parse(&svg(&s, &Scope::Whole, Theme::Dark));
    assert!(p.nodes.is_empty() && p.edges.is_empty());
    assert_eq!(p.view_box.len(), 4);
}

#[test]
fn the_frame_holds_every_card_with_a_margin() {
    let names: Vec<String> = (0..12).map(|i| format!("step_{i}")).collect();
    let s = open("chain.json", &document(&names)).expect("opens");
    let scene = Scene::of(&s, &Scope::Whole).expect("scene");
    let f = crate::svg::frame(&scene);
    for i in &scene.items {
        assert!(
            i.x - f.x >= crate::svg::MARGIN - 1e-9 && i.y - f.y >= crate::svg::MARGIN - 1e-9,
            "{} inside",
            i.id
        );
        assert!(f.x + f.w - (i.x + i.w) >= crate::svg::MARGIN - 1e-9, "{} inside", i.id);
        assert!(f.y + f.h - (i.y + i.h) >= crate::svg::MARGIN - 1e-9, "{} inside", i.id);
    }
}
