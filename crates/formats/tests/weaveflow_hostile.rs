//! Hostile input: every problem is a diagnostic naming the place, never a panic or a hang.

use std::time::{Duration, Instant};

use trellis_formats::convert::{from_graphspec, to_graphspec};
use trellis_formats::detect::{detect, Format};
use trellis_formats::weaveflow::{check_text, parse, to_string, ValidateOptions};
use trellis_spec::Diagnostic;

fn check(text: &str) -> Vec<Diagnostic> {
    check_text(text, None, &ValidateOptions::default()).diagnostics
}

fn codes(ds: &[Diagnostic]) -> Vec<&str> {
    ds.iter().map(|d| d.code.as_str()).collect()
}

#[test]
fn unknown_fields_are_reported_at_every_level() {
    let text = r#"{"version":"1.0","x0":1,
      "state_modules":[{"name":"weaveflow.protocols","version":"1","x1":1}],
      "entry_point":"a",
      "nodes":[{"id":"a","type":"state_delete","x2":1,
                "state":{"target":{"path":"shared.a","x3":1}},
                "policy":{"x4":1,"retry":{"x5":1}}}],
      "edges":[{"from":"a","to":"__end__","x6":1},
               {"from":"a","to":"a","failure":{"catch_all":true,"x7":1}},
               {"from":"a","to":"b","condition":{"type":"t","x8":1,"state":{"p":{"path":"shared.p","x9":1}}}}],
      "policy":{"x10":1,"limits":{"x11":1},"node_defaults":{"x12":1}},
      "metadata":{"anything":{"goes":true}}}"#;
    let ds = check(text);
    let unknown: Vec<&str> =
        ds.iter().filter(|d| d.code == "weaveflow/unknown-field").map(|d| d.pointer.as_str()).collect();
    assert_eq!(
        unknown,
        [
            "/x0",
            "/state_modules/0/x1",
            "/nodes/0/x2",
            "/nodes/0/state/target/x3",
            "/nodes/0/policy/x4",
            "/nodes/0/policy/retry/x5",
            "/edges/0/x6",
            "/edges/1/failure/x7",
            "/edges/2/condition/x8",
            "/edges/2/condition/state/p/x9",
            "/policy/x10",
            "/policy/limits/x11",
            "/policy/node_defaults/x12",
        ]
    );
    assert!(ds.iter().all(|d| d.span.is_some()));
    assert_eq!(
        ds.iter().find(|d| d.pointer == "/x0").map(|d| d.message.as_str()),
        Some("json: unknown field \"x0\"")
    );
}

#[test]
fn trailing_values_are_refused_with_the_reference_message() {
    for text in ["{\"version\":\"1.0\"} {\"version\":\"1.0\"}", "{} 1", "{}\n]", "{}  x", "{}{}"] {
        let ds = check(text);
        assert_eq!(codes(&ds), ["weaveflow/multiple-values"], "{text}");
        assert_eq!(ds[0].message, "graph definition contains multiple JSON values");
        assert!(ds[0].span.is_some_and(|s| s.offset >= 2), "{text}");
    }
    // Whitespace after the value is fine.
    assert!(!codes(&check("{} \n\t\r\n")).contains(&"weaveflow/multiple-values"));
}

#[test]
fn broken_json_is_placed() {
    for (text, code) in [
        ("", "json/syntax"),
        ("{", "json/syntax"),
        ("{\"version\": }", "json/syntax"),
        ("\u{feff}{}", "json/syntax"),
        ("{\"a\":1,\"a\":2}", "json/duplicate-key"),
        ("null", "weaveflow/not-an-object"),
        ("\"graph\"", "weaveflow/not-an-object"),
    ] {
        let ds = check(text);
        assert_eq!(codes(&ds).first().copied(), Some(code), "{text:?}: {ds:?}");
        assert!(ds[0].span.is_some(), "{text:?}");
    }
}

#[test]
fn deep_nesting_is_refused_not_overflowed() {
    for depth in [200, 100_000] {
        let text = format!(
            "{{\"version\":\"1.0\",\"metadata\":{{\"x\":{}{}}}}}",
            "[".repeat(depth),
            "]".repeat(depth)
        );
        let ds = check(&text);
        assert_eq!(codes(&ds), ["json/too-deep"], "depth {depth}");
        assert!(detect(None, &text).is_err());
    }
    // Deep but allowed nesting inside an expression_conditions tree is checked without trouble.
    let mut expr = String::from(r#"{"value1":".","op":"equals","value2":"x"}"#);
    for _ in 0..55 {
        expr = format!(r#"{{"logic":"not","children":[{expr}]}}"#);
    }
    let text = format!(
        r#"{{"version":"1.0","state_modules":[{{"name":"weaveflow.protocols","version":"1"}}],"entry_point":"a",
        "nodes":[{{"id":"a","type":"state_delete","state":{{"target":{{"path":"shared.a"}}}}}}],
        "edges":[{{"from":"a","to":"__end__","condition":{{"type":"expression_conditions","config":{{"expressions":[{expr}]}},"state":{{"state":{{"path":"shared.s"}}}}}}}},
                 {{"from":"a","to":"a"}}]}}"#
    );
    let ds = check(&text);
    assert!(!codes(&ds).contains(&"weaveflow/condition-invalid"), "{ds:?}");
}

