//! Mermaid flowchart export, byte for byte as the reference renders it (formats.md §1.6,
//! MODEL.md §9.1, the `conformance/viz` vectors).
//!
//! Two entry points draw the same picture: [`render`] from a bare document (plus, optionally,
//! the code routers and hand-written guards a document cannot hold, as [`MermaidExtras`]), and
//! [`render_compiled`] from a compiled graph. Both reduce their input to a list of node names
//! and a list of [`VizEdge`]s and hand them to one drawing function, so they cannot drift apart.
//!
//! Solid edges are static or declarative; dashed edges are decided by code: a hand-written
//! guard (`-.->|"guard"|`), or a router (to each declared target, or to a `?` placeholder when
//! it declared none).
//!
//! Labels show values the way the TypeScript reference prints them (`JSON.stringify`), so the
//! number text follows JavaScript (`1.0` prints `1`, `1e21` prints `1e+21`) and integer-like
//! object keys come first, whatever the document said.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use ts_rs::TS;

use crate::graph::{CompiledGraph, Guard};
use crate::model::{GraphSpec, Predicate, END, START};
use crate::predicate;

/// Flowchart direction. The default is `TD`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[ts(export, rename = "MermaidDirection")]
pub enum Direction {
    #[default]
    TD,
    TB,
    BT,
    LR,
    RL,
}

impl Direction {
    pub const ALL: [Direction; 5] =
        [Direction::TD, Direction::TB, Direction::BT, Direction::LR, Direction::RL];

    pub fn as_str(self) -> &'static str {
        match self {
            Direction::TD => "TD",
            Direction::TB => "TB",
            Direction::BT => "BT",
            Direction::LR => "LR",
            Direction::RL => "RL",
        }
    }
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The reference's wording for a direction it does not know.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownDirection(pub String);

impl fmt::Display for UnknownDirection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let quoted = serde_json::to_string(&self.0).unwrap_or_default();
        write!(f, "unknown Mermaid direction {quoted}; use TD, TB, BT, LR or RL")
    }
}

impl std::error::Error for UnknownDirection {}

impl FromStr for Direction {
    type Err = UnknownDirection;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Direction::ALL.into_iter().find(|d| d.as_str() == s).ok_or_else(|| UnknownDirection(s.to_owned()))
    }
}

/// Where a thread stands: nodes in `next` get the `next` class, nodes in `pending` the
/// `pending` class and a ⏸ in their label. A node in both is only `pending`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(default)]
#[ts(export, rename = "MermaidHighlight")]
pub struct Highlight {
    pub next: Vec<String>,
    pub pending: Vec<String>,
}

/// Rendering options, in the JSON shape of a viz case's `options`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(default, rename_all = "camelCase")]
#[ts(export)]
pub struct MermaidOptions {
    pub direction: Direction,
    /// Draw router edges (and their `?` placeholders). Default `true`.
    pub include_routers: bool,
    #[ts(optional)]
    pub highlight: Option<Highlight>,
}

impl Default for MermaidOptions {
    fn default() -> Self {
        MermaidOptions { direction: Direction::TD, include_routers: true, highlight: None }
    }
}

/// A code router as a picture knows it: where it starts and, if it declared them, its targets.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RouterSketch {
    pub from: String,
    /// `None`: the router declared no targets and is drawn to a `?`.
    pub targets: Option<Vec<String>>,
}

/// A hand-written guard with no declarative form.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GuardSketch {
    pub from: String,
    pub to: String,
}

/// What a bare document cannot hold but a picture may show, in the JSON shape of a viz case
/// (`routers`, then `guards`, both drawn after the document's edges in that order).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct MermaidExtras {
    pub routers: Vec<RouterSketch>,
    pub guards: Vec<GuardSketch>,
}

/// One edge, reduced to what a picture can show.
#[derive(Debug, Clone)]
enum VizEdge<'a> {
    Static { from: &'a str, to: &'a str },
    Spec { from: &'a str, to: &'a str, when: &'a Predicate },
    Guard { from: &'a str, to: &'a str },
    Router { from: &'a str, targets: Option<&'a [String]> },
}

impl<'a> VizEdge<'a> {
    fn from(&self) -> &'a str {
        match self {
            VizEdge::Static { from, .. }
            | VizEdge::Spec { from, .. }
            | VizEdge::Guard { from, .. }
            | VizEdge::Router { from, .. } => from,
        }
    }
}

