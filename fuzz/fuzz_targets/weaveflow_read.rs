//! Any bytes through the Weaveflow path: strict read -> validate (Weaveflow's built-in types)
//! -> write. Nothing may panic, and a definition that was read writes text that reads back to
//! the same value and is a fixed point of the writer.
//!
//! Run: `cargo +nightly fuzz run weaveflow_read -- -max_total_time=60`; seeds: the Weaveflow
//! documents of `../shared/corpus/weaveflow` (scripts/fuzz.sh copies them).
#![no_main]

use libfuzzer_sys::fuzz_target;
use trellis_formats::weaveflow::{self, ValidateOptions};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let parsed = weaveflow::check_text(text, None, &ValidateOptions::default());
    let Some(doc) = parsed.doc else { return };
    let written = weaveflow::to_string(&doc);
    let again = weaveflow::parse(&written).doc.expect("written Weaveflow text reads back");
    assert_eq!(again.value(), doc.value(), "written Weaveflow text reads back to another value");
    assert_eq!(weaveflow::to_string(&again), written, "the Weaveflow writer is not a fixed point");
});
