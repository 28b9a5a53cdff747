//! Any bytes as a registry manifest: read -> a registry -> each type's config schema compiled
//! and its defaults checked through a one-node document. Nothing may panic (a hostile schema,
//! a backtracking pattern or a remote `$ref` is refused or answered, never fetched).
//!
//! Run: `cargo +nightly fuzz run registry_manifest -- -max_total_time=60`; seeds: the manifests
//! under `crates/spec/tests/fixtures/registry` (scripts/fuzz.sh copies them).
#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::{json, Value};
use trellis_spec::config_check::check_configs;
use trellis_spec::manifest::parse_manifest;
use trellis_spec::parse_spec;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let (Some(manifest), _) = parse_manifest(text, "fuzz.registry.json") else { return };
    let registry = manifest.to_registry("fuzz.registry.json");
    // One document naming every type, each node configured with its type's defaults.
    let nodes: Vec<Value> = manifest
        .types
        .iter()
        .take(64)
        .enumerate()
        .map(|(i, t)| json!({"id": format!("n{i}"), "type": t.type_name, "config": t.defaults.clone().unwrap_or(json!({}))}))
        .collect();
    let doc = json!({"name": null, "channels": {}, "nodes": nodes, "edges": []});
    let Some(spec) = parse_spec(&doc.to_string()).spec else { return };
    let _ = check_configs(&spec, &registry);
});
