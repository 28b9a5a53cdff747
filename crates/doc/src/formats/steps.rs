//! The undo steps of a Weaveflow or GRAPH.md edit: reversible changes of the format's own
//! model, found by comparing the document before and after the edit (the format handlers
//! edit a copy, so a refused edit changes nothing). A step holds what changed (a node, an
//! edge, a field, a position), never the whole document, and applies either way.
//!
//! Weaveflow: the raw JSON value (what is written) and the typed view are both changed, by
//! JSON steps (`json_steps`) and by node and edge list changes and the few top-level fields.
//! GRAPH.md: the front matter by YAML steps (`yaml_steps`), the body beside it.

use serde_json::Value;
use trellis_formats::graphmd::GraphMd;
use trellis_formats::weaveflow::{GraphDefinition, GraphEdge, GraphNode, WeaveflowDoc};

use super::json_steps::{self, JsonStep};
use super::yaml_steps::{self, YamlStep};
use crate::document::Document;

/// `removed` at `at` in a list gives way to `inserted` (one for one: a replacement).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ListStep<T> {
    at: usize,
    removed: Vec<T>,
    inserted: Vec<T>,
}

impl<T: Clone + PartialEq> ListStep<T> {
    /// Same length: one replacement per changed item; otherwise what lies between the common
    /// prefix and suffix.
    fn between(old: &[T], new: &[T]) -> Vec<ListStep<T>> {
        if old.len() == new.len() {
            return old
                .iter()
                .zip(new)
                .enumerate()
                .filter(|(_, (a, b))| a != b)
                .map(|(at, (a, b))| ListStep { at, removed: vec![a.clone()], inserted: vec![b.clone()] })
                .collect();
        }
        crate::list_edit::ListEdit::between(old, new)
            .map(|e| ListStep { at: e.at, removed: old[e.at..e.at + e.remove].to_vec(), inserted: e.insert })
            .into_iter()
            .collect()
    }

    fn apply(&self, list: &mut Vec<T>, undo: bool) {
        let (take, put) =
            if undo { (&self.inserted, &self.removed) } else { (&self.removed, &self.inserted) };
        let at = self.at.min(list.len());
        let end = (at + take.len()).min(list.len());
        list.splice(at..end, put.iter().cloned());
    }
}

/// One reversible change of a Weaveflow or GRAPH.md document.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum FormatStep {
    /// Weaveflow: the raw value (the file's text is written from it).
    WeaveflowValue(JsonStep),
    /// Weaveflow: the typed view's nodes.
    WeaveflowNodes(ListStep<GraphNode>),
    /// Weaveflow: the typed view's edges.
    WeaveflowEdges(ListStep<GraphEdge>),
    /// Weaveflow: the typed view's `metadata` (positions, notes and groups live there).
    WeaveflowMetadata(JsonStep),
    /// Weaveflow: the typed view's other fields (a handful of strings), whole.
    WeaveflowHead { before: Box<GraphDefinition>, after: Box<GraphDefinition> },
    /// GRAPH.md: the front matter.
    GraphMdFront(YamlStep),
    /// GRAPH.md: the Markdown body and whether the closing `---` line ends with a newline.
    GraphMdBody { before: (String, bool), after: (String, bool) },
}

/// The typed view's fields other than nodes, edges and metadata (which may be huge, and are
/// changed by steps of their own).
fn head(d: &GraphDefinition) -> GraphDefinition {
    GraphDefinition {
        version: d.version.clone(),
        name: d.name.clone(),
        description: d.description.clone(),
        state_modules: d.state_modules.clone(),
        entry_point: d.entry_point.clone(),
        finish_point: d.finish_point.clone(),
        nodes: Vec::new(),
        edges: Vec::new(),
        policy: d.policy.clone(),
        metadata: Default::default(),
    }
}

/// Typed nodes and edges are compared with their own `==`, which ignores the key order of a
/// config map: the raw value, which is what is written and shown, is compared strictly.
fn weaveflow_steps(old: &WeaveflowDoc, new: &WeaveflowDoc) -> Vec<FormatStep> {
    let mut out: Vec<FormatStep> =
        json_steps::diff(old.value(), new.value()).into_iter().map(FormatStep::WeaveflowValue).collect();
    let (o, n) = (old.definition(), new.definition());
    out.extend(ListStep::between(&o.nodes, &n.nodes).into_iter().map(FormatStep::WeaveflowNodes));
    out.extend(ListStep::between(&o.edges, &n.edges).into_iter().map(FormatStep::WeaveflowEdges));
    out.extend(json_steps::diff_map(&o.metadata, &n.metadata).into_iter().map(FormatStep::WeaveflowMetadata));
    let (oh, nh) = (head(o), head(n));
    if oh != nh {
        out.push(FormatStep::WeaveflowHead { before: Box::new(oh), after: Box::new(nh) });
    }
    out
}

