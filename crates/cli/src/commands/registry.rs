//! `trellis registry list [--format json]` and `trellis registry show TYPE [--format json]`
//! (`registry infer` is in `registry_infer.rs`).
//!
//! Both use the registries a document in the current folder (or `--near PATH`) would be
//! checked against: the built-in registry, the `--registry` files and, unless
//! `--no-discover`, the `*.registry.json` files found from that folder up to the repository
//! root. Problems in registry files go to stderr (exit 1 when any is an error); the listing is
//! printed anyway, since the usable types still are.

use std::fmt::Write as _;
use std::path::PathBuf;

use serde::Serialize;
use serde_json::{Map, Value};
use trellis_spec::registry::{NodeType, Registry};

use crate::registries::{self, Registries};
use crate::report::{self, Exit, OutputFormat};

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub command: RegistryCommand,
}

/// Where to look for registries (shared by both subcommands).
#[derive(Debug, Clone, clap::Args)]
pub struct Sources {
    /// A registry file to add on top of the built-in registry (repeatable).
    #[arg(long = "registry", value_name = "FILE")]
    pub registries: Vec<PathBuf>,
    /// Discover registries from this document or folder instead of the current folder.
    #[arg(long, value_name = "PATH")]
    pub near: Option<PathBuf>,
    /// Do not look for `*.registry.json` files (built-in and `--registry` files only).
    #[arg(long)]
    pub no_discover: bool,
}

#[derive(Debug, clap::Subcommand)]
pub enum RegistryCommand {
    /// List the node types, grouped by category.
    List {
        /// Output format.
        #[arg(long, value_enum, default_value_t = OutputFormat::Human)]
        format: OutputFormat,
        #[command(flatten)]
        sources: Sources,
    },
    /// Show one node type: description, config fields with their types and defaults, docs.
    Show {
        /// The type name.
        #[arg(value_name = "TYPE")]
        type_name: String,
        /// Output format.
        #[arg(long, value_enum, default_value_t = OutputFormat::Human)]
        format: OutputFormat,
        #[command(flatten)]
        sources: Sources,
    },
    /// Write a manifest describing every node type the documents use that no registry
    /// describes (config schemas inferred from their configs).
    Infer(super::registry_infer::InferArgs),
}

pub fn run(args: Args) -> Exit {
    match args.command {
        RegistryCommand::List { format, sources } => list(format, &sources),
        RegistryCommand::Show { type_name, format, sources } => show(&type_name, format, &sources),
        RegistryCommand::Infer(args) => super::registry_infer::run(args),
    }
}

fn load(sources: &Sources) -> Registries {
    // Discovery starts from a document's folder; a folder itself is given as `folder/.`.
    let near = sources.near.clone().unwrap_or_else(|| PathBuf::from("."));
    let start = if near.is_dir() { near.join(".") } else { near };
    let regs = registries::load(&sources.registries, !sources.no_discover, &[start]);
    if !regs.reports.is_empty() {
        report::print(&regs.reports, OutputFormat::Human, true);
    }
    regs
}

fn list(format: OutputFormat, sources: &Sources) -> Exit {
    let regs = load(sources);
    let exit = regs.exit.unwrap_or(Exit::Clean);
    let Some(registry) = regs.registry.as_ref() else { return exit };
    let text = match format {
        OutputFormat::Human => list_human(registry),
        OutputFormat::Json => list_json(registry, &regs),
    };
    report::write_stdout(&text);
    exit
}

/// Categories in order of first appearance; types without one go under "Other", last.
fn by_category(registry: &Registry) -> Vec<(String, Vec<&NodeType>)> {
    let mut groups: Vec<(String, Vec<&NodeType>)> = Vec::new();
    let mut other = Vec::new();
    for t in registry.types() {
        match t.info.category.as_deref().filter(|c| !c.trim().is_empty()) {
            Some(c) => match groups.iter_mut().find(|(name, _)| name == c) {
                Some((_, list)) => list.push(t),
                None => groups.push((c.to_owned(), vec![t])),
            },
            None => other.push(t),
        }
    }
    if !other.is_empty() {
        groups.push(("Other".to_owned(), other));
    }
    groups
}

fn list_human(registry: &Registry) -> String {
    let width = |f: &dyn Fn(&NodeType) -> usize| registry.types().map(f).max().unwrap_or(0);
    let w_type = width(&|t| t.info.type_name.chars().count());
    let w_title = width(&|t| t.info.title.as_deref().unwrap_or("").chars().count());
    let mut out = String::new();
    for (category, types) in by_category(registry) {
        let _ = writeln!(out, "{category}");
        for t in types {
            let title = t.info.title.as_deref().unwrap_or("");
            let deprecated =
                if t.info.deprecated.as_ref().is_some_and(is_deprecated) { "  (deprecated)" } else { "" };
            let origin = t.info.origin.as_ref().map(|o| format!(" ({})", o.label())).unwrap_or_default();
            let _ = writeln!(
                out,
                "  {:<w_type$}  {:<w_title$}  {}{origin}{deprecated}",
                t.info.type_name, title, t.source
            );
        }
    }
    let sources: std::collections::BTreeSet<&str> = registry.types().map(|t| t.source.as_str()).collect();
    let _ = writeln!(
        out,
        "{} type{} from {} registr{}",
        registry.len(),
        if registry.len() == 1 { "" } else { "s" },
        sources.len(),
        if sources.len() == 1 { "y" } else { "ies" }
    );
    out
}

