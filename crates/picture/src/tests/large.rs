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
