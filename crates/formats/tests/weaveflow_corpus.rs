//! Every Weaveflow example of the corpus reads, validates as recorded, and round-trips.

mod weaveflow_support;

use serde_json::Value;
use trellis_formats::weaveflow::{check_text, parse, to_string, ValidateOptions};
use weaveflow_support::{beside, expect, finish, fixtures, inputs, read, shared_corpus};

#[test]
fn corpus_copies_match_the_shared_corpus() {
    let shared = shared_corpus().join("weaveflow");
    if !shared.exists() {
        // A clean clone has only the copies; nothing to compare against.
        return;
    }
    for input in inputs(&fixtures().join("corpus")) {
        let name = input.file_name().unwrap_or_default();
        assert_eq!(
            read(&input),
            read(&shared.join(name)),
            "{} differs from the shared corpus",
            input.display()
        );
    }
}

#[test]
fn corpus_validates_as_recorded() {
    let files = inputs(&fixtures().join("corpus"));
    assert_eq!(files.len(), 4);
    let mut failures = Vec::new();
    for input in files {
        let parsed = check_text(&read(&input), None, &ValidateOptions::default());
        assert!(parsed.doc.is_some(), "{} did not read", input.display());
        let actual = serde_json::to_value(&parsed.diagnostics).unwrap_or_default();
        failures.extend(expect(&beside(&input, "diagnostics.json"), &actual));
    }
    finish(failures);
}

#[test]
fn corpus_round_trips_to_equal_values() {
    for input in inputs(&fixtures().join("corpus")) {
        let text = read(&input);
        let doc = parse(&text).doc.unwrap_or_else(|| panic!("{} did not read", input.display()));
        let written = to_string(&doc);
        let original: Value = serde_json::from_str(&text).unwrap_or_default();
        let back: Value = serde_json::from_str(&written).unwrap_or_default();
        assert_eq!(original, back, "{}", input.display());
        // Writing is idempotent: what the writer wrote, it writes again byte for byte.
        let again = to_string(&parse(&written).doc.unwrap_or_else(|| panic!("re-read {}", input.display())));
        assert_eq!(again, written, "{}", input.display());
    }
}

#[test]
fn files_already_in_writer_form_round_trip_byte_for_byte() {
    let mut identical = Vec::new();
    for input in inputs(&fixtures().join("corpus")) {
        let text = read(&input);
        let doc = parse(&text).doc.unwrap_or_else(|| panic!("{} did not read", input.display()));
        if to_string(&doc) == text {
            identical.push(input.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_owned());
        }
    }
    // assistant.json and supervisor_mode.json put small objects on one line, which the writer
    // (like Go's MarshalIndent) does not; their values still round-trip (test above).
    assert_eq!(identical, ["codespaces_demo.json", "state_operations.json"]);
}

#[test]
fn an_edit_changes_only_that_value() {
    let input = fixtures().join("corpus/supervisor_mode.json");
    let text = read(&input);
    let mut doc = parse(&text).doc.unwrap_or_else(|| panic!("read"));
    let before = to_string(&doc);
    doc.edit(|d| {
        d.nodes[0].config.insert("max_turns".into(), Value::from(8));
    });
    let after = to_string(&doc);
    let changed: Vec<(&str, &str)> = before.lines().zip(after.lines()).filter(|(a, b)| a != b).collect();
    assert_eq!(changed.len(), 1, "{changed:?}");
    assert!(
        changed[0].0.trim_start() == "\"max_turns\": 6," && changed[0].1.trim_start() == "\"max_turns\": 8,",
        "{changed:?}"
    );
    assert_eq!(before.lines().count(), after.lines().count());
}
