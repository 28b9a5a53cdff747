//! What a GraphSpec read from the pane's text changes in the document, as the same small
//! reversible prims an edit is planned as: the name, the channels, one prim per node or edge
//! that changed (so the canvas gets the list edits of those, not a redraw), and the positions
//! of nodes renamed, added or removed by typing.

use trellis_spec::{EdgeSpec, GraphSpec, NodeSpec};

use crate::edit::Position;
use crate::history::Prim;
use crate::layout::Layout;

/// The prims that turn `before` into `after` (and, undone, back).
pub(crate) fn between(before: &GraphSpec, after: &GraphSpec, layout: &Layout) -> Vec<Prim> {
    let mut prims = Vec::new();
    if before.name != after.name {
        prims.push(Prim::Name { before: before.name.clone(), after: after.name.clone() });
    }
    // In order too: a channel moved is a change of the text.
    if !before.channels.iter().eq(after.channels.iter()) {
        prims.push(Prim::Channels { before: before.channels.clone(), after: after.channels.clone() });
    }
    prims.extend(list_prims(&before.nodes, &after.nodes, same_node, &mut |index, b, a| Prim::Node {
        index,
        before: b,
        after: a,
    }));
    prims.extend(list_prims(&before.edges, &after.edges, same_edge, &mut |index, b, a| Prim::Edge {
        index,
        before: b,
        after: a,
    }));
    prims.extend(positions(before, after, layout));
    prims
}

/// Equal and written the same: a config whose keys were only reordered is a change (`==`
/// compares maps as sets). Configs read from the same characters are the same (the usual
/// case, every node the typing did not touch), without building them.
fn same_node(a: &NodeSpec, b: &NodeSpec) -> bool {
    a.id == b.id
        && a.type_name == b.type_name
        && match (a.config.raw_text(), b.config.raw_text()) {
            (Some(x), Some(y)) if x == y => true,
            _ => {
                a.config == b.config
                    && serde_json::to_string(&a.config).ok() == serde_json::to_string(&b.config).ok()
            }
        }
}

fn same_edge(a: &EdgeSpec, b: &EdgeSpec) -> bool {
    a == b && (a.when.is_none() || serde_json::to_string(&a.when).ok() == serde_json::to_string(&b.when).ok())
}

/// The prims of one list: its common prefix and suffix stay; between them, elements at the
/// same place are replaced one by one when both sides have as many, and removed then inserted
/// otherwise.
fn list_prims<T: Clone>(
    before: &[T],
    after: &[T],
    same: fn(&T, &T) -> bool,
    prim: &mut dyn FnMut(usize, Option<T>, Option<T>) -> Prim,
) -> Vec<Prim> {
    let prefix = before.iter().zip(after).take_while(|(a, b)| same(a, b)).count();
    let room = before.len().min(after.len()) - prefix;
    let suffix =
        before.iter().rev().zip(after.iter().rev()).take(room).take_while(|(a, b)| same(a, b)).count();
    let old = &before[prefix..before.len() - suffix];
    let new = &after[prefix..after.len() - suffix];
    let mut out = Vec::new();
    if old.len() == new.len() {
        for (i, (o, n)) in old.iter().zip(new).enumerate() {
            if !same(o, n) {
                out.push(prim(prefix + i, Some(o.clone()), Some(n.clone())));
            }
        }
        return out;
    }
    for o in old {
        out.push(prim(prefix, Some(o.clone()), None));
    }
    for (i, n) in new.iter().enumerate() {
        out.push(prim(prefix + i, None, Some(n.clone())));
    }
    out
}

/// Horizontal and vertical room given a node placed next to another.
const STEP_X: f64 = 260.0;
const STEP_Y: f64 = 110.0;

