//! `docs/registry.md` lists the built-in types; the list is generated from the embedded
//! manifest and this test fails when the page is out of date.
//! `TRELLIS_UPDATE_DOCS=1 cargo nextest run -p trellis-spec --test registry_docs` rewrites it.

use std::fmt::Write as _;
use std::path::Path;

use serde_json::Value;
use trellis_spec::builtin;
use trellis_spec::registry::TypeOrigin;
use trellis_spec::TypeInfo;

const START: &str = "<!-- builtin-types:start -->";
const END: &str = "<!-- builtin-types:end -->";

/// The generated section: the runtime's published types, then Trellis's examples, each one
/// table per category (in manifest order).
fn generated() -> String {
    let manifest = builtin::manifest();
    let published: Vec<&TypeInfo> =
        manifest.types.iter().filter(|t| matches!(t.origin, Some(TypeOrigin::Runtime { .. }))).collect();
    let examples: Vec<&TypeInfo> =
        manifest.types.iter().filter(|t| !matches!(t.origin, Some(TypeOrigin::Runtime { .. }))).collect();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} types: {} published by the Ilmek runtime, {} Trellis examples.\n",
        manifest.types.len(),
        published.len(),
        examples.len()
    );
    let _ = writeln!(out, "### Published by Ilmek {}\n", builtin::ILMEK_VERSION);
    let mut packages: Vec<String> = Vec::new();
    for t in &published {
        if let Some(TypeOrigin::Runtime { package: Some(p), version, .. }) = &t.origin {
            let p = format!("`{p}` {version}");
            if !packages.contains(&p) {
                packages.push(p);
            }
        }
    }
    let _ = writeln!(
        out,
        "Described exactly as {} define them (config keys, the runtime's defaults, its build-time refusals).\n",
        packages.join(", ")
    );
    tables(&mut out, &published, true);
    let _ = writeln!(out, "### Trellis examples\n");
    let _ = writeln!(
        out,
        "No runtime publishes these: they serve the example graph and people starting from scratch. A runtime's type \
         of the same name replaces an example.\n"
    );
    tables(&mut out, &examples, false);
    out.push_str("`trellis registry show TYPE` prints a type's full documentation, field types, ranges and defaults.\n");
    out
}

/// One table per category of `types`; `runtime_defaults` adds the column of the defaults the
/// runtime applies to an absent field.
fn tables(out: &mut String, types: &[&TypeInfo], runtime_defaults: bool) {
    let mut categories: Vec<&str> = Vec::new();
    for t in types {
        let c = t.category.as_deref().unwrap_or("Other");
        if !categories.contains(&c) {
            categories.push(c);
        }
    }
    for c in &categories {
        let _ = writeln!(out, "#### {c}\n");
        if runtime_defaults {
            let _ = writeln!(
                out,
                "| type | package | what it does | config fields (`*` required, `=` the runtime's default) |"
            );
        } else {
            let _ = writeln!(out, "| type | title | what it does | config fields (`*` required) |");
        }
        let _ = writeln!(out, "|---|---|---|---|");
        for t in types.iter().filter(|t| t.category.as_deref().unwrap_or("Other") == *c) {
            let schema = t.config_schema.as_ref();
            let required: Vec<&str> = schema
                .and_then(|s| s.get("required"))
                .and_then(Value::as_array)
                .map(|r| r.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            let fields: Vec<String> = schema
                .and_then(|s| s.get("properties"))
                .and_then(Value::as_object)
                .map(|p| {
                    p.iter()
                        .map(|(k, prop)| {
                            let star = if required.contains(&k.as_str()) { "*" } else { "" };
                            match prop.get("default").filter(|_| runtime_defaults) {
                                Some(d) => format!("`{k}`{star} = `{d}`"),
                                None => format!("`{k}`{star}"),
                            }
                        })
                        .collect()
                })
                .unwrap_or_default();
            let second = if runtime_defaults {
                match &t.origin {
                    Some(TypeOrigin::Runtime { package: Some(p), .. }) => format!("`{p}`"),
                    _ => String::new(),
                }
            } else {
                t.title.clone().unwrap_or_default()
            };
            let _ = writeln!(
                out,
                "| `{}` | {second} | {} | {} |",
                t.type_name,
                t.description.as_deref().unwrap_or(""),
                if fields.is_empty() { "none".to_owned() } else { fields.join(", ") }
            );
        }
        out.push('\n');
    }
}

#[test]
fn the_builtin_type_list_in_the_docs_is_up_to_date() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/registry.md");
    let page = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let (Some(a), Some(b)) = (page.find(START), page.find(END)) else {
        panic!("{} lacks the {START} / {END} markers", path.display());
    };
    let current = &page[a + START.len()..b];
    let wanted = format!("\n{}", generated());
    if current == wanted {
        return;
    }
    if std::env::var_os("TRELLIS_UPDATE_DOCS").is_some() {
        let updated = format!("{}{START}{wanted}{}", &page[..a], &page[b..]);
        std::fs::write(&path, updated).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        return;
    }
    panic!("docs/registry.md's built-in type list is out of date; run with TRELLIS_UPDATE_DOCS=1");
}

#[test]
fn every_builtin_type_is_mentioned_in_the_docs() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/registry.md");
    let page = std::fs::read_to_string(&path).unwrap_or_default();
    for t in &builtin::manifest().types {
        assert!(
            page.contains(&format!("`{}`", t.type_name)),
            "docs/registry.md does not mention {}",
            t.type_name
        );
    }
}

#[test]
fn every_registry_and_config_code_is_documented() {
    use trellis_spec::{config_check::codes as c, config_schema::codes as s, manifest::codes as m};
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/diagnostics.md");
    let page = std::fs::read_to_string(&path).unwrap_or_default();
    for code in [
        m::MANIFEST_SHAPE,
        m::MISSING_TYPE,
        m::BAD_TYPE_NAME,
        m::FIELD_TYPE,
        m::UNKNOWN_FIELD,
        m::DUPLICATE_TYPE,
        m::INVALID_DEFAULTS,
        m::SCHEMA_NOT_OBJECT,
        s::INVALID_SCHEMA,
        s::EXTERNAL_REF,
        s::UNKNOWN_DIALECT,
        c::INVALID,
        c::MISSING_FIELD,
        c::UNKNOWN_FIELD,
        c::UNUSABLE_SCHEMA,
        c::DEPRECATED_TYPE,
        c::IGNORED_FIELD,
        c::HOST_CONVENTION,
    ] {
        assert!(page.contains(&format!("| `{code}` |")), "docs/diagnostics.md lacks {code}");
    }
}
