//! Connected components (edge direction ignored), largest first, each with its edges in
//! local indices: components are laid out separately and packed side by side.

pub(crate) struct Component {
    /// Global node indices, ascending.
    pub(crate) nodes: Vec<usize>,
    /// Edges in local indices (positions in `nodes`).
    pub(crate) edges: Vec<(usize, usize)>,
}

fn find(parent: &mut [usize], mut i: usize) -> usize {
    while parent[i] != i {
        parent[i] = parent[parent[i]];
        i = parent[i];
    }
    i
}

pub(crate) fn split(n: usize, edges: &[(usize, usize)]) -> Vec<Component> {
    let mut parent: Vec<usize> = (0..n).collect();
    for &(a, b) in edges {
        let (ra, rb) = (find(&mut parent, a), find(&mut parent, b));
        if ra != rb {
            parent[ra.max(rb)] = ra.min(rb);
        }
    }
    // Component number by root, in order of first node; local index of every node.
    let mut comp_of_root = vec![usize::MAX; n];
    let mut comps: Vec<Component> = Vec::new();
    let mut local = vec![0usize; n];
    for (i, slot) in local.iter_mut().enumerate() {
        let r = find(&mut parent, i);
        if comp_of_root[r] == usize::MAX {
            comp_of_root[r] = comps.len();
            comps.push(Component { nodes: Vec::new(), edges: Vec::new() });
        }
        let c = &mut comps[comp_of_root[r]];
        *slot = c.nodes.len();
        c.nodes.push(i);
    }
    for &(a, b) in edges {
        let c = comp_of_root[find(&mut parent, a)];
        comps[c].edges.push((local[a], local[b]));
    }
    // Largest first (stable: equal sizes keep document order).
    comps.sort_by_key(|c| std::cmp::Reverse(c.nodes.len()));
    comps
}
