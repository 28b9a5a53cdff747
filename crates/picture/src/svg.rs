//! A [`Scene`] as a self-contained SVG document: no external reference of any kind (no
//! fonts, images, stylesheets or links), every text escaped (`xml.rs`), and a `viewBox` that
//! frames what is drawn with a margin. The look follows the canvas: cards with a category bar,
//! the name in bold and the type under it, curved edges with arrowheads, condition labels on a
//! plate at the middle of their edge, a filled start mark and a ringed end mark.
//!
//! A name too long for its card is shortened on the card with "…"; the whole name is the
//! card's `<title>` (a tooltip in browsers, read by screen readers) and its `data-id`, so
//! nothing is lost.

use std::fmt::Write;

use trellis_layout::route::draw::{self, Piece};
use trellis_layout::Point;

use crate::scene::{Mark, Scene, Wire};
use crate::svg_annotations;
use crate::theme::Palette;
use crate::xml::{escape, escape_into, num, shorten};

/// Space around the drawing, in canvas units.
pub const MARGIN: f64 = 32.0;
const NAME_SIZE: f64 = 13.0;
const TYPE_SIZE: f64 = 11.0;
const LABEL_SIZE: f64 = 11.0;
/// Characters of a name, a type and a label shown before "…" (the card is 200 wide; DejaVu
/// Sans Bold averages about 0.62 em, the monospace label font is 0.6 em).
const NAME_CHARS: usize = 22;
const TYPE_CHARS: usize = 30;
/// As on the canvas (`trellis_doc::canvas_sizes::LABEL_CHARS`), whose plates the routes make room for.
const LABEL_CHARS: usize = trellis_doc::canvas_sizes::LABEL_CHARS;
/// Fonts by name, most likely first; every system has one of the generic families.
const SANS: &str = "DejaVu Sans, Liberation Sans, Arial, Helvetica, sans-serif";
const MONO: &str = "DejaVu Sans Mono, Liberation Mono, Menlo, Consolas, monospace";

/// The picture's frame: the drawn content's box plus the margin.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Frame {
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
}

/// How an edge is drawn: along its route (`trellis_layout::route::draw`, the canvas's rules)
/// from the middle of the source's right side into the middle of the target's left side.
struct Curve {
    d: String,
    /// Where the label sits.
    mid: (f64, f64),
    /// Every point the path's pieces name (ends and controls): the picture's frame holds them.
    reach: Vec<(f64, f64)>,
}

fn curve(scene: &Scene, w: &Wire) -> Curve {
    let (a, b) = (&scene.items[w.from], &scene.items[w.to]);
    let s = Point { x: a.x + a.w, y: a.y + a.h / 2.0 };
    let t = Point { x: b.x, y: b.y + b.h / 2.0 };
    let mut d = String::new();
    let mut reach = Vec::new();
    let at = |p: Point| format!("{} {}", num(p.x), num(p.y));
    for (k, piece) in draw::pieces(&w.route, s, t).into_iter().enumerate() {
        let first = match piece {
            Piece::Line(p, _) | Piece::Quad(p, _, _) | Piece::Cubic(p, _, _, _) => p,
        };
        if k == 0 {
            let _ = write!(d, "M{}", at(first));
        }
        let named: Vec<Point> = match piece {
            Piece::Line(_, q) => {
                let _ = write!(d, "L{}", at(q));
                vec![first, q]
            }
            Piece::Quad(_, c, q) => {
                let _ = write!(d, "Q{} {}", at(c), at(q));
                vec![first, c, q]
            }
            Piece::Cubic(_, c1, c2, q) => {
                let _ = write!(d, "C{} {} {}", at(c1), at(c2), at(q));
                vec![first, c1, c2, q]
            }
        };
        reach.extend(named.into_iter().map(|p| (p.x, p.y)));
    }
    let mid = w.route.label.map_or(((s.x + t.x) / 2.0, (s.y + t.y) / 2.0), |p| (p.x, p.y));
    Curve { d, mid, reach }
}

/// The width of a label's plate.
fn plate_width(text: &str) -> f64 {
    text.chars().count() as f64 * LABEL_SIZE * 0.61 + 10.0
}

