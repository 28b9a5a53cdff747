use serde_json::json;
use trellis_spec::Severity;

use super::*;
use crate::edit::{Edit, Position};
use crate::refusal::codes;

fn edit(v: serde_json::Value) -> Edit {
    serde_json::from_value(v).expect("edit")
}

fn refused(s: &mut Session, v: serde_json::Value) -> String {
    let before = s.text();
    let d = s.apply(&edit(v.clone())).expect_err(&format!("{v} must be refused"));
    assert_eq!(s.text(), before, "a refused edit changes nothing");
    assert!(d.is_error());
    d.code
}

#[test]
fn example_is_valid_with_the_builtin_registry() {
    let c = clock();
    let s = example_session(&c);
    let problems: Vec<String> = s
        .diagnostics()
        .iter()
        .filter(|d| d.severity != Severity::Info)
        .map(|d| format!("{}: {}", d.code, d.message))
        .collect();
    assert!(problems.is_empty(), "{problems:#?}");
    assert_eq!(s.text(), EXAMPLE, "the example is in canonical form");
    assert!(!s.is_dirty());
    assert!(s.layout_missing());
}

#[test]
fn add_node_uses_defaults_and_fresh_ids() {
    let c = clock();
    let mut s = example_session(&c);
    let out =
        s.apply(&edit(json!({"op": "add_node", "type": "llm", "position": {"x": 10, "y": 20}}))).expect("ok");
    assert_eq!(out.changed.nodes, vec!["llm"]);
    assert_eq!(out.changed.positions, vec!["llm"]);
    assert!(out.dirty && out.can_undo && !out.can_redo);
    let out =
        s.apply(&edit(json!({"op": "add_node", "type": "llm", "position": {"x": 0, "y": 0}}))).expect("ok");
    assert_eq!(out.changed.nodes, vec!["llm_2"]);
    let spec = s.spec().expect("spec");
    let n = spec.nodes.iter().find(|n| n.id == "llm").expect("added");
    assert_eq!(n.config.get("model"), Some(&json!("claude-opus-4-8")), "registry defaults applied");
    assert_eq!(s.layout().positions["llm"], Position { x: 10.0, y: 20.0 });
    assert_eq!(
        refused(&mut s, json!({"op": "add_node", "id": "llm", "type": "llm", "position": {"x": 0, "y": 0}})),
        codes::NODE_EXISTS
    );
    assert_eq!(
        refused(
            &mut s,
            json!({"op": "add_node", "id": "__end__", "type": "llm", "position": {"x": 0, "y": 0}})
        ),
        codes::RESERVED_ID
    );
    assert_eq!(
        refused(&mut s, json!({"op": "add_node", "id": "", "type": "llm", "position": {"x": 0, "y": 0}})),
        codes::EMPTY_NAME
    );
}

/// A node dropped on an empty document starts clean: the channel its defaults name is declared
/// and the start connected to it, in the one undo step of the add, each said in a note.
#[test]
fn a_fresh_node_on_an_empty_document_starts_clean_in_one_step() {
    let c = clock();
    let mut s = Session::new(
        DocId(1),
        crate::document::Document::GraphSpec(trellis_spec::GraphSpec::default()),
        registries(),
        std::sync::Arc::new(c.clone()),
    );
    assert_eq!(errors(s.diagnostics()).len(), 1, "an empty graph has no entry edge");
    let out = s
        .apply(&edit(json!({"op": "add_node", "type": "llm", "position": {"x": 10, "y": 20}})))
        .expect("added");
    assert!(s.diagnostics().is_empty(), "no problem at all: {:#?}", s.diagnostics());
    let spec = s.spec().expect("spec");
    assert_eq!(spec.channels.keys().collect::<Vec<_>>(), ["messages"]);
    assert_eq!(spec.edges.len(), 1);
    assert_eq!((spec.edges[0].from.as_str(), spec.edges[0].to.as_str()), ("__start__", "llm"));
    let notes: Vec<&str> = out.notes.iter().map(|d| d.code.as_str()).collect();
    assert_eq!(notes, [codes::DECLARED_CHANNELS, codes::CONNECTED_START], "{:#?}", out.notes);
    assert!(
        out.notes[0].message.contains("\"messages\" (named by messages_channel)"),
        "{}",
        out.notes[0].message
    );
    // One undo step takes all of it back.
    s.undo();
    let spec = s.spec().expect("spec");
    assert!(spec.nodes.is_empty() && spec.edges.is_empty() && spec.channels.is_empty());
    assert!(!s.can_undo());

    // A second node: nothing more to declare (the channel is there), no second start edge.
    s.redo();
    let out = s
        .apply(&edit(json!({"op": "add_node", "type": "llm", "position": {"x": 300, "y": 20}})))
        .expect("added");
    assert!(out.notes.is_empty(), "{:#?}", out.notes);
    let spec = s.spec().expect("spec");
    assert_eq!((spec.channels.len(), spec.edges.len()), (1, 1));
    // A config given by the caller is read the same way (the palette sends the defaults).
    let out = s
        .apply(&edit(json!({"op": "add_node", "type": "tool_call", "config": {"tool": "search", "output_channel": "hits", "arguments_channel": "{{args}}"}, "position": {"x": 0, "y": 200}})))
        .expect("added");
    assert_eq!(out.notes.len(), 1);
    assert!(s.spec().expect("spec").channels.contains_key("hits"));
    assert!(!s.spec().expect("spec").channels.contains_key("{{args}}"), "a placeholder is not a channel");
}

