//! GRAPH.md <-> GraphSpec conversions and their loss reports.

use trellis_formats::convert::graphmd::{from_graphspec, to_graphspec};
use trellis_formats::graphmd;
use trellis_spec::GraphSpec;

const SEED: &str = include_str!("fixtures/graphmd/support-triage.GRAPH.md");

#[test]
fn seed_to_graphspec_reports_each_loss() {
    let doc = graphmd::read(SEED).doc.expect("doc");
    let c = to_graphspec(&doc);
    let spec = serde_json::to_value(&c.output).expect("json");
    assert_eq!(
        spec,
        serde_json::json!({
            "name": "support-triage",
            "channels": {"known_issue": {"reducer": "last_write"}},
            "nodes": [
                {"id": "route", "type": "judge", "config": {}},
                {"id": "answer", "type": "agent", "config": {"model_key": "openai:gpt-5-mini"}},
                {"id": "close", "type": "human", "config": {}}
            ],
            "edges": [
                {"from": "__start__", "to": "route"},
                {"from": "route", "to": "answer", "when": {"channel": "known_issue", "truthy": true}},
                {"from": "answer", "to": "close"},
                {"from": "close", "to": "__end__"}
            ]
        })
    );
    let losses: Vec<(&str, &str)> = c.losses.iter().map(|l| (l.code.as_str(), l.pointer.as_str())).collect();
    assert_eq!(
        losses,
        vec![
            ("convert/budget", "/path_budget"),
            ("convert/judge-fields", "/nodes/0"),
            ("convert/node-type", "/nodes/2/kind"),
            ("convert/edge-id", "/edges/0/id"),
            // `known_issue` is no `state` entry: declared for the condition, and said so.
            ("convert/channel", "/edges/0/condition"),
            ("convert/condition-approximate", "/edges/0/condition"),
            ("convert/edge-id", "/edges/1/id"),
            ("convert/exits", "/exits/0"),
        ]
    );
    let judge = &c.losses[1].message;
    for f in [
        "seat",
        "decision_model",
        "questions",
        "options_count",
        "state_tokens",
        "timeout_ms",
        "fallback",
        "fires_on",
        "confidence_threshold",
    ] {
        assert!(judge.contains(f), "{judge}");
    }
}

#[test]
fn loop_bounds_estimates_and_body_are_reported() {
    let text = "---\nspec_version: \"1.1.0\"\nentry: a\nexits: [b]\nstate:\n  doc: {tokens: 10}\nnodes:\n  - {id: a, kind: agent, estimates: {input_tokens: 5}, reads: [doc]}\n  - {id: b, kind: subgraph}\nedges:\n  - {from: a, to: b}\n  - {from: b, to: a, kind: loop, bounds: {max_iterations: 3}}\n---\nBody\n";
    let c = to_graphspec(&graphmd::read(text).doc.expect("doc"));
    let codes: Vec<&str> = c.losses.iter().map(|l| l.code.as_str()).collect();
    assert_eq!(
        codes,
        [
            "convert/body",
            "convert/estimates",
            "convert/estimates",
            "convert/field",
            "convert/node-type",
            "convert/loop-bound",
            "convert/exits"
        ]
    );
    assert!(c.losses[5].message.contains("3 iterations"));
}

#[test]
fn graphspec_to_graphmd_builds_a_valid_document() {
    let spec: GraphSpec = serde_json::from_value(serde_json::json!({
        "name": "review",
        "channels": {"verdict": {"reducer": "last_write"}, "notes": {"reducer": "append"}},
        "nodes": [
            {"id": "draft", "type": "agent", "config": {"model_key": "m", "temperature": 0.2}},
            {"id": "search", "type": "tool", "config": {}},
            {"id": "lint", "type": "tool", "config": {}},
            {"id": "review", "type": "llm_judge", "config": {}}
        ],
        "edges": [
            {"from": "__start__", "to": "draft"},
            {"from": "draft", "to": "search"},
            {"from": "draft", "to": "lint"},
            {"from": "search", "to": "review"},
            {"from": "lint", "to": "review"},
            {"from": "review", "to": "draft", "when": {"channel": "verdict", "eq": "redo"}},
            {"from": "review", "to": "__end__", "when": {"channel": "verdict", "eq": "ok"}}
        ]
    }))
    .expect("spec");
    let c = from_graphspec(&spec);
    let text = graphmd::to_string(&c.output);
    assert_eq!(
        text,
        "---\nname: review\nspec_version: \"1.1.0\"\nnodes:\n  - id: draft\n    kind: agent\n    model_key: m\n  - id: search\n    kind: tool\n  - id: lint\n    kind: tool\n  - id: review\n    kind: agent\nedges:\n  - from: draft\n    to: search\n    kind: parallel\n  - from: draft\n    to: lint\n    kind: parallel\n  - from: search\n    to: review\n  - from: lint\n    to: review\n  - from: review\n    to: draft\n    kind: loop\n    bounds: {max_iterations: 25}\nstate:\n  verdict: {tokens: 0}\n  notes: {tokens: 0}\nentry: draft\nexits: [review]\n---\n"
    );
    let r = graphmd::read_and_validate(&text);
    assert!(!trellis_spec::diagnostic::has_errors(&r.diagnostics), "{:?}", r.diagnostics);
    let codes: Vec<&str> = c.losses.iter().map(|l| l.code.as_str()).collect();
    assert_eq!(
        codes,
        [
            "convert/estimates",
            "convert/reducer",
            "convert/estimates",
            "convert/reducer",
            "convert/field",
            "convert/node-type",
            "convert/condition",
            "convert/loop-bound",
            "convert/condition"
        ]
    );
}

