use super::*;

fn node() -> Size {
    Size { w: 200.0, h: 60.0 }
}

fn p(x: f64, y: f64) -> Point {
    Point { x, y }
}

#[test]
fn an_edge_into_the_next_column_is_a_plain_curve_and_its_label_sits_in_the_gap() {
    let pos = [p(0.0, 0.0), p(300.0, 200.0)];
    let sizes = [node(), node()];
    let label = Size { w: 80.0, h: 18.0 };
    let r = routes(&pos, &sizes, &[(0, 1), (0, 1)], &[None, Some(label)], &RouteOptions::default());
    assert_eq!(r[0], Route::direct());
    assert_eq!(r[1].kind, RouteKind::Direct);
    let l = r[1].label.expect("label");
    assert_eq!(l, p(250.0, 130.0));
    assert_eq!(r[1].points, vec![l]);
}

#[test]
fn labels_in_one_gap_are_spread_apart() {
    // Two guarded edges from one node to one node: the labels would sit on each other.
    let pos = [p(0.0, 0.0), p(300.0, 0.0)];
    let label = Some(Size { w: 60.0, h: 18.0 });
    let r = routes(&pos, &[node(), node()], &[(0, 1), (0, 1)], &[label, label], &RouteOptions::default());
    let (a, b) = (r[0].label.expect("a"), r[1].label.expect("b"));
    assert!((a.y - b.y).abs() >= 18.0 + 6.0 - 1e-9, "{a:?} {b:?}");
}

#[test]
fn an_edge_past_a_column_passes_between_its_nodes() {
    // a -> c past b, which sits on the straight line (a -> b -> c too).
    let pos = [p(0.0, 0.0), p(300.0, 0.0), p(600.0, 0.0)];
    let r = routes(&pos, &[node(), node(), node()], &[(0, 2), (0, 1), (1, 2)], &[], &RouteOptions::default());
    assert_eq!(r[0].kind, RouteKind::Through);
    let y = r[0].points[0].y;
    assert!(!(y > -10.0 - 6.0 && y < 70.0 + 6.0), "passes over b at {y}");
    assert_eq!((r[0].points[0].x, r[0].points[1].x), (300.0, 500.0));
}

#[test]
fn edges_back_go_around_on_nested_lanes_and_into_one_node_share_one() {
    // A chain of four; 3 -> 0 and 2 -> 1 loop back, 3 -> 1 too.
    let pos = [p(0.0, 0.0), p(300.0, 0.0), p(600.0, 0.0), p(900.0, 0.0)];
    let sizes = [node(); 4];
    let edges = [(0, 1), (1, 2), (2, 3), (3, 0), (2, 1), (3, 1)];
    let r = routes(&pos, &sizes, &edges, &[], &RouteOptions::default());
    for e in 3..6 {
        assert_eq!(r[e].kind, RouteKind::Around);
        assert!(r[e].points[1].y > 60.0, "the lane of edge {e} runs under the nodes");
        // Out of the source to the right, into the target from the left.
        assert!(r[e].points[0].x > pos[edges[e].0].x + 200.0);
        assert!(r[e].points[3].x < pos[edges[e].1].x);
    }
    // The outer loop runs outside the inner one; the two into node 1 share a lane.
    assert!(r[3].points[1].y > r[4].points[1].y);
    assert_eq!(r[4].points[1].y, r[5].points[1].y);
}

#[test]
fn a_loop_rises_over_its_node_with_its_label_on_top() {
    let pos = [p(0.0, 100.0)];
    let r = routes(&pos, &[node()], &[(0, 0)], &[Some(Size { w: 50.0, h: 18.0 })], &RouteOptions::default());
    assert_eq!(r[0].kind, RouteKind::Loop);
    let l = r[0].label.expect("label");
    assert_eq!(l.x, 100.0);
    assert!(l.y + 9.0 < 100.0);
}

#[test]
fn a_drawing_made_by_hand_top_to_bottom_gets_plain_curves() {
    let pos = [p(0.0, 0.0), p(0.0, 200.0)];
    let r = routes(&pos, &[node(), node()], &[(0, 1), (1, 0)], &[], &RouteOptions::default());
    assert_eq!(r, vec![Route::direct(), Route::direct()]);
}

#[test]
fn pieces_start_and_end_at_the_anchors() {
    let pos = [p(0.0, 0.0), p(900.0, 0.0)];
    let r = routes(&pos, &[node(), node()], &[(1, 0)], &[], &RouteOptions::default());
    let (s, t) = anchors(&pos, &[node(), node()], 1, 0);
    let line = draw::polyline(&draw::pieces(&r[0], s, t), 4);
    assert_eq!(line.first(), Some(&s));
    assert_eq!(line.last(), Some(&t));
    // Only right angles and rounded corners: every step is horizontal, vertical or a corner.
    assert!(line.windows(2).all(|w| (w[1].x - w[0].x).abs() <= 8.0 + 1e-9 || (w[1].y - w[0].y).abs() < 1e-9));
}
