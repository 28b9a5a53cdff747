//! The whole core pipeline in one call, as a save or `trellis validate` runs it: parse,
//! validate, from_spec, compile, to_spec, canonical text. Used by the benchmarks and the
//! memory measurement example so both measure exactly the same work.

use std::sync::Arc;

use serde_json::{Map, Value};

use crate::diagnostic::{has_errors, Diagnostic};
use crate::graph::from_spec_validated;
use crate::read::parse_spec;
use crate::registry::{Built, Registry, State};
use crate::validate::validate;
use crate::writer::to_canonical_string;

/// A registry whose every listed type builds a node that returns no update.
pub fn noop_registry(types: &[&str]) -> Registry {
    let mut r = Registry::new();
    for t in types {
        r.register(*t, |_: &Value| Built::Node(Arc::new(|_: &State| Ok(Map::new()))));
    }
    r
}

/// The registry that knows every type [`crate::generate`] uses.
pub fn generated_registry() -> Registry {
    noop_registry(&["llm", "http", "tool", "classify", "say"])
}

/// parse -> validate -> from_spec -> compile -> to_spec -> canonical text. Returns the text,
/// or every diagnostic when something on the way is an error.
pub fn round_trip(text: &str, registry: &Registry) -> Result<String, Vec<Diagnostic>> {
    let parsed = parse_spec(text);
    let Some(spec) = parsed.spec else {
        return Err(parsed.diagnostics);
    };
    let mut diagnostics = parsed.diagnostics;
    diagnostics.extend(validate(&spec, Some(registry)));
    if has_errors(&diagnostics) {
        return Err(diagnostics);
    }
    // By value from here on: the document moves into the graph and back, never copied.
    // `validate` ran the fromSpec checks just now and found no error: not run again.
    let compiled = from_spec_validated(spec, registry)?.compile()?;
    let back = compiled.into_spec().map_err(|(_, problems)| problems)?;
    Ok(to_canonical_string(&back))
}
