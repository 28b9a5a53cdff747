//! The registry the command line checks node types against.
//!
//! Layers (see `docs/registry.md`): the built-in registry, then the `--registry FILE` files,
//! then, unless `--no-discover`, every `*.registry.json` in each document's folder and its
//! ancestors up to the repository root (`trellis_doc::discovery`). Documents in different
//! folders can see different registries, so the registry is looked up per document with
//! [`Registries::registry_for`].
//!
//! A node type no registry describes is an error, with or without project registries (one
//! rule for the command line and the app); its diagnostic carries fixes (describe the type:
//! `trellis registry infer`), printed as hints.
//!
//! Problems in registry files are reported like document problems (file, line, column, the
//! source line), once per file even when several documents discover the same file. Registry
//! errors make the command fail (exit 1; exit 2 when a named registry file cannot be read at
//! all); notes (a project type redefining a built-in one) do not.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use trellis_doc::discovery::{codes, discover, Discovered, DiscoveryOptions, FileDiagnostic};
use trellis_doc::fs::RealFs;
use trellis_spec::{Diagnostic, Registry, Severity};

use crate::report::{Exit, FileReport};

/// What loading the registries gave.
#[derive(Debug, Default)]
pub struct Registries {
    /// The registry of the first document (or, with no documents, the built-in registry plus
    /// the `--registry` files). Always `Some` now that there is a built-in registry; kept an
    /// `Option` because the validator takes one.
    pub registry: Option<Registry>,
    /// Per document folder, when documents are in several folders.
    by_folder: HashMap<PathBuf, Registry>,
    /// Problems in registry files, one report per file that has any.
    pub reports: Vec<FileReport>,
    /// `Some(Exit::Problems)` when a registry file has an error.
    pub exit: Option<Exit>,
    /// Every registry file read (built-in excluded), in layer order, without repeats.
    pub files: Vec<PathBuf>,
}

impl Registries {
    /// The registry to check `document` against.
    pub fn registry_for(&self, document: &Path) -> Option<&Registry> {
        self.by_folder.get(&folder_key(document)).or(self.registry.as_ref())
    }
}

/// Loads the built-in registry, the `files` named with `--registry`, and (when `discover`)
/// the registries found from each document in `near`.
pub fn load(files: &[PathBuf], discover_near: bool, near: &[PathBuf]) -> Registries {
    let base = DiscoveryOptions {
        start: None,
        discover: discover_near,
        builtin: true,
        explicit: files.to_vec(),
        user: Vec::new(),
    };
    let mut out = Registries::default();
    let mut collected: Vec<FileDiagnostic> = Vec::new();
    let mut seen_files: HashSet<PathBuf> = HashSet::new();
    let mut take = |d: Discovered, out: &mut Registries, collected: &mut Vec<FileDiagnostic>| {
        let files = d.files();
        for f in &files {
            if seen_files.insert(f.clone()) {
                out.files.push(f.clone());
            }
        }
        collected.extend(d.diagnostics);
        d.registry
    };
    if !discover_near || near.is_empty() {
        let registry = take(discover(&RealFs, &base), &mut out, &mut collected);
        out.registry = Some(registry);
    } else {
        for document in near {
            let key = folder_key(document);
            if out.by_folder.contains_key(&key) {
                continue;
            }
            let options = DiscoveryOptions { start: Some(document.clone()), ..base.clone() };
            let registry = take(discover(&RealFs, &options), &mut out, &mut collected);
            if out.registry.is_none() {
                out.registry = Some(registry.clone());
            }
            out.by_folder.insert(key, registry);
        }
    }
    // A registry file that cannot be read at all is an I/O error (exit 2), like a document
    // that cannot be read; a registry file with problems in it is exit 1.
    let io_error = collected.iter().any(|f| {
        f.diagnostic.severity == Severity::Error
            && matches!(f.diagnostic.code.as_str(), codes::NOT_FOUND | codes::UNREADABLE)
    });
    let (reports, has_errors) = reports_of(collected);
    out.reports = reports;
    if io_error {
        out.exit = Some(Exit::Usage);
    } else if has_errors {
        out.exit = Some(Exit::Problems);
    }
    out
}