fn is_deprecated(v: &Value) -> bool {
    !matches!(v, Value::Bool(false))
}

#[derive(Serialize)]
struct JsonType<'a> {
    #[serde(flatten)]
    info: &'a trellis_spec::TypeInfo,
    source: &'a str,
}

#[derive(Serialize)]
struct JsonList<'a> {
    types: Vec<JsonType<'a>>,
    /// Registry files read, in layer order (the built-in registry is not a file).
    files: Vec<String>,
}

fn list_json(registry: &Registry, regs: &Registries) -> String {
    let doc = JsonList {
        types: registry.types().map(|t| JsonType { info: &t.info, source: &t.source }).collect(),
        files: regs.files.iter().map(|p| p.display().to_string()).collect(),
    };
    let mut s = serde_json::to_string_pretty(&doc).unwrap_or_default();
    s.push('\n');
    s
}

fn show(type_name: &str, format: OutputFormat, sources: &Sources) -> Exit {
    let regs = load(sources);
    let exit = regs.exit.unwrap_or(Exit::Clean);
    let Some(registry) = regs.registry.as_ref() else { return exit };
    let Some(t) = registry.get(type_name) else {
        let hint = closest(type_name, registry.type_names());
        report::note(&format!(
            "no type \"{type_name}\" in the registry{hint}; `trellis registry list` shows the {} known types",
            registry.len()
        ));
        return Exit::Problems;
    };
    let text = match format {
        OutputFormat::Human => show_human(t),
        OutputFormat::Json => {
            let mut s = serde_json::to_string_pretty(&JsonType { info: &t.info, source: &t.source })
                .unwrap_or_default();
            s.push('\n');
            s
        }
    };
    report::write_stdout(&text);
    exit
}

fn closest<'a>(name: &str, known: impl Iterator<Item = &'a str>) -> String {
    known
        .map(|k| (strsim::damerau_levenshtein(name, k), k))
        .filter(|(d, _)| *d <= 3)
        .min()
        .map(|(_, k)| format!(" (did you mean \"{k}\"?)"))
        .unwrap_or_default()
}

fn show_human(t: &NodeType) -> String {
    let info = &t.info;
    let mut out = String::new();
    let title = info.title.as_deref().map(|s| format!(" — {s}")).unwrap_or_default();
    let _ = writeln!(out, "{}{title}", info.type_name);
    let mut facts = vec![format!("source: {}", t.source)];
    if let Some(c) = &info.category {
        facts.insert(0, format!("category: {c}"));
    }
    if let Some(v) = &info.version {
        facts.push(format!("version: {v}"));
    }
    if let Some(o) = &info.origin {
        facts.push(match o {
            trellis_spec::registry::TypeOrigin::Example => {
                "a Trellis example: no runtime publishes it".to_owned()
            }
            _ => format!("published by {}", o.label()),
        });
    }
    let _ = writeln!(out, "{}", facts.join(", "));
    match &info.deprecated {
        Some(Value::String(note)) => {
            let _ = writeln!(out, "DEPRECATED: {note}");
        }
        Some(Value::Bool(true)) => {
            let _ = writeln!(out, "DEPRECATED");
        }
        _ => {}
    }
    if let Some(d) = &info.description {
        let _ = writeln!(out, "\n{d}");
    }
    let defaults = info.defaults.as_ref().and_then(Value::as_object);
    match &info.config_schema {
        None => {
            let _ = writeln!(out, "\nConfig: any object (the type has no config schema).");
        }
        Some(schema) => {
            out.push_str("\nConfig fields:\n");
            out.push_str(&fields_table(schema, defaults));
        }
    }
    if let Some(docs) = &info.docs {
        let _ = writeln!(out, "\nDocumentation:\n");
        out.push_str(docs.trim_end());
        out.push('\n');
    }
    out
}

