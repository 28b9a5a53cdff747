//! Diff and merge of real documents in the three formats (files from the corpus and the
//! fixtures, edited the way a person would).

use serde_json::json;
use trellis_diff::document::{read, ReadError};
use trellis_diff::{diff, render, Change, MergeError, MergeOutcome, Reason};

const SUPPORT: &str = include_str!("../../spec/tests/fixtures/valid/support.json");
const SUPERVISOR: &str = include_str!("../../../../shared/corpus/weaveflow/supervisor_mode.json");
const TRIAGE: &str = include_str!("../../formats/tests/fixtures/graphmd/support-triage.GRAPH.md");

fn doc(name: &str, text: &str) -> trellis_diff::Document {
    read(Some(name), text.as_bytes(), None).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The merge of documents lent ([`trellis_diff::merge_documents`]), checked against the merge
/// of documents given, the merge driver's route ([`trellis_diff::merge_owned`], which takes the
/// merged elements out of the sides and puts them back to check the sides): the same outcome.
fn merge_documents(
    base: &trellis_diff::Document,
    ours: &trellis_diff::Document,
    theirs: &trellis_diff::Document,
) -> Result<MergeOutcome, MergeError> {
    let lent = trellis_diff::merge_documents(base, ours, theirs);
    let given = trellis_diff::merge_owned(base.clone(), ours.clone(), theirs.clone());
    match (&lent, &given) {
        (Ok(l), Ok(g)) => {
            assert_eq!(l.text, g.text);
            assert_eq!(l.conflicts, g.conflicts);
            assert_eq!(l.format, g.format);
        }
        (Err(l), Err(g)) => assert_eq!(l, g),
        _ => panic!("{lent:?} but given: {given:?}"),
    }
    lent
}

/// The support example with one node added and one condition changed.
fn support_edited() -> String {
    SUPPORT
        .replace(
            r#"    {
      "id": "browse","#,
            r#"    {
      "id": "refund",
      "type": "say",
      "config": {
        "text": "refunded"
      }
    },
    {
      "id": "browse","#,
        )
        .replace(r#""neq": "buy""#, r#""eq": "browse""#)
}

#[test]
fn a_node_added_and_a_condition_changed_are_exactly_two_changes() {
    let a = doc("support.json", SUPPORT);
    let b = doc("support.json", &support_edited());
    let d = diff(&a.graph, &b.graph);
    assert_eq!(d.changes.len(), 2, "{:#?}", d.changes);
    assert!(matches!(&d.changes[0], Change::NodeAdded { id, .. } if id == "refund"));
    let Change::EdgeChanged { edge, fields } = &d.changes[1] else { panic!("{:?}", d.changes[1]) };
    assert_eq!((edge.from.as_str(), edge.to.as_str()), ("classify", "browse"));
    let pointers: Vec<&str> = fields.iter().map(|f| f.pointer.as_str()).collect();
    assert_eq!(pointers, ["/when/neq", "/when/eq"]);
    let text = render::text(&a.graph, &b.graph, &d, None);
    assert!(text.contains("+ node refund (say)"), "{text}");
    assert!(text.contains("~ edge classify -> browse"), "{text}");
    let md = render::markdown(&a.graph, &b.graph, &d, "support.json", None);
    assert!(md.contains("**1 node added, 1 edge changed**"), "{md}");
}

#[test]
fn reformatting_is_no_change() {
    let a = doc("support.json", SUPPORT);
    let v: serde_json::Value = serde_json::from_str(SUPPORT).expect("json");
    let b = doc("support.json", &serde_json::to_string(&v).expect("text"));
    assert!(diff(&a.graph, &b.graph).is_empty());
    assert_eq!(render::textconv(&a.graph), render::textconv(&b.graph));
}

#[test]
fn a_renamed_node_keeps_its_rewired_edges_out_of_the_diff() {
    let a = doc("support.json", SUPPORT);
    let b = doc(
        "support.json",
        &SUPPORT
            .replace("\"buy\",\n      \"type\"", "\"purchase\",\n      \"type\"")
            .replace("\"to\": \"buy\"", "\"to\": \"purchase\"")
            .replace("\"from\": \"buy\"", "\"from\": \"purchase\""),
    );
    let d = diff(&a.graph, &b.graph);
    assert_eq!(d.changes, vec![Change::NodeRenamed { from: "buy".into(), to: "purchase".into(), edges: 2 }]);
    let applied = trellis_diff::diff::apply(&a.graph, &d);
    assert!(diff(&applied, &b.graph).is_empty());
}

#[test]
fn weaveflow_layout_is_left_out_and_summarised() {
    let a = doc("supervisor.json", SUPERVISOR);
    let moved = SUPERVISOR.replacen("\"x\": ", "\"x\": 1", 1);
    let b = doc("supervisor.json", &moved);
    assert!(diff(&a.graph, &b.graph).is_empty(), "a moved node is no change");
    let line = trellis_diff::layout::summary(a.graph.layout.as_ref(), b.graph.layout.as_ref());
    assert_eq!(line.as_deref(), Some("layout: 1 node moved"));
}

#[test]
fn graphmd_fields_nodes_and_body_are_compared() {
    let a = doc("GRAPH.md", TRIAGE);
    let edited = TRIAGE
        .replace("cost_usd: 0.25", "cost_usd: 0.5")
        .replace("confidence_threshold: 0.8", "confidence_threshold: 0.9");
    let edited = format!("{edited}\nOne more line.\n");
    let b = doc("GRAPH.md", &edited);
    let d = diff(&a.graph, &b.graph);
    let text = render::text(&a.graph, &b.graph, &d, None);
    assert!(text.contains("~ graph /path_budget/cost_usd: 0.25 -> 0.5"), "{text}");
    assert!(text.contains("~ node route\n    /confidence_threshold: 0.8 -> 0.9"), "{text}");
    assert!(text.contains("~ body: 0 lines removed, 2 lines added") || text.contains("~ body:"), "{text}");
}

#[test]
fn independent_edits_merge_and_the_result_is_canonical() {
    let base = doc("support.json", SUPPORT);
    let ours = doc("support.json", &SUPPORT.replace("\"bought\"", "\"sold\""));
    let theirs = doc("support.json", &support_edited());
    let out = merge_documents(&base, &ours, &theirs).expect("same format");
    assert!(out.conflicts.is_empty(), "{:?}", out.conflicts);
    let text = out.text.expect("merged");
    assert!(text.contains("\"sold\"") && text.contains("\"refund\"") && text.contains("\"eq\": \"browse\""));
    // Canonical: what `fmt` writes.
    let spec = trellis_spec::read::parse_spec(&text).spec.expect("reads");
    assert_eq!(trellis_spec::writer::to_canonical_string(&spec), text);
}

#[test]
fn two_values_for_one_field_is_a_conflict_with_the_three_values() {
    let base = doc("support.json", SUPPORT);
    let ours = doc("support.json", &SUPPORT.replace("\"bought\"", "\"sold\""));
    let theirs = doc("support.json", &SUPPORT.replace("\"bought\"", "\"paid\""));
    let out = merge_documents(&base, &ours, &theirs).expect("same format");
    assert_eq!(out.conflicts.len(), 1);
    let c = &out.conflicts[0];
    assert_eq!(c.reason, Reason::BothChanged);
    assert_eq!(c.pointer, "/config/text");
    assert_eq!(
        (c.base.clone(), c.ours.clone(), c.theirs.clone()),
        (Some(json!("bought")), Some(json!("sold")), Some(json!("paid")))
    );
    let report: serde_json::Value =
        serde_json::from_str(&trellis_diff::report_text("flows/support.json", &out)).expect("json");
    assert_eq!(report["conflicts"][0]["element"], json!({"kind": "node", "id": "buy"}));
    assert_eq!((&report["version"], &report["kept"]), (&json!(2), &json!("merged")));
    // The text the driver leaves holds ours at the conflict.
    assert!(out.text.as_deref().is_some_and(|t| t.contains("\"sold\"") && !t.contains("\"paid\"")));
}

#[test]
fn an_edge_to_a_node_the_other_side_deleted_is_a_conflict() {
    let base = doc("support.json", SUPPORT);
    // Ours deletes `browse` (and its edges); theirs adds an edge from browse back to classify.
    let mut v: serde_json::Value = serde_json::from_str(SUPPORT).expect("json");
    v["nodes"].as_array_mut().expect("nodes").retain(|n| n["id"] != "browse");
    v["edges"].as_array_mut().expect("edges").retain(|e| e["from"] != "browse" && e["to"] != "browse");
    let ours = doc("support.json", &v.to_string());
    let mut w: serde_json::Value = serde_json::from_str(SUPPORT).expect("json");
    w["edges"].as_array_mut().expect("edges").push(json!({"from": "browse", "to": "classify"}));
    let theirs = doc("support.json", &w.to_string());
    let out = merge_documents(&base, &ours, &theirs).expect("same format");
    assert!(out.conflicts.iter().any(|c| c.reason == Reason::Invalid), "{:?}", out.conflicts);
}

#[test]
fn graphmd_bodies_merge_as_text() {
    let base = doc("GRAPH.md", &format!("{TRIAGE}\nfirst\n\nmiddle\n\nlast\n"));
    let ours = doc("GRAPH.md", &format!("{TRIAGE}\nFIRST\n\nmiddle\n\nlast\n"));
    let theirs = doc(
        "GRAPH.md",
        &format!("{}\nfirst\n\nmiddle\n\nLAST\n", TRIAGE.replace("timeout_ms: 1000", "timeout_ms: 2000")),
    );
    let out = merge_documents(&base, &ours, &theirs).expect("same format");
    assert!(out.conflicts.is_empty(), "{:?}", out.conflicts);
    let text = out.text.expect("merged");
    assert!(text.contains("FIRST") && text.contains("LAST") && text.contains("timeout_ms: 2000"), "{text}");
    // Unchanged front matter keeps its author's style (the flow list of exits).
    assert!(text.contains("exits: [close]"), "{text}");
}

#[test]
fn bad_inputs_are_clear_errors() {
    assert_eq!(read(Some("x.json"), b"{\"nodes\": [\0]}", None).err(), Some(ReadError::Binary));
    assert_eq!(read(Some("x.json"), &[0xff, 0xfe, b'{'], None).err(), Some(ReadError::NotUtf8));
    let e = read(Some("x.json"), b"{\"nodes\": [", None).expect_err("an error");
    assert!(e.to_string().contains("line 1, column 11"), "{e}");
    let e = read(Some("x.json"), br#"{"nodes": [{"id": "a", "type": "t"}, {"id": "a", "type": "t"}]}"#, None)
        .expect_err("duplicate ids");
    assert!(e.to_string().contains("\"a\" is used twice"), "{e}");
    let g = doc("support.json", SUPPORT);
    let w = doc("supervisor.json", SUPERVISOR);
    let e = merge_documents(&g, &g, &w).expect_err("formats differ");
    assert!(e.0.contains("Weaveflow"), "{e}");
}

/// A GraphSpec is read into the graph straight from the model (its values taken, not copied):
/// the same graph as the model serialised to JSON and read as an object, for the fixtures,
/// a generated spec with conditions and unnamed graphs, channels and nodes without a type.
#[test]
fn a_graphspec_read_from_its_model_is_the_graph_of_its_json() {
    let generated = trellis_bench::generate_text(300, 7);
    let odd = r#"{"name": null, "channels": {"c": {"reducer": "append"}, "d": {}},
        "nodes": [{"id": "a", "config": {"k": [1, 2.50, {"z": null}]}}, {"id": "b", "type": "t"}],
        "edges": [{"from": "a", "to": "b"}, {"from": "a", "to": "b", "when": {"channel": "c", "eq": 1}}]}"#;
    for text in [SUPPORT, generated.as_str(), odd] {
        let spec = trellis_spec::read::parse_spec(text).spec.expect("reads");
        let serde_json::Value::Object(root) = serde_json::to_value(&spec).expect("json") else {
            panic!("an object")
        };
        let via_json =
            trellis_diff::Graph::from_object(trellis_formats::detect::Format::GraphSpec, root, None, None)
                .expect("graph");
        let direct = trellis_diff::Graph::from_spec(spec, None).expect("graph");
        assert_eq!(direct, via_json);
        // And back: the object the merge writes from is the one the model would give, and the
        // model made straight from the graph is the one the reader makes of that object.
        assert_eq!(direct.clone().into_object(), direct.to_object());
        let read_back = trellis_spec::read::spec_from_value(serde_json::Value::Object(direct.to_object()));
        assert_eq!(read_back.diagnostics, Vec::new());
        let model = direct.clone().into_spec().expect("fits the model");
        assert!(model.identical(read_back.spec.as_ref().expect("reads")));
        assert!(model.identical(&trellis_spec::read::parse_spec(text).spec.expect("reads")));
    }
}

/// A graph the GraphSpec model does not hold as it is (a field the format does not define, a
/// `config` that is not an object, a graph read from another format) is not made into the model
/// directly: it goes back to the reader, which says what does not fit.
#[test]
fn a_graph_the_model_does_not_hold_is_left_to_the_reader() {
    let read = |v: serde_json::Value| {
        let serde_json::Value::Object(root) = v else { panic!("an object") };
        trellis_diff::Graph::from_object(trellis_formats::detect::Format::GraphSpec, root, None, None)
            .expect("graph")
    };
    let node = |n: serde_json::Value| read(serde_json::json!({"name": "g", "nodes": [n], "edges": []}));
    let fits = read(serde_json::json!({"name": null, "channels": {"c": {}}, "nodes": [{"id": "a"}],
        "edges": [{"from": "__start__", "to": "a", "when": {"channel": "c", "truthy": true}}]}));
    assert!(fits.fits_spec());
    for odd in [
        node(serde_json::json!({"id": "a", "type": "t", "extra": 1})),
        node(serde_json::json!({"id": "a", "type": "t", "config": null})),
        node(serde_json::json!({"id": "a", "type": 5})),
        read(serde_json::json!({"name": "g", "version": 2, "nodes": []})),
        read(serde_json::json!({"nodes": [], "channels": {"c": {"reducer": "append", "x": 1}}})),
        read(serde_json::json!({"nodes": [], "edges": [{"from": "a", "to": "b", "when": null}]})),
    ] {
        assert!(!odd.fits_spec(), "{odd:?}");
        assert_eq!(odd.clone().into_spec(), Err(odd));
    }
    // Merged and written, such a document gets the reader's word for what is wrong.
    let base = doc("g.json", r#"{"name": "g", "nodes": [{"id": "a", "type": "t"}], "edges": []}"#);
    let ours = base.with_graph(node(serde_json::json!({"id": "a", "type": 5})));
    let out = merge_documents(&base, &ours, &base).expect("merges");
    assert_eq!(out.text, None);
    assert!(out.conflicts[0].message.contains("\"type\" that is not a string"), "{:?}", out.conflicts);
}
