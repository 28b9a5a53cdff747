//! Path analysis on small hand-checked graphs: the expected sums are worked out in comments.

use std::time::Instant;
use trellis_formats::graphmd::{self, paths};

fn analyse(text: &str, prices: Option<&str>) -> paths::Analysis {
    let doc = graphmd::read(text).doc.expect("readable");
    let (t, diags) = graphmd::check(&doc);
    assert!(!trellis_spec::diagnostic::has_errors(&diags), "{diags:#?}");
    let table = prices.map(|p| paths::PriceTable::parse(p).expect("price table"));
    paths::analyse(&t, &diags, table.as_ref())
}

const PRICES: &str = r#"{"models": {"m": {"input_per_mtok": 1.0, "output_per_mtok": 2.0}, "judge-model": {"input_per_mtok": 2.0, "output_per_mtok": 8.0}}}"#;

#[test]
fn sequential_sums_tokens_cost_and_latency() {
    let text = "---\nspec_version: \"1.1.0\"\nentry: a\nexits: [c]\npath_budget:\n  tokens: 400\n  cost_usd: 0.01\nnodes:\n  - id: a\n    kind: agent\n    model_key: m\n    estimates: {input_tokens: 100, output_tokens: 50, latency_ms: 200}\n  - id: b\n    kind: tool\n    estimates: {input_tokens: 10, latency_ms: 30}\n  - id: c\n    kind: agent\n    model_key: m\n    estimates: {input_tokens: 200, output_tokens: 100, latency_ms: 500}\nedges:\n  - {from: a, to: b}\n  - {from: b, to: c}\n---\n";
    let a = analyse(text, Some(PRICES));
    assert_eq!(a.path_count, 1);
    let p = &a.paths[0];
    assert_eq!(p.nodes, ["a", "b", "c"]);
    assert_eq!(p.edges, [0, 1]);
    // tokens: a 100+50, b 10 (a tool: no model, cost 0), c 200+100 = 460
    assert_eq!(p.tokens, 460);
    // cost: a 100*1/1e6 + 50*2/1e6 = 0.0002; c 200/1e6 + 100*2/1e6 = 0.0004; total 0.0006
    assert!((p.cost_usd.expect("priced") - 0.0006).abs() < 1e-12);
    // latency: 200 + 30 + 500
    assert_eq!(p.latency_ms, 730);
    // 460 > 400 tokens; 0.0006 < 0.01 usd. Top node by cost (budget has cost_usd): c.
    assert_eq!(p.over_budget, ["tokens"]);
    assert_eq!(p.top_node.as_ref().map(|c| c.node.as_str()), Some("c"));
    assert_eq!(a.over_budget, [0]);
    assert_eq!(a.worst, Some(0));
}

