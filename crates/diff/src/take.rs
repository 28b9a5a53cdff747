//! Changing one element of a graph to what another version has: the compare view's "revert" /
//! "take theirs" of one change, and the conflict report's picks (one value at an element's
//! pointer). Pure: graphs in, graph out; the app writes the result as one undoable edit.

use serde_json::{Map, Value};

use crate::conflict::Element;
use crate::diff::Change;
use crate::graph::{EdgeKey, Graph};
use crate::pointer;

/// A stable name of a change, the same across recomputations of the diff while the element
/// exists: what the app sends back to act on one change.
pub fn change_key(c: &Change) -> String {
    let parts: Vec<String> = match c {
        Change::Graph(f) => vec!["graph".into(), f.pointer.clone()],
        Change::ChannelAdded { name, .. }
        | Change::ChannelRemoved { name, .. }
        | Change::ChannelChanged { name, .. } => vec!["channel".into(), name.clone()],
        Change::NodeAdded { id, .. } | Change::NodeRemoved { id, .. } | Change::NodeChanged { id, .. } => {
            vec!["node".into(), id.clone()]
        }
        Change::NodeRenamed { to, .. } => vec!["node".into(), to.clone()],
        Change::EdgeAdded { edge, .. }
        | Change::EdgeRemoved { edge, .. }
        | Change::EdgeChanged { edge, .. } => {
            vec!["edge".into(), edge.from.clone(), edge.to.clone(), edge.nth.to_string()]
        }
        Change::Body { .. } => vec!["body".into()],
    };
    serde_json::to_string(&parts).unwrap_or_default()
}

/// `current` with the element of change `c` made as it is in `other`, where `c` is a change of
/// the diff from `other` to `current` (so "revert this change" when `other` is older).
///
/// A node that `other` has and `current` lacks comes back with the edges `other` gives it to
/// nodes that exist now; a node only `current` has goes with its edges (as deleting it on the
/// canvas does).
pub fn take_other(current: &Graph, other: &Graph, c: &Change) -> Graph {
    let mut g = current.clone();
    match c {
        Change::Graph(f) => pointer::set(&mut g.fields, &f.pointer, f.before.clone()),
        Change::ChannelAdded { name, .. } => {
            g.channels.shift_remove(name);
        }
        Change::ChannelRemoved { name, channel } => {
            let at = anchor(other.channels.keys(), name, |k| g.channels.get_index_of(k));
            insert_at(&mut g.channels, at, name.clone(), channel.clone());
        }
        Change::ChannelChanged { name, .. } => {
            if let Some(ch) = other.channels.get(name) {
                g.channels.insert(name.clone(), ch.clone());
            }
        }
        Change::NodeAdded { id, .. } => {
            g.nodes.shift_remove(id);
            let kept: Vec<_> = g
                .edges
                .iter()
                .filter(|(k, _)| k.from != *id && k.to != *id)
                .map(|(k, e)| (k.from.clone(), k.to.clone(), e.clone()))
                .collect();
            g.edges = Graph::rekey_edges(kept);
        }
        Change::NodeRemoved { id, node } => {
            let at = anchor(other.nodes.keys(), id, |k| g.nodes.get_index_of(k));
            insert_at(&mut g.nodes, at, id.clone(), node.clone());
            let mut edges: Vec<_> =
                g.edges.iter().map(|(k, e)| (k.from.clone(), k.to.clone(), e.clone())).collect();
            for (k, e) in &other.edges {
                let touches = k.from == *id || k.to == *id;
                let ends_exist =
                    [&k.from, &k.to].iter().all(|end| g.nodes.contains_key(*end) || is_terminal(end));
                if touches && ends_exist && !g.edges.contains_key(k) {
                    edges.push((k.from.clone(), k.to.clone(), e.clone()));
                }
            }
            g.edges = Graph::rekey_edges(edges);
            if let Some(p) = position_in(other, id) {
                set_position(&mut g, id, Some(p));
            }
        }
        Change::NodeRenamed { from, to, .. } => {
            g.nodes =
                g.nodes.into_iter().map(|(k, n)| (if k == *to { from.clone() } else { k }, n)).collect();
            let follow = |s: &String| if s == to { from.clone() } else { s.clone() };
            let edges = g.edges.iter().map(|(k, e)| (follow(&k.from), follow(&k.to), e.clone())).collect();
            g.edges = Graph::rekey_edges(edges);
            let p = position_in(&g, to);
            set_position(&mut g, to, None);
            if let Some(p) = p {
                set_position(&mut g, from, Some(p));
            }
        }
        Change::NodeChanged { id, .. } => {
            if let Some(n) = other.nodes.get(id) {
                g.nodes.insert(id.clone(), n.clone());
            }
        }
        Change::EdgeAdded { edge, .. } => {
            let edges = g
                .edges
                .iter()
                .filter(|(k, _)| *k != edge)
                .map(|(k, e)| (k.from.clone(), k.to.clone(), e.clone()))
                .collect();
            g.edges = Graph::rekey_edges(edges);
        }
        Change::EdgeRemoved { edge, fields } => {
            let mut edges: Vec<_> =
                g.edges.iter().map(|(k, e)| (k.from.clone(), k.to.clone(), e.clone())).collect();
            edges.push((edge.from.clone(), edge.to.clone(), fields.clone()));
            g.edges = Graph::rekey_edges(edges);
        }
        Change::EdgeChanged { edge, .. } => {
            let renamed_back = other.edges.get(edge).cloned();
            if let (Some(e), Some(slot)) = (renamed_back, g.edges.get_mut(edge)) {
                *slot = e;
            }
        }
        Change::Body { before, .. } => g.body = Some(before.clone()),
    }
    g
}

