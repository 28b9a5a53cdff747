//! Three-way merge of graphs by element id (docs/git.md "Merge rules").
//!
//! * Elements (channels, nodes, edges) are matched by name, id and ends. An element added,
//!   removed or edited on one side only takes that side; the same change on both sides is
//!   taken once.
//! * Inside an element, and in the graph-level fields, objects merge key by key, recursively;
//!   anything else (a string, a number, a list) is one value.
//! * Two different values for one field, an edit against a deletion, or two different
//!   elements added under one id are conflicts: the result keeps OURS there, and the conflict
//!   records the pointer with the base, ours and theirs values.
//! * Layout merges by union, OURS winning a position both sides moved (never a conflict).
//! * GRAPH.md's body merges as text, line by line; overlapping edits are conflicts.
//!
//! Whether the merged graph still validates is the caller's check ([`crate::merge_documents`]).

use std::hash::Hash;

use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::graph::{EdgeKey, Graph};
use crate::pointer;

/// The element a conflict is in.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Element {
    /// The graph-level fields (name, entry, budgets...).
    Graph,
    Channel {
        name: String,
    },
    Node {
        id: String,
    },
    Edge {
        from: String,
        to: String,
        nth: usize,
    },
    /// GRAPH.md's Markdown body.
    Body,
}

/// Why two sides could not be merged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Reason {
    /// Both sides changed the value, differently.
    BothChanged,
    /// Both sides added it, with different values.
    BothAdded,
    /// One side changed what the other deleted.
    ChangedAndDeleted,
    /// The merged document does not validate (an edge to a node the other side deleted).
    Invalid,
}

/// One conflict: where, why, and the three values (absent where that side has none).
/// Read back by the app from the conflict report (`NAME.conflicts.json`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Conflict {
    pub element: Element,
    /// Relative to the element (`/config/model`; `""` for the whole element).
    pub pointer: String,
    pub reason: Reason,
    /// One sentence for people.
    pub message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ours: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub theirs: Option<Value>,
}

/// The merged graph (OURS where there are conflicts) and the conflicts.
#[derive(Debug, Clone)]
pub struct Merged {
    pub graph: Graph,
    pub conflicts: Vec<Conflict>,
}

/// Merges `ours` and `theirs`, both descended from `base` (all three in one format).
pub fn merge(base: &Graph, ours: &Graph, theirs: &Graph) -> Merged {
    let mut conflicts = Vec::new();
    let fields = {
        let mut cx = Cx { element: Element::Graph, out: &mut conflicts };
        merge_maps(&mut cx, "", Some(&base.fields), &ours.fields, &theirs.fields)
    };
    let channels = merge_keyed(&base.channels, &ours.channels, &theirs.channels, &mut conflicts, |name| {
        Element::Channel { name: name.clone() }
    });
    let nodes = merge_keyed(&base.nodes, &ours.nodes, &theirs.nodes, &mut conflicts, |id| Element::Node {
        id: id.clone(),
    });
    let edges = merge_keyed(&base.edges, &ours.edges, &theirs.edges, &mut conflicts, |k: &EdgeKey| {
        Element::Edge { from: k.from.clone(), to: k.to.clone(), nth: k.nth }
    });
    let layout = crate::layout::merge(base.layout.as_ref(), ours.layout.as_ref(), theirs.layout.as_ref());
    let body = match (&base.body, &ours.body, &theirs.body) {
        (b, Some(o), Some(t)) => Some(merge_text(b.as_deref().unwrap_or(""), o, t, &mut conflicts)),
        (_, o, _) => o.clone(),
    };
    let graph = Graph {
        format: ours.format,
        fields,
        channels,
        nodes,
        edges,
        layout,
        body,
        key_order: ours.key_order.clone(),
    };
    Merged { graph, conflicts }
}

/// Where conflicts go while merging one element.
struct Cx<'a> {
    element: Element,
    out: &'a mut Vec<Conflict>,
}

