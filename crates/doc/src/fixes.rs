//! Applying a diagnostic's fix ([`trellis_spec::Fix`]): document fixes become ordinary edits
//! (one undo step each); "describe these types" writes the project registry beside the
//! document (created, or extended keeping its text) atomically, then every open document is
//! revalidated against the registries now in force.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};
use trellis_spec::infer::{self, Observed};
use trellis_spec::{Diagnostic, FixEdit, ReducerName};

use crate::document::{DocId, Document};
use crate::edit::{Edit, EditOutcome};
use crate::fs::atomic_write;
use crate::workspace::{DocEvent, Workspace};

/// The file the "describe it" fix creates beside a document that has no project registry in
/// its folder (an existing `*.registry.json` there is extended instead).
pub const PROJECT_REGISTRY: &str = "project.registry.json";

/// Codes of fixes.
pub mod codes {
    /// A fix could not be applied (the node is gone, the document is untitled, the registry
    /// file cannot be extended or written). Nothing was changed.
    pub const FIX_FAILED: &str = "doc/fix-failed";
}

/// What applying a fix did.
#[derive(Debug, Clone, PartialEq)]
pub enum FixOutcome {
    /// A document edit (one undo step).
    Edited(EditOutcome),
    /// A registry file was written; every open document was revalidated (`events`).
    RegistryWritten {
        path: PathBuf,
        created: bool,
        added: Vec<String>,
        /// A sentence for the user: which file, which types.
        notice: String,
        events: Vec<DocEvent>,
    },
}

fn failed(message: impl Into<String>) -> Diagnostic {
    Diagnostic::error(codes::FIX_FAILED, message)
}

/// The document edit a fix stands for (`None` for registry fixes).
pub fn edit_for(fix: &FixEdit, document: &Document) -> Result<Option<Edit>, Diagnostic> {
    Ok(Some(match fix {
        FixEdit::DescribeTypes { .. } => return Ok(None),
        FixEdit::SetNodeType { node, type_name } => {
            Edit::SetNodeType { id: node.clone(), type_name: type_name.clone() }
        }
        FixEdit::DeclareChannel { name } => {
            Edit::AddChannel { name: name.clone(), reducer: ReducerName::LastWrite }
        }
        FixEdit::SetVersion { version } => {
            Edit::SetDocField { field: "version".into(), value: Some(Value::String(version.clone())) }
        }
        FixEdit::RenameConfigField { node, from, to } => {
            let config = config_of(document, node)
                .ok_or_else(|| failed(format!("there is no node \"{node}\" any more")))?;
            if config.contains_key(to) {
                return Err(failed(format!("node \"{node}\" already has a config field \"{to}\"")));
            }
            if !config.contains_key(from) {
                return Err(failed(format!("node \"{node}\" has no config field \"{from}\" any more")));
            }
            // Renamed in place, so the field keeps its position in the config.
            let renamed: Map<String, Value> = config
                .iter()
                .map(|(k, v)| (if k == from { to.clone() } else { k.clone() }, v.clone()))
                .collect();
            Edit::SetConfig { id: node.clone(), config: renamed }
        }
    }))
}

fn config_of<'a>(document: &'a Document, node: &str) -> Option<&'a Map<String, Value>> {
    match document {
        Document::GraphSpec(s) => s.nodes.iter().find(|n| n.id == node).map(|n| n.config.as_map()),
        Document::Weaveflow(d) => {
            d.definition().nodes.iter().find(|n| n.id.trim() == node).map(|n| &n.config)
        }
        Document::GraphMd(_) => None,
    }
}

/// Every node of the document whose type is one of `types`, as (type, config).
pub fn configs_of<'a>(document: &'a Document, types: &[String]) -> Vec<(&'a str, &'a Map<String, Value>)> {
    let wanted = |t: &str| types.iter().any(|w| w == t);
    match document {
        Document::GraphSpec(s) => s
            .nodes
            .iter()
            .filter_map(|n| n.type_name.as_deref().filter(|t| wanted(t)).map(|t| (t, n.config.as_map())))
            .collect(),
        Document::Weaveflow(d) => d
            .definition()
            .nodes
            .iter()
            .map(|n| (n.type_name.trim(), &n.config))
            .filter(|(t, _)| wanted(t))
            .collect(),
        Document::GraphMd(_) => Vec::new(),
    }
}

