//! Subgraph references resolved against the file system: for each subgraph node of a Weaveflow
//! or GRAPH.md document (`trellis_formats::subgraph` says which nodes and which field), the
//! file it names, what that file holds (format, title, node count), or why it cannot be used.
//! An unusable reference is a diagnostic on its node; the canvas draws the result.
//!
//! Rules (docs/graphmd.md and docs/weaveflow.md, "Subgraph references"):
//! * The reference is a path relative to the folder of the document that holds it (an
//!   absolute path is used as it is). Neither runtime publishes its resolver (Weaveflow asks
//!   a host-supplied `GraphResolver`), so this is Trellis's reading, hence warnings, not errors.
//! * `ref` naming a folder means the `GRAPH.md` in it; a reference without an extension that
//!   names nothing is also tried with `.json`, then `.md` appended.
//! * The referenced file must be a graph document of one of the three formats.
//! * Following references from the referenced file must not lead back to a document already on
//!   the way (the document itself included): a cycle, which Weaveflow refuses to build.
//!
//! Hostile input never panics: an over-long or NUL-bearing reference is refused before any file
//! access, a file larger than [`MAX_BYTES`] or of size zero (also what devices and pipes report)
//! is not read, and following references stops after [`MAX_DEPTH`] levels or [`MAX_FILES`]
//! files.

use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

use serde::Serialize;
use trellis_formats::subgraph::{graphmd_refs, weaveflow_refs, SubgraphRef, WEAVEFLOW_REF_KEY};
use trellis_spec::{json, Diagnostic, Severity};
use ts_rs::TS;

use crate::document::{DocFormat, Document};
use crate::fs::{parent_dir, FileSystem};

pub mod codes {
    /// The referenced file does not exist.
    pub const NOT_FOUND: &str = "subgraph/not-found";
    /// The referenced file exists but cannot be read (permissions, too large, not UTF-8), or the
    /// reference is not a usable path.
    pub const UNREADABLE: &str = "subgraph/unreadable";
    /// The referenced file is not a graph document of a format Trellis reads.
    pub const NOT_A_GRAPH: &str = "subgraph/not-a-graph";
    /// Following the references leads back to a document already on the way.
    pub const CYCLE: &str = "subgraph/cycle";
    /// A Weaveflow subgraph node without `config.graph_ref`.
    pub const NO_REFERENCE: &str = "subgraph/no-reference";
    /// The document has no folder yet (never saved): references cannot be resolved.
    pub const UNSAVED: &str = "subgraph/unsaved";
    /// Opening a node that is not a subgraph node naming a graph was asked for.
    pub const NOT_OPENABLE: &str = "subgraph/not-openable";
}

/// Longest reference resolved (longer ones are refused unread; no real path is this long).
pub const MAX_REFERENCE: usize = 4096;
/// Largest referenced file read (the app opens larger ones, but not to draw a label).
pub const MAX_BYTES: u64 = 64 * 1024 * 1024;
/// How deep references are followed looking for a cycle.
pub const MAX_DEPTH: usize = 16;
/// How many files are read looking for a cycle, per resolution of one document.
pub const MAX_FILES: usize = 64;

/// What a subgraph node refers to, as the canvas draws it.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct SubgraphLink {
    /// The subgraph node's id.
    pub node: String,
    /// The reference as written, trimmed (`null`: the node names no graph).
    pub reference: Option<String>,
    /// The file the reference resolved to, when one exists.
    pub path: Option<String>,
    /// The referenced document, when it was read as a graph.
    pub target: Option<SubgraphTarget>,
    /// Why the reference cannot be used (also a diagnostic on the node).
    pub problem: Option<SubgraphProblem>,
}

impl SubgraphLink {
    /// Whether opening the node can open a document.
    pub fn openable(&self) -> bool {
        self.path.is_some() && self.target.is_some()
    }
}

/// The referenced document.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct SubgraphTarget {
    pub format: DocFormat,
    /// Its `name`, or its file name when it has none.
    pub title: String,
    pub file_name: String,
    pub node_count: u32,
}

/// Why a reference cannot be used.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct SubgraphProblem {
    /// The diagnostic code (`subgraph/not-found`, ...).
    pub code: String,
    pub severity: Severity,
    /// A few words for the node ("file not found").
    pub short: String,
    /// The whole sentence (the diagnostic's message).
    pub message: String,
    /// JSON Pointer to the reference field.
    pub pointer: String,
}

