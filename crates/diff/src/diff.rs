//! The semantic diff of two graphs: what was added, removed, renamed and changed, element by
//! element, with changes inside an element field by field (JSON Pointers relative to the
//! element). Order is not meaning here: moving a node within the list is no change.
//!
//! A node is *renamed* when a node disappears and a node with another id but the same content
//! (type, config, every other field) appears; the edges that followed it are then not reported
//! as removed and added, since they were only rewired to the new id.

use std::collections::HashMap;

use indexmap::IndexMap;
use serde::Serialize;
use serde_json::{Map, Value};

use crate::graph::{EdgeKey, Graph};
use crate::pointer;
use crate::value_merge::same_map;

/// One field that differs inside an element: absent on one side when added or removed.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FieldChange {
    /// Relative to the element (`/config/model`); `""` would be the whole element.
    pub pointer: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub before: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub after: Option<Value>,
}

/// One change between two graphs.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "change", rename_all = "kebab-case")]
pub enum Change {
    /// A graph-level field (name, entry, exits, budgets, policy...).
    Graph(FieldChange),
    ChannelAdded {
        name: String,
        channel: Map<String, Value>,
    },
    ChannelRemoved {
        name: String,
        channel: Map<String, Value>,
    },
    ChannelChanged {
        name: String,
        fields: Vec<FieldChange>,
    },
    NodeAdded {
        id: String,
        node: Map<String, Value>,
    },
    NodeRemoved {
        id: String,
        node: Map<String, Value>,
    },
    /// Same content under a new id; `edges` edges were rewired with it.
    NodeRenamed {
        from: String,
        to: String,
        edges: usize,
    },
    NodeChanged {
        id: String,
        fields: Vec<FieldChange>,
    },
    EdgeAdded {
        edge: EdgeKey,
        fields: Map<String, Value>,
    },
    EdgeRemoved {
        edge: EdgeKey,
        fields: Map<String, Value>,
    },
    EdgeChanged {
        edge: EdgeKey,
        fields: Vec<FieldChange>,
    },
    /// GRAPH.md's Markdown body (line counts of what was removed and added).
    Body {
        removed: usize,
        added: usize,
        before: String,
        after: String,
    },
}

/// What changed between two graphs, and a one-line summary of the layout when asked for.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Diff {
    pub changes: Vec<Change>,
}

impl Diff {
    pub fn is_empty(&self) -> bool {
        self.changes.is_empty()
    }
}

/// Field changes between two JSON values, recursing into objects (arrays and scalars are
/// compared whole). `at` is the pointer of `a`/`b`.
pub fn value_changes(at: &str, a: Option<&Value>, b: Option<&Value>, out: &mut Vec<FieldChange>) {
    match (a, b) {
        (Some(Value::Object(x)), Some(Value::Object(y))) => map_changes(at, x, y, out),
        (x, y) if x != y => {
            out.push(FieldChange { pointer: at.to_owned(), before: x.cloned(), after: y.cloned() });
        }
        _ => {}
    }
}

/// Field changes between two objects, key by key (removed and changed in `a`'s order, then
/// added in `b`'s).
pub fn map_changes(at: &str, a: &Map<String, Value>, b: &Map<String, Value>, out: &mut Vec<FieldChange>) {
    for (k, va) in a {
        value_changes(&pointer::push(at, k), Some(va), b.get(k), out);
    }
    for (k, vb) in b {
        if !a.contains_key(k) {
            out.push(FieldChange { pointer: pointer::push(at, k), before: None, after: Some(vb.clone()) });
        }
    }
}

/// The content of a node as a hashable key, for finding renames.
fn content_key(node: &Map<String, Value>) -> String {
    serde_json::to_string(node).unwrap_or_default()
}

