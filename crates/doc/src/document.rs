//! The document of a session, one variant per format: which format a text holds and how it
//! is read, written, and named. Everything above it (edits, undo, save, the view) works on a
//! [`Document`]; nothing here knows about sessions, history or files.

use serde::{Deserialize, Serialize};
use trellis_formats::any::AnyDocument;
use trellis_formats::graphmd::yaml::Yaml;
use trellis_formats::graphmd::GraphMd;
use trellis_formats::weaveflow::WeaveflowDoc;
use trellis_spec::diagnostic::has_errors;
use trellis_spec::{read, writer, Diagnostic, GraphSpec};
use ts_rs::TS;

use crate::formats::splice;

/// Diagnostic codes of reading a document.
pub mod codes {
    /// The file could not be read (the message gives the system's reason).
    pub const READ_FAILED: &str = "doc/read-failed";
    /// The file is a format this session cannot edit yet (or no known format).
    pub const UNSUPPORTED_FORMAT: &str = "doc/unsupported-format";
}

/// A document's id in the workspace (what the UI refers to; never a path).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, TS)]
#[serde(transparent)]
#[ts(export)]
pub struct DocId(pub u64);

impl std::fmt::Display for DocId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "doc-{}", self.0)
    }
}

/// The format of a document.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
#[ts(export)]
pub enum DocFormat {
    GraphSpec,
    /// A Weaveflow Graph Definition (positions in `metadata.web.positions`).
    Weaveflow,
    /// A GRAPH.md file (positions in the `<stem>.layout.json` sidecar).
    GraphMd,
}

/// The document itself. One variant per format; each has its own edit handler (GraphSpec:
/// `apply/`; Weaveflow and GRAPH.md: `formats/`), met in `crate::perform`, and all give
/// reversible undo steps.
// One document per session: boxing the big variant would only burden every match.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum Document {
    GraphSpec(GraphSpec),
    Weaveflow(WeaveflowDoc),
    GraphMd(GraphMd),
}

impl Document {
    pub fn format(&self) -> DocFormat {
        match self {
            Document::GraphSpec(_) => DocFormat::GraphSpec,
            Document::Weaveflow(_) => DocFormat::Weaveflow,
            Document::GraphMd(_) => DocFormat::GraphMd,
        }
    }
    /// The node ids in document order (for the layout sidecar).
    pub fn node_ids(&self) -> Vec<&str> {
        match self {
            Document::GraphSpec(s) => s.nodes.iter().map(|n| n.id.as_str()).collect(),
            Document::Weaveflow(d) => d.definition().nodes.iter().map(|n| n.id.as_str()).collect(),
            Document::GraphMd(d) => graphmd_node_ids(d),
        }
    }
    /// The format's writer: for a GraphSpec, the canonical `to_spec` text; Weaveflow and
    /// GRAPH.md keep the file's own text apart from what was edited.
    pub fn to_text(&self) -> String {
        match self {
            Document::GraphSpec(s) => writer::to_canonical_string(s),
            Document::Weaveflow(d) => trellis_formats::weaveflow::to_string(d),
            Document::GraphMd(d) => trellis_formats::graphmd::to_string(d),
        }
    }
}

/// A GRAPH.md document's node ids in document order.
fn graphmd_node_ids(d: &GraphMd) -> Vec<&str> {
    d.node_maps()
        .filter_map(|(_, m)| m.get("id").and_then(Yaml::as_scalar).map(|s| s.value.as_str()))
        .collect()
}

/// Reads a document of any format through trellis-formats' one detect-and-read sequence
/// ([`AnyDocument::read`]). A document that holds but has errors opens (the user is here to fix
/// them); one that cannot be read at all answers why.
pub(crate) fn parse_document(file_name: Option<&str>, text: &str) -> ReadResult {
    match AnyDocument::read(file_name, text) {
        Ok(AnyDocument::GraphSpec(parsed)) => graphspec_parsed(parsed, None),
        Ok(AnyDocument::Weaveflow(parsed)) => match parsed.doc {
            Some(d) => Ok((Document::Weaveflow(d), parsed.diagnostics)),
            None => Err(parsed.diagnostics),
        },
        Ok(AnyDocument::GraphMd(read)) => match read.doc {
            Some(d) => Ok((Document::GraphMd(d), read.diagnostics)),
            None => Err(read.diagnostics),
        },
        // A GRAPH.md that is prose, not a workflow contract: said in one line.
        Err(d) if d.code == trellis_formats::detect::codes::NOT_A_CONTRACT => Err(vec![d]),
        // A text in no format: when the GraphSpec reader finds errors in it (broken JSON, a
        // JSON value that is not an object), those say more than "unknown format".
        Err(d) => graphspec_parsed(read::parse_spec(text), Some(d)),
    }
}

/// A document read, with its reading findings, or why it cannot be read.
type ReadResult = Result<(Document, Vec<Diagnostic>), Vec<Diagnostic>>;

fn graphspec_parsed(parsed: read::Parsed, detect_error: Option<Diagnostic>) -> ReadResult {
    match (parsed.spec, detect_error) {
        (Some(spec), None) => Ok((Document::GraphSpec(spec), parsed.diagnostics)),
        _ if has_errors(&parsed.diagnostics) => Err(parsed.diagnostics),
        (_, Some(d)) => Err(vec![d]),
        (None, None) => {
            Err(vec![Diagnostic::error(codes::UNSUPPORTED_FORMAT, "the text is not a GraphSpec document")])
        }
    }
}

/// The text a document would be saved as: a Weaveflow document spliced into the text the
/// file held (only edited values change), anything else by its writer.
pub(crate) fn text(document: &Document, source: Option<&str>) -> String {
    match document {
        Document::Weaveflow(d) => weaveflow_text(d, source),
        _ => document.to_text(),
    }
}

pub(crate) fn weaveflow_text(d: &trellis_formats::weaveflow::WeaveflowDoc, source: Option<&str>) -> String {
    source
        .and_then(|src| splice::splice(src, d.value()))
        .unwrap_or_else(|| trellis_formats::weaveflow::to_string(d))
}
