//! Rules chosen where the public GRAPH.md description is silent (docs/graphmd.md), one test
//! each where the fixture folders do not already show them, and the check that every code is
//! documented.

use trellis_formats::graphmd::{self, paths};

fn diags(text: &str) -> Vec<(String, String)> {
    graphmd::read_and_validate(text).diagnostics.into_iter().map(|d| (d.code, d.pointer)).collect()
}

#[test]
fn numbers_are_accepted_as_ids() {
    let text = "---\nspec_version: \"1.1.0\"\nentry: 1\nexits: [2]\nnodes:\n  - {id: 1, kind: agent}\n  - {id: 2, kind: tool}\nedges:\n  - {from: 1, to: 2}\n---\n";
    assert_eq!(diags(text), vec![]);
}

#[test]
fn fences_may_have_trailing_blanks() {
    let text = "--- \nspec_version: \"1.1.0\"\nentry: a\nexits: [a]\nnodes:\n  - {id: a, kind: agent}\n---\t\nbody\n";
    let r = graphmd::read_and_validate(text);
    assert_eq!(r.diagnostics, vec![]);
    let doc = r.doc.expect("doc");
    assert_eq!(doc.body, "body\n");
    assert_eq!(graphmd::to_string(&doc), text, "unedited: original bytes");
}

#[test]
fn a_single_exit_without_brackets_is_a_list_of_one() {
    let doc = graphmd::read(
        "---\nspec_version: \"1.0.0\"\nentry: a\nexits: a\nnodes:\n  - {id: a, kind: agent}\n---\n",
    )
    .doc
    .expect("doc");
    let (t, d) = graphmd::check(&doc);
    assert!(d.is_empty(), "{d:?}");
    assert_eq!(t.exits, ["a"]);
}

#[test]
fn empty_exits_and_empty_condition_are_errors() {
    let text = "---\nspec_version: \"1.1.0\"\nentry: a\nexits: []\nnodes:\n  - {id: a, kind: agent}\n  - {id: b, kind: agent}\nedges:\n  - {from: a, to: b, kind: conditional, condition: \"  \"}\n---\n";
    let d = diags(text);
    assert!(d.contains(&("graphmd/invalid-value".into(), "/exits".into())), "{d:?}");
    assert!(d.contains(&("graphmd/wrong-type".into(), "/edges/0/condition".into())), "{d:?}");
}

#[test]
fn judges_need_v1_1_even_when_the_version_is_missing() {
    let text = "---\nentry: j\nexits: [b]\nnodes:\n  - {id: j, kind: judge, seat: gate, decision_model: m, questions: 1, options_count: 2, state_tokens: 1, timeout_ms: 5, fallback: b, fires_on: e}\n  - {id: b, kind: human}\nedges:\n  - {from: j, to: b}\n---\n";
    let d = diags(text);
    assert_eq!(
        d,
        vec![
            ("graphmd/missing-spec-version".into(), "".into()),
            ("graphmd/judge-needs-v1-1".into(), "/nodes/0/kind".into())
        ]
    );
}

#[test]
fn reads_add_state_tokens_to_a_nodes_input() {
    let text = "---\nspec_version: \"1.1.0\"\nentry: a\nexits: [a]\nstate:\n  ticket: {tokens: 800}\n  history: {tokens: 1200}\nnodes:\n  - {id: a, kind: agent, reads: [ticket, history], estimates: {input_tokens: 100, output_tokens: 50}}\n---\n";
    let doc = graphmd::read(text).doc.expect("doc");
    let (t, d) = graphmd::check(&doc);
    let a = paths::analyse(&t, &d, None);
    // 100 + 800 + 1200 input, 50 output
    assert_eq!(a.paths[0].tokens, 2150);
}

#[test]
fn parallel_branches_that_never_join_end_the_path_together() {
    let text = "---\nspec_version: \"1.1.0\"\nentry: f\nexits: [x, y]\nnodes:\n  - {id: f, kind: router}\n  - {id: x, kind: agent, estimates: {input_tokens: 1, latency_ms: 7}}\n  - {id: y, kind: agent, estimates: {input_tokens: 2, latency_ms: 9}}\nedges:\n  - {from: f, to: x, kind: parallel}\n  - {from: f, to: y, kind: parallel}\n---\n";
    let doc = graphmd::read(text).doc.expect("doc");
    let (t, d) = graphmd::check(&doc);
    let a = paths::analyse(&t, &d, None);
    assert_eq!(a.path_count, 1);
    let p = &a.paths[0];
    assert_eq!((p.tokens, p.latency_ms, p.exit.as_str()), (3, 9, "x"));
}