/// Renders a document, with the code routers and guards of `extras` drawn after its edges.
pub fn render(spec: &GraphSpec, extras: &MermaidExtras, options: &MermaidOptions) -> String {
    let nodes: Vec<&str> = spec.nodes.iter().map(|n| n.id.as_str()).collect();
    let mut edges: Vec<VizEdge<'_>> = spec
        .edges
        .iter()
        .map(|e| match &e.when {
            Some(when) => VizEdge::Spec { from: &e.from, to: &e.to, when },
            None => VizEdge::Static { from: &e.from, to: &e.to },
        })
        .collect();
    edges.extend(
        extras.routers.iter().map(|r| VizEdge::Router { from: &r.from, targets: r.targets.as_deref() }),
    );
    edges.extend(extras.guards.iter().map(|g| VizEdge::Guard { from: &g.from, to: &g.to }));
    draw(&nodes, edges, options)
}

/// Renders a compiled graph: its edges in order (a code guard with a declarative twin draws as
/// that twin, one without as a dashed `guard` edge), then its routers in order.
///
/// The reference keeps routers in the same list as edges, so a router added between two edges
/// is drawn between them there. [`crate::graph::Graph`] keeps routers in a list of their own
/// and does not record that interleaving, so here routers always come after every edge: a
/// graph whose code guards were added after its routers draws those guards first. [`render`]
/// with [`MermaidExtras`] keeps the reference order (edges, routers, guards).
pub fn render_compiled(graph: &CompiledGraph, options: &MermaidOptions) -> String {
    let g = graph.graph();
    let nodes: Vec<&str> = g.nodes.iter().map(|n| n.id.as_str()).collect();
    let mut edges: Vec<VizEdge<'_>> = g
        .edges
        .iter()
        .map(|e| match &e.guard {
            None => VizEdge::Static { from: &e.from, to: &e.to },
            Some(Guard::Spec(when)) | Some(Guard::Code { spec_when: Some(when), .. }) => {
                VizEdge::Spec { from: &e.from, to: &e.to, when }
            }
            Some(Guard::Code { spec_when: None, .. }) => VizEdge::Guard { from: &e.from, to: &e.to },
        })
        .collect();
    edges.extend(g.routers.iter().map(|r| VizEdge::Router { from: &r.from, targets: r.targets.as_deref() }));
    draw(&nodes, edges, options)
}

