//! Any bytes through the GRAPH.md path: front matter and YAML read -> the §2 rules -> path
//! analysis -> writers. Nothing may panic; an unedited document writes its own bytes back, and
//! the canonical text of a document reads back to a document whose canonical text is the same.
//!
//! Run: `cargo +nightly fuzz run graphmd_read -- -max_total_time=60`; seeds: the GRAPH.md
//! documents of `../shared/corpus/graphmd` (scripts/fuzz.sh copies them).
#![no_main]

use libfuzzer_sys::fuzz_target;
use trellis_formats::graphmd::{self, paths};

fuzz_target!(|data: &[u8]| {
    let read = graphmd::read_bytes(data);
    let Some(doc) = read.doc else { return };
    let (topology, diagnostics) = graphmd::check(&doc);
    let _ = paths::analyse(&topology, &diagnostics, None);
    let Ok(text) = std::str::from_utf8(data) else { return };
    assert_eq!(graphmd::to_string(&doc), text, "an unedited GRAPH.md does not write its own bytes");
    let canonical = graphmd::to_canonical_string(&doc);
    let again = graphmd::read(&canonical).doc.expect("canonical GRAPH.md reads back");
    assert_eq!(graphmd::to_canonical_string(&again), canonical, "canonical GRAPH.md is not a fixed point");
});
