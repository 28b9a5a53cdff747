//! The built-in default registry: common agent-workflow node types, embedded in the binary as
//! a manifest (`crates/spec/registry/default.registry.json`), so `trellis registry list` works
//! on a fresh clone and a graph builder has a palette before any project registry exists.
//!
//! It is metadata only (no factories): Trellis designs graphs, a runtime runs them. It is the
//! lowest layer of discovery; a project registry may redefine any of its types.

use std::sync::OnceLock;

use serde_json::{Map, Value};

use crate::diagnostic::Diagnostic;
use crate::manifest::{parse_manifest, parse_trusted_manifest, Manifest};
use crate::registry::Registry;

/// The `source` of built-in types.
pub const SOURCE: &str = "built-in";

/// The manifest text, as embedded.
pub const MANIFEST_TEXT: &str = include_str!("../registry/default.registry.json");

/// The built-in manifest, parsed once. Read the quick way (schemas not compiled): the text
/// is embedded and a test reads it the checked way and finds no problem, so every command that
/// needs a registry does not compile a dozen schemas at start.
pub fn manifest() -> &'static Manifest {
    static MANIFEST: OnceLock<Manifest> = OnceLock::new();
    MANIFEST.get_or_init(|| parse_trusted_manifest(MANIFEST_TEXT, SOURCE).unwrap_or_default())
}

/// Problems in the embedded manifest, read the checked way (always empty; a test keeps it so).
pub fn manifest_diagnostics() -> &'static [Diagnostic] {
    static DIAGNOSTICS: OnceLock<Vec<Diagnostic>> = OnceLock::new();
    DIAGNOSTICS.get_or_init(|| parse_manifest(MANIFEST_TEXT, SOURCE).1)
}

/// The built-in types as a registry, built once: a registry made from it (every discovery
/// starts with it) shares its types rather than copying them.
fn registry() -> &'static Registry {
    static REGISTRY: OnceLock<Registry> = OnceLock::new();
    REGISTRY.get_or_init(|| manifest().to_registry(SOURCE))
}

/// A fresh registry holding the built-in types, each with source [`SOURCE`].
pub fn default_registry() -> Registry {
    registry().clone()
}

/// The defaults of a built-in type (`{}` when it has none), `None` for a type that is not
/// built in. For any registry use [`crate::config_check::defaults_for`].
pub fn defaults(type_name: &str) -> Option<Map<String, Value>> {
    let info = manifest().types.iter().find(|t| t.type_name == type_name)?;
    Some(info.defaults.as_ref().and_then(Value::as_object).cloned().unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config_schema;

    #[test]
    fn the_embedded_manifest_is_clean() {
        assert!(manifest_diagnostics().is_empty(), "{:#?}", manifest_diagnostics());
        assert!(manifest().types.len() >= 12);
    }

    #[test]
    fn the_quick_reading_is_the_checked_one() {
        let (checked, diagnostics) = parse_manifest(MANIFEST_TEXT, SOURCE);
        assert!(diagnostics.is_empty());
        assert_eq!(Some(manifest()), checked.as_ref());
    }

    #[test]
    fn has_the_promised_types() {
        let r = default_registry();
        for t in [
            "llm",
            "tool_call",
            "http",
            "set_value",
            "append_message",
            "classifier",
            "judge",
            "human_approval",
            "human_input",
            "retrieval",
            "wait",
            "mcp_tool",
            "memory_read",
            "memory_write",
            "noop",
        ] {
            let node = r.get(t).unwrap_or_else(|| panic!("missing built-in type {t}"));
            assert_eq!(node.source, SOURCE);
            assert!(node.factory.is_none());
        }
    }

    #[test]
    fn every_type_is_complete_and_its_defaults_validate() {
        for t in &manifest().types {
            let name = &t.type_name;
            for (field, v) in
                [("title", &t.title), ("category", &t.category), ("description", &t.description)]
            {
                assert!(v.as_deref().is_some_and(|s| !s.is_empty()), "{name}: no {field}");
            }
            assert!(t.docs.as_deref().is_some_and(|d| d.starts_with("# ")), "{name}: docs");
            let schema = t.config_schema.as_ref().unwrap_or_else(|| panic!("{name}: no schema"));
            assert_eq!(schema["type"], "object", "{name}");
            assert_eq!(schema["additionalProperties"], false, "{name}");
            let props = schema["properties"].as_object().unwrap_or_else(|| panic!("{name}: no properties"));
            for (p, s) in props {
                assert!(s.get("description").is_some(), "{name}.{p}: no description");
                assert!(s.get("title").is_some(), "{name}.{p}: no title");
            }
            let validator = config_schema::compile(schema).unwrap_or_else(|p| panic!("{name}: {p:?}"));
            let defaults = t.defaults.clone().unwrap_or_else(|| panic!("{name}: no defaults"));
            let errors: Vec<String> = validator.iter_errors(&defaults).map(|e| e.to_string()).collect();
            assert!(errors.is_empty(), "{name}: defaults do not validate: {errors:?}");
            // Every default names a declared field.
            for k in defaults.as_object().map(|o| o.keys().collect::<Vec<_>>()).unwrap_or_default() {
                assert!(props.contains_key(k), "{name}: default {k} is not a property");
            }
        }
    }

    #[test]
    fn no_type_holds_executable_text() {
        // A stored graph carries no code: no field may be a script, an expression or a function.
        let banned =
            ["script", "code", "expression", "expr", "eval", "lambda", "function", "condition", "javascript"];
        for t in &manifest().types {
            let props = t
                .config_schema
                .as_ref()
                .and_then(|s| s["properties"].as_object().cloned())
                .unwrap_or_default();
            for p in props.keys() {
                let lower = p.to_lowercase();
                assert!(
                    !banned.iter().any(|b| lower.contains(b)),
                    "{}.{p} looks like executable text",
                    t.type_name
                );
            }
        }
    }

    #[test]
    fn categories_are_from_the_palette_list() {
        let known = ["Model", "Tools", "Control", "State", "Human", "Memory", "Retrieval"];
        for t in &manifest().types {
            let c = t.category.as_deref().unwrap_or_default();
            assert!(known.contains(&c), "{}: category {c}", t.type_name);
        }
    }

    #[test]
    fn defaults_lookup() {
        assert_eq!(defaults("noop"), Some(Map::new()));
        assert_eq!(
            defaults("llm").and_then(|d| d.get("model").cloned()),
            Some(Value::from("claude-opus-4-8"))
        );
        assert_eq!(defaults("nope"), None);
    }
}
