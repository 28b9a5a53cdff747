//! What a picture shows of a document: the canvas's boxes (nodes, the start and end marks, and
//! collapsed groups' boxes) at their canvas positions, its wires (the document's edges with the
//! labels the canvas writes on them, plus the edges drawn for the reader only, and for a
//! collapsed group the edges Rust aggregated, labelled `×N`), the group frames and the notes
//! (`trellis_doc::annotations`). Built from the session the app holds, in all three formats (Weaveflow's
//! notes and groups come from its `metadata.web`, through the session's layout);
//! `svg::render` draws it.
//!
//! The labels and the extra wires are the canvas's own (`trellis_doc::drawn_edges`): a
//! GraphSpec guard in the Mermaid style, a Weaveflow condition's type and key argument or "on
//! failure", a GRAPH.md condition and loop bound; Weaveflow's entry and finish points and
//! GRAPH.md's entry, exits and judge fallbacks. Sizes are the canvas's
//! (`trellis_doc::canvas_sizes::{NODE, TERMINAL}`).

use std::collections::{HashMap, HashSet};

use trellis_doc::canvas_sizes::{NODE, TERMINAL};
use trellis_doc::collapse::CollapsedView;
use trellis_doc::drawn_edges::DrawnEdges;
use trellis_doc::formats::view::display_spec;
use trellis_doc::{Document, Session};
use trellis_spec::{Diagnostic, GraphSpec, END, START};

use trellis_doc::canvas_sizes::label_size;
use trellis_layout::route::{self, Route, RouteOptions};
use trellis_layout::{Point, Size};

use crate::annotations::{tint, Frame, Groups, Members, NoteBox, Tint, BOX_H, BOX_W};
use crate::codes;
use crate::theme::category_color;

/// What kind of box.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mark {
    Node,
    Start,
    End,
    /// A collapsed group's box (standing for its members; `Item::group` says which).
    Group,
}

/// What a collapsed group's box shows.
#[derive(Debug, Clone, PartialEq)]
pub struct BoxInfo {
    pub name: String,
    /// Nodes and notes it hides (Rust's count, `CollapsedView::boxes`).
    pub count: usize,
    pub tint: Tint,
}

/// One drawn box: a node card, a start/end mark or a collapsed group.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    /// The node's name (its id, as on the canvas); a box's group id.
    pub id: String,
    pub mark: Mark,
    /// The type as the canvas shows it: the registry title, else the type name ("" for none).
    pub type_label: String,
    /// The category colour of the type (the card's left bar).
    pub color: &'static str,
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
    /// A collapsed group's box: its name, count and colours.
    pub group: Option<BoxInfo>,
}

/// One drawn edge between two items (indices into [`Scene::items`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Wire {
    pub from: usize,
    pub to: usize,
    /// The label written on it ("" for none).
    pub label: String,
    /// Drawn in the condition colour (a condition, a failure route, a fallback).
    pub guarded: bool,
    /// Drawn dashed (a route drawn for the reader only, such as a judge's fallback).
    pub dashed: bool,
    /// How it runs among the picture's boxes and where its label sits, as on the canvas
    /// (`trellis_layout::route`).
    pub route: Route,
}

/// A picture's content, in canvas coordinates.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Scene {
    /// The graph's name, when it has one (the picture's title).
    pub title: Option<String>,
    pub items: Vec<Item>,
    pub wires: Vec<Wire>,
    /// Expanded groups' frames, outer ones first (drawn first, under everything).
    pub frames: Vec<Frame>,
    /// Notes not hidden in a collapsed group (drawn over the frames, under the edges).
    pub notes: Vec<NoteBox>,
}

/// What part of the document to draw.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Scope {
    Whole,
    /// A selection and the edges between what it draws.
    Selection(Selection),
}

impl Scope {
    /// A selection of nodes only.
    pub fn nodes(ids: Vec<String>) -> Scope {
        Scope::Selection(Selection { nodes: ids, ..Selection::default() })
    }
}

/// What is selected on the canvas. A selected group brings its members and nested groups; a
/// frame is drawn around the members the picture holds, for every group one of them is in; a
/// member hidden in a collapsed group draws that group's box.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Selection {
    /// Node ids (the start and end marks count too).
    pub nodes: Vec<String>,
    pub notes: Vec<String>,
    pub groups: Vec<String>,
}

