//! Issue 15's budget: the diff of two 10,000-node specs and the merge of three, each within
//! 200 ms, measured from the texts (reading included, as `trellis diff` and the merge driver
//! run). Documents from trellis-bench's generator (the shape of the peer benchmark's
//! `gen-spec.mjs`), edited the way two branches would: configs and conditions changed and
//! nodes added (wired in), on different elements per side, so each branch validates and
//! the merge is clean (`merge_10k`, the budget's figure). `merge_10k_invalid` is a merge whose
//! result does not validate (one side deletes nodes the other wires edges to): the same merge
//! plus both sides' validation and the `invalid` conflicts.
//! The versions are read side by side (`read_all`) and given to the merge (`merge_owned`), as
//! the commands do.
//! Run: `cargo bench --profile release -p trellis-diff --bench diff_merge`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion};
use serde_json::{json, Value};
use trellis_diff::document::read;
use trellis_diff::{diff, merge_documents, merge_owned, read_all, Reason};

// What ships runs on mimalloc; measure with the same allocator.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

const NODES: usize = 10_000;

/// One branch's work on `base`, from `offset` (two branches with different offsets touch
/// different elements): every `step`-th node's config edited, every `step`-th guarded edge's
/// condition changed, and `adds` nodes added, each wired in as an author does (an edge from an
/// existing node to it and one from it to `__end__`), so the branch validates as the base does.
fn branch(base: &str, offset: usize, step: usize, adds: usize) -> String {
    let mut v: Value = serde_json::from_str(base).expect("json");
    let nodes = v["nodes"].as_array_mut().expect("nodes");
    for (i, n) in nodes.iter_mut().enumerate().skip(offset).step_by(step) {
        n["config"]["edited"] = json!(format!("branch {offset} edit {i}"));
    }
    let anchors: Vec<String> = nodes
        .iter()
        .skip(offset + 1)
        .step_by(step)
        .take(adds)
        .filter_map(|n| n["id"].as_str().map(str::to_owned))
        .collect();
    assert_eq!(anchors.len(), adds, "room for {adds} anchors");
    for k in 0..adds {
        let note = format!("added on branch {offset}, step {k}");
        nodes.push(json!({"id": format!("added_{offset}_{k}"), "type": "noop", "config": {"note": note}}));
    }
    let edges = v["edges"].as_array_mut().expect("edges");
    for (i, e) in edges.iter_mut().filter(|e| e.get("when").is_some()).enumerate().skip(offset).step_by(step)
    {
        e["when"] = json!({"channel": "intent", "eq": format!("branch {offset} route {i}")});
    }
    for (k, anchor) in anchors.iter().enumerate() {
        let added = format!("added_{offset}_{k}");
        edges.push(json!({"from": anchor, "to": added}));
        edges.push(json!({"from": added, "to": "__end__"}));
    }
    serde_json::to_string_pretty(&v).expect("text")
}

/// `text` without `count` nodes from `first` on (and every edge that touches them): a branch
/// that deletes nodes.
fn without_nodes(text: &str, first: usize, count: usize) -> String {
    let mut v: Value = serde_json::from_str(text).expect("json");
    let gone: Vec<String> = (first..first + count).map(|i| format!("n{i}")).collect();
    let is_gone = |x: &Value| x.as_str().is_some_and(|s| gone.iter().any(|g| g == s));
    v["nodes"].as_array_mut().expect("nodes").retain(|n| !is_gone(&n["id"]));
    v["edges"].as_array_mut().expect("edges").retain(|e| !is_gone(&e["from"]) && !is_gone(&e["to"]));
    serde_json::to_string_pretty(&v).expect("text")
}

/// `text` with an edge from `n{i}` to `n{first + i}` for `count` nodes: a branch that wires
/// existing nodes together.
fn with_edges_to(text: &str, first: usize, count: usize) -> String {
    let mut v: Value = serde_json::from_str(text).expect("json");
    let edges = v["edges"].as_array_mut().expect("edges");
    for i in 0..count {
        edges.push(json!({"from": format!("n{}", 100 + i), "to": format!("n{}", first + i)}));
    }
    serde_json::to_string_pretty(&v).expect("text")
}

fn budget(c: &mut Criterion) {
    let base = trellis_bench::generate_text(NODES, 42);
    let ours = branch(&base, 0, 50, 100);
    let theirs = branch(&base, 25, 50, 100);
    // A second merge whose result does not validate: ours deletes 20 nodes that theirs wires
    // edges to (issue 15's "deleting a node vs adding an edge to it"), so every check runs:
    // the merge, both sides (to tell the merge's errors from theirs), the conflicts.
    let ours_deleting = without_nodes(&ours, 5_000, 20);
    let theirs_wiring = with_edges_to(&theirs, 5_000, 20);

    // The figures must be of real work: the diff sees the edits, the merge is clean and each
    // side validates (so the main figure is a clean merge of two clean branches), the second
    // merge's conflicts are exactly the 20 edges to deleted nodes.
    let docs = |x: &str| read(Some("g.json"), x.as_bytes(), None).expect("reads");
    let d = diff(&docs(&base).graph, &docs(&ours).graph);
    assert!(d.changes.len() >= 400, "{} changes", d.changes.len());
    for side in [&base, &ours, &theirs, &ours_deleting, &theirs_wiring] {
        assert_eq!(docs(side).errors(), Vec::new());
    }
    let merged = merge_owned(docs(&base), docs(&ours), docs(&theirs)).expect("merges");
    assert!(merged.is_clean(), "{:?}", merged.conflicts.first());
    let broken = merge_owned(docs(&base), docs(&ours_deleting), docs(&theirs_wiring)).expect("merges");
    let lent = merge_documents(&docs(&base), &docs(&ours_deleting), &docs(&theirs_wiring)).expect("merges");
    assert_eq!((&broken.text, &broken.conflicts), (&lent.text, &lent.conflicts));
    assert!(broken.text.is_some());
    assert_eq!(broken.conflicts.len(), 20, "{:?}", broken.conflicts.first());
    assert!(broken.conflicts.iter().all(|c| c.reason == Reason::Invalid), "{:?}", broken.conflicts);

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
    let merge = |o: &[u8], t: &[u8]| {
        let name = Some("g.json");
        let [ours, theirs, base] =
            read_all([(name, o, None), (name, t, None), (name, a, None)]).map(|r| r.expect("reads"));
        merge_owned(base, ours, theirs).expect("merges")
    };
    group.bench_function("merge_10k", |b| b.iter(|| black_box(merge(o, t).text)));
    let (od, tw) = (ours_deleting.as_bytes(), theirs_wiring.as_bytes());
    group.bench_function("merge_10k_invalid", |b| b.iter(|| black_box(merge(od, tw).conflicts)));
    group.finish();
}

criterion_group!(benches, budget);
criterion_main!(benches);
