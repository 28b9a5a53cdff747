//! The simulator writes the same model as a captured run: a simulation recorded as a run log
//! and read back has the executor's path and states, the state rebuilt from the updates alone
//! (with the graph's reducers) equals the states the log recorded, and two simulations that
//! take different branches are told apart at the right step and channel.

use std::path::Path;

use serde_json::{json, Map, Value};
use trellis_runs::graph::GraphShape;
use trellis_runs::log::LogHeader;
use trellis_runs::model::{Run, StepKind};
use trellis_runs::simulate::{self, Mock};
use trellis_runs::state::StateIndex;
use trellis_runs::{compare, identity, read_text, ReadOptions};
use trellis_spec::GraphSpec;

fn support_text() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/support.json"))
        .expect("support")
}

fn spec() -> GraphSpec {
    trellis_spec::parse_spec(&support_text()).spec.expect("spec")
}

fn object(v: Value) -> Map<String, Value> {
    v.as_object().cloned().unwrap_or_default()
}

/// Simulates with the intent the agent decides on; the run log and the run read from it.
fn simulated(intent: &str) -> (simulate::Simulation, String, Run) {
    let spec = spec();
    let mocks: Vec<Mock> = vec![
        ("agent".into(), object(json!({"intent": intent, "messages": "thinking"}))),
        ("checkout".into(), object(json!({"messages": "order placed"}))),
        ("answer".into(), object(json!({"messages": "see the FAQ"}))),
    ];
    let input = object(json!({"messages": "my order is late"}));
    let graph = simulate::mocked_graph(&spec, &mocks).expect("graph");
    let sim = simulate::run(graph, &spec, input.clone(), 25, &format!("run-{intent}"), "t-sim").expect("sim");
    let header = LogHeader {
        graph_name: spec.name.clone(),
        graph_hash: Some(identity::graph_hash(support_text().as_bytes())),
        graph_spec: serde_json::to_value(&spec).ok(),
        runtime: Some("trellis simulate".into()),
        run_id: Some(format!("run-{intent}")),
        input: Some(input),
        captured_ms: Some(1_785_000_000_000.0),
    };
    let mut clock = 1_785_000_000_000.0;
    let text = simulate::log_text(&sim, &header, &mut || {
        clock += 1.0;
        clock
    });
    let run = read_text(&text, &ReadOptions::default()).expect("reads back").run;
    (sim, text, run)
}

#[test]
fn a_simulated_run_reads_back_as_the_executor_ran_it() {
    let (sim, text, run) = simulated("buy");
    let ran: Vec<String> = sim.result.steps.iter().skip(1).flat_map(|s| s.ran.clone()).collect();
    let path: Vec<&str> = run.path().filter_map(|i| run.steps[i].node.as_deref()).collect();
    assert_eq!(path, ["__start__", "agent", "checkout"]);
    assert_eq!(path[1..], ran.iter().map(String::as_str).collect::<Vec<_>>()[..]);
    assert_eq!(run.steps[0].kind, StepKind::Input);
    assert_eq!(run.status, trellis_runs::RunOutcome::Done);

    let shape = GraphShape::from_spec(&spec());
    let index = StateIndex::build(&run, &shape.reducers);
    let last = index.after(&run, &shape.reducers, run.steps.len() - 1);
    assert!(last.recorded);
    assert_eq!(Value::Object(last.channels), serde_json::to_value(&sim.result.state).expect("state"));

    // Without the recorded states, the reducers rebuild the same ones from the updates.
    let mut bare = run.clone();
    for s in &mut bare.steps {
        s.state = None;
    }
    let rebuilt = StateIndex::build(&bare, &shape.reducers);
    for i in 0..run.steps.len() {
        let got = rebuilt.after(&bare, &shape.reducers, i);
        assert!(!got.recorded);
        if run.steps[i].state.is_some() {
            assert_eq!(got.channels, index.after(&run, &shape.reducers, i).channels, "step {i}");
        }
    }
    assert_eq!(
        rebuilt.after(&bare, &shape.reducers, 2).channels["messages"],
        json!(["my order is late", "thinking", "order placed"])
    );

    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures"));
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    settings.bind(|| insta::assert_snapshot!("simulated-log", text));
}

#[test]
fn two_branches_part_where_the_agent_decided() {
    let (_, _, buy) = simulated("buy");
    let (_, _, ask) = simulated("ask");
    let shape = GraphShape::from_spec(&spec());
    let c = compare::compare(&buy, &ask, &shape);
    let d = c.divergence.expect("they part");
    assert_eq!(d.row, 2, "{}", d.message);
    assert!(d.message.contains("A ran checkout") && d.message.contains("B ran answer"), "{}", d.message);
    let v = c.value.expect("a value differs");
    assert_eq!(v.channel, "intent");
    assert_eq!(v.row, 1, "the agent's write differs first: {}", v.message);
    let ends = |e: &[trellis_runs::overlay::EdgeEnds]| {
        e.iter().map(|e| format!("{}>{}", e.from, e.to)).collect::<Vec<_>>()
    };
    assert_eq!(ends(&c.only_a), ["agent>checkout", "checkout>__end__"]);
    assert_eq!(ends(&c.only_b), ["agent>answer", "answer>__end__"]);
    assert_eq!(ends(&c.both), ["__start__>agent"]);
}

#[test]
fn the_same_graph_and_another_version_are_told_apart() {
    let (_, _, run) = simulated("buy");
    let shape = GraphShape::from_spec(&spec());
    let same = identity::judge(&run, &shape, &[identity::graph_hash(support_text().as_bytes())]);
    assert_eq!(same.verdict, identity::Verdict::Same);
    // An older version without checkout: checkout is a ghost.
    let older = support_text().replace("\"checkout\"", "\"pay\"");
    let old_shape = GraphShape::from_spec(&trellis_spec::parse_spec(&older).spec.expect("spec"));
    let judged = identity::judge(&run, &old_shape, &[identity::graph_hash(older.as_bytes())]);
    assert_eq!(judged.verdict, identity::Verdict::OtherVersion);
    assert_eq!(judged.missing, ["checkout"]);
    let path = trellis_runs::overlay::path(&run, &old_shape);
    assert!(path.nodes.iter().any(|n| n.id == "checkout" && n.ghost));
    // A graph with none of the run's nodes.
    let other = GraphShape::from_spec(
        &trellis_spec::parse_spec(
            r#"{"name":"x","channels":{},"nodes":[{"id":"z","type":"llm"}],"edges":[]}"#,
        )
        .spec
        .expect("spec"),
    );
    let nothing = identity::judge(&run, &other, &[]);
    assert_eq!(nothing.verdict, identity::Verdict::Unmatched);
    assert!(nothing.message.contains("matches nothing"), "{}", nothing.message);
}