/// What a scope keeps: every node and note, or those of a selection.
#[derive(Debug)]
enum Keep {
    All,
    Some { nodes: HashSet<String>, notes: HashSet<String>, boxes: HashSet<String> },
}

impl Keep {
    fn of(scope: &Scope, groups: &Groups<'_>, collapsed: &CollapsedView) -> Keep {
        let Scope::Selection(sel) = scope else { return Keep::All };
        let mut nodes: HashSet<String> = sel.nodes.iter().cloned().collect();
        let mut notes: HashSet<String> = sel.notes.iter().cloned().collect();
        let mut boxes = HashSet::new();
        for id in &sel.groups {
            for g in groups.with_nested(id) {
                nodes.extend(g.nodes.iter().cloned());
                notes.extend(g.notes.iter().cloned());
                boxes.insert(g.id.clone());
            }
        }
        // A hidden member drawn means its box is drawn (and the box's group was selected).
        boxes.extend(nodes.iter().filter_map(|n| collapsed.nodes.get(n)).cloned());
        boxes.extend(notes.iter().filter_map(|n| collapsed.notes.get(n)).cloned());
        boxes.retain(|b| collapsed.boxes.contains_key(b));
        Keep::Some { nodes, notes, boxes }
    }
}

/// The members a frame is drawn around in a selection: the kept ones, and those hidden in a
/// kept box.
struct KeptMembers<'a> {
    keep: &'a Keep,
    collapsed: &'a CollapsedView,
}

impl Members for KeptMembers<'_> {
    fn node(&self, id: &str) -> bool {
        match self.keep {
            Keep::All => true,
            Keep::Some { nodes, boxes, .. } => {
                nodes.contains(id) || self.collapsed.nodes.get(id).is_some_and(|b| boxes.contains(b))
            }
        }
    }
    fn note(&self, id: &str) -> bool {
        match self.keep {
            Keep::All => true,
            Keep::Some { notes, boxes, .. } => {
                notes.contains(id) || self.collapsed.notes.get(id).is_some_and(|b| boxes.contains(b))
            }
        }
    }
}

