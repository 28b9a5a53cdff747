//! Changes made outside Trellis: the files to watch, the watcher's changes turned into
//! [`DocEvent`]s (reloaded, conflict, gone, revalidated), and a conflict's answers (keep mine,
//! take theirs).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use trellis_spec::Diagnostic;
use ts_rs::TS;

use super::documents::Workspace;
use crate::document::DocId;
use crate::edit::EditOutcome;
use crate::fingerprint::Fingerprint;
use crate::session::{self, Conflict, SessionInfo};

/// A change the watcher saw: a path, and where it went when it was renamed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FsChange {
    pub path: PathBuf,
    pub renamed_to: Option<PathBuf>,
}

impl FsChange {
    pub fn at(path: impl Into<PathBuf>) -> Self {
        FsChange { path: path.into(), renamed_to: None }
    }
}

/// What happened to an open document because of an outside change. Forwarded to the UI.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[ts(export)]
pub enum DocEvent {
    /// The document was clean and the file changed: it was reloaded (undo brings it back).
    Reloaded { id: DocId, outcome: EditOutcome },
    /// The document is dirty and the file changed: keep mine, take theirs, or compare.
    Conflict { id: DocId, conflict: Conflict },
    /// The file was deleted or moved away: the document stays open and dirty.
    Gone { id: DocId, notice: Diagnostic },
    /// A registry changed: new diagnostics.
    Revalidated { id: DocId, diagnostics: Vec<Diagnostic> },
}

impl Workspace {
    /// Keep mine: the next save overwrites the outside change.
    pub fn keep_mine(&mut self, id: DocId) -> Result<SessionInfo, Diagnostic> {
        let s = self.session_mut(id)?;
        s.keep_mine();
        Ok(s.info())
    }

    /// Take theirs: reload the outside version (undoable).
    pub fn take_theirs(&mut self, id: DocId) -> Result<EditOutcome, Vec<Diagnostic>> {
        self.session_mut(id).map_err(|d| vec![d])?.take_theirs()
    }

    /// The files the watcher must watch: every open document's path (and the file it
    /// resolves to when it is a link) and every registry file in force.
    pub fn watched_paths(&self) -> Vec<PathBuf> {
        let mut out: Vec<PathBuf> = Vec::new();
        let mut push = |p: PathBuf| {
            if !out.contains(&p) {
                out.push(p);
            }
        };
        for s in self.docs.values() {
            if let Some(p) = s.path() {
                push(p.to_path_buf());
                if let Ok(t) = self.fs.resolve_symlink(p) {
                    push(t);
                }
            }
            for f in &s.registries().files {
                push(f.clone());
            }
            // The graphs its subgraph nodes open: a change there changes what the nodes show.
            for l in s.subgraph_links() {
                if let Some(p) = &l.path {
                    push(PathBuf::from(p));
                }
            }
        }
        out
    }

    /// Turns changes seen by the watcher into document events. Our own saves are recognized
    /// by fingerprint and produce nothing.
    pub fn handle_fs_changes(&mut self, changes: &[FsChange]) -> Vec<DocEvent> {
        let mut events = Vec::new();
        let ids: Vec<DocId> = self.docs.keys().copied().collect();
        for id in ids {
            let Some(session) = self.docs.get(&id) else { continue };
            let Some(path) = session.path().map(Path::to_path_buf) else { continue };
            let target = self.fs.resolve_symlink(&path).unwrap_or_else(|_| path.clone());
            let hit = changes.iter().find(|c| c.path == path || c.path == target);
            if let Some(change) = hit {
                if let Some(e) = self.check_file(id, &path, change.renamed_to.as_deref()) {
                    events.push(e);
                }
            }
            let registry_changed = changes.iter().any(|c| self.is_registry_change(id, &c.path));
            if registry_changed {
                let registries = self.load_registries(Some(&path));
                if let Some(s) = self.docs.get_mut(&id) {
                    let diagnostics = s.set_registries(registries).to_vec();
                    events.push(DocEvent::Revalidated { id, diagnostics });
                }
            }
            if self.is_subgraph_change(id, &path, changes) {
                if let Some(s) = self.docs.get_mut(&id) {
                    if s.refresh_subgraphs(true) {
                        events.push(DocEvent::Revalidated { id, diagnostics: s.diagnostics().to_vec() });
                    }
                }
            }
        }
        events
    }