/// The box around everything drawn (cards, marks, label plates, loops), with the margin.
pub fn frame(scene: &Scene) -> Frame {
    let (mut x0, mut y0, mut x1, mut y1) =
        (f64::INFINITY, f64::INFINITY, f64::NEG_INFINITY, f64::NEG_INFINITY);
    let mut grow = |x: f64, y: f64, w: f64, h: f64| {
        if x.is_finite() && y.is_finite() {
            x0 = x0.min(x);
            y0 = y0.min(y);
            x1 = x1.max(x + w);
            y1 = y1.max(y + h);
        }
    };
    for i in &scene.items {
        grow(i.x, i.y, i.w, i.h);
    }
    for f in &scene.frames {
        grow(f.x, f.y, f.w, f.h);
    }
    for n in &scene.notes {
        grow(n.x, n.y, n.w, n.h);
    }
    for w in &scene.wires {
        let c = curve(scene, w);
        for &(x, y) in &c.reach {
            grow(x, y, 0.0, 0.0);
        }
        if !w.label.is_empty() {
            let pw = plate_width(&shorten(&w.label, LABEL_CHARS));
            grow(c.mid.0 - pw / 2.0, c.mid.1 - LABEL_SIZE, pw, 2.0 * LABEL_SIZE);
        }
    }
    if !x0.is_finite() {
        // Nothing drawn: an empty picture of a sensible size.
        return Frame { x: 0.0, y: 0.0, w: 240.0, h: 120.0 };
    }
    Frame { x: x0 - MARGIN, y: y0 - MARGIN, w: (x1 - x0) + 2.0 * MARGIN, h: (y1 - y0) + 2.0 * MARGIN }
}

/// The scene as an SVG document (UTF-8 text), in the palette's colours. One canvas unit is one
/// pixel of the SVG's `width` and `height`.
pub fn render(scene: &Scene, palette: &Palette) -> String {
    let f = frame(scene);
    let mut out = String::with_capacity(512 + scene.items.len() * 480 + scene.wires.len() * 160);
    let _ = write!(
        out,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"{w}\" height=\"{h}\" \
         viewBox=\"{x} {y} {w} {h}\" font-family=\"{SANS}\">\n",
        x = num(f.x),
        y = num(f.y),
        w = num(f.w.ceil()),
        h = num(f.h.ceil()),
    );
    let title = scene.title.as_deref().unwrap_or("graph");
    let _ = writeln!(out, "<title>{}</title>", escape(title));
    let _ = writeln!(
        out,
        "<desc>Drawn by Trellis: {} nodes, {} edges, {} groups, {} notes.</desc>",
        scene.node_count(),
        scene.wires.len(),
        scene.frames.len() + scene.items.iter().filter(|i| i.mark == Mark::Group).count(),
        scene.notes.len()
    );
    // Arrowheads, one per edge colour (a marker cannot take its edge's colour in SVG 1.1).
    let _ = writeln!(
        out,
        "<defs>\
         <marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto\">\
         <path d=\"M0 0L10 5L0 10z\" fill=\"{e}\" fill-opacity=\"{eo}\"/></marker>\
         <marker id=\"arrow-guarded\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto\">\
         <path d=\"M0 0L10 5L0 10z\" fill=\"{g}\" fill-opacity=\"{go}\"/></marker>\
         </defs>",
        e = palette.edge,
        eo = palette.edge_opacity,
        g = palette.guarded,
        go = palette.guarded_opacity,
    );
    let _ = writeln!(
        out,
        "<rect class=\"background\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"/>",
        num(f.x),
        num(f.y),
        num(f.w.ceil()),
        num(f.h.ceil()),
        palette.background
    );
    // As on the canvas: frames, then notes, under the edges; collapsed boxes with the cards.
    svg_annotations::frames(&mut out, scene);
    svg_annotations::notes(&mut out, scene);
    edges(&mut out, scene, palette);
    nodes(&mut out, scene, palette);
    svg_annotations::boxes(&mut out, scene);
    marks(&mut out, scene, palette);
    labels(&mut out, scene, palette);
    out.push_str("</svg>\n");
    out
}

fn edges(out: &mut String, scene: &Scene, p: &Palette) {
    let _ = writeln!(out, "<g class=\"edges\" fill=\"none\" stroke-width=\"1.5\">");
    for w in &scene.wires {
        let (a, b) = (&scene.items[w.from], &scene.items[w.to]);
        let c = curve(scene, w);
        let (color, opacity, marker) = if w.guarded {
            (p.guarded, p.guarded_opacity, "arrow-guarded")
        } else {
            (p.edge, p.edge_opacity, "arrow")
        };
        out.push_str("<path class=\"edge\" data-from=\"");
        escape_into(out, &a.id);
        out.push_str("\" data-to=\"");
        escape_into(out, &b.id);
        let _ = write!(out, "\" d=\"{}\" stroke=\"{color}\" stroke-opacity=\"{opacity}\"", c.d);
        if w.dashed {
            out.push_str(" stroke-dasharray=\"6 4\"");
        }
        let _ = writeln!(out, " marker-end=\"url(#{marker})\"/>");
    }
    out.push_str("</g>\n");
}

