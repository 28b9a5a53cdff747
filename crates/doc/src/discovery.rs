//! Registry discovery: which node types a document is checked against.
//!
//! Layers, lowest first:
//! 1. the built-in registry ([`trellis_spec::builtin`]);
//! 2. project registries: the files named explicitly (`--registry`), the files the user added
//!    in the app, and every `*.registry.json` in the document's folder and its ancestors, up to
//!    and including the first folder that holds `.git` (the repository root), or the root of
//!    the file system.
//!
//! A project type may redefine a built-in one (an Info diagnostic says so). The same type in
//! two project registries is an Error naming both files; the first one found is used
//! (explicit files first, then user-added ones, then discovered ones nearest folder first,
//! by file name within a folder). A broken manifest gives diagnostics that point into it, and
//! everything else keeps working.
//!
//! All file access goes through [`FileSystem`], so this is tested on [`crate::fs::FakeFs`].

use std::collections::{HashMap, HashSet};
use std::io;
use std::path::{Path, PathBuf};

use trellis_spec::diagnostic::{pointer, Diagnostic, Severity};
use trellis_spec::manifest::{manifest_from_owned, Manifest};
use trellis_spec::registry::Registry;
use trellis_spec::{builtin, json};

use crate::fs::FileSystem;

/// Codes of discovery.
pub mod codes {
    /// A registry file named explicitly (`--registry`, or added in the app) does not exist.
    pub const NOT_FOUND: &str = "registry/not-found";
    /// A registry file, or a folder searched for them, could not be read.
    pub const UNREADABLE: &str = "registry/unreadable";
    /// A registry file larger than [`super::MAX_MANIFEST_BYTES`]; it is not read.
    pub const TOO_LARGE: &str = "registry/too-large";
    /// A project registry redefines a built-in type (a note: the project's definition is used).
    pub const REDEFINES_BUILTIN: &str = "registry/redefines-builtin";
    /// Two project registries define the same type (the first one found is used).
    pub const CONFLICTING_TYPE: &str = "registry/conflicting-type";
}

/// How discovered registry files are named.
pub const REGISTRY_SUFFIX: &str = ".registry.json";

/// Registry files larger than this are refused (a manifest of 50,000 types with schemas is a
/// few megabytes).
pub const MAX_MANIFEST_BYTES: u64 = 32 * 1024 * 1024;

/// What to look for.
#[derive(Debug, Clone)]
pub struct DiscoveryOptions {
    /// The document (or the folder) to search from. `None`: no folder search (a new document).
    pub start: Option<PathBuf>,
    /// Search the folders (`false` for `--no-discover`).
    pub discover: bool,
    /// Include the built-in registry as the lowest layer.
    pub builtin: bool,
    /// Files named with `--registry`.
    pub explicit: Vec<PathBuf>,
    /// Files the user added in the app.
    pub user: Vec<PathBuf>,
}

impl Default for DiscoveryOptions {
    fn default() -> Self {
        DiscoveryOptions {
            start: None,
            discover: true,
            builtin: true,
            explicit: Vec::new(),
            user: Vec::new(),
        }
    }
}

impl DiscoveryOptions {
    /// Discovery from a document path, with the built-in registry.
    pub fn near(document: impl Into<PathBuf>) -> Self {
        DiscoveryOptions { start: Some(document.into()), ..Self::default() }
    }
}

/// How a registry file came to be used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SourceKind {
    Builtin,
    Explicit,
    User,
    Discovered,
}

/// One registry that was loaded (or tried).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct RegistrySource {
    /// `None` for the built-in registry.
    pub path: Option<PathBuf>,
    pub kind: SourceKind,
    /// The manifest's `name` and `version`, when it has them.
    pub name: Option<String>,
    pub version: Option<String>,
    /// The types this file contributed to the registry (those that lost a conflict are not
    /// listed).
    pub types: Vec<String>,
    /// False when the file could not be read as a manifest at all.
    pub loaded: bool,
}

