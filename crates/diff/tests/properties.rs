//! Properties of diff and merge on generated graphs (issue 15's checks): `diff(x, x)` is
//! empty; `merge(base, x, base) == x`; `merge(base, x, x) == x`; merge is symmetric up to the
//! OURS/THEIRS choice at conflicts; applying a diff's changes to A gives B.
//!
//! Graphs are compared with the diff itself after checking it on hand-made cases below (order
//! of elements is not meaning, so `==` on the ordered maps would be too strict).

use proptest::prelude::*;
use serde_json::{json, Map, Value};
use trellis_diff::diff::apply;
use trellis_diff::{diff, merge, Graph};
use trellis_formats::detect::Format;

fn graph(v: Value) -> Graph {
    let Value::Object(root) = v else { panic!("an object") };
    Graph::from_object(Format::GraphSpec, root, None, None).expect("a graph")
}

/// A mutation of a graph, applied by [`mutate`].
#[derive(Debug, Clone)]
enum Edit {
    AddNode(u8, u8),
    RemoveNode(u8),
    SetConfig(u8, u8, i64),
    RemoveConfig(u8, u8),
    AddEdge(u8, u8, Option<i64>),
    RemoveEdge(u8),
    SetReducer(u8, u8),
    Rename(u8),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<u8>(), any::<u8>()).prop_map(|(a, b)| Edit::AddNode(a, b)),
        any::<u8>().prop_map(Edit::RemoveNode),
        (any::<u8>(), 0u8..4, -3i64..4).prop_map(|(a, b, c)| Edit::SetConfig(a, b, c)),
        (any::<u8>(), 0u8..4).prop_map(|(a, b)| Edit::RemoveConfig(a, b)),
        (any::<u8>(), any::<u8>(), proptest::option::of(0i64..3))
            .prop_map(|(a, b, c)| Edit::AddEdge(a, b, c)),
        any::<u8>().prop_map(Edit::RemoveEdge),
        (0u8..4, 0u8..3).prop_map(|(a, b)| Edit::SetReducer(a, b)),
        (0u8..3).prop_map(Edit::Rename),
    ]
}

fn pick<T>(items: &[T], i: u8) -> Option<&T> {
    (!items.is_empty()).then(|| &items[i as usize % items.len()])
}

fn mutate(g: &Graph, edits: &[Edit]) -> Graph {
    let mut g = g.clone();
    for e in edits {
        let ids: Vec<String> = g.nodes.keys().cloned().collect();
        match e {
            Edit::AddNode(a, t) => {
                let id = format!("n{a}");
                g.nodes.entry(id).or_insert_with(|| {
                    let mut m = Map::new();
                    m.insert("type".into(), json!(format!("t{}", t % 3)));
                    m.insert("config".into(), json!({"k0": *a as i64}));
                    m
                });
            }
            Edit::RemoveNode(i) => {
                if let Some(id) = pick(&ids, *i).cloned() {
                    g.nodes.shift_remove(&id);
                }
            }
            Edit::SetConfig(i, k, v) => {
                if let Some(id) = pick(&ids, *i) {
                    if let Some(Value::Object(c)) = g.nodes.get_mut(id).and_then(|n| n.get_mut("config")) {
                        c.insert(format!("k{k}"), json!(v));
                    }
                }
            }
            Edit::RemoveConfig(i, k) => {
                if let Some(id) = pick(&ids, *i) {
                    if let Some(Value::Object(c)) = g.nodes.get_mut(id).and_then(|n| n.get_mut("config")) {
                        c.shift_remove(&format!("k{k}"));
                    }
                }
            }
            Edit::AddEdge(a, b, when) => {
                let (Some(f), Some(t)) = (pick(&ids, *a).cloned(), pick(&ids, *b).cloned()) else { continue };
                let mut m = Map::new();
                if let Some(w) = when {
                    m.insert("when".into(), json!({"channel": "c0", "eq": w}));
                }
                let mut edges: Vec<_> =
                    g.edges.iter().map(|(k, e)| (k.from.clone(), k.to.clone(), e.clone())).collect();
                edges.push((f, t, m));
                g.edges = Graph::rekey_edges(edges);
            }
            Edit::RemoveEdge(i) => {
                let keys: Vec<_> = g.edges.keys().cloned().collect();
                if let Some(k) = pick(&keys, *i) {
                    let mut edges: Vec<_> = g
                        .edges
                        .iter()
                        .filter(|(x, _)| *x != k)
                        .map(|(k, e)| (k.from.clone(), k.to.clone(), e.clone()))
                        .collect();
                    edges.shrink_to_fit();
                    g.edges = Graph::rekey_edges(edges);
                }
            }
            Edit::SetReducer(c, r) => {
                let name = format!("c{c}");
                let reducer = ["last_write", "append", "merge"][*r as usize % 3];
                let mut m = Map::new();
                m.insert("reducer".into(), json!(reducer));
                g.channels.insert(name, m);
            }
            Edit::Rename(v) => {
                g.fields.insert("name".into(), json!(format!("graph {v}")));
            }
        }
    }
    g
}

