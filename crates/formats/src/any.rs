//! One document in any of the three formats: the one place that goes from a file's name and
//! text to "which format, read how", and from a read document to its validation, its canonical
//! text and its GraphSpec conversion. The command line (`crates/cli/src/load.rs`) and the diff
//! and merge engine (`trellis-diff`'s reader) both read through here, so format dispatch lives
//! in one place.

use serde_json::Value;
use trellis_spec::read::{parse_spec, Parsed};
use trellis_spec::writer::to_canonical_string;
use trellis_spec::{Diagnostic, GraphSpec, Registry, Severity};

use crate::convert::{self, Conversion};
use crate::detect::{self, Format};
use crate::graphmd::{self, emit, yaml, ReadResult};
use crate::weaveflow;

/// A document as read, in its format. A variant is there even when the text did not read:
/// its diagnostics say why, and the document inside is `None`.
// One short-lived value per file: boxing a variant would buy nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
pub enum AnyDocument {
    GraphSpec(Parsed),
    /// Read only: validation needs the registry and the accepted version ([`Self::validate`]).
    Weaveflow(weaveflow::Parsed),
    /// Read and validated (`graphmd::read_and_validate`: GRAPH.md needs no registry), spans
    /// filled.
    GraphMd(ReadResult),
}

impl AnyDocument {
    /// Detects the format of `text` (`name` is the file name, which tells GRAPH.md apart; `None`
    /// for standard input) and reads it. A text in no known format, or in two, is the
    /// detector's diagnostic.
    ///
    /// A GraphSpec (by its top-level keys) is read at once, without checking the whole text for
    /// detection first: the reader checks it the same way (syntax, nesting, repeated keys at
    /// every level). When the reader finds a problem in the JSON, detection runs as before, so a
    /// broken text gets exactly the answer it always got.
    pub fn read(name: Option<&str>, text: &str) -> Result<AnyDocument, Diagnostic> {
        if detect::looks_like_graphspec(name, text) {
            let parsed = parse_spec(text);
            if !parsed.diagnostics.iter().any(|d| d.code.starts_with("json/")) {
                return Ok(AnyDocument::GraphSpec(parsed));
            }
        }
        let format = detect::detect(name, text)?;
        Ok(Self::read_as(format, text))
    }

    /// Reads `text` as a document in `format`.
    pub fn read_as(format: Format, text: &str) -> AnyDocument {
        match format {
            Format::GraphSpec => AnyDocument::GraphSpec(parse_spec(text)),
            Format::Weaveflow => AnyDocument::Weaveflow(weaveflow::parse(text)),
            Format::GraphMd => AnyDocument::GraphMd(graphmd::read_and_validate(text)),
        }
    }

    pub fn format(&self) -> Format {
        match self {
            AnyDocument::GraphSpec(_) => Format::GraphSpec,
            AnyDocument::Weaveflow(_) => Format::Weaveflow,
            AnyDocument::GraphMd(_) => Format::GraphMd,
        }
    }

    /// What reading found (and, for GRAPH.md, validating).
    pub fn diagnostics(&self) -> &[Diagnostic] {
        match self {
            AnyDocument::GraphSpec(p) => &p.diagnostics,
            AnyDocument::Weaveflow(p) => &p.diagnostics,
            AnyDocument::GraphMd(r) => &r.diagnostics,
        }
    }

    /// True when the text read as a document (there may still be errors to report).
    pub fn is_readable(&self) -> bool {
        match self {
            AnyDocument::GraphSpec(p) => p.spec.is_some(),
            AnyDocument::Weaveflow(p) => p.doc.is_some(),
            AnyDocument::GraphMd(r) => r.doc.is_some(),
        }
    }

    /// The validation findings beyond reading (GraphSpec and Weaveflow against `registry`
    /// when given; GRAPH.md was validated when read, so nothing more). Nothing for a document
    /// that did not read.
    pub fn validate(&self, registry: Option<&Registry>, weaveflow_version: &str) -> Vec<Diagnostic> {
        match self {
            AnyDocument::GraphSpec(p) => {
                p.spec.as_ref().map_or_else(Vec::new, |s| trellis_spec::validate::validate(s, registry))
            }
            AnyDocument::Weaveflow(p) => p.doc.as_ref().map_or_else(Vec::new, |d| {
                let options =
                    weaveflow::ValidateOptions { expected_version: weaveflow_version.trim().to_owned() };
                weaveflow::validate(d.definition(), registry, &options)
            }),
            AnyDocument::GraphMd(_) => Vec::new(),
        }
    }

    /// The document's canonical text (what `trellis fmt` writes), `None` when it did not read.
    pub fn to_canonical_string(&self) -> Option<String> {
        match self {
            AnyDocument::GraphSpec(p) => p.spec.as_ref().map(to_canonical_string),
            AnyDocument::Weaveflow(p) => p.doc.as_ref().map(weaveflow::to_string),
            AnyDocument::GraphMd(r) => r.doc.as_ref().map(graphmd::to_canonical_string),
        }
    }

    /// The document as GraphSpec, with what the conversion could not carry (nothing for a
    /// GraphSpec); `None` when it did not read.
    pub fn to_graphspec(&self) -> Option<Conversion<GraphSpec>> {
        match self {
            AnyDocument::GraphSpec(p) => {
                p.spec.clone().map(|output| Conversion { output, losses: Vec::new() })
            }
            AnyDocument::Weaveflow(p) => p.doc.as_ref().map(convert::to_graphspec),
            AnyDocument::GraphMd(r) => r.doc.as_ref().map(convert::graphmd::to_graphspec),
        }
    }

    /// The document as one JSON object, the way its format lays it out (a GRAPH.md's front
    /// matter as JSON): what a structural comparison of two versions works on. `None` when it
    /// did not read.
    pub fn to_json(&self) -> Option<Value> {
        match self {
            AnyDocument::GraphSpec(p) => p.spec.as_ref().and_then(|s| serde_json::to_value(s).ok()),
            AnyDocument::Weaveflow(p) => p.doc.as_ref().map(|d| d.value().clone()),
            AnyDocument::GraphMd(r) => {
                r.doc.as_ref().map(|d| emit::yaml_to_json(&yaml::Yaml::map(d.front.clone())))
            }
        }
    }

    /// True when reading found an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics().iter().any(|d| d.severity == Severity::Error)
    }
}
