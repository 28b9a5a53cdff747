//! GraphSpec conformance against the shared corpus (`../shared/corpus/ilmek`):
//! every case of `cases/cases.json` at its stage with its message pattern, the `support`
//! document round-tripping to an equal value, and the two `support-agent` documents refused
//! for their undeclared channel `intent`.
//!
//! The corpus lives beside the repository; a missing corpus fails these tests (never skips).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use regex::Regex;
use serde_json::{json, Map, Value};
use trellis_spec::executor::{self, RunStatus};
use trellis_spec::{
    from_spec, parse_spec, to_canonical_string, to_spec, validate, Built, Diagnostic, GraphSpec, Registry,
    State,
};

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/ilmek")
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("corpus file {} unreadable: {e}", path.display()))
}

/// A registry with the listed types. `set_intent` writes its config's `intent`, `say` appends
/// its config's `text` to `messages`; anything else returns no update.
fn registry(types: &[&str]) -> Registry {
    let mut r = Registry::new();
    for &t in types {
        match t {
            "set_intent" => r.register(t, |config: &Value| {
                let intent = config.get("intent").cloned().unwrap_or(Value::Null);
                Built::Node(Arc::new(move |_: &State| {
                    let mut u = Map::new();
                    u.insert("intent".into(), intent.clone());
                    Ok(u)
                }))
            }),
            "say" => r.register(t, |config: &Value| {
                let text = config.get("text").cloned().unwrap_or(Value::Null);
                Built::Node(Arc::new(move |_: &State| {
                    let mut u = Map::new();
                    u.insert("messages".into(), text.clone());
                    Ok(u)
                }))
            }),
            _ => r.register(t, |_: &Value| Built::Node(Arc::new(|_: &State| Ok(Map::new())))),
        };
    }
    r
}

fn parsed(text: &str, file: &str) -> GraphSpec {
    let p = parse_spec(text);
    assert!(
        !p.diagnostics.iter().any(Diagnostic::is_error),
        "{file}: reading reported errors: {:?}",
        p.diagnostics
    );
    p.spec.unwrap_or_else(|| panic!("{file}: no document"))
}

/// The document as `toSpec` writes it: `name` null when absent, `reducer` and `config` always.
fn with_defaults(mut v: Value) -> Value {
    let Some(o) = v.as_object_mut() else { return v };
    o.entry("name").or_insert(Value::Null);
    let channels = o.entry("channels").or_insert(json!({}));
    if let Some(chs) = channels.as_object_mut() {
        for ch in chs.values_mut() {
            if let Some(ch) = ch.as_object_mut() {
                ch.entry("reducer").or_insert(json!("last_write"));
            }
        }
    }
    let nodes = o.entry("nodes").or_insert(json!([]));
    if let Some(ns) = nodes.as_array_mut() {
        for n in ns {
            if let Some(n) = n.as_object_mut() {
                n.entry("config").or_insert(json!({}));
            }
        }
    }
    o.entry("edges").or_insert(json!([]));
    // Key order of the canonical shape, so equality below is also order-exact.
    let mut out = Map::new();
    for k in ["name", "channels", "nodes", "edges"] {
        if let Some(v) = o.remove(k) {
            out.insert(k.into(), v);
        }
    }
    Value::Object(out)
}

fn matching<'a>(diags: &'a [Diagnostic], re: &Regex) -> Option<&'a Diagnostic> {
    diags.iter().find(|d| d.is_error() && re.is_match(&d.message))
}