fn nodes(out: &mut String, scene: &Scene, p: &Palette) {
    let _ = writeln!(out, "<g class=\"nodes\" fill=\"{}\">", p.text);
    for n in scene.items.iter().filter(|i| i.mark == Mark::Node) {
        out.push_str("<g class=\"node\" data-id=\"");
        escape_into(out, &n.id);
        out.push_str("\"><title>");
        escape_into(out, &n.id);
        out.push_str("</title>");
        let (x, y) = (num(n.x), num(n.y));
        let _ = write!(
            out,
            "<rect x=\"{x}\" y=\"{y}\" width=\"{}\" height=\"{}\" rx=\"6\" fill=\"{}\" stroke=\"{}\"/>\
             <rect x=\"{x}\" y=\"{y}\" width=\"6\" height=\"{}\" rx=\"3\" fill=\"{}\"/>",
            num(n.w),
            num(n.h),
            p.node,
            p.border,
            num(n.h),
            n.color,
        );
        let tx = num(n.x + 16.0);
        let name_y = if n.type_label.is_empty() { n.y + n.h / 2.0 + NAME_SIZE * 0.35 } else { n.y + 25.0 };
        let _ = write!(
            out,
            "<text class=\"name\" x=\"{tx}\" y=\"{}\" font-size=\"{NAME_SIZE}\" font-weight=\"bold\">",
            num(name_y)
        );
        escape_into(out, &shorten(&n.id, NAME_CHARS));
        out.push_str("</text>");
        if !n.type_label.is_empty() {
            let _ = write!(
                out,
                "<text class=\"type\" x=\"{tx}\" y=\"{}\" font-size=\"{TYPE_SIZE}\" fill-opacity=\"0.75\">",
                num(n.y + 44.0)
            );
            escape_into(out, &shorten(&n.type_label, TYPE_CHARS));
            out.push_str("</text>");
        }
        out.push_str("</g>\n");
    }
    out.push_str("</g>\n");
}

/// Start: a filled disc; end: a disc in a ring (the usual marks of a state diagram).
fn marks(out: &mut String, scene: &Scene, p: &Palette) {
    for m in scene.items.iter().filter(|i| i.mark == Mark::Start || i.mark == Mark::End) {
        let (cx, cy, r) = (m.x + m.w / 2.0, m.y + m.h / 2.0, m.w / 2.0);
        let (class, title) = if m.mark == Mark::Start { ("start", "start") } else { ("end", "end") };
        let _ = write!(out, "<g class=\"{class}\" data-id=\"{}\"><title>{title}</title>", escape(&m.id));
        if m.mark == Mark::Start {
            let _ = write!(
                out,
                "<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{}\"/>",
                num(cx),
                num(cy),
                num(r * 0.7),
                p.terminal
            );
        } else {
            let _ = write!(
                out,
                "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"{}\" fill=\"none\" stroke=\"{t}\" stroke-width=\"3\"/>\
                 <circle cx=\"{cx}\" cy=\"{cy}\" r=\"{}\" fill=\"{t}\"/>",
                num(r * 0.8),
                num(r * 0.45),
                cx = num(cx),
                cy = num(cy),
                t = p.terminal,
            );
        }
        out.push_str("</g>\n");
    }
}

/// Labels last, over the edges and cards they cross (as on the canvas).
fn labels(out: &mut String, scene: &Scene, p: &Palette) {
    let labelled: Vec<&Wire> = scene.wires.iter().filter(|w| !w.label.is_empty()).collect();
    if labelled.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "<g class=\"edge-labels\" font-family=\"{MONO}\" font-size=\"{LABEL_SIZE}\" text-anchor=\"middle\">"
    );
    for w in labelled {
        let c = curve(scene, w);
        let text = shorten(&w.label, LABEL_CHARS);
        let pw = plate_width(&text);
        out.push_str("<g class=\"edge-label\"><title>");
        escape_into(out, &w.label);
        let _ = write!(
            out,
            "</title><rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"3\" fill=\"{}\" stroke=\"{}\" stroke-opacity=\"{}\"/>\
             <text x=\"{}\" y=\"{}\" fill=\"{}\">",
            num(c.mid.0 - pw / 2.0),
            num(c.mid.1 - LABEL_SIZE * 0.8),
            num(pw),
            num(LABEL_SIZE * 1.6),
            p.node,
            p.guarded,
            p.guarded_opacity,
            num(c.mid.0),
            num(c.mid.1 + LABEL_SIZE * 0.35),
            p.text,
        );
        escape_into(out, &text);
        out.push_str("</text></g>\n");
    }
    out.push_str("</g>\n");
}
