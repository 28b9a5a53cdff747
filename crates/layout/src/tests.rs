use super::*;
use crate::quality::{bounds, overlaps};

fn node() -> Size {
    Size { w: 200.0, h: 60.0 }
}

/// A pipeline like the benchmark documents: a chain with forward skips, guarded loops back.
fn chain(n: usize) -> Graph {
    let mut edges = Vec::new();
    let mut seed = 7u64;
    let mut rand = |m: usize| {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        ((seed >> 33) as usize) % m
    };
    for i in 0..n.saturating_sub(1) {
        edges.push((i, i + 1));
        let j = i + 2 + rand(40);
        if j < n {
            edges.push((i, j));
        }
        if rand(10) == 0 {
            edges.push((i, i.saturating_sub(rand(30))));
        }
    }
    Graph { sizes: vec![node(); n], edges }
}

fn aspect(g: &Graph, pos: &[Point]) -> f64 {
    let (_, _, w, h) = bounds(pos, &g.sizes).expect("nodes");
    w / h
}

#[test]
fn a_long_chain_wraps_into_a_box_near_16_10() {
    let g = chain(3000);
    let pos = layout(&g);
    assert!(overlaps(&pos, &g.sizes).is_empty());
    let a = aspect(&g, &pos);
    assert!((0.8..=3.2).contains(&a), "aspect {a}");
}

#[test]
fn a_wide_fan_out_wraps_its_layer() {
    // One source feeding 2,000 sinks: one layer of 2,000 nodes.
    let n = 2001;
    let g = Graph { sizes: vec![node(); n], edges: (1..n).map(|i| (0, i)).collect() };
    let pos = layout(&g);
    assert!(overlaps(&pos, &g.sizes).is_empty());
    let a = aspect(&g, &pos);
    assert!((0.8..=3.2).contains(&a), "aspect {a}");
}

#[test]
fn edges_point_right_in_a_small_dag_and_nothing_wraps() {
    // a -> b -> d, a -> c -> d: two layers of work between a and d.
    let g = Graph { sizes: vec![node(); 4], edges: vec![(0, 1), (0, 2), (1, 3), (2, 3)] };
    let pos = layout(&g);
    assert!(pos[0].x < pos[1].x && pos[1].x < pos[3].x && pos[2].x < pos[3].x);
    assert_eq!(pos[1].x, pos[2].x);
    assert!(overlaps(&pos, &g.sizes).is_empty());
    // The join sits between its two inputs.
    assert!(pos[3].y > pos[1].y.min(pos[2].y) && pos[3].y < pos[1].y.max(pos[2].y));
}

#[test]
fn cycles_self_loops_duplicates_and_bad_ends_are_laid_out() {
    let g = Graph {
        sizes: vec![node(), node(), Size { w: 44.0, h: 44.0 }],
        edges: vec![(0, 1), (1, 0), (1, 1), (0, 1), (1, 2), (2, 9), (9, 0)],
    };
    let pos = layout(&g);
    assert_eq!(pos.len(), 3);
    assert!(overlaps(&pos, &g.sizes).is_empty());
    assert!(pos.iter().all(|p| p.x.is_finite() && p.y.is_finite()));
}

#[test]
fn components_are_packed_without_overlap() {
    // 300 separate pairs and 50 lone nodes.
    let mut edges = Vec::new();
    for k in 0..300 {
        edges.push((2 * k, 2 * k + 1));
    }
    let g = Graph { sizes: vec![node(); 650], edges };
    let pos = layout(&g);
    assert!(overlaps(&pos, &g.sizes).is_empty());
    let a = aspect(&g, &pos);
    assert!((0.8..=3.2).contains(&a), "aspect {a}");
}

#[test]
fn an_empty_graph_and_one_node() {
    assert!(layout(&Graph::default()).is_empty());
    assert_eq!(layout(&Graph { sizes: vec![node()], edges: vec![] }), vec![Point { x: 0.0, y: 0.0 }]);
}

#[test]
fn cancelling_stops_the_layout_and_progress_reaches_one() {
    let g = chain(500);
    let mut calls = 0;
    let r = layout_with(&g, &Options::default(), &mut |_| {
        calls += 1;
        calls < 3
    });
    assert_eq!(r, Err(Cancelled));
    let mut last = 0.0;
    let mut monotone = true;
    let r = layout_with(&g, &Options::default(), &mut |f| {
        monotone &= f >= last;
        last = f;
        true
    });
    assert!(r.is_ok());
    assert!(monotone);
    assert_eq!(last, 1.0);
}