#[test]
fn every_case_behaves_as_listed() {
    let cases: Value = serde_json::from_str(&read(&corpus().join("cases/cases.json"))).expect("cases.json");
    let cases = cases["cases"].as_array().expect("cases list");
    assert!(cases.len() >= 12, "the corpus lists 12 cases, found {}", cases.len());
    let mut checked = 0;
    for case in cases {
        let file = case["file"].as_str().expect("file");
        let types: Vec<&str> =
            case["registry_types"].as_array().expect("types").iter().filter_map(Value::as_str).collect();
        let reg = registry(&types);
        let stage = case["expect"]["stage"].as_str().expect("stage");
        let ok = case["expect"]["outcome"] == "ok";
        let re = case["expect"]["message_regex"].as_str().map(|r| Regex::new(r).expect("regex"));
        let text = read(&corpus().join("cases").join(file));
        let spec = parsed(&text, file);
        // The one validator must agree with the stage that fails.
        let all = validate(&spec, Some(&reg));

        let graph = from_spec(&spec, &reg);
        if stage == "fromSpec" {
            let errs = graph.err().unwrap_or_else(|| panic!("{file}: fromSpec should fail"));
            let re = re.as_ref().expect("fromSpec cases have a pattern");
            assert!(matching(&errs, re).is_some(), "{file}: no fromSpec error matches {re}: {errs:?}");
            assert!(matching(&all, re).is_some(), "{file}: validate misses {re}: {all:?}");
            checked += 1;
            continue;
        }
        let graph = graph.unwrap_or_else(|e| panic!("{file}: fromSpec failed: {e:?}"));
        let compiled = graph.compile();
        if stage == "compile" && !ok {
            let errs = compiled.err().unwrap_or_else(|| panic!("{file}: compile should fail"));
            let re = re.as_ref().expect("compile error cases have a pattern");
            assert!(matching(&errs, re).is_some(), "{file}: no compile error matches {re}: {errs:?}");
            assert!(matching(&all, re).is_some(), "{file}: validate misses {re}: {all:?}");
            checked += 1;
            continue;
        }
        let compiled = compiled.unwrap_or_else(|e| panic!("{file}: compile failed: {e:?}"));
        assert!(!all.iter().any(Diagnostic::is_error), "{file}: validate reports errors: {all:?}");
        let back = to_spec(&compiled).unwrap_or_else(|e| panic!("{file}: toSpec failed: {e:?}"));
        let original: Value = serde_json::from_str(&text).expect("json");
        let back_value = serde_json::to_value(&back).expect("to value");
        assert_eq!(back_value, with_defaults(original.clone()), "{file}: toSpec is not the document");
        // The canonical text parses back to the same document.
        let canonical = to_canonical_string(&back);
        assert_eq!(parsed(&canonical, file), back, "{file}: canonical text does not read back");

        match file {
            "spec.test-DOC.json" => {
                assert_eq!(back_value, original, "{file}: must deep-equal the document");
                // The file is `JSON.stringify(doc, null, 2)`; the canonical writer gives the same
                // bytes (plus the final newline).
                assert_eq!(canonical.trim_end(), text.trim_end(), "{file}: canonical text differs");
                let r = executor::run(&compiled, State::new(), executor::DEFAULT_LIMIT);
                assert_eq!(r.status, RunStatus::Done, "{file}: {r:?}");
                assert_eq!(r.state.get("messages"), Some(&json!(["bought"])), "{file}");
            }
            "spec.test-browsing.json" => {
                let r = executor::run(&compiled, State::new(), executor::DEFAULT_LIMIT);
                assert_eq!(r.status, RunStatus::Done, "{file}: {r:?}");
                assert_eq!(r.state.get("messages"), Some(&json!(["browsed"])), "{file}");
            }
            "boundaries-null-name.json" => assert_eq!(back_value["name"], Value::Null),
            "boundaries-channel-no-reducer.json" => {
                assert_eq!(back_value["channels"], json!({"v": {"reducer": "last_write"}}));
                assert_eq!(back_value["nodes"][0]["config"], json!({}));
                assert_ne!(back_value, original, "not byte-identical: config {{}} is added");
            }
            _ => {}
        }
        checked += 1;
    }
    assert_eq!(checked, cases.len());
}

#[test]
fn the_support_example_round_trips_to_an_equal_value() {
    let text = read(&corpus().join("docs/graphs-as-data.mdx-support.json"));
    let spec = parsed(&text, "support");
    let reg = registry(&["llm"]);
    let compiled = from_spec(&spec, &reg).expect("fromSpec").compile().expect("compile");
    let back = serde_json::to_value(to_spec(&compiled).expect("toSpec")).expect("value");
    let original: Value = serde_json::from_str(&text).expect("json");
    assert_eq!(back, original);
    assert!(validate(&spec, Some(&reg)).is_empty());
}

#[test]
fn the_support_agent_examples_are_refused_for_channel_intent() {
    for file in ["MODEL.md-s9-support-agent.json", "graphs-as-data.mdx-support-agent.json"] {
        let spec = parsed(&read(&corpus().join("docs").join(file)), file);
        let reg = registry(&["llm", "http"]);
        let errs = from_spec(&spec, &reg).err().unwrap_or_else(|| panic!("{file}: must be refused"));
        let d = errs.iter().find(|d| d.code == "spec/undeclared-channel").expect("undeclared channel");
        assert!(d.message.contains("channel \"intent\""), "{}", d.message);
        assert_eq!(d.pointer, "/edges/1/when/channel");
        let all = validate(&spec, None);
        assert!(all.iter().any(|d| d.code == "spec/undeclared-channel" && d.message.contains("\"intent\"")));
    }
}
