//! Issue 8, core figures: open (read + parse + validate with the built-in registry's schemas +
//! layout sidecar, then compile), save (the whole DESIGN.md pipeline through trellis-doc:
//! canonical write, read back, revalidate, fingerprint check, atomic write + fsync, read back,
//! layout sidecar) into a temp dir, at 1,000 / 10,000 / 100,000 nodes; and one edit plus its
//! revalidation on a 10,000-node document; and the conversions of a GraphSpec to the other two
//! formats (issue 18: the one to GRAPH.md was quadratic in the nodes).
//! Run: `cargo bench -p trellis-bench --bench document` (`scripts/bench.sh` runs it).

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use serde_json::json;
use trellis_bench::{app_registries, clock, compile_registry, write_document};
use trellis_doc::{save, DocId, Edit, Position, RealFs, Session};
use trellis_spec::{from_spec, parse_spec, validate};

// What ships (the app and the CLI) runs on mimalloc; measure with the same allocator.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

const SIZES: [usize; 3] = [1_000, 10_000, 100_000];

fn tune(group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>, nodes: usize) {
    group.warm_up_time(Duration::from_secs(1));
    group.sample_size(if nodes >= 100_000 { 10 } else { 20 });
    group.measurement_time(Duration::from_secs(if nodes >= 100_000 { 10 } else { 4 }));
}

fn open(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("temp dir");
    let compile_with = compile_registry();
    let mut group = c.benchmark_group("open");
    for nodes in SIZES {
        let path = write_document(dir.path(), nodes, 42).expect("write the document");
        let text = std::fs::read_to_string(&path).expect("read back");
        group.throughput(Throughput::Bytes(text.len() as u64));
        tune(&mut group, nodes);
        // The document must open clean, or the figure would time error paths.
        let s = Session::open(&RealFs, DocId(1), &path, app_registries(), clock()).expect("opens");
        assert!(!s.layout_missing() && s.diagnostics().iter().all(|d| !d.is_error()));
        group.bench_with_input(BenchmarkId::new("session", nodes), &path, |b, path| {
            b.iter(|| {
                let s = Session::open(&RealFs, DocId(1), path, app_registries(), clock()).expect("opens");
                let spec = s.spec().expect("a GraphSpec");
                let compiled = from_spec(spec, &compile_with).and_then(|g| g.compile()).expect("compiles");
                black_box((s.diagnostics().len(), compiled))
            })
        });
        // The parts, to see where the time goes.
        let registry = trellis_spec::builtin::default_registry();
        group.bench_with_input(BenchmarkId::new("parse", nodes), &text, |b, t| {
            b.iter(|| black_box(parse_spec(t)))
        });
        let spec = parse_spec(&text).spec.expect("parses");
        group.bench_with_input(BenchmarkId::new("validate", nodes), &spec, |b, s| {
            b.iter(|| black_box(validate(s, Some(&registry))))
        });
        group.bench_with_input(BenchmarkId::new("compile", nodes), &spec, |b, s| {
            b.iter(|| black_box(from_spec(s, &compile_with).and_then(|g| g.compile()).is_ok()))
        });
    }
    group.finish();
}

fn save_pipeline(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut group = c.benchmark_group("save");
    for nodes in SIZES {
        let path = write_document(dir.path(), nodes, 42).expect("write the document");
        let mut session = Session::open(&RealFs, DocId(1), &path, app_registries(), clock()).expect("opens");
        group.throughput(Throughput::Bytes(std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0)));
        tune(&mut group, nodes);
        // A real save must happen each time (not a refusal).
        let first = save::save(&RealFs, &mut session).map_err(|r| r.diagnostics);
        assert!(first.is_ok(), "{first:?}");
        group.bench_function(BenchmarkId::from_parameter(nodes), |b| {
            b.iter(|| black_box(save::save(&RealFs, &mut session).expect("saved").bytes))
        });
    }
    group.finish();
}

fn edit(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = write_document(dir.path(), 10_000, 42).expect("write the document");
    let mut session = Session::open(&RealFs, DocId(1), &path, app_registries(), clock()).expect("opens");
    let mut group = c.benchmark_group("edit");
    group.warm_up_time(Duration::from_secs(1));
    group.sample_size(30);
    group.measurement_time(Duration::from_secs(5));
    // A config field changed (the document is revalidated, schemas included); values alternate
    // so every apply really changes the document. Edits of one field within a second coalesce
    // into one undo step, which is what typing does.
    let mut k = 0u64;
    group.bench_function("set_config_field/10000", |b| {
        b.iter(|| {
            k += 1;
            let e = Edit::SetConfigField {
                id: "n5003".into(), // a `noop` node: `note` is in its schema
                path: "/note".into(),
                value: Some(json!(format!("changed {k}"))),
            };
            black_box(session.apply(&e).expect("applied").diagnostics.len())
        })
    });
    // A node added and connected, then undone: structure changes, revalidation each time.
    group.bench_function("add_connect_undo/10000", |b| {
        b.iter(|| {
            let add = Edit::AddNode {
                id: Some("extra".into()),
                type_name: "noop".into(),
                config: None,
                position: Position { x: 0.0, y: -200.0 },
            };
            session.apply(&add).expect("added");
            let connect = Edit::Connect { from: "n10".into(), to: "extra".into(), when: None };
            let out = session.apply(&connect).expect("connected");
            session.undo();
            session.undo();
            black_box(out.diagnostics.len())
        })
    });
    group.finish();
}

/// A GraphSpec converted to GRAPH.md and to Weaveflow, losses reported: linear in the document
/// (GRAPH.md took 7.5 s at 10,000 nodes while each node's id was looked for among all before).
fn convert(c: &mut Criterion) {
    let mut group = c.benchmark_group("convert");
    for nodes in [1_000, 10_000] {
        let spec = parse_spec(&trellis_spec::generate::generate_text(nodes, 42)).spec.expect("parses");
        tune(&mut group, nodes);
        group.bench_with_input(BenchmarkId::new("graphmd", nodes), &spec, |b, s| {
            b.iter(|| black_box(trellis_formats::convert::graphmd::from_graphspec(s).losses.len()))
        });
        group.bench_with_input(BenchmarkId::new("weaveflow", nodes), &spec, |b, s| {
            b.iter(|| black_box(trellis_formats::convert::from_graphspec(s).losses.len()))
        });
    }
    group.finish();
}

criterion_group!(benches, open, save_pipeline, edit, convert);
criterion_main!(benches);