impl Cx<'_> {
    fn conflict(&mut self, at: &str, base: Option<&Value>, ours: Option<&Value>, theirs: Option<&Value>) {
        let reason = match (base, ours, theirs) {
            (_, None, _) | (_, _, None) => Reason::ChangedAndDeleted,
            (None, _, _) => Reason::BothAdded,
            _ => Reason::BothChanged,
        };
        let what = describe(&self.element, at);
        let message = match reason {
            Reason::ChangedAndDeleted if ours.is_none() => {
                format!("{what} was deleted on our side and changed on theirs")
            }
            Reason::ChangedAndDeleted => format!("{what} was changed on our side and deleted on theirs"),
            Reason::BothAdded => format!("{what} was added on both sides with different values"),
            _ => format!("{what} was changed on both sides to different values"),
        };
        self.out.push(Conflict {
            element: self.element.clone(),
            pointer: at.to_owned(),
            reason,
            message,
            base: base.cloned(),
            ours: ours.cloned(),
            theirs: theirs.cloned(),
        });
    }
}

/// "node \"answer\" field /config/model" and the like.
pub fn describe(element: &Element, at: &str) -> String {
    let el = match element {
        Element::Graph => return format!("the graph field {at}"),
        Element::Channel { name } => format!("channel \"{name}\""),
        Element::Node { id } => format!("node \"{id}\""),
        Element::Edge { from, to, nth } if *nth == 0 => format!("the edge {from} -> {to}"),
        Element::Edge { from, to, nth } => format!("edge #{} {from} -> {to}", nth + 1),
        Element::Body => return "the Markdown body".to_owned(),
    };
    if at.is_empty() {
        el
    } else {
        format!("{el}, field {at}")
    }
}

/// The three-way merge of one value.
fn merge_value(
    cx: &mut Cx<'_>,
    at: &str,
    base: Option<&Value>,
    ours: Option<&Value>,
    theirs: Option<&Value>,
) -> Option<Value> {
    if ours == theirs || theirs == base {
        return ours.cloned();
    }
    if ours == base {
        return theirs.cloned();
    }
    if let (Some(Value::Object(o)), Some(Value::Object(t))) = (ours, theirs) {
        match base {
            None => return Some(Value::Object(merge_maps(cx, at, None, o, t))),
            Some(Value::Object(b)) => return Some(Value::Object(merge_maps(cx, at, Some(b), o, t))),
            Some(_) => {}
        }
    }
    cx.conflict(at, base, ours, theirs);
    ours.cloned()
}

/// Objects key by key: OURS' key order, with the keys only THEIRS has added after.
fn merge_maps(
    cx: &mut Cx<'_>,
    at: &str,
    base: Option<&Map<String, Value>>,
    ours: &Map<String, Value>,
    theirs: &Map<String, Value>,
) -> Map<String, Value> {
    let mut out = Map::new();
    let keys = ours.keys().chain(theirs.keys().filter(|k| !ours.contains_key(*k))).chain(
        base.into_iter()
            .flat_map(|b| b.keys())
            .filter(|k| !ours.contains_key(*k) && !theirs.contains_key(*k)),
    );
    for k in keys {
        let b = base.and_then(|b| b.get(k));
        if let Some(v) = merge_value(cx, &pointer::push(at, k), b, ours.get(k), theirs.get(k)) {
            out.insert(k.clone(), v);
        }
    }
    out
}

/// Channels, nodes or edges: element by element, in OURS' order with THEIRS' additions placed
/// after the element they follow in THEIRS.
fn merge_keyed<K: Hash + Eq + Clone>(
    base: &IndexMap<K, Map<String, Value>>,
    ours: &IndexMap<K, Map<String, Value>>,
    theirs: &IndexMap<K, Map<String, Value>>,
    conflicts: &mut Vec<Conflict>,
    element: impl Fn(&K) -> Element,
) -> IndexMap<K, Map<String, Value>> {
    let mut out = IndexMap::with_capacity(ours.len().max(theirs.len()));
    let mut one = |k: &K, out: &mut IndexMap<K, Map<String, Value>>| {
        let (b, o, t) = (base.get(k), ours.get(k), theirs.get(k));
        // The common case, decided without building values.
        let merged = if o == t || t == b {
            o.cloned()
        } else if o == b {
            t.cloned()
        } else {
            let mut cx = Cx { element: element(k), out: conflicts };
            let wrap = |m: Option<&Map<String, Value>>| m.map(|m| Value::Object(m.clone()));
            match merge_value(&mut cx, "", wrap(b).as_ref(), wrap(o).as_ref(), wrap(t).as_ref()) {
                Some(Value::Object(m)) => Some(m),
                _ => None,
            }
        };
        if let Some(m) = merged {
            out.insert(k.clone(), m);
        }
    };
    // THEIRS' elements that OURS lacks (added by them, or deleted by us: `one` sees which),
    // grouped by the OURS element they follow (None: at the start).
    let mut after: IndexMap<Option<&K>, Vec<&K>> = IndexMap::new();
    let mut anchor: Option<&K> = None;
    for k in theirs.keys() {
        if ours.contains_key(k) {
            anchor = Some(k);
        } else {
            after.entry(anchor).or_default().push(k);
        }
    }
    if let Some(first) = after.get(&None) {
        for k in first {
            one(k, &mut out);
        }
    }
    for k in ours.keys() {
        one(k, &mut out);
        if let Some(next) = after.get(&Some(k)) {
            for k in next {
                one(k, &mut out);
            }
        }
    }
    out
}