fn draw(declared: &[&str], mut edges: Vec<VizEdge<'_>>, options: &MermaidOptions) -> String {
    if !options.include_routers {
        edges.retain(|e| !matches!(e, VizEdge::Router { .. }));
    }

    // Every node an edge names is drawn, even one the document forgot to declare.
    // `position` maps a name to its place in `order` (lookups only, never iterated).
    let mut order: Vec<&str> = Vec::with_capacity(declared.len());
    let mut position: HashMap<&str, usize> = HashMap::with_capacity(declared.len());
    let mentioned = edges.iter().flat_map(|e| {
        let mut names = vec![e.from()];
        match e {
            VizEdge::Static { to, .. } | VizEdge::Spec { to, .. } | VizEdge::Guard { to, .. } => {
                names.push(*to)
            }
            VizEdge::Router { targets, .. } => {
                names.extend(targets.unwrap_or_default().iter().map(String::as_str))
            }
        }
        names.into_iter().filter(|n| *n != START && *n != END)
    });
    for name in declared.iter().copied().chain(mentioned) {
        if !position.contains_key(name) {
            position.insert(name, order.len());
            order.push(name);
        }
    }

    // Generated ids must not clash with a real safe id, START, END or each other.
    let mut used: HashSet<String> = [START.to_owned(), END.to_owned()].into();
    used.extend(order.iter().filter(|n| is_safe_id(n)).map(|n| (*n).to_owned()));
    let mut fresh = |base: String| {
        let mut id = base;
        while used.contains(&id) {
            id.push('_');
        }
        used.insert(id.clone());
        id
    };
    let ids: Vec<String> = order
        .iter()
        .enumerate()
        .map(|(i, n)| if is_safe_id(n) { (*n).to_owned() } else { fresh(format!("n{i}")) })
        .collect();
    let id_of = |name: &str| -> String {
        match position.get(name) {
            Some(&i) => ids[i].clone(),
            // START and END keep their names.
            None => name.to_owned(),
        }
    };

    // One placeholder per router that declared no targets, numbered in edge order.
    let mut placeholders: Vec<Option<String>> = vec![None; edges.len()];
    let mut routers = 0usize;
    for (i, e) in edges.iter().enumerate() {
        if let VizEdge::Router { targets: None, .. } = e {
            placeholders[i] = Some(fresh(format!("r{routers}")));
            routers += 1;
        }
    }

    let highlight = options.highlight.clone().unwrap_or_default();
    let pending: HashSet<&str> = highlight.pending.iter().map(String::as_str).collect();
    let next: HashSet<&str> =
        highlight.next.iter().map(String::as_str).filter(|n| !pending.contains(n)).collect();

    let uses_end = edges.iter().any(|e| match e {
        VizEdge::Router { targets, .. } => targets.unwrap_or_default().iter().any(|t| t == END),
        VizEdge::Static { to, .. } | VizEdge::Spec { to, .. } | VizEdge::Guard { to, .. } => *to == END,
    });

    let mut out = String::new();
    let mut line = |s: &str| {
        out.push_str(s);
        out.push('\n');
    };
    line(&format!("flowchart {}", options.direction));
    line(&format!("  {START}([START])"));
    for (i, name) in order.iter().enumerate() {
        let text = if pending.contains(name) { format!("⏸ {name}") } else { (*name).to_owned() };
        line(&format!("  {}[\"{}\"]", ids[i], escape_label(&text)));
    }
    for id in placeholders.iter().flatten() {
        line(&format!("  {id}{{\"?\"}}"));
    }
    if uses_end {
        line(&format!("  {END}([END])"));
    }
    for (i, e) in edges.iter().enumerate() {
        let from = id_of(e.from());
        match e {
            VizEdge::Static { to, .. } => line(&format!("  {from} --> {}", id_of(to))),
            VizEdge::Spec { to, when, .. } => {
                line(&format!("  {from} -->|\"{}\"| {}", escape_label(&predicate_label(when)), id_of(to)));
            }
            VizEdge::Guard { to, .. } => line(&format!("  {from} -.->|\"guard\"| {}", id_of(to))),
            VizEdge::Router { targets: Some(targets), .. } => {
                for t in targets.iter() {
                    line(&format!("  {from} -.-> {}", id_of(t)));
                }
            }
            VizEdge::Router { targets: None, .. } => {
                let placeholder = placeholders[i].clone().unwrap_or_default();
                line(&format!("  {from} -.-> {placeholder}"));
            }
        }
    }

    // Classes list nodes in declaration order, each once.
    let marked = |set: &HashSet<&str>| -> Vec<String> {
        order.iter().enumerate().filter(|(_, n)| set.contains(*n)).map(|(i, _)| ids[i].clone()).collect()
    };
    let next_ids = marked(&next);
    let pending_ids = marked(&pending);
    if !next_ids.is_empty() {
        line("  classDef next stroke-width:3px");
        line(&format!("  class {} next", next_ids.join(",")));
    }
    if !pending_ids.is_empty() {
        line("  classDef pending stroke-width:3px,stroke-dasharray:5 3");
        line(&format!("  class {} pending", pending_ids.join(",")));
    }
    out
}

/// Words Mermaid's flowchart grammar claims (compared in lower case): a node id spelled like one
/// breaks the parse, so such a node gets a generated id.
const KEYWORDS: [&str; 14] = [
    "end",
    "graph",
    "flowchart",
    "subgraph",
    "style",
    "class",
    "classdef",
    "click",
    "linkstyle",
    "direction",
    "default",
    "call",
    "href",
    "interpolate",
];