#[test]
fn several_start_edges_get_a_fan_out_router() {
    let spec: GraphSpec = serde_json::from_value(serde_json::json!({
        "name": null, "channels": {},
        "nodes": [{"id": "a", "type": "tool", "config": {}}, {"id": "b", "type": "tool", "config": {}}],
        "edges": [{"from": "__start__", "to": "a"}, {"from": "__start__", "to": "b"}]
    }))
    .expect("spec");
    let c = from_graphspec(&spec);
    let (t, d) = graphmd::check(&c.output);
    assert!(!trellis_spec::diagnostic::has_errors(&d), "{d:?}");
    assert_eq!(t.entry.as_deref(), Some("start"));
    assert_eq!(t.exits, ["a", "b"]);
    assert!(c.losses.iter().any(|l| l.code == "convert/entry"));
    // And back: the GraphSpec now starts at the router.
    let back = to_graphspec(&c.output).output;
    assert_eq!(back.edges[0].to, "start");
}

#[test]
fn round_trip_through_graphspec_keeps_topology() {
    let doc = graphmd::read(SEED).doc.expect("doc");
    let spec = to_graphspec(&doc).output;
    let back = from_graphspec(&spec).output;
    let (t, d) = graphmd::check(&back);
    assert!(!trellis_spec::diagnostic::has_errors(&d), "{d:?}");
    assert_eq!(t.entry.as_deref(), Some("route"));
    assert_eq!(t.exits, ["close"]);
    let edges: Vec<(String, String)> = t.edges.iter().map(|e| (e.from.clone(), e.to.clone())).collect();
    assert_eq!(edges, [("route".to_owned(), "answer".to_owned()), ("answer".to_owned(), "close".to_owned())]);
}

#[test]
fn converted_loop_through_an_exit_is_analysed() {
    // review is an exit (it had a guarded edge to __end__) and also loops back to draft.
    let text = "---\nspec_version: \"1.1.0\"\nentry: draft\nexits: [review]\nnodes:\n  - {id: draft, kind: agent, estimates: {input_tokens: 10}}\n  - {id: review, kind: verifier, estimates: {input_tokens: 1}}\nedges:\n  - {from: draft, to: review}\n  - {from: review, to: draft, kind: loop, bounds: {max_iterations: 2}}\n---\n";
    let doc = graphmd::read(text).doc.expect("doc");
    let (t, d) = graphmd::check(&doc);
    let a = graphmd::paths::analyse(&t, &d, None);
    // draft review | draft review draft review | three rounds: 11, 22, 33 tokens.
    let tokens: Vec<u64> = a.paths.iter().map(|p| p.tokens).collect();
    assert_eq!(tokens, [11, 22, 33]);
}

#[test]
fn loss_pointers_can_be_placed_in_the_file() {
    let doc = graphmd::read(SEED).doc.expect("doc");
    let c = to_graphspec(&doc);
    for l in &c.losses {
        let span = doc.span_at(&l.pointer).unwrap_or_else(|| panic!("no place for {}", l.pointer));
        assert!(span.line >= 2, "{} -> {span:?}", l.pointer);
    }
    let s = doc.span_at("/nodes/0/timeout_ms").expect("span");
    assert_eq!((s.line, s.column), (16, 17));
    let s = doc.span_at("/edges/1/to").expect("span");
    assert_eq!((s.line, s.column), (33, 9));
    assert_eq!(doc.span_at(""), None);
}

#[test]
fn a_repeated_or_empty_node_id_is_written_once_or_not_at_all() {
    let spec: GraphSpec = serde_json::from_value(serde_json::json!({
        "nodes": [
            {"id": "a", "type": "agent", "config": {"model_key": "m1"}},
            {"id": "a", "type": "tool", "config": {"model_key": "m2"}},
            {"id": "", "type": "tool", "config": {}},
            {"id": "b", "type": "tool", "config": {}}
        ],
        "edges": [{"from": "__start__", "to": "a"}, {"from": "a", "to": "b"}],
        "channels": {}
    }))
    .expect("spec");
    let c = from_graphspec(&spec);
    let nodes: Vec<(String, String)> = c
        .output
        .node_maps()
        .map(|(_, m)| {
            let field = |k: &str| m.get(k).and_then(|y| y.as_str()).unwrap_or_default().to_owned();
            (field("id"), field("model_key"))
        })
        .collect();
    assert_eq!(nodes, [("a".to_owned(), "m1".to_owned()), ("b".to_owned(), String::new())]);
    assert_eq!(c.output.node_index("b"), Some(1));
}
