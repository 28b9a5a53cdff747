//! The Rust API of the model: the builder, `compile`, `to_spec` refusals (exactly the four
//! constructs a document cannot hold, each named), `spec_when` twins, reducer semantics.

use std::sync::Arc;

use serde_json::{json, Map, Value};
use trellis_spec::builder::when;
use trellis_spec::graph::codes;
use trellis_spec::{
    from_spec, parse_spec, to_spec, Built, GraphBuilder, GraphSpec, Reducer, Registry, State, END, START,
};

fn noop() -> impl Fn(&State) -> Result<Map<String, Value>, String> + Send + Sync + 'static {
    |_: &State| Ok(Map::new())
}

fn typed(b: GraphBuilder, id: &str) -> GraphBuilder {
    b.typed_node(id, "noop", Map::new(), Arc::new(noop()))
}

#[test]
fn to_spec_refuses_exactly_the_four_constructs_and_names_each() {
    let b = GraphBuilder::named("code")
        .channel("intent", Reducer::LastWrite)
        .custom_channel("total", |a: &Value, b: &Value| {
            json!(a.as_f64().unwrap_or(0.0) + b.as_f64().unwrap_or(0.0))
        })
        .node("closure", noop());
    let b = typed(b, "typed")
        .edge(START, "closure")
        .edge_guard("closure", "typed", |s: &State| s.contains_key("intent"), None)
        .router("typed", |_: &State| vec![END.to_owned()], Some(vec![END.to_owned()]));
    let compiled = b.compile().expect("a code graph compiles");
    let errs = to_spec(&compiled).expect_err("must refuse");
    let got: Vec<(&str, &str)> = errs.iter().map(|d| (d.code.as_str(), d.message.as_str())).collect();
    assert_eq!(got.len(), 4, "{got:#?}");
    assert_eq!(got[0].0, codes::CUSTOM_REDUCER);
    assert!(got[0]
        .1
        .starts_with("channel \"total\" uses a custom reducer function, which cannot be serialized."));
    assert_eq!(got[1].0, codes::UNTYPED_NODE);
    assert!(got[1].1.starts_with("node \"closure\" has no type, so it cannot be serialized — "));
    assert_eq!(got[2].0, codes::CODE_GUARD);
    assert_eq!(
        got[2].1,
        "the guard on the edge from \"closure\" is a hand-written function with no declarative equivalent, so it \
         cannot be serialized. Build the edge from a spec, or pass specWhen alongside it."
    );
    assert_eq!(got[3].0, codes::CODE_ROUTER);
    assert!(got[3].1.starts_with(
        "the router on \"typed\" cannot be serialized — it is code, and a stored graph must not carry executable \
         text (MODEL.md §9)."
    ));
    assert_eq!(errs[3].pointer, "/nodes/1");
    // The consuming form refuses the same way and gives the graph back.
    let (back, errs2) = compiled.into_spec().expect_err("must refuse");
    assert_eq!(errs2, errs);
    assert_eq!(back.graph().nodes.len(), 2);
}

#[test]
fn a_code_guard_with_a_twin_serializes_as_the_twin() {
    let twin = when(json!({"channel": "intent", "eq": "buy", "note": "kept"}));
    let b = GraphBuilder::new().channel("intent", Reducer::LastWrite);
    let b = typed(typed(b, "a"), "b").edge(START, "a").edge_guard(
        "a",
        "b",
        |s: &State| s.get("intent") == Some(&json!("buy")),
        Some(twin.clone()),
    );
    let compiled = b.compile().expect("compiles");
    let spec = to_spec(&compiled).expect("serializes");
    assert_eq!(spec.name, None);
    assert_eq!(spec.edges[1].when.as_ref(), Some(&twin));
    let text = trellis_spec::to_canonical_string(&spec);
    assert!(text.starts_with("{\n  \"name\": null,"));
    assert!(text.contains("\"note\": \"kept\""));
}

#[test]
fn compile_collects_every_problem() {
    let b = GraphBuilder::new().channel("c", Reducer::LastWrite).channel("c", Reducer::Append);
    let b = typed(typed(typed(b, "a"), "a"), "__end__").edge("a", "ghost").edge("nowhere", "a").edge_when(
        "a",
        "a",
        when(json!({"channel": "undeclared", "eq": 1})),
    );
    let errs = b.compile().expect_err("must fail");
    let codes: Vec<&str> = errs.iter().map(|d| d.code.as_str()).collect();
    assert_eq!(
        codes,
        [
            "spec/duplicate-channel",
            "spec/duplicate-node",
            "spec/reserved-node-id",
            "spec/undeclared-channel",
            "spec/unknown-edge-target",
            "spec/unknown-edge-source",
            "spec/no-entry-edge",
        ]
    );
    assert_eq!(errs[0].message, "duplicate channel \"c\"");
    assert_eq!(errs[4].message, "edge \"a\" -> unknown node \"ghost\"");
    assert_eq!(errs[5].message, "edge from unknown node \"nowhere\"");
    assert_eq!(errs[6].message, "graph has no entry edge — add .edge(START, \"someNode\")");
}