impl Scene {
    /// The scene of a session's document, whole or a selection of it. A selection that names
    /// nothing of the document to draw is refused (`picture/empty-selection`).
    pub fn of(session: &Session, scope: &Scope) -> Result<Scene, Diagnostic> {
        let projection;
        let spec: &GraphSpec = match session.spec() {
            Some(s) => s,
            None => {
                projection = display_spec(session.document()).unwrap_or_default();
                &projection
            }
        };
        let types: HashMap<String, (String, Option<String>)> = trellis_doc::palette::palette(session)
            .into_iter()
            .map(|t| {
                let title = t.title.clone().filter(|s| !s.is_empty()).unwrap_or_else(|| t.type_name.clone());
                (t.type_name, (title, t.category))
            })
            .collect();
        let positions = resolve_positions(session, spec);
        let layout = session.layout();
        // The canvas's collapsed view, computed as the app's `DocumentView.collapsed` is.
        let collapsed = CollapsedView::of(spec, layout);
        let groups = Groups::new(layout, &collapsed);
        let keep = Keep::of(scope, &groups, &collapsed);
        let kept_node = |id: &str| match &keep {
            Keep::All => true,
            Keep::Some { nodes, .. } => nodes.contains(id),
        };

        let mut scene = Scene { title: graph_name(session.document(), spec), ..Scene::default() };
        let mut index: HashMap<&str, usize> = HashMap::with_capacity(spec.nodes.len() + 2);
        for n in &spec.nodes {
            // A duplicate id is the validator's to report; the canvas draws the first.
            if index.contains_key(n.id.as_str()) || n.id == START || n.id == END {
                continue;
            }
            // Hidden in a collapsed group (its box stands for it), or not selected.
            if collapsed.nodes.contains_key(n.id.as_str()) || !kept_node(&n.id) {
                continue;
            }
            let (type_label, category) = match n.type_name.as_deref() {
                Some(t) => match types.get(t) {
                    Some((title, category)) => (title.clone(), category.as_deref()),
                    None => (t.to_owned(), None),
                },
                None => (String::new(), None),
            };
            let (x, y) = positions.get(n.id.as_str()).copied().unwrap_or((0.0, 0.0));
            index.insert(&n.id, scene.items.len());
            scene.items.push(Item {
                id: n.id.to_string(),
                mark: Mark::Node,
                type_label,
                color: category_color(category),
                x,
                y,
                w: NODE.w,
                h: NODE.h,
                group: None,
            });
        }
        // Collapsed groups' boxes, by group id (apart from node ids: a node may be called so).
        let mut box_index: HashMap<&str, usize> = HashMap::new();
        for (g, x, y) in groups.boxes(&positions) {
            if let Keep::Some { boxes, .. } = &keep {
                if !boxes.contains(&g.id) {
                    continue;
                }
            }
            let count = collapsed.boxes.get(&g.id).copied().unwrap_or_else(|| groups.count(g));
            box_index.insert(&g.id, scene.items.len());
            scene.items.push(Item {
                id: g.id.clone(),
                mark: Mark::Group,
                type_label: format!("{count} members"),
                color: category_color(None),
                x,
                y,
                w: BOX_W,
                h: BOX_H,
                group: Some(BoxInfo { name: g.name.clone(), count, tint: tint(&g.color) }),
            });
        }

        // The labels and reader-only edges the canvas draws (`trellis_doc::drawn_edges`): a
        // labelled document edge is drawn as a conditional one, a fallback route dashed.
        let drawn = DrawnEdges::of(session.document(), spec);
        let hidden_edges: HashSet<usize> = collapsed.hidden_edges.iter().copied().collect();
        let mut wanted: Vec<(String, String, String, bool, bool)> = spec
            .edges
            .iter()
            .zip(drawn.labels)
            .enumerate()
            .filter(|(i, _)| !hidden_edges.contains(i))
            .map(|(_, (e, label))| {
                let (text, guarded) = label.map_or((String::new(), false), |l| (l.text, true));
                (e.from.to_string(), e.to.to_string(), text, guarded, false)
            })
            .collect();
        // Drawn for the reader only: not when an end is hidden in a box (as on the canvas).
        wanted.extend(
            drawn
                .extra
                .into_iter()
                .filter(|w| !collapsed.nodes.contains_key(&w.from) && !collapsed.nodes.contains_key(&w.to))
                .map(|w| (w.from, w.to, w.label, w.dashed, w.dashed)),
        );
        let end_of = |e: &trellis_doc::collapse::End, index: &HashMap<&str, usize>| {
            if e.group {
                box_index.get(e.id.as_str()).copied()
            } else {
                index.get(e.id.as_str()).copied()
            }
        };

        // The start and end marks are drawn when an edge reaches them.
        for (t, mark) in [(START, Mark::Start), (END, Mark::End)] {
            let reached = wanted.iter().any(|w| {
                (w.0 == t && index.contains_key(w.1.as_str()))
                    || (w.1 == t && index.contains_key(w.0.as_str()))
            }) || collapsed.edges.iter().any(|e| {
                (!e.from.group && e.from.id == t && end_of(&e.to, &index).is_some())
                    || (!e.to.group && e.to.id == t && end_of(&e.from, &index).is_some())
            });
            if reached && kept_node(t) {
                let (x, y) = positions.get(t).copied().unwrap_or((0.0, 0.0));
                index.insert(t, scene.items.len());
                scene.items.push(Item {
                    id: t.to_owned(),
                    mark,
                    type_label: String::new(),
                    color: category_color(None),
                    x,
                    y,
                    w: TERMINAL.w,
                    h: TERMINAL.h,
                    group: None,
                });
            }
        }
        for (from, to, label, guarded, dashed) in wanted {
            // An edge to a node that does not exist is the validator's to report: not drawn.
            let (Some(&a), Some(&b)) = (index.get(from.as_str()), index.get(to.as_str())) else { continue };
            scene.wires.push(Wire { from: a, to: b, label, guarded, dashed, route: Route::direct() });
        }
        // The edges a box stands for, drawn once per outside neighbour and direction.
        for e in &collapsed.edges {
            let (Some(a), Some(b)) = (end_of(&e.from, &index), end_of(&e.to, &index)) else { continue };
            let n = e.edges.len();
            let label = if n > 1 { format!("×{n}") } else { String::new() };
            scene.wires.push(Wire {
                from: a,
                to: b,
                label,
                guarded: false,
                dashed: false,
                route: Route::direct(),
            });
        }
        scene.route_wires();

        let members = KeptMembers { keep: &keep, collapsed: &collapsed };
        scene.frames = groups.frames(&positions, &members);
        scene.notes = layout
            .notes
            .iter()
            .filter(|n| !collapsed.notes.contains_key(&n.id) && members.note(&n.id))
            .map(NoteBox::of)
            .collect();

        if matches!(keep, Keep::Some { .. })
            && !scene.items.iter().any(|i| i.mark != Mark::Start && i.mark != Mark::End)
            && scene.notes.is_empty()
        {
            return Err(Diagnostic::error(
                codes::EMPTY_SELECTION,
                "nothing to draw: the selection has no node, note or group of this document (select some, or export the whole graph)",
            ));
        }
        Ok(scene)
    }