fn base() -> impl Strategy<Value = Graph> {
    proptest::collection::vec(edit(), 0..25).prop_map(|edits| {
        let start = graph(
            json!({"name": "g", "channels": {"c0": {"reducer": "last_write"}}, "nodes": [], "edges": []}),
        );
        mutate(&start, &edits)
    })
}

fn same(a: &Graph, b: &Graph) -> bool {
    diff(a, b).is_empty()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn a_graph_does_not_differ_from_itself(g in base()) {
        prop_assert!(diff(&g, &g).is_empty());
    }

    #[test]
    fn merging_a_change_with_nothing_gives_the_change(
        b in base(),
        edits in proptest::collection::vec(edit(), 0..10),
    ) {
        let x = mutate(&b, &edits);
        let m = merge(&b, &x, &b);
        prop_assert!(m.conflicts.is_empty(), "{:?}", m.conflicts);
        prop_assert!(same(&m.graph, &x), "{:?}", diff(&m.graph, &x));
        let m = merge(&b, &b, &x);
        prop_assert!(m.conflicts.is_empty(), "{:?}", m.conflicts);
        prop_assert!(same(&m.graph, &x), "{:?}", diff(&m.graph, &x));
    }

    #[test]
    fn the_same_change_on_both_sides_is_taken_once(
        b in base(),
        edits in proptest::collection::vec(edit(), 0..10),
    ) {
        let x = mutate(&b, &edits);
        let m = merge(&b, &x, &x);
        prop_assert!(m.conflicts.is_empty());
        prop_assert!(same(&m.graph, &x));
    }

    #[test]
    fn merge_is_symmetric_up_to_the_side_kept_at_conflicts(
        b in base(),
        e1 in proptest::collection::vec(edit(), 0..8),
        e2 in proptest::collection::vec(edit(), 0..8),
    ) {
        let (x, y) = (mutate(&b, &e1), mutate(&b, &e2));
        let xy = merge(&b, &x, &y);
        let yx = merge(&b, &y, &x);
        let places = |m: &trellis_diff::merge::Merged| {
            let mut v: Vec<(String, String)> =
                m.conflicts.iter().map(|c| (format!("{:?}", c.element), c.pointer.clone())).collect();
            v.sort();
            v
        };
        prop_assert_eq!(places(&xy), places(&yx));
        // Swapping sides swaps the values each conflict records.
        for c in &xy.conflicts {
            let twin = yx.conflicts.iter().find(|d| d.element == c.element && d.pointer == c.pointer);
            prop_assert!(twin.is_some_and(|d| d.ours == c.theirs && d.theirs == c.ours && d.base == c.base));
        }
        if xy.conflicts.is_empty() {
            prop_assert!(same(&xy.graph, &yx.graph), "{:?}", diff(&xy.graph, &yx.graph));
        }
    }

    /// The merge driver's merge takes the merged elements out of the sides: the same merge,
    /// element for element and in the same order, and the sides whole again once restored.
    #[test]
    fn a_merge_taking_the_elements_is_the_merge_and_the_sides_come_back(
        b in base(),
        e1 in proptest::collection::vec(edit(), 0..8),
        e2 in proptest::collection::vec(edit(), 0..8),
    ) {
        let (x, y) = (mutate(&b, &e1), mutate(&b, &e2));
        let lent = merge(&b, &x, &y);
        let (mut xs, mut ys) = (x.clone(), y.clone());
        let (given, taken) = trellis_diff::merge::merge_taking(&b, &mut xs, &mut ys);
        prop_assert_eq!(&given.graph, &lent.graph);
        prop_assert!(given.graph.nodes.keys().eq(lent.graph.nodes.keys()));
        prop_assert!(given.graph.edges.keys().eq(lent.graph.edges.keys()));
        prop_assert_eq!(&given.conflicts, &lent.conflicts);
        taken.restore(&mut xs, &mut ys, &given.graph);
        prop_assert_eq!(&xs, &x);
        prop_assert_eq!(&ys, &y);
    }

    #[test]
    fn applying_a_diff_gives_the_other_graph(
        a in base(),
        edits in proptest::collection::vec(edit(), 0..12),
    ) {
        let b = mutate(&a, &edits);
        let d = diff(&a, &b);
        let applied = apply(&a, &d);
        prop_assert!(same(&applied, &b), "{:?}", diff(&applied, &b));
        // Order aside, the elements are exactly B's.
        let sorted = |g: &Graph| {
            let mut n: Vec<_> = g.nodes.iter().map(|(k, v)| (k.clone(), Value::Object(v.clone()))).collect();
            n.sort_by(|p, q| p.0.cmp(&q.0));
            let mut e: Vec<_> = g.edges.iter().map(|(k, v)| (k.clone(), Value::Object(v.clone()))).collect();
            e.sort_by(|p, q| p.0.cmp(&q.0));
            (n, e, g.fields.clone())
        };
        prop_assert_eq!(sorted(&applied), sorted(&b));
    }
}
