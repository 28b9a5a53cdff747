//! The runtimes' own documents (`../shared/corpus/third-party/`: Ilmek's and Weaveflow's docs
//! and tests, none written for Trellis), each opened as the app opens it (`Session::from_text`),
//! held to what its `cases.json` says the runtime itself does with it:
//!
//! - a document the runtime loads opens with no error;
//! - a document the runtime refuses gets an error on the field the runtime names (for Ilmek,
//!   with the runtime's own words in `names.runtime_message`), except where the runtime refuses
//!   a name only its host knows (an MCP server, an agent, a skill): the editor cannot know it,
//!   so it opens without an error and the field is marked as resolved by the host;
//! - every document's findings are an insta snapshot (`snapshots/third_party__*.snap`).
//!
//! The corpus lives beside the repository; a missing corpus fails these tests (never skips).
//! `INSTA_UPDATE=always cargo nextest run -p trellis-tests --test corpus_third_party` rewrites
//! the snapshots.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::Value;
use trellis_doc::clock::ManualClock;
use trellis_doc::document::DocId;
use trellis_doc::registries::Registries;
use trellis_doc::session::Session;
use trellis_spec::{builtin, infer, manifest, Diagnostic, Registry, Severity};

fn corpus(folder: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/third-party").join(folder)
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("corpus file {} unreadable: {e}", path.display()))
}

/// The cases of a folder, checked to name every document in it (and nothing else).
fn cases(folder: &str) -> Vec<Value> {
    let dir = corpus(folder);
    let cases: Value = serde_json::from_str(&read(&dir.join("cases.json"))).expect("cases.json is JSON");
    let cases = cases["cases"].as_array().cloned().expect("a cases list");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| n.ends_with(".json") && n != "cases.json")
        .collect();
    files.sort();
    let mut named: Vec<String> = cases.iter().filter_map(|c| c["file"].as_str().map(str::to_owned)).collect();
    named.sort();
    assert_eq!(files, named, "{folder}: every document has a case, every case a document");
    cases
}

/// The built-in registry, plus the host's own types the case names (`echo`, `set`, `say`:
/// stand-ins the upstream test or page defines in code), described from the document's configs
/// as the app's "describe it" fix does.
fn registry_for(case: &Value, text: &str) -> Registry {
    let mut registry = builtin::default_registry();
    let doc: Value = serde_json::from_str(text).unwrap_or_default();
    let nodes = doc["nodes"].as_array().cloned().unwrap_or_default();
    let mut entries = Vec::new();
    for t in case["registry_types"].as_array().into_iter().flatten().filter_map(Value::as_str) {
        if registry.contains(t) {
            continue;
        }
        let configs: Vec<serde_json::Map<String, Value>> = nodes
            .iter()
            .filter(|n| n["type"] == t)
            .map(|n| n["config"].as_object().cloned().unwrap_or_default())
            .collect();
        let refs: Vec<&serde_json::Map<String, Value>> = configs.iter().collect();
        entries.push(infer::type_entry(t, &refs));
    }
    if !entries.is_empty() {
        let (host, problems) = manifest::parse_manifest(&infer::manifest_text(entries), "host.registry.json");
        assert!(problems.is_empty(), "{problems:?}");
        host.expect("the host's types").add_to(&mut registry, "host.registry.json");
    }
    registry
}

/// Opens `text` as the app does; `Err` is the refusal to open it.
fn open(file: &str, text: &str, registry: Registry) -> Result<Vec<Diagnostic>, Vec<Diagnostic>> {
    let clock = Arc::new(ManualClock::new(0));
    Session::from_text(DocId(1), Some(file), text, Registries::new(registry), clock)
        .map(|s| s.diagnostics().to_vec())
}

fn errors(ds: &[Diagnostic]) -> Vec<&Diagnostic> {
    ds.iter().filter(|d| d.severity == Severity::Error).collect()
}

