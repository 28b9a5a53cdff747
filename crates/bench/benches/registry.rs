//! Issue 12's "within a second" figures, in the release profile: hostile registry manifests and
//! configs are read (or refused) and an edit in the registry editor revalidates the open
//! documents. The tests beside the code check what happens to such input (refused or handled,
//! never a panic); how long it takes is measured here, not asserted in a timed test.
//! Run: `cargo bench --profile release -p trellis-bench --bench registry` (`scripts/bench.sh`).

use std::hint::black_box;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use trellis_bench::{clock, write_document};
use trellis_doc::discovery::{discover, registry_loader, DiscoveryOptions};
use trellis_doc::registry_editor::RegistryHistory;
use trellis_doc::{RealFs, Workspace};
use trellis_spec::registry_edit::RegistryEdit;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// A manifest of `n` types, each with a small schema (an integer field with a maximum).
fn many_types(n: usize) -> String {
    let types: Vec<String> = (0..n)
        .map(|i| {
            format!(
                r#"{{"type": "t{i}", "config_schema": {{"type": "object", "properties": {{"n": {{"type": "integer", "maximum": {}}}}}}}, "defaults": {{"n": 1}}}}"#,
                i % 10 + 1
            )
        })
        .collect();
    format!(r#"{{"types": [{}]}}"#, types.join(","))
}

/// A manifest whose one type has a config field with an enum of `n` strings.
fn huge_enum(n: usize) -> String {
    let values: Vec<String> = (0..n).map(|i| format!("\"v{i}\"")).collect();
    format!(
        r#"{{"types": [{{"type": "pick", "config_schema": {{"type": "object", "properties": {{"choice": {{"enum": [{}]}}}}}}}}]}}"#,
        values.join(",")
    )
}

/// A GraphSpec of `n` `pick` nodes in a chain, each choosing a value near the enum's end.
fn picks(n: usize, values: usize) -> String {
    let nodes: Vec<String> = (0..n)
        .map(|i| {
            format!(
                r#"{{"id": "p{i}", "type": "pick", "config": {{"choice": "v{}"}}}}"#,
                values - 1 - i % 100
            )
        })
        .collect();
    let mut edges = vec![r#"{"from": "__start__", "to": "p0"}"#.to_owned()];
    edges.extend((1..n).map(|i| format!(r#"{{"from": "p{}", "to": "p{i}"}}"#, i - 1)));
    edges.push(format!(r#"{{"from": "p{}", "to": "__end__"}}"#, n - 1));
    format!(r#"{{"name": "picks", "nodes": [{}], "edges": [{}]}}"#, nodes.join(","), edges.join(","))
}

fn write(dir: &Path, name: &str, text: &str) {
    std::fs::write(dir.join(name), text).expect("write a bench file");
}

fn hostile_manifests(c: &mut Criterion) {
    let mut group = c.benchmark_group("registry-hostile");
    group.warm_up_time(Duration::from_secs(1)).sample_size(10).measurement_time(Duration::from_secs(6));

    let dir = tempfile::tempdir().expect("temp dir");
    write(dir.path(), "huge.registry.json", &many_types(50_000));
    let near = DiscoveryOptions::near(dir.path());
    let found = discover(&RealFs, &near);
    assert!(found.diagnostics.is_empty() && found.registry.contains("t49999"));
    group.bench_function(BenchmarkId::new("discover", "50000-types"), |b| {
        b.iter(|| black_box(discover(&RealFs, &near).registry.len()))
    });

    let deep_dir = tempfile::tempdir().expect("temp dir");
    let deep = format!(
        r#"{{"types": [{{"type": "t", "defaults": {}{}}}]}}"#,
        "[".repeat(100_000),
        "]".repeat(100_000)
    );
    write(deep_dir.path(), "deep.registry.json", &deep);
    let deep_near = DiscoveryOptions::near(deep_dir.path());
    assert!(!discover(&RealFs, &deep_near).diagnostics.is_empty(), "the deep manifest is refused");
    group.bench_function(BenchmarkId::new("discover", "nested-100000-deep"), |b| {
        b.iter(|| black_box(discover(&RealFs, &deep_near).diagnostics.len()))
    });

    // 100,000 enum values, 1,000 nodes whose configs the schema checks: open = read + validate.
    let enum_dir = tempfile::tempdir().expect("temp dir");
    write(enum_dir.path(), "pick.registry.json", &huge_enum(100_000));
    write(enum_dir.path(), "picks.json", &picks(1_000, 100_000));
    let picks_path = enum_dir.path().join("picks.json");
    let mut ws = Workspace::new(Arc::new(RealFs), clock(), enum_dir.path(), registry_loader());
    let id = ws.open(&picks_path).expect("the picks document opens");
    assert!(ws.session(id).expect("open").diagnostics().iter().all(|d| !d.is_error()));
    group.bench_function(BenchmarkId::new("open", "1000-nodes-100000-value-enum"), |b| {
        b.iter(|| {
            let mut ws = Workspace::new(Arc::new(RealFs), clock(), enum_dir.path(), registry_loader());
            black_box(ws.open(&picks_path).expect("opens"))
        })
    });
    group.finish();
}

/// An edit in the registry editor: write the project registry, reload every open document's
/// registries and revalidate them (issue 12: "every open document is revalidated within a
/// second"), with a 10,000-node document open.
fn editor_revalidation(c: &mut Criterion) {
    let mut group = c.benchmark_group("registry-editor");
    group.warm_up_time(Duration::from_secs(1)).sample_size(10).measurement_time(Duration::from_secs(8));
    let dir = tempfile::tempdir().expect("temp dir");
    let path = write_document(dir.path(), 10_000, 42).expect("write the document");
    write(dir.path(), "project.registry.json", &many_types(1));
    let mut ws = Workspace::new(Arc::new(RealFs), clock(), dir.path(), registry_loader());
    let id = ws.open(&path).expect("opens");
    assert_eq!(ws.session(id).expect("open").spec().map(|s| s.nodes.len()), Some(10_000));
    let mut history = RegistryHistory::default();
    let mut flip = false;
    group.bench_function(BenchmarkId::new("edit-and-revalidate", 10_000), |b| {
        b.iter(|| {
            flip = !flip;
            let edit = RegistryEdit::SetText {
                type_name: "t0".into(),
                field: "description".into(),
                value: Some(if flip { "one" } else { "two" }.into()),
            };
            let written = ws.edit_registry(id, Some(0), &edit, &mut history).expect("the edit is written");
            black_box(written.events.len())
        })
    });
    group.finish();
}

criterion_group!(benches, hostile_manifests, editor_revalidation);
criterion_main!(benches);
