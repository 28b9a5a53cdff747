//! Documents without a file: New (empty or the built-in example) and Import (a file's text
//! converted to another format, unsaved).

use trellis_spec::{Diagnostic, GraphSpec};

use super::documents::Workspace;
use crate::document::{DocId, Document};
use crate::session::{self, Session};

/// The built-in example graph offered by New.
pub const EXAMPLE: &str = include_str!("../../assets/example.json");

impl Workspace {
    /// A new untitled document from the built-in example.
    pub fn new_from_example(&mut self) -> Result<DocId, Vec<Diagnostic>> {
        let registries = self.load_registries(None);
        let id = self.next_doc_id();
        let session = Session::from_text(id, None, EXAMPLE, registries, self.clock.clone())?;
        Ok(self.insert(session, None))
    }

    /// Import: a file's text (format detected) converted to `to` and opened as a new untitled
    /// document that is unsaved, so the user saves it explicitly. What the conversion lost is
    /// shown as notices on it and returned.
    pub fn import(
        &mut self,
        file_name: Option<&str>,
        text: &str,
        to: session::DocFormat,
    ) -> Result<(DocId, Vec<Diagnostic>), Vec<Diagnostic>> {
        let id = self.next_doc_id();
        let source = self.load_registries(None);
        let read = Session::from_text(id, file_name, text, source, self.clock.clone())?;
        let converted = crate::formats::convert::convert_document(read.document(), to);
        let mut imported = if converted.format == read.format() {
            read
        } else {
            let registries = self.load_registries(None);
            Session::from_text(id, None, &converted.text, registries, self.clock.clone())?
        };
        imported.forced_dirty = true;
        imported.notices.extend(converted.losses.iter().cloned());
        Ok((self.insert(imported, None), converted.losses))
    }

    /// A new, empty, untitled document.
    pub fn new_empty(&mut self) -> DocId {
        let registries = self.load_registries(None);
        let id = self.next_doc_id();
        let session =
            Session::new(id, Document::GraphSpec(GraphSpec::default()), registries, self.clock.clone());
        self.insert(session, None)
    }
}