    /// A change that may change what the document's subgraph nodes show: a file appearing or
    /// going in the document's folder (where most references point) or in the folder of a
    /// graph a node opens, or that graph itself changing.
    pub(super) fn is_subgraph_change(&self, id: DocId, path: &Path, changes: &[FsChange]) -> bool {
        let Some(s) = self.docs.get(&id) else { return false };
        let links = s.subgraph_links();
        if links.is_empty() {
            return false;
        }
        let home = crate::fs::parent_dir(path);
        let mut folders: Vec<PathBuf> = vec![home];
        folders.extend(
            links.iter().filter_map(|l| l.path.as_deref()).map(|p| crate::fs::parent_dir(Path::new(p))),
        );
        changes.iter().any(|c| {
            std::iter::once(&c.path)
                .chain(c.renamed_to.as_ref())
                .any(|p| p != path && folders.contains(&crate::fs::parent_dir(p)))
        })
    }

    pub(super) fn is_registry_change(&self, id: DocId, changed: &Path) -> bool {
        let Some(s) = self.docs.get(&id) else { return false };
        if s.registries().files.iter().any(|f| f == changed) {
            return true;
        }
        // A new registry file beside the document or in a folder above it.
        let is_registry =
            changed.file_name().is_some_and(|n| n.to_string_lossy().ends_with(".registry.json"));
        let in_scope = match (s.path().and_then(Path::parent), changed.parent()) {
            (Some(doc_dir), Some(dir)) => doc_dir.starts_with(dir),
            _ => false,
        };
        is_registry && in_scope
    }

    /// Compares the file with the document's fingerprint and reacts.
    pub(super) fn check_file(
        &mut self,
        id: DocId,
        path: &Path,
        renamed_to: Option<&Path>,
    ) -> Option<DocEvent> {
        let current = Fingerprint::read(self.fs.as_ref(), path);
        let session = self.docs.get_mut(&id)?;
        match current {
            Ok(None) => {
                let already = session
                    .notices()
                    .iter()
                    .any(|n| n.code == session::codes::FILE_DELETED || n.code == session::codes::FILE_MOVED);
                if already {
                    return None;
                }
                let notice = match renamed_to {
                    Some(to) => Diagnostic::warning(
                        session::codes::FILE_MOVED,
                        format!(
                            "{} was moved to {} outside Trellis; this document stays open with unsaved changes (Save writes it back at its old place; use Save As to choose)",
                            path.display(),
                            to.display()
                        ),
                    ),
                    None => Diagnostic::warning(
                        session::codes::FILE_DELETED,
                        format!(
                            "{} was deleted outside Trellis; this document stays open with unsaved changes (Save writes it again)",
                            path.display()
                        ),
                    ),
                };
                session.mark_gone(notice.clone());
                Some(DocEvent::Gone { id, notice })
            }
            Ok(Some((fp, bytes))) => {
                if session.fingerprint().is_some_and(|known| known.same_content(&fp)) {
                    // Our own write, or a touch: nothing to do.
                    return None;
                }
                if session.conflict().is_some_and(|c| c.theirs_fingerprint.same_content(&fp)) {
                    return None;
                }
                if !session.is_dirty() {
                    if let Ok(text) = std::str::from_utf8(&bytes) {
                        if let Ok(outcome) = session.reload_from(text, fp.clone()) {
                            return Some(DocEvent::Reloaded { id, outcome });
                        }
                    }
                }
                // Dirty, or the new text cannot be read: the user decides.
                session.set_conflict(&bytes, fp);
                session.conflict().cloned().map(|conflict| DocEvent::Conflict { id, conflict })
            }
            Err(e) => {
                // Unreadable now (permissions, a folder in its place): say so once; the
                // document stays as it is and a save will report what is wrong.
                let notice = Diagnostic::warning(
                    session::codes::READ_FAILED,
                    format!("{} changed on disk but cannot be read: {e}", path.display()),
                );
                if session.notices().iter().any(|n| n.message == notice.message) {
                    return None;
                }
                session.mark_gone(notice.clone());
                Some(DocEvent::Gone { id, notice })
            }
        }
    }
}
