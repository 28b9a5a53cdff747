//! Connected components (edge direction ignored), largest first, each as a graph of its own
//! in local indices: components are laid out separately and packed side by side.

use petgraph::unionfind::UnionFind;

use crate::model::Graph;

pub(crate) struct Component {
    /// Global node indices, ascending.
    pub(crate) nodes: Vec<usize>,
    /// The component's graph: nodes, edges (valid ones only), labels, start and end in local
    /// indices.
    pub(crate) graph: Graph,
}

pub(crate) fn split(graph: &Graph) -> Vec<Component> {
    let n = graph.sizes.len();
    let mut sets = UnionFind::<usize>::new(n);
    for &(a, b) in &graph.edges {
        if a < n && b < n {
            sets.union(a, b);
        }
    }
    let roots = sets.into_labeling();
    // Component number by root, in order of first node; local index of every node.
    let mut comp_of_root = vec![usize::MAX; n];
    let mut comps: Vec<Component> = Vec::new();
    let mut local = vec![0usize; n];
    for (i, slot) in local.iter_mut().enumerate() {
        let r = roots[i];
        if comp_of_root[r] == usize::MAX {
            comp_of_root[r] = comps.len();
            comps.push(Component { nodes: Vec::new(), graph: Graph::default() });
        }
        let c = &mut comps[comp_of_root[r]];
        *slot = c.nodes.len();
        c.nodes.push(i);
        c.graph.sizes.push(graph.sizes[i]);
    }
    for (e, &(a, b)) in graph.edges.iter().enumerate() {
        if a >= n || b >= n {
            continue;
        }
        let g = &mut comps[comp_of_root[roots[a]]].graph;
        g.edges.push((local[a], local[b]));
        g.labels.push(graph.label(e));
    }
    for (pin, global) in [(0, graph.first), (1, graph.last)] {
        let Some(v) = global.filter(|&v| v < n) else { continue };
        let g = &mut comps[comp_of_root[roots[v]]].graph;
        if pin == 0 {
            g.first = Some(local[v]);
        } else {
            g.last = Some(local[v]);
        }
    }
    // Largest first (stable: equal sizes keep document order).
    comps.sort_by_key(|c| std::cmp::Reverse(c.nodes.len()));
    comps
}