/// A diagnostic about a registry file (`None`: about discovery as a whole). Its pointer and
/// span refer to that file.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct FileDiagnostic {
    pub file: Option<PathBuf>,
    pub diagnostic: Diagnostic,
}

/// The result of discovery.
#[derive(Debug, Clone, Default)]
pub struct Discovered {
    /// Every type, layered. Each type's `source` is `built-in` or the file's path.
    pub registry: Registry,
    /// The registries in layer order: built-in first, then project files in the order read.
    pub sources: Vec<RegistrySource>,
    /// Problems and notes, by file.
    pub diagnostics: Vec<FileDiagnostic>,
    /// The folders searched for `*.registry.json` (to watch for new files).
    pub searched: Vec<PathBuf>,
}

impl Discovered {
    /// True when any registry problem is an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(|d| d.diagnostic.severity == Severity::Error)
    }

    /// The registry files read (to watch them).
    pub fn files(&self) -> Vec<PathBuf> {
        self.sources.iter().filter_map(|s| s.path.clone()).collect()
    }
}

/// The registries in force for a document, as the app and its tests load them: the built-in
/// types plus every `*.registry.json` beside the document and in its ancestor folders. A
/// finding about a file names the file in its message.
pub fn registry_loader() -> crate::workspace::RegistryLoader {
    std::sync::Arc::new(|fs: &dyn FileSystem, path: Option<&Path>| {
        let options = DiscoveryOptions { start: path.map(Path::to_path_buf), ..DiscoveryOptions::default() };
        let found = discover(fs, &options);
        let files = found.files();
        let diagnostics: Vec<Diagnostic> = found
            .diagnostics
            .into_iter()
            .map(|fd| match fd.file {
                Some(file) => {
                    let mut d = fd.diagnostic;
                    d.message = format!("{}: {}", file.display(), d.message);
                    d
                }
                None => fd.diagnostic,
            })
            .collect();
        crate::registries::Registries {
            registry: std::sync::Arc::new(found.registry),
            files,
            diagnostics,
            weaveflow_version: None,
        }
    })
}

/// Finds and layers the registries for `options`.
pub fn discover(fs: &dyn FileSystem, options: &DiscoveryOptions) -> Discovered {
    let mut out = Discovered::default();
    let mut builtin_types: HashSet<String> = HashSet::new();
    if options.builtin {
        let manifest = builtin::manifest();
        // The lowest layer, so the registry is still empty: the built-in one, shared.
        out.registry = builtin::default_registry();
        builtin_types.extend(manifest.types.iter().map(|t| t.type_name.clone()));
        out.sources.push(RegistrySource {
            path: None,
            kind: SourceKind::Builtin,
            name: manifest.name.clone(),
            version: manifest.version.clone(),
            types: manifest.types.iter().map(|t| t.type_name.clone()).collect(),
            loaded: true,
        });
    }

    let mut files: Vec<(PathBuf, SourceKind)> = Vec::new();
    files.extend(options.explicit.iter().map(|p| (p.clone(), SourceKind::Explicit)));
    files.extend(options.user.iter().map(|p| (p.clone(), SourceKind::User)));
    if options.discover {
        if let Some(start) = &options.start {
            let (found, searched, problems) = find_registry_files(fs, start);
            files.extend(found.into_iter().map(|p| (p, SourceKind::Discovered)));
            out.searched = searched;
            out.diagnostics.extend(problems);
        }
    }

    let mut layering = Layering { builtin_types, owners: HashMap::new() };
    let mut seen_files: HashSet<PathBuf> = HashSet::new();
    for (path, kind) in files {
        // The same file reached twice (named explicitly and also discovered) is read once.
        let key = fs.canonicalize(&path).unwrap_or_else(|_| path.clone());
        if !seen_files.insert(key) {
            continue;
        }
        load_file(fs, &path, kind, &mut layering, &mut out);
    }
    out
}

