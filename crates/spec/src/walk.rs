//! The document as a graph of indices, built once per validation: every node id hashed once,
//! every edge's ends looked up once. The node checks (repeated ids), the edge checks (unknown
//! ends) and the analysis's searches (reachability, cycles, duplicate edges) all read it; each
//! would otherwise hash every id again into a set of its own.

use std::collections::HashMap;

// Ids are hashed once per node and edge on every validation; SipHash was most of the time of
// these checks. foldhash is seeded per map, so a document cannot be made to collide.
use foldhash::fast::RandomState as Hasher;

use crate::model::{GraphSpec, END, START};

/// Graph index of `__start__`.
pub(crate) const START_IX: u32 = 0;
/// Graph index of `__end__`.
pub(crate) const END_IX: u32 = 1;

/// Graph indices: 0 `__start__`, 1 `__end__`, then each node id at its first occurrence.
pub(crate) struct Walk<'a> {
    /// Every graph index by its name.
    index: HashMap<&'a str, u32, Hasher>,
    /// Whether a node is named `__start__` or `__end__` (an error of its own, but then edges may
    /// name it as a node).
    named_start: bool,
    named_end: bool,
    /// Per node, its graph index (`None` for an id an earlier node has, or a reserved one).
    pub(crate) first: Vec<Option<u32>>,
    /// How many graph indices there are.
    pub(crate) count: usize,
    /// Per edge, its ends as graph indices (`None` for an edge with an end that is no node and
    /// neither `__start__` nor `__end__`).
    pub(crate) ends: Vec<Option<(u32, u32)>>,
    /// The edges the walk follows (none leaves `__end__` or enters `__start__`), and the
    /// unguarded ones among them.
    pub(crate) walked: Vec<(u32, u32)>,
    pub(crate) unguarded: Vec<(u32, u32)>,
    /// Whether any followed edge leaves `__start__`.
    pub(crate) has_entry: bool,
}

impl<'a> Walk<'a> {
    pub(crate) fn of(spec: &'a GraphSpec) -> Walk<'a> {
        let mut index: HashMap<&str, u32, Hasher> =
            HashMap::with_capacity_and_hasher(spec.nodes.len() + 2, Hasher::default());
        index.insert(START, START_IX);
        index.insert(END, END_IX);
        let mut first: Vec<Option<u32>> = Vec::with_capacity(spec.nodes.len());
        let (mut named_start, mut named_end) = (false, false);
        let mut count = 2u32;
        for n in &spec.nodes {
            if index.contains_key(n.id.as_str()) {
                named_start |= n.id == START;
                named_end |= n.id == END;
                first.push(None);
                continue;
            }
            index.insert(&n.id, count);
            first.push(Some(count));
            count += 1;
        }
        let mut walk = Walk {
            index,
            named_start,
            named_end,
            first,
            count: count as usize,
            ends: Vec::with_capacity(spec.edges.len()),
            walked: Vec::with_capacity(spec.edges.len()),
            unguarded: Vec::with_capacity(spec.edges.len()),
            has_entry: false,
        };
        for e in &spec.edges {
            let (Some(&a), Some(&b)) = (walk.index.get(e.from.as_str()), walk.index.get(e.to.as_str()))
            else {
                walk.ends.push(None);
                continue; // a dangling edge: a compile error already
            };
            walk.ends.push(Some((a, b)));
            if a == END_IX || b == START_IX {
                continue;
            }
            walk.has_entry |= a == START_IX;
            walk.walked.push((a, b));
            if e.when.is_none() {
                walk.unguarded.push((a, b));
            }
        }
        walk
    }

    /// Whether a node has the id `name` (`__start__` and `__end__` only when a node is named so).
    pub(crate) fn names_node(&self, name: &str) -> bool {
        match name {
            START => self.named_start,
            END => self.named_end,
            _ => self.index.contains_key(name),
        }
    }

    /// Whether the source of edge `i`, `from`, is a node (asked for a source other than
    /// `__start__`): read from the edge's ends, looked up again only for a dangling edge.
    pub(crate) fn source_is_node(&self, i: usize, from: &str) -> bool {
        match self.ends.get(i).copied().flatten() {
            // `__end__` as a source is a node only when one is so named.
            Some((a, _)) => a != END_IX || self.named_end,
            None => self.names_node(from),
        }
    }

    /// Whether the target of edge `i`, `to`, is a node (asked for a target other than
    /// `__end__`; see [`Walk::source_is_node`]).
    pub(crate) fn target_is_node(&self, i: usize, to: &str) -> bool {
        match self.ends.get(i).copied().flatten() {
            Some((_, b)) => b != START_IX || self.named_start,
            None => self.names_node(to),
        }
    }
}