/// `^[A-Za-z_][A-Za-z0-9_]*$` (ASCII only) and not a keyword in any case.
pub fn is_safe_id(name: &str) -> bool {
    let mut chars = name.chars();
    let Some(first) = chars.next() else { return false };
    (first.is_ascii_alphabetic() || first == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !KEYWORDS.contains(&name.to_ascii_lowercase().as_str())
}

/// Escapes text for a quoted Mermaid label. `#` opens an entity code, so it goes first; quotes,
/// angle brackets and backticks would end the string, open HTML or start a markdown string.
/// Line breaks (CRLF, CR, LF) become one space each.
pub fn escape_label(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '#' => out.push_str("#35;"),
            '"' => out.push_str("#quot;"),
            '<' => out.push_str("#lt;"),
            '>' => out.push_str("#gt;"),
            '`' => out.push_str("#96;"),
            '\r' => {
                if chars.peek() == Some(&'\n') {
                    chars.next();
                }
                out.push(' ');
            }
            '\n' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// A predicate as a reader writes it, naming the operator the engine evaluates: the first
/// present of eq, neq, in (only when it is a list), gt, lt, truthy. With none, the channel.
pub fn predicate_label(p: &Predicate) -> String {
    let m = p;
    let channel = js_string(m.get("channel"));
    if let Some(v) = m.get("eq") {
        return format!("{channel} == {}", js_json(v));
    }
    if let Some(v) = m.get("neq") {
        return format!("{channel} != {}", js_json(v));
    }
    if let Some(Value::Array(items)) = m.get("in") {
        let items: Vec<String> = items.iter().map(js_json).collect();
        return format!("{channel} in [{}]", items.join(", "));
    }
    if let Some(v) = m.get("gt") {
        return format!("{channel} > {}", js_json(v));
    }
    if let Some(v) = m.get("lt") {
        return format!("{channel} < {}", js_json(v));
    }
    if let Some(v) = m.get("truthy") {
        return if js_truthy(v) { format!("truthy({channel})") } else { format!("not truthy({channel})") };
    }
    channel
}

/// JavaScript's `String(v)` for a JSON value (`undefined` when absent).
fn js_string(v: Option<&Value>) -> String {
    match v {
        None => "undefined".to_owned(),
        Some(Value::Null) => "null".to_owned(),
        Some(Value::Bool(b)) => b.to_string(),
        Some(Value::Number(n)) => js_number_text(n),
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(items)) => items
            .iter()
            .map(|i| if i.is_null() { String::new() } else { js_string(Some(i)) })
            .collect::<Vec<_>>()
            .join(","),
        Some(Value::Object(_)) => "[object Object]".to_owned(),
    }
}

/// JavaScript truthiness (not the engine's `isTruthy`: here `[]` and `{}` are true).
fn js_truthy(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => js_number(n).is_some_and(|f| f != 0.0 && !f.is_nan()),
        Value::String(s) => !s.is_empty(),
        Value::Array(_) | Value::Object(_) => true,
    }
}

/// The number JavaScript's `JSON.parse` makes of the number text (`None` when it overflows to
/// an infinity).
fn js_number(n: &serde_json::Number) -> Option<f64> {
    n.to_string().parse::<f64>().ok().filter(|f| f.is_finite())
}

/// `Number.prototype.toString()` of the parsed number; an overflow prints as JavaScript's
/// `Infinity` would.
fn js_number_text(n: &serde_json::Number) -> String {
    match js_number(n) {
        Some(f) => predicate::js_f64(f),
        None if n.to_string().starts_with('-') => "-Infinity".to_owned(),
        None => "Infinity".to_owned(),
    }
}

/// JavaScript's `JSON.stringify` of a parsed JSON value: numbers re-printed as JavaScript would
/// (an overflow to infinity prints `null`), integer-like keys first in ascending order.
fn js_json(v: &Value) -> String {
    let mut out = String::new();
    write_js_json(v, &mut out);
    out
}

fn write_js_json(v: &Value, out: &mut String) {
    match v {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => match js_number(n) {
            Some(f) => out.push_str(&predicate::js_f64(f)),
            None => out.push_str("null"),
        },
        // serde_json escapes exactly the characters JSON.stringify escapes, the same way.
        Value::String(s) => out.push_str(&serde_json::to_string(s).unwrap_or_default()),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_js_json(item, out);
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            for (i, (key, value)) in js_key_order(map).into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&serde_json::to_string(key).unwrap_or_default());
                out.push(':');
                write_js_json(value, out);
            }
            out.push('}');
        }
    }
}

/// Object keys in JavaScript's property order: array-index keys ascending, then the rest in
/// insertion order.
fn js_key_order(map: &Map<String, Value>) -> Vec<(&String, &Value)> {
    let indexed: BTreeSet<(u32, &String)> =
        map.keys().filter_map(|k| array_index(k).map(|i| (i, k))).collect();
    let mut ordered: Vec<(&String, &Value)> =
        indexed.iter().filter_map(|(_, k)| map.get_key_value(k.as_str())).collect();
    ordered.extend(map.iter().filter(|(k, _)| array_index(k).is_none()));
    ordered
}

/// A canonical array index ("0", "17"; not "01", not 2^32 - 1 or above).
fn array_index(key: &str) -> Option<u32> {
    if key.is_empty() || (key.len() > 1 && key.starts_with('0')) || !key.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    key.parse::<u32>().ok().filter(|i| *i != u32::MAX)
}

#[cfg(test)]
mod tests;
