//! Hostile and unusual input: every case gets a diagnostic naming the place, quickly, and
//! never a panic.

use std::time::Instant;
use trellis_formats::graphmd::{self, yaml::Yaml};

const SEED: &str = include_str!("fixtures/graphmd/support-triage.GRAPH.md");

fn codes(text: &str) -> Vec<String> {
    graphmd::read_and_validate(text).diagnostics.into_iter().map(|d| d.code).collect()
}

#[test]
fn alias_bomb_is_refused_quickly() {
    let mut s = String::from("---\na0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 1..40 {
        let p = i - 1;
        s += &format!("a{i}: &a{i} [*a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}, *a{p}]\n");
    }
    s += "---\n";
    let started = Instant::now();
    let r = graphmd::read(&s);
    assert!(started.elapsed().as_millis() < 500);
    assert!(r.doc.is_none());
    let d = &r.diagnostics[0];
    assert_eq!(d.code, "graphmd/yaml-alias");
    assert_eq!(d.span.map(|s| (s.line, s.column)), Some((2, 5)));
}

#[test]
fn ten_megabyte_front_matter_is_refused_quickly() {
    let mut s = String::from("---\nname: big\nnotes:\n");
    while s.len() < 10 * 1024 * 1024 {
        s += "  - \"lorem ipsum dolor sit amet, consectetur adipiscing elit\"\n";
    }
    s += "---\nbody\n";
    let started = Instant::now();
    let r = graphmd::read(&s);
    let took = started.elapsed();
    assert!(took.as_millis() < 500, "took {took:?}");
    assert!(r.doc.is_none());
    assert_eq!(r.diagnostics[0].code, "graphmd/front-matter-too-large");
    assert_eq!(r.diagnostics[0].span.map(|s| s.line), Some(1));
    // Same without a closing fence: still refused for size, not scanned to the end.
    let open = s.replace("---\nbody\n", "");
    assert_eq!(codes(&open), ["graphmd/front-matter-too-large"]);
}

#[test]
fn a_large_body_is_fine() {
    let text = format!("{SEED}{}", "body line\n".repeat(1_000_000));
    let doc = graphmd::read(&text).doc.expect("doc");
    assert_eq!(graphmd::to_canonical_string(&doc), text);
}

#[test]
fn deep_nesting_is_refused_without_overflow() {
    let s = format!("---\nx: {}{}\n---\n", "[".repeat(100_000), "]".repeat(100_000));
    assert_eq!(codes(&s), ["graphmd/yaml-too-large"]);
    // Block nesting is stopped by our own limit (64 levels).
    let mut s = String::from("---\n");
    for i in 0..80 {
        s += &format!("{}k{i}:\n", "  ".repeat(i));
    }
    s += &format!("{}v: 1\n---\n", "  ".repeat(80));
    assert_eq!(codes(&s), ["graphmd/yaml-too-large"]);
}

#[test]
fn no_closing_fence() {
    let r = graphmd::read("---\nname: x\nentry: a\n");
    assert_eq!(r.diagnostics[0].code, "graphmd/unclosed-front-matter");
    assert_eq!(codes("---"), ["graphmd/no-front-matter"]);
    assert_eq!(codes(""), ["graphmd/no-front-matter"]);
    assert_eq!(codes("---\n"), ["graphmd/unclosed-front-matter"]);
    assert_eq!(codes("---\n---\n"), ["graphmd/not-a-mapping"]);
}

#[test]
fn crlf_files_round_trip_and_edits_keep_crlf() {
    let crlf = SEED.replace('\n', "\r\n") + "\r\nBody\r\n";
    let r = graphmd::read_and_validate(&crlf);
    assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
    let mut doc = r.doc.expect("doc");
    assert_eq!(graphmd::to_canonical_string(&doc), crlf);
    doc.set_node_field("answer", "model_key", Yaml::string("openai:gpt-5")).expect("set");
    let out = graphmd::to_string(&doc);
    assert_eq!(out, crlf.replace("openai:gpt-5-mini", "openai:gpt-5"));
    // Spans still count lines right.
    let bad = crlf.replace("kind: human", "kind: alien");
    let d = graphmd::read_and_validate(&bad).diagnostics;
    assert_eq!(d[0].code, "graphmd/unknown-node-kind");
    assert_eq!(d[0].span.map(|s| (s.line, s.column)), Some((24, 11)));
}

#[test]
fn bom_is_kept_and_spans_stay_right() {
    let text = format!("\u{feff}{SEED}");
    let r = graphmd::read_and_validate(&text);
    assert!(r.diagnostics.is_empty());
    let doc = r.doc.expect("doc");
    assert!(doc.bom);
    assert_eq!(graphmd::to_canonical_string(&doc), text);
    let bad = text.replace("timeout_ms: 1000", "timeout_ms: 0");
    let d = graphmd::read_and_validate(&bad).diagnostics;
    assert_eq!(d[0].code, "graphmd/invalid-value");
    assert_eq!(d[0].pointer, "/nodes/0/timeout_ms");
    let s = d[0].span.expect("span");
    assert_eq!((s.line, s.column), (16, 17));
    assert_eq!(&bad[s.offset as usize..(s.offset + s.length) as usize], "0");
}

