//! Warnings from looking at the graph as a whole (`crate::adjacency`, petgraph for cycles) and
//! at the values in it. None of these stop a document from compiling in the reference; each
//! points at something that is almost certainly a mistake, or that another runtime would read
//! differently.

use std::borrow::Cow;
use std::collections::HashMap;

// Ids and edge ends are hashed once per node and edge on every validation; SipHash was most of
// the time of these checks. foldhash is seeded per map, so a document cannot be made to collide.
use foldhash::fast::RandomState as Hasher;

use petgraph::algo::kosaraju_scc;
use petgraph::graph::{DiGraph, NodeIndex};
use serde_json::{Number, Value};

use crate::adjacency::Adjacency;
use crate::diagnostic::{pointer, Diagnostic};
use crate::model::{GraphSpec, Predicate};
use crate::predicate::{self, js_f64, Op};
use crate::walk::{Walk, START_IX};

/// Codes of the analysis warnings (and the one analysis error, a number no double can hold).
pub mod codes {
    /// A node no path from `__start__` reaches: it never runs.
    pub const UNREACHABLE_NODE: &str = "spec/unreachable-node";
    /// A cycle of unguarded edges: once entered, it runs until the step limit.
    pub const ENDLESS_CYCLE: &str = "spec/endless-cycle";
    /// The same edge twice, or an edge that a static edge between the same nodes makes redundant.
    pub const DUPLICATE_EDGE: &str = "spec/duplicate-edge";
    /// A predicate that can never be true (`gt` against a string, `eq` against an object, ...).
    pub const NEVER_MATCHES: &str = "spec/never-matches";
    /// An integer beyond 2^53: a JavaScript runtime would change it.
    pub const UNSAFE_INTEGER: &str = "spec/unsafe-integer";
    /// A number too large for a double: a runtime would read it as Infinity.
    pub const NUMBER_OVERFLOW: &str = "spec/number-overflow";
}

/// 2^53: the largest integer a double holds exactly (and its neighbours).
const MAX_SAFE: f64 = 9_007_199_254_740_992.0;
/// How deep a value walk goes (documents from text are at most 128 deep).
const MAX_WALK_DEPTH: usize = 256;

/// Every analysis warning for a document: [`analyze_graph`], then [`analyze_values`].
pub fn analyze(spec: &GraphSpec) -> Vec<Diagnostic> {
    let mut out = analyze_graph(spec);
    out.extend(analyze_values(spec));
    out
}

/// The warnings about the graph as a whole: unreachable nodes, endless cycles, duplicate edges.
/// Apart from [`analyze_values`] so that a large document's validation runs the two side by
/// side (`crate::validate`).
pub fn analyze_graph(spec: &GraphSpec) -> Vec<Diagnostic> {
    graph_findings(spec, &Walk::of(spec), false)
}

/// [`analyze_graph`] on the walk of `spec` built already (the validator shares it with the
/// node and edge checks); `side_by_side`: the three searches on rayon's threads, which the
/// validator asks for a large document (they read the walk and nothing else, and together are
/// its longest stage).
pub(crate) fn graph_findings(spec: &GraphSpec, walk: &Walk<'_>, side_by_side: bool) -> Vec<Diagnostic> {
    let unreachable = || unreachable_nodes(spec, walk);
    let cycles = || endless_cycles(spec, walk);
    let duplicates = || duplicate_edges(spec, walk);
    let ((mut out, cycles), duplicates) = if side_by_side {
        rayon::join(|| rayon::join(unreachable, cycles), duplicates)
    } else {
        ((unreachable(), cycles()), duplicates())
    };
    out.extend(cycles);
    out.extend(duplicates);
    out
}

