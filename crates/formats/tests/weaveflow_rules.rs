//! One fixture per rule of formats.md §2.4 (and per reading rule), each with the expected
//! diagnostics beside it (`rules/<name>.json` -> `rules/<name>.diagnostics.snap`).
//! Regenerate with `INSTA_UPDATE=always` (see `weaveflow_support`).

mod weaveflow_support;

use std::collections::BTreeSet;

use trellis_formats::weaveflow::{check_text, ValidateOptions};
use trellis_spec::{Diagnostic, Registry, TypeInfo};
use weaveflow_support::{beside, expect, finish, fixtures, inputs, read};

fn run(text: &str) -> Vec<Diagnostic> {
    check_text(text, None, &ValidateOptions::default()).diagnostics
}

#[test]
fn every_rule_fixture_gives_its_recorded_diagnostics() {
    let mut failures = Vec::new();
    for input in inputs(&fixtures().join("rules")) {
        let diagnostics = run(&read(&input));
        for d in &diagnostics {
            if d.span.is_none() {
                failures.push(format!("{}: {} has no span", input.display(), d.code));
            }
        }
        let actual = serde_json::to_value(&diagnostics).unwrap_or_default();
        failures.extend(expect(&beside(&input, "diagnostics.json"), &actual));
    }
    finish(failures);
}

#[test]
fn the_valid_base_has_no_diagnostics() {
    assert_eq!(run(&read(&fixtures().join("rules/00_valid.json"))), Vec::new());
}

/// Each fixture whose name starts with a rule's code-like name must show that rule, and every
/// code the validator can emit is shown by at least one fixture.
#[test]
fn every_code_has_a_fixture() {
    let source = include_str!("../src/weaveflow/codes.rs");
    let codes: BTreeSet<&str> = source
        .lines()
        .filter_map(|l| l.trim().strip_prefix("pub const "))
        .filter_map(|l| l.split('"').nth(1))
        .collect();
    assert!(codes.len() > 30, "{codes:?}");
    let mut seen = BTreeSet::new();
    for input in inputs(&fixtures().join("rules")) {
        for d in run(&read(&input)) {
            seen.insert(d.code);
        }
    }
    let missing: Vec<&&str> = codes.iter().filter(|c| !seen.contains(**c)).collect();
    assert!(missing.is_empty(), "codes without a fixture: {missing:?}");
}

#[test]
fn the_accepted_version_is_a_setting() {
    let text = read(&fixtures().join("rules/00_valid.json")).replace("\"1.0\"", "\"2.0\"");
    let d = run(&text);
    assert_eq!(d.len(), 1);
    // The runtime's words, then why: the document is of the 2.0 generation (told from its own
    // `version` and `state_modules`), and the fix to say "1.0".
    assert_eq!(
        d[0].message,
        "graph definition version must be \"1.0\", got \"2.0\": this is a definition of the \"2.0\" generation \
         (state_modules; Weaveflow 807985d to 0ad04ab); the current runtime reads the same state_modules shape as \
         version \"1.0\""
    );
    assert_eq!(d[0].fixes[0].edit, trellis_spec::FixEdit::SetVersion { version: "1.0".into() });
    let two = ValidateOptions { expected_version: "2.0".into() };
    assert_eq!(check_text(&text, None, &two).diagnostics, Vec::new());
    let d = check_text(&read(&fixtures().join("rules/00_valid.json")), None, &two).diagnostics;
    assert!(
        d[0].message.starts_with("graph definition version must be \"2.0\", got \"1.0\": "),
        "{}",
        d[0].message
    );
    // A version no generation has: the runtime's words alone, no fix.
    let d = run(&text.replacen("\"2.0\"", "\"3.1\"", 1));
    assert_eq!(d[0].message, "graph definition version must be \"1.0\", got \"3.1\"");
    assert!(d[0].fixes.is_empty());
}

#[test]
fn project_registry_types_are_accepted() {
    let text = read(&fixtures().join("rules/g01_unknown_node_type.json"));
    let mut registry = Registry::new();
    registry.describe(TypeInfo::named("http_call"), "test");
    let d = check_text(&text, Some(&registry), &ValidateOptions::default()).diagnostics;
    assert_eq!(d, Vec::new());
    // Without it, the known types are listed, including the project's when there is one.
    let d = run(&text);
    assert!(d[0].message.contains("Known types: llm_turn, agent"), "{}", d[0].message);
}

#[test]
fn diagnostics_point_at_the_element() {
    let d = run(&read(&fixtures().join("rules/v11d_edge_target_not_found.json")));
    assert_eq!(d[0].pointer, "/edges/2/to");
    assert_eq!(
        d[0].element,
        Some(trellis_spec::Element::Edge { index: 2, from: "a".into(), to: "ghost".into() })
    );
    let span = d[0].span.unwrap_or(trellis_spec::Span { line: 0, column: 0, offset: 0, length: 0 });
    assert!(span.line > 1);
}

/// Trellis's built-in GraphSpec types are no Weaveflow types: with the registry the app and
/// the command line pass (built-in types under the project's), `http` is still unknown, as the
/// Weaveflow runtime would find it; a project's own type is known.
#[test]
fn graphspec_built_in_types_are_unknown_in_a_weaveflow_document() {
    let text = read(&fixtures().join("rules/g10_graphspec_type_is_unknown.json"));
    let mut registry = trellis_spec::builtin::default_registry();
    let d = check_text(&text, Some(&registry), &ValidateOptions::default()).diagnostics;
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0].code, "weaveflow/unknown-node-type");
    assert!(!d[0].message.contains("mcp_tool") && !d[0].message.contains("classifier"), "{}", d[0].message);
    registry.describe(TypeInfo::named("http"), "project.registry.json");
    assert_eq!(check_text(&text, Some(&registry), &ValidateOptions::default()).diagnostics, Vec::new());
}
