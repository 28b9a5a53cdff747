use super::*;
use crate::quality::{bounds, drawing, measure, overlaps};
use crate::route::{routes, RouteKind, RouteOptions};
use proptest::prelude::*;

fn node() -> Size {
    Size { w: 200.0, h: 60.0 }
}

const TERMINAL: Size = Size { w: 44.0, h: 44.0 };

/// A fixture spec (crates/layout/fixtures) as the canvas lays it out: its nodes, then
/// `__start__` and `__end__`; a guarded edge labelled about as wide as the canvas writes it.
fn fixture(name: &str) -> (Vec<String>, Graph) {
    let path = format!("{}/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    let spec: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("fixture")).expect("JSON");
    let mut ids: Vec<String> = spec["nodes"]
        .as_array()
        .expect("nodes")
        .iter()
        .map(|n| n["id"].as_str().expect("id").to_owned())
        .collect();
    ids.push("__start__".into());
    ids.push("__end__".into());
    let index = |id: &str| ids.iter().position(|x| x == id).expect("known id");
    let mut g = Graph {
        sizes: ids.iter().map(|id| if id.starts_with("__") { TERMINAL } else { node() }).collect(),
        first: Some(ids.len() - 2),
        last: Some(ids.len() - 1),
        ..Graph::default()
    };
    for e in spec["edges"].as_array().expect("edges") {
        g.edges.push((index(e["from"].as_str().expect("from")), index(e["to"].as_str().expect("to"))));
        g.labels.push(e.get("when").map(|w| {
            let chars = w.to_string().len().saturating_sub(14);
            Size { w: chars as f64 * 6.7 + 12.0, h: 18.0 }
        }));
    }
    (ids, g)
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
    Graph { first: Some(0), ..Graph::new(vec![node(); n], edges) }
}

fn at<'a>(ids: &[String], pos: &'a [Point], id: &str) -> &'a Point {
    &pos[ids.iter().position(|x| x == id).expect("id")]
}

#[test]
fn the_three_lane_pipeline_reads_left_to_right_in_three_straight_lanes() {
    let (ids, g) = fixture("three-lane-pipeline.json");
    let pos = layout(&g);
    assert!(overlaps(&pos, &g.sizes).is_empty());
    for &(a, b) in &g.edges {
        assert!(pos[b].x >= pos[a].x + g.sizes[a].w, "{} -> {} points back", ids[a], ids[b]);
    }
    // Start leftmost, end rightmost.
    let start = at(&ids, &pos, "__start__").x;
    let end = at(&ids, &pos, "__end__").x;
    assert!(pos.iter().all(|p| p.x >= start && p.x <= end));
    // Each lane on one line, the three lanes apart.
    let mut lane_y = Vec::new();
    for lane in ["inv", "rcp", "ctr"] {
        let ys: Vec<f64> =
            ids.iter().zip(&pos).filter(|(id, _)| id.starts_with(lane)).map(|(_, p)| p.y).collect();
        assert_eq!(ys.len(), 6);
        assert!(ys.iter().all(|&y| y == ys[0]), "lane {lane} is not straight: {ys:?}");
        lane_y.push(ys[0]);
    }
    lane_y.sort_by(f64::total_cmp);
    assert!(lane_y.windows(2).all(|w| w[1] - w[0] >= 60.0), "lanes interleave: {lane_y:?}");
    // Nothing wraps: the whole pipeline is one row of columns, wider than tall.
    let (_, _, w, h) = bounds(&pos, &g.sizes).expect("nodes");
    assert!(w > 2.0 * h, "{w} x {h}");
    let r = routes(&pos, &g.sizes, &g.edges, &g.labels, &RouteOptions::default());
    let m = measure(&drawing(&pos, &g.sizes, &g.edges, &g.labels, &r));
    assert_eq!(
        (m.crossings, m.backward, m.labels_under_nodes, m.labels_overlapping, m.edges_over_nodes),
        (0, 0, 0, 0, 0),
        "{m:?}"
    );
}

#[test]
fn the_hand_flow_draws_its_loops_around_and_over_and_no_label_under_a_node() {
    let (ids, g) = fixture("hand-flow.json");
    let pos = layout(&g);
    assert!(overlaps(&pos, &g.sizes).is_empty());
    let r = routes(&pos, &g.sizes, &g.edges, &g.labels, &RouteOptions::default());
    let m = measure(&drawing(&pos, &g.sizes, &g.edges, &g.labels, &r));
    // review -> draft_reply is the one edge drawn back; the self-loop is over its node.
    assert_eq!(m.backward, 1, "{m:?}");
    assert_eq!((m.labels_under_nodes, m.labels_overlapping, m.edges_over_nodes), (0, 0, 0), "{m:?}");
    let back =
        g.edges.iter().position(|&(a, b)| ids[a] == "review" && ids[b] == "draft_reply").expect("loop");
    assert_eq!(r[back].kind, RouteKind::Around);
    // Its lane runs outside every node of the columns it spans.
    let lane = r[back].points[1].y;
    let (x0, x1) = (r[back].points[2].x, r[back].points[1].x);
    let spanned: Vec<usize> =
        (0..pos.len()).filter(|&i| pos[i].x + g.sizes[i].w > x0 && pos[i].x < x1).collect();
    assert!(
        spanned.iter().all(|&i| lane > pos[i].y + g.sizes[i].h) || spanned.iter().all(|&i| lane < pos[i].y),
        "the lane at {lane} runs between nodes"
    );
    let selfloop = g.edges.iter().position(|&(a, b)| a == b).expect("self-loop");
    assert_eq!(r[selfloop].kind, RouteKind::Loop);
    assert!(r[selfloop].points.iter().any(|p| p.y < pos[g.edges[selfloop].0].y));
    assert!(at(&ids, &pos, "__start__").x < at(&ids, &pos, "receive").x);
    assert!(pos.iter().all(|p| p.x <= at(&ids, &pos, "__end__").x));
}

