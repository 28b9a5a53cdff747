//! The oracle of the GraphSpec reader and writer on any bytes: `parse_spec` gives what the plain
//! serde path gives (serde_json into one `Value`, repeated keys refused, then the tree reader
//! `read::spec_from_value`, spans filled by `json::fill_spans`): the same document, key order and
//! number text included, with the same findings, or the same first error; the same validation;
//! and the canonical text is serde_json's pretty text of the document the plain path reads, which
//! `writer::is_canonical` recognises exactly.
//!
//! Run: `cargo +nightly fuzz run reader_oracle -- -max_total_time=60` (from this folder's
//! parent); seeds: `fuzz/corpus/reader_oracle` (scripts/fuzz.sh copies the fixtures and corpus).
#![no_main]

use libfuzzer_sys::fuzz_target;
use trellis_spec::read::{spec_from_value, Parsed};
use trellis_spec::{json, parse_spec, parse_spec_bytes, to_canonical_string, validate, writer};

fn tree_read(text: &str) -> Parsed {
    match json::parse(text) {
        Ok(value) => {
            let mut parsed = spec_from_value(value);
            json::fill_spans(text, &mut parsed.diagnostics);
            parsed
        }
        Err(d) => Parsed { diagnostics: vec![d], ..Parsed::default() },
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        // Not UTF-8: one finding, the place of the first bad byte.
        let read = parse_spec_bytes(data);
        assert!(read.spec.is_none() && read.diagnostics.len() == 1, "bytes that are not UTF-8 read: {read:?}");
        assert_eq!(read.diagnostics[0].code, json::codes::INVALID_UTF8);
        return;
    };
    let read = parse_spec(text);
    let tree = tree_read(text);
    assert_eq!(read.diagnostics, tree.diagnostics, "findings differ for {text:?}");
    match (&read.spec, &tree.spec) {
        (None, None) => {}
        (Some(a), Some(b)) => {
            assert!(a.identical(b), "documents differ for {text:?}:\n{a:?}\n{b:?}");
            assert_eq!(validate(a, None), validate(b, None), "validation differs for {text:?}");
            let canonical = to_canonical_string(a);
            let serde = serde_json::to_string_pretty(b).expect("a document serializes") + "\n";
            assert_eq!(canonical, serde, "the canonical text is not serde_json's for {text:?}");
            assert_eq!(writer::is_canonical(a, text), text == canonical, "is_canonical is wrong for {text:?}");
        }
        (a, b) => panic!("one path read a document, the other not, for {text:?}: {a:?} / {b:?}"),
    }
});