#[test]
fn huge_documents_are_checked_in_linear_time() {
    let n = 20_000;
    let mut nodes = Vec::with_capacity(n);
    let mut edges = Vec::with_capacity(n);
    for i in 0..n {
        nodes.push(format!(
            r#"{{"id":"n{i}","name":"Node {i}","type":"state_set","config":{{"value":{i}}},"state":{{"target":{{"path":"shared.v{i}"}}}}}}"#
        ));
        let to = if i + 1 == n { "__end__".to_owned() } else { format!("n{}", i + 1) };
        edges.push(format!(r#"{{"from":"n{i}","to":"{to}"}}"#));
    }
    let text = format!(
        r#"{{"version":"1.0","state_modules":[{{"name":"weaveflow.protocols","version":"1"}}],"entry_point":"n0","nodes":[{}],"edges":[{}]}}"#,
        nodes.join(","),
        edges.join(",")
    );
    let started = Instant::now();
    let parsed = check_text(&text, None, &ValidateOptions::default());
    assert_eq!(parsed.diagnostics, Vec::new());
    let doc = parsed.doc.unwrap_or_else(|| panic!("doc"));
    let written = to_string(&doc);
    assert_eq!(parse(&written).doc.map(|d| d.definition().nodes.len()), Some(n));
    let g = to_graphspec(&doc);
    assert_eq!(g.output.nodes.len(), n);
    let back = from_graphspec(&g.output);
    assert_eq!(back.output.definition().nodes.len(), n);
    // Generous for a debug build on a shared 2-core machine; quadratic code takes minutes.
    assert!(started.elapsed() < Duration::from_secs(60), "{:?}", started.elapsed());

    // A chain cut at the start: every other node is unreachable, one diagnostic each (with a
    // span), and the first node cannot reach the end.
    let small: usize = n;
    let broken = {
        let mut nodes = Vec::new();
        let mut edges = Vec::new();
        for i in 0..small {
            nodes.push(format!(
                r#"{{"id":"n{i}","type":"state_delete","state":{{"target":{{"path":"shared.v"}}}}}}"#
            ));
            let to = if i == 0 {
                "n0".to_owned()
            } else if i + 1 == small {
                "__end__".to_owned()
            } else {
                format!("n{}", i + 1)
            };
            edges.push(format!(r#"{{"from":"n{i}","to":"{to}"}}"#));
        }
        format!(
            r#"{{"version":"1.0","state_modules":[{{"name":"weaveflow.protocols","version":"1"}}],"entry_point":"n0","nodes":[{}],"edges":[{}]}}"#,
            nodes.join(","),
            edges.join(",")
        )
    };
    let started = Instant::now();
    let ds = check(&broken);
    assert!(started.elapsed() < Duration::from_secs(60), "{:?}", started.elapsed());
    assert!(ds.iter().all(|d| d.span.is_some()));
    assert_eq!(ds.iter().filter(|d| d.code == "weaveflow/unreachable-node").count(), small - 1);
    assert_eq!(codes(&ds).iter().filter(|c| **c == "weaveflow/cannot-reach-end").count(), 1);
}

#[test]
fn odd_values_do_not_panic() {
    let text = r#"{"version":"1.0","state_modules":[{"name":"weaveflow.protocols","version":"1"}],"entry_point":"ü/~0",
      "nodes":[{"id":"ü/~0","type":"state_set","config":{"value":1e400},
        "state":{"target":{"path":"shared.\u0000"}},
        "policy":{"timeout":"99999999999999999999h","max_concurrency":1e400,"retry":{"jitter":-0.0,"max_attempts":18446744073709551616}}}],
      "edges":[{"from":"ü/~0","to":"__end__"}],
      "policy":{"limits":{"max_state_bytes":9223372036854775807}}}"#;
    let ds = check(text);
    let policy: Vec<&str> =
        ds.iter().filter(|d| d.code == "weaveflow/policy-invalid").map(|d| d.pointer.as_str()).collect();
    assert_eq!(
        policy,
        ["/nodes/0/policy/timeout", "/nodes/0/policy/max_concurrency", "/nodes/0/policy/retry/max_attempts"]
    );
    assert!(ds.iter().all(|d| d.span.is_some()));
    assert_eq!(detect(None, text), Ok(Format::Weaveflow));
}
