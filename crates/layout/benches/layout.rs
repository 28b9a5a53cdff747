//! Layout and routing time on graphs of the peer harness's shape (`gen-spec.mjs`): a chain
//! with long forward jumps, fan-outs, loops back, early exits to the end and guarded branches
//! (labelled), about two edges per node, the start first and the end last. Rerun:
//! `cargo bench -p trellis-layout --bench layout`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use trellis_layout::route::{routes, RouteOptions};
use trellis_layout::{layout, Graph, Size};

fn pipeline(n: usize) -> Graph {
    let mut seed = 0x1e3cu64;
    let mut rand = |m: usize| {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((seed >> 33) as usize) % m
    };
    let (start, end) = (n, n + 1);
    let mut sizes = vec![Size { w: 200.0, h: 60.0 }; n];
    sizes.extend([Size { w: 44.0, h: 44.0 }; 2]);
    let label = Some(Size { w: 140.0, h: 18.0 });
    let mut g = Graph { sizes, first: Some(start), last: Some(end), ..Graph::default() };
    let push = |g: &mut Graph, a: usize, b: usize, guarded: bool| {
        g.edges.push((a, b));
        g.labels.push(if guarded { label } else { None });
    };
    push(&mut g, start, 0, false);
    push(&mut g, start, n / 2, true);
    let at = |i: isize| i.clamp(0, n as isize - 1) as usize;
    for i in 0..n {
        push(&mut g, i, if i + 1 == n { end } else { i + 1 }, false);
        let r = rand(100);
        let i = i as isize;
        match r {
            0..=29 => push(&mut g, i as usize, at(i + 2 + rand(40) as isize), rand(2) == 0),
            30..=44 => push(&mut g, i as usize, at(i + 2 + rand(10) as isize), false),
            45..=64 => push(&mut g, i as usize, at(i - rand(30) as isize), true),
            65..=79 => push(&mut g, i as usize, end, true),
            80..=94 => push(&mut g, i as usize, at(i + 1 + rand(8) as isize), true),
            _ => {}
        }
    }
    g
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("layout");
    group.sample_size(10);
    for n in [1_000usize, 10_000, 100_000] {
        let g = pipeline(n);
        group.bench_with_input(BenchmarkId::from_parameter(n), &g, |b, g| b.iter(|| layout(g)));
    }
    group.finish();
    let mut group = c.benchmark_group("routes");
    group.sample_size(10);
    for n in [1_000usize, 10_000, 100_000] {
        let g = pipeline(n);
        let pos = layout(&g);
        group.bench_with_input(BenchmarkId::from_parameter(n), &g, |b, g| {
            b.iter(|| routes(&pos, &g.sizes, &g.edges, &g.labels, &RouteOptions::default()))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
