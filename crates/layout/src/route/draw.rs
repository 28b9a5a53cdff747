//! How a route is drawn, in one place for every drawing (the canvas's two modes draw the same
//! pieces in TypeScript, `ui/src/canvas/routePath.ts`; the picture export and the quality
//! measures use these): from the source's anchor (the middle of its right side) through the
//! route's points into the target's anchor (the middle of its left side).
//! - [`RouteKind::Direct`] and [`RouteKind::Through`]: a curve through the points, leaving and
//!   reaching each one horizontally (two points at one height: a straight run between them);
//!   with no point at all, the curve React Flow draws for an edge.
//! - [`RouteKind::Around`] and [`RouteKind::Loop`]: straight runs between the points, turning
//!   at right angles with rounded corners.

use super::{Route, RouteKind};
use crate::geometry::Point;

/// The largest corner radius of an orthogonal route.
pub const CORNER: f64 = 8.0;

/// One piece of a drawn route.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Piece {
    Line(Point, Point),
    /// From, control, to.
    Quad(Point, Point, Point),
    /// From, two controls, to.
    Cubic(Point, Point, Point, Point),
}

/// The horizontal reach of a curve's controls from `a` to `b`: half the way for a forward
/// step, as React Flow's bezier edge has it, and a bow for a step back.
fn reach(a: Point, b: Point) -> f64 {
    let d = b.x - a.x;
    if d >= 0.0 {
        0.5 * d
    } else {
        0.25 * 25.0 * (-d).sqrt()
    }
}

/// The pieces of `route` from anchor `s` to anchor `t`.
pub fn pieces(route: &Route, s: Point, t: Point) -> Vec<Piece> {
    let mut all = Vec::with_capacity(route.points.len() + 2);
    all.push(s);
    all.extend(route.points.iter().copied());
    all.push(t);
    let mut out = Vec::with_capacity(2 * all.len());
    match route.kind {
        RouteKind::Direct | RouteKind::Through => {
            for w in all.windows(2) {
                let (a, b) = (w[0], w[1]);
                if (a.y - b.y).abs() < 0.5 {
                    out.push(Piece::Line(a, b));
                } else {
                    let r = reach(a, b);
                    out.push(Piece::Cubic(a, Point { x: a.x + r, y: a.y }, Point { x: b.x - r, y: b.y }, b));
                }
            }
        }
        RouteKind::Around | RouteKind::Loop => {
            let mut from = all[0];
            for i in 1..all.len() - 1 {
                let (a, c, b) = (all[i - 1], all[i], all[i + 1]);
                let r = CORNER.min(dist(a, c) / 2.0).min(dist(c, b) / 2.0);
                let enter = toward(c, a, r);
                let leave = toward(c, b, r);
                out.push(Piece::Line(from, enter));
                out.push(Piece::Quad(enter, c, leave));
                from = leave;
            }
            out.push(Piece::Line(from, all[all.len() - 1]));
        }
    }
    out
}

fn dist(a: Point, b: Point) -> f64 {
    (b.x - a.x).hypot(b.y - a.y)
}

/// The point `r` from `c` towards `a`.
fn toward(c: Point, a: Point, r: f64) -> Point {
    let d = dist(a, c);
    if d == 0.0 {
        return c;
    }
    Point { x: c.x + (a.x - c.x) * r / d, y: c.y + (a.y - c.y) * r / d }
}

/// The pieces as straight segments (curves cut into `steps` each), for measuring.
pub fn polyline(pieces: &[Piece], steps: usize) -> Vec<Point> {
    let mut out: Vec<Point> = Vec::new();
    let mut push = |p: Point| {
        if out.last() != Some(&p) {
            out.push(p);
        }
    };
    for piece in pieces {
        match *piece {
            Piece::Line(a, b) => {
                push(a);
                push(b);
            }
            Piece::Quad(a, c, b) => {
                for k in 0..=steps {
                    let t = k as f64 / steps as f64;
                    let u = 1.0 - t;
                    push(Point {
                        x: u * u * a.x + 2.0 * u * t * c.x + t * t * b.x,
                        y: u * u * a.y + 2.0 * u * t * c.y + t * t * b.y,
                    });
                }
            }
            Piece::Cubic(a, c1, c2, b) => {
                for k in 0..=steps {
                    let t = k as f64 / steps as f64;
                    let u = 1.0 - t;
                    let (w0, w1, w2, w3) = (u * u * u, 3.0 * u * u * t, 3.0 * u * t * t, t * t * t);
                    push(Point {
                        x: w0 * a.x + w1 * c1.x + w2 * c2.x + w3 * b.x,
                        y: w0 * a.y + w1 * c1.y + w2 * c2.y + w3 * b.y,
                    });
                }
            }
        }
    }
    out
}
