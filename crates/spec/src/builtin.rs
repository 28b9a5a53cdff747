//! The built-in registry, embedded in the binary as two manifests, so `trellis registry list`
//! works on a fresh clone and a graph builder has a palette before any project registry exists:
//!
//! - `crates/spec/registry/ilmek.registry.json`: the node types the Ilmek runtime publishes
//!   (`@ilmek/mcp`, `@ilmek/a2a`, `@ilmek/skills` 0.2.0), described exactly as the runtime
//!   defines them (`origin` says which package and version);
//! - `crates/spec/registry/examples.registry.json`: Trellis's own example types (`llm`, `http`,
//!   `judge`, ...), which no runtime publishes (`origin: {"kind": "example"}`). They serve the
//!   example graph and people starting from scratch.
//!
//! Where both name a type, the published one wins: the examples are layered under it.
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

/// The embedded manifests as (file name, text), published types first: where two name the
/// same type, the first one's is used.
pub const MANIFESTS: [(&str, &str); 2] = [
    ("ilmek.registry.json", include_str!("../registry/ilmek.registry.json")),
    ("examples.registry.json", include_str!("../registry/examples.registry.json")),
];

/// The version of the Ilmek packages whose types are built in (`@ilmek/mcp`, `@ilmek/a2a`,
/// `@ilmek/skills`), as their `origin` states it.
pub const ILMEK_VERSION: &str = "0.2.0";

/// The built-in types as one manifest (published types, then the examples whose names no
/// published type takes), parsed once. Read the quick way (schemas not compiled): the texts
/// are embedded and a test reads them the checked way and finds no problem, so every command
/// that needs a registry does not compile a dozen schemas at start.
pub fn manifest() -> &'static Manifest {
    static MANIFEST: OnceLock<Manifest> = OnceLock::new();
    MANIFEST.get_or_init(|| {
        layered(MANIFESTS.iter().map(|(_, text)| parse_trusted_manifest(text, SOURCE).unwrap_or_default()))
    })
}

/// The manifests as one, in order; a type a former manifest already has is left out (so the
/// published type wins over an example of the same name).
pub(crate) fn layered(manifests: impl IntoIterator<Item = Manifest>) -> Manifest {
    let mut out = Manifest { name: Some("built-in".into()), ..Manifest::default() };
    for m in manifests {
        for (info, entry) in m.types.into_iter().zip(m.entries) {
            if !out.types.iter().any(|t| t.type_name == info.type_name) {
                out.types.push(info);
                out.entries.push(entry);
            }
        }
    }
    out
}

/// Problems in the embedded manifests, read the checked way (always empty; a test keeps it so).
pub fn manifest_diagnostics() -> &'static [Diagnostic] {
    static DIAGNOSTICS: OnceLock<Vec<Diagnostic>> = OnceLock::new();
    DIAGNOSTICS
        .get_or_init(|| MANIFESTS.iter().flat_map(|(name, text)| parse_manifest(text, name).1).collect())
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
        let checked = layered(MANIFESTS.iter().map(|(name, text)| {
            let (m, diagnostics) = parse_manifest(text, SOURCE);
            assert!(diagnostics.is_empty(), "{name}: {diagnostics:?}");
            m.unwrap_or_default()
        }));
        assert_eq!(manifest(), &checked);
    }

    #[test]
    fn a_published_type_wins_over_an_example_of_the_same_name() {
        let read = |text: &str| parse_manifest(text, "m").0.unwrap_or_default();
        let published = read(
            r#"{"types": [{"type": "mcp_tool", "title": "runtime's",
            "origin": {"kind": "runtime", "runtime": "Ilmek", "version": "0.2.0"}}]}"#,
        );
        let examples = read(
            r#"{"types": [{"type": "llm", "origin": {"kind": "example"}},
            {"type": "mcp_tool", "title": "example's", "origin": {"kind": "example"}}]}"#,
        );
        let both = layered([published, examples]);
        let names: Vec<(&str, Option<&str>)> =
            both.types.iter().map(|t| (t.type_name.as_str(), t.title.as_deref())).collect();
        assert_eq!(names, [("mcp_tool", Some("runtime's")), ("llm", None)]);
    }

    #[test]
    fn every_type_says_who_publishes_it() {
        use crate::registry::TypeOrigin;
        let published = ["mcp_tool", "mcp_resource", "a2a_call", "skill", "skills"];
        for t in &manifest().types {
            match &t.origin {
                Some(TypeOrigin::Runtime { runtime, package, version, source }) => {
                    assert!(published.contains(&t.type_name.as_str()), "{} is not published", t.type_name);
                    assert_eq!(
                        (runtime.as_str(), version.as_str()),
                        ("Ilmek", ILMEK_VERSION),
                        "{}",
                        t.type_name
                    );
                    assert!(package.as_deref().is_some_and(|p| p.starts_with("@ilmek/")), "{}", t.type_name);
                    assert!(source.is_some(), "{}", t.type_name);
                }
                Some(TypeOrigin::Example) => {
                    assert!(!published.contains(&t.type_name.as_str()), "{} is published", t.type_name)
                }
                None => panic!("{} has no origin", t.type_name),
            }
        }
        for name in published {
            assert!(manifest().types.iter().any(|t| t.type_name == name), "{name} is not built in");
        }
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
            "mcp_resource",
            "a2a_call",
            "skill",
            "skills",
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
            // An example type is closed; a published type takes any other key as its runtime
            // does (it ignores them), and says so for the "ignored field" warning.
            match t.origin {
                Some(crate::registry::TypeOrigin::Example) => {
                    assert_eq!(schema["additionalProperties"], false, "{name}")
                }
                _ => assert_eq!(schema["x-trellis-unknown-fields"], "ignored", "{name}"),
            }
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
        let known =
            ["MCP", "A2A", "Skills", "Model", "Tools", "Control", "State", "Human", "Memory", "Retrieval"];
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
