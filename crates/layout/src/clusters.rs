//! Layout with clusters (the canvas's groups): the members of a cluster are laid out together,
//! inside a box, and the box is laid out with the rest as one node of its size. Clusters nest:
//! a cluster's box holds its own nodes and its child clusters' boxes. So members always end up
//! in one rectangle that holds nothing else, their frame drawn around them.

use crate::{layout_with, Cancelled, Graph, Options, Point, Progress, Size};

/// Which cluster each node is directly in, and which cluster each cluster is in.
#[derive(Debug, Clone, Default)]
pub struct Clusters {
    /// Per node: its cluster (an index into `parent`), or none.
    pub of: Vec<Option<usize>>,
    /// Per cluster: the cluster it is nested in, or none (a cycle is treated as none).
    pub parent: Vec<Option<usize>>,
}

/// Room around a cluster's members inside its box: each side, and a title bar on top.
#[derive(Debug, Clone, Copy)]
pub struct Frame {
    pub pad: f64,
    pub title: f64,
}

impl Default for Frame {
    fn default() -> Self {
        // The canvas's frame (ui/src/annotations/frames.ts: PAD, TITLE), plus a little air.
        Frame { pad: 30.0, title: 28.0 }
    }
}

/// An item at one level: a node, or a child cluster's box.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Item {
    Node(usize),
    Cluster(usize),
}

/// Lays the graph out keeping each cluster's members together (see the module comment).
/// Without clusters it is [`layout_with`]. `progress` is reported for the top level.
pub fn layout_clustered(
    graph: &Graph,
    clusters: &Clusters,
    options: &Options,
    frame: Frame,
    progress: &mut Progress<'_>,
) -> Result<Vec<Point>, Cancelled> {
    let n = graph.sizes.len();
    if clusters.of.iter().take(n).all(Option::is_none) {
        return layout_with(graph, options, progress);
    }
    let k = clusters.parent.len();
    // A parent chain that loops or leaves the range is cut: that cluster is top-level.
    let parent: Vec<Option<usize>> = (0..k)
        .map(|c| {
            let p = clusters.parent[c].filter(|&p| p < k)?;
            let mut at = Some(p);
            let mut steps = 0;
            while let Some(x) = at {
                if x == c || steps > k {
                    return None;
                }
                steps += 1;
                at = clusters.parent[x].filter(|&p| p < k);
            }
            Some(p)
        })
        .collect();
    let of: Vec<Option<usize>> =
        (0..n).map(|i| clusters.of.get(i).copied().flatten().filter(|&c| c < k)).collect();
    let mut out = vec![Point::default(); n];
    let mut ctx = Ctx { graph, parent: &parent, of: &of, options, frame, out: &mut out };
    ctx.level(None, progress)?;
    for p in &mut out {
        (p.x, p.y) = (p.x.round(), p.y.round());
    }
    Ok(out)
}

struct Ctx<'a> {
    graph: &'a Graph,
    parent: &'a [Option<usize>],
    of: &'a [Option<usize>],
    options: &'a Options,
    frame: Frame,
    out: &'a mut Vec<Point>,
}