    /// Routes every wire among the boxes drawn, as the canvas routes its edges: curves into
    /// the next column, between the nodes of the columns passed, lanes around them for loops
    /// back; labels in the gaps.
    fn route_wires(&mut self) {
        let pos: Vec<Point> = self.items.iter().map(|i| Point { x: i.x, y: i.y }).collect();
        let sizes: Vec<Size> = self.items.iter().map(|i| Size { w: i.w, h: i.h }).collect();
        let edges: Vec<(usize, usize)> = self.wires.iter().map(|w| (w.from, w.to)).collect();
        let labels: Vec<Option<Size>> =
            self.wires.iter().map(|w| (!w.label.is_empty()).then(|| label_size(&w.label))).collect();
        let routes = route::routes(&pos, &sizes, &edges, &labels, &RouteOptions::default());
        for (w, r) in self.wires.iter_mut().zip(routes) {
            w.route = r;
        }
    }

    /// Nodes drawn (start and end marks not counted).
    pub fn node_count(&self) -> usize {
        self.items.iter().filter(|i| i.mark == Mark::Node).count()
    }
}

fn graph_name(document: &Document, spec: &GraphSpec) -> Option<String> {
    let name = match document {
        Document::GraphMd(d) => trellis_formats::graphmd::check(d).0.name,
        _ => spec.name.clone(),
    };
    name.filter(|n| !n.trim().is_empty())
}

/// Every box's top-left corner: the stored position, else (a node the layout has not placed)
/// a grid below the placed ones, as the canvas does (`resolvePositions` in geometry.ts); an
/// unplaced start mark left of everything, an end mark right of it.
fn resolve_positions<'a>(session: &Session, spec: &'a GraphSpec) -> HashMap<&'a str, (f64, f64)> {
    let stored = &session.layout().positions;
    let at = |id: &str| stored.get(id).filter(|p| p.x.is_finite() && p.y.is_finite()).map(|p| (p.x, p.y));
    let mut out: HashMap<&str, (f64, f64)> = HashMap::with_capacity(spec.nodes.len() + 2);
    let (mut min_x, mut max_x, mut max_y, mut any) = (f64::INFINITY, f64::NEG_INFINITY, 0.0_f64, false);
    for n in &spec.nodes {
        if let Some(p) = at(&n.id) {
            out.insert(&n.id, p);
            any = true;
            min_x = min_x.min(p.0);
            max_x = max_x.max(p.0 + NODE.w);
            max_y = max_y.max(p.1 + NODE.h);
        }
    }
    let cols = (spec.nodes.len() as f64).sqrt().ceil().max(1.0) as usize;
    let base_y = if any { max_y + 80.0 } else { 0.0 };
    let mut k = 0usize;
    for n in &spec.nodes {
        if out.contains_key(n.id.as_str()) {
            continue;
        }
        let p = ((k % cols) as f64 * (NODE.w + 60.0), base_y + (k / cols) as f64 * (NODE.h + 60.0));
        out.insert(&n.id, p);
        min_x = min_x.min(p.0);
        max_x = max_x.max(p.0 + NODE.w);
        k += 1;
    }
    if !min_x.is_finite() {
        (min_x, max_x) = (0.0, NODE.w);
    }
    out.insert(START, at(START).unwrap_or((min_x - 120.0, 0.0)));
    out.insert(END, at(END).unwrap_or((max_x + 76.0, 0.0)));
    out
}
