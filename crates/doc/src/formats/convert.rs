//! Import and Export: an open document converted to another format, with what the target
//! cannot hold listed as warnings (`convert/...`) so the app can ask before writing. The
//! conversions themselves are `trellis_formats::convert`'s; Weaveflow <-> GRAPH.md goes
//! through GraphSpec and lists the losses of both legs.

use serde::Serialize;
use trellis_formats::convert;
use trellis_formats::graphmd::GraphMd;
use trellis_formats::weaveflow::WeaveflowDoc;
use trellis_spec::{writer, Diagnostic, GraphSpec};
use ts_rs::TS;

use crate::document::{DocFormat, Document};

/// A document converted to `format`: the text a Save As would write, and the losses.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct ConvertedText {
    pub format: DocFormat,
    pub text: String,
    /// One warning per thing the target cannot hold (empty: nothing lost).
    pub losses: Vec<Diagnostic>,
}

fn losses(l: &[convert::Loss]) -> Vec<Diagnostic> {
    l.iter().map(convert::Loss::to_diagnostic).collect()
}

/// The document as a GraphSpec, with what that lost.
fn to_spec(document: &Document) -> (GraphSpec, Vec<Diagnostic>) {
    match document {
        Document::GraphSpec(s) => (s.clone(), Vec::new()),
        Document::Weaveflow(d) => {
            let c = convert::to_graphspec(d);
            let l = losses(&c.losses);
            (c.output, l)
        }
        Document::GraphMd(d) => {
            let c = convert::graphmd::to_graphspec(d);
            let l = losses(&c.losses);
            (c.output, l)
        }
    }
}

/// Converts a document to `to`. The same format gives its own text, nothing lost.
pub fn convert_document(document: &Document, to: DocFormat) -> ConvertedText {
    if document.format() == to {
        return ConvertedText { format: to, text: document.to_text(), losses: Vec::new() };
    }
    let (spec, mut lost) = to_spec(document);
    let text = match to {
        DocFormat::GraphSpec => writer::to_canonical_string(&spec),
        DocFormat::Weaveflow => {
            let c: convert::Conversion<WeaveflowDoc> = convert::from_graphspec(&spec);
            lost.extend(losses(&c.losses));
            trellis_formats::weaveflow::to_string(&c.output)
        }
        DocFormat::GraphMd => {
            let c: convert::Conversion<GraphMd> = convert::graphmd::from_graphspec(&spec);
            lost.extend(losses(&c.losses));
            trellis_formats::graphmd::to_string(&c.output)
        }
    };
    ConvertedText { format: to, text, losses: lost }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::parse_document;

    fn fixture(rel: &str) -> String {
        std::fs::read_to_string(format!("{}/../formats/tests/fixtures/{rel}", env!("CARGO_MANIFEST_DIR")))
            .expect("fixture")
    }

    #[test]
    fn every_direction_gives_a_text_of_the_target_format() {
        let sources = [
            ("state_operations.json", fixture("weaveflow/corpus/state_operations.json")),
            ("GRAPH.md", fixture("graphmd/support-triage.GRAPH.md")),
            ("support.json", crate::workspace::EXAMPLE.to_owned()),
        ];
        for (name, text) in sources {
            let (doc, _) = parse_document(Some(name), &text).expect("reads");
            for to in [DocFormat::GraphSpec, DocFormat::Weaveflow, DocFormat::GraphMd] {
                let c = convert_document(&doc, to);
                let out_name = match to {
                    DocFormat::GraphMd => "out.graph.md",
                    _ => "out.json",
                };
                let (back, _) = parse_document(Some(out_name), &c.text)
                    .unwrap_or_else(|d| panic!("{name} -> {to:?} does not read back: {d:?}"));
                assert_eq!(back.format(), to, "{name} -> {to:?}");
                assert!(c.losses.iter().all(|l| l.code.starts_with("convert/") || l.code.contains('/')));
                if doc.format() == to {
                    assert!(c.losses.is_empty());
                    assert_eq!(c.text, text, "{name}: same format is the document's own text");
                }
            }
        }
    }

    #[test]
    fn weaveflow_to_graphspec_lists_what_it_loses() {
        let (doc, _) = parse_document(Some("a.json"), &fixture("weaveflow/corpus/state_operations.json"))
            .expect("reads");
        let c = convert_document(&doc, DocFormat::GraphSpec);
        // State bindings have no GraphSpec equivalent: each is a loss naming its node.
        assert!(c.losses.iter().any(|l| l.code == "convert/state-bindings"), "{:?}", c.losses);
    }
}
