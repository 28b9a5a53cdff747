//! Layout time on generated pipelines (the shape of `gen-spec.mjs` and `trellis_spec::generate`:
//! a chain with forward skips and guarded loops, about two edges per node). Rerun:
//! `cargo bench -p trellis-layout --bench layout`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use trellis_layout::{layout, Graph, Size};

fn pipeline(n: usize) -> Graph {
    let mut edges = Vec::new();
    let mut seed = 0x1e3cu64;
    let mut rand = |m: usize| {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((seed >> 33) as usize) % m
    };
    for i in 0..n.saturating_sub(1) {
        edges.push((i, i + 1));
        if rand(20) != 0 {
            let j = i + 2 + rand(40);
            if j < n {
                edges.push((i, j));
            }
        }
        if rand(15) == 0 {
            edges.push((i, i.saturating_sub(rand(30))));
        }
    }
    Graph { sizes: vec![Size { w: 200.0, h: 60.0 }; n], edges }
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("layout");
    group.sample_size(10);
    for n in [1_000usize, 10_000, 100_000] {
        let g = pipeline(n);
        group.bench_with_input(BenchmarkId::from_parameter(n), &g, |b, g| b.iter(|| layout(g)));
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
