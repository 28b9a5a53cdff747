//! The topology warnings against petgraph run the plain way (a graph, a depth-first walk
//! from `__start__`, every strongly connected component) on random small graphs with
//! guards, self-loops, dangling ends, twice-declared edges and repeated ids.
use super::*;
use crate::model::{END, START};
use crate::read::parse_spec;
use petgraph::visit::Dfs;
use proptest::prelude::*;

/// Unreachable node places and the first node place of each unguarded cycle.
fn by_petgraph(spec: &GraphSpec) -> (Vec<usize>, Vec<usize>) {
    let mut all: DiGraph<(), ()> = DiGraph::new();
    let mut unguarded: DiGraph<(), ()> = DiGraph::new();
    let mut index: HashMap<&str, NodeIndex> = HashMap::new();
    let mut place = Vec::new();
    for id in [START, END].into_iter().chain(spec.nodes.iter().map(|n| n.id.as_str())) {
        if !index.contains_key(id) {
            index.insert(id, all.add_node(()));
            unguarded.add_node(());
            place.push(spec.nodes.iter().position(|n| n.id == id));
        }
    }
    let mut entry = false;
    for e in &spec.edges {
        let (Some(&a), Some(&b)) = (index.get(e.from.as_str()), index.get(e.to.as_str())) else {
            continue;
        };
        if a == index[END] || b == index[START] {
            continue;
        }
        entry |= a == index[START];
        all.add_edge(a, b, ());
        if e.when.is_none() {
            unguarded.add_edge(a, b, ());
        }
    }
    let mut unreachable = Vec::new();
    if entry {
        let mut seen = std::collections::HashSet::new();
        let mut dfs = Dfs::new(&all, index[START]);
        while let Some(x) = dfs.next(&all) {
            seen.insert(x);
        }
        unreachable = (0..all.node_count())
            .filter(|&i| !seen.contains(&NodeIndex::new(i)))
            .filter_map(|i| place[i])
            .collect();
        unreachable.sort_unstable();
    }
    let mut cycles: Vec<usize> = kosaraju_scc(&unguarded)
        .into_iter()
        .filter(|c| c.len() > 1 || unguarded.contains_edge(c[0], c[0]))
        .filter_map(|c| c.iter().filter_map(|x| place[x.index()]).min())
        .collect();
    cycles.sort_unstable();
    (unreachable, cycles)
}

/// The duplicate search as it was (a map of every pair and a chain per pair): what the grouped
/// one must find.
/// `ends` are the edges' ends as graph indices ([`Walk`]): equal ids have equal indices, so a
/// pair is keyed by one `u64`; an edge with a dangling end is keyed by its ids.
fn duplicate_edges_by_pairs(spec: &GraphSpec, ends: &[Option<(u32, u32)>]) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    // First edge of each (from, to) pair, and a chain to the next edge of the same pair: no
    // allocation per pair on the common path where every pair is unique.
    let mut first: HashMap<u64, usize, Hasher> =
        HashMap::with_capacity_and_hasher(spec.edges.len(), Hasher::default());
    let mut first_dangling: HashMap<(&str, &str), usize, Hasher> = HashMap::default();
    let mut next: Vec<usize> = vec![usize::MAX; spec.edges.len()];
    for (i, e) in spec.edges.iter().enumerate() {
        let head = match ends.get(i).copied().flatten() {
            Some((a, b)) => *first.entry(u64::from(a) << 32 | u64::from(b)).or_insert(i),
            None => *first_dangling.entry((e.from.as_str(), e.to.as_str())).or_insert(i),
        };
        if head == i {
            continue;
        }
        let mut twin = None;
        let mut j = head;
        loop {
            let other = &spec.edges[j];
            if twin.is_none() && (other.when == e.when || other.when.is_none() || e.when.is_none()) {
                twin = Some(j);
            }
            if next[j] == usize::MAX {
                break;
            }
            j = next[j];
        }
        next[j] = i; // j is the pair's last edge so far
        if let Some(j) = twin {
            let why = if spec.edges[j].when == e.when {
                "the same edge is declared twice".to_owned()
            } else {
                "a static edge between the same nodes always fires, so the guard changes nothing".to_owned()
            };
            out.push(
                Diagnostic::warning(
                    codes::DUPLICATE_EDGE,
                    format!("duplicate edge \"{}\" -> \"{}\" (see edge {j}): {why}", e.from, e.to),
                )
                .at(pointer(["edges", &i.to_string()]))
                .on_edge(i, &e.from, &e.to),
            );
        }
    }
    out
}

fn places(found: &[Diagnostic], code: &str) -> Vec<usize> {
    found
        .iter()
        .filter(|d| d.code == code)
        .map(|d| d.pointer.trim_start_matches("/nodes/").parse().expect("a node pointer"))
        .collect()
}