/// The positions that follow the nodes: a node renamed in place keeps its position under its
/// new id, a node typed in gets one beside the node it is connected from (or below the one
/// before it), a node removed takes its position along.
fn positions(before: &GraphSpec, after: &GraphSpec, layout: &Layout) -> Vec<Prim> {
    use std::collections::{HashMap, HashSet};
    let old_ids: HashSet<&str> = before.nodes.iter().map(|n| n.id.as_str()).collect();
    let new_ids: HashSet<&str> = after.nodes.iter().map(|n| n.id.as_str()).collect();
    if old_ids.len() == new_ids.len() && old_ids.iter().all(|id| new_ids.contains(id)) {
        return Vec::new();
    }
    let mut placed: HashMap<String, Position> =
        layout.positions.iter().map(|(id, p)| (id.clone(), *p)).collect();
    let mut prims = Vec::new();
    let mut renamed: HashSet<&str> = HashSet::new();
    // Renamed in place: at the same index, the old id gone and the new one new.
    for (i, n) in after.nodes.iter().enumerate() {
        let id = n.id.as_str();
        if old_ids.contains(id) || placed.contains_key(id) {
            continue;
        }
        let Some(old) = before.nodes.get(i).map(|o| o.id.as_str()) else { continue };
        if new_ids.contains(old) || renamed.contains(old) {
            continue;
        }
        if let Some(p) = placed.get(old).copied() {
            renamed.insert(old);
            prims.push(Prim::Position { id: old.to_owned(), before: Some(p), after: None });
            prims.push(Prim::Position { id: id.to_owned(), before: None, after: Some(p) });
            placed.remove(old);
            placed.insert(id.to_owned(), p);
        }
    }
    // Typed in: beside a placed node it is connected from, or below the node before it.
    for (i, n) in after.nodes.iter().enumerate() {
        let id = n.id.as_str();
        if placed.contains_key(id) {
            continue;
        }
        let from = after
            .edges
            .iter()
            .filter(|e| e.to.as_str() == id)
            .find_map(|e| placed.get(e.from.as_str()))
            .map(|p| Position { x: p.x + STEP_X, y: p.y });
        let below = after.nodes[..i]
            .iter()
            .rev()
            .find_map(|o| placed.get(o.id.as_str()))
            .map(|p| Position { x: p.x, y: p.y + STEP_Y });
        let p = from.or(below).unwrap_or(Position { x: 0.0, y: 0.0 });
        prims.push(Prim::Position { id: id.to_owned(), before: None, after: Some(p) });
        placed.insert(id.to_owned(), p);
    }
    // Removed: their positions go (a node of that id typed back later is placed anew).
    for id in old_ids.iter().filter(|id| !new_ids.contains(*id) && !renamed.contains(*id)) {
        if let Some(p) = layout.positions.get(*id) {
            prims.push(Prim::Position { id: (*id).to_owned(), before: Some(*p), after: None });
        }
    }
    prims
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::history::apply_all;

    fn spec(text: &str) -> GraphSpec {
        trellis_spec::parse_spec(text).spec.expect("reads")
    }

    fn run(before: &str, after: &str, layout: &mut Layout) -> (GraphSpec, Vec<Prim>) {
        let (mut s, a) = (spec(before), spec(after));
        let prims = between(&s, &a, layout);
        apply_all(&prims, &mut s, layout);
        assert!(s.identical(&a), "the prims give the spec read");
        (s, prims)
    }

    const BASE: &str = r#"{"name": "g", "channels": {"a": {"reducer": "append"}},
        "nodes": [{"id": "x", "type": "noop", "config": {"k": 1, "j": 2}}, {"id": "y", "type": "noop", "config": {}}],
        "edges": [{"from": "__start__", "to": "x"}, {"from": "x", "to": "y"}]}"#;

    #[test]
    fn one_config_value_is_one_node_prim() {
        let mut layout = Layout::default();
        let (_, prims) = run(BASE, &BASE.replace("\"k\": 1", "\"k\": 5"), &mut layout);
        assert!(
            matches!(prims.as_slice(), [Prim::Node { index: 0, before: Some(_), after: Some(_) }]),
            "{prims:?}"
        );
    }

    #[test]
    fn reordered_keys_are_a_change() {
        let mut layout = Layout::default();
        let (_, prims) = run(BASE, &BASE.replace("\"k\": 1, \"j\": 2", "\"j\": 2, \"k\": 1"), &mut layout);
        assert_eq!(prims.len(), 1, "{prims:?}");
    }

    #[test]
    fn a_rename_keeps_the_position_and_a_new_node_is_placed_beside_its_source() {
        let mut layout = Layout::default();
        layout.positions.insert("x".into(), Position { x: 10.0, y: 20.0 });
        layout.positions.insert("y".into(), Position { x: 300.0, y: 20.0 });
        let renamed =
            BASE.replace("\"id\": \"x\"", "\"id\": \"first\"").replace("\"to\": \"x\"", "\"to\": \"first\"");
        run(BASE, &renamed, &mut layout);
        assert_eq!(layout.positions.get("first"), Some(&Position { x: 10.0, y: 20.0 }));
        assert!(!layout.positions.contains_key("x"));
        let added = renamed.replace("\"edges\": [", "\"edges\": [{\"from\": \"y\", \"to\": \"z\"}, ");
        let added = added.replace(
            "\"config\": {}}]",
            "\"config\": {}}, {\"id\": \"z\", \"type\": \"noop\", \"config\": {}}]",
        );
        run(&renamed, &added, &mut layout);
        assert_eq!(layout.positions.get("z"), Some(&Position { x: 560.0, y: 20.0 }));
        run(&added, &renamed, &mut layout);
        assert!(!layout.positions.contains_key("z"), "a node removed by typing takes its position along");
    }

    #[test]
    fn nodes_inserted_and_removed_in_the_middle() {
        let mut layout = Layout::default();
        let three = BASE
            .replace("{\"id\": \"y\"", "{\"id\": \"m\", \"type\": \"noop\", \"config\": {}}, {\"id\": \"y\"");
        run(BASE, &three, &mut layout);
        run(&three, BASE, &mut layout);
        run(BASE, r#"{"name": null, "channels": {}, "nodes": [], "edges": []}"#, &mut layout);
    }
}
