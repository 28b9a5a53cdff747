//! What the canvas draws when groups are collapsed: each collapsed group (the outermost one,
//! when collapsed groups nest) is one box; its members are hidden; the edges between a box
//! and the rest are drawn once per outside neighbour and direction, with how many edges each
//! stands for. Worked out here, once, so both drawing modes of the UI draw the same thing.

use std::collections::HashMap;

use indexmap::IndexMap;
use serde::Serialize;
use trellis_spec::GraphSpec;
use ts_rs::TS;

use crate::layout::Layout;

/// One end of a drawn edge: a node, or a collapsed group's box.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, TS)]
#[ts(export)]
pub struct End {
    pub id: String,
    /// `id` names a group (its box), not a node.
    pub group: bool,
}

/// An edge drawn for several: all edges from `from` to `to` once a box stands for an end.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct GroupEdge {
    pub from: End,
    pub to: End,
    /// The indices (in the canvas's edge list) of the edges it stands for.
    pub edges: Vec<usize>,
}

/// The collapsed groups' part of the view. Empty when no group is collapsed.
#[derive(Debug, Clone, Default, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct CollapsedView {
    /// The boxes drawn: collapsed groups not inside another collapsed group, with the number
    /// of nodes and notes each hides.
    pub boxes: IndexMap<String, usize>,
    /// Hidden node -> the box that stands for it.
    pub nodes: IndexMap<String, String>,
    /// Hidden note -> its box.
    pub notes: IndexMap<String, String>,
    /// Groups inside a box (their frames are not drawn).
    pub groups: Vec<String>,
    /// Edges not drawn as themselves (an end is hidden), by index.
    pub hidden_edges: Vec<usize>,
    /// What is drawn instead (edges inside one box are not drawn at all).
    pub edges: Vec<GroupEdge>,
}