#[test]
fn tabs_are_a_yaml_error_with_a_place() {
    let d = graphmd::read("---\nnodes:\n\t- id: a\n---\n").diagnostics;
    assert_eq!(d[0].code, "graphmd/yaml-syntax");
    assert_eq!(d[0].span.map(|s| s.line), Some(3));
    // A tab inside a value is fine.
    assert!(graphmd::read("---\nname: \"a\tb\"\n---\n").doc.is_some());
}

#[test]
fn non_utf8_is_refused_with_a_place() {
    let mut bytes = b"---\nname: ok\n".to_vec();
    bytes.extend_from_slice(&[b'x', 0xff, 0xfe]);
    let r = graphmd::read_bytes(&bytes);
    assert!(r.doc.is_none());
    assert_eq!(r.diagnostics[0].code, "graphmd/invalid-utf8");
    assert_eq!(r.diagnostics[0].span.map(|s| (s.line, s.column)), Some((3, 2)));
}

#[test]
fn body_is_kept_byte_for_byte_including_fences_and_odd_bytes() {
    let body = "\n# Title\n\n---\nnot: front matter\n---\n\u{0}\r\nend without newline";
    let text = format!("{SEED}{body}");
    let doc = graphmd::read(&text).doc.expect("doc");
    assert_eq!(doc.body, body);
    let mut edited = doc.clone();
    edited.set_node_field("route", "timeout_ms", Yaml::plain("900")).expect("set");
    assert!(graphmd::to_string(&edited).ends_with(body));
}

#[test]
fn unicode_and_odd_scalars_survive_a_canonical_rewrite() {
    let text = "---\nname: \"naïve: café\"\nspec_version: '1.1.0'\nentry: \"a\"\nexits: [a]\nnodes:\n  - id: a\n    kind: agent\n    description: |\n      Line one\n      Line two\n---\n";
    let doc = graphmd::read(text).doc.expect("doc");
    assert_eq!(graphmd::to_canonical_string(&doc), text);
    assert!(graphmd::validate(&doc).is_empty());
}

#[test]
fn setters_change_only_what_they_change() {
    let mut doc = graphmd::read(SEED).doc.expect("doc");
    doc.add_node("review", "verifier").expect("add");
    let e = doc.add_edge(Some("answer-review"), "answer", "review", None).expect("edge");
    doc.set_edge_kind(e, "loop").expect("kind");
    let out = graphmd::to_string(&doc);
    let expected = SEED.replace(
        "  - id: close\n    kind: human\n",
        "  - id: close\n    kind: human\n  - id: review\n    kind: verifier\n",
    )
    .replace(
        "    to: close\n---\n",
        "    to: close\n  - id: answer-review\n    from: answer\n    to: review\n    kind: loop\n    bounds: {max_iterations: 1}\n---\n",
    );
    assert_eq!(out, expected);
    doc.remove_node("review").expect("remove");
    assert_eq!(graphmd::to_string(&doc), SEED);
    doc.rename_node("close", "finish").expect("rename");
    let out = graphmd::to_string(&doc);
    assert_eq!(out, SEED.replace("close", "finish").replace("answer-finish", "answer-close"));
    assert!(doc.add_node("route", "agent").is_err());
    assert!(doc.set_edge_kind(0, "teleport").is_err());
    assert!(doc.set_node_field("nope", "kind", Yaml::string("agent")).is_err());
}

#[test]
fn new_documents_are_written_canonically() {
    let mut doc = graphmd::GraphMd::new("fresh");
    doc.add_node("a", "agent").expect("a");
    doc.add_node("b", "tool").expect("b");
    doc.add_edge(None, "a", "b", Some("conditional")).expect("edge");
    doc.set_edge_field(0, "condition", Yaml::string("ok: yes")).expect("cond");
    doc.set_field("entry", Yaml::string("a"));
    doc.set_field("exits", Yaml::seq(vec![Yaml::string("b")], true));
    doc.set_body("\nNotes.\n");
    let text = graphmd::to_string(&doc);
    assert_eq!(
        text,
        "---\nname: fresh\nspec_version: \"1.1.0\"\nnodes:\n  - id: a\n    kind: agent\n  - id: b\n    kind: tool\nedges:\n  - from: a\n    to: b\n    kind: conditional\n    condition: \"ok: yes\"\nentry: a\nexits: [b]\n---\n\nNotes.\n"
    );
    let back = graphmd::read_and_validate(&text);
    assert!(back.diagnostics.is_empty(), "{:?}", back.diagnostics);
    assert_eq!(back.doc.expect("doc"), doc);
}
