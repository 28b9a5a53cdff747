//! `trellis registry infer FILE... [-o OUT] [--merge] [--type NAME]...`: a registry manifest
//! describing every node type the documents use that no registry describes
//! (`trellis_spec::infer`), or, with `--type`, the types named, described or not (a built-in
//! type the documents use as their own runtime defines it: the project's type replaces it).
//!
//! Documents of all three formats are read: GraphSpec node types and Weaveflow node types
//! that are neither Weaveflow built-ins nor in a registry; GRAPH.md kinds are the format's own
//! and never need describing. The registries are those `validate` would use (built-in,
//! `--registry` files, discovered `*.registry.json`), so the output holds exactly the types
//! `validate` reports as unknown. Without `-o` the manifest goes to stdout; `-o` refuses an
//! existing file unless `--merge`, which adds only the missing types and keeps the file's text.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};
use trellis_doc::fs::{atomic_write, RealFs};
use trellis_spec::infer::{self, Observed};
use trellis_spec::{Diagnostic, Registry};

use crate::load::{self, Document};
use crate::registries;
use crate::report::{self, Exit, FileReport, OutputFormat};

/// Codes of `registry infer`.
pub mod codes {
    /// `-o` names an existing file and `--merge` was not given, or the file cannot be merged.
    pub const OUTPUT_EXISTS: &str = "cli/output-exists";
    /// The manifest could not be written.
    pub const WRITE_FAILED: &str = "cli/write-failed";
}

#[derive(Debug, Clone, clap::Args)]
pub struct InferArgs {
    /// The documents whose node types to describe (GraphSpec, Weaveflow, GRAPH.md).
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Write the manifest here instead of standard output (atomically).
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    pub output: Option<PathBuf>,
    /// With `-o` onto an existing manifest: add only the types it lacks, keep its text.
    #[arg(long, requires = "output")]
    pub merge: bool,
    /// A registry file whose types count as described (repeatable).
    #[arg(long = "registry", value_name = "FILE")]
    pub registries: Vec<PathBuf>,
    /// Do not look for registries next to the documents.
    #[arg(long)]
    pub no_discover: bool,
    /// Describe this type as the documents use it, even when a registry describes it (a
    /// built-in type the documents use otherwise); repeatable. Only the types named are
    /// described then.
    #[arg(long = "type", value_name = "NAME")]
    pub types: Vec<String>,
}

/// One document's nodes of undescribed types, owned (the documents are read one by one).
type Found = Vec<(String, Map<String, Value>)>;

