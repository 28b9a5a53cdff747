//! The notes and group frames of a picture, placed as the canvas places them
//! (ui/src/annotations/frames.ts): a group has no geometry of its own, its frame is drawn
//! around its members (nodes, notes, nested groups; a collapsed nested group takes the room of
//! its box) with room for the title bar; a collapsed group is one box at its frame's top-left
//! corner. What collapsing hides and the edges drawn for a box are Rust's
//! ([`trellis_doc::collapse::CollapsedView`]), read, not worked out again here.
//!
//! Colours are the canvas's palette (frames.ts `PALETTE`): a light fill and a strong line per
//! name, a custom `#rrggbb` as its line with a faint fill. The canvas draws notes and frames in
//! these colours in both themes, so the picture does too.

use std::collections::{HashMap, HashSet};

use trellis_doc::annotations::{Group, Note};
use trellis_doc::canvas_sizes::{NODE, TERMINAL};
use trellis_doc::collapse::CollapsedView;
use trellis_doc::Layout;
use trellis_spec::{END, START};

/// Space around a frame's members, and the title bar above them (frames.ts `PAD`, `TITLE`).
pub const PAD: f64 = 20.0;
pub const TITLE: f64 = 28.0;
/// A collapsed group's box (frames.ts `BOX_W`, `BOX_H`).
pub const BOX_W: f64 = 200.0;
pub const BOX_H: f64 = 60.0;

/// A note's or group's colours as SVG paints.
#[derive(Debug, Clone, PartialEq)]
pub struct Tint {
    pub fill: String,
    /// 1 for the palette's fills; a custom colour's fill is itself, faint.
    pub fill_opacity: f32,
    pub line: String,
}

const PALETTE: [(&str, &str, &str); 9] = [
    ("yellow", "#fef3c7", "#d97706"),
    ("orange", "#ffedd5", "#ea580c"),
    ("red", "#fee2e2", "#dc2626"),
    ("pink", "#fce7f3", "#db2777"),
    ("purple", "#ede9fe", "#7c3aed"),
    ("blue", "#dbeafe", "#2563eb"),
    ("teal", "#ccfbf1", "#0d9488"),
    ("green", "#dcfce7", "#16a34a"),
    ("gray", "#f1f5f9", "#64748b"),
];

/// The colours of a palette name or `#rrggbb` (anything else is gray, as on the canvas).
pub fn tint(color: &str) -> Tint {
    if let Some((_, fill, line)) = PALETTE.iter().find(|(k, _, _)| *k == color) {
        return Tint { fill: (*fill).into(), fill_opacity: 1.0, line: (*line).into() };
    }
    let hex = color.strip_prefix('#').filter(|h| h.len() == 6 && h.bytes().all(|b| b.is_ascii_hexdigit()));
    match hex {
        // The canvas's `${c}26`: the colour at 0x26 / 0xff alpha.
        Some(_) => Tint { fill: color.to_owned(), fill_opacity: 0.15, line: color.to_owned() },
        None => tint("gray"),
    }
}

/// A group's frame as drawn: behind its members, the name and member count in its title bar.
#[derive(Debug, Clone, PartialEq)]
pub struct Frame {
    pub id: String,
    pub name: String,
    pub tint: Tint,
    /// Nodes and notes in it, nested groups' included (the count on the title bar).
    pub count: usize,
    /// How deeply it is nested (outer frames are drawn first).
    pub depth: usize,
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
}

/// A note as drawn: its box and its Markdown source (reduced to lines when drawn).
#[derive(Debug, Clone, PartialEq)]
pub struct NoteBox {
    pub id: String,
    pub text: String,
    pub tint: Tint,
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
}

impl NoteBox {
    pub fn of(n: &Note) -> NoteBox {
        NoteBox {
            id: n.id.clone(),
            text: n.text.clone(),
            tint: tint(&n.color),
            x: n.x,
            y: n.y,
            w: n.width,
            h: n.height,
        }
    }
}

/// A rectangle (top-left corner, size).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rect {
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
}

fn union(a: Option<Rect>, b: Rect) -> Option<Rect> {
    if !(b.x.is_finite() && b.y.is_finite() && b.w.is_finite() && b.h.is_finite()) {
        return a;
    }
    let Some(a) = a else { return Some(b) };
    let (x, y) = (a.x.min(b.x), a.y.min(b.y));
    Some(Rect { x, y, w: (a.x + a.w).max(b.x + b.w) - x, h: (a.y + a.h).max(b.y + b.h) - y })
}

/// The size the canvas gives a node (`sizeOf` in geometry.ts).
fn size_of(id: &str) -> (f64, f64) {
    if id == START || id == END {
        (TERMINAL.w, TERMINAL.h)
    } else {
        (NODE.w, NODE.h)
    }
}

/// Which members count for a frame's extent: all of them (the whole graph), or those a
/// selection draws.
pub trait Members {
    fn node(&self, id: &str) -> bool;
    fn note(&self, id: &str) -> bool;
}

/// Everything counts.
#[derive(Debug)]
pub struct All;

impl Members for All {
    fn node(&self, _: &str) -> bool {
        true
    }
    fn note(&self, _: &str) -> bool {
        true
    }
}

/// The frames and boxes of a layout's groups.
#[derive(Debug)]
pub struct Groups<'a> {
    layout: &'a Layout,
    collapsed: &'a CollapsedView,
    notes: HashMap<&'a str, &'a Note>,
    children: HashMap<&'a str, Vec<&'a Group>>,
    by_id: HashMap<&'a str, &'a Group>,
}

