//! Issue 15's budget: the diff of two 10,000-node specs and the merge of three, each within
//! 200 ms, measured from the texts (reading included, as `trellis diff` and the merge driver
//! run). Documents from trellis-bench's generator (the shape of the peer benchmark's
//! `gen-spec.mjs`), edited the way two branches would: config values changed, nodes added and
//! removed, conditions changed, on different elements per side.
//! The versions are read side by side (`read_all`), as the commands read them.
//! Run: `cargo bench -p trellis-diff --bench diff_merge`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use serde_json::{json, Value};
use trellis_diff::document::read;
use trellis_diff::{diff, merge_documents, read_all};

// What ships runs on mimalloc; measure with the same allocator.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

const NODES: usize = 10_000;

/// `base` with every `step`-th node's config changed (from `offset`), `adds` nodes added and
/// every `step`-th edge's condition set: one branch's work.
fn branch(base: &str, offset: usize, step: usize, adds: usize) -> String {
    let mut v: Value = serde_json::from_str(base).expect("json");
    let nodes = v["nodes"].as_array_mut().expect("nodes");
    for (i, n) in nodes.iter_mut().enumerate().skip(offset).step_by(step) {
        n["config"]["edited"] = json!(format!("branch {offset} edit {i}"));
    }
    let ids: Vec<String> = nodes.iter().filter_map(|n| n["id"].as_str().map(str::to_owned)).collect();
    for k in 0..adds {
        nodes.push(json!({"id": format!("added_{offset}_{k}"), "type": "noop", "config": {}}));
    }
    let edges = v["edges"].as_array_mut().expect("edges");
    for (k, id) in ids.iter().enumerate().skip(offset).step_by(step * 4).take(adds) {
        edges.push(json!({"from": id, "to": format!("added_{offset}_{k}")}));
    }
    serde_json::to_string_pretty(&v).expect("text")
}

fn budget(c: &mut Criterion) {
    let base = trellis_bench::generate_text(NODES, 42);
    let ours = branch(&base, 0, 50, 100);
    let theirs = branch(&base, 25, 50, 100);

    // The figures must be of real work: the diff sees the edits, the merge is clean.
    let d = diff(
        &read(Some("a.json"), base.as_bytes(), None).expect("base").graph,
        &read(Some("b.json"), ours.as_bytes(), None).expect("ours").graph,
    );
    assert!(d.changes.len() >= 300, "{} changes", d.changes.len());
    let docs = |x: &str| read(Some("g.json"), x.as_bytes(), None).expect("reads");
    let merged = merge_documents(&docs(&base), &docs(&ours), &docs(&theirs)).expect("merges");
    assert!(merged.is_clean(), "{:?}", merged.conflicts.first());

    let mut group = c.benchmark_group("git");
    group.warm_up_time(Duration::from_secs(1));
    group.sample_size(20);
    group.measurement_time(Duration::from_secs(6));
    // As `trellis diff` and `trellis merge` read: the versions side by side (read_all).
    let (a, o, t) = (base.as_bytes(), ours.as_bytes(), theirs.as_bytes());
    group.bench_function("diff_10k", |b| {
        b.iter(|| {
            let [x, y] =
                read_all([(Some("a.json"), a, None), (Some("b.json"), o, None)]).map(|r| r.expect("reads"));
            black_box(diff(&x.graph, &y.graph))
        })
    });
    group.bench_function("merge_10k", |b| {
        b.iter(|| {
            let name = Some("g.json");
            let [ours, theirs, base] =
                read_all([(name, o, None), (name, t, None), (name, a, None)]).map(|r| r.expect("reads"));
            let out = merge_documents(&base, &ours, &theirs).expect("merges");
            black_box(out.text)
        })
    });
    group.finish();
}

criterion_group!(benches, budget);
criterion_main!(benches);