pub fn run(args: InferArgs) -> Exit {
    let regs = registries::load(&args.registries, !args.no_discover, &args.files);
    let mut found: Found = Vec::new();
    let mut failures = Vec::new();
    let mut exit = Exit::Clean;
    for path in &args.files {
        match undescribed(path, regs.registry_for(path), &args.types) {
            Ok(mut nodes) => found.append(&mut nodes),
            Err(f) => {
                exit = exit.max(f.exit);
                failures.push(f.report);
            }
        }
    }
    if !failures.is_empty() {
        // A document that cannot be read would leave its types out: write nothing.
        report::print(&failures, OutputFormat::Human, true);
        report::note("no manifest written: every document must be readable");
        return exit;
    }
    let mut observed = Observed::new();
    for (t, config) in &found {
        observed.add(t, config);
    }
    let (entries, refused) = observed.entries();
    for name in &refused {
        report::note(&format!("type {name:?} cannot be described: a registry type name cannot hold it"));
    }
    let names: Vec<String> =
        entries.iter().filter_map(|e| e.get("type").and_then(Value::as_str)).map(str::to_owned).collect();
    // A type named that no node has is most likely mistyped: say so rather than write nothing.
    let absent: Vec<&str> =
        args.types.iter().map(String::as_str).filter(|t| !names.iter().any(|n| n == t)).collect();
    if !absent.is_empty() && refused.is_empty() {
        report::note(&format!(
            "no node of the documents has type {}: nothing written",
            absent.iter().map(|t| format!("{t:?}")).collect::<Vec<_>>().join(", ")
        ));
        return Exit::Problems;
    }
    let Some(out) = &args.output else {
        report::write_stdout(&infer::manifest_text(entries));
        report::note(&described(&names, "standard output"));
        return Exit::Clean;
    };
    let existing = match std::fs::read(out) {
        Ok(bytes) => Some(bytes),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return fail(out, codes::WRITE_FAILED, format!("cannot read {}: {e}", out.display())),
    };
    let (text, added) = match existing {
        None => (infer::manifest_text(entries), names),
        Some(_) if !args.merge => {
            return fail(
                out,
                codes::OUTPUT_EXISTS,
                format!(
                    "{} exists; add --merge to add the missing types to it (its text is kept)",
                    out.display()
                ),
            )
        }
        Some(bytes) => {
            let Ok(text) = String::from_utf8(bytes) else {
                return fail(out, codes::OUTPUT_EXISTS, format!("{} is not UTF-8 text", out.display()));
            };
            match infer::merge_into(&text, &entries) {
                Ok(m) => (m.text, m.added),
                Err(e) => return fail(out, codes::OUTPUT_EXISTS, format!("{}: {}", out.display(), e.0)),
            }
        }
    };
    if added.is_empty() {
        report::note(&format!("{} already describes every type: nothing written", out.display()));
        return Exit::Clean;
    }
    if let Err(e) = atomic_write(&RealFs, out, text.as_bytes(), 0o644) {
        return fail(out, codes::WRITE_FAILED, format!("cannot write {}: {e}", out.display()));
    }
    report::note(&described(&added, &out.display().to_string()));
    Exit::Clean
}

fn described(names: &[String], whereto: &str) -> String {
    match names.len() {
        0 => "every node type is described already: the manifest is empty".to_owned(),
        1 => format!("described 1 type ({}) in {whereto}", names[0]),
        n if n <= 8 => format!("described {n} types ({}) in {whereto}", names.join(", ")),
        n => format!("described {n} types ({}, ...) in {whereto}", names[..8].join(", ")),
    }
}

fn fail(out: &Path, code: &str, message: String) -> Exit {
    let r = FileReport::new(out.display().to_string(), None, vec![Diagnostic::error(code, message)]);
    report::print(&[r], OutputFormat::Human, true);
    Exit::Usage
}

/// The nodes of `path` whose type no registry (nor the format itself) describes, or, when
/// `named` is not empty, whose type it names.
fn undescribed(path: &Path, registry: Option<&Registry>, named: &[String]) -> Result<Found, load::Failure> {
    let (source, doc) = load::load(path)?;
    let wanted = |t: &str| match named {
        [] => !registry.is_some_and(|r| r.contains(t)),
        named => named.iter().any(|n| n == t),
    };
    let unreadable = |diagnostics: Vec<Diagnostic>| load::Failure {
        report: FileReport::new(source.display.clone(), Some(source.text.clone()), diagnostics),
        exit: Exit::Problems,
    };
    match doc {
        Document::GraphSpec(parsed) => {
            let Some(spec) = parsed.spec else { return Err(unreadable(parsed.diagnostics)) };
            Ok(spec
                .nodes
                .into_iter()
                .filter_map(|n| match n.type_name {
                    Some(t) if !t.is_empty() && wanted(&t) => Some((t.into(), n.config.into_map())),
                    _ => None,
                })
                .collect())
        }
        Document::Weaveflow(parsed) => {
            let Some(doc) = parsed.doc else { return Err(unreadable(parsed.diagnostics)) };
            Ok(doc
                .definition()
                .nodes
                .iter()
                .filter_map(|n| {
                    let t = n.type_name.trim();
                    let builtin = trellis_formats::weaveflow::builtin::node_type(t).is_some();
                    (!t.is_empty() && (!builtin || !named.is_empty()) && wanted(t))
                        .then(|| (t.to_owned(), n.config.clone()))
                })
                .collect())
        }
        // GRAPH.md kinds are the format's own (agent, tool, ...): nothing to describe.
        Document::GraphMd(_) => Ok(Vec::new()),
    }
}
