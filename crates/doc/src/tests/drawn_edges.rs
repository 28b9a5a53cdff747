//! The labels and reader-only edges the canvas draws, in all three formats, as the view and
//! the edit answers carry them (`crate::drawn_edges`).

use std::sync::Arc;

use serde_json::{json, Value};

use super::{clock, registries};
use crate::delta::Change;
use crate::document::DocId;
use crate::drawn_edges::{EdgeLabel, ExtraEdge, PredicateOperator};
use crate::edit::Edit;
use crate::session::Session;
use crate::view::DocumentView;

fn open(file: &str, text: &str) -> Session {
    Session::from_text(DocId(1), Some(file), text, registries(), Arc::new(clock()))
        .unwrap_or_else(|d| panic!("{file} opens: {d:?}"))
}

fn texts(view: &DocumentView) -> Vec<&str> {
    view.edge_labels.iter().map(|l| l.as_ref().map_or("", |l| l.text.as_str())).collect()
}

fn extra(from: &str, to: &str, label: &str, dashed: bool) -> ExtraEdge {
    ExtraEdge { from: from.into(), to: to.into(), label: label.into(), dashed }
}

#[test]
fn operators_are_the_engines_in_its_order() {
    let names: Vec<&str> = PredicateOperator::ALL.iter().map(|o| o.name()).collect();
    assert_eq!(names, trellis_spec::predicate::OPERATORS);
    for op in PredicateOperator::ALL {
        assert_eq!(serde_json::to_value(op).expect("serializes"), json!(op.name()));
    }
}

#[test]
fn graphspec_guards_in_the_mermaid_style_with_the_operator_the_engine_uses() {
    let edges: Vec<Value> = [
        json!(null),
        json!({"channel": "intent", "eq": "buy"}),
        json!({"channel": "intent", "in": ["refund", 3, true, null]}),
        json!({"channel": "count", "gt": 10}),
        json!({"channel": "count", "lt": 2.5}),
        json!({"channel": "items", "truthy": false}),
        json!({"channel": "c", "truthy": true, "eq": 1}),
        json!({"channel": "c", "in": "abc"}),
        json!({"channel": "x", "neq": {"a": [1, 2]}}),
    ]
    .into_iter()
    .map(|when| {
        if when.is_null() {
            json!({"from": "a", "to": "b"})
        } else {
            json!({"from": "a", "to": "b", "when": when})
        }
    })
    .collect();
    let doc = json!({"nodes": [{"id": "a", "type": "noop"}, {"id": "b", "type": "noop"}], "edges": edges});
    let view = DocumentView::of(&open("g.json", &doc.to_string()));
    assert_eq!(
        texts(&view),
        [
            "",
            "intent == \"buy\"",
            "intent in [\"refund\", 3, true, null]",
            "count > 10",
            "count < 2.5",
            "not truthy(items)",
            "c == 1",
            "c ?",
            "x != {\"a\":[1,2]}",
        ]
    );
    use PredicateOperator::*;
    let ops: Vec<Option<PredicateOperator>> =
        view.edge_labels.iter().map(|l| l.as_ref().and_then(|l| l.operator)).collect();
    assert_eq!(ops, [None, Some(Eq), Some(In), Some(Gt), Some(Lt), Some(Truthy), Some(Eq), None, Some(Neq)]);
    assert!(view.extra_edges.is_empty());
}

#[test]
fn weaveflow_conditions_failures_entry_and_finish() {
    let doc = json!({
        "version": "1.0",
        "name": "w",
        "entry_point": "a",
        "finish_point": "c",
        "nodes": [
            {"id": "a", "type": "supervisor", "config": {}},
            {"id": "b", "type": "supervisor_worker", "config": {}},
            {"id": "c", "type": "supervisor_worker", "config": {}},
        ],
        "edges": [
            {"from": "a", "to": "b", "condition": {"type": "supervisor_route_equals", "config": {"worker_id": "researcher"}}},
            {"from": "a", "to": "c", "condition": {"type": "counter_below", "config": {"nested": {"x": 1}, "limit": 3.0}}},
            {"from": "b", "to": "c", "condition": {"config": {}}},
            {"from": "b", "to": "a", "failure": {"catch_all": true}},
            {"from": "c", "to": "a"},
        ],
    });
    let view = DocumentView::of(&open("w.json", &doc.to_string()));
    assert_eq!(
        texts(&view),
        ["supervisor_route_equals: researcher", "counter_below: 3", "condition", "on failure", ""]
    );
    assert!(view.edge_labels.iter().flatten().all(|l| l.operator.is_none()));
    assert_eq!(view.edge_labels[4], None, "an unconditional edge has no label");
    assert_eq!(view.extra_edges, [extra("__start__", "a", "", false), extra("c", "__end__", "", false)]);
}