#[test]
fn connections_that_cannot_be_stored_are_refused() {
    let c = clock();
    let mut s = example_session(&c);
    assert_eq!(
        refused(&mut s, json!({"op": "connect", "from": "answer", "to": "__start__"})),
        codes::EDGE_INTO_START
    );
    assert_eq!(
        refused(&mut s, json!({"op": "connect", "from": "__end__", "to": "answer"})),
        codes::EDGE_OUT_OF_END
    );
    assert_eq!(
        refused(&mut s, json!({"op": "connect", "from": "answer", "to": "reply"})),
        codes::DUPLICATE_EDGE
    );
    // Start straight to End runs nothing; with a condition it is an early exit, and stored.
    assert_eq!(
        refused(&mut s, json!({"op": "connect", "from": "__start__", "to": "__end__"})),
        codes::EDGE_START_TO_END
    );
    s.apply(
        &serde_json::from_value(
            json!({"op": "connect", "from": "__start__", "to": "__end__", "when": {"channel": "c", "truthy": false}}),
        )
        .expect("edit"),
    )
    .expect("a conditional exit is stored");
    assert_eq!(
        refused(&mut s, json!({"op": "connect", "from": "answer", "to": "nowhere"})),
        codes::UNKNOWN_NODE
    );
    assert_eq!(refused(&mut s, json!({"op": "disconnect", "index": 99})), codes::UNKNOWN_EDGE);
    assert_eq!(
        refused(&mut s, json!({"op": "rename_node", "from": "answer", "to": "__start__"})),
        codes::RESERVED_ID
    );
    assert_eq!(
        refused(&mut s, json!({"op": "rename_node", "from": "answer", "to": "reply"})),
        codes::NODE_EXISTS
    );
    assert_eq!(
        refused(&mut s, json!({"op": "remove_nodes", "ids": ["answer", "ghost"]})),
        codes::UNKNOWN_NODE
    );
    assert_eq!(
        refused(&mut s, json!({"op": "add_channel", "name": "intent", "reducer": "append"})),
        codes::CHANNEL_EXISTS
    );
    assert_eq!(
        refused(&mut s, json!({"op": "add_channel", "name": "x", "reducer": "sum"})),
        codes::UNKNOWN_REDUCER
    );
    assert_eq!(
        refused(&mut s, json!({"op": "set_config_field", "id": "answer", "path": "/model/x", "value": 1})),
        codes::BAD_CONFIG_PATH
    );
    assert_eq!(
        refused(&mut s, json!({"op": "move_nodes", "positions": {"ghost": {"x": 0, "y": 0}}})),
        codes::UNKNOWN_NODE
    );
    // A guarded duplicate with another condition is a different edge.
    s.apply(&edit(json!({"op": "connect", "from": "classify", "to": "answer", "when": {"channel": "intent", "eq": "other"}})))
        .expect("another guard is fine");
    assert!(!s.can_redo());
}

#[test]
fn removing_a_channel_read_by_predicates_names_the_edges() {
    let c = clock();
    let mut s = example_session(&c);
    let d = s.apply(&edit(json!({"op": "remove_channel", "name": "intent"}))).expect_err("refused");
    assert_eq!(d.code, codes::CHANNEL_IN_USE);
    assert!(d.message.contains("\"classify\" -> \"answer\""), "{}", d.message);
    assert!(d.message.contains("\"classify\" -> \"open_ticket\""), "{}", d.message);
    // A channel named by a config field (`x-trellis-channel`) is in use too.
    let d = s.apply(&edit(json!({"op": "remove_channel", "name": "ticket"}))).expect_err("named by a config");
    assert_eq!(d.code, codes::CHANNEL_IN_USE);
    assert!(d.message.contains("\"open_ticket\" (output_channel)"), "{}", d.message);
    s.apply(&edit(json!({"op": "add_channel", "name": "spare", "reducer": "last_write"}))).expect("added");
    s.apply(&edit(json!({"op": "remove_channel", "name": "spare"}))).expect("unused channel goes");
    assert!(!s.spec().expect("spec").channels.contains_key("spare"));
}