/// The project registry the fix writes for a document at `document`: the first registry file
/// in force that sits in the document's folder, else `project.registry.json` there.
pub fn project_registry_for(document: &Path, registry_files: &[PathBuf]) -> Option<PathBuf> {
    let folder = document.parent()?;
    let existing = registry_files.iter().find(|f| f.parent() == Some(folder));
    Some(existing.cloned().unwrap_or_else(|| folder.join(PROJECT_REGISTRY)))
}

impl Workspace {
    /// Applies one fix of a diagnostic of document `id`.
    pub fn apply_fix(&mut self, id: DocId, fix: &FixEdit) -> Result<FixOutcome, Diagnostic> {
        let session = self.session(id)?;
        match edit_for(fix, session.document())? {
            Some(edit) => self.apply(id, &edit).map(FixOutcome::Edited),
            None => match fix {
                FixEdit::DescribeTypes { types } => self.describe_types(id, types),
                _ => Err(failed("this fix has no edit")),
            },
        }
    }

    /// Describes `types` (configs inferred from document `id`) in the project registry beside
    /// the document, then revalidates every open document.
    pub fn describe_types(&mut self, id: DocId, types: &[String]) -> Result<FixOutcome, Diagnostic> {
        let session = self.session(id)?;
        let Some(doc_path) = session.path() else {
            return Err(failed(
                "save the document first: the registry describing its types is written beside it",
            ));
        };
        let target = project_registry_for(doc_path, &session.registries().files)
            .ok_or_else(|| failed(format!("{} has no folder to write a registry in", doc_path.display())))?;
        let mut observed = Observed::new();
        for (t, config) in configs_of(session.document(), types) {
            observed.add(t, config);
        }
        // A type asked for but used by no node (the node was just deleted) is described
        // with an open schema, so the fix still does what its button says.
        let empty = Map::new();
        let seen: Vec<&str> = observed.type_names().collect();
        let missing: Vec<&String> = types.iter().filter(|t| !seen.contains(&t.as_str())).collect();
        for t in &missing {
            observed.add(t.as_str(), &empty);
        }
        let (entries, refused) = observed.entries();
        if entries.is_empty() {
            return Err(failed(format!(
                "no registry type can be named {}: a type name cannot be empty or hold spaces",
                refused.join(", ")
            )));
        }
        let fs = self.fs().clone();
        let existing = match fs.read(&target) {
            Ok(bytes) => Some(bytes),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(failed(format!("{} cannot be read: {e}", target.display()))),
        };
        let created = existing.is_none();
        let (text, added) = match existing {
            None => {
                let names =
                    entries.iter().filter_map(|e| e.get("type").and_then(Value::as_str)).map(str::to_owned);
                let names = names.collect();
                (infer::manifest_text(entries), names)
            }
            Some(bytes) => {
                let text = String::from_utf8(bytes).map_err(|_| {
                    failed(format!("{} is not UTF-8 text; it was left as it is", target.display()))
                })?;
                let merged = infer::merge_into(&text, &entries)
                    .map_err(|e| failed(format!("{}: {}; it was left as it is", target.display(), e.0)))?;
                (merged.text, merged.added)
            }
        };
        if !added.is_empty() {
            atomic_write(fs.as_ref(), &target, text.as_bytes(), 0o644)
                .map_err(|e| failed(format!("{} could not be written: {e}", target.display())))?;
        }
        let events = self.reload_registries();
        let file = target
            .file_name()
            .map_or_else(|| target.display().to_string(), |n| n.to_string_lossy().into_owned());
        let notice = match (added.len(), created) {
            (0, _) => format!("{file} already describes {}", types.join(", ")),
            (n, created) => format!(
                "{} {} beside the document: described {} ({}). Edit {} in the registry panel.",
                if created { "Created" } else { "Extended" },
                target.display(),
                if n == 1 { "1 type".to_owned() } else { format!("{n} types") },
                list(&added),
                if n == 1 { "it" } else { "them" },
            ),
        };
        Ok(FixOutcome::RegistryWritten { path: target, created, added, notice, events })
    }
}

fn list(names: &[String]) -> String {
    if names.len() <= 6 {
        names.join(", ")
    } else {
        format!("{}, and {} more", names[..6].join(", "), names.len() - 6)
    }
}