/// Which project file defined each type first.
struct Layering {
    builtin_types: HashSet<String>,
    owners: HashMap<String, PathBuf>,
}

fn load_file(
    fs: &dyn FileSystem,
    path: &Path,
    kind: SourceKind,
    layering: &mut Layering,
    out: &mut Discovered,
) {
    let mut source = RegistrySource {
        path: Some(path.to_path_buf()),
        kind,
        name: None,
        version: None,
        types: Vec::new(),
        loaded: false,
    };
    let mut diagnostics = Vec::new();
    match read_text(fs, path, kind) {
        Err(d) => diagnostics.push(d),
        Ok(text) => {
            let parsed = json::parse(&text);
            match parsed {
                Err(d) => diagnostics.push(d),
                Ok(value) => {
                    let (manifest, mut found) = manifest_from_owned(value, &display(path));
                    if let Some(manifest) = manifest {
                        source.loaded = true;
                        source.name = manifest.name.clone();
                        source.version = manifest.version.clone();
                        layer(manifest, path, layering, out, &mut source.types, &mut found);
                    }
                    json::fill_spans(&text, &mut found);
                    diagnostics.extend(found);
                }
            }
        }
    }
    out.diagnostics.extend(
        diagnostics
            .into_iter()
            .map(|diagnostic| FileDiagnostic { file: Some(path.to_path_buf()), diagnostic }),
    );
    out.sources.push(source);
}

/// Adds a project manifest's types on top of what is there, reporting redefinitions of
/// built-in types and conflicts with earlier project files.
fn layer(
    manifest: Manifest,
    path: &Path,
    layering: &mut Layering,
    out: &mut Discovered,
    contributed: &mut Vec<String>,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let source = display(path);
    for (info, entry) in manifest.types.into_iter().zip(manifest.entries) {
        let name = &info.type_name;
        let at = pointer(["types", &entry.to_string(), "type"]);
        if let Some(first) = layering.owners.get(name) {
            diagnostics.push(
                Diagnostic::error(
                    codes::CONFLICTING_TYPE,
                    format!(
                        "type \"{name}\" is defined by both {} and {}; the definition in {} is used",
                        display(first),
                        display(path),
                        display(first)
                    ),
                )
                .at(at),
            );
            continue;
        }
        if layering.builtin_types.contains(name) {
            diagnostics.push(
                Diagnostic::info(
                    codes::REDEFINES_BUILTIN,
                    format!("type \"{name}\" from {} replaces the built-in type \"{name}\"", display(path)),
                )
                .at(at),
            );
        }
        layering.owners.insert(name.clone(), path.to_path_buf());
        contributed.push(name.clone());
        out.registry.describe(info, source.clone());
    }
}

fn read_text(fs: &dyn FileSystem, path: &Path, kind: SourceKind) -> Result<String, Diagnostic> {
    let meta = fs.metadata(path).map_err(|e| io_problem(path, kind, &e))?;
    if meta.is_dir {
        return Err(Diagnostic::error(
            codes::UNREADABLE,
            format!("{} is a folder, not a registry file", display(path)),
        ));
    }
    if meta.size > MAX_MANIFEST_BYTES {
        return Err(Diagnostic::error(
            codes::TOO_LARGE,
            format!(
                "{} is {} bytes, more than the {} bytes a registry file may have; it is not read",
                display(path),
                meta.size,
                MAX_MANIFEST_BYTES
            ),
        ));
    }
    let bytes = fs.read(path).map_err(|e| io_problem(path, kind, &e))?;
    json::decode_utf8(&bytes).map(str::to_owned)
}

