//! What the canvas draws for a document's edges, in all three formats: the label of every
//! document edge, and the edges drawn for the reader only (not edges of the document), so a
//! Weaveflow or GRAPH.md graph does not show unconnected start and end marks.
//! - a GraphSpec edge: its guard in the Mermaid label style (`intent == "buy"`,
//!   `trellis_spec::predicate::label`), and the operator the engine uses (what the condition
//!   editor edits);
//! - a Weaveflow edge: its condition's type and key argument (`supervisor_route_equals:
//!   researcher`), a failure route as `on failure`; the entry point is drawn from `__start__`
//!   and the finish point into `__end__`;
//! - a GRAPH.md edge: its `condition` (a loop's bound too); the entry from `__start__`, every
//!   exit into `__end__`, and a judge's `fallback` route dashed, labelled `fallback`.
//!
//! The one place these rules live: the document view and its deltas carry them to the UI
//! (`DocumentView::edge_labels`, `extra_edges`), the automatic layout lays the extra edges out
//! and the picture export draws both.

use serde::Serialize;
use serde_json::Value;
use trellis_formats::graphmd::validate::EdgeKind;
use trellis_spec::predicate::{self, Op};
use trellis_spec::{EdgeSpec, GraphSpec, END, START};
use ts_rs::TS;

use crate::document::Document;

/// A guard's operator: the first of eq, neq, in, gt, lt, truthy present in the predicate (a
/// non-array `in` does not count), as the engine reads it (`trellis_spec::predicate`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "lowercase")]
#[ts(export)]
pub enum PredicateOperator {
    Eq,
    Neq,
    In,
    Gt,
    Lt,
    Truthy,
}

impl PredicateOperator {
    /// Every operator, in the engine's order of precedence.
    pub const ALL: [PredicateOperator; 6] = [Self::Eq, Self::Neq, Self::In, Self::Gt, Self::Lt, Self::Truthy];

    /// The key the operator is stored under.
    pub fn name(self) -> &'static str {
        match self {
            Self::Eq => "eq",
            Self::Neq => "neq",
            Self::In => "in",
            Self::Gt => "gt",
            Self::Lt => "lt",
            Self::Truthy => "truthy",
        }
    }
}

impl From<Op<'_>> for PredicateOperator {
    fn from(op: Op<'_>) -> Self {
        match op {
            Op::Eq(_) => Self::Eq,
            Op::Neq(_) => Self::Neq,
            Op::In(_) => Self::In,
            Op::Gt(_) => Self::Gt,
            Op::Lt(_) => Self::Lt,
            Op::Truthy(_) => Self::Truthy,
        }
    }
}

/// What one document edge says on the canvas (an edge that says nothing has none: `null` in
/// the view, so a large graph's mostly plain edges cost four bytes each).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[ts(export)]
pub struct EdgeLabel {
    /// The text drawn on the edge, in full (never empty); the canvas shortens it.
    pub text: String,
    /// A GraphSpec guard's operator (null: a guard without a known operator, or an edge of
    /// another format).
    pub operator: Option<PredicateOperator>,
}

impl EdgeLabel {
    /// A GraphSpec edge's label: its guard, if any.
    pub fn of_edge(edge: &EdgeSpec) -> Option<EdgeLabel> {
        let p = edge.when.as_ref()?;
        Some(EdgeLabel {
            text: predicate::label(p),
            operator: predicate::operator(p).map(PredicateOperator::from),
        })
    }

    fn text(text: String) -> Option<EdgeLabel> {
        (!text.is_empty()).then_some(EdgeLabel { text, operator: None })
    }
}

/// An edge drawn for the reader only: never selected, never edited.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS)]
#[ts(export)]
pub struct ExtraEdge {
    pub from: String,
    pub to: String,
    /// "" for none.
    pub label: String,
    /// Drawn dashed (a judge's fallback route).
    pub dashed: bool,
}

impl ExtraEdge {
    fn plain(from: &str, to: &str) -> ExtraEdge {
        ExtraEdge { from: from.to_owned(), to: to.to_owned(), label: String::new(), dashed: false }
    }
}

/// What the canvas draws for a document's edges.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct DrawnEdges {
    /// One per edge of the canvas graph (`spec`), same order.
    pub labels: Vec<Option<EdgeLabel>>,
    pub extra: Vec<ExtraEdge>,
}

impl DrawnEdges {
    /// The drawn edges of `document`, whose canvas graph is `spec` (the document itself for a
    /// GraphSpec, its projection otherwise: `crate::formats::canvas_spec`).
    pub fn of(document: &Document, spec: &GraphSpec) -> DrawnEdges {
        let mut labels: Vec<Option<EdgeLabel>> = spec.edges.iter().map(EdgeLabel::of_edge).collect();
        let mut extra = Vec::new();
        match document {
            Document::GraphSpec(_) => {}
            Document::Weaveflow(d) => {
                let edges = d.definition_value().get("edges").and_then(Value::as_array);
                for (slot, e) in labels.iter_mut().zip(edges.into_iter().flatten()) {
                    if let Some(c) = e.get("condition").and_then(Value::as_object) {
                        let kind = c.get("type").and_then(Value::as_str).unwrap_or("condition");
                        let arg = key_argument(c.get("config"));
                        *slot = EdgeLabel::text(if arg.is_empty() {
                            kind.to_owned()
                        } else {
                            format!("{kind}: {arg}")
                        });
                    } else if e.get("failure").is_some_and(Value::is_object) {
                        *slot = EdgeLabel::text("on failure".to_owned());
                    }
                }
                let def = d.definition();
                if !def.entry_point.is_empty() {
                    extra.push(ExtraEdge::plain(START, &def.entry_point));
                }
                if !def.finish_point.is_empty() {
                    extra.push(ExtraEdge::plain(&def.finish_point, END));
                }
            }
            Document::GraphMd(d) => {
                let (t, _) = trellis_formats::graphmd::check(d);
                for e in t.edges {
                    let Some(slot) = labels.get_mut(e.index) else { continue };
                    let bound = match (e.kind, e.max_iterations) {
                        (EdgeKind::Loop, Some(n)) => format!("loop ≤ {n}"),
                        _ => String::new(),
                    };
                    let parts = [e.condition.unwrap_or_default(), bound];
                    *slot = EdgeLabel::text(
                        parts.into_iter().filter(|s| !s.is_empty()).collect::<Vec<_>>().join(", "),
                    );
                }
                if let Some(entry) = &t.entry {
                    extra.push(ExtraEdge::plain(START, entry));
                }
                extra.extend(t.exits.iter().map(|x| ExtraEdge::plain(x, END)));
                for n in &t.nodes {
                    if let Some(f) = &n.fallback {
                        extra.push(ExtraEdge {
                            from: n.id.clone(),
                            to: f.clone(),
                            label: "fallback".into(),
                            dashed: true,
                        });
                    }
                }
            }
        }
        DrawnEdges { labels, extra }
    }
}

/// A Weaveflow condition's key argument: its first scalar config value (an expression, a
/// worker id), numbers as JavaScript prints them.
fn key_argument(config: Option<&Value>) -> String {
    let Some(Value::Object(m)) = config else { return String::new() };
    for v in m.values() {
        match v {
            Value::String(s) => return s.clone(),
            Value::Number(n) => return predicate::js_number(n),
            Value::Bool(b) => return b.to_string(),
            _ => {}
        }
    }
    String::new()
}