#[test]
fn renaming_a_channel_carries_through_to_predicates() {
    let c = clock();
    let mut s = example_session(&c);
    let out = s.apply(&edit(json!({"op": "rename_channel", "from": "intent", "to": "topic"}))).expect("ok");
    assert!(out.changed.channels && out.changed.edges);
    let spec = s.spec().expect("spec");
    let keys: Vec<&str> = spec.channels.keys().map(String::as_str).collect();
    assert_eq!(keys, ["messages", "topic", "order", "approved", "ticket", "answer"], "place kept");
    let guarded: Vec<&str> = spec.edges.iter().filter_map(|e| e.when.as_ref()?.channel()).collect();
    assert_eq!(guarded, ["topic", "topic", "topic"]);
    s.undo();
    assert_eq!(s.text(), EXAMPLE);
}

#[test]
fn renaming_a_node_rewrites_edges_and_layout() {
    let c = clock();
    let mut s = example_session(&c);
    s.apply(&edit(json!({"op": "move_nodes", "positions": {"answer": {"x": 5, "y": 6}}}))).expect("move");
    let out = s.apply(&edit(json!({"op": "rename_node", "from": "answer", "to": "respond"}))).expect("ok");
    assert_eq!(out.changed.removed_nodes, vec!["answer"]);
    assert_eq!(out.changed.nodes, vec!["respond"]);
    let spec = s.spec().expect("spec");
    assert!(spec.edges.iter().all(|e| e.from != "answer" && e.to != "answer"));
    assert_eq!(spec.edges.iter().filter(|e| e.to == "respond").count(), 3);
    assert_eq!(s.layout().positions.get("respond"), Some(&Position { x: 5.0, y: 6.0 }));
    assert!(!s.layout().positions.contains_key("answer"));
    let out = s.undo();
    assert_eq!(out.changed.nodes, vec!["answer"]);
    assert_eq!(out.changed.removed_nodes, vec!["respond"]);
    assert_eq!(s.layout().positions.get("answer"), Some(&Position { x: 5.0, y: 6.0 }));
}

#[test]
fn remove_nodes_takes_their_edges_and_undo_restores_order() {
    let c = clock();
    let mut s = example_session(&c);
    s.apply(&edit(json!({"op": "remove_nodes", "ids": ["classify", "open_ticket"]}))).expect("ok");
    let spec = s.spec().expect("spec");
    assert_eq!(spec.nodes.len(), 4);
    assert!(spec.edges.iter().all(|e| e.from != "classify" && e.to != "classify" && e.from != "open_ticket"));
    s.undo();
    assert_eq!(s.text(), EXAMPLE);
    assert!(!s.is_dirty(), "undo back to the saved state is clean");
    s.redo();
    assert!(s.is_dirty());
    assert_eq!(s.spec().expect("spec").nodes.len(), 4);
}

#[test]
fn typing_into_one_field_is_one_undo_step() {
    let c = clock();
    let mut s = example_session(&c);
    for (i, text) in ["H", "He", "Hel", "Hell", "Hello"].iter().enumerate() {
        s.apply(&edit(
            json!({"op": "set_config_field", "id": "answer", "path": "/system_prompt", "value": text}),
        ))
        .expect("ok");
        c.advance(if i == 2 { 900 } else { 300 });
    }
    // Another field starts a new step, and so does a pause longer than a second.
    s.apply(&edit(json!({"op": "set_config_field", "id": "answer", "path": "/temperature", "value": 1})))
        .expect("ok");
    c.advance(1500);
    s.apply(&edit(json!({"op": "set_config_field", "id": "answer", "path": "/temperature", "value": 2})))
        .expect("ok");
    assert_eq!(s.history.undo.len(), 3);
    s.undo();
    s.undo();
    let prompt = s
        .spec()
        .and_then(|sp| sp.nodes.iter().find(|n| n.id == "answer"))
        .and_then(|n| n.config.get("system_prompt"))
        .cloned();
    assert_eq!(prompt, Some(json!("Hello")));
    s.undo();
    assert_eq!(s.text(), EXAMPLE);
    assert!(!s.can_undo());
}

