//! What a picture shows of a document: the canvas's boxes (nodes, and the start and end marks)
//! at their canvas positions, and its wires (the document's edges with the labels the canvas
//! writes on them, plus the edges drawn for the reader only). Built from the session the app
//! holds, in all three formats; `svg::render` draws it.
//!
//! The labels follow `ui/src/lib/edgeDecor.ts` (the canvas's): a GraphSpec guard in the
//! Mermaid style, a Weaveflow condition's type and key argument or "on failure", a GRAPH.md
//! condition and loop bound; Weaveflow's entry and finish points and GRAPH.md's entry, exits
//! and judge fallbacks are drawn as extra wires. Sizes are the canvas's
//! (`trellis_doc::auto_layout::{NODE, TERMINAL}`).

use std::collections::{HashMap, HashSet};

use serde_json::Value;
use trellis_doc::auto_layout::{NODE, TERMINAL};
use trellis_doc::formats::view::display_spec;
use trellis_doc::{Document, Session};
use trellis_spec::{Diagnostic, GraphSpec, END, START};

use crate::codes;
use crate::theme::category_color;

/// What kind of box.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mark {
    Node,
    Start,
    End,
}

/// One drawn box: a node card or a start/end mark.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    /// The node's name (its id, as on the canvas).
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
}

/// A picture's content, in canvas coordinates.
///
/// Notes and groups (issue 16, `Layout.notes` and `Layout.groups`) are not drawn yet; they
/// become two more lists here (a group's box and title, a note's box and text), filled by
/// [`Scene::of`] and drawn by `svg::render` in the layer it keeps for them, under the edges.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Scene {
    /// The graph's name, when it has one (the picture's title).
    pub title: Option<String>,
    pub items: Vec<Item>,
    pub wires: Vec<Wire>,
}

/// What part of the document to draw.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Scope {
    Whole,
    /// These nodes (ids; start and end marks count too) and the edges between them.
    Selection(Vec<String>),
}

impl Scene {
    /// The scene of a session's document, whole or a selection of it. A selection that names
    /// no node of the document is refused (`picture/empty-selection`).
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

