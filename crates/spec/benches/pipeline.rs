//! Core pipeline benchmark: parse + validate + from_spec + compile + to_spec + canonical write
//! on generated documents of 1,000 / 10,000 / 100,000 nodes (`trellis_spec::generate`); the
//! findings' cost; `fmt --check`'s reading and comparing of a canonical text.
//! Run: `cargo bench -p trellis-spec --bench pipeline`. Figures: docs/BENCHMARKS.md.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use trellis_spec::generate::generate_text;
use trellis_spec::parse_spec;
use trellis_spec::pipeline::{generated_registry, round_trip};
use trellis_spec::writer::is_canonical;

// What ships (the app and the CLI) runs on mimalloc; measure with the same allocator.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn pipeline(c: &mut Criterion) {
    let registry = generated_registry();
    let mut group = c.benchmark_group("pipeline");
    group.warm_up_time(Duration::from_secs(1));
    for nodes in [1_000usize, 10_000, 100_000] {
        let text = generate_text(nodes, 42);
        // The document must survive the pipeline unchanged, or the numbers mean nothing.
        assert_eq!(round_trip(&text, &registry).as_deref().ok(), Some(text.as_str()));
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.sample_size(if nodes >= 100_000 { 10 } else { 30 });
        group.measurement_time(Duration::from_secs(if nodes >= 100_000 { 8 } else { 4 }));
        group.bench_with_input(BenchmarkId::from_parameter(nodes), &text, |b, text| {
            b.iter(|| black_box(round_trip(black_box(text), &registry)))
        });
    }
    group.finish();
}

/// Reading with spans for every finding: the 10,000-node document as generated (no finding)
/// beside the same document with an unknown field in every node (10,000 warnings, each placed
/// by line and column). The difference is the cost of the findings, which must stay linear.
fn findings(c: &mut Criterion) {
    let mut group = c.benchmark_group("findings");
    group.warm_up_time(Duration::from_secs(1));
    group.sample_size(20);
    let clean = generate_text(10_000, 42);
    let noisy = clean.replace("\"config\": {", "\"note\": 1,\n      \"config\": {");
    for (name, text) in [("0", &clean), ("10000", &noisy)] {
        let parsed = parse_spec(text);
        let placed = parsed.diagnostics.iter().filter(|d| d.span.is_some()).count();
        let want = if name == "0" { 0 } else { 10_000 };
        assert_eq!((parsed.diagnostics.len(), placed), (want, want));
        group.bench_with_input(BenchmarkId::from_parameter(name), text, |b, text| {
            b.iter(|| black_box(parse_spec(black_box(text))))
        });
    }
    group.finish();
}

/// `trellis fmt --check` of a document already in canonical form: read into the model and
/// compared with the writer's text as it is written (`writer::is_canonical`). In process the
/// model's memory is reused from one run to the next, so this shows the reading and writing
/// only, not the fresh memory a real run pays for the model.
fn fmt_check(c: &mut Criterion) {
    let mut group = c.benchmark_group("fmt_check");
    group.warm_up_time(Duration::from_secs(1));
    group.sample_size(20);
    for nodes in [10_000usize, 100_000] {
        let text = generate_text(nodes, 42);
        let spec = parse_spec(&text).spec.expect("the generated document reads");
        assert!(is_canonical(&spec, &text), "the generated text is canonical");
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_with_input(BenchmarkId::new("read_then_compare", nodes), &text, |b, text| {
            b.iter(|| {
                let spec = parse_spec(black_box(text)).spec.expect("reads");
                black_box(is_canonical(&spec, text))
            })
        });
    }
    group.finish();
}

criterion_group!(benches, pipeline, findings, fmt_check);
criterion_main!(benches);
