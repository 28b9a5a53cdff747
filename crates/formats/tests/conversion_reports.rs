//! Conversions tell everything, on the corpus's GraphSpec documents (Ilmek's own and the
//! third-party ones): a GraphSpec -> GRAPH.md -> GraphSpec round trip keeps every guard or
//! reports the one it drops, and GraphSpec -> Weaveflow reports every edge it adds and every
//! channel a condition reads under another name.

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use serde_json::Value;
use trellis_formats::convert::graphmd::{from_graphspec as to_graphmd, to_graphspec as from_graphmd};
use trellis_formats::convert::{codes, from_graphspec as to_weaveflow, Loss};
use trellis_formats::graphmd;
use trellis_spec::{Element, GraphSpec, END, START};

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus")
}

/// Every GraphSpec of the corpus that reads (a Mermaid vector's `spec` too), by file name.
fn specs() -> Vec<(String, GraphSpec)> {
    let mut files = Vec::new();
    for dir in ["ilmek/cases", "ilmek/docs", "ilmek/viz", "third-party/ilmek"] {
        let Ok(entries) = std::fs::read_dir(corpus().join(dir)) else { continue };
        files.extend(
            entries.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "json")),
        );
    }
    files.sort();
    let mut out = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(&path).expect("readable");
        let value: Value = serde_json::from_str(&text).unwrap_or(Value::Null);
        let text = match value.get("spec") {
            Some(spec) if spec.is_object() => spec.to_string(),
            _ => text,
        };
        if let Some(spec) = trellis_spec::read::parse_spec(&text).spec {
            if !spec.nodes.is_empty() {
                let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
                out.push((name, spec));
            }
        }
    }
    assert!(out.len() >= 20, "the corpus holds GraphSpec documents: {}", out.len());
    out
}

/// A loss with one of `code` reports the edge `index` of the source (by its element, or by its
/// place in the source).
fn on_edge(losses: &[Loss], index: usize, code: &[&str]) -> bool {
    let at = format!("/edges/{index}");
    losses.iter().any(|l| {
        code.contains(&l.code.as_str())
            && (matches!(&l.element, Some(Element::Edge { index: i, .. }) if *i == index)
                || l.pointer == at
                || l.pointer.starts_with(&format!("{at}/")))
    })
}

#[test]
fn a_round_trip_through_graph_md_keeps_every_guard_or_reports_it() {
    let (mut kept, mut reported) = (0, 0);
    for (name, spec) in specs() {
        let there = to_graphmd(&spec);
        let text = graphmd::to_string(&there.output);
        let doc = graphmd::read(&text).doc.unwrap_or_else(|| panic!("{name}: the GRAPH.md written reads"));
        let back = from_graphmd(&doc);
        for (i, e) in spec.edges.iter().enumerate() {
            let Some(when) = &e.when else { continue };
            let same = back
                .output
                .edges
                .iter()
                .any(|b| b.from == e.from && b.to == e.to && b.when.as_ref() == Some(when));
            // Reported on the way there (a loop's or an exit's guard, a guarded entry) or back.
            let told_there = on_edge(&there.losses, i, &[codes::CONDITION, codes::ENTRY]);
            let told_back = back.losses.iter().any(|l| {
                l.code == codes::CONDITION
                    && matches!(&l.element, Some(Element::Edge { from, to, .. }) if *from == e.from.as_str() && *to == e.to.as_str())
            });
            assert!(
                same || told_there || told_back,
                "{name}: the guard of edge {i} ({} -> {}) is dropped unreported",
                e.from,
                e.to
            );
            if same {
                kept += 1;
            } else {
                reported += 1;
            }
        }
        // A guard that comes back is never reported as lost.
        for l in &back.losses {
            if l.code == codes::CONDITION {
                assert!(!l.message.contains("\"channel\""), "{name}: {}", l.message);
            }
        }
    }
    assert!(kept >= 10, "guards kept through the round trip: {kept} (reported dropped: {reported})");
}

#[test]
fn graph_spec_to_weaveflow_reports_every_edge_it_adds_and_every_channel_it_renames() {
    let mut added_seen = 0;
    for (name, spec) in specs() {
        let w = to_weaveflow(&spec);
        let def = w.output.definition();
        // The source's edges as Weaveflow names their ends.
        let source: HashSet<(String, String)> = spec
            .edges
            .iter()
            .filter(|e| e.from != START)
            .map(|e| (e.from.to_string(), if e.to == END { "__end__".to_owned() } else { e.to.to_string() }))
            .collect();
        let fan_out = w.losses.iter().any(|l| l.code == codes::ENTRY && l.message.contains("fan-out"));
        for e in &def.edges {
            if source.contains(&(e.from.clone(), e.to.clone())) {
                continue;
            }
            if fan_out && def.entry_point == e.from {
                continue; // the fan-out node's edges, reported as the entry's loss
            }
            let told = w.losses.iter().any(|l| {
                l.code == codes::ADDED_EDGE && l.message.contains(&format!("\"{}\" -> {}", e.from, e.to))
            });
            assert!(told, "{name}: the edge {} -> {} was added unreported: {:#?}", e.from, e.to, w.losses);
            added_seen += 1;
        }
        for (k, e) in def.edges.iter().enumerate() {
            let Some(c) = &e.condition else { continue };
            for (input, binding) in &c.state {
                let channel = binding.path.strip_prefix("shared.").unwrap_or(&binding.path);
                if input != channel {
                    let told = w
                        .losses
                        .iter()
                        .any(|l| l.code == codes::CHANNEL && l.message.contains(&format!("inputs.{input}")));
                    assert!(told, "{name}: condition {k} reads channel {channel} as {input}, unreported");
                }
            }
        }
    }
    assert!(added_seen >= 5, "the corpus has edges Weaveflow needs added: {added_seen}");
}

#[test]
fn a_channel_that_is_not_a_cel_name_is_read_as_value_and_said_so() {
    let text = r#"{"name": "g", "channels": {"user-intent": {"reducer": "last_write"}, "in": {"reducer": "last_write"}},
        "nodes": [{"id": "a", "type": "noop", "config": {}}, {"id": "b", "type": "noop", "config": {}}],
        "edges": [{"from": "__start__", "to": "a"},
            {"from": "a", "to": "b", "when": {"channel": "user-intent", "eq": "buy"}},
            {"from": "a", "to": "__end__", "when": {"channel": "in", "eq": 1}},
            {"from": "b", "to": "__end__"}]}"#;
    let spec = trellis_spec::read::parse_spec(text).spec.expect("reads");
    let w = to_weaveflow(&spec);
    let def = w.output.definition();
    let exprs: Vec<&str> = def
        .edges
        .iter()
        .filter_map(|e| e.condition.as_ref())
        .filter_map(|c| c.config.get("expression").and_then(Value::as_str))
        .collect();
    assert_eq!(exprs, ["inputs.value == \"buy\"", "inputs.value == 1"]);
    let renamed: Vec<&str> = w
        .losses
        .iter()
        .filter(|l| l.code == codes::CHANNEL && l.message.contains("inputs.value"))
        .map(|l| l.message.as_str())
        .collect();
    assert_eq!(renamed.len(), 2, "{renamed:?}");
    assert!(renamed[0].contains("\"user-intent\""), "{renamed:?}");
}
