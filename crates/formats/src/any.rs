//! One document in any of the three formats: the one place that goes from a file's name and
//! text to "which format, read how", and from a read document to its validation, its canonical
//! text and its GraphSpec conversion. The command line (`crates/cli/src/load.rs`), the app's
//! documents (`trellis-doc`'s `Document` is read through here) and the diff and merge engine
//! (`trellis-diff`'s reader) all read through here, so format dispatch lives in one place.

use serde_json::Value;
use trellis_spec::read::{parse_spec, parse_spec_shared, Parsed};
use trellis_spec::writer::to_canonical_string;
use trellis_spec::{Diagnostic, GraphSpec, Registry, Severity, SharedText};

use crate::convert::{self, Conversion};
use crate::detect::{self, Format};
use crate::graphmd::{self, emit, yaml, ReadResult};
use crate::weaveflow;

/// A document as read, in its format. A variant is there even when the text did not read:
/// its diagnostics say why, and the document inside is `None`. Reading finds what the text
/// holds; what the document means is [`AnyDocument::validate`]'s.
// One short-lived value per file: boxing a variant would buy nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
pub enum AnyDocument {
    GraphSpec(Parsed),
    Weaveflow(weaveflow::Parsed),
    GraphMd(ReadResult),
}

impl AnyDocument {
    /// Detects the format of `text` (`name` is the file name, which tells GRAPH.md apart; `None`
    /// for standard input) and reads it. A text in no known format, or in two, is the
    /// detector's diagnostic.
    ///
    /// The detection and the reading are one sequence. A text whose top-level keys say GraphSpec
    /// ([`detect::looks_like_graphspec`]: the values below them are stepped over by serde_json,
    /// not checked) is read by the GraphSpec reader, which checks the whole text; when it reads a
    /// document, the text is valid JSON with those keys, so detection's answer is GraphSpec too.
    /// Any other text, or one that reader does not take, is detected (which words a broken file)
    /// and read in the format detected.
    pub fn read(name: Option<&str>, text: &str) -> Result<AnyDocument, Diagnostic> {
        Self::read_with(name, text, || parse_spec(text))
    }

    /// [`read`](Self::read) of a shared text: a GraphSpec's configs refer to `text` rather than
    /// each holding a copy of its own ([`trellis_spec::shared_text`]).
    pub fn read_shared(name: Option<&str>, text: &SharedText) -> Result<AnyDocument, Diagnostic> {
        Self::read_with(name, text.as_str(), || parse_spec_shared(text))
    }

    /// The detect-and-read sequence of [`read`](Self::read), a GraphSpec read by `graphspec`.
    fn read_with(
        name: Option<&str>,
        text: &str,
        graphspec: impl Fn() -> Parsed,
    ) -> Result<AnyDocument, Diagnostic> {
        let mut tried = None;
        if detect::looks_like_graphspec(name, text) {
            let parsed = graphspec();
            if parsed.spec.is_some() {
                return Ok(AnyDocument::GraphSpec(parsed));
            }
            tried = Some(parsed);
        }
        Ok(match detect::detect(name, text)? {
            Format::GraphSpec => AnyDocument::GraphSpec(tried.unwrap_or_else(graphspec)),
            other => Self::read_as(other, text),
        })
    }

    /// Reads `text` as a document in `format`.
    pub fn read_as(format: Format, text: &str) -> AnyDocument {
        match format {
            Format::GraphSpec => AnyDocument::GraphSpec(parse_spec(text)),
            Format::Weaveflow => AnyDocument::Weaveflow(weaveflow::parse(text)),
            Format::GraphMd => AnyDocument::GraphMd(graphmd::read(text)),
        }
    }

    pub fn format(&self) -> Format {
        match self {
            AnyDocument::GraphSpec(_) => Format::GraphSpec,
            AnyDocument::Weaveflow(_) => Format::Weaveflow,
            AnyDocument::GraphMd(_) => Format::GraphMd,
        }
    }

    /// What reading found.
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
    /// when given; GRAPH.md needs no registry). Nothing for a document that did not read.
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
            AnyDocument::GraphMd(r) => r.doc.as_ref().map_or_else(Vec::new, graphmd::validate),
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

#[cfg(test)]
mod tests {
    use super::*;

    const SUPPORT: &str = include_str!("../../spec/tests/fixtures/valid/support.json");
    const SUPERVISOR: &str = include_str!("../tests/fixtures/weaveflow/corpus/supervisor_mode.json");

    /// Texts that are GraphSpecs, nearly GraphSpecs (broken in each way detection checks),
    /// other formats and no format.
    fn texts() -> Vec<String> {
        let deep =
            format!(r#"{{"nodes": [{{"id": "a", "config": {}1{}}}]}}"#, "[".repeat(200), "]".repeat(200));
        let mut v: Vec<String> = [
            SUPPORT,
            SUPERVISOR,
            r#"{"nodes": [}"#,
            r#"{"nodes": [], "nodes": []}"#,
            r#"{"nodes": [{"id": "a", "config": {"k": 1, "k": 2}}]}"#,
            r#"{"nodes": []} {"x": 1}"#,
            r#"{"nodes": []} trailing"#,
            r#"{"name": "x", "version": "1"}"#,
            r#"{"name": null}"#,
            r#"{"nodes": [], "state_modules": []}"#,
            r#"{"nodes": [], "entry_point": "a", "channels": {}}"#,
            r#"{"n\u006fdes": []}"#,
            r#"{"nodes": "x"}"#,
            r#"{"name": "a \" } ] \\", "nodes": [{"id": "b\"}", "config": {"s": "[{"}}]}"#,
            r#"{"nodes": [1, true, null, -2.5e3, {"id": "x"}], "edges": []}"#,
            "{}",
            "{ }",
            "[]",
            "  \n{\"nodes\":[]}  \n",
            "\u{feff}{\"nodes\": []}",
            r#"{"nodes": [], "edges": [{"from": "a", "to": "b"}], "name": 5}"#,
            r#"{"nodes": [{"id": "a"}], "edges" []}"#,
            r#"{"nodes": [{"id": "a"}]"#,
            r#"{"nodes""#,
            "",
        ]
        .map(str::to_owned)
        .to_vec();
        v.push(deep);
        v
    }

    /// Reading without detection's pass gives what detecting and then reading gives, for
    /// every text: the same document, findings and errors.
    #[test]
    fn reading_a_graphspec_without_detection_is_reading_it_detected() {
        for name in [Some("flow.json"), None, Some("GRAPH.md")] {
            for text in texts() {
                let quick = AnyDocument::read(name, &text);
                let detected = detect::detect(name, &text).map(|f| AnyDocument::read_as(f, &text));
                match (&quick, &detected) {
                    (Err(a), Err(b)) => assert_eq!(a, b, "{text}"),
                    (Ok(a), Ok(b)) => {
                        assert_eq!(a.format(), b.format(), "{text}");
                        assert_eq!(a.diagnostics(), b.diagnostics(), "{text}");
                        if let (AnyDocument::GraphSpec(a), AnyDocument::GraphSpec(b)) = (a, b) {
                            assert_eq!(a, b, "{text}");
                        }
                    }
                    _ => panic!("{text}: {quick:?} but detected {detected:?}"),
                }
            }
        }
    }
}