#[test]
fn reducers_follow_the_model() {
    let cur = json!(["a"]);
    assert_eq!(Reducer::Append.apply(Some(&cur), &json!("b")), json!(["a", "b"]));
    assert_eq!(Reducer::Append.apply(Some(&cur), &json!(["b", "c"])), json!(["a", "b", "c"]));
    assert_eq!(Reducer::Append.apply(None, &json!({"k": 1})), json!([{"k": 1}]));
    assert_eq!(Reducer::Append.apply(None, &json!([])), json!([]));
    let cur = json!({"a": 1, "b": {"x": 1}});
    assert_eq!(
        Reducer::Merge.apply(Some(&cur), &json!({"b": {"y": 2}, "c": 3})),
        json!({"a": 1, "b": {"y": 2}, "c": 3})
    );
    assert_eq!(Reducer::Merge.apply(None, &json!({"a": 1})), json!({"a": 1}));
    assert_eq!(Reducer::Merge.apply(Some(&json!({"a": 1})), &Value::Null), json!({"a": 1}));
    assert_eq!(Reducer::LastWrite.apply(Some(&json!(1)), &json!(2)), json!(2));
    let sum = Reducer::Custom(Arc::new(|a: &Value, b: &Value| {
        json!(a.as_i64().unwrap_or(0) + b.as_i64().unwrap_or(0))
    }));
    assert_eq!(sum.apply(None, &json!(2)), json!(2));
    assert_eq!(sum.apply(Some(&json!(40)), &json!(2)), json!(42));
}

#[test]
fn from_spec_uses_factories_and_reports_not_a_function() {
    let spec: GraphSpec = parse_spec(
        r#"{"name":"x","channels":{"v":{}},"nodes":[{"id":"a","type":"good","config":{"k":1}},{"id":"b","type":"bad"}],
           "edges":[{"from":"__start__","to":"a"}]}"#,
    )
    .spec
    .expect("doc");
    let mut reg = Registry::new();
    reg.register("good", |config: &Value| {
        let k = config.get("k").cloned().unwrap_or(Value::Null);
        Built::Node(Arc::new(move |_: &State| {
            let mut u = Map::new();
            u.insert("v".into(), k.clone());
            Ok(u)
        }))
    });
    reg.register("bad", |_: &Value| Built::NotAFunction("object".into()));
    let errs = from_spec(&spec, &reg).expect_err("bad factory");
    assert_eq!(errs.len(), 1);
    assert_eq!(
        errs[0].message,
        "registry entry \"bad\" returned object; expected a node function (state, ctx)."
    );
    assert_eq!(errs[0].pointer, "/nodes/1/type");

    let mut reg2 = Registry::new();
    reg2.register("good", |_: &Value| Built::Node(Arc::new(|_: &State| Ok(Map::new()))));
    reg2.describe(trellis_spec::TypeInfo::named("bad"), "manifest");
    let g = from_spec(&spec, &reg2).expect("a manifest-only type builds a no-op node");
    let compiled = g.compile().expect("compiles");
    assert_eq!(compiled.node("b").and_then(|n| n.type_name.as_deref()), Some("bad"));
    assert_eq!(compiled.edges_from(START).count(), 1);
    assert_eq!(to_spec(&compiled).expect("back"), spec);
}

#[test]
fn prototype_names_are_ordinary_names() {
    let spec = parse_spec(
        r#"{"name":"p","channels":{"__proto__":{"reducer":"merge"}},"nodes":[{"id":"constructor","type":"toString","config":{"__proto__":1}}],
           "edges":[{"from":"__start__","to":"constructor","when":{"channel":"__proto__","truthy":true}}]}"#,
    )
    .spec
    .expect("doc");
    let mut reg = Registry::new();
    reg.register("noop", |_: &Value| Built::Node(Arc::new(|_: &State| Ok(Map::new()))));
    let errs = from_spec(&spec, &reg).expect_err("toString is not a registered type");
    assert!(errs[0]
        .message
        .starts_with("node \"constructor\" has type \"toString\", which is not in the registry"));
    reg.register("toString", |_: &Value| Built::Node(Arc::new(|_: &State| Ok(Map::new()))));
    let back = to_spec(&from_spec(&spec, &reg).expect("ok").compile().expect("ok")).expect("ok");
    assert_eq!(back, spec);
    assert_eq!(back.nodes[0].config.get("__proto__"), Some(&json!(1)));
}