/// The subgraph nodes of a document (none for GraphSpec, which has no subgraphs).
pub fn references(document: &Document) -> Vec<SubgraphRef> {
    match document {
        Document::GraphSpec(_) => Vec::new(),
        Document::Weaveflow(d) => weaveflow_refs(d.definition()),
        Document::GraphMd(d) => graphmd_refs(d),
    }
}

/// The diagnostics of resolved links, one per link with a problem.
pub fn diagnostics(links: &[SubgraphLink]) -> Vec<Diagnostic> {
    links
        .iter()
        .filter_map(|l| {
            let p = l.problem.as_ref()?;
            Some(
                Diagnostic::new(&p.code, p.severity, p.message.clone())
                    .at(p.pointer.clone())
                    .on_node(&l.node),
            )
        })
        .collect()
}

/// Resolves the references of `document`, held in the file at `doc_path` (`None`: unsaved).
pub fn resolve(fs: &dyn FileSystem, doc_path: Option<&Path>, document: &Document) -> Vec<SubgraphLink> {
    resolve_refs(fs, doc_path, &references(document), matches!(document, Document::Weaveflow(_)))
}

/// Resolves references already extracted (`trellis_formats::subgraph`), as the CLI does for
/// the documents it reads itself. `weaveflow`: a missing reference is a warning (the runtime
/// requires `graph_ref`; GRAPH.md makes `ref` optional).
pub fn resolve_refs(
    fs: &dyn FileSystem,
    doc_path: Option<&Path>,
    refs: &[SubgraphRef],
    weaveflow: bool,
) -> Vec<SubgraphLink> {
    let mut r = Resolver { fs, files_read: 0, cache: HashMap::new() };
    refs.iter().map(|sr| r.link(doc_path, sr, weaveflow)).collect()
}

struct Resolver<'a> {
    fs: &'a dyn FileSystem,
    files_read: usize,
    /// Documents already read, by canonical path (a graph referenced twice is read once).
    cache: HashMap<PathBuf, Result<Document, Failure>>,
}

/// Why a located file cannot be used.
#[derive(Debug, Clone)]
struct Failure {
    code: &'static str,
    short: &'static str,
    detail: String,
}

fn problem(
    sr: &SubgraphRef,
    code: &str,
    severity: Severity,
    short: &str,
    message: String,
) -> SubgraphProblem {
    SubgraphProblem { code: code.into(), severity, short: short.into(), message, pointer: sr.pointer.clone() }
}