/// The three-way merge of one value, its conflicts (OURS kept) collected in `out`.
pub fn merge_one_value(
    out: &mut Vec<Conflict>,
    base: Option<&Value>,
    ours: Option<&Value>,
    theirs: Option<&Value>,
) -> Option<Value> {
    let mut cx = Cx { element: Element::Graph, out };
    merge_value(&mut cx, "", base, ours, theirs)
}

/// A line-based three-way merge of texts (diffy). Overlapping edits are conflicts; the result
/// keeps OURS' lines there.
pub fn merge_text(base: &str, ours: &str, theirs: &str, conflicts: &mut Vec<Conflict>) -> String {
    let mut opts = diffy::MergeOptions::new();
    opts.set_conflict_style(diffy::ConflictStyle::Diff3);
    // Markers no Markdown body has, so the conflict regions can be read back unambiguously.
    opts.set_conflict_marker_length(MARKER_LEN);
    match opts.merge(base, ours, theirs) {
        Ok(text) => text,
        Err(marked) => resolve_markers(&marked, conflicts),
    }
}

const MARKER_LEN: usize = 23;

/// Reads diffy's conflict regions: OURS' lines go to the result, each region to a conflict.
fn resolve_markers(marked: &str, conflicts: &mut Vec<Conflict>) -> String {
    let start = "<".repeat(MARKER_LEN);
    let base_m = "|".repeat(MARKER_LEN);
    let mid = "=".repeat(MARKER_LEN);
    let end = ">".repeat(MARKER_LEN);
    #[derive(PartialEq)]
    enum State {
        Out,
        Ours,
        Base,
        Theirs,
    }
    let mut state = State::Out;
    let (mut out, mut o, mut b, mut t) = (String::new(), String::new(), String::new(), String::new());
    let mut line_no = 1usize;
    let mut region_line = 0usize;
    for line in marked.split_inclusive('\n') {
        let bare = line.trim_end_matches(['\n', '\r']);
        match state {
            State::Out if bare.starts_with(&start) => {
                state = State::Ours;
                region_line = line_no;
            }
            State::Ours if bare.starts_with(&base_m) => state = State::Base,
            State::Ours | State::Base if bare == mid => state = State::Theirs,
            State::Theirs if bare.starts_with(&end) => {
                state = State::Out;
                out.push_str(&o);
                conflicts.push(Conflict {
                    element: Element::Body,
                    pointer: format!("/body/line/{region_line}"),
                    reason: Reason::BothChanged,
                    message: format!("the Markdown body was changed on both sides at line {region_line}"),
                    base: Some(Value::String(std::mem::take(&mut b))),
                    ours: Some(Value::String(std::mem::take(&mut o))),
                    theirs: Some(Value::String(std::mem::take(&mut t))),
                });
            }
            State::Out => {
                out.push_str(line);
                line_no += 1;
            }
            State::Ours => {
                o.push_str(line);
                line_no += 1;
            }
            State::Base => b.push_str(line),
            State::Theirs => t.push_str(line),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_merge_takes_both_sides_and_reports_overlaps() {
        let base = "a\nb\nc\nd\ne\n";
        let mut c = Vec::new();
        assert_eq!(merge_text(base, "A\nb\nc\nd\ne\n", "a\nb\nc\nd\nE\n", &mut c), "A\nb\nc\nd\nE\n");
        assert!(c.is_empty());
        let merged = merge_text(base, "a\nX\nc\nd\ne\n", "a\nY\nc\nd\ne\n", &mut c);
        assert_eq!(merged, "a\nX\nc\nd\ne\n");
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].ours, Some(Value::from("X\n")));
        assert_eq!(c[0].theirs, Some(Value::from("Y\n")));
        assert_eq!(c[0].base, Some(Value::from("b\n")));
        assert_eq!(c[0].pointer, "/body/line/2");
    }
}
