//! Any bytes through the whole GraphSpec path: read (UTF-8, JSON, structure) -> validate
//! (with and without a registry) -> from_spec -> compile -> to_spec -> canonical text ->
//! Mermaid. Nothing may panic, and whatever compiles must write canonical text that reads
//! back to the same document and is a fixed point.
//!
//! Run: `cargo +nightly fuzz run spec_pipeline -- -max_total_time=60` (from this folder's
//! parent); seeds: `fuzz/corpus/spec_pipeline` (fixtures are good seeds).
#![no_main]

use std::sync::Arc;

use libfuzzer_sys::fuzz_target;
use serde_json::{Map, Value};
use trellis_spec::mermaid::{render, MermaidExtras, MermaidOptions};
use trellis_spec::{
    from_spec, parse_spec, parse_spec_bytes, to_canonical_string, to_spec, validate, Built, Registry, State,
};

fuzz_target!(|data: &[u8]| {
    let parsed = parse_spec_bytes(data);
    let Some(spec) = parsed.spec else { return };
    let _ = validate(&spec, None);
    let _ = render(&spec, &MermaidExtras::default(), &MermaidOptions::default());
    // A registry that knows every type the document names: the interesting path is compile.
    let mut registry = Registry::new();
    for n in &spec.nodes {
        if let Some(t) = &n.type_name {
            registry.register(t.clone(), |_: &Value| Built::Node(Arc::new(|_: &State| Ok(Map::new()))));
        }
    }
    let diags = validate(&spec, Some(&registry));
    let Ok(graph) = from_spec(&spec, &registry) else { return };
    let Ok(compiled) = graph.compile() else { return };
    let _ = trellis_spec::mermaid::render_compiled(&compiled, &MermaidOptions::default());
    let back = to_spec(&compiled).expect("a compiled spec-built graph always serializes");
    assert_eq!(back, spec, "to_spec(compile(from_spec(s))) != s");
    let _ = diags;
    let text = to_canonical_string(&back);
    let again = parse_spec(&text).spec.expect("canonical text reads back");
    assert_eq!(again, back, "canonical text reads back to another document");
    assert_eq!(to_canonical_string(&again), text, "canonical text is not a fixed point");
});