fn io_problem(path: &Path, kind: SourceKind, e: &io::Error) -> Diagnostic {
    if e.kind() == io::ErrorKind::NotFound && kind != SourceKind::Discovered {
        let how = if kind == SourceKind::User { "added registry" } else { "registry file" };
        Diagnostic::error(codes::NOT_FOUND, format!("the {how} {} does not exist", display(path)))
    } else {
        Diagnostic::error(codes::UNREADABLE, format!("cannot read {}: {e}", display(path)))
    }
}

/// The `*.registry.json` files from the folder of `start` (a document or a folder) up to the
/// repository root, nearest first; the folders searched; problems listing them.
pub fn find_registry_files(
    fs: &dyn FileSystem,
    start: &Path,
) -> (Vec<PathBuf>, Vec<PathBuf>, Vec<FileDiagnostic>) {
    let mut found = Vec::new();
    let mut searched = Vec::new();
    let mut problems = Vec::new();
    let first = match fs.metadata(start) {
        Ok(m) if m.is_dir => start.to_path_buf(),
        _ => crate::fs::parent_dir(start),
    };
    // Absolute and free of symbolic links, so that ".." walks the real ancestors. A folder
    // that does not exist yet (an unsaved document's) is walked as given.
    let mut folder = fs.canonicalize(&first).unwrap_or(first);
    loop {
        searched.push(folder.clone());
        match fs.read_dir(&folder) {
            Ok(entries) => {
                for entry in entries {
                    let is_registry = entry
                        .file_name()
                        .and_then(|n| n.to_str())
                        .is_some_and(|n| n.ends_with(REGISTRY_SUFFIX));
                    if is_registry && fs.metadata(&entry).is_ok_and(|m| !m.is_dir) {
                        found.push(entry);
                    }
                }
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => problems.push(FileDiagnostic {
                file: Some(folder.clone()),
                diagnostic: Diagnostic::warning(
                    codes::UNREADABLE,
                    format!("cannot list {} to look for registries: {e}", display(&folder)),
                ),
            }),
        }
        // `.git` is a folder in a clone and a file in a worktree: either marks the root.
        if fs.exists(&folder.join(".git")) {
            break;
        }
        match folder.parent() {
            Some(parent) if !parent.as_os_str().is_empty() && parent != folder => {
                folder = parent.to_path_buf()
            }
            _ => break,
        }
    }
    (found, searched, problems)
}

fn display(path: &Path) -> String {
    path.display().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fs::{FakeFs, FsOp, RealFs};
    use trellis_spec::config_schema;

    fn p(s: &str) -> PathBuf {
        PathBuf::from(s)
    }

    fn codes_of(d: &Discovered) -> Vec<(String, String, String)> {
        d.diagnostics
            .iter()
            .map(|f| {
                (
                    f.file.as_ref().map(|p| p.display().to_string()).unwrap_or_default(),
                    f.diagnostic.code.clone(),
                    f.diagnostic.pointer.clone(),
                )
            })
            .collect()
    }

    fn sources(d: &Discovered) -> Vec<String> {
        d.sources
            .iter()
            .map(|s| s.path.as_ref().map_or("built-in".into(), |p| p.display().to_string()))
            .collect()
    }

    #[test]
    fn builtin_only_without_a_start() {
        let fs = FakeFs::new();
        let d = discover(&fs, &DiscoveryOptions::default());
        assert!(d.diagnostics.is_empty());
        assert_eq!(sources(&d), ["built-in"]);
        assert_eq!(d.registry.get("llm").map(|t| t.source.as_str()), Some(builtin::SOURCE));
        let none = discover(&fs, &DiscoveryOptions { builtin: false, ..Default::default() });
        assert!(none.registry.is_empty());
    }

    #[test]
    fn walks_ancestors_and_stops_at_git() {
        let fs = FakeFs::new();
        fs.put("/outside.registry.json", r#"{"types":[{"type":"outside"}]}"#);
        fs.mkdir("/repo/.git");
        fs.put("/repo/root.registry.json", r#"{"types":[{"type":"root_t"}]}"#);
        fs.put("/repo/a/mid.registry.json", r#"{"types":[{"type":"mid_t"}]}"#);
        fs.put("/repo/a/b/spec.json", "{}");
        fs.put("/repo/a/b/near.registry.json", r#"{"types":[{"type":"near_t"}]}"#);
        fs.put("/repo/a/b/notes.json", r#"{"types":[{"type":"not_a_registry"}]}"#);
        fs.mkdir("/repo/a/b/folder.registry.json");
        let d = discover(&fs, &DiscoveryOptions::near("/repo/a/b/spec.json"));
        assert!(d.diagnostics.is_empty(), "{:?}", d.diagnostics);
        assert_eq!(
            sources(&d),
            [
                "built-in",
                "/repo/a/b/near.registry.json",
                "/repo/a/mid.registry.json",
                "/repo/root.registry.json"
            ]
        );
        assert_eq!(d.searched, [p("/repo/a/b"), p("/repo/a"), p("/repo")]);
        for t in ["near_t", "mid_t", "root_t", "llm"] {
            assert!(d.registry.contains(t), "{t}");
        }
        assert!(!d.registry.contains("outside"));
        assert!(!d.registry.contains("not_a_registry"));
        assert_eq!(d.registry.get("mid_t").map(|t| t.source.as_str()), Some("/repo/a/mid.registry.json"));
        // Without .git the walk goes to the root.
        fs.mkdir("/other/x");
        let d = discover(&fs, &DiscoveryOptions::near("/other/x"));
        assert!(d.registry.contains("outside"));
        assert_eq!(d.searched, [p("/other/x"), p("/other"), p("/")]);
        // A .git file (a worktree) stops the walk too.
        fs.put("/other/.git", "gitdir: /elsewhere");
        let d = discover(&fs, &DiscoveryOptions::near("/other/x"));
        assert!(!d.registry.contains("outside"));
    }

    #[test]
    fn no_discover_uses_only_named_files() {
        let fs = FakeFs::new();
        fs.put("/w/near.registry.json", r#"{"types":[{"type":"near_t"}]}"#);
        fs.put("/elsewhere/x.json", r#"{"types":[{"type":"named"}]}"#);
        let opts = DiscoveryOptions {
            start: Some(p("/w/spec.json")),
            discover: false,
            explicit: vec![p("/elsewhere/x.json")],
            ..Default::default()
        };
        let d = discover(&fs, &opts);
        assert!(d.registry.contains("named"));
        assert!(!d.registry.contains("near_t"));
        assert!(d.searched.is_empty());
        assert_eq!(d.sources[1].kind, SourceKind::Explicit);
    }

    #[test]
    fn redefining_a_builtin_is_a_note() {
        let fs = FakeFs::new();
        fs.put("/w/mine.registry.json", "{\"types\": [\n  {\"type\": \"noop\", \"title\": \"Mine\"}\n]}");
        let d = discover(&fs, &DiscoveryOptions::near("/w/spec.json"));
        assert_eq!(
            codes_of(&d),
            [("/w/mine.registry.json".into(), codes::REDEFINES_BUILTIN.into(), "/types/0/type".into())]
        );
        let note = &d.diagnostics[0].diagnostic;
        assert_eq!(note.severity, Severity::Info);
        assert_eq!(note.span.map(|s| s.line), Some(2));
        assert!(!d.has_errors());
        let noop = d.registry.get("noop").map(|t| (t.info.title.clone(), t.source.clone()));
        assert_eq!(noop, Some((Some("Mine".into()), "/w/mine.registry.json".into())));
    }

    #[test]
    fn the_same_type_in_two_project_registries_is_an_error_naming_both() {
        let fs = FakeFs::new();
        fs.mkdir("/r/.git");
        fs.put("/r/top.registry.json", r#"{"types":[{"type":"x", "title":"top"}, {"type":"llm"}]}"#);
        fs.put("/r/d/a.registry.json", r#"{"types":[{"type":"x", "title":"a"}]}"#);
        fs.put("/r/d/b.registry.json", r#"{"types":[{"type":"y"}, {"type":"x", "title":"b"}]}"#);
        let d = discover(&fs, &DiscoveryOptions::near("/r/d/spec.json"));
        assert_eq!(
            codes_of(&d),
            [
                ("/r/d/b.registry.json".into(), codes::CONFLICTING_TYPE.into(), "/types/1/type".into()),
                ("/r/top.registry.json".into(), codes::CONFLICTING_TYPE.into(), "/types/0/type".into()),
                ("/r/top.registry.json".into(), codes::REDEFINES_BUILTIN.into(), "/types/1/type".into()),
            ]
        );
        let m = &d.diagnostics[0].diagnostic.message;
        assert!(m.contains("/r/d/a.registry.json") && m.contains("/r/d/b.registry.json"), "{m}");
        assert!(d.has_errors());
        // The nearest definition is used; the rest of each file still counts.
        assert_eq!(d.registry.get("x").and_then(|t| t.info.title.clone()), Some("a".into()));
        assert!(d.registry.contains("y"));
        assert_eq!(d.sources[2].types, ["y"]);
    }

    #[test]
    fn a_broken_manifest_is_reported_and_the_rest_keeps_working() {
        let fs = FakeFs::new();
        fs.put(
            "/w/a.registry.json",
            "{\"types\": [\n  {\"type\": \"ok\"},\n  {\"type\": \"t\", \"config_schema\": {\"type\": 5}}\n]}",
        );
        fs.put("/w/b.registry.json", "{\"types\": [\n  {\"type\": \"good\"}\n");
        fs.put("/w/c.registry.json", b"\xff\xfe".as_slice());
        fs.put("/w/d.registry.json", r#"{"types":[{"type":"fine"}]}"#);
        let d = discover(&fs, &DiscoveryOptions::near("/w/spec.json"));
        let got = codes_of(&d);
        assert_eq!(got.len(), 3, "{got:?}");
        assert_eq!(
            got[0],
            (
                "/w/a.registry.json".into(),
                config_schema::codes::INVALID_SCHEMA.into(),
                "/types/1/config_schema/type".into()
            )
        );
        assert_eq!(d.diagnostics[0].diagnostic.span.map(|s| s.line), Some(3));
        assert_eq!(got[1].1, json::codes::SYNTAX);
        assert_eq!(got[2].1, json::codes::INVALID_UTF8);
        for t in ["ok", "t", "fine", "llm"] {
            assert!(d.registry.contains(t), "{t}");
        }
        assert!(!d.sources[2].loaded);
    }

    #[test]
    fn io_problems_are_diagnostics() {
        let fs = FakeFs::new();
        fs.put("/w/a.registry.json", r#"{"types":[]}"#);
        fs.fail_next(FsOp::Read, io::ErrorKind::PermissionDenied);
        let opts = DiscoveryOptions {
            start: Some(p("/w/spec.json")),
            explicit: vec![p("/missing.registry.json")],
            user: vec![p("/gone.json")],
            ..Default::default()
        };
        let d = discover(&fs, &opts);
        let got: Vec<String> = d.diagnostics.iter().map(|f| f.diagnostic.code.clone()).collect();
        assert_eq!(got, [codes::NOT_FOUND, codes::NOT_FOUND, codes::UNREADABLE]);
        assert!(d.diagnostics[1].diagnostic.message.contains("added registry"));
    }

    #[test]
    fn a_file_named_twice_is_read_once() {
        let fs = FakeFs::new();
        fs.put("/w/a.registry.json", r#"{"types":[{"type":"a"}]}"#);
        let opts = DiscoveryOptions {
            start: Some(p("/w/spec.json")),
            explicit: vec![p("/w/./a.registry.json")],
            ..Default::default()
        };
        let d = discover(&fs, &opts);
        assert!(d.diagnostics.is_empty(), "{:?}", d.diagnostics);
        assert_eq!(d.sources.len(), 2);
    }

    #[test]
    fn oversized_files_are_refused() {
        let fs = FakeFs::new();
        let big = format!("{{\"types\": [], \"name\": \"{}\"}}", "x".repeat(MAX_MANIFEST_BYTES as usize));
        fs.put("/w/big.registry.json", big.as_bytes());
        let d = discover(&fs, &DiscoveryOptions::near("/w"));
        assert_eq!(d.diagnostics[0].diagnostic.code, codes::TOO_LARGE);
    }

    #[test]
    fn real_folders_with_tempfile() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        std::fs::create_dir_all(root.join("repo/.git")).expect("mkdir");
        std::fs::create_dir_all(root.join("repo/specs/deep")).expect("mkdir");
        std::fs::write(root.join("outside.registry.json"), r#"{"types":[{"type":"outside"}]}"#)
            .expect("write");
        std::fs::write(
            root.join("repo/team.registry.json"),
            r#"{"types":[{"type":"team_t"},{"type":"dup"}]}"#,
        )
        .expect("write");
        std::fs::write(
            root.join("repo/specs/local.registry.json"),
            r#"{"types":[{"type":"dup"},{"type":"http"}]}"#,
        )
        .expect("write");
        std::fs::write(root.join("repo/specs/deep/g.json"), "{}").expect("write");
        let d = discover(&RealFs, &DiscoveryOptions::near(root.join("repo/specs/deep/g.json")));
        assert!(d.registry.contains("team_t"));
        assert!(!d.registry.contains("outside"));
        let codes: Vec<&str> = d.diagnostics.iter().map(|f| f.diagnostic.code.as_str()).collect();
        assert_eq!(codes, [codes::REDEFINES_BUILTIN, codes::CONFLICTING_TYPE]);
        let dup = d.registry.get("dup").map(|t| t.source.clone()).unwrap_or_default();
        assert!(dup.ends_with("local.registry.json"), "{dup}");
        // Paths are canonical, so relative starts work too.
        assert!(d.searched.iter().all(|p| p.is_absolute()));
    }

    /// Read whole, all 50,000 types; how long that takes is a benchmark
    /// (`crates/bench/benches/registry.rs`), not a timed test.
    #[test]
    fn huge_manifests_are_read_whole() {
        let mut text = String::from("{\"types\": [");
        for i in 0..50_000 {
            if i > 0 {
                text.push(',');
            }
            text.push_str(&format!(
                "{{\"type\": \"t{i}\", \"config_schema\": {{\"type\": \"object\", \"properties\": {{\"n\": {{\"type\": \"integer\", \"maximum\": {}}}}}}}, \"defaults\": {{\"n\": 1}}}}",
                i % 10 + 1
            ));
        }
        text.push_str("]}");
        let fs = FakeFs::new();
        fs.put("/w/huge.registry.json", text.as_bytes());
        let d = discover(&fs, &DiscoveryOptions::near("/w"));
        assert!(d.diagnostics.is_empty());
        assert_eq!(d.registry.len(), 50_000 + manifest_len());
    }

    fn manifest_len() -> usize {
        builtin::manifest().types.len()
    }

    #[test]
    fn deep_manifests_are_refused_not_overflowed() {
        let fs = FakeFs::new();
        let deep = format!(
            "{{\"types\": [{{\"type\": \"t\", \"defaults\": {}{}}}]}}",
            "[".repeat(100_000),
            "]".repeat(100_000)
        );
        fs.put("/w/deep.registry.json", deep.as_bytes());
        let d = discover(&fs, &DiscoveryOptions::near("/w"));
        assert_eq!(d.diagnostics[0].diagnostic.code, json::codes::TOO_DEEP);
    }
}
