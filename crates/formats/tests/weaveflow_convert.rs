//! Conversions of the corpus both ways, with the loss reports recorded beside the inputs:
//! `convert/to_graphspec/<name>.{graphspec,losses}.json` for each Weaveflow example and
//! `convert/from_graphspec/<name>.{weaveflow,losses}.json` for each GraphSpec example.
//! Regenerate with `INSTA_UPDATE=always` (see `weaveflow_support`).

mod weaveflow_support;

use serde_json::Value;
use trellis_formats::convert::{codes, from_graphspec, to_graphspec};
use trellis_formats::weaveflow::{check_text, parse, to_string, ValidateOptions};
use trellis_spec::read::parse_spec;
use trellis_spec::writer::to_canonical_string;
use weaveflow_support::{expect, finish, fixtures, inputs, read};

fn out_path(dir: &str, input: &std::path::Path, suffix: &str) -> std::path::PathBuf {
    let stem = input.file_stem().and_then(|s| s.to_str()).unwrap_or_default();
    fixtures().join("convert").join(dir).join(format!("{stem}.{suffix}"))
}

#[test]
fn weaveflow_corpus_to_graphspec() {
    let mut failures = Vec::new();
    for input in inputs(&fixtures().join("corpus")) {
        let doc = parse(&read(&input)).doc.unwrap_or_else(|| panic!("{}", input.display()));
        let conversion = to_graphspec(&doc);
        let spec: Value = serde_json::from_str(&to_canonical_string(&conversion.output)).unwrap_or_default();
        failures.extend(expect(&out_path("to_graphspec", &input, "graphspec.json"), &spec));
        let losses = serde_json::to_value(&conversion.losses).unwrap_or_default();
        failures.extend(expect(&out_path("to_graphspec", &input, "losses.json"), &losses));
        // The output is a GraphSpec that reads back without structural errors.
        let back = parse_spec(&to_canonical_string(&conversion.output));
        assert!(back.spec.is_some(), "{}: {:?}", input.display(), back.diagnostics);
    }
    finish(failures);
}

/// GraphSpec examples of the Ilmek corpus (copied, so a clean clone has them).
fn graphspec_inputs() -> Vec<std::path::PathBuf> {
    inputs(&fixtures().join("convert/graphspec_inputs"))
}

#[test]
fn graphspec_corpus_to_weaveflow() {
    let files = graphspec_inputs();
    assert!(files.len() >= 3);
    let mut failures = Vec::new();
    for input in files {
        let parsed = parse_spec(&read(&input));
        let spec = parsed.spec.unwrap_or_else(|| panic!("{}: {:?}", input.display(), parsed.diagnostics));
        let conversion = from_graphspec(&spec);
        let text = to_string(&conversion.output);
        let value: Value = serde_json::from_str(&text).unwrap_or_default();
        failures.extend(expect(&out_path("from_graphspec", &input, "weaveflow.json"), &value));
        let losses = serde_json::to_value(&conversion.losses).unwrap_or_default();
        failures.extend(expect(&out_path("from_graphspec", &input, "losses.json"), &losses));
        // What the conversion writes is a Weaveflow document that reads strictly, and its
        // validation problems are only the ones the loss report announced: unknown node types.
        let checked = check_text(&text, None, &ValidateOptions::default());
        let announced_by = |code: &str| -> &[&str] {
            match code {
                "weaveflow/unknown-node-type" => &[codes::NODE_TYPE],
                "weaveflow/multiple-default-edges" | "weaveflow/no-default-edge" => &[codes::DEFAULT_EDGE],
                "weaveflow/entry-point-not-set" => &[codes::ENTRY],
                _ => &[],
            }
        };
        for d in checked.diagnostics.iter().filter(|d| d.is_error()) {
            let announced =
                announced_by(&d.code).iter().any(|c| conversion.losses.iter().any(|l| l.code == *c));
            assert!(announced, "{}: unannounced problem {d:?}", input.display());
        }
    }
    finish(failures);
}

#[test]
fn a_lossless_graphspec_round_trips_through_weaveflow() {
    // Weaveflow node types, one guard with a translatable complement: nothing is lost but the
    // bindings, which GraphSpec never had.
    let text = r#"{
  "name": "g",
  "channels": {"intent": {"reducer": "last_write"}},
  "nodes": [
    {"id": "a", "type": "state_set", "config": {"value": 1}},
    {"id": "b", "type": "state_delete", "config": {}}
  ],
  "edges": [
    {"from": "__start__", "to": "a"},
    {"from": "a", "to": "b", "when": {"channel": "intent", "eq": "buy"}},
    {"from": "b", "to": "__end__"}
  ]
}"#;
    let spec = parse_spec(text).spec.unwrap_or_else(|| panic!("spec"));
    let w = from_graphspec(&spec);
    let codes_seen: Vec<&str> = w.losses.iter().map(|l| l.code.as_str()).collect();
    assert!(
        codes_seen.iter().all(|c| *c == codes::STATE_BINDINGS || *c == codes::ADDED_EDGE),
        "{codes_seen:?}"
    );
    let def = w.output.definition();
    assert_eq!(def.entry_point, "a");
    let cond = def.edges[0].condition.as_ref().unwrap_or_else(|| panic!("condition"));
    // The channel keeps its name as the condition's input.
    assert_eq!(cond.config["expression"], "inputs.intent == \"buy\"");
    assert_eq!(cond.state["intent"].path, "shared.intent");
    // The added default edge: a -> __end__ (GraphSpec ends the branch when no guard holds),
    // reported since the user did not draw it.
    assert!(def.edges.iter().any(|e| e.from == "a" && e.to == "__end__" && e.condition.is_none()));
    let added: Vec<&str> =
        w.losses.iter().filter(|l| l.code == codes::ADDED_EDGE).map(|l| l.message.as_str()).collect();
    assert_eq!(added.len(), 1, "{added:?}");
    assert!(added[0].contains("\"a\" -> __end__"), "{added:?}");

    // And back: the guard is recovered and the default edge gets the complement.
    let g = to_graphspec(&w.output);
    let when: Vec<Option<Value>> =
        g.output.edges.iter().map(|e| e.when.as_ref().map(|p| Value::Object(p.to_map()))).collect();
    assert!(when.contains(&Some(serde_json::json!({"channel": "shared.intent", "eq": "buy"}))), "{when:?}");
    assert!(when.contains(&Some(serde_json::json!({"channel": "shared.intent", "neq": "buy"}))), "{when:?}");
}

#[test]
fn several_entry_edges_get_a_fan_out_node() {
    let text = r#"{"name": null, "channels": {}, "nodes": [
        {"id": "a", "type": "state_delete", "config": {}}, {"id": "b", "type": "state_delete", "config": {}}],
      "edges": [{"from": "__start__", "to": "a"}, {"from": "__start__", "to": "b"}]}"#;
    let spec = parse_spec(text).spec.unwrap_or_else(|| panic!("spec"));
    let w = from_graphspec(&spec);
    let def = w.output.definition();
    assert_eq!(def.entry_point, "start");
    assert_eq!(def.nodes[0].id, "start");
    assert!(w.losses.iter().any(|l| l.code == codes::ENTRY && l.message.contains("fan-out")));
    let targets: Vec<&str> = def.edges.iter().filter(|e| e.from == "start").map(|e| e.to.as_str()).collect();
    assert_eq!(targets, ["a", "b"]);
}
