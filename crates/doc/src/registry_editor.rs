//! The registry editor's Rust side: the registries in force for a document listed by source
//! file, edits of a project registry (`trellis_spec::registry_edit`) written atomically, an
//! undo history of those writes, and every open document revalidated after each.
//!
//! Paths never come from the webview: a file is named by its index in the document's list of
//! registry files in force, or `None` for the project registry beside the document (created
//! on first write, as the "describe it" fix does).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use trellis_spec::registry_edit::{self, RegistryEdit};
use trellis_spec::{Diagnostic, TypeInfo};
use ts_rs::TS;

use crate::document::DocId;
use crate::fixes::project_registry_for;
use crate::fs::atomic_write;
use crate::workspace::{DocEvent, Workspace};

/// Codes of the registry editor.
pub mod codes {
    /// A registry edit was refused (bad input, a built-in type, no such file); nothing changed.
    pub const REGISTRY_EDIT_REFUSED: &str = "registry/edit-refused";
}

/// One source of types in force for a document.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct RegistrySource {
    /// `built-in`, or the file's path.
    pub source: String,
    /// The file's index for edits; `None` for the built-in types (read-only).
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<usize>,
    pub writable: bool,
    pub types: Vec<TypeInfo>,
}

/// The project registry files written by the editor, for its own undo.
#[derive(Debug, Default)]
pub struct RegistryHistory {
    undo: Vec<(PathBuf, Option<Vec<u8>>)>,
}

fn refused(message: impl Into<String>) -> Diagnostic {
    Diagnostic::error(codes::REGISTRY_EDIT_REFUSED, message)
}

/// What an edit (or its undo) did.
#[derive(Debug, Clone, PartialEq)]
pub struct RegistryWrite {
    pub path: PathBuf,
    pub events: Vec<DocEvent>,
}

impl Workspace {
    /// The types in force for document `id`, grouped by source (built-in first, then the
    /// files in layer order), plus the project registry beside it when it does not exist yet.
    pub fn registry_sources(&self, id: DocId) -> Result<Vec<RegistrySource>, Diagnostic> {
        let session = self.session(id)?;
        let files = &session.registries().files;
        let mut out: Vec<RegistrySource> = Vec::new();
        let builtin = trellis_spec::builtin::SOURCE;
        let mut by_source: Vec<(String, Vec<TypeInfo>)> = Vec::new();
        for t in session.registries().registry.types() {
            match by_source.iter_mut().find(|(s, _)| *s == t.source) {
                Some((_, list)) => list.push(TypeInfo::clone(&t.info)),
                None => by_source.push((t.source.clone(), vec![TypeInfo::clone(&t.info)])),
            }
        }
        // The built-in types a project type redefines are no longer in the registry: show
        // them all anyway, read-only, so they can be copied.
        out.push(RegistrySource {
            source: builtin.to_owned(),
            file: None,
            writable: false,
            types: trellis_spec::builtin::manifest().types.clone(),
        });
        for (i, f) in files.iter().enumerate() {
            let shown = f.display().to_string();
            let types =
                by_source.iter().find(|(s, _)| *s == shown).map(|(_, l)| l.clone()).unwrap_or_default();
            out.push(RegistrySource { source: shown, file: Some(i), writable: true, types });
        }
        if let Some(p) = session.path().and_then(|p| project_registry_for(p, files)) {
            if !files.contains(&p) {
                out.push(RegistrySource {
                    source: p.display().to_string(),
                    file: None,
                    writable: true,
                    types: Vec::new(),
                });
            }
        }
        Ok(out)
    }

    fn registry_target(&self, id: DocId, file: Option<usize>) -> Result<PathBuf, Diagnostic> {
        let session = self.session(id)?;
        let files = &session.registries().files;
        match file {
            Some(i) => files.get(i).cloned().ok_or_else(|| refused(format!("there is no registry file {i}"))),
            None => session
                .path()
                .and_then(|p| project_registry_for(p, files))
                .ok_or_else(|| refused("save the document first: its project registry is written beside it")),
        }
    }

    /// Applies `edit` to a registry file of document `id`, writes it atomically, remembers
    /// the previous bytes for [`Workspace::undo_registry_edit`], and revalidates every open
    /// document.
    pub fn edit_registry(
        &mut self,
        id: DocId,
        file: Option<usize>,
        edit: &RegistryEdit,
        history: &mut RegistryHistory,
    ) -> Result<RegistryWrite, Diagnostic> {
        let path = self.registry_target(id, file)?;
        let fs = self.fs().clone();
        let before = match fs.read(&path) {
            Ok(b) => Some(b),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
            Err(e) => return Err(refused(format!("{} cannot be read: {e}", path.display()))),
        };
        let text = match &before {
            Some(b) => std::str::from_utf8(b)
                .map_err(|_| refused(format!("{} is not UTF-8 text", path.display())))?,
            None => "",
        };
        let next =
            registry_edit::apply(text, edit).map_err(|m| refused(format!("{}: {m}", name_of(&path))))?;
        atomic_write(fs.as_ref(), &path, next.as_bytes(), 0o644)
            .map_err(|e| refused(format!("{} could not be written: {e}", path.display())))?;
        history.undo.push((path.clone(), before));
        let events = self.reload_registries();
        Ok(RegistryWrite { path, events })
    }

    /// Puts back the registry file the last editor edit changed (deleting it when the edit
    /// created it), and revalidates. `None` when there is nothing to undo.
    pub fn undo_registry_edit(
        &mut self,
        history: &mut RegistryHistory,
    ) -> Result<Option<RegistryWrite>, Diagnostic> {
        let Some((path, before)) = history.undo.pop() else { return Ok(None) };
        let fs = self.fs().clone();
        let result = match &before {
            Some(bytes) => {
                atomic_write(fs.as_ref(), &path, bytes, 0o644).map(|_| ()).map_err(|e| e.to_string())
            }
            None => fs.remove(&path).map_err(|e| e.to_string()),
        };
        if let Err(e) = result {
            history.undo.push((path.clone(), before));
            return Err(refused(format!("{} could not be put back: {e}", path.display())));
        }
        let events = self.reload_registries();
        Ok(Some(RegistryWrite { path, events }))
    }
}

fn name_of(path: &Path) -> String {
    path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned())
}
