use std::sync::Arc;

use serde_json::{json, Map, Value};

use super::*;
use crate::builder::{when, GraphBuilder};
use crate::graph::{from_spec, Reducer};
use crate::registry::{Built, Registry, Update};

fn update(v: Value) -> Update {
    match v {
        Value::Object(m) => m,
        _ => Map::new(),
    }
}

/// The registry of the reference's spec test: `set_intent` writes its config's intent,
/// `say` appends its config's text to `messages`.
fn support_registry() -> Registry {
    let mut r = Registry::new();
    r.register("set_intent", |config| {
        let intent = config.get("intent").cloned().unwrap_or(Value::Null);
        Built::Node(Arc::new(move |_: &State| Ok(update(json!({"intent": intent.clone()})))))
    });
    r.register("say", |config| {
        let text = config.get("text").cloned().unwrap_or(Value::Null);
        Built::Node(Arc::new(move |_: &State| Ok(update(json!({"messages": [text.clone()]})))))
    });
    r
}

/// A document of the corpus (`corpus/ilmek/cases`), as the reference's spec tests run them.
fn corpus_doc(name: &str) -> crate::model::GraphSpec {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/corpus/ilmek/cases")
        .join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    crate::read::parse_spec(&text).spec.unwrap()
}

fn fired(pairs: &[(&str, &str)]) -> Vec<Fired> {
    pairs.iter().map(|(f, t)| Fired { from: (*f).into(), to: (*t).into() }).collect()
}

fn names(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| (*s).to_owned()).collect()
}

fn writes(v: Value) -> impl Fn(&State) -> Result<Update, String> + Send + Sync + 'static {
    move |_: &State| Ok(update(v.clone()))
}

#[test]
fn the_spec_test_document_routes_by_its_declarative_predicate() {
    let g = from_spec(&corpus_doc("spec.test-DOC.json"), &support_registry()).unwrap().compile().unwrap();
    let r = run(&g, State::new(), DEFAULT_LIMIT);
    assert_eq!(r.status, RunStatus::Done);
    assert_eq!(r.error, None);
    assert_eq!(r.state.get("messages"), Some(&json!(["bought"])));
    assert_eq!(r.state.get("intent"), Some(&json!("buy")));
    assert_eq!(
        r.steps,
        vec![
            StepRecord { step: 0, ran: names(&[START]), fired: fired(&[(START, "classify")]) },
            StepRecord { step: 1, ran: names(&["classify"]), fired: fired(&[("classify", "buy")]) },
            StepRecord { step: 2, ran: names(&["buy"]), fired: fired(&[("buy", END)]) },
        ]
    );
    // Channels print in declaration order, whatever order they were written in.
    assert_eq!(r.state.keys().collect::<Vec<_>>(), vec!["messages", "intent"]);

    let g =
        from_spec(&corpus_doc("spec.test-browsing.json"), &support_registry()).unwrap().compile().unwrap();
    let r = run(&g, State::new(), DEFAULT_LIMIT);
    assert_eq!(r.status, RunStatus::Done);
    assert_eq!(r.state.get("messages"), Some(&json!(["browsed"])));
}

#[test]
fn the_result_serializes_to_the_simulate_shape() {
    let g = from_spec(&corpus_doc("spec.test-DOC.json"), &support_registry()).unwrap().compile().unwrap();
    let v = serde_json::to_value(run(&g, State::new(), DEFAULT_LIMIT)).unwrap();
    assert_eq!(v["status"], "done");
    assert_eq!(
        v["steps"][1],
        json!({"step": 1, "ran": ["classify"], "fired": [{"from": "classify", "to": "buy"}]})
    );
    assert_eq!(v["state"], json!({"messages": ["bought"], "intent": "buy"}));
    assert!(v.get("error").is_none());
}

#[test]
fn every_true_guard_and_static_edge_fires_and_fan_in_runs_a_node_once() {
    let g = GraphBuilder::new()
        .channel("n", Reducer::LastWrite)
        .channel("log", Reducer::Append)
        .node("a", writes(json!({"n": 5})))
        .node("b", writes(json!({"log": "b"})))
        .node("c", writes(json!({"log": "c"})))
        .node("d", writes(json!({"log": "d"})))
        .edge(START, "a")
        .edge_when("a", "b", when(json!({"channel": "n", "gt": 1})))
        .edge_when("a", "c", when(json!({"channel": "n", "lt": 10})))
        .edge_when("a", "d", when(json!({"channel": "n", "gt": 10})))
        .edge("b", "d")
        .edge("c", "d")
        .edge("c", "d")
        .edge("d", END)
        .compile()
        .unwrap();
    let r = run(&g, State::new(), DEFAULT_LIMIT);
    assert_eq!(r.status, RunStatus::Done);
    assert_eq!(r.steps[1].fired, fired(&[("a", "b"), ("a", "c")]));
    assert_eq!(r.steps[2].ran, names(&["b", "c"]));
    assert_eq!(r.steps[2].fired, fired(&[("b", "d"), ("c", "d"), ("c", "d")]));
    assert_eq!(r.steps[3].ran, names(&["d"]));
    assert_eq!(r.state.get("log"), Some(&json!(["b", "c", "d"])));
    assert_eq!(r.steps.len(), 4);
}

