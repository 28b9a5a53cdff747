//! Where things are in the pane's text: the document's problems (underlined in the pane at the
//! place their pointer names, the same place the problems panel gives), and each node and edge
//! (selecting one on the canvas shows its text; the cursor in its text selects it). Found with
//! the formats' own locators: a JSON text by its pointers (`json::fill_spans`, one pass over
//! the text whatever the number of places), a GRAPH.md front matter by its YAML reading.

use serde::Serialize;
use trellis_spec::{json, Diagnostic, Element, Span};
use ts_rs::TS;

use crate::document::Document;
use crate::formats::view::canvas_spec;
use crate::session::Session;
use crate::text_changes::offsets::{to_bytes, to_utf16};
use crate::text_changes::ElementPlaces as Places;

/// A range of the pane's text (UTF-16 offsets).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[ts(export)]
pub struct TextRange {
    pub from: u32,
    pub to: u32,
}

/// The spans of `pointers` in `text`, in the document's format. A pointer that names nothing in
/// the text has none (a JSON pointer's nearest ancestor, which the locator falls back to, is
/// not its place).
fn spans(document: &Document, text: &str, pointers: &[String]) -> Vec<Option<Span>> {
    match document {
        Document::GraphMd(_) => match trellis_formats::graphmd::read(text).doc {
            Some(doc) => pointers.iter().map(|p| doc.span_at(p)).collect(),
            None => vec![None; pointers.len()],
        },
        _ => {
            let mut probes: Vec<Diagnostic> =
                pointers.iter().map(|p| Diagnostic::info("", "").at(p.clone())).collect();
            json::fill_spans(text, &mut probes);
            probes.into_iter().map(|d| d.span).collect()
        }
    }
}

/// The places in `text` of `diagnostics` (one each, in order; none when the pointer names
/// nothing there). A problem of the whole document (no pointer) is placed on the first line.
pub(crate) fn marks(document: &Document, text: &str, diagnostics: &[Diagnostic]) -> Vec<Option<TextRange>> {
    let pointers: Vec<String> = diagnostics.iter().map(|d| d.pointer.clone()).collect();
    let found = spans(document, text, &pointers);
    let first_line = text.find('\n').unwrap_or(text.len());
    let ranges: Vec<Option<(usize, usize)>> = found
        .into_iter()
        .zip(&pointers)
        .map(|(span, pointer)| match span {
            _ if pointer.is_empty() => Some((0, first_line)),
            Some(sp) => {
                let start = (sp.offset as usize).min(text.len());
                Some((start, (start + sp.length as usize).min(text.len())))
            }
            None => None,
        })
        .collect();
    let mut ends: Vec<usize> = ranges.iter().flatten().flat_map(|(a, b)| [*a, *b]).collect();
    ends.sort_unstable();
    ends.dedup();
    let units = to_utf16(text, &ends);
    let unit = |b: usize| ends.binary_search(&b).ok().map_or(0, |i| units[i]);
    ranges.into_iter().map(|r| r.map(|(a, b)| TextRange { from: unit(a), to: unit(b) })).collect()
}

/// The places of every problem of the view (`DocumentView.diagnostics`: the registries' first,
/// which are not in this text).
pub(crate) fn all_marks(s: &Session, text: &str) -> Vec<Option<TextRange>> {
    let mut out = vec![None; s.registries().diagnostics.len()];
    out.extend(marks(s.document(), text, s.diagnostics()));
    out
}