/// Checks the findings against the insta snapshot of `file`; a mismatch is returned.
fn snapshot(file: &str, found: &Result<Vec<Diagnostic>, Vec<Diagnostic>>) -> Option<String> {
    let value = match found {
        Ok(ds) => serde_json::json!({"opened": true, "diagnostics": ds}),
        Err(ds) => serde_json::json!({"opened": false, "diagnostics": ds}),
    };
    let text = serde_json::to_string_pretty(&value).unwrap_or_default();
    let name = format!("third_party__{}", file.trim_end_matches(".json"));
    let mut settings = insta::Settings::clone_current();
    settings.set_prepend_module_to_snapshot(false);
    settings.set_omit_expression(true);
    settings.set_snapshot_path(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots"));
    let checked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        settings.bind(|| insta::assert_snapshot!(name, text));
    }));
    checked.err().map(|_| format!("{file}: the findings differ from the snapshot (see above)"))
}

/// The config field a runtime's refusal names, and whether the name is one only the host
/// resolves (formats.md §5.1).
fn refused_field(message: &str) -> (&'static str, bool) {
    for (words, field, host) in [
        ("config.text or config.textFrom", "text", false),
        ("needs config.server", "server", false),
        ("needs config.uri", "uri", false),
        ("needs config.agent", "agent", false),
        ("needs config.skill", "skill", false),
        ("config.to must be a channel name", "to", false),
        ("write to undeclared channel", "to", false),
        ("references MCP server", "server", true),
        ("references tool", "tool", true),
        ("references A2A agent", "agent", true),
        ("which the skill source does not hold", "skill", true),
    ] {
        if message.contains(words) {
            return (field, host);
        }
    }
    panic!("no field known for the runtime's message {message:?}")
}