        let mut scene = Scene { title: graph_name(session.document(), spec), ..Scene::default() };
        let mut index: HashMap<&str, usize> = HashMap::with_capacity(spec.nodes.len() + 2);
        for n in &spec.nodes {
            // A duplicate id is the validator's to report; the canvas draws the first.
            if index.contains_key(n.id.as_str()) || n.id == START || n.id == END {
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
                id: n.id.clone(),
                mark: Mark::Node,
                type_label,
                color: category_color(category),
                x,
                y,
                w: NODE.w,
                h: NODE.h,
            });
        }

        let labels = edge_labels(session.document(), spec);
        let mut wanted: Vec<(String, String, String, bool, bool)> = spec
            .edges
            .iter()
            .zip(labels)
            .map(|(e, (label, guarded))| (e.from.clone(), e.to.clone(), label, guarded, false))
            .collect();
        wanted.extend(drawn_only(session.document()));

        // The start and end marks are drawn when an edge reaches them.
        for (t, mark) in [(START, Mark::Start), (END, Mark::End)] {
            if wanted.iter().any(|w| {
                (w.0 == t && index.contains_key(w.1.as_str()))
                    || (w.1 == t && index.contains_key(w.0.as_str()))
            }) {
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
                });
            }
        }
        for (from, to, label, guarded, dashed) in wanted {
            // An edge to a node that does not exist is the validator's to report: not drawn.
            let (Some(&a), Some(&b)) = (index.get(from.as_str()), index.get(to.as_str())) else { continue };
            scene.wires.push(Wire { from: a, to: b, label, guarded, dashed });
        }
        match scope {
            Scope::Whole => Ok(scene),
            Scope::Selection(ids) => scene.only(ids),
        }
    }

    /// The scene restricted to `ids` and the wires between them.
    fn only(self, ids: &[String]) -> Result<Scene, Diagnostic> {
        let keep: HashSet<&str> = ids.iter().map(String::as_str).collect();
        let mut renumber = vec![usize::MAX; self.items.len()];
        let mut items = Vec::new();
        for (i, item) in self.items.into_iter().enumerate() {
            if keep.contains(item.id.as_str()) {
                renumber[i] = items.len();
                items.push(item);
            }
        }
        if !items.iter().any(|i| i.mark == Mark::Node) {
            return Err(Diagnostic::error(
                codes::EMPTY_SELECTION,
                "nothing to draw: the selection has no node of this document (select nodes, or export the whole graph)",
            ));
        }
        let wires = self
            .wires
            .into_iter()
            .filter_map(|w| {
                let (a, b) = (renumber[w.from], renumber[w.to]);
                (a != usize::MAX && b != usize::MAX).then_some(Wire { from: a, to: b, ..w })
            })
            .collect();
        Ok(Scene { title: self.title, items, wires })
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

/// Per document edge (same order as the projection's edges): its label, and whether it is
/// drawn as a conditional edge.
fn edge_labels(document: &Document, spec: &GraphSpec) -> Vec<(String, bool)> {
    let mut out: Vec<(String, bool)> = spec
        .edges
        .iter()
        .map(|e| match &e.when {
            Some(p) => (trellis_spec::predicate::label(p), true),
            None => (String::new(), false),
        })
        .collect();
    match document {
        Document::GraphSpec(_) => {}
        Document::Weaveflow(d) => {
            let edges = d.value().get("edges").and_then(Value::as_array);
            for (i, e) in edges.into_iter().flatten().enumerate().take(out.len()) {
                if let Some(c) = e.get("condition").and_then(Value::as_object) {
                    let kind = c.get("type").and_then(Value::as_str).unwrap_or("condition");
                    let arg = key_argument(c.get("config"));
                    out[i] = (if arg.is_empty() { kind.to_owned() } else { format!("{kind}: {arg}") }, true);
                } else if e.get("failure").is_some_and(Value::is_object) {
                    out[i] = ("on failure".to_owned(), true);
                }
            }
        }
        Document::GraphMd(d) => {
            let (t, _) = trellis_formats::graphmd::check(d);
            for e in t.edges {
                let Some(slot) = out.get_mut(e.index) else { continue };
                let bound = match (e.kind, e.max_iterations) {
                    (trellis_formats::graphmd::validate::EdgeKind::Loop, Some(n)) => format!("loop ≤ {n}"),
                    _ => String::new(),
                };
                let label = [e.condition.unwrap_or_default(), bound]
                    .into_iter()
                    .filter(|s| !s.is_empty())
                    .collect::<Vec<_>>()
                    .join(", ");
                let guarded = !label.is_empty();
                *slot = (label, guarded);
            }
        }
    }
    out
}

/// A condition's key argument: its first scalar config value (an expression, a worker id).
fn key_argument(config: Option<&Value>) -> String {
    let Some(Value::Object(m)) = config else { return String::new() };
    for v in m.values() {
        match v {
            Value::String(s) => return s.clone(),
            Value::Number(n) => return n.to_string(),
            Value::Bool(b) => return b.to_string(),
            _ => {}
        }
    }
    String::new()
}

/// The wires drawn that are not edges of the document: `(from, to, label, guarded, dashed)`.
fn drawn_only(document: &Document) -> Vec<(String, String, String, bool, bool)> {
    let plain = |a: &str, b: &str| (a.to_owned(), b.to_owned(), String::new(), false, false);
    let mut out = Vec::new();
    match document {
        Document::GraphSpec(_) => {}
        Document::Weaveflow(d) => {
            let def = d.definition();
            if !def.entry_point.is_empty() {
                out.push(plain(START, &def.entry_point));
            }
            if !def.finish_point.is_empty() {
                out.push(plain(&def.finish_point, END));
            }
        }
        Document::GraphMd(d) => {
            let (t, _) = trellis_formats::graphmd::check(d);
            if let Some(entry) = &t.entry {
                out.push(plain(START, entry));
            }
            out.extend(t.exits.iter().map(|x| plain(x, END)));
            for n in &t.nodes {
                if let Some(f) = &n.fallback {
                    out.push((n.id.clone(), f.clone(), "fallback".to_owned(), true, true));
                }
            }
        }
    }
    out
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
