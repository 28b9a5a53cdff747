//! One test per rendering rule of the viz README (escaping, routers, routers-hidden, highlight,
//! no-end), built here from the rules; the two corpus vectors are checked byte for byte in
//! `tests/tests/mermaid_vectors.rs`.

use std::sync::Arc;

use serde_json::{json, Map, Value};

use super::*;
use crate::builder::{when, GraphBuilder};
use crate::graph::{from_spec, Reducer};
use crate::model::{ChannelSpec, EdgeSpec, NodeSpec, ReducerName};
use crate::registry::{Built, Registry, State, Update};

fn spec(name: Option<&str>, nodes: &[&str], edges: &[(&str, &str, Option<Value>)]) -> GraphSpec {
    GraphSpec {
        name: name.map(str::to_owned),
        channels: Default::default(),
        nodes: nodes
            .iter()
            .map(|id| NodeSpec {
                id: (*id).to_owned().into(),
                type_name: Some("noop".into()),
                config: Map::new().into(),
            })
            .collect(),
        edges: edges
            .iter()
            .map(|(f, t, w)| EdgeSpec { from: (*f).into(), to: (*t).into(), when: w.clone().map(when) })
            .collect(),
    }
}

fn noop_registry() -> Registry {
    let mut r = Registry::new();
    r.register("noop", |_| Built::Node(Arc::new(|_: &State| Ok(Update::new()))));
    r
}

fn lines(s: &[&str]) -> String {
    let mut out = s.join("\n");
    out.push('\n');
    out
}

fn opts(v: Value) -> MermaidOptions {
    serde_json::from_value(v).unwrap()
}

#[test]
fn unsafe_names_and_keywords_get_generated_ids_that_avoid_real_ones() {
    let s = spec(
        Some("ids"),
        &["a.b", "n0", "END", "Class", "x y", "ünï", "n2", "ok_9", "9lives"],
        &[(START, "a.b", None), ("a.b", "END", None), ("END", "x y", None), ("x y", END, None)],
    );
    let got = render(&s, &MermaidExtras::default(), &MermaidOptions::default());
    let want = lines(&[
        "flowchart TD",
        "  __start__([START])",
        "  n0_[\"a.b\"]",
        "  n0[\"n0\"]",
        "  n2_[\"END\"]",
        "  n3[\"Class\"]",
        "  n4[\"x y\"]",
        "  n5[\"ünï\"]",
        "  n2[\"n2\"]",
        "  ok_9[\"ok_9\"]",
        "  n8[\"9lives\"]",
        "  __end__([END])",
        "  __start__ --> n0_",
        "  n0_ --> n2_",
        "  n2_ --> n4",
        "  n4 --> __end__",
    ]);
    assert_eq!(got, want);
}

#[test]
fn generated_ids_never_reuse_start_or_end_and_add_underscores_until_unique() {
    // A node literally named like a generated id, its underscore variant too.
    let s = spec(None, &["-", "n0", "n0_"], &[(START, "-", None)]);
    let got = render(&s, &MermaidExtras::default(), &MermaidOptions::default());
    assert!(got.contains("  n0__[\"-\"]\n"), "{got}");
    assert!(is_safe_id("_"));
    assert!(!is_safe_id(""));
    assert!(!is_safe_id("subGraph"));
    assert!(!is_safe_id("LinkStyle"));
    assert!(is_safe_id("ends"));
}

#[test]
fn labels_escape_hash_first_then_quotes_angles_backticks_and_flatten_line_breaks() {
    assert_eq!(escape_label("#quot;"), "#35;quot;");
    assert_eq!(escape_label("a\"<b>`c`"), "a#quot;#lt;b#gt;#96;c#96;");
    assert_eq!(escape_label("a\r\nb\rc\nd"), "a b c d");
    let s = spec(None, &["say \"<hi>\"\n#2"], &[(START, "say \"<hi>\"\n#2", None)]);
    let got = render(&s, &MermaidExtras::default(), &MermaidOptions::default());
    assert!(got.contains("  n0[\"say #quot;#lt;hi#gt;#quot; #35;2\"]\n"), "{got}");
}

