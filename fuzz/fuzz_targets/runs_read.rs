//! Run records of every source (trellis-runs): any bytes are read without a panic, and what is
//! read can be drawn, rebuilt, summarised and compared with itself.
#![no_main]

use libfuzzer_sys::fuzz_target;
use trellis_runs::{compare, overlay, state, summary, GraphShape, ReadOptions};

fuzz_target!(|data: &[u8]| {
    let options = ReadOptions::default();
    let Ok(read) = trellis_runs::read_bytes(data, &options) else { return };
    let shape = GraphShape::default();
    let _ = overlay::path(&read.run, &shape);
    let index = state::StateIndex::build(&read.run, &shape.reducers);
    if !read.run.steps.is_empty() {
        let _ = index.after(&read.run, &shape.reducers, read.run.steps.len() / 2);
    }
    let _ = summary::summarize(&read.run);
    let _ = compare::compare(&read.run, &read.run, &shape);
});