impl Resolver<'_> {
    fn link(&mut self, doc_path: Option<&Path>, sr: &SubgraphRef, weaveflow: bool) -> SubgraphLink {
        let mut link = SubgraphLink {
            node: sr.node.clone(),
            reference: sr.reference.clone(),
            path: None,
            target: None,
            problem: None,
        };
        let what = format!("Subgraph node \"{}\"", sr.node);
        let Some(reference) = &sr.reference else {
            if weaveflow {
                link.problem = Some(problem(
                    sr,
                    codes::NO_REFERENCE,
                    Severity::Warning,
                    "no graph named",
                    format!("{what} names no graph: set config.{WEAVEFLOW_REF_KEY} to the file of the graph it runs."),
                ));
            }
            return link;
        };
        let Some(doc_path) = doc_path else {
            link.problem = Some(problem(
                sr,
                codes::UNSAVED,
                Severity::Info,
                "save to resolve",
                format!(
                    "{what}: save this document first; its reference \"{}\" is read relative to the document's folder.",
                    short_text(reference)
                ),
            ));
            return link;
        };
        if reference.len() > MAX_REFERENCE || reference.contains('\0') {
            link.problem = Some(problem(
                sr,
                codes::UNREADABLE,
                Severity::Warning,
                "not a usable path",
                format!(
                    "{what} has a reference that is not a usable path ({} characters{}).",
                    reference.chars().count(),
                    if reference.contains('\0') { ", with a NUL character" } else { "" }
                ),
            ));
            return link;
        }
        let base = parent_dir(doc_path);
        let path = match locate(self.fs, &base, reference) {
            Ok(p) => p,
            Err(tried) => {
                let how = if Path::new(reference).is_absolute() {
                    ""
                } else {
                    " (a reference is read relative to this document's folder)"
                };
                link.problem = Some(problem(
                    sr,
                    codes::NOT_FOUND,
                    Severity::Warning,
                    "file not found",
                    format!(
                        "{what} refers to \"{}\", but there is no file at {}{how}: correct the reference, or \
                         create the file.",
                        short_text(reference),
                        tried.display()
                    ),
                ));
                return link;
            }
        };
        link.path = Some(path.display().to_string());
        let canon = self.canonical(&path);
        match self.read(&canon) {
            Err(f) => {
                let severity = Severity::Warning;
                let message = format!("{what} refers to {}, which {}.", path.display(), f.detail);
                link.problem = Some(problem(sr, f.code, severity, f.short, message));
                return link;
            }
            Ok(doc) => link.target = Some(target_of(&doc, &path)),
        }
        let top = self.canonical(doc_path);
        let top_dir = parent_dir(&top);
        if let Some(chain) = self.cycle(vec![top], canon, 0) {
            // Relative to this document's folder (GRAPH.md files all have the same name).
            let names: Vec<String> = chain
                .iter()
                .map(|p| {
                    p.strip_prefix(&top_dir)
                        .map_or_else(|_| p.display().to_string(), |r| r.display().to_string())
                })
                .collect();
            link.problem = Some(problem(
                sr,
                codes::CYCLE,
                Severity::Warning,
                "cycle",
                format!(
                    "{what} leads back to a graph already on the way ({}): a graph cannot contain itself.",
                    names.join(" → ")
                ),
            ));
        }
        link
    }

    /// The canonical form of a path (symbolic links resolved), or its lexical normal form when
    /// it cannot be resolved (a deleted file).
    fn canonical(&self, path: &Path) -> PathBuf {
        self.fs.canonicalize(path).unwrap_or_else(|_| normalize(path))
    }

    /// Reads and parses a graph document once per resolution.
    fn read(&mut self, canon: &Path) -> Result<Document, Failure> {
        if let Some(r) = self.cache.get(canon) {
            return r.clone();
        }
        self.files_read += 1;
        let r = read_graph(self.fs, canon);
        self.cache.insert(canon.to_path_buf(), r.clone());
        r
    }

    /// The chain from the top to a document met twice, when following the references of `at`
    /// (whose ancestors are `path`) leads back to one of them.
    fn cycle(&mut self, mut path: Vec<PathBuf>, at: PathBuf, depth: usize) -> Option<Vec<PathBuf>> {
        if path.contains(&at) {
            path.push(at);
            return Some(path);
        }
        if depth >= MAX_DEPTH {
            return None;
        }
        let doc = if self.cache.contains_key(&at) || self.files_read < MAX_FILES {
            self.read(&at).ok()?
        } else {
            return None;
        };
        let base = parent_dir(&at);
        path.push(at);
        for sr in references(&doc) {
            let Some(reference) = &sr.reference else { continue };
            if reference.len() > MAX_REFERENCE || reference.contains('\0') {
                continue;
            }
            let Ok(next) = locate(self.fs, &base, reference) else { continue };
            let next = self.canonical(&next);
            if let Some(chain) = self.cycle(path.clone(), next, depth + 1) {
                return Some(chain);
            }
        }
        None
    }
}

/// The file a reference names, relative to `base`: the path itself when it is a file, the
/// `GRAPH.md` inside it when it is a folder, else (no extension) the path with `.json`, then
/// `.md`. `Err` carries the path first tried, for the message.
pub fn locate(fs: &dyn FileSystem, base: &Path, reference: &str) -> Result<PathBuf, PathBuf> {
    let written = Path::new(reference);
    let first = normalize(&if written.is_absolute() { written.to_path_buf() } else { base.join(written) });
    match fs.metadata(&first) {
        Ok(m) if m.is_dir => {
            let inside = first.join("GRAPH.md");
            return if fs.metadata(&inside).is_ok_and(|m| !m.is_dir) { Ok(inside) } else { Err(inside) };
        }
        Ok(_) => return Ok(first),
        Err(_) => {}
    }
    if first.extension().is_none() && first.file_name().is_some() {
        for ext in ["json", "md"] {
            let mut name = first.file_name().unwrap_or_default().to_os_string();
            name.push(".");
            name.push(ext);
            let candidate = first.with_file_name(name);
            if fs.metadata(&candidate).is_ok_and(|m| !m.is_dir) {
                return Ok(candidate);
            }
        }
    }
    Err(first)
}