#[test]
fn predicate_labels_follow_the_engine_operator_order_and_javascript_printing() {
    let label = |v: Value| predicate_label(&when(v));
    assert_eq!(label(json!({"channel": "c", "truthy": true, "eq": 1})), "c == 1");
    assert_eq!(label(json!({"channel": "c", "neq": null})), "c != null");
    // A non-array `in` is not an operator: the next one present is drawn.
    assert_eq!(label(json!({"channel": "c", "in": "x", "gt": 3})), "c > 3");
    assert_eq!(
        label(json!({"channel": "c", "in": [1, "a", null, [2], {"k": true}]})),
        "c in [1, \"a\", null, [2], {\"k\":true}]"
    );
    assert_eq!(label(json!({"channel": "c", "lt": -0.5})), "c < -0.5");
    assert_eq!(label(json!({"channel": "c", "truthy": false})), "not truthy(c)");
    // JavaScript truthiness of the operand: an empty list is truthy there.
    assert_eq!(label(json!({"channel": "c", "truthy": []})), "truthy(c)");
    assert_eq!(label(json!({"channel": "c", "truthy": 0})), "not truthy(c)");
    assert_eq!(label(json!({"channel": "c", "like": "%"})), "c");
    assert_eq!(label(json!({"eq": 1})), "undefined == 1");
    assert_eq!(label(json!({"channel": 7, "eq": 1})), "7 == 1");
    // Number text as JavaScript prints it, whatever the document said.
    let num = |t: &str| label(serde_json::from_str(&format!("{{\"channel\":\"n\",\"eq\":{t}}}")).unwrap());
    assert_eq!(num("1.0"), "n == 1");
    assert_eq!(num("1e21"), "n == 1e+21");
    assert_eq!(num("1E2"), "n == 100");
    assert_eq!(num("0.0000001"), "n == 1e-7");
    assert_eq!(num("-0"), "n == 0");
    assert_eq!(num("12345678901234567890"), "n == 12345678901234567000");
    assert_eq!(num("1e400"), "n == null");
    // Object keys: array indices first, ascending, then insertion order; strings as JSON.
    let obj: Value =
        serde_json::from_str(r#"{"channel":"o","eq":{"b":1,"10":2,"a":"x\ny","2":3,"01":4}}"#).unwrap();
    assert_eq!(label(obj), r#"o == {"2":3,"10":2,"b":1,"a":"x\ny","01":4}"#);
}

#[test]
fn routers_draw_declared_targets_and_placeholders_whose_ids_avoid_nodes() {
    let s = spec(Some("r"), &["plan", "r0", "r1_", "act"], &[(START, "plan", None), ("act", "plan", None)]);
    let extras = MermaidExtras {
        routers: vec![
            RouterSketch { from: "plan".into(), targets: Some(vec!["act".into(), END.into()]) },
            RouterSketch { from: "act".into(), targets: None },
            RouterSketch { from: "r0".into(), targets: None },
        ],
        guards: vec![GuardSketch { from: "plan".into(), to: "r1_".into() }],
    };
    let got = render(&s, &extras, &MermaidOptions::default());
    let want = lines(&[
        "flowchart TD",
        "  __start__([START])",
        "  plan[\"plan\"]",
        "  r0[\"r0\"]",
        "  r1_[\"r1_\"]",
        "  act[\"act\"]",
        "  r0_{\"?\"}",
        "  r1{\"?\"}",
        "  __end__([END])",
        "  __start__ --> plan",
        "  act --> plan",
        "  plan -.-> act",
        "  plan -.-> __end__",
        "  act -.-> r0_",
        "  r0 -.-> r1",
        "  plan -.->|\"guard\"| r1_",
    ]);
    assert_eq!(got, want);
}

#[test]
fn hidden_routers_draw_nothing_and_do_not_make_end_appear() {
    let s = spec(Some("h"), &["a", "b"], &[(START, "a", None), ("b", "a", None)]);
    let extras = MermaidExtras {
        routers: vec![
            RouterSketch { from: "a".into(), targets: Some(vec!["b".into(), END.into()]) },
            RouterSketch { from: "a".into(), targets: None },
        ],
        guards: vec![],
    };
    let got = render(&s, &extras, &opts(json!({"includeRouters": false, "direction": "BT"})));
    let want = lines(&[
        "flowchart BT",
        "  __start__([START])",
        "  a[\"a\"]",
        "  b[\"b\"]",
        "  __start__ --> a",
        "  b --> a",
    ]);
    assert_eq!(got, want);
    // With routers shown, the router's END target brings END in.
    let shown = render(&s, &extras, &MermaidOptions::default());
    assert!(shown.contains("  __end__([END])\n  __start__ --> a\n"), "{shown}");
    assert!(shown.contains("  r0{\"?\"}\n"), "{shown}");
}

#[test]
fn highlight_marks_next_and_pending_in_declaration_order_once_each() {
    let s = spec(
        Some("hl"),
        &["a", "b", "c", "d e"],
        &[(START, "a", None), ("a", "b", None), ("a", "c", None), ("c", "d e", None), ("d e", END, None)],
    );
    let o = opts(json!({"highlight": {"next": ["d e", "c", "b", "c", "ghost"], "pending": ["b", "a", "a"]}}));
    let got = render(&s, &MermaidExtras::default(), &o);
    let want = lines(&[
        "flowchart TD",
        "  __start__([START])",
        "  a[\"⏸ a\"]",
        "  b[\"⏸ b\"]",
        "  c[\"c\"]",
        "  n3[\"d e\"]",
        "  __end__([END])",
        "  __start__ --> a",
        "  a --> b",
        "  a --> c",
        "  c --> n3",
        "  n3 --> __end__",
        "  classDef next stroke-width:3px",
        "  class c,n3 next",
        "  classDef pending stroke-width:3px,stroke-dasharray:5 3",
        "  class a,b pending",
    ]);
    assert_eq!(got, want);
    // Only pending: no `next` class lines at all.
    let o = opts(json!({"highlight": {"next": ["a"], "pending": ["a"]}}));
    let got = render(&s, &MermaidExtras::default(), &o);
    assert!(!got.contains("classDef next"), "{got}");
    assert!(got.ends_with("  class a pending\n"), "{got}");
}

#[test]
fn end_is_drawn_only_when_reached_and_isolated_nodes_and_self_loops_are_drawn() {
    let s = spec(None, &["spin", "alone"], &[(START, "spin", None), ("spin", "spin", None)]);
    let got = render(&s, &MermaidExtras::default(), &MermaidOptions::default());
    let want = lines(&[
        "flowchart TD",
        "  __start__([START])",
        "  spin[\"spin\"]",
        "  alone[\"alone\"]",
        "  __start__ --> spin",
        "  spin --> spin",
    ]);
    assert_eq!(got, want);
}

#[test]
fn nodes_named_only_by_edges_are_drawn_after_the_declared_ones() {
    let s = spec(None, &["a"], &[(START, "a", None), ("a", "ghost", None), ("phantom", "a", None)]);
    let got = render(&s, &MermaidExtras::default(), &opts(json!({"direction": "RL"})));
    assert!(
        got.starts_with(
            "flowchart RL\n  __start__([START])\n  a[\"a\"]\n  ghost[\"ghost\"]\n  phantom[\"phantom\"]\n"
        ),
        "{got}"
    );
}

#[test]
fn directions_parse_and_unknown_ones_are_refused_with_the_reference_wording() {
    for d in Direction::ALL {
        assert_eq!(d.as_str().parse::<Direction>(), Ok(d));
    }
    let err = "lr".parse::<Direction>().unwrap_err();
    assert_eq!(err.to_string(), "unknown Mermaid direction \"lr\"; use TD, TB, BT, LR or RL");
    assert!(serde_json::from_value::<MermaidOptions>(json!({"direction": "XY"})).is_err());
    let d = MermaidOptions::default();
    assert!(d.include_routers);
    assert_eq!(d.direction, Direction::TD);
}

#[test]
fn a_bare_spec_and_its_compiled_graph_render_identically() {
    let mut s = spec(
        Some("same"),
        &["triage", "buy", "my node"],
        &[
            (START, "triage", None),
            ("triage", "buy", Some(json!({"channel": "intent", "eq": "buy"}))),
            ("triage", "my node", Some(json!({"channel": "intent", "in": ["a", 1.50]}))),
            ("buy", END, None),
        ],
    );
    s.channels.insert("intent".into(), ChannelSpec { reducer: ReducerName::LastWrite });
    let compiled = from_spec(&s, &noop_registry()).unwrap().compile().unwrap();
    for o in [
        MermaidOptions::default(),
        opts(json!({"direction": "LR", "highlight": {"next": ["buy"], "pending": []}})),
    ] {
        assert_eq!(render(&s, &MermaidExtras::default(), &o), render_compiled(&compiled, &o));
    }
}

#[test]
fn compiled_graphs_draw_code_guards_dashed_unless_they_have_a_declarative_twin() {
    let g = GraphBuilder::named("code")
        .channel("x", Reducer::LastWrite)
        .node("a", |_| Ok(Update::new()))
        .node("b", |_| Ok(Update::new()))
        .node("c", |_| Ok(Update::new()))
        .edge(START, "a")
        .edge_guard("a", "b", |_| true, None)
        .edge_guard("a", "c", |_| true, Some(when(json!({"channel": "x", "truthy": true}))))
        .router("b", |_| vec![END.to_owned()], Some(vec![END.to_owned()]))
        .router("c", |_| vec![], None)
        .compile()
        .unwrap();
    let want = lines(&[
        "flowchart TD",
        "  __start__([START])",
        "  a[\"a\"]",
        "  b[\"b\"]",
        "  c[\"c\"]",
        "  r0{\"?\"}",
        "  __end__([END])",
        "  __start__ --> a",
        "  a -.->|\"guard\"| b",
        "  a -->|\"truthy(x)\"| c",
        "  b -.-> __end__",
        "  c -.-> r0",
    ]);
    assert_eq!(render_compiled(&g, &MermaidOptions::default()), want);
    let hidden = render_compiled(&g, &opts(json!({"includeRouters": false})));
    assert!(!hidden.contains("__end__") && !hidden.contains("r0"), "{hidden}");
}