#[test]
fn updates_fold_in_task_order_and_siblings_read_the_state_before_the_step() {
    // `late` is declared before `early` but reached second: task order is declaration order.
    let g = GraphBuilder::new()
        .channel("v", Reducer::LastWrite)
        .channel("seen", Reducer::Append)
        .channel("m", Reducer::Merge)
        .node("late", |s: &State| {
            Ok(update(json!({"v": "late", "seen": s.get("v").cloned().unwrap_or(Value::Null), "m": {"a": 1, "b": 1}})))
        })
        .node("early", |s: &State| {
            Ok(update(json!({"v": "early", "seen": s.get("v").cloned().unwrap_or(Value::Null), "m": {"b": 2}})))
        })
        .node("root", writes(json!({"v": "root"})))
        .edge(START, "root")
        .edge("root", "early")
        .edge("root", "late")
        .compile()
        .unwrap();
    let r = run(&g, State::new(), DEFAULT_LIMIT);
    assert_eq!(r.steps[2].ran, names(&["late", "early"]));
    assert_eq!(r.state.get("v"), Some(&json!("early")));
    assert_eq!(r.state.get("seen"), Some(&json!(["root", "root"])));
    assert_eq!(r.state.get("m"), Some(&json!({"a": 1, "b": 2})));
}

#[test]
fn the_input_is_folded_by_the_reducers_and_guards_from_start_see_it() {
    let g = GraphBuilder::new()
        .channel("log", Reducer::Append)
        .channel("go", Reducer::LastWrite)
        .node("a", writes(json!({"log": "a"})))
        .node("b", writes(json!({"log": "b"})))
        .edge_when(START, "a", when(json!({"channel": "go", "eq": "a"})))
        .edge_when(START, "b", when(json!({"channel": "go", "eq": "b"})))
        .compile()
        .unwrap();
    let input: State = [("log".to_owned(), json!("in")), ("go".to_owned(), json!("b"))].into_iter().collect();
    let r = run(&g, input, DEFAULT_LIMIT);
    assert_eq!(r.steps[0].fired, fired(&[(START, "b")]));
    assert_eq!(r.state.get("log"), Some(&json!(["in", "b"])));
}

#[test]
fn writing_an_undeclared_channel_is_an_error_and_nothing_of_the_step_is_applied() {
    let g = GraphBuilder::new()
        .channel("ok", Reducer::LastWrite)
        .node("a", writes(json!({"ok": 1})))
        .node("b", writes(json!({"ghost": 1})))
        .edge(START, "a")
        .edge(START, "b")
        .compile()
        .unwrap();
    let r = run(&g, State::new(), DEFAULT_LIMIT);
    assert_eq!(r.status, RunStatus::Error);
    let e = r.error.unwrap();
    assert_eq!(e.code, codes::UNDECLARED_CHANNEL);
    assert_eq!(e.message, "undeclared channel \"ghost\"");
    assert_eq!(e.element, Some(crate::diagnostic::Element::Node { id: "b".into() }));
    assert!(r.state.is_empty());
    assert_eq!(r.steps.last().map(|s| s.ran.clone()), Some(names(&["a", "b"])));

    let input: State = [("nope".to_owned(), json!(1))].into_iter().collect();
    let r = run(&g, input, DEFAULT_LIMIT);
    assert_eq!(r.status, RunStatus::Error);
    assert_eq!(r.error.unwrap().message, "undeclared channel \"nope\"");
    assert!(r.steps.is_empty());
}