/// The warnings about the values in the document: its shape, guards that never match, numbers
/// a double does not hold.
pub fn analyze_values(spec: &GraphSpec) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    crate::shape_warnings::check(spec, &mut out);
    for (i, e) in spec.edges.iter().enumerate() {
        if let Some(p) = &e.when {
            if let Some((key, why)) = never_matches(p) {
                out.push(
                    Diagnostic::warning(
                        codes::NEVER_MATCHES,
                        format!(
                            "the guard on the edge \"{}\" -> \"{}\" can never be true: {why}",
                            e.from, e.to
                        ),
                    )
                    .at(pointer(["edges", &i.to_string(), "when", key]))
                    .on_edge(i, &e.from, &e.to),
                );
            }
            // The pointer is built only for a problem found (almost never).
            let base = || pointer(["edges", &i.to_string(), "when"]);
            for (k, v) in p.iter().filter(|(_, v)| may_hold_numbers(v)) {
                numbers(v, &mut vec![Cow::Borrowed(k)], &base, &mut out, &|d| d.on_edge(i, &e.from, &e.to));
            }
        }
    }
    // A config still held as its text says whether it has a number worth walking for; most do
    // not, and their map is never built.
    for (i, n) in spec.nodes.iter().enumerate().filter(|(_, n)| n.config.may_hold_odd_numbers()) {
        let base = || pointer(["nodes", &i.to_string(), "config"]);
        for (k, v) in n.config.iter().filter(|(_, v)| may_hold_numbers(v)) {
            numbers(v, &mut vec![Cow::Borrowed(k.as_str())], &base, &mut out, &|d| d.on_node(&n.id));
        }
    }
    out
}

/// Whether a value is worth walking for number problems (strings, bools and null are not).
fn may_hold_numbers(v: &Value) -> bool {
    match v {
        Value::Number(n) => n.as_str().len() > 15 || n.as_str().contains(['e', 'E']),
        Value::Array(a) => a.iter().any(may_hold_numbers),
        Value::Object(o) => !o.is_empty(),
        _ => false,
    }
}

/// Why a predicate can never hold, with the operator key, or `None`.
pub fn never_matches(p: &Predicate) -> Option<(&'static str, String)> {
    let op = predicate::operator(p)?;
    let key = op.name();
    match op {
        Op::Eq(v @ (Value::Object(_) | Value::Array(_))) => Some((
            key,
            format!("\"eq\" against {} literal never matches (values are compared by identity)", article(v)),
        )),
        Op::In(items) if items.iter().all(|v| v.is_object() || v.is_array()) => Some((
            key,
            if items.is_empty() {
                "\"in\" with an empty list never matches".to_owned()
            } else {
                "\"in\" lists only objects and arrays, which never match (compared by identity)".to_owned()
            },
        )),
        Op::Gt(v) | Op::Lt(v) if !v.is_number() => Some((
            key,
            format!("\"{key}\" compares numbers only, and {} is not a number", crate::predicate::js_json(v)),
        )),
        Op::Truthy(v) if !v.is_boolean() => Some((
            key,
            format!("\"truthy\" must be true or false, and {} is neither", crate::predicate::js_json(v)),
        )),
        _ => None,
    }
}

fn article(v: &Value) -> &'static str {
    if v.is_array() {
        "an array"
    } else {
        "an object"
    }
}

/// One warning per node no path from `__start__` reaches (none when nothing leaves it: that is
/// an error of its own).
fn unreachable_nodes(spec: &GraphSpec, walk: &Walk<'_>) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    if !walk.has_entry {
        return out;
    }
    let seen = Adjacency::new(walk.count, &walk.walked).reachable_from(START_IX as usize);
    for (i, n) in spec.nodes.iter().enumerate() {
        if let Some(ix) = walk.first[i] {
            if !seen[ix as usize] {
                out.push(
                    Diagnostic::warning(
                        codes::UNREACHABLE_NODE,
                        format!("node \"{}\" is unreachable from __start__, so it never runs", n.id),
                    )
                    .at(pointer(["nodes", &i.to_string()]))
                    .on_node(&n.id),
                );
            }
        }
    }
    out
}

