//! Property tests: any document built through the setters is written in a form that reads back
//! as the same document and is a fixed point of the canonical writer; arbitrary text never
//! panics the reader, validator or analysis.

use proptest::prelude::*;
use trellis_formats::graphmd::{self, paths, yaml::Yaml, GraphMd};

/// Strings that stress the scalar writer: YAML indicators, quotes, colons, `#`, numbers,
/// booleans, unicode, blank edges and line breaks.
fn tricky() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z][a-z0-9_-]{0,8}",
        Just("true".to_owned()),
        Just("1.5".to_owned()),
        Just("null".to_owned()),
        Just("- x".to_owned()),
        Just("a: b".to_owned()),
        Just("x #y".to_owned()),
        Just("'q'".to_owned()),
        Just("\"dq\"".to_owned()),
        Just("naïve café ✓".to_owned()),
        Just(" lead".to_owned()),
        Just("trail ".to_owned()),
        Just("line1\nline2".to_owned()),
        Just("ends\n".to_owned()),
        Just("tab\there".to_owned()),
        Just("[x, y]".to_owned()),
        Just("{k: v}".to_owned()),
        Just("back\\slash".to_owned()),
        "\\PC{0,12}",
    ]
}

fn build(
    ids: Vec<String>,
    descs: Vec<String>,
    edges: Vec<(usize, usize, u8)>,
    body: String,
    flow_exits: bool,
) -> GraphMd {
    let mut doc = GraphMd::new("p");
    let mut added = Vec::new();
    for (i, id) in ids.iter().enumerate() {
        if doc.add_node(id, ["agent", "tool", "router", "human"][i % 4]).is_ok() {
            added.push(id.clone());
        }
    }
    for (id, d) in added.iter().zip(descs) {
        doc.set_node_field(id, "description", Yaml::string(d)).expect("set");
    }
    if !added.is_empty() {
        for (a, b, k) in edges {
            let (a, b) = (&added[a % added.len()], &added[b % added.len()]);
            let kind = ["sequential", "conditional", "parallel", "loop"][usize::from(k % 4)];
            let i = doc.add_edge(None, a, b, Some(kind)).expect("edge");
            if kind == "conditional" {
                doc.set_edge_field(i, "condition", Yaml::string(format!("c{k}"))).expect("cond");
            }
            if kind == "loop" {
                doc.set_edge_kind(i, "loop").expect("loop");
            }
        }
        doc.set_field("entry", Yaml::string(&added[0]));
        doc.set_field(
            "exits",
            Yaml::seq(vec![Yaml::string(added.last().cloned().unwrap_or_default())], flow_exits),
        );
    }
    doc.set_body(body);
    doc
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    #[test]
    fn built_documents_round_trip(
        ids in proptest::collection::vec(tricky(), 0..6),
        descs in proptest::collection::vec(tricky(), 0..6),
        edges in proptest::collection::vec((0usize..6, 0usize..6, 0u8..4), 0..8),
        body in "\\PC{0,30}",
        flow_exits in any::<bool>(),
    ) {
        let doc = build(ids, descs, edges, body, flow_exits);
        let text = graphmd::to_canonical_string(&doc);
        let r = graphmd::read(&text);
        prop_assert!(r.diagnostics.is_empty(), "{:?}\n{}", r.diagnostics, text);
        let back = r.doc.expect("doc");
        prop_assert_eq!(&back, &doc, "\n{}", text);
        prop_assert_eq!(graphmd::to_canonical_string(&back), text.clone());
        // Validation and analysis never panic, whatever the graph.
        let (t, d) = graphmd::check(&back);
        let _ = paths::analyse(&t, &d, None);
    }

    #[test]
    fn arbitrary_front_matter_never_panics(fm in "[-a-z0-9:\\[\\]{},&*!|>'\"#\\n \\t.?%@`~]{0,200}", body in "\\PC{0,20}") {
        let text = format!("---\n{fm}\n---\n{body}");
        let r = graphmd::read_and_validate(&text);
        if let Some(doc) = &r.doc {
            let _ = graphmd::to_string(doc);
            let canonical = graphmd::to_canonical_string(doc);
            // What the canonical writer produces reads back as the same document.
            let again = graphmd::read(&canonical).doc.expect("canonical text reads");
            prop_assert_eq!(&again, doc, "\n{}\n=>\n{}", text, canonical);
            let (t, d) = graphmd::check(doc);
            let _ = paths::analyse(&t, &d, None);
        }
    }
}