#[test]
fn nested_loops_multiply() {
    // a -> b -> c; c -> b loop 2 (inner); c -> a loop 1 (outer); c exit.
    let text = "---\nspec_version: \"1.1.0\"\nentry: a\nexits: [c]\nnodes:\n  - {id: a, kind: agent, estimates: {input_tokens: 1}}\n  - {id: b, kind: agent, estimates: {input_tokens: 10}}\n  - {id: c, kind: tool, estimates: {input_tokens: 100}}\nedges:\n  - {from: a, to: b}\n  - {from: b, to: c}\n  - {from: c, to: b, kind: loop, bounds: {max_iterations: 2}}\n  - {from: c, to: a, kind: loop, bounds: {max_iterations: 1}}\n---\n";
    let doc = graphmd::read(text).doc.expect("doc");
    let (t, d) = graphmd::check(&doc);
    assert!(d.is_empty(), "{d:?}");
    let a = paths::analyse(&t, &d, None);
    // One pass: the inner loop 0..=2 times = 3 ways; with the outer loop taken once, two passes:
    // 3 + 3 * 3 = 12 paths. Worst: two passes each with b,c three times:
    // 2 * (1 + 3 * 110) = 662 tokens.
    assert_eq!(a.path_count, 12);
    assert_eq!(a.paths.iter().map(|p| p.tokens).max(), Some(662));
}

/// Every `"graphmd/..."` code in the graphmd sources and every `"convert/..."` code in the
/// GRAPH.md conversions appears in docs/diagnostics.md.
#[test]
fn every_code_is_documented() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let docs = std::fs::read_to_string(root.join("../../docs/diagnostics.md")).expect("docs/diagnostics.md");
    // The graphmd sources, module folders (`validate/`, `paths/`) included.
    let mut files: Vec<std::path::PathBuf> = Vec::new();
    let mut folders = vec![root.join("src/graphmd")];
    while let Some(folder) = folders.pop() {
        for path in std::fs::read_dir(folder).expect("dir").filter_map(Result::ok).map(|e| e.path()) {
            if path.is_dir() {
                folders.push(path);
            } else {
                files.push(path);
            }
        }
    }
    files.push(root.join("src/convert/graphmd_to_spec.rs"));
    files.push(root.join("src/convert/graphmd_from_spec.rs"));
    let mut missing = Vec::new();
    let mut seen = 0;
    for f in files {
        let src = std::fs::read_to_string(&f).expect("source");
        for prefix in ["\"graphmd/", "\"convert/"] {
            for (i, _) in src.match_indices(prefix) {
                let rest = &src[i + 1..];
                let end = rest.find('"').unwrap_or(0);
                let code = &rest[..end];
                if code.chars().all(|c| c.is_ascii_lowercase() || c == '-' || c == '/') {
                    seen += 1;
                    if !docs.contains(&format!("`{code}`")) {
                        missing.push(code.to_owned());
                    }
                }
            }
        }
    }
    assert!(seen > 40);
    assert!(missing.is_empty(), "undocumented: {missing:?}");
}

#[test]
fn cycles_through_fallbacks_or_non_closing_loops_are_unbounded() {
    // Two loop edges that each close no cycle, but together form one.
    let text = "---\nspec_version: \"1.1.0\"\nentry: a\nexits: [c]\nnodes:\n  - {id: a, kind: agent}\n  - {id: b, kind: agent}\n  - {id: c, kind: tool}\nedges:\n  - {from: a, to: b, kind: loop, bounds: {max_iterations: 1}}\n  - {from: b, to: a, kind: loop, bounds: {max_iterations: 1}}\n  - {from: b, to: c}\n---\n";
    let d = diags(text);
    assert!(d.iter().any(|(c, _)| c == "graphmd/unbounded-cycle"), "{d:?}");
    // A judge whose fallback goes back to where it came from.
    let text = "---\nspec_version: \"1.1.0\"\nentry: a\nexits: [c]\nnodes:\n  - {id: a, kind: agent}\n  - {id: j, kind: judge, seat: gate, decision_model: m, questions: 1, options_count: 2, state_tokens: 1, timeout_ms: 5, fallback: a, fires_on: e}\n  - {id: c, kind: tool}\nedges:\n  - {from: a, to: j}\n  - {from: j, to: c}\n---\n";
    let d = diags(text);
    assert!(
        d.contains(&("graphmd/unbounded-cycle".into(), "/nodes/0".into()))
            || d.iter().any(|(c, _)| c == "graphmd/unbounded-cycle"),
        "{d:?}"
    );
    let doc = graphmd::read(text).doc.expect("doc");
    let (t, d) = graphmd::check(&doc);
    assert_eq!(paths::analyse(&t, &d, None).diagnostics[0].code, "graphmd/not-analysable");
}
