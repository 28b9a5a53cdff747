//! Edits, undo and redo of an open document, and its subgraph nodes' references (refreshed,
//! or opened as documents of their own).

use std::path::PathBuf;

use trellis_spec::Diagnostic;

use super::documents::Workspace;
use crate::document::DocId;
use crate::edit::{Edit, EditOutcome};

impl Workspace {
    pub fn apply(&mut self, id: DocId, edit: &Edit) -> Result<EditOutcome, Diagnostic> {
        let session = self.session_mut(id)?;
        crate::text::check_edit(session, edit)?;
        session.apply(edit)
    }

    /// An edit, undo or redo, answered as what changed in the document's view.
    pub fn answer(
        &mut self,
        id: DocId,
        change: crate::delta::Change<'_>,
    ) -> Result<crate::delta::ViewDelta, Diagnostic> {
        self.session_mut(id)?.answer(change)
    }

    pub fn undo(&mut self, id: DocId) -> Result<EditOutcome, Diagnostic> {
        Ok(self.session_mut(id)?.undo())
    }

    pub fn redo(&mut self, id: DocId) -> Result<EditOutcome, Diagnostic> {
        Ok(self.session_mut(id)?.redo())
    }

    /// Resolves a document's subgraph references again (the files they name may have
    /// appeared, changed or gone). Answers whether its view changed.
    pub fn refresh_subgraphs(&mut self, id: DocId) -> Result<bool, Diagnostic> {
        Ok(self.session_mut(id)?.refresh_subgraphs(true))
    }

    /// Opens the document a subgraph node refers to (or focuses it when already open). A
    /// reference that does not resolve is refused with the node's own message.
    pub fn open_subgraph(&mut self, id: DocId, node: &str) -> Result<DocId, Vec<Diagnostic>> {
        let session = self.session_mut(id).map_err(|d| vec![d])?;
        session.refresh_subgraphs(true);
        let Some(link) = session.subgraph_links().iter().find(|l| l.node == node) else {
            return Err(vec![Diagnostic::error(
                crate::subgraphs::codes::NOT_OPENABLE,
                format!("node \"{node}\" is not a subgraph node that names a graph"),
            )]);
        };
        match (&link.path, &link.problem) {
            (Some(path), _) if link.openable() => {
                let path = PathBuf::from(path);
                self.open(&path)
            }
            (_, Some(p)) => Err(vec![Diagnostic::new(&p.code, p.severity, p.message.clone()).on_node(node)]),
            _ => Err(vec![Diagnostic::error(
                crate::subgraphs::codes::NOT_OPENABLE,
                format!("subgraph node \"{node}\" names no graph to open"),
            )]),
        }
    }
}
