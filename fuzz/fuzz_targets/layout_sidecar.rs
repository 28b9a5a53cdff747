//! Any bytes as a layout sidecar (`name.layout.json`): read, then written for the ids it holds.
//! Nothing may panic; a sidecar that was read writes text that reads back to the same layout.
//!
//! Run: `cargo +nightly fuzz run layout_sidecar -- -max_total_time=60`.
#![no_main]

use libfuzzer_sys::fuzz_target;
use trellis_doc::layout::Layout;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(layout) = Layout::parse(text) else { return };
    let written = layout.to_text(layout.positions.keys().map(String::as_str));
    let again = Layout::parse(&written).expect("a written sidecar reads back");
    assert_eq!(again.positions, layout.positions, "a written sidecar reads back to other positions");
    assert_eq!(again.viewport, layout.viewport, "a written sidecar reads back to another viewport");
});