impl CollapsedView {
    /// The view of `layout`'s groups over `spec` (the canvas's graph).
    pub fn of(spec: &GraphSpec, layout: &Layout) -> CollapsedView {
        let mut out = CollapsedView::default();
        if !layout.groups.iter().any(|g| g.collapsed) {
            return out;
        }
        let annotations = layout.annotations();
        // The box of each group: the outermost collapsed group of its chain (itself included).
        let box_of: HashMap<&str, &str> = layout
            .groups
            .iter()
            .filter_map(|g| {
                let chain = annotations.chain(&g.id);
                let outer =
                    chain.iter().rev().find(|id| annotations.group(id).is_some_and(|x| x.collapsed))?;
                layout.groups.iter().find(|x| x.id == *outer).map(|x| (g.id.as_str(), x.id.as_str()))
            })
            .collect();
        for g in &layout.groups {
            let Some(b) = box_of.get(g.id.as_str()) else { continue };
            if *b == g.id {
                out.boxes.entry(g.id.clone()).or_insert(0);
            } else {
                out.groups.push(g.id.clone());
            }
        }
        for g in &layout.groups {
            let Some(b) = box_of.get(g.id.as_str()) else { continue };
            for n in &g.nodes {
                out.nodes.insert(n.clone(), (*b).to_owned());
            }
            for n in &g.notes {
                out.notes.insert(n.clone(), (*b).to_owned());
            }
            if let Some(count) = out.boxes.get_mut(*b) {
                *count += g.nodes.len() + g.notes.len();
            }
        }
        let end = |id: &str| match out.nodes.get(id) {
            Some(b) => End { id: b.clone(), group: true },
            None => End { id: id.to_owned(), group: false },
        };
        let mut drawn: IndexMap<(End, End), Vec<usize>> = IndexMap::new();
        let mut hidden = Vec::new();
        for (i, e) in spec.edges.iter().enumerate() {
            let (from, to) = (end(&e.from), end(&e.to));
            if !from.group && !to.group {
                continue;
            }
            hidden.push(i);
            if from != to {
                drawn.entry((from, to)).or_default().push(i);
            }
        }
        out.hidden_edges = hidden;
        out.edges = drawn.into_iter().map(|((from, to), edges)| GroupEdge { from, to, edges }).collect();
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::annotations::Group;
    use serde_json::json;

    fn group(id: &str, nodes: &[&str], parent: Option<&str>, collapsed: bool) -> Group {
        Group {
            id: id.into(),
            name: id.into(),
            color: "blue".into(),
            nodes: nodes.iter().map(|s| (*s).to_owned()).collect(),
            notes: Vec::new(),
            parent: parent.map(str::to_owned),
            collapsed,
            extra: Default::default(),
        }
    }

    fn spec(edges: &[(&str, &str)]) -> GraphSpec {
        let nodes: Vec<_> = ["a", "b", "c", "d", "x", "y"]
            .iter()
            .map(|id| json!({"id": id, "type": "noop", "config": {}}))
            .collect();
        let edges: Vec<_> = edges.iter().map(|(f, t)| json!({"from": f, "to": t})).collect();
        serde_json::from_value(json!({"channels": {}, "nodes": nodes, "edges": edges})).expect("spec")
    }

    #[test]
    fn nothing_collapsed_draws_everything() {
        let mut layout = Layout::default();
        layout.groups.push(group("g", &["a", "b"], None, false));
        assert_eq!(CollapsedView::of(&spec(&[("a", "x")]), &layout), CollapsedView::default());
    }

    #[test]
    fn edges_are_drawn_once_per_outside_neighbour_and_direction() {
        let s = spec(&[
            ("x", "a"), // 0: into the box
            ("x", "b"), // 1: the same neighbour into the box: counted with 0
            ("a", "b"), // 2: inside: not drawn
            ("b", "y"), // 3: out to y
            ("c", "y"), // 4: out to y, counted with 3
            ("y", "c"), // 5: the other direction: its own edge
            ("x", "y"), // 6: outside: drawn as itself
            ("__start__", "a"),
        ]);
        let mut layout = Layout::default();
        layout.groups.push(group("g", &["a", "b", "c"], None, true));
        let v = CollapsedView::of(&s, &layout);
        assert_eq!(v.boxes.get("g"), Some(&3));
        assert_eq!(v.nodes.len(), 3);
        assert_eq!(v.hidden_edges, vec![0, 1, 2, 3, 4, 5, 7]);
        let drawn: Vec<(String, String, Vec<usize>)> =
            v.edges.iter().map(|e| (e.from.id.clone(), e.to.id.clone(), e.edges.clone())).collect();
        assert_eq!(
            drawn,
            vec![
                ("x".into(), "g".into(), vec![0, 1]),
                ("g".into(), "y".into(), vec![3, 4]),
                ("y".into(), "g".into(), vec![5]),
                ("__start__".into(), "g".into(), vec![7]),
            ]
        );
        assert!(v.edges[0].to.group && !v.edges[0].from.group);
    }

    #[test]
    fn nested_collapsed_groups_show_the_outermost_box_and_boxes_connect() {
        let s = spec(&[("a", "c"), ("c", "x"), ("a", "x"), ("x", "d"), ("c", "d")]);
        let mut layout = Layout::default();
        layout.groups.push(group("outer", &["a"], None, true));
        layout.groups.push(group("inner", &["c"], Some("outer"), true));
        layout.groups.push(group("other", &["d"], None, true));
        let v = CollapsedView::of(&s, &layout);
        assert_eq!(v.boxes.keys().collect::<Vec<_>>(), ["outer", "other"]);
        assert_eq!(v.boxes["outer"], 2);
        assert_eq!(v.groups, vec!["inner".to_owned()]);
        assert_eq!(v.nodes["c"], "outer");
        let drawn: Vec<(&str, &str, usize)> =
            v.edges.iter().map(|e| (e.from.id.as_str(), e.to.id.as_str(), e.edges.len())).collect();
        // a->c is inside one box; c->x and a->x are one edge of two; x->d; c->d box to box.
        assert_eq!(drawn, vec![("outer", "x", 2), ("x", "other", 1), ("outer", "other", 1)]);
    }

    #[test]
    fn an_expanded_outer_group_shows_its_collapsed_inner_box() {
        let s = spec(&[("a", "c")]);
        let mut layout = Layout::default();
        layout.groups.push(group("outer", &["a"], None, false));
        layout.groups.push(group("inner", &["c"], Some("outer"), true));
        let v = CollapsedView::of(&s, &layout);
        assert_eq!(v.boxes.keys().collect::<Vec<_>>(), ["inner"]);
        assert!(!v.nodes.contains_key("a"));
        assert_eq!(v.edges.len(), 1);
        assert_eq!((v.edges[0].from.group, v.edges[0].to.group), (false, true));
    }
}
