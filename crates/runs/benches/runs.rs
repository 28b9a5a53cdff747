//! Benchmarks of runs (issue's speed targets): a run of 100,000 steps on a 10,000-node graph
//! read and drawn (target: the app opens it within 2 s), the state after a step anywhere in it
//! (the scrubber: within a frame), and a folder of 1,000 runs read and aggregated (within 5 s).

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use trellis_runs::graph::GraphShape;
use trellis_runs::state::StateIndex;
use trellis_runs::{file, generate, overlay, read_text, summary, ReadOptions};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

const NODES: usize = 10_000;
const STEPS: usize = 100_000;

fn shape(nodes: usize) -> GraphShape {
    let spec = trellis_spec::parse_spec(&generate::graph(nodes)).spec.expect("generated graph");
    GraphShape::from_spec(&spec)
}

fn big_run(c: &mut Criterion) {
    let text = generate::run_log(NODES, STEPS, 1);
    let graph = shape(NODES);
    let mut g = c.benchmark_group("run 100k steps, 10k nodes");
    g.sample_size(10);
    g.bench_function("read", |b| {
        b.iter(|| black_box(read_text(&text, &ReadOptions::default()).expect("reads")))
    });
    let run = read_text(&text, &ReadOptions::default()).expect("reads").run;
    g.bench_function("path overlay", |b| b.iter(|| black_box(overlay::path(&run, &graph))));
    g.bench_function("state index", |b| b.iter(|| black_box(StateIndex::build(&run, &graph.reducers))));
    g.bench_function("open (read + overlay + state index)", |b| {
        b.iter(|| {
            let run = read_text(&text, &ReadOptions::default()).expect("reads").run;
            black_box((overlay::path(&run, &graph), StateIndex::build(&run, &graph.reducers)))
        })
    });
    g.finish();
    let index = StateIndex::build(&run, &graph.reducers);
    let mut i = 0usize;
    c.bench_function("state after one step (scrubber), 100k-step run", |b| {
        b.iter(|| {
            // Steps spread over the run, never the same block twice in a row.
            i = (i + 7919) % run.steps.len();
            black_box(index.after(&run, &graph.reducers, i))
        })
    });
}

fn folder(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("temp dir");
    let paths: Vec<std::path::PathBuf> = (0..1000)
        .map(|k| {
            let p = dir.path().join(format!("run-{k:04}.jsonl"));
            std::fs::write(&p, generate::run_log(200, 100 + (k % 50), k as u64)).expect("write");
            p
        })
        .collect();
    let graph = shape(200);
    let mut g = c.benchmark_group("folder of 1,000 runs");
    g.sample_size(10);
    g.bench_function("read + aggregate", |b| {
        b.iter(|| {
            use rayon::prelude::*;
            let runs: Vec<_> = paths
                .par_iter()
                .filter_map(|p| file::open(p, &ReadOptions::default()).ok().map(|r| r.run))
                .collect();
            black_box(summary::aggregate(&runs, &graph))
        })
    });
    g.finish();
}

criterion_group!(benches, big_run, folder);
criterion_main!(benches);