fn graphmd_steps(old: &GraphMd, new: &GraphMd) -> Option<Vec<FormatStep>> {
    if old.bom != new.bom || old.line_ending != new.line_ending {
        return None;
    }
    let mut out: Vec<FormatStep> =
        yaml_steps::diff(&old.front, &new.front)?.into_iter().map(FormatStep::GraphMdFront).collect();
    let (ob, nb) = ((old.body.clone(), old.closing_newline), (new.body.clone(), new.closing_newline));
    if ob != nb {
        out.push(FormatStep::GraphMdBody { before: ob, after: nb });
    }
    Some(out)
}

/// The steps that turn `old` into `new`; `None` when the change cannot be told as steps (the
/// format changed, or a GRAPH.md document's file layout did: the caller keeps a snapshot).
pub(crate) fn between(old: &Document, new: &Document) -> Option<Vec<FormatStep>> {
    match (old, new) {
        (Document::Weaveflow(o), Document::Weaveflow(n)) => Some(weaveflow_steps(o, n)),
        (Document::GraphMd(o), Document::GraphMd(n)) => graphmd_steps(o, n),
        _ => None,
    }
}

impl FormatStep {
    /// Applies the step (`undo`: its inverse) to a document of its format (any other is left
    /// alone: steps are applied to the state they were recorded on).
    pub(crate) fn apply(&self, document: &mut Document, undo: bool) {
        match (self, document) {
            (FormatStep::GraphMdFront(s), Document::GraphMd(d)) => s.apply(&mut d.front, undo),
            (FormatStep::GraphMdBody { before, after }, Document::GraphMd(d)) => {
                let (body, closing) = if undo { before } else { after };
                d.body.clone_from(body);
                d.closing_newline = *closing;
            }
            (step, Document::Weaveflow(d)) => {
                let (value, def) = d.parts_mut();
                match step {
                    FormatStep::WeaveflowValue(s) => s.apply(value, undo),
                    FormatStep::WeaveflowNodes(s) => s.apply(&mut def.nodes, undo),
                    FormatStep::WeaveflowEdges(s) => s.apply(&mut def.edges, undo),
                    FormatStep::WeaveflowMetadata(s) => {
                        let mut m = Value::Object(std::mem::take(&mut def.metadata));
                        s.apply(&mut m, undo);
                        if let Value::Object(m) = m {
                            def.metadata = m;
                        }
                    }
                    FormatStep::WeaveflowHead { before, after } => {
                        let h = if undo { before } else { after };
                        let nodes = std::mem::take(&mut def.nodes);
                        let edges = std::mem::take(&mut def.edges);
                        let metadata = std::mem::take(&mut def.metadata);
                        *def = GraphDefinition { nodes, edges, metadata, ..head(h) };
                    }
                    _ => {}
                }
            }
            _ => {}
        }
    }

    /// `next` folded into this step when both set the same place (typing into a field).
    pub(crate) fn absorb(&mut self, next: &FormatStep) -> bool {
        match (self, next) {
            (FormatStep::WeaveflowValue(a), FormatStep::WeaveflowValue(b))
            | (FormatStep::WeaveflowMetadata(a), FormatStep::WeaveflowMetadata(b)) => a.absorb(b),
            (FormatStep::GraphMdFront(a), FormatStep::GraphMdFront(b)) => a.absorb(b),
            (FormatStep::GraphMdBody { after, .. }, FormatStep::GraphMdBody { before, after: a2 })
                if after == before =>
            {
                after.clone_from(a2);
                true
            }
            (FormatStep::WeaveflowHead { after, .. }, FormatStep::WeaveflowHead { before, after: a2 })
                if after == before =>
            {
                after.clone_from(a2);
                true
            }
            (FormatStep::WeaveflowNodes(a), FormatStep::WeaveflowNodes(b)) => fold_replacement(a, b),
            (FormatStep::WeaveflowEdges(a), FormatStep::WeaveflowEdges(b)) => fold_replacement(a, b),
            _ => false,
        }
    }
}

fn fold_replacement<T: Clone + PartialEq>(a: &mut ListStep<T>, b: &ListStep<T>) -> bool {
    let one_for_one = |s: &ListStep<T>| s.removed.len() == 1 && s.inserted.len() == 1;
    if one_for_one(a) && one_for_one(b) && a.at == b.at && a.inserted == b.removed {
        a.inserted.clone_from(&b.inserted);
        return true;
    }
    false
}
