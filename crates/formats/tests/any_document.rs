//! The any-format document: one read for the three formats (detected by name and content),
//! validation, the canonical text (which reads back to itself), the GraphSpec conversion, and
//! the JSON view the diff engine compares; a text in no format is the detector's error.

use trellis_formats::any::AnyDocument;
use trellis_formats::detect::{codes, Format};

const SUPPORT: &str = include_str!("../../spec/tests/fixtures/valid/support.json");
const SUPERVISOR: &str = include_str!("fixtures/weaveflow/corpus/supervisor_mode.json");
const TRIAGE: &str = include_str!("fixtures/graphmd/support-triage.GRAPH.md");

#[test]
fn each_format_reads_writes_round_trips_and_converts() {
    for (name, text, format) in [
        ("support.json", SUPPORT, Format::GraphSpec),
        ("supervisor_mode.json", SUPERVISOR, Format::Weaveflow),
        ("GRAPH.md", TRIAGE, Format::GraphMd),
    ] {
        let doc = AnyDocument::read(Some(name), text).unwrap_or_else(|d| panic!("{name}: {}", d.message));
        assert_eq!(doc.format(), format, "{name}");
        assert!(doc.is_readable() && !doc.has_errors(), "{name}: {:?}", doc.diagnostics());
        let errors: Vec<_> = doc.validate(None, "1.0").into_iter().filter(|d| d.is_error()).collect();
        assert!(errors.is_empty(), "{name}: {errors:?}");

        // The canonical text reads back as the same format and writes to itself.
        let canonical = doc.to_canonical_string().expect("writes");
        let again = AnyDocument::read(Some(name), &canonical).expect("reads back");
        assert_eq!(again.format(), format);
        assert_eq!(again.to_canonical_string().as_deref(), Some(canonical.as_str()), "{name}");
        assert_eq!(again.to_json(), doc.to_json(), "{name}: the same document");

        // To GraphSpec: the nodes carry over (GraphSpec itself converts to itself, losslessly).
        let c = doc.to_graphspec().expect("converts");
        let ids: Vec<&str> = c.output.nodes.iter().map(|n| n.id.as_str()).collect();
        let json = doc.to_json().expect("json");
        let want: Vec<&str> =
            json["nodes"].as_array().expect("nodes").iter().filter_map(|n| n["id"].as_str()).collect();
        assert_eq!(ids, want, "{name}");
        if format == Format::GraphSpec {
            assert!(c.losses.is_empty());
        }
    }
}

#[test]
fn a_text_in_no_format_is_the_detectors_error_and_a_broken_one_its_readers() {
    let e =
        AnyDocument::read(Some("package.json"), r#"{"name": "x", "version": "1"}"#).expect_err("no graph");
    assert_eq!(e.code, codes::UNKNOWN_FORMAT);
    let broken = AnyDocument::read(Some("flow.json"), "{\"nodes\": [}").expect_err("not JSON");
    assert!(broken.message.contains("line 1"), "{}", broken.message);
    // Readable as a format, with errors: the document says so and has nothing to write.
    let doc = AnyDocument::read_as(Format::GraphSpec, r#"{"nodes": 3}"#);
    assert!(doc.has_errors() && !doc.is_readable() && doc.to_canonical_string().is_none());
}