#[test]
fn coalescing_never_crosses_a_save_point() {
    let c = clock();
    let (fs, mut s) = opened_example(&c);
    s.apply(&edit(json!({"op": "set_config_field", "id": "answer", "path": "/model", "value": "a"})))
        .expect("ok");
    crate::save::save(&fs, &mut s).expect("saved");
    s.apply(&edit(json!({"op": "set_config_field", "id": "answer", "path": "/model", "value": "ab"})))
        .expect("ok");
    assert!(s.is_dirty());
    s.undo();
    assert!(!s.is_dirty(), "undo lands exactly on the saved state");
}

#[test]
fn twenty_edits_and_twenty_undos_give_the_original_text() {
    let c = clock();
    let mut s = example_session(&c);
    let edits = vec![
        json!({"op": "add_node", "type": "wait", "position": {"x": 1, "y": 1}}),
        json!({"op": "add_node", "id": "notify", "type": "http", "config": {"url": "https://x.example/n", "method": "POST"}, "position": {"x": 2, "y": 2}}),
        json!({"op": "connect", "from": "reply", "to": "notify"}),
        json!({"op": "connect", "from": "notify", "to": "__end__", "when": {"channel": "approved", "truthy": true}}),
        json!({"op": "set_config_field", "id": "notify", "path": "/headers/X-Trace", "value": "1"}),
        json!({"op": "set_config", "id": "wait", "config": {"duration_ms": 5}}),
        json!({"op": "rename_node", "from": "wait", "to": "pause"}),
        json!({"op": "set_node_type", "id": "pause", "type": "noop"}),
        json!({"op": "disconnect", "index": 0}),
        json!({"op": "set_when", "index": 0, "when": {"channel": "intent", "neq": "refund"}}),
        json!({"op": "add_channel", "name": "trace", "reducer": "append"}),
        json!({"op": "rename_channel", "from": "approved", "to": "ok"}),
        json!({"op": "set_reducer", "name": "trace", "reducer": "merge"}),
        json!({"op": "remove_channel", "name": "trace"}),
        json!({"op": "rename_graph", "name": "renamed"}),
        json!({"op": "move_nodes", "positions": {"classify": {"x": 9, "y": 9}}}),
        json!({"op": "paste", "fragment": {"nodes": [{"id": "answer", "type": "llm", "config": {}}, {"id": "x", "type": "noop", "config": {}}], "edges": [{"from": "answer", "to": "x"}, {"from": "x", "to": "ghost"}]}, "at": {"x": 100, "y": 100}}),
        json!({"op": "apply_layout", "positions": {"classify": {"x": 0, "y": 0}, "answer": {"x": 0, "y": 100}, "__start__": {"x": 0, "y": -100}}}),
        json!({"op": "remove_nodes", "ids": ["answer", "x"]}),
        json!({"op": "rename_graph", "name": null}),
    ];
    for e in &edits {
        let out = s.apply(&edit(e.clone())).unwrap_or_else(|d| panic!("{e}: {d:?}"));
        assert!(!out.changed.is_empty(), "{e} changed nothing");
        c.advance(2000);
    }
    assert_eq!(s.history.undo.len(), 20);
    for _ in 0..20 {
        s.undo();
    }
    assert_eq!(s.text(), EXAMPLE);
    assert!(s.layout().positions.is_empty());
    assert!(!s.is_dirty());
    for _ in 0..20 {
        s.redo();
    }
    assert!(s.is_dirty());
    assert_eq!(s.spec().expect("spec").name, None);
}