/// One block per property: name, `*` if required, its type and constraints, its default, and
/// its description on the next line.
fn fields_table(schema: &Value, defaults: Option<&Map<String, Value>>) -> String {
    let props = schema.get("properties").and_then(Value::as_object);
    let required: Vec<&str> = schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let mut out = String::new();
    let Some(props) = props.filter(|p| !p.is_empty()) else {
        let extra = schema.get("additionalProperties") == Some(&Value::Bool(false));
        out.push_str(if extra {
            "  (none: the config must be empty)\n"
        } else {
            "  (not listed by the schema)\n"
        });
        return out;
    };
    let width = props.keys().map(|k| k.chars().count()).max().unwrap_or(0) + 2;
    for (name, prop) in props {
        let mark = if required.contains(&name.as_str()) { " *" } else { "" };
        let label = format!("{name}{mark}");
        let mut line = format!("  {label:<width$}  {}", describe_type(prop));
        if let Some(d) = defaults.and_then(|d| d.get(name)) {
            let _ = write!(line, "  [default: {}]", serde_json::to_string(d).unwrap_or_default());
        }
        let _ = writeln!(out, "{line}");
        if let Some(desc) = prop.get("description").and_then(Value::as_str) {
            let _ = writeln!(out, "  {:<width$}  {desc}", "");
        }
    }
    if !required.is_empty() {
        out.push_str("  (* required)\n");
    }
    if schema.get("additionalProperties") == Some(&Value::Bool(false)) {
        out.push_str("  Other fields are not allowed.\n");
    }
    out
}

/// "number, 0..2", "one of: GET, POST", "array of string, unique", "string, 1..200 chars".
fn describe_type(prop: &Value) -> String {
    if let Some(options) = prop.get("enum").and_then(Value::as_array) {
        let shown: Vec<String> =
            options.iter().map(|o| o.as_str().map_or_else(|| o.to_string(), str::to_owned)).collect();
        return format!("one of: {}", shown.join(", "));
    }
    if let Some(c) = prop.get("const") {
        return format!("exactly {c}");
    }
    let ty = match prop.get("type") {
        Some(Value::String(t)) => t.clone(),
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect::<Vec<_>>().join(" or "),
        _ => "any JSON value".to_owned(),
    };
    let mut parts = vec![ty.clone()];
    if ty == "array" {
        if let Some(item) = prop.get("items").and_then(|i| i.get("type")).and_then(Value::as_str) {
            parts[0] = format!("array of {item}");
        }
    }
    let range = |lo: &str, hi: &str, unit: &str| -> Option<String> {
        let lo = prop.get(lo).map(ToString::to_string);
        let hi = prop.get(hi).map(ToString::to_string);
        match (lo, hi) {
            (None, None) => None,
            (Some(l), Some(h)) => Some(format!("{l}..{h}{unit}")),
            (Some(l), None) => Some(format!(">= {l}{unit}")),
            (None, Some(h)) => Some(format!("<= {h}{unit}")),
        }
    };
    parts.extend(range("minimum", "maximum", ""));
    if let Some(x) = prop.get("exclusiveMinimum") {
        parts.push(format!("> {x}"));
    }
    if let Some(x) = prop.get("exclusiveMaximum") {
        parts.push(format!("< {x}"));
    }
    parts.extend(range("minLength", "maxLength", " chars"));
    parts.extend(range("minItems", "maxItems", " items"));
    if prop.get("uniqueItems") == Some(&Value::Bool(true)) {
        parts.push("unique".to_owned());
    }
    if let Some(p) = prop.get("pattern").and_then(Value::as_str) {
        parts.push(format!("pattern {p}"));
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use trellis_spec::builtin;

    #[test]
    fn list_groups_by_category_and_names_the_source() {
        let text = list_human(&builtin::default_registry());
        // The runtime's published types come first, each saying who publishes it.
        assert!(text.starts_with("MCP\n  mcp_tool "), "{text}");
        assert!(text.contains("\nModel\n  llm "), "{text}");
        assert!(
            text.lines().any(|l| l.trim_start().starts_with("mcp_tool")
                && l.ends_with("built-in (@ilmek/mcp 0.2.0 (Ilmek))")),
            "{text}"
        );
        assert!(
            text.lines()
                .any(|l| l.trim_start().starts_with("http") && l.ends_with("built-in (Trellis example)")),
            "{text}"
        );
        assert!(text.ends_with("types from 1 registry\n"), "{text}");
        for t in builtin::manifest().types.iter() {
            assert!(text.contains(&format!("  {} ", t.type_name)), "{}", t.type_name);
        }
    }

    #[test]
    fn show_lists_fields_with_types_and_defaults() {
        let r = builtin::default_registry();
        let text = show_human(r.get("llm").expect("llm"));
        assert!(
            text.starts_with(
                "llm — LLM call\ncategory: Model, source: built-in, version: 1.0.0, a Trellis example: no runtime publishes it\n"
            ),
            "{text}"
        );
        let temp = text.lines().find(|l| l.trim_start().starts_with("temperature")).unwrap_or_default();
        assert!(temp.contains("number, 0..2") && temp.contains("[default: 0.7]"), "{temp}");
        let method = show_human(r.get("http").expect("http"));
        assert!(method.contains("url *"), "{method}");
        assert!(method.contains("one of: GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS"), "{method}");
        assert!(method.contains("Documentation:\n\n# HTTP request"), "{method}");
    }

    #[test]
    fn close_names_are_suggested() {
        let r = builtin::default_registry();
        assert_eq!(closest("htp", r.type_names()), " (did you mean \"http\"?)");
        assert_eq!(closest("zzzzzzzzzz", r.type_names()), "");
    }
}