#[test]
fn a_long_flow_does_not_wrap() {
    let n = 100;
    let g = Graph {
        first: Some(0),
        last: Some(n - 1),
        ..Graph::new(vec![node(); n], (1..n).map(|i| (i - 1, i)).collect())
    };
    let pos = layout(&g);
    assert!(pos.iter().all(|p| p.y == pos[0].y));
    assert!(pos.windows(2).all(|w| w[1].x > w[0].x));
}

#[test]
fn a_wide_fan_out_splits_its_layer_into_columns() {
    // One source feeding 2,000 sinks: one layer of 2,000 nodes.
    let n = 2001;
    let g = Graph::new(vec![node(); n], (1..n).map(|i| (0, i)).collect());
    let pos = layout(&g);
    assert!(overlaps(&pos, &g.sizes).is_empty());
    let (_, _, w, h) = bounds(&pos, &g.sizes).expect("nodes");
    assert!(h <= 41.0 * 100.0 && w > 10_000.0, "{w} x {h}");
}

#[test]
fn a_long_chain_with_skips_and_loops_has_no_overlap_and_every_forward_edge_points_right() {
    let g = chain(3000);
    let pos = layout(&g);
    assert!(overlaps(&pos, &g.sizes).is_empty());
    let back = cycles::back_edges(g.sizes.len(), &g.edges, g.first);
    for (&(a, b), r) in g.edges.iter().zip(back) {
        if a != b && !r {
            assert!(pos[b].x > pos[a].x, "{a} -> {b}");
        }
    }
}

#[test]
fn cycles_self_loops_duplicates_and_bad_ends_are_laid_out() {
    let g = Graph::new(
        vec![node(), node(), Size { w: 44.0, h: 44.0 }],
        vec![(0, 1), (1, 0), (1, 1), (0, 1), (1, 2), (2, 9), (9, 0)],
    );
    let pos = layout(&g);
    assert_eq!(pos.len(), 3);
    assert!(overlaps(&pos, &g.sizes).is_empty());
    assert!(pos.iter().all(|p| p.x.is_finite() && p.y.is_finite()));
    let r = routes(&pos, &g.sizes, &g.edges, &g.labels, &RouteOptions::default());
    assert_eq!(r.len(), g.edges.len());
    assert_eq!(r[2].kind, RouteKind::Loop);
}

#[test]
fn components_are_packed_without_overlap() {
    // 300 separate pairs and 50 lone nodes.
    let edges = (0..300).map(|k| (2 * k, 2 * k + 1)).collect();
    let g = Graph::new(vec![node(); 650], edges);
    let pos = layout(&g);
    assert!(overlaps(&pos, &g.sizes).is_empty());
    let (_, _, w, h) = bounds(&pos, &g.sizes).expect("nodes");
    assert!((0.8..=3.2).contains(&(w / h)), "{w} x {h}");
}

#[test]
fn an_empty_graph_and_one_node() {
    assert!(layout(&Graph::default()).is_empty());
    assert_eq!(layout(&Graph::new(vec![node()], vec![])), vec![Point { x: 0.0, y: 0.0 }]);
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
    let mut seen = 0;
    let r = layout_with(&g, &Options::default(), &mut |f| {
        monotone &= f >= last;
        last = f;
        seen += 1;
        true
    });
    assert!(r.is_ok());
    assert!(monotone);
    assert_eq!(last, 1.0);
    assert!(seen > 20, "progress told only {seen} times");
}

/// A random acyclic graph: edges only from a lower index to a higher one.
fn dag() -> impl Strategy<Value = Graph> {
    (2usize..40)
        .prop_flat_map(|n| {
            let edge = (0..n, 0..n).prop_filter_map("forward", |(a, b)| (a < b).then_some((a, b)));
            let labelled = proptest::option::of((20.0f64..240.0).prop_map(|w| Size { w, h: 18.0 }));
            (Just(n), proptest::collection::vec((edge, labelled), 0..3 * n))
        })
        .prop_map(|(n, edges)| {
            let (edges, labels) = edges.into_iter().unzip();
            Graph { sizes: vec![node(); n], edges, labels, first: None, last: None }
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn acyclic_graphs_point_forward_without_overlaps_or_labels_under_nodes(g in dag()) {
        let pos = layout(&g);
        prop_assert!(overlaps(&pos, &g.sizes).is_empty());
        for &(a, b) in &g.edges {
            prop_assert!(pos[b].x >= pos[a].x + g.sizes[a].w, "{} -> {}", a, b);
        }
        let r = routes(&pos, &g.sizes, &g.edges, &g.labels, &RouteOptions::default());
        let m = measure(&drawing(&pos, &g.sizes, &g.edges, &g.labels, &r));
        prop_assert_eq!(m.backward, 0);
        prop_assert_eq!(m.labels_under_nodes, 0);
        // The same graph gives the same drawing.
        prop_assert_eq!(layout(&g), pos);
    }
}