/// `__start__` and `__end__`: ends an edge may have without a node.
fn is_terminal(id: &str) -> bool {
    id == trellis_spec::START || id == trellis_spec::END
}

/// Where to put an element that `other` has: after the nearest element before it in `other`
/// that the graph has (`index_of`), else first.
fn anchor<'a>(
    order: impl Iterator<Item = &'a String>,
    key: &str,
    index_of: impl Fn(&str) -> Option<usize>,
) -> usize {
    let mut at = 0;
    for k in order {
        if k == key {
            break;
        }
        if let Some(i) = index_of(k) {
            at = i + 1;
        }
    }
    at
}

fn insert_at(
    m: &mut indexmap::IndexMap<String, Map<String, Value>>,
    at: usize,
    key: String,
    value: Map<String, Value>,
) {
    let (i, _) = m.insert_full(key, value);
    let at = at.min(m.len() - 1);
    if i != at {
        m.move_index(i, at);
    }
}

/// A node's position in a graph's in-document layout (Weaveflow `metadata.web.positions`).
fn position_in(g: &Graph, id: &str) -> Option<Value> {
    g.layout.as_ref()?.get("positions")?.get(id).cloned()
}

/// Sets or removes a position in the in-document layout, when the graph has one.
fn set_position(g: &mut Graph, id: &str, p: Option<Value>) {
    let Some(Value::Object(layout)) = g.layout.as_mut() else { return };
    let positions = layout.entry("positions").or_insert_with(|| Value::Object(Map::new()));
    if let Value::Object(m) = positions {
        match p {
            Some(p) => {
                m.insert(id.to_owned(), p);
            }
            None => {
                m.shift_remove(id);
            }
        }
    }
}

/// The value at `pointer` inside `element` (`""`: the whole element), `None` where there is
/// none.
pub fn value_at(g: &Graph, element: &Element, ptr: &str) -> Option<Value> {
    let whole: Value = match element {
        Element::Graph => Value::Object(g.fields.clone()),
        Element::Channel { name } => Value::Object(g.channels.get(name)?.clone()),
        Element::Node { id } => Value::Object(g.nodes.get(id)?.clone()),
        Element::Edge { from, to, nth } => {
            Value::Object(g.edges.get(&EdgeKey { from: from.clone(), to: to.clone(), nth: *nth })?.clone())
        }
        Element::Body => return g.body.clone().map(Value::String),
    };
    let mut cur = &whole;
    for seg in pointer::segments(ptr) {
        cur = cur.as_object()?.get(&seg)?;
    }
    Some(cur.clone())
}

/// Why a value cannot be set where a conflict points.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetError(pub String);

impl std::fmt::Display for SetError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SetError {}

/// `g` with the value at `pointer` inside `element` set (`Some`) or removed (`None`). A whole
/// element (`""`) must be an object (or `None`: the element goes). The body is set whole.
pub fn set_at(g: &Graph, element: &Element, ptr: &str, value: Option<Value>) -> Result<Graph, SetError> {
    let mut g = g.clone();
    let object = |v: Option<Value>| -> Result<Option<Map<String, Value>>, SetError> {
        match v {
            None => Ok(None),
            Some(Value::Object(m)) => Ok(Some(m)),
            Some(other) => Err(SetError(format!("a whole element must be a JSON object, not {other}"))),
        }
    };
    match element {
        Element::Graph => {
            if ptr.is_empty() {
                return Err(SetError("the graph's fields are set one at a time".into()));
            }
            pointer::set(&mut g.fields, ptr, value);
        }
        Element::Channel { name } => edit_keyed(&mut g.channels, name.clone(), ptr, value, object)?,
        Element::Node { id } => edit_keyed(&mut g.nodes, id.clone(), ptr, value, object)?,
        Element::Edge { from, to, nth } => {
            let key = EdgeKey { from: from.clone(), to: to.clone(), nth: *nth };
            edit_keyed(&mut g.edges, key, ptr, value, object)?;
            let edges = g.edges.iter().map(|(k, e)| (k.from.clone(), k.to.clone(), e.clone())).collect();
            g.edges = Graph::rekey_edges(edges);
        }
        Element::Body => match value {
            Some(Value::String(s)) => g.body = Some(s),
            None => g.body = Some(String::new()),
            Some(other) => return Err(SetError(format!("the body is text, not {other}"))),
        },
    }
    Ok(g)
}