impl Ctx<'_> {
    /// The item node `i` is at the level of cluster `at` (`None`: the top), if it is under it.
    fn item(&self, i: usize, at: Option<usize>) -> Option<Item> {
        let mut c = self.of[i];
        if c == at {
            return Some(Item::Node(i));
        }
        while let Some(x) = c {
            if self.parent[x] == at {
                return Some(Item::Cluster(x));
            }
            c = self.parent[x];
        }
        None
    }

    /// Lays out the level of cluster `at`: writes its descendants' positions relative to the
    /// level's origin and answers the size of the box they fill.
    fn level(&mut self, at: Option<usize>, progress: &mut Progress<'_>) -> Result<Size, Cancelled> {
        let n = self.graph.sizes.len();
        let mut items: Vec<Item> = (0..n).filter(|&i| self.of[i] == at).map(Item::Node).collect();
        items.extend((0..self.parent.len()).filter(|&c| self.parent[c] == at).map(Item::Cluster));
        let mut sizes = Vec::with_capacity(items.len());
        // Each child cluster first: its box, its members placed inside it.
        let mut offsets: Vec<Vec<(usize, Point)>> = Vec::with_capacity(items.len());
        for item in &items {
            match *item {
                Item::Node(i) => {
                    sizes.push(self.graph.sizes[i]);
                    offsets.push(vec![(i, Point::default())]);
                }
                Item::Cluster(c) => {
                    let inner = self.level(Some(c), &mut |_| true)?;
                    let members: Vec<(usize, Point)> = (0..n)
                        .filter(|&i| self.item(i, at) == Some(Item::Cluster(c)))
                        .map(|i| (i, self.out[i]))
                        .collect();
                    let f = self.frame;
                    sizes.push(Size { w: inner.w + 2.0 * f.pad, h: inner.h + 2.0 * f.pad + f.title });
                    offsets.push(
                        members
                            .into_iter()
                            .map(|(i, p)| (i, Point { x: p.x + f.pad, y: p.y + f.pad + f.title }))
                            .collect(),
                    );
                }
            }
        }
        if items.is_empty() {
            return Ok(Size { w: 0.0, h: 0.0 });
        }
        let index: std::collections::HashMap<Item, usize> =
            items.iter().enumerate().map(|(k, &it)| (it, k)).collect();
        let item_of =
            |i: usize| if i < n { self.item(i, at).and_then(|it| index.get(&it).copied()) } else { None };
        let mut level = Graph { sizes: sizes.clone(), ..Graph::default() };
        for (e, &(a, b)) in self.graph.edges.iter().enumerate() {
            let (Some(a), Some(b)) = (item_of(a), item_of(b)) else { continue };
            // An edge inside one child cluster is that cluster's; a node's loop stays a loop.
            if a != b || matches!(items[a], Item::Node(_)) {
                level.edges.push((a, b));
                level.labels.push(self.graph.label(e));
            }
        }
        level.first = self.graph.first.and_then(item_of);
        level.last = self.graph.last.and_then(item_of);
        let placed = layout_with(&level, self.options, progress)?;
        let (mut w, mut h) = (0.0f64, 0.0f64);
        for (k, p) in placed.iter().enumerate() {
            w = w.max(p.x + sizes[k].w);
            h = h.max(p.y + sizes[k].h);
            for &(i, off) in &offsets[k] {
                self.out[i] = Point { x: p.x + off.x, y: p.y + off.y };
            }
        }
        Ok(Size { w, h })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chain_graph(n: usize) -> Graph {
        Graph::new(vec![Size { w: 200.0, h: 60.0 }; n], (1..n).map(|i| (i - 1, i)).collect())
    }

    fn bbox(points: &[Point], ids: &[usize]) -> (f64, f64, f64, f64) {
        let xs = ids.iter().map(|&i| points[i].x);
        let ys = ids.iter().map(|&i| points[i].y);
        (
            xs.clone().fold(f64::INFINITY, f64::min),
            ys.clone().fold(f64::INFINITY, f64::min),
            xs.fold(f64::NEG_INFINITY, f64::max) + 200.0,
            ys.fold(f64::NEG_INFINITY, f64::max) + 60.0,
        )
    }

    fn inside(p: Point, b: (f64, f64, f64, f64)) -> bool {
        p.x + 200.0 > b.0 && p.x < b.2 && p.y + 60.0 > b.1 && p.y < b.3
    }

    #[test]
    fn members_of_a_group_share_a_rectangle_no_other_node_enters() {
        // 30 nodes in a chain; every third node in group 0, others spread: without clusters
        // the members would be scattered along the chain.
        let g = chain_graph(30);
        let members: Vec<usize> = (0..30).filter(|i| i % 3 == 0).collect();
        let mut of = vec![None; 30];
        for &m in &members {
            of[m] = Some(0);
        }
        let clusters = Clusters { of, parent: vec![None] };
        let p = layout_clustered(&g, &clusters, &Options::default(), Frame::default(), &mut |_| true)
            .expect("laid out");
        let b = bbox(&p, &members);
        for i in (0..30).filter(|i| i % 3 != 0) {
            assert!(!inside(p[i], b), "node {i} at {:?} is inside the group's box {b:?}", p[i]);
        }
        assert!(crate::quality::overlaps(&p, &g.sizes).is_empty());
    }

    #[test]
    fn nested_groups_nest_and_separate_groups_do_not_mix() {
        let g = chain_graph(40);
        let mut of = vec![None; 40];
        for (i, slot) in of.iter_mut().enumerate() {
            *slot = match i % 4 {
                0 => Some(0), // outer
                1 => Some(1), // inner, nested in outer
                2 => Some(2), // another top-level group
                _ => None,
            };
        }
        let clusters = Clusters { of, parent: vec![None, Some(0), None] };
        let p = layout_clustered(&g, &clusters, &Options::default(), Frame::default(), &mut |_| true)
            .expect("laid out");
        let ids = |r: &[usize]| (0..40).filter(|i| r.contains(&(i % 4))).collect::<Vec<_>>();
        let outer = bbox(&p, &ids(&[0, 1]));
        let inner = bbox(&p, &ids(&[1]));
        let other = bbox(&p, &ids(&[2]));
        for i in ids(&[2, 3]) {
            assert!(!inside(p[i], outer), "node {i} inside the outer group");
        }
        for i in ids(&[0, 2, 3]) {
            assert!(!inside(p[i], inner), "node {i} inside the inner group");
        }
        for i in ids(&[0, 1, 3]) {
            assert!(!inside(p[i], other), "node {i} inside the other group");
        }
        assert!(inner.0 >= outer.0 && inner.2 <= outer.2 && inner.1 >= outer.1 && inner.3 <= outer.3);
        assert!(crate::quality::overlaps(&p, &g.sizes).is_empty());
    }

    #[test]
    fn no_clusters_is_the_plain_layout_and_cycles_are_cut() {
        let g = chain_graph(12);
        let plain = layout_with(&g, &Options::default(), &mut |_| true).expect("plain");
        let none = Clusters { of: vec![None; 12], parent: Vec::new() };
        assert_eq!(
            layout_clustered(&g, &none, &Options::default(), Frame::default(), &mut |_| true).expect("same"),
            plain
        );
        // Two clusters each nested in the other: both top-level, still laid out.
        let looped = Clusters { of: (0..12).map(|i| Some(i % 2)).collect(), parent: vec![Some(1), Some(0)] };
        let p = layout_clustered(&g, &looped, &Options::default(), Frame::default(), &mut |_| true)
            .expect("laid out");
        assert!(crate::quality::overlaps(&p, &g.sizes).is_empty());
        assert!(layout_clustered(&g, &looped, &Options::default(), Frame::default(), &mut |_| false).is_err());
    }
}