#[test]
fn routers_route_dedupe_with_edges_and_refuse_unknown_targets() {
    let g = GraphBuilder::new()
        .node("a", writes(json!({})))
        .node("b", writes(json!({})))
        .edge(START, "a")
        .edge("a", "b")
        .router("a", |_| vec!["b".into(), END.into(), "b".into()], None)
        .compile()
        .unwrap();
    let r = run(&g, State::new(), DEFAULT_LIMIT);
    assert_eq!(r.status, RunStatus::Done);
    assert_eq!(r.steps[1].fired, fired(&[("a", "b"), ("a", "b"), ("a", END), ("a", "b")]));
    assert_eq!(r.steps[2].ran, names(&["b"]));

    let g = GraphBuilder::new()
        .node("a", writes(json!({})))
        .node("b", writes(json!({})))
        .edge(START, "a")
        .router("a", |_| vec!["b".into(), "nowhere".into()], None)
        .compile()
        .unwrap();
    let r = run(&g, State::new(), DEFAULT_LIMIT);
    assert_eq!(r.status, RunStatus::Error);
    let e = r.error.unwrap();
    assert_eq!(e.code, codes::UNKNOWN_TARGET);
    assert_eq!(
        e.message,
        "routing from \"a\" produced \"nowhere\", which is not a node in this graph. Known nodes: [\"a\",\"b\"]"
    );
    // START is not a node either.
    let g = GraphBuilder::new()
        .node("a", writes(json!({})))
        .edge(START, "a")
        .router("a", |_| vec![START.into()], None)
        .compile()
        .unwrap();
    assert_eq!(run(&g, State::new(), DEFAULT_LIMIT).status, RunStatus::Error);
}

#[test]
fn a_cycle_stops_at_the_step_limit() {
    let g = GraphBuilder::new()
        .channel(
            "n",
            Reducer::Custom(Arc::new(|cur, inc| {
                json!(cur.as_i64().unwrap_or(0) + inc.as_i64().unwrap_or(0))
            })),
        )
        .node("spin", writes(json!({"n": 1})))
        .edge(START, "spin")
        .edge("spin", "spin")
        .compile()
        .unwrap();
    let r = run(&g, State::new(), 3);
    assert_eq!(r.status, RunStatus::StepLimit);
    assert_eq!(r.steps.len(), 4);
    assert_eq!(r.state.get("n"), Some(&json!(3)));
    let e = r.error.unwrap();
    assert_eq!(e.code, codes::STEP_LIMIT);
    assert!(e.message.starts_with("exceeded 3 supersteps (still scheduling [\"spin\"])"), "{}", e.message);

    let r = run(&g, State::new(), 0);
    assert_eq!(r.status, RunStatus::StepLimit);
    assert_eq!(r.steps.len(), 1);
    assert!(r.state.is_empty());

    let r = run(&g, State::new(), DEFAULT_LIMIT);
    assert_eq!(r.state.get("n"), Some(&json!(25)));

    // A guard that lets the cycle end: exactly the steps it needs, limit or not.
    let g = GraphBuilder::new()
        .channel("n", Reducer::Append)
        .node("spin", writes(json!({"n": 1})))
        .edge(START, "spin")
        .edge_guard(
            "spin",
            "spin",
            |s| s.get("n").and_then(Value::as_array).is_some_and(|a| a.len() < 3),
            None,
        )
        .compile()
        .unwrap();
    let r = run(&g, State::new(), 3);
    assert_eq!(r.status, RunStatus::Done);
    assert_eq!(r.state.get("n"), Some(&json!([1, 1, 1])));
}

#[test]
fn a_failing_node_ends_the_run_with_its_message() {
    let g = GraphBuilder::new()
        .node("boom", |_| Err("model unavailable".to_owned()))
        .edge(START, "boom")
        .compile()
        .unwrap();
    let r = run(&g, State::new(), DEFAULT_LIMIT);
    assert_eq!(r.status, RunStatus::Error);
    let e = r.error.unwrap();
    assert_eq!(e.code, codes::NODE_FAILED);
    assert_eq!(e.message, "node \"boom\" failed: model unavailable");
    assert_eq!(r.steps.last().map(|s| s.ran.clone()), Some(names(&["boom"])));
}

#[test]
fn runs_are_deterministic() {
    let build = || {
        let mut b = GraphBuilder::new().channel("log", Reducer::Append);
        for i in 0..40 {
            let id = format!("n{i}");
            b = b.node(id.clone(), writes(json!({"log": id}))).edge(START, id.clone());
            b = b.edge(id, format!("n{}", (i * 7 + 3) % 40));
        }
        b.compile().unwrap()
    };
    let first = serde_json::to_string(&run(&build(), State::new(), 5)).unwrap();
    for _ in 0..5 {
        assert_eq!(serde_json::to_string(&run(&build(), State::new(), 5)).unwrap(), first);
    }
}
