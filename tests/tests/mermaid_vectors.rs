//! The Mermaid conformance vectors: every `<case>.json` in `corpus/ilmek/viz` that has a
//! `<case>.mmd` beside it must render to exactly that text (after normalizing CRLF).
//!
//! As the reference harness does, the bare spec (with the case's routers and guards as
//! extras) is rendered, and, when the case has no routers or guards, the compiled graph too
//! (every node type mapped to a no-op): both must equal the `.mmd`.
//!
//! More vector folders can be checked by listing them in `TRELLIS_VIZ_DIRS` (colon-separated),
//! for example a checkout of the reference's full `conformance/viz`.

// Helpers outside #[test] functions are test code too.
#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::Value;
use trellis_spec::graph::from_spec;
use trellis_spec::mermaid::{render, render_compiled, MermaidExtras, MermaidOptions};
use trellis_spec::read::parse_spec;
use trellis_spec::registry::{Built, Registry, State, Update};

fn corpus_viz() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/corpus/ilmek/viz")
}

fn cases(dir: &Path) -> Vec<(PathBuf, PathBuf)> {
    let mut out: Vec<(PathBuf, PathBuf)> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()))
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .filter_map(|p| {
            let mmd = p.with_extension("mmd");
            mmd.exists().then_some((p, mmd))
        })
        .collect();
    out.sort();
    out
}

fn noop_registry(types: impl Iterator<Item = String>) -> Registry {
    let mut r = Registry::new();
    for t in types {
        r.register(t, |_| Built::Node(Arc::new(|_: &State| Ok(Update::new()))));
    }
    r
}

/// Renders one case both ways; returns the failures.
fn check_case(json_path: &Path, mmd_path: &Path) -> Vec<String> {
    let case: Value = serde_json::from_str(&std::fs::read_to_string(json_path).unwrap()).unwrap();
    let want = std::fs::read_to_string(mmd_path).unwrap().replace("\r\n", "\n");
    let spec_text = serde_json::to_string(&case["spec"]).unwrap();
    let parsed = parse_spec(&spec_text);
    let spec = parsed.spec.unwrap_or_else(|| panic!("{}: {:?}", json_path.display(), parsed.diagnostics));
    let extras = MermaidExtras {
        routers: serde_json::from_value(case.get("routers").cloned().unwrap_or(Value::Array(vec![])))
            .unwrap(),
        guards: serde_json::from_value(case.get("guards").cloned().unwrap_or(Value::Array(vec![]))).unwrap(),
    };
    let options: MermaidOptions = match case.get("options") {
        Some(o) => serde_json::from_value(o.clone()).unwrap(),
        None => MermaidOptions::default(),
    };
    let mut failures = Vec::new();
    let got = render(&spec, &extras, &options);
    if got != want {
        failures.push(format!("{} (spec):\n--- want\n{want}--- got\n{got}", json_path.display()));
    }
    if extras.routers.is_empty() && extras.guards.is_empty() {
        let registry =
            noop_registry(spec.nodes.iter().filter_map(|n| n.type_name.as_deref().map(String::from)));
        let compiled = from_spec(&spec, &registry).and_then(|g| g.compile()).unwrap();
        let got = render_compiled(&compiled, &options);
        if got != want {
            failures.push(format!("{} (compiled):\n--- want\n{want}--- got\n{got}", json_path.display()));
        }
    }
    failures
}

#[test]
fn corpus_vectors_render_byte_for_byte() {
    let found = cases(&corpus_viz());
    let names: Vec<String> =
        found.iter().map(|(j, _)| j.file_stem().unwrap().to_string_lossy().into_owned()).collect();
    // The corpus holds these two; a missing one would make this test vacuous.
    assert!(names.contains(&"support".to_owned()) && names.contains(&"predicates".to_owned()), "{names:?}");
    let failures: Vec<String> = found.iter().flat_map(|(j, m)| check_case(j, m)).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn extra_vector_folders_render_byte_for_byte() {
    let Ok(dirs) = std::env::var("TRELLIS_VIZ_DIRS") else { return };
    let mut checked = 0;
    let mut failures = Vec::new();
    for dir in dirs.split(':').filter(|d| !d.is_empty()) {
        for (j, m) in cases(Path::new(dir)) {
            checked += 1;
            failures.extend(check_case(&j, &m));
        }
    }
    assert!(checked > 0, "TRELLIS_VIZ_DIRS={dirs} holds no <case>.json with a <case>.mmd");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
