//! The routes in the view: every labelled or loop edge of a laid-out document has one, a
//! loop back goes around, and the pieces the canvas draws a route with are Rust's (the UI's
//! fixture `ui/src/test/fixtures/routes.json` holds them; `src/test/routePath.test.ts` draws
//! the same routes with the UI's code and compares).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::{json, Value};
use trellis_layout::route::draw::{pieces, Piece};
use trellis_layout::route::{Route, RouteKind};
use trellis_layout::Point;

use super::{clock, registries};
use crate::delta::Change;
use crate::document::DocId;
use crate::edit::{Edit, Position};
use crate::fs::FakeFs;
use crate::routes::{EdgeRoute, EdgeRouteKind};
use crate::session::Session;
use crate::view::DocumentView;

/// A layout fixture (crates/layout/fixtures) opened without a layout file, laid out.
fn fixture(name: &str) -> Session {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../layout/fixtures");
    let fs = FakeFs::new();
    fs.put(format!("/w/{name}"), std::fs::read_to_string(dir.join(name)).expect("fixture"));
    let mut s =
        Session::open(&fs, DocId(1), Path::new(&format!("/w/{name}")), registries(), Arc::new(clock()))
            .expect("opens");
    s.lay_out_if_missing();
    s
}

fn edge_index(s: &Session, from: &str, to: &str) -> usize {
    s.spec().expect("a GraphSpec").edges.iter().position(|e| e.from == from && e.to == to).expect("edge")
}

#[test]
fn the_view_carries_the_routes_and_a_move_answers_those_that_changed() {
    let mut s = fixture("hand-flow.json");
    let view = DocumentView::of(&s);
    let routes = &view.routes;
    assert_eq!(routes.edges.len(), s.spec().expect("spec").edges.len());
    let back = edge_index(&s, "review", "draft_reply");
    let r = routes.edges[back].as_ref().expect("the loop back is routed");
    assert_eq!(r.kind, EdgeRouteKind::Around);
    assert!(r.label.is_some(), "its condition sits on its lane");
    let selfloop = edge_index(&s, "lookup_order", "lookup_order");
    assert_eq!(routes.edges[selfloop].as_ref().map(|r| r.kind), Some(EdgeRouteKind::Loop));
    // Every guarded edge has its label's place.
    for (k, e) in s.spec().expect("spec").edges.iter().enumerate() {
        if e.when.is_some() {
            assert!(
                routes.edges[k].as_ref().is_some_and(|r| r.label.is_some()),
                "edge {k} has no label place"
            );
        }
    }

    // Moving the loop's source far down: the answer says how the routes changed, and applied
    // to the routes held they are the view's again.
    let p = s.layout().positions["review"];
    let edit = Edit::MoveNodes {
        positions: [("review".to_owned(), Position { x: p.x, y: p.y + 900.0 })].into_iter().collect(),
        notes: Default::default(),
        groups: Default::default(),
    };
    let delta = s.answer(Change::Edit(&edit)).expect("moved");
    let changed = delta.routes.expect("the routes changed");
    let mut held = routes.edges.clone();
    for e in &changed.edges {
        e.apply_to(&mut held);
    }
    assert_eq!(held, DocumentView::of(&s).routes.edges);
    assert_ne!(held[back], routes.edges[back]);
    // A config field moves no route: the answer says nothing about them.
    let edit =
        Edit::SetConfigField { id: "review".into(), path: "/rubric".into(), value: Some(json!("strict")) };
    assert!(s.answer(Change::Edit(&edit)).expect("set").routes.is_none());
}

fn point(p: Point) -> Value {
    json!({"x": p.x, "y": p.y})
}

/// Writes `ui/src/test/fixtures/routes.json`: for every edge of the layout fixtures, its
/// anchors, its route as the view has it, and the pieces Rust draws it with.
#[test]
fn export_fixtures_routes() {
    let mut out = Vec::new();
    for name in ["hand-flow.json", "three-lane-pipeline.json"] {
        let s = fixture(name);
        let view = DocumentView::of(&s);
        let spec = s.spec().expect("a GraphSpec");
        for (k, e) in spec.edges.iter().enumerate() {
            let at = |id: &str| s.layout().positions[id];
            let (a, b) = (at(&e.from), at(&e.to));
            let size = |id: &str| {
                if id.starts_with("__") {
                    crate::canvas_sizes::TERMINAL
                } else {
                    crate::canvas_sizes::NODE
                }
            };
            let (sa, sb) = (size(&e.from), size(&e.to));
            let from = Point { x: a.x + sa.w, y: a.y + sa.h / 2.0 };
            let to = Point { x: b.x, y: b.y + sb.h / 2.0 };
            let held: Option<&EdgeRoute> = view.routes.edges[k].as_ref();
            let route = held.map_or_else(Route::direct, |r| Route {
                kind: match r.kind {
                    EdgeRouteKind::Direct => RouteKind::Direct,
                    EdgeRouteKind::Through => RouteKind::Through,
                    EdgeRouteKind::Around => RouteKind::Around,
                    EdgeRouteKind::Loop => RouteKind::Loop,
                },
                points: r.points.iter().map(|p| Point { x: p.x, y: p.y }).collect(),
                label: r.label.map(|p| Point { x: p.x, y: p.y }),
            });
            let drawn: Vec<Value> = pieces(&route, from, to)
                .into_iter()
                .map(|p| match p {
                    Piece::Line(a, b) => json!({"kind": "line", "points": [point(a), point(b)]}),
                    Piece::Quad(a, c, b) => json!({"kind": "quad", "points": [point(a), point(c), point(b)]}),
                    Piece::Cubic(a, c1, c2, b) => {
                        json!({"kind": "cubic", "points": [point(a), point(c1), point(c2), point(b)]})
                    }
                })
                .collect();
            out.push(json!({
                "document": name, "edge": k, "from": point(from), "to": point(to),
                "route": serde_json::to_value(held).expect("route"), "pieces": drawn,
            }));
        }
    }
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../ui/src/test/fixtures/routes.json");
    std::fs::write(&path, Value::Array(out).to_string() + "\n").expect("fixture written");
}