/// Reads a graph document of any format, or says why it is not one.
fn read_graph(fs: &dyn FileSystem, path: &Path) -> Result<Document, Failure> {
    let unreadable = |detail: String| Failure { code: codes::UNREADABLE, short: "unreadable", detail };
    let not_graph = |detail: String| Failure { code: codes::NOT_A_GRAPH, short: "not a graph", detail };
    let meta = fs.metadata(path).map_err(|e| unreadable(format!("could not be read: {e}")))?;
    if meta.is_dir {
        return Err(not_graph("is a folder, not a graph document".into()));
    }
    if meta.size == 0 {
        // Devices and pipes report size zero too: never read them.
        return Err(not_graph("is empty (or not a regular file), not a graph document".into()));
    }
    if meta.size > MAX_BYTES {
        return Err(unreadable(format!(
            "is too large to read as a subgraph ({} MiB; at most {} MiB)",
            meta.size / (1024 * 1024),
            MAX_BYTES / (1024 * 1024)
        )));
    }
    let bytes = fs.read(path).map_err(|e| unreadable(format!("could not be read: {e}")))?;
    let text =
        json::decode_utf8(&bytes).map_err(|d| unreadable(format!("is not UTF-8 text ({})", d.message)))?;
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
    match crate::document::parse_document(name.as_deref(), text) {
        Ok((doc, _)) => Ok(doc),
        Err(ds) => {
            let first =
                ds.iter().find(|d| d.is_error()).or(ds.first()).map_or("it cannot be read", |d| &d.message);
            Err(not_graph(format!("is not a graph document Trellis reads ({first})")))
        }
    }
}

fn target_of(doc: &Document, path: &Path) -> SubgraphTarget {
    let file_name = display_name(path);
    let name = match doc {
        Document::GraphSpec(s) => s.name.clone(),
        Document::Weaveflow(d) => Some(d.definition().name.clone()),
        Document::GraphMd(d) => d.front.get("name").and_then(|y| y.as_str()).map(str::to_owned),
    };
    let title =
        name.map(|n| n.trim().to_owned()).filter(|n| !n.is_empty()).unwrap_or_else(|| file_name.clone());
    let node_count = u32::try_from(doc.node_ids().len()).unwrap_or(u32::MAX);
    SubgraphTarget { format: doc.format(), title, file_name, node_count }
}

fn display_name(path: &Path) -> String {
    path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned())
}

/// A reference cut for a message (a hostile one can be megabytes).
fn short_text(reference: &str) -> String {
    const MAX: usize = 120;
    if reference.chars().count() <= MAX {
        reference.to_owned()
    } else {
        format!("{}…", reference.chars().take(MAX).collect::<String>())
    }
}

/// `a/./b/../c` → `a/c`, without touching the file system (`..` above the root stays at it).
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// The subgraph links of a session, recomputed only when what they depend on (the document's
/// references and its path) changed, or when asked (a tab shown again, a save).
#[derive(Debug, Default)]
pub struct SubgraphState {
    fs: Option<Arc<dyn FileSystem>>,
    key: Option<(Option<PathBuf>, Vec<SubgraphRef>)>,
    pub(crate) links: Vec<SubgraphLink>,
    pub(crate) diagnostics: Vec<Diagnostic>,
}

impl SubgraphState {
    /// Gives the state the file system to resolve with (sessions made without one resolve
    /// nothing: tests of other concerns, the CLI's own loading).
    pub fn attach(&mut self, fs: Arc<dyn FileSystem>) {
        self.fs = Some(fs);
        self.key = None;
    }

    /// Resolves again when the references or the path changed (or `force`). Answers whether
    /// the links changed.
    pub fn refresh(&mut self, document: &Document, path: Option<&Path>, force: bool) -> bool {
        let Some(fs) = &self.fs else { return false };
        let refs = references(document);
        let key = (path.map(Path::to_path_buf), refs);
        if !force && self.key.as_ref() == Some(&key) {
            return false;
        }
        let links = if key.1.is_empty() { Vec::new() } else { resolve(fs.as_ref(), path, document) };
        self.key = Some(key);
        if links == self.links {
            return false;
        }
        self.diagnostics = diagnostics(&links);
        self.links = links;
        true
    }
}
