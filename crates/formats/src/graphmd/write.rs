//! Writing a GRAPH.md file: BOM (when the file had one), `---`, the canonical front matter
//! (`emit.rs`), `---`, the body byte for byte.

use crate::graphmd::emit::emit_document;
use crate::graphmd::model::GraphMd;

/// The file text of `doc` for saving: the original bytes while the document is unchanged
/// since it was read (so comments and the author's spacing survive a save without edits),
/// the canonical form otherwise.
pub fn to_string(doc: &GraphMd) -> String {
    match doc.unchanged_source() {
        Some(text) => text.to_owned(),
        None => to_canonical_string(doc),
    }
}

/// The canonical file text of `doc` (what `trellis fmt` writes). A document already in
/// canonical form comes back byte for byte.
pub fn to_canonical_string(doc: &GraphMd) -> String {
    let eol = doc.line_ending.as_str();
    let mut out = String::with_capacity(doc.body.len() + 1024);
    if doc.bom {
        out.push('\u{feff}');
    }
    out.push_str("---");
    out.push_str(eol);
    out.push_str(&emit_document(&doc.front, eol));
    out.push_str("---");
    if doc.closing_newline || !doc.body.is_empty() {
        out.push_str(eol);
    }
    out.push_str(&doc.body);
    out
}