/// The folder a document's registries are discovered from, as a map key.
fn folder_key(document: &Path) -> PathBuf {
    let folder = match document.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::canonicalize(&folder).unwrap_or(folder)
}

/// Groups registry diagnostics into one report per file (with its text, for source lines),
/// dropping repeats (two documents discovering the same broken file).
pub fn reports_of(diagnostics: Vec<FileDiagnostic>) -> (Vec<FileReport>, bool) {
    let has_errors = diagnostics.iter().any(|f| f.diagnostic.severity == Severity::Error);
    let mut order: Vec<Option<PathBuf>> = Vec::new();
    let mut by_file: HashMap<Option<PathBuf>, Vec<Diagnostic>> = HashMap::new();
    for f in diagnostics {
        let list = by_file.entry(f.file.clone()).or_insert_with(|| {
            order.push(f.file.clone());
            Vec::new()
        });
        if !list.contains(&f.diagnostic) {
            list.push(f.diagnostic);
        }
    }
    let reports = order
        .into_iter()
        .map(|file| {
            let diagnostics = by_file.remove(&file).unwrap_or_default();
            match file {
                Some(path) => {
                    // Only for printing the source line under a diagnostic; a file that cannot
                    // be read has a diagnostic saying so already.
                    let text =
                        std::fs::read(&path).ok().map(|b| String::from_utf8_lossy(&b).into_owned().into());
                    FileReport::new(path.display().to_string(), text, diagnostics)
                }
                None => FileReport::new("registries", None, diagnostics),
            }
        })
        .collect();
    (reports, has_errors)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtin_types_without_any_file() {
        let dir = tempfile::tempdir().expect("tempdir");
        let doc = dir.path().join("g.json");
        let regs = load(&[], true, std::slice::from_ref(&doc));
        assert!(regs.exit.is_none());
        assert!(regs.registry_for(&doc).is_some_and(|r| r.contains("llm")));
    }

    #[test]
    fn documents_in_different_folders_see_their_own_registries() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        std::fs::create_dir_all(root.join(".git")).expect("mkdir");
        std::fs::create_dir_all(root.join("a")).expect("mkdir");
        std::fs::create_dir_all(root.join("b")).expect("mkdir");
        std::fs::write(root.join("a/x.registry.json"), r#"{"types":[{"type":"only_a"}]}"#).expect("write");
        std::fs::write(
            root.join("b/y.registry.json"),
            "{\"types\": [\n  {\"type\": \"only_b\", \"title\": 5}\n]}",
        )
        .expect("write");
        let (da, db) = (root.join("a/g.json"), root.join("b/g.json"));
        let regs = load(&[], true, &[da.clone(), db.clone()]);
        assert!(regs.registry_for(&da).is_some_and(|r| r.contains("only_a") && !r.contains("only_b")));
        assert!(regs.registry_for(&db).is_some_and(|r| r.contains("only_b") && !r.contains("only_a")));
        assert_eq!(regs.exit, Some(Exit::Problems));
        assert_eq!(regs.reports.len(), 1);
        assert!(regs.reports[0].path.ends_with("y.registry.json"));
        assert!(regs.reports[0].text.is_some());
        // --no-discover: built-in only.
        let regs = load(&[], false, std::slice::from_ref(&da));
        assert!(regs.registry_for(&da).is_some_and(|r| r.contains("llm") && !r.contains("only_a")));
    }

    #[test]
    fn a_missing_registry_file_is_an_error() {
        let regs = load(&[PathBuf::from("/definitely/not/here.registry.json")], false, &[]);
        assert_eq!(regs.exit, Some(Exit::Usage));
        assert_eq!(regs.reports[0].diagnostics[0].code, trellis_doc::discovery::codes::NOT_FOUND);
    }
}