proptest! {
    #[test]
    fn unreachable_nodes_and_endless_cycles_are_petgraphs(
        ids in proptest::collection::vec(0usize..8, 1..9),
        edges in proptest::collection::vec((0usize..11, 0usize..11, any::<bool>()), 0..24),
    ) {
        // Ends: 0 `__start__`, 1 `__end__`, 2 a node that does not exist, then n0..n7.
        let end = |k: usize| match k { 0 => START.to_owned(), 1 => END.to_owned(), 2 => "ghost".to_owned(), k => format!("n{}", k - 3) };
        let nodes: Vec<String> = ids.iter().map(|i| format!(r#"{{"id":"n{i}","type":"t"}}"#)).collect();
        let edges: Vec<String> = edges
            .iter()
            .map(|&(a, b, guarded)| {
                let when = if guarded { r#","when":{"channel":"c","eq":1}"# } else { "" };
                format!(r#"{{"from":"{}","to":"{}"{when}}}"#, end(a), end(b))
            })
            .collect();
        let text = format!(r#"{{"channels":{{"c":{{}}}},"nodes":[{}],"edges":[{}]}}"#, nodes.join(","), edges.join(","));
        let spec = parse_spec(&text).spec.expect("the document reads");
        let found = analyze(&spec);
        let (unreachable, cycles) = by_petgraph(&spec);
        prop_assert_eq!(places(&found, codes::UNREACHABLE_NODE), unreachable);
        prop_assert_eq!(places(&found, codes::ENDLESS_CYCLE), cycles);
    }
}

proptest! {
    /// The grouped duplicate search finds what the map of every pair found, with groups
    /// over [`SMALL_GROUP`] (few ends, many edges), guards that differ, and dangling ends.
    #[test]
    fn duplicate_edges_are_the_pair_maps(
        edges in proptest::collection::vec((0usize..5, 0usize..5, 0usize..3), 0..90),
    ) {
        // Ends: 0 `__start__`, 1 `__end__`, 2 a node that does not exist, then n0 and n1.
        let end = |k: usize| match k { 0 => START.to_owned(), 1 => END.to_owned(), 2 => "ghost".to_owned(), k => format!("n{}", k - 3) };
        let edges: Vec<String> = edges
            .iter()
            .map(|&(a, b, guard)| {
                let when = match guard { 0 => String::new(), g => format!(r#","when":{{"channel":"c","eq":{g}}}"#) };
                format!(r#"{{"from":"{}","to":"{}"{when}}}"#, end(a), end(b))
            })
            .collect();
        let nodes = r#"[{"id":"n0","type":"t"},{"id":"n1","type":"t"}]"#;
        let text = format!(r#"{{"channels":{{"c":{{}}}},"nodes":{nodes},"edges":[{}]}}"#, edges.join(","));
        let spec = parse_spec(&text).spec.expect("the document reads");
        let walk = Walk::of(&spec);
        prop_assert_eq!(duplicate_edges(&spec, &walk), duplicate_edges_by_pairs(&spec, &walk.ends));
    }
}

/// The three searches side by side (as the validator runs them on a large document): the
/// findings are the ones they give one after another, in that order (unreachable nodes,
/// cycles, duplicates).
#[test]
fn a_large_graph_gets_the_searches_findings_in_order() {
    let n = 4_000;
    let nodes: Vec<String> = (0..n).map(|i| format!(r#"{{"id":"n{i}","type":"t"}}"#)).collect();
    let mut edges = vec![r#"{"from":"__start__","to":"n0"}"#.to_owned()];
    for i in 1..n {
        // Every tenth node unreachable (the chain goes round it), every hundredth edge
        // twice, and every five hundredth node loops back to the one before it, unguarded.
        if i % 10 != 0 {
            edges.push(format!(r#"{{"from":"n{}","to":"n{i}"}}"#, i - 1));
        } else {
            edges.push(format!(r#"{{"from":"n{}","to":"n{}"}}"#, i - 1, i + 1));
        }
        if i % 100 == 1 {
            edges.push(format!(r#"{{"from":"n{}","to":"n{i}"}}"#, i - 1));
        }
        if i % 500 == 2 {
            edges.push(format!(r#"{{"from":"n{i}","to":"n{}"}}"#, i - 1));
        }
    }
    let text = format!(r#"{{"nodes":[{}],"edges":[{}]}}"#, nodes.join(","), edges.join(","));
    let spec = parse_spec(&text).spec.expect("the document reads");
    let walk = Walk::of(&spec);
    let mut one_by_one = unreachable_nodes(&spec, &walk);
    one_by_one.extend(endless_cycles(&spec, &walk));
    one_by_one.extend(duplicate_edges(&spec, &walk));
    let got = graph_findings(&spec, &walk, true);
    assert_eq!(got, one_by_one);
    assert_eq!(analyze_graph(&spec), one_by_one);
    let count = |code: &str| got.iter().filter(|d| d.code == code).count();
    assert_eq!(count(codes::UNREACHABLE_NODE), (1..n).filter(|i| i % 10 == 0).count());
    assert_eq!(count(codes::ENDLESS_CYCLE), n / 500);
    assert_eq!(count(codes::DUPLICATE_EDGE), n / 100);
}
