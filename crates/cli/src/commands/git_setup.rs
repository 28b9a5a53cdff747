//! `trellis git-setup [--program CMD] [PATTERN...]`: makes Git diff and merge graph documents
//! as graphs in the repository around the current folder, and prints what it did.
//!
//! * `.gitattributes` (at the work tree's root) gets `merge=trellis diff=trellis` for
//!   `GRAPH.md`, `*.graph.md`, each PATTERN given, or, when none is given, each GraphSpec and
//!   Weaveflow file found in the work tree (JSON is too common a format to claim `*.json`);
//!   and `merge=trellis` for layout sidecars (`*.layout.json`). Lines already there are kept.
//! * The repository's config (`.git/config`, edited with gix) gets `merge.trellis.driver`
//!   (`CMD merge %O %A %B --path %P`), `merge.trellis.name` and `diff.trellis.textconv`.
//!
//! CMD defaults to this executable's full path, so the driver works without `trellis` on PATH.

use std::path::{Path, PathBuf};

use trellis_diff::document::MAX_BYTES;

use crate::git;
use crate::load::write_atomically;
use crate::report::{self, Exit};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The command Git runs (default: this executable's full path).
    #[arg(long, value_name = "CMD")]
    pub program: Option<String>,
    /// Paths or patterns of graph documents (default: every GraphSpec/Weaveflow file found).
    #[arg(value_name = "PATTERN")]
    pub patterns: Vec<String>,
}

pub fn run(args: Args) -> Exit {
    match go(&args) {
        Ok(()) => Exit::Clean,
        Err(message) => {
            report::note(&message);
            Exit::Usage
        }
    }
}

/// Folders never searched for documents.
const SKIP: [&str; 3] = ["node_modules", "target", "dist"];

/// JSON graph documents under `root`, as `/`-separated paths relative to it, sorted.
fn find_documents(root: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else { continue };
        for e in entries.flatten() {
            let path = e.path();
            let name = e.file_name().to_string_lossy().into_owned();
            let Ok(kind) = e.file_type() else { continue };
            if kind.is_dir() {
                if !name.starts_with('.') && !SKIP.contains(&name.as_str()) {
                    stack.push(path);
                }
                continue;
            }
            let lower = name.to_ascii_lowercase();
            if !kind.is_file() || !lower.ends_with(".json") || trellis_diff::layout::is_sidecar_name(&lower) {
                continue;
            }
            if e.metadata().is_ok_and(|m| m.len() > MAX_BYTES as u64) {
                continue;
            }
            let Ok(text) = std::fs::read_to_string(&path) else { continue };
            if trellis_formats::detect::detect(Some(&name), &text).is_ok() {
                if let Ok(rel) = path.strip_prefix(root) {
                    found.push(rel.to_string_lossy().replace('\\', "/"));
                }
            }
        }
    }
    found.sort();
    found
}

/// A path as a `.gitattributes` pattern: anchored at the root, spaces escaped.
fn pattern_of(path: &str) -> String {
    let p = if path.contains('/') && !path.starts_with('/') { format!("/{path}") } else { path.to_owned() };
    p.replace(' ', "[[:space:]]")
}

fn go(args: &Args) -> Result<(), String> {
    let repo = git::discover()?;
    let root = repo.workdir().ok_or("the repository has no work tree (a bare repository)")?.to_path_buf();
    let program = match &args.program {
        Some(p) => p.clone(),
        None => {
            let exe = std::env::current_exe().map_err(|e| format!("cannot tell where trellis is: {e}"))?;
            let s = exe.to_string_lossy().into_owned();
            if s.contains([' ', '"', '\'']) {
                format!("\"{}\"", s.replace('"', "\\\""))
            } else {
                s
            }
        }
    };

    let mut lines = vec![
        "GRAPH.md merge=trellis diff=trellis".to_owned(),
        "*.graph.md merge=trellis diff=trellis".to_owned(),
    ];
    let documents = if args.patterns.is_empty() { find_documents(&root) } else { args.patterns.clone() };
    lines.extend(documents.iter().map(|p| format!("{} merge=trellis diff=trellis", pattern_of(p))));
    lines.push("*.layout.json merge=trellis".to_owned());
    write_attributes(&root.join(".gitattributes"), &lines)?;

    let driver = format!("{program} merge %O %A %B --path %P");
    let textconv = format!("{program} diff --textconv");
    let config_path = repo.common_dir().join("config");
    write_config(
        &config_path,
        &[
            ("merge", "name", "Trellis graph merge"),
            ("merge", "driver", &driver),
            ("diff", "textconv", &textconv),
        ],
    )?;
    report::write_stdout(&format!(
        "{}: merge.trellis.name, merge.trellis.driver = {driver}, diff.trellis.textconv = {textconv}\n",
        config_path.display()
    ));
    Ok(())
}

/// Appends the lines `.gitattributes` lacks, under a comment; prints each one added.
fn write_attributes(path: &PathBuf, lines: &[String]) -> Result<(), String> {
    let old = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(format!("{}: cannot read: {e}", path.display())),
    };
    let have: std::collections::HashSet<&str> = old.lines().map(str::trim).collect();
    let new: Vec<&String> = lines.iter().filter(|l| !have.contains(l.as_str())).collect();
    if new.is_empty() {
        report::write_stdout(&format!("{}: already set up\n", path.display()));
        return Ok(());
    }
    let mut text = old.clone();
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    text.push_str("# Graph documents diff and merge as graphs (trellis git-setup, docs/git.md)\n");
    for l in &new {
        text.push_str(l);
        text.push('\n');
        report::write_stdout(&format!("{}: added `{l}`\n", path.display()));
    }
    write_atomically(path, &text)
}

/// Sets `section.trellis.key = value` for each entry in the Git config file at `path`
/// (created when missing), keeping everything else in it as it was.
fn write_config(path: &Path, entries: &[(&str, &str, &str)]) -> Result<(), String> {
    let bytes = match std::fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return Err(format!("{}: cannot read the Git config: {e}", path.display())),
    };
    let meta = gix::config::file::Metadata::from(gix::config::Source::Local);
    let mut file = gix::config::File::from_bytes_no_includes(&bytes, meta, Default::default())
        .map_err(|e| format!("{}: cannot read the Git config: {e}", path.display()))?;
    for (section, key, value) in entries {
        file.set_raw_value_by(*section, Some("trellis".into()), *key, *value)
            .map_err(|e| format!("{}: cannot set {section}.trellis.{key}: {e}", path.display()))?;
    }
    let mut out = Vec::new();
    file.write_to(&mut out).map_err(|e| format!("{}: {e}", path.display()))?;
    write_atomically(path, &String::from_utf8_lossy(&out))
}