/// The semantic diff from `a` to `b`.
pub fn diff(a: &Graph, b: &Graph) -> Diff {
    let mut changes = Vec::new();

    let mut fields = Vec::new();
    map_changes("", &a.fields, &b.fields, &mut fields);
    changes.extend(fields.into_iter().map(Change::Graph));

    keyed(&a.channels, &b.channels, &mut changes, |name, c| match c {
        Keyed::Added(v) => Change::ChannelAdded { name: name.clone(), channel: v.clone() },
        Keyed::Removed(v) => Change::ChannelRemoved { name: name.clone(), channel: v.clone() },
        Keyed::Changed(fields) => Change::ChannelChanged { name: name.clone(), fields },
    });

    // Renames: a removed node whose content is exactly that of an added one.
    let mut added_by_content: HashMap<String, Vec<&String>> = HashMap::new();
    for (id, n) in &b.nodes {
        if !a.nodes.contains_key(id) {
            added_by_content.entry(content_key(n)).or_default().push(id);
        }
    }
    let mut renamed: IndexMap<&String, &String> = IndexMap::new();
    if !added_by_content.is_empty() {
        for (id, n) in &a.nodes {
            if b.nodes.contains_key(id) {
                continue;
            }
            if let Some(candidates) = added_by_content.get_mut(&content_key(n)) {
                if !candidates.is_empty() {
                    renamed.insert(id, candidates.remove(0));
                }
            }
        }
    }
    let renamed_to: std::collections::HashSet<&String> = renamed.values().copied().collect();
    let mut hint = 0;
    for (id, n) in &a.nodes {
        match find(&b.nodes, id, &mut hint) {
            Some(m) => {
                if !same_map(n, m) {
                    let mut fields = Vec::new();
                    map_changes("", n, m, &mut fields);
                    changes.push(Change::NodeChanged { id: id.clone(), fields });
                }
            }
            None if renamed.contains_key(id) => {}
            None => changes.push(Change::NodeRemoved { id: id.clone(), node: n.clone() }),
        }
    }
    let mut hint = 0;
    for (id, n) in &b.nodes {
        if find(&a.nodes, id, &mut hint).is_none() && !renamed_to.contains(id) {
            changes.push(Change::NodeAdded { id: id.clone(), node: n.clone() });
        }
    }

    // Edges are compared after following the renames, so rewired edges are no change.
    let rewired;
    let a_edges = if renamed.is_empty() {
        &a.edges
    } else {
        let map: HashMap<&str, &str> = renamed.iter().map(|(f, t)| (f.as_str(), t.as_str())).collect();
        let follow = |s: &String| map.get(s.as_str()).map_or_else(|| s.clone(), |t| (*t).to_owned());
        let mut counts: HashMap<&str, usize> = HashMap::new();
        for k in a.edges.keys() {
            for end in [&k.from, &k.to] {
                if let Some(t) = map.get(end.as_str()) {
                    *counts.entry(t).or_default() += 1;
                }
            }
        }
        for (from, to) in &renamed {
            changes.push(Change::NodeRenamed {
                from: (*from).clone(),
                to: (*to).clone(),
                edges: counts.get(to.as_str()).copied().unwrap_or(0),
            });
        }
        rewired = Graph::rekey_edges(
            a.edges.iter().map(|(k, e)| (follow(&k.from), follow(&k.to), e.clone())).collect(),
        );
        &rewired
    };
    keyed(a_edges, &b.edges, &mut changes, |key, c| match c {
        Keyed::Added(v) => Change::EdgeAdded { edge: key.clone(), fields: v.clone() },
        Keyed::Removed(v) => Change::EdgeRemoved { edge: key.clone(), fields: v.clone() },
        Keyed::Changed(fields) => Change::EdgeChanged { edge: key.clone(), fields },
    });

    if a.body != b.body {
        let before = a.body.clone().unwrap_or_default();
        let after = b.body.clone().unwrap_or_default();
        let (removed, added) = line_counts(&before, &after);
        changes.push(Change::Body { removed, added, before, after });
    }
    Diff { changes }
}

/// Lines removed and added between two texts.
fn line_counts(a: &str, b: &str) -> (usize, usize) {
    let patch = diffy::create_patch(a, b);
    let mut removed = 0;
    let mut added = 0;
    for h in patch.hunks() {
        for l in h.lines() {
            match l {
                diffy::Line::Delete(_) => removed += 1,
                diffy::Line::Insert(_) => added += 1,
                diffy::Line::Context(_) => {}
            }
        }
    }
    (removed, added)
}