/// One warning per cycle of unguarded edges, in document order of each cycle's first node.
fn endless_cycles(spec: &GraphSpec, walk: &Walk<'_>) -> Vec<Diagnostic> {
    let (first, count, unguarded) = (&walk.first, walk.count, &walk.unguarded);
    // Nearly every document has no unguarded cycle: its components are not worked out.
    if !Adjacency::new(count, unguarded).has_cycle() {
        return Vec::new();
    }
    let mut static_g: DiGraph<(), ()> = DiGraph::with_capacity(count, unguarded.len());
    for _ in 0..count {
        static_g.add_node(());
    }
    for &(a, b) in unguarded {
        static_g.add_edge(NodeIndex::new(a as usize), NodeIndex::new(b as usize), ());
    }
    // Ids by graph index, to name cycle members.
    let mut names: Vec<(&str, usize)> = vec![("", 0); count];
    for (i, n) in spec.nodes.iter().enumerate() {
        if let Some(ix) = first[i] {
            names[ix as usize] = (n.id.as_str(), i);
        }
    }
    let mut cycles = Vec::new();
    // Kosaraju, not Tarjan: petgraph's Tarjan recurses once per node on a path and overflows the
    // stack on a long chain (a 100,000-node document); Kosaraju's DFS is iterative.
    for scc in kosaraju_scc(&static_g) {
        let cyclic = scc.len() > 1 || static_g.contains_edge(scc[0], scc[0]);
        if !cyclic {
            continue;
        }
        let mut members: Vec<(&str, usize)> = scc.iter().map(|ix| names[ix.index()]).collect();
        members.sort_by_key(|m| m.1);
        let listed: Vec<String> = members.iter().take(8).map(|m| format!("\"{}\"", m.0)).collect();
        let more = if members.len() > 8 { format!(" and {} more", members.len() - 8) } else { String::new() };
        let (id, pos) = members[0];
        cycles.push((
            pos,
            Diagnostic::warning(
                codes::ENDLESS_CYCLE,
                format!(
                    "the cycle through {}{more} has no guard on any of its edges: once entered it never stops, \
                     and every run ends at the step limit",
                    listed.join(", ")
                ),
            )
            .at(pointer(["nodes", &pos.to_string()]))
            .on_node(id),
        ));
    }
    // In document order of each cycle's first node, not in the order the search finds them.
    cycles.sort_by_key(|c| c.0);
    cycles.into_iter().map(|c| c.1).collect()
}

/// A second edge between the same two nodes with the same guard (or where one is static): each
/// such edge and its twin, the first edge before it between the same nodes that makes it one.
///
/// The edges are grouped by their source's graph index ([`Walk`]), by counting: each group is
/// in document order and most hold a handful of edges, compared pairwise; a larger one is sorted
/// by target first. An edge with a dangling end is paired by its ids. A map of every
/// (source, target) pair would do the same with several times the memory.
fn duplicate_edges(spec: &GraphSpec, walk: &Walk<'_>) -> Vec<Diagnostic> {
    let ends = &walk.ends;
    let mut twins: Vec<(usize, usize)> = Vec::new();
    // Where each source's group ends, then (filled from the last edge back) where it starts.
    let mut bounds = vec![0u32; walk.count + 1];
    for &(a, _) in ends.iter().flatten() {
        bounds[a as usize] += 1;
    }
    let mut total = 0u32;
    for b in &mut bounds {
        total += *b;
        *b = total;
    }
    let mut grouped = vec![0u32; total as usize];
    for (i, end) in ends.iter().enumerate().rev() {
        if let Some((a, _)) = end {
            let at = &mut bounds[*a as usize];
            *at -= 1;
            // Edge indices fit: a document's edges are fewer than its bytes, which fit in u32 on
            // every path that reads one this large.
            grouped[*at as usize] = u32::try_from(i).unwrap_or(u32::MAX);
        }
    }
    let target = |i: u32| ends[i as usize].map_or(0, |(_, b)| b);
    let mut by_target = Vec::new();
    for group in bounds.windows(2).map(|w| &grouped[w[0] as usize..w[1] as usize]) {
        if group.len() < 2 {
            continue;
        }
        if group.len() <= SMALL_GROUP {
            same_pair_twins(spec, group, |i, j| target(i) == target(j), &mut twins);
        } else {
            // Sorted by target, stably: each target's edges together, in document order.
            by_target.clear();
            by_target.extend_from_slice(group);
            by_target.sort_by_key(|&i| target(i));
            for run in by_target.chunk_by(|&i, &j| target(i) == target(j)) {
                same_pair_twins(spec, run, |_, _| true, &mut twins);
            }
        }
    }
    // Dangling edges (an error of their own) by their ids: rare, so a map is fine.
    let mut dangling: HashMap<(&str, &str), Vec<u32>, Hasher> = HashMap::default();
    for (i, e) in spec.edges.iter().enumerate() {
        if ends.get(i).copied().flatten().is_none() {
            let i = u32::try_from(i).unwrap_or(u32::MAX);
            dangling.entry((e.from.as_str(), e.to.as_str())).or_default().push(i);
        }
    }
    for run in dangling.values().filter(|run| run.len() > 1) {
        same_pair_twins(spec, run, |_, _| true, &mut twins);
    }
    twins.sort_unstable();
    twins
        .into_iter()
        .map(|(i, j)| {
            let e = &spec.edges[i];
            let why = if spec.edges[j].when == e.when {
                "the same edge is declared twice"
            } else {
                "a static edge between the same nodes always fires, so the guard changes nothing"
            };
            Diagnostic::warning(
                codes::DUPLICATE_EDGE,
                format!("duplicate edge \"{}\" -> \"{}\" (see edge {j}): {why}", e.from, e.to),
            )
            .at(pointer(["edges", &i.to_string()]))
            .on_edge(i, &e.from, &e.to)
        })
        .collect()
}