impl<'a> Groups<'a> {
    pub fn new(layout: &'a Layout, collapsed: &'a CollapsedView) -> Groups<'a> {
        let by_id: HashMap<&str, &Group> = layout.groups.iter().map(|g| (g.id.as_str(), g)).collect();
        let mut children: HashMap<&str, Vec<&Group>> = HashMap::new();
        for g in &layout.groups {
            if let Some(p) = g.parent.as_deref().filter(|p| by_id.contains_key(p)) {
                children.entry(p).or_default().push(g);
            }
        }
        let notes = layout.notes.iter().map(|n| (n.id.as_str(), n)).collect();
        Groups { layout, collapsed, notes, children, by_id }
    }

    /// The framed rectangle of a group's members that `members` lets count (`None`: none).
    fn framed(
        &self,
        g: &'a Group,
        positions: &HashMap<&str, (f64, f64)>,
        members: &dyn Members,
        memo: &mut HashMap<&'a str, Option<Rect>>,
        seen: &mut HashSet<&'a str>,
    ) -> Option<Rect> {
        if let Some(r) = memo.get(g.id.as_str()) {
            return *r;
        }
        if !seen.insert(g.id.as_str()) {
            return None;
        }
        let mut r: Option<Rect> = None;
        for id in g.nodes.iter().filter(|id| members.node(id)) {
            if let Some(&(x, y)) = positions.get(id.as_str()) {
                let (w, h) = size_of(id);
                r = union(r, Rect { x, y, w, h });
            }
        }
        for id in g.notes.iter().filter(|id| members.note(id)) {
            if let Some(n) = self.notes.get(id.as_str()) {
                r = union(r, Rect { x: n.x, y: n.y, w: n.width, h: n.height });
            }
        }
        for c in self.children.get(g.id.as_str()).into_iter().flatten() {
            let Some(inner) = self.framed(c, positions, members, memo, seen) else { continue };
            // A collapsed child takes the room of its box, an expanded one of its frame.
            let room = if c.collapsed { Rect { x: inner.x, y: inner.y, w: BOX_W, h: BOX_H } } else { inner };
            r = union(r, room);
        }
        let framed = r.map(|r| Rect {
            x: r.x - PAD,
            y: r.y - PAD - TITLE,
            w: r.w + 2.0 * PAD,
            h: r.h + 2.0 * PAD + TITLE,
        });
        memo.insert(g.id.as_str(), framed);
        framed
    }

    fn depth(&self, g: &Group) -> usize {
        let mut d = 0;
        let mut at = g.parent.as_deref().and_then(|p| self.by_id.get(p));
        while let Some(p) = at {
            d += 1;
            if d >= 64 {
                break;
            }
            at = p.parent.as_deref().and_then(|q| self.by_id.get(q));
        }
        d
    }

    /// Nodes and notes in a group and the groups nested in it.
    pub fn count(&self, g: &Group) -> usize {
        let mut seen = HashSet::new();
        let mut todo = vec![g];
        let mut n = 0;
        while let Some(g) = todo.pop() {
            if !seen.insert(g.id.as_str()) {
                continue;
            }
            n += g.nodes.len() + g.notes.len();
            todo.extend(self.children.get(g.id.as_str()).into_iter().flatten());
        }
        n
    }

    /// The frames drawn (expanded groups not inside a collapsed box, with at least one member
    /// that counts), outer ones first.
    pub fn frames(&self, positions: &HashMap<&str, (f64, f64)>, members: &dyn Members) -> Vec<Frame> {
        let hidden: HashSet<&str> = self.collapsed.groups.iter().map(String::as_str).collect();
        let mut memo = HashMap::new();
        let mut out: Vec<Frame> = Vec::new();
        for g in &self.layout.groups {
            if g.collapsed || hidden.contains(g.id.as_str()) || self.collapsed.boxes.contains_key(&g.id) {
                continue;
            }
            let Some(r) = self.framed(g, positions, members, &mut memo, &mut HashSet::new()) else {
                continue;
            };
            out.push(Frame {
                id: g.id.clone(),
                name: g.name.clone(),
                tint: tint(&g.color),
                count: self.count(g),
                depth: self.depth(g),
                x: r.x,
                y: r.y,
                w: r.w,
                h: r.h,
            });
        }
        out.sort_by_key(|f| f.depth);
        out
    }

    /// Each collapsed box's group and top-left corner (the corner of its members' frame, all
    /// members counted, as on the canvas).
    pub fn boxes(&self, positions: &HashMap<&str, (f64, f64)>) -> Vec<(&'a Group, f64, f64)> {
        let mut memo = HashMap::new();
        self.layout
            .groups
            .iter()
            .filter(|g| self.collapsed.boxes.contains_key(&g.id))
            .filter_map(|g| {
                let r = self.framed(g, positions, &All, &mut memo, &mut HashSet::new())?;
                Some((g, r.x, r.y))
            })
            .collect()
    }

    /// A group and every group nested in it.
    pub fn with_nested(&self, id: &'a str) -> Vec<&'a Group> {
        let mut out = Vec::new();
        let mut seen = HashSet::new();
        let mut todo: Vec<&Group> = self.by_id.get(id).into_iter().copied().collect();
        while let Some(g) = todo.pop() {
            if !seen.insert(g.id.as_str()) {
                continue;
            }
            out.push(g);
            todo.extend(self.children.get(g.id.as_str()).into_iter().flatten());
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_are_the_canvas_palette() {
        assert_eq!(tint("blue"), Tint { fill: "#dbeafe".into(), fill_opacity: 1.0, line: "#2563eb".into() });
        assert_eq!(tint("#3366aa").fill_opacity, 0.15);
        assert_eq!(tint("#3366aa").line, "#3366aa");
        // Anything that is not a colour (markup included) is gray, never written into the SVG.
        assert_eq!(tint("\"/><script>"), tint("gray"));
        assert_eq!(tint("#33"), tint("gray"));
    }
}