enum Keyed<'a> {
    Added(&'a Map<String, Value>),
    Removed(&'a Map<String, Value>),
    Changed(Vec<FieldChange>),
}

fn keyed<'a, K: std::hash::Hash + Eq>(
    a: &'a IndexMap<K, Map<String, Value>>,
    b: &'a IndexMap<K, Map<String, Value>>,
    out: &mut Vec<Change>,
    make: impl Fn(&K, Keyed<'a>) -> Change,
) {
    let mut hint = 0;
    for (k, x) in a {
        match find(b, k, &mut hint) {
            Some(y) => {
                if !same_map(x, y) {
                    let mut fields = Vec::new();
                    map_changes("", x, y, &mut fields);
                    out.push(make(k, Keyed::Changed(fields)));
                }
            }
            None => out.push(make(k, Keyed::Removed(x))),
        }
    }
    let mut hint = 0;
    for (k, y) in b {
        if find(a, k, &mut hint).is_none() {
            out.push(make(k, Keyed::Added(y)));
        }
    }
}

/// `k`'s element in `m`, looked for first where the last one was found (`hint`, moved on):
/// two versions of a document keep most elements in the same order, so this is mostly a
/// comparison of keys instead of a hash lookup.
fn find<'m, K: std::hash::Hash + Eq, V>(m: &'m IndexMap<K, V>, k: &K, hint: &mut usize) -> Option<&'m V> {
    let i = match m.get_index(*hint) {
        Some((x, _)) if x == k => *hint,
        _ => m.get_index_of(k)?,
    };
    *hint = i + 1;
    m.get_index(i).map(|(_, v)| v)
}

/// Applies a diff's changes to `a`: with the diff from `a` to `b`, the result is `b` (up to
/// the order of elements, which the diff does not carry).
pub fn apply(a: &Graph, d: &Diff) -> Graph {
    let mut g = a.clone();
    // Renames first: the edge keys of the other changes use the new ids.
    let renames: HashMap<&str, &str> = d
        .changes
        .iter()
        .filter_map(|c| match c {
            Change::NodeRenamed { from, to, .. } => Some((from.as_str(), to.as_str())),
            _ => None,
        })
        .collect();
    if !renames.is_empty() {
        g.nodes = g
            .nodes
            .into_iter()
            .map(|(id, n)| (renames.get(id.as_str()).map_or(id, |t| (*t).to_owned()), n))
            .collect();
        let follow = |s: String| renames.get(s.as_str()).map_or(s, |t| (*t).to_owned());
        let edges = std::mem::take(&mut g.edges);
        g.edges =
            Graph::rekey_edges(edges.into_iter().map(|(k, e)| (follow(k.from), follow(k.to), e)).collect());
    }
    for c in &d.changes {
        match c {
            Change::Graph(f) => set_field(&mut g.fields, f),
            Change::ChannelAdded { name, channel } => {
                g.channels.insert(name.clone(), channel.clone());
            }
            Change::ChannelRemoved { name, .. } => {
                g.channels.shift_remove(name);
            }
            Change::ChannelChanged { name, fields } => {
                if let Some(m) = g.channels.get_mut(name) {
                    fields.iter().for_each(|f| set_field(m, f));
                }
            }
            Change::NodeAdded { id, node } => {
                g.nodes.insert(id.clone(), node.clone());
            }
            Change::NodeRemoved { id, .. } => {
                g.nodes.shift_remove(id);
            }
            Change::NodeRenamed { .. } => {}
            Change::NodeChanged { id, fields } => {
                if let Some(m) = g.nodes.get_mut(id) {
                    fields.iter().for_each(|f| set_field(m, f));
                }
            }
            Change::EdgeAdded { edge, fields } => {
                g.edges.insert(edge.clone(), fields.clone());
            }
            Change::EdgeRemoved { edge, .. } => {
                g.edges.shift_remove(edge);
            }
            Change::EdgeChanged { edge, fields } => {
                if let Some(m) = g.edges.get_mut(edge) {
                    fields.iter().for_each(|f| set_field(m, f));
                }
            }
            Change::Body { after, .. } => g.body = Some(after.clone()),
        }
    }
    g
}

fn set_field(m: &mut Map<String, Value>, f: &FieldChange) {
    pointer::set(m, &f.pointer, f.after.clone());
}