/// Groups of a source's edges up to this size are compared pairwise.
const SMALL_GROUP: usize = 16;

/// The twins among `edges` (in document order, one source's): for each edge, the first earlier
/// one with the same target (`same_target`) and the same guard, or where either is static.
fn same_pair_twins(
    spec: &GraphSpec,
    edges: &[u32],
    same_target: impl Fn(u32, u32) -> bool,
    twins: &mut Vec<(usize, usize)>,
) {
    for (k, &i) in edges.iter().enumerate().skip(1) {
        let when = &spec.edges[i as usize].when;
        let twin = edges[..k].iter().find(|&&j| {
            let other = &spec.edges[j as usize].when;
            same_target(i, j) && (other == when || other.is_none() || when.is_none())
        });
        if let Some(&j) = twin {
            twins.push((i as usize, j as usize));
        }
    }
}

/// Walks a value for integers beyond 2^53 and numbers beyond a double.
fn numbers<'a>(
    v: &'a Value,
    path: &mut Vec<Cow<'a, str>>,
    base: &dyn Fn() -> String,
    out: &mut Vec<Diagnostic>,
    tag: &dyn Fn(Diagnostic) -> Diagnostic,
) {
    if path.len() > MAX_WALK_DEPTH {
        return;
    }
    match v {
        Value::Number(n) => {
            if let Some(d) = number_problem(n) {
                let mut at = base();
                for seg in path.iter() {
                    at = crate::diagnostic::pointer_push(&at, seg);
                }
                let d = match d {
                    NumberProblem::Unsafe(shown) => Diagnostic::warning(
                        codes::UNSAFE_INTEGER,
                        format!(
                            "the integer {} at {at} is beyond 2^53: a JavaScript runtime would read it as {shown}; \
                             write it as a string if it is an id",
                            n.as_str()
                        ),
                    ),
                    NumberProblem::Overflow => Diagnostic::error(
                        codes::NUMBER_OVERFLOW,
                        format!(
                            "the number {} at {at} is too large for a double: a runtime would read it as Infinity",
                            n.as_str()
                        ),
                    ),
                };
                out.push(tag(d.at(at)));
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                if matches!(item, Value::Number(_) | Value::Array(_) | Value::Object(_)) {
                    path.push(Cow::Owned(i.to_string()));
                    numbers(item, path, base, out, tag);
                    path.pop();
                }
            }
        }
        Value::Object(o) => {
            for (k, item) in o {
                path.push(Cow::Borrowed(k));
                numbers(item, path, base, out, tag);
                path.pop();
            }
        }
        _ => {}
    }
}

enum NumberProblem {
    Unsafe(String),
    Overflow,
}

/// Cheap on ordinary numbers: only long texts are parsed.
fn number_problem(n: &Number) -> Option<NumberProblem> {
    let text = n.as_str();
    if text.len() <= 15 && !text.contains(['e', 'E']) {
        return None;
    }
    let f: f64 = text.parse().ok()?;
    if f.is_infinite() {
        return Some(NumberProblem::Overflow);
    }
    let integer = !text.contains(['.', 'e', 'E']);
    if integer && f.abs() > MAX_SAFE {
        return Some(NumberProblem::Unsafe(js_f64(f)));
    }
    if integer && f.abs() == MAX_SAFE && text.trim_start_matches('-') != "9007199254740992" {
        return Some(NumberProblem::Unsafe(js_f64(f)));
    }
    None
}

#[cfg(test)]
mod topology_tests;