#[test]
fn without_prices_cost_is_unknown_not_guessed() {
    let text = "---\nspec_version: \"1.1.0\"\nentry: a\nexits: [a]\npath_budget: {cost_usd: 0.0}\nnodes:\n  - id: a\n    kind: agent\n    model_key: m\n    estimates: {input_tokens: 100}\n---\n";
    let a = analyse(text, None);
    assert_eq!(a.paths[0].cost_usd, None);
    assert!(a.over_budget.is_empty(), "an unknown cost is never over budget");
    assert!(a.notes.iter().any(|n| n.contains("no price table")), "{:?}", a.notes);
    // A model missing from the table is unknown too.
    let a = analyse(text, Some(r#"{"models": {"other": {"input_per_mtok": 1, "output_per_mtok": 1}}}"#));
    assert_eq!(a.paths[0].cost_usd, None);
    // An explicit cost_usd is not a guess: it is used as given.
    let text2 = text.replace("{input_tokens: 100}", "{input_tokens: 100, cost_usd: 0.5}");
    let a = analyse(&text2, None);
    assert_eq!(a.paths[0].cost_usd, Some(0.5));
    assert_eq!(a.over_budget, [0]);
}

#[test]
fn conditional_edges_are_alternatives() {
    let text = "---\nspec_version: \"1.0.0\"\nentry: a\nexits: [d]\nnodes:\n  - {id: a, kind: router, estimates: {input_tokens: 1}}\n  - {id: b, kind: agent, estimates: {input_tokens: 10, latency_ms: 10}}\n  - {id: c, kind: agent, estimates: {input_tokens: 20, latency_ms: 5}}\n  - {id: d, kind: tool, estimates: {input_tokens: 100}}\nedges:\n  - {from: a, to: b, kind: conditional, condition: small}\n  - {from: a, to: c, kind: conditional, condition: big}\n  - {from: b, to: d}\n  - {from: c, to: d}\n---\n";
    let a = analyse(text, None);
    assert_eq!(a.mode, paths::Mode::Exhaustive);
    assert_eq!(a.path_count, 2);
    // a b d = 1 + 10 + 100 = 111 tokens, 10 ms; a c d = 1 + 20 + 100 = 121 tokens, 5 ms.
    let got: Vec<(Vec<String>, u64, u64)> =
        a.paths.iter().map(|p| (p.nodes.clone(), p.tokens, p.latency_ms)).collect();
    assert_eq!(
        got,
        vec![
            (vec!["a".into(), "b".into(), "d".into()], 111, 10),
            (vec!["a".into(), "c".into(), "d".into()], 121, 5)
        ]
    );
    // No tool/agent here has a model, so cost is known and 0; the worst is by tokens: a c d.
    assert_eq!(a.paths[1].cost_usd, Some(0.0));
    assert_eq!(a.worst, Some(1));
    assert_eq!(a.paths[1].top_node.as_ref().map(|c| c.node.as_str()), Some("d"));
}

#[test]
fn parallel_branches_add_tokens_and_take_the_slowest_latency() {
    let text = "---\nspec_version: \"1.1.0\"\nentry: f\nexits: [j]\nnodes:\n  - {id: f, kind: router, estimates: {input_tokens: 10, latency_ms: 100}}\n  - {id: x, kind: agent, estimates: {input_tokens: 100, latency_ms: 1000}}\n  - {id: y, kind: agent, estimates: {input_tokens: 200, latency_ms: 300}}\n  - {id: j, kind: verifier, estimates: {input_tokens: 5, latency_ms: 50}}\nedges:\n  - {from: f, to: x, kind: parallel}\n  - {from: f, to: y, kind: parallel}\n  - {from: x, to: j}\n  - {from: y, to: j}\n---\n";
    let a = analyse(text, None);
    assert_eq!(a.path_count, 1);
    let p = &a.paths[0];
    // tokens 10 + (100 + 200) + 5 = 315; latency 100 + max(1000, 300) + 50 = 1150
    assert_eq!((p.tokens, p.latency_ms), (315, 1150));
    assert_eq!(p.nodes, ["f", "x", "y", "j"]);
    assert_eq!(p.edges, [0, 2, 1, 3]);
    assert_eq!(p.exit, "j");
}

#[test]
fn bounded_loop_is_taken_zero_to_max_times() {
    let text = "---\nspec_version: \"1.1.0\"\nentry: a\nexits: [c]\npath_budget: {tokens: 80}\nnodes:\n  - {id: a, kind: agent, estimates: {input_tokens: 10, latency_ms: 1}}\n  - {id: b, kind: verifier, estimates: {input_tokens: 20, latency_ms: 2}}\n  - {id: c, kind: tool, estimates: {input_tokens: 1}}\nedges:\n  - {from: a, to: b}\n  - {from: b, to: a, kind: loop, bounds: {max_iterations: 2}}\n  - {from: b, to: c}\n---\n";
    let a = analyse(text, None);
    assert_eq!(a.path_count, 3);
    // a b c = 31; a b a b c = 61; a b a b a b c = 91 (over the 80 budget)
    let mut got: Vec<(usize, u64, u64)> =
        a.paths.iter().map(|p| (p.nodes.len(), p.tokens, p.latency_ms)).collect();
    got.sort_unstable();
    assert_eq!(got, vec![(3, 31, 3), (5, 61, 6), (7, 91, 9)]);
    let worst = &a.paths[a.worst.expect("worst")];
    assert_eq!(worst.tokens, 91);
    assert_eq!(worst.edges, [0, 1, 0, 1, 0, 2]);
    assert_eq!(a.over_budget.len(), 1);
    let top = worst.top_node.as_ref().expect("top");
    assert_eq!((top.node.as_str(), top.visits, top.tokens), ("b", 3, 60));
}

#[test]
fn judge_is_charged_input_only_and_latency_capped_at_timeout() {
    let text = "---\nspec_version: \"1.1.0\"\nentry: j\nexits: [done]\nnodes:\n  - id: j\n    kind: judge\n    seat: gate\n    decision_model: judge-model\n    questions: 1\n    options_count: 2\n    state_tokens: 500\n    timeout_ms: 1000\n    fallback: done\n    fires_on: [on_request, on_retry]\n    estimates: {latency_ms: 5000, output_tokens: 999}\n  - id: k\n    kind: judge\n    seat: verifier\n    decision_model: judge-model\n    questions: [\"Is it known?\"]\n    options: [\"yes\", \"no\"]\n    estimates: {state_tokens: 100, latency_ms: 200}\n    timeout_ms: 300\n    fallback: done\n    fires_on: on_answer\n  - {id: done, kind: human}\nedges:\n  - {from: j, to: k, kind: conditional, condition: ok}\n  - {from: k, to: done}\n---\n";
    let a = analyse(text, Some(PRICES));
    // Paths: j -> k -> done; j -(fallback)-> done (k's fallback is `done`, the same as its edge).
    assert_eq!(a.path_count, 2);
    let full = a.paths.iter().find(|p| p.nodes == ["j", "k", "done"]).expect("j k done");
    // j: 500 state + 1 question * 30 + 2 options * 10 = 550 input tokens; output not charged.
    // k: 100 state + ceil(12/4)=3 for the question + 1 + 1 for the options = 105.
    assert_eq!(full.tokens, 655);
    // cost: 655 * 2 / 1e6 = 0.00131
    assert!((full.cost_usd.expect("priced") - 0.00131).abs() < 1e-12);
    // latency: j min(5000, 1000) = 1000; k min(200, 300) = 200.
    assert_eq!(full.latency_ms, 1200);
    let fb = a.paths.iter().find(|p| p.nodes == ["j", "done"]).expect("fallback path");
    assert_eq!((fb.tokens, fb.latency_ms), (550, 1000));
    assert!(fb.edges.is_empty(), "the fallback route has no edge");
}

#[test]
fn seed_paths() {
    let text = include_str!("fixtures/graphmd/support-triage.GRAPH.md");
    let a = analyse(text, None);
    // route -> answer -> close, and route -(fallback)-> close.
    assert_eq!(a.path_count, 2);
    assert!(a.paths.iter().all(|p| p.cost_usd.is_none()));
    assert_eq!(a.paths[0].tokens, 550);
    assert_eq!(a.unestimated, ["answer"]);
    let a = analyse(
        text,
        Some(
            r#"{"models": {"typesafe:jev-1.13": {"input_per_mtok": 100, "output_per_mtok": 0}, "openai:gpt-5-mini": {"input_per_mtok": 0.25, "output_per_mtok": 2}}}"#,
        ),
    );
    // 550 tokens at 100 USD / Mtok = 0.055 USD, under the 0.25 budget.
    assert!((a.paths[0].cost_usd.expect("priced") - 0.055).abs() < 1e-12);
    assert!(a.over_budget.is_empty());
}

fn diamonds(stages: usize) -> String {
    let mut s = String::from(
        "---\nspec_version: \"1.1.0\"\nentry: s0\nexits: [end]\npath_budget: {tokens: 100}\nnodes:\n",
    );
    for i in 0..stages {
        s += &format!("  - {{id: s{i}, kind: router, estimates: {{input_tokens: 1}}}}\n  - {{id: l{i}, kind: agent, estimates: {{input_tokens: 2, latency_ms: 10}}}}\n  - {{id: r{i}, kind: agent, estimates: {{input_tokens: 3, latency_ms: 1}}}}\n");
    }
    s += "  - {id: end, kind: tool}\nedges:\n";
    for i in 0..stages {
        let next = if i + 1 == stages { "end".to_owned() } else { format!("s{}", i + 1) };
        s += &format!("  - {{from: s{i}, to: l{i}, kind: conditional, condition: left}}\n  - {{from: s{i}, to: r{i}, kind: conditional, condition: right}}\n  - {{from: l{i}, to: {next}}}\n  - {{from: r{i}, to: {next}}}\n");
    }
    s + "---\n"
}

#[test]
fn sixty_diamonds_are_summarized_quickly() {
    let text = diamonds(60);
    let started = Instant::now();
    let a = analyse(&text, None);
    let took = started.elapsed();
    assert!(took.as_millis() < 1000, "took {took:?}");
    assert_eq!(a.mode, paths::Mode::Summary);
    assert_eq!(a.path_count, 1u128 << 60);
    // Worst tokens: every stage takes r (1 + 3) = 240; worst latency: every stage takes l = 600.
    let by_tokens = a.paths.iter().map(|p| p.tokens).max();
    let by_latency = a.paths.iter().map(|p| p.latency_ms).max();
    assert_eq!((by_tokens, by_latency), (Some(240), Some(600)));
    assert!(!a.over_budget.is_empty());
    let v = serde_json::to_value(&a).expect("json");
    assert_eq!(v["path_count"], "1152921504606846976");
}

#[test]
fn huge_loop_bounds_are_refused_not_unrolled_forever() {
    let text = "---\nspec_version: \"1.1.0\"\nentry: a\nexits: [b]\nnodes:\n  - {id: a, kind: agent}\n  - {id: b, kind: tool}\nedges:\n  - {from: a, to: b}\n  - {from: a, to: a, kind: loop, bounds: {max_iterations: 100000000}}\n---\n";
    let started = Instant::now();
    let a = analyse(text, None);
    assert!(started.elapsed().as_millis() < 1000);
    assert_eq!(a.diagnostics[0].code, "graphmd/too-large-to-analyse");
}

#[test]
fn documents_with_errors_are_not_analysed() {
    let doc = graphmd::read("---\nentry: a\nexits: [a]\nnodes: []\n---\n").doc.expect("doc");
    let (t, d) = graphmd::check(&doc);
    let a = paths::analyse(&t, &d, None);
    assert_eq!(a.diagnostics[0].code, "graphmd/not-analysable");
    assert!(a.paths.is_empty());
}

#[test]
fn bad_price_tables_are_diagnosed() {
    for bad in [
        "[]",
        "{\"models\": {\"m\": {\"input_per_mtok\": -1, \"output_per_mtok\": 1}}}",
        "{",
        "{\"models\": {}, \"x\": 1}",
    ] {
        let e = paths::PriceTable::parse(bad).expect_err(bad);
        assert!(e.iter().all(|d| d.code == "graphmd/bad-price-table"), "{e:?}");
    }
}

#[test]
fn a_long_chain_does_not_overflow_the_stack() {
    let n = 12_000;
    let mut s = String::from("---\nspec_version: \"1.1.0\"\nentry: n0\nexits: [n11999]\nnodes:\n");
    for i in 0..n {
        s += &format!("  - {{id: n{i}, kind: tool, estimates: {{input_tokens: 1}}}}\n");
    }
    s += "edges:\n";
    for i in 1..n {
        s += &format!("  - {{from: n{}, to: n{i}}}\n", i - 1);
    }
    s += "---\n";
    assert!(s.len() < 1024 * 1024, "{}", s.len());
    let started = Instant::now();
    let a = analyse(&s, None);
    assert_eq!(a.path_count, 1);
    assert_eq!(a.paths[0].tokens, 12_000);
    assert!(started.elapsed().as_secs() < 10, "{:?}", started.elapsed());
}