fn edit_keyed<K: std::hash::Hash + Eq>(
    m: &mut indexmap::IndexMap<K, Map<String, Value>>,
    key: K,
    ptr: &str,
    value: Option<Value>,
    object: impl Fn(Option<Value>) -> Result<Option<Map<String, Value>>, SetError>,
) -> Result<(), SetError> {
    if ptr.is_empty() {
        match object(value)? {
            Some(v) => {
                m.insert(key, v);
            }
            None => {
                m.shift_remove(&key);
            }
        }
        return Ok(());
    }
    match m.get_mut(&key) {
        Some(el) => pointer::set(el, ptr, value),
        None if value.is_none() => {}
        None => {
            let mut el = Map::new();
            pointer::set(&mut el, ptr, value);
            m.insert(key, el);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::diff;
    use crate::document::read;

    const A: &str = r#"{"name": "g", "channels": {"intent": {"reducer": "last_write"}},
        "nodes": [{"id": "a", "type": "noop", "config": {"x": 1}}, {"id": "b", "type": "noop", "config": {}}],
        "edges": [{"from": "__start__", "to": "a"}, {"from": "a", "to": "b"}, {"from": "b", "to": "__end__"}]}"#;
    const B: &str = r#"{"name": "h", "channels": {"intent": {"reducer": "append"}},
        "nodes": [{"id": "a", "type": "noop", "config": {"x": 2}}, {"id": "c", "type": "noop", "config": {"y": 1}}],
        "edges": [{"from": "__start__", "to": "a"}, {"from": "a", "to": "c", "when": {"channel": "intent", "eq": "x"}},
                  {"from": "c", "to": "__end__"}]}"#;

    fn graph(t: &str) -> Graph {
        read(Some("g.json"), t.as_bytes(), None).expect("reads").graph
    }

    #[test]
    fn taking_every_change_from_the_other_side_gives_the_other_side() {
        let (a, b) = (graph(A), graph(B));
        let d = diff(&a, &b);
        assert!(d.changes.len() >= 5, "{d:?}");
        let mut g = b.clone();
        // One change at a time, the diff recomputed in between, as the app does.
        for _ in 0..20 {
            let now = diff(&a, &g);
            let Some(c) = now.changes.first() else { break };
            g = take_other(&g, &a, c);
        }
        assert!(diff(&a, &g).is_empty(), "{:?}", diff(&a, &g));
    }

    #[test]
    fn a_node_brought_back_brings_its_edges_to_existing_nodes() {
        let (a, b) = (graph(A), graph(B));
        let d = diff(&a, &b);
        let removed = d.changes.iter().find(|c| matches!(c, Change::NodeRemoved { id, .. } if id == "b"));
        let g = take_other(&b, &a, removed.expect("b removed"));
        assert!(g.nodes.contains_key("b"));
        assert!(g.edges.keys().any(|k| k.from == "a" && k.to == "b"));
        assert!(g.edges.keys().any(|k| k.from == "b" && k.to == "__end__"));
        assert_eq!(g.nodes.get_index_of("b"), Some(1), "placed where it was");
        assert_eq!(change_key(removed.expect("b")), r#"["node","b"]"#);
    }

    #[test]
    fn values_are_set_and_read_at_pointers() {
        let b = graph(B);
        let node = Element::Node { id: "a".into() };
        let g = set_at(&b, &node, "/config/x", Some(Value::from(7))).expect("sets");
        assert_eq!(value_at(&g, &node, "/config/x"), Some(Value::from(7)));
        let g = set_at(&g, &node, "", None).expect("removes");
        assert!(!g.nodes.contains_key("a"));
        assert!(set_at(&g, &node, "", Some(Value::from(1))).is_err());
        let edge = Element::Edge { from: "a".into(), to: "c".into(), nth: 0 };
        assert!(value_at(&b, &edge, "/when").is_some());
    }
}
