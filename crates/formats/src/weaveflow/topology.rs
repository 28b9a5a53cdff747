//! The topology checks of the graph build (`graph/validation.go@873f30f`): unreachable nodes,
//! a finish point with outgoing edges, nodes with no outgoing edge, and nodes that cannot reach
//! the end (`__end__` or the finish point).
//!
//! As in Weaveflow's `validateTopology` (`graph/validation.go`), only plain and conditional edges
//! count (failure routes are not part of the normal graph), and the checks only run when the
//! entry point names a node: "no outgoing edge" and "cannot reach graph end" concern nodes
//! reachable from the entry. Go stops at the first problem; here a node reported once (as
//! having no outgoing edge) is not reported again as unable to reach the end.

use std::collections::{HashMap, HashSet, VecDeque};

use trellis_spec::Diagnostic;

use super::codes;
use super::model::{GraphDefinition, END_NODE};

/// Runs the topology checks. `ids` are the (trimmed) ids of the nodes, in order, with their
/// index; edges whose ends are not nodes were reported before and are ignored here.
pub fn check(def: &GraphDefinition, out: &mut Vec<Diagnostic>) {
    let ids: Vec<String> = def.nodes.iter().map(|n| n.id.trim().to_owned()).collect();
    let known: HashSet<&str> = ids.iter().map(String::as_str).filter(|s| !s.is_empty()).collect();
    let entry = def.entry_point.trim();
    let finish = def.finish_point.trim();

    // Adjacency over valid plain and conditional edges (failure routes excluded).
    let mut normal: HashMap<&str, Vec<&str>> = HashMap::new();
    let mut reverse: HashMap<&str, Vec<&str>> = HashMap::new();
    for e in &def.edges {
        let (f, t) = (e.from.trim(), e.to.trim());
        if !known.contains(f) || !(known.contains(t) || t == END_NODE) {
            continue;
        }
        if e.failure.is_none() {
            normal.entry(f).or_default().push(t);
            reverse.entry(t).or_default().push(f);
        }
    }

    if !known.contains(entry) {
        return;
    }
    let reached = bfs(&normal, [entry]);
    let mut silenced: HashSet<&str> = HashSet::new();

    {
        for (i, id) in ids.iter().enumerate() {
            if !id.is_empty() && !reached.contains(id.as_str()) && silenced.insert(id.as_str()) {
                out.push(
                    Diagnostic::error(
                        codes::UNREACHABLE_NODE,
                        format!("node \"{id}\" is unreachable from entry point \"{entry}\""),
                    )
                    .at(format!("/nodes/{i}"))
                    .on_node(id.clone()),
                );
            }
        }
    }

    let finish_ok = known.contains(finish);
    if finish_ok && normal.get(finish).is_some_and(|v| !v.is_empty()) {
        out.push(
            Diagnostic::error(
                codes::FINISH_POINT_HAS_EDGES,
                format!("finish point \"{finish}\" cannot have outgoing edges"),
            )
            .at("/finish_point")
            .on_node(finish.to_owned()),
        );
    }

    for (i, id) in ids.iter().enumerate() {
        if id.is_empty() || (finish_ok && id == finish) || normal.contains_key(id.as_str()) {
            continue;
        }
        if silenced.insert(id.as_str()) {
            out.push(
                Diagnostic::error(codes::NO_OUTGOING_EDGE, format!("node \"{id}\" has no outgoing edge"))
                    .at(format!("/nodes/{i}"))
                    .on_node(id.clone()),
            );
        }
    }

    let mut ends = vec![END_NODE];
    if finish_ok {
        ends.push(finish);
    }
    let can_end = bfs(&reverse, ends);
    for (i, id) in ids.iter().enumerate() {
        if id.is_empty() || can_end.contains(id.as_str()) || silenced.contains(id.as_str()) {
            continue;
        }
        silenced.insert(id.as_str());
        out.push(
            Diagnostic::error(codes::CANNOT_REACH_END, format!("node \"{id}\" cannot reach graph end"))
                .at(format!("/nodes/{i}"))
                .on_node(id.clone()),
        );
    }
}

/// Breadth-first search from `starts` (iterative: no recursion on deep chains).
fn bfs<'a>(
    adj: &HashMap<&'a str, Vec<&'a str>>,
    starts: impl IntoIterator<Item = &'a str>,
) -> HashSet<&'a str> {
    let mut seen: HashSet<&str> = HashSet::new();
    let mut queue: VecDeque<&str> = VecDeque::new();
    for s in starts {
        if seen.insert(s) {
            queue.push_back(s);
        }
    }
    while let Some(n) = queue.pop_front() {
        for &m in adj.get(n).into_iter().flatten() {
            if seen.insert(m) {
                queue.push_back(m);
            }
        }
    }
    seen
}
