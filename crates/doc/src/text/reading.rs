//! What the pane's text says: the text the format's writer makes, and why a text does not
//! read as the document's format.

use trellis_spec::Diagnostic;

use super::view::codes;
use crate::document::Document;
use crate::session::Session;
use crate::text_changes::step::TextFlags;

/// The text the format's writer makes of the document now: what a save writes.
pub(crate) fn writer_text(s: &Session) -> String {
    s.text()
}

/// The text's state as a step records it.
pub(crate) fn flags(s: &Session) -> TextFlags {
    TextFlags { error: s.text_pane.error.clone(), writer_text: s.text_pane.writer_text }
}

/// Why `text` does not read as `document`'s format, if it does not.
pub(crate) fn reading_error(document: &Document, text: &str) -> Option<Diagnostic> {
    let (read, diagnostics) = match document {
        Document::GraphSpec(_) => {
            let p = trellis_spec::parse_spec(text);
            (p.spec.is_some(), p.diagnostics)
        }
        Document::Weaveflow(_) => {
            let p = trellis_formats::weaveflow::parse(text);
            (p.doc.is_some(), p.diagnostics)
        }
        Document::GraphMd(_) => {
            let r = trellis_formats::graphmd::read(text);
            (r.doc.is_some(), r.diagnostics)
        }
    };
    (!read).then(|| first_error(diagnostics))
}

/// The reader's first error (the reason the text does not read).
pub(super) fn first_error(diagnostics: Vec<Diagnostic>) -> Diagnostic {
    diagnostics.into_iter().find(Diagnostic::is_error).unwrap_or_else(|| {
        Diagnostic::error(codes::UNREADABLE, "the text does not read as this document's format")
    })
}