const GRAPH_MD: &str = "---
name: triage
spec_version: \"1.1.0\"
entry: route
exits: [close]
nodes:
  - id: route
    kind: judge
    seat: router
    decision_model: typesafe:jev-1.13
    questions: 1
    options_count: 2
    state_tokens: 500
    timeout_ms: 1000
    fallback: close
    fires_on: on_request
    confidence_threshold: 0.8
  - id: answer
    kind: agent
    model_key: openai:gpt-5-mini
  - id: close
    kind: human
edges:
  - from: route
    to: answer
    kind: conditional
    condition: known_issue
  - from: answer
    to: answer
    kind: loop
    condition: not_done
    bounds: {max_iterations: 3}
  - from: answer
    to: close
---
Body.
";

#[test]
fn graphmd_conditions_loop_bounds_entry_exits_and_fallbacks() {
    let view = DocumentView::of(&open("GRAPH.md", GRAPH_MD));
    assert_eq!(texts(&view), ["known_issue", "not_done, loop ≤ 3", ""]);
    assert_eq!(
        view.extra_edges,
        [
            extra("__start__", "route", "", false),
            extra("close", "__end__", "", false),
            extra("route", "close", "fallback", true),
        ]
    );
}

/// The view after applying `delta`'s label edits to `labels` (as the UI does).
fn applied(
    mut labels: Vec<Option<EdgeLabel>>,
    s: &mut Session,
    edit: Value,
) -> (Vec<Option<EdgeLabel>>, Option<Vec<ExtraEdge>>) {
    let edit: Edit = serde_json::from_value(edit).expect("an edit");
    let delta = s.answer(Change::Edit(&edit)).expect("accepted");
    for e in &delta.edge_labels {
        e.apply_to(&mut labels);
    }
    (labels, delta.extra_edges)
}

#[test]
fn edit_answers_carry_the_labels_that_changed() {
    // GraphSpec: the labels follow the edge edits one for one.
    let doc = json!({"nodes": [{"id": "a", "type": "noop"}, {"id": "b", "type": "noop"}], "edges": [{"from": "a", "to": "b"}]});
    let mut s = open("g.json", &doc.to_string());
    let held = DocumentView::of(&s).edge_labels;
    let (held, extra) =
        applied(held, &mut s, json!({"op": "set_when", "index": 0, "when": {"channel": "n", "gt": 2}}));
    assert_eq!(held, [Some(EdgeLabel { text: "n > 2".into(), operator: Some(PredicateOperator::Gt) })]);
    assert_eq!(extra, None);
    assert_eq!(held, DocumentView::of(&s).edge_labels);
    let (held, _) = applied(held, &mut s, json!({"op": "connect", "from": "b", "to": "a"}));
    assert_eq!(held, DocumentView::of(&s).edge_labels);

    // GRAPH.md: a changed condition sends the labels and the extra edges again.
    let mut s = open("GRAPH.md", GRAPH_MD);
    let held = DocumentView::of(&s).edge_labels;
    let (held, extra) = applied(
        held,
        &mut s,
        json!({"op": "set_edge_field", "index": 0, "field": "condition", "value": "escalate"}),
    );
    let view = DocumentView::of(&s);
    assert_eq!(held[0].as_ref().map(|l| l.text.as_str()), Some("escalate"));
    assert_eq!(held, view.edge_labels);
    assert_eq!(extra, Some(view.extra_edges));
}