#[test]
fn paste_renames_clashes_and_keeps_only_edges_it_can() {
    let c = clock();
    let mut s = example_session(&c);
    let fragment = r#"{"nodes": [{"id": "answer", "type": "llm", "config": {"model": "m"}}, {"id": "extra", "type": "noop"}],
        "edges": [{"from": "answer", "to": "extra"}, {"from": "classify", "to": "answer"}, {"from": "extra", "to": "gone"}, {"from": "extra", "to": "__start__"}],
        "channels": {"intent": {"reducer": "append"}, "notes": {"reducer": "append"}},
        "positions": {"answer": {"x": 500, "y": 500}, "extra": {"x": 600, "y": 550}}}"#;
    let out = s
        .apply(&Edit::Paste { fragment: json!(fragment), at: Some(Position { x: 0.0, y: 0.0 }) })
        .expect("ok");
    assert_eq!(out.changed.nodes, vec!["answer_2", "extra"]);
    assert!(out
        .diagnostics
        .iter()
        .any(|d| d.code == codes::PASTE_RENAMED && d.message.contains("\"answer\" -> \"answer_2\"")));
    assert!(out
        .diagnostics
        .iter()
        .any(|d| d.code == codes::PASTE_DROPPED_EDGES && d.message.contains("gone")));
    let spec = s.spec().expect("spec");
    let tail: Vec<(&str, &str)> = spec.edges[9..].iter().map(|e| (e.from.as_str(), e.to.as_str())).collect();
    assert_eq!(tail, [("answer_2", "extra"), ("classify", "answer_2")]);
    assert_eq!(
        spec.channels["intent"].reducer,
        trellis_spec::ReducerName::LastWrite,
        "the document's reducer wins"
    );
    assert!(spec.channels.contains_key("notes"));
    assert_eq!(s.layout().positions["answer_2"], Position { x: 0.0, y: 0.0 });
    assert_eq!(s.layout().positions["extra"], Position { x: 100.0, y: 50.0 });
    assert_eq!(s.history.undo.len(), 1, "a paste is one step");
    s.undo();
    assert_eq!(s.text(), EXAMPLE);
    assert!(s.layout().positions.is_empty());
    let d = s.apply(&Edit::Paste { fragment: json!("{not json"), at: None }).expect_err("bad");
    assert_eq!(d.code, codes::BAD_FRAGMENT);
}

#[test]
fn automatic_layout_is_neither_a_step_nor_dirty() {
    let c = clock();
    let mut s = example_session(&c);
    let out = s
        .apply(&edit(
            json!({"op": "apply_layout", "automatic": true, "positions": {"classify": {"x": 1, "y": 2}}}),
        ))
        .expect("ok");
    assert!(!out.dirty && !out.can_undo);
    assert!(s.layout_missing(), "the next save still writes the layout file");
    s.apply(&edit(json!({"op": "apply_layout", "positions": {"classify": {"x": 3, "y": 2}}}))).expect("ok");
    assert!(s.is_dirty() && s.can_undo());
}

#[test]
fn edits_report_new_diagnostics() {
    let c = clock();
    let mut s = example_session(&c);
    let out = s
        .apply(&edit(json!({"op": "set_node_type", "id": "answer", "type": "no_such_type"})))
        .expect("stored");
    assert!(
        out.diagnostics.iter().any(|d| d.is_error() && d.message.contains("no_such_type")),
        "{:#?}",
        out.diagnostics
    );
    let out = s.undo();
    assert!(errors(&out.diagnostics).is_empty());
}

#[test]
fn revalidation_of_ten_thousand_nodes_is_measured() {
    // Run on a thread with a big stack: on 2 MiB the validator's analysis (petgraph's
    // recursive tarjan_scc in trellis-spec) overflows on a 10,000-node chain. Reported to the
    // spec owner; this test measures the session's own cost.
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(measure_ten_thousand)
        .expect("thread")
        .join()
        .expect("measure");
}

fn measure_ten_thousand() {
    // The target of issue 8 is 50 ms per revalidation in a release build; this debug-build
    // test only guards against an accidental quadratic blow-up and prints the time.
    let mut spec = trellis_spec::GraphSpec::default();
    spec.channels
        .insert("v".into(), trellis_spec::ChannelSpec { reducer: trellis_spec::ReducerName::LastWrite });
    let mut prev = trellis_spec::START.to_owned();
    for i in 0..10_000 {
        let id = format!("n{i}");
        let config = json!({"channel": "v", "value": i}).as_object().cloned().unwrap_or_default();
        spec.nodes.push(trellis_spec::NodeSpec {
            id: id.clone().into(),
            type_name: Some("set_value".into()),
            config: config.into(),
        });
        spec.edges.push(trellis_spec::EdgeSpec { from: prev.into(), to: id.clone().into(), when: None });
        prev = id;
    }
    let c = clock();
    let mut s =
        Session::new(DocId(9), crate::document::Document::GraphSpec(spec), registries(), Arc::new(c.clone()));
    let start = std::time::Instant::now();
    let out = s
        .apply(&edit(json!({"op": "set_config_field", "id": "n5000", "path": "/value", "value": "x"})))
        .expect("ok");
    let elapsed = start.elapsed();
    println!("edit + revalidation of 10,000 nodes: {elapsed:?}");
    assert!(errors(&out.diagnostics).is_empty(), "{:?}", errors(&out.diagnostics).first());
    assert!(elapsed < std::time::Duration::from_secs(5), "{elapsed:?}");
}