#[test]
fn ilmek_documents_open_as_the_runtime_builds_them() {
    let mut failures = Vec::new();
    for case in cases("ilmek") {
        let file = case["file"].as_str().expect("a file name");
        let text = read(&corpus("ilmek").join(file));
        let registry = registry_for(&case, &text);
        let found = open(file, &text, registry.clone());
        failures.extend(snapshot(file, &found));
        let ds = found.unwrap_or_else(|ds| panic!("{file} does not open: {ds:?}"));
        let expect = &case["expect"];
        if expect["outcome"] == "ok" {
            assert!(errors(&ds).is_empty(), "{file}: the runtime loads it, Trellis finds {:#?}", errors(&ds));
            continue;
        }
        let message = expect["message"].as_str().expect("a refusal has a message");
        let (field, host) = refused_field(message);
        let on_field = |d: &&Diagnostic| {
            d.pointer.starts_with("/nodes/") && d.pointer.ends_with(&format!("/config/{field}"))
        };
        if host {
            // The name is the host's: the editor cannot know it, so it is no error; the form
            // says the host resolves it.
            assert!(errors(&ds).is_empty(), "{file}: a host-resolved name is no error: {:#?}", errors(&ds));
            let doc: Value = serde_json::from_str(&text).unwrap_or_default();
            let t = doc["nodes"][0]["type"].as_str().unwrap_or_default();
            let schema = registry.get(t).and_then(|nt| nt.info.config_schema.clone()).unwrap_or_default();
            assert_eq!(
                schema["properties"][field]["x-trellis-host-resolved"], true,
                "{file}: {t}.{field} is marked as resolved by the host"
            );
            continue;
        }
        let hit = errors(&ds).into_iter().find(on_field);
        let hit = hit.unwrap_or_else(|| panic!("{file}: no error on config field {field:?}: {ds:#?}"));
        if expect["stage"] == "fromSpec" {
            // The runtime's own words, exactly, for the user to match.
            assert_eq!(hit.names.runtime_message.as_deref(), Some(message), "{file}");
            assert!(hit.message.ends_with(message), "{file}: {}", hit.message);
        } else {
            // Only the run finds it (build never checks `to`): the editor's channel check does.
            assert_eq!(hit.code, "config/undeclared-channel", "{file}");
            assert!(
                message.contains(&format!("\"{}\"", hit.names.channel.as_deref().unwrap_or("?"))),
                "{file}"
            );
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A raw tool name where the host exposes `<server>__<tool>`: the runtime refuses it when the
/// host does not expose it. The editor cannot know what the host exposes, but it can say the
/// name does not have the form the host gives by default.
#[test]
fn a_raw_mcp_tool_name_is_a_warning_on_the_field() {
    let file = "AimTune__ilmek__ts__packages__mcp__test__mcp.test.ts__bad-raw-tool-name.json";
    let text = read(&corpus("ilmek").join(file));
    let ds = open(file, &text, builtin::default_registry()).expect("opens");
    let w = ds.iter().find(|d| d.code == "config/host-convention").expect("a warning");
    assert_eq!((w.severity, w.pointer.as_str()), (Severity::Warning, "/nodes/0/config/tool"));
    assert!(w.message.contains("\"github__\""), "{}", w.message);
}

/// The field a Weaveflow refusal names, as a pointer into the file.
fn weaveflow_pointer(message: &str) -> &'static str {
    for (words, at) in [
        ("graph entry point", "/entry_point"),
        ("graph definition version must be", "/version"),
        ("unknown field \"graph_id\"", "/graph_id"),
        ("unknown field \"id\"", ""),
    ] {
        if message.contains(words) {
            return at;
        }
    }
    panic!("no field known for the runtime's message {message:?}")
}

#[test]
fn weaveflow_documents_open_as_the_current_runtime_reads_them() {
    let mut failures = Vec::new();
    for case in cases("weaveflow") {
        let file = case["file"].as_str().expect("a file name");
        let text = read(&corpus("weaveflow").join(file));
        let found = open(file, &text, builtin::default_registry());
        failures.extend(snapshot(file, &found));
        let expect = &case["expect_v1_0"];
        if expect["validate"] == "ok" {
            let ds = found.unwrap_or_else(|ds| panic!("{file} does not open: {ds:?}"));
            assert!(
                errors(&ds).is_empty(),
                "{file}: the runtime validates it, Trellis finds {:#?}",
                errors(&ds)
            );
            continue;
        }
        let message = expect["message"].as_str().expect("a refusal has a message");
        match (weaveflow_pointer(message), &found) {
            // A single node, not a definition: refused when opening, naming its `id`.
            ("", Err(ds)) => {
                assert_eq!(ds.len(), 1, "{file}: one line");
                assert!(ds[0].message.starts_with("not a graph document: "), "{file}: {}", ds[0].message);
                assert!(ds[0].message.contains("`id`"), "{file}: {}", ds[0].message);
            }
            (at, Ok(ds)) if !at.is_empty() => {
                let hit = errors(ds).into_iter().find(|d| d.pointer == at);
                let hit = hit.unwrap_or_else(|| panic!("{file}: no error at {at}: {ds:#?}"));
                // The runtime's words lead the message; Trellis's reason follows.
                let words = message.trim_start_matches("invalid graph upload: ");
                assert!(hit.message.contains(words), "{file}: {:?} lacks {words:?}", hit.message);
            }
            (at, other) => panic!("{file}: expected a finding at {at:?}, got {other:?}"),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The version-2.0 documents (the Workbench's own sample and tests) open with the one refusal
/// the current runtime makes, its reason and the fix, and the old node types they use are named
/// with their replacements (warnings).
#[test]
fn two_zero_documents_say_why_and_name_the_renamed_types() {
    let file = "dengzii__weaveflow__internal__web__pages__workbench__graph-workspace__lint.test.ts__validSupervisorGraph.json";
    let ds = open(file, &read(&corpus("weaveflow").join(file)), builtin::default_registry()).expect("opens");
    let version = ds.iter().find(|d| d.pointer == "/version").expect("the version refusal");
    assert!(version.message.contains("the \"2.0\" generation"), "{}", version.message);
    assert_eq!(version.fixes.len(), 1, "{:?}", version.fixes);
    let renamed = ds.iter().find(|d| d.code == "weaveflow/replaced-node-type").expect("supervisor_finalize");
    assert_eq!(renamed.severity, Severity::Warning);
    assert!(renamed.message.contains("use \"supervisor_synthesis\""), "{}", renamed.message);
}