/// The nodes' and edges' places in `text` (the document's own pointers: `/nodes/3`).
fn places_of(document: &Document, text: &str) -> Places {
    let (node_pointers, edge_count) = match document {
        Document::GraphMd(d) => {
            let nodes = d.node_maps().map(|(i, _)| format!("/nodes/{i}")).collect::<Vec<_>>();
            let edges = d.edge_maps().count();
            (nodes, edges)
        }
        _ => {
            let canvas = canvas_spec(document);
            ((0..canvas.nodes.len()).map(|i| format!("/nodes/{i}")).collect(), canvas.edges.len())
        }
    };
    let edge_pointers: Vec<String> = match document {
        Document::GraphMd(d) => d.edge_maps().map(|(i, _)| format!("/edges/{i}")).collect(),
        _ => (0..edge_count).map(|i| format!("/edges/{i}")).collect(),
    };
    let mut pointers = vec!["/nodes".to_owned(), "/edges".to_owned()];
    pointers.extend(node_pointers.iter().cloned());
    pointers.extend(edge_pointers.iter().cloned());
    let found = spans(document, text, &pointers);
    let range = |sp: &Option<Span>| sp.map(|s| (s.offset as usize, s.offset as usize + s.length as usize));
    let (lists, elements) = found.split_at(2);
    let (node_spans, edge_spans) = elements.split_at(node_pointers.len());
    // A place that is its list's own is the locator's fallback: the element is not there.
    let own = |list: &Option<Span>, sp: &Option<Span>| range(sp).filter(|r| Some(*r) != range(list));
    Places {
        nodes: node_spans.iter().map(|sp| own(&lists[0], sp)).collect(),
        edges: edge_spans.iter().map(|sp| own(&lists[1], sp)).collect(),
    }
}

impl Session {
    /// The places of the current version of the text, found once per version.
    fn places(&mut self) -> Option<&Places> {
        let version = self.text_pane.version;
        if self.text_pane.places.as_ref().is_none_or(|(v, _)| *v != version) {
            let text = self.text_pane.text.as_deref()?;
            let places = places_of(self.document(), text);
            self.text_pane.places = Some((version, places));
        }
        self.text_pane.places.as_ref().map(|(_, p)| p)
    }

    /// The node or edge whose text holds `offset` (UTF-16) of `version` of the text; None when
    /// the pane's version is not the text's (the pane asks again once it caught up) or the
    /// place is in no element.
    pub fn text_element_at(&mut self, version: u64, offset: u32) -> Option<Element> {
        if version != self.text_pane.version || self.text_pane.error.is_some() {
            return None;
        }
        let at = *to_bytes(self.text_pane.text.as_deref()?, &[offset])?.first()?;
        let places = self.places()?.clone();
        let inside = |r: &Option<(usize, usize)>| r.is_some_and(|(a, b)| a <= at && at < b);
        let canvas = canvas_spec(self.document());
        if let Some(i) = places.nodes.iter().position(inside) {
            return node_at(self.document(), i).map(|id| Element::Node { id });
        }
        let i = places.edges.iter().position(inside)?;
        let e = canvas.edges.get(i)?;
        Some(Element::Edge { index: i, from: e.from.to_string(), to: e.to.to_string() })
    }

    /// Where a node's or edge's text is in `version` of the text.
    pub fn text_range_of(&mut self, version: u64, element: &Element) -> Option<TextRange> {
        if version != self.text_pane.version || self.text_pane.error.is_some() {
            return None;
        }
        let index = match element {
            Element::Node { id } => Some((true, node_index(self.document(), id)?)),
            Element::Edge { index, .. } => Some((false, *index)),
            _ => None,
        }?;
        let places = self.places()?;
        let (a, b) = match index {
            (true, i) => (*places.nodes.get(i)?)?,
            (false, i) => (*places.edges.get(i)?)?,
        };
        let units = to_utf16(self.text_pane.text.as_deref()?, &[a, b]);
        Some(TextRange { from: units[0], to: units[1] })
    }
}

/// The id of the node at `index` of the document's node list (GRAPH.md: of its `nodes` items).
fn node_at(document: &Document, index: usize) -> Option<String> {
    match document {
        Document::GraphMd(d) => d
            .node_maps()
            .nth(index)
            .and_then(|(_, m)| m.get("id"))
            .and_then(trellis_formats::graphmd::model::id_text),
        _ => canvas_spec(document).nodes.get(index).map(|n| n.id.to_string()),
    }
}

fn node_index(document: &Document, id: &str) -> Option<usize> {
    match document {
        Document::GraphMd(d) => d.node_maps().position(|(_, m)| {
            m.get("id").and_then(trellis_formats::graphmd::model::id_text).as_deref() == Some(id)
        }),
        _ => canvas_spec(document).nodes.iter().position(|n| n.id.as_str() == id),
    }
}
