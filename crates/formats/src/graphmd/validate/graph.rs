//! The rules on the graph as a whole: every reference names a node, every cycle is closed by
//! a bounded loop edge, and every node and exit is reachable from the entry.

use super::checker::{At, Checker};
use super::codes;
use crate::graphmd::topology::{EdgeInfo, EdgeKind, Topology};
use crate::graphmd::yaml::{Map, Yaml};
use std::collections::{HashMap, HashSet};

impl Checker {
    pub(super) fn graph(&mut self, front: &Map, t: &Topology, root: &At) {
        let ids: HashSet<&str> = t.nodes.iter().map(|n| n.id.as_str()).collect();
        let node_at = |_: &Topology, i: usize| {
            let n = front.get("nodes").and_then(Yaml::as_seq).and_then(|s| s.items.get(i));
            At { ptr: format!("/nodes/{i}"), span: n.and_then(|y| y.span) }
        };
        let edge_at = |i: usize, key: &str| {
            let e = front.get("edges").and_then(Yaml::as_seq).and_then(|s| s.items.get(i));
            let span = e
                .and_then(|y| y.as_map())
                .and_then(|m| m.get(key))
                .and_then(|y| y.span)
                .or(e.and_then(|y| y.span));
            At { ptr: format!("/edges/{i}/{key}"), span }
        };
        if let Some(entry) = &t.entry {
            if !ids.contains(entry.as_str()) {
                let a = root.clone().child("entry", front);
                self.error(codes::UNKNOWN_NODE, format!("`entry` names `{entry}`, which is not a node"), &a);
            }
        }
        let exits_y = front.get("exits");
        for (i, x) in t.exits.iter().enumerate() {
            if !ids.contains(x.as_str()) {
                let span = exits_y
                    .and_then(Yaml::as_seq)
                    .and_then(|s| s.items.get(i))
                    .and_then(|y| y.span)
                    .or(exits_y.and_then(|y| y.span));
                let ptr = if exits_y.and_then(Yaml::as_seq).is_some() {
                    format!("/exits/{i}")
                } else {
                    "/exits".to_owned()
                };
                self.error(
                    codes::UNKNOWN_NODE,
                    format!("`exits` names `{x}`, which is not a node"),
                    &At { ptr, span },
                );
            }
        }
        for e in &t.edges {
            for (key, id) in [("from", &e.from), ("to", &e.to)] {
                if !ids.contains(id.as_str()) {
                    self.error(
                        codes::UNKNOWN_NODE,
                        format!("edge {} goes {key} `{id}`, which is not a node", e.index),
                        &edge_at(e.index, key),
                    )
                    .element = Some(trellis_spec::Element::Edge {
                        index: e.index,
                        from: e.from.clone(),
                        to: e.to.clone(),
                    });
                }
            }
        }
        for n in &t.nodes {
            if let Some(fallback) = &n.fallback {
                let a = node_at(t, n.index);
                let m = front
                    .get("nodes")
                    .and_then(Yaml::as_seq)
                    .and_then(|s| s.items.get(n.index))
                    .and_then(Yaml::as_map);
                let af = m.map_or_else(|| a.clone(), |m| a.child("fallback", m));
                if !ids.contains(fallback.as_str()) {
                    self.error(
                        codes::UNKNOWN_NODE,
                        format!("the fallback of judge `{}` is `{}`, which is not a node", n.id, fallback),
                        &af,
                    )
                    .element = Some(trellis_spec::Element::Node { id: n.id.clone() });
                } else if *fallback == n.id {
                    self.error(
                        codes::INVALID_VALUE,
                        format!("judge `{}` cannot be its own fallback", n.id),
                        &af,
                    )
                    .element = Some(trellis_spec::Element::Node { id: n.id.clone() });
                }
            }
        }
        self.cycles_and_reach(t, &ids, &node_at, &edge_at);
    }

    pub(super) fn cycles_and_reach(
        &mut self,
        t: &Topology,
        ids: &HashSet<&str>,
        node_at: &dyn Fn(&Topology, usize) -> At,
        edge_at: &dyn Fn(usize, &str) -> At,
    ) {
        let index: HashMap<&str, usize> =
            t.nodes.iter().enumerate().map(|(i, n)| (n.id.as_str(), i)).collect();
        let n = t.nodes.len();
        let good: Vec<&EdgeInfo> =
            t.edges.iter().filter(|e| ids.contains(e.from.as_str()) && ids.contains(e.to.as_str())).collect();
        // Forward edges (every edge but the loops, and every judge's fallback route) must form
        // a DAG: a cycle needs a bounded loop edge. A loop edge that closes no cycle is a plain
        // edge (warned), and counts as forward too.
        const FALLBACK: usize = usize::MAX;
        let mut fwd: Vec<Vec<(usize, usize)>> = vec![Vec::new(); n];
        for e in good.iter().filter(|e| e.kind != EdgeKind::Loop) {
            fwd[index[e.from.as_str()]].push((index[e.to.as_str()], e.index));
        }
        for (i, node) in t.nodes.iter().enumerate() {
            // A judge that is its own fallback is already an error of its own.
            if let Some(f) = node.fallback.as_ref().and_then(|f| index.get(f.as_str())).filter(|f| **f != i) {
                fwd[i].push((*f, FALLBACK));
            }
        }
        let mut plain_loops = Vec::new();
        for e in good.iter().filter(|e| e.kind == EdgeKind::Loop) {
            let (s, h) = (index[e.from.as_str()], index[e.to.as_str()]);
            if s != h && !crate::graphmd::digraph::reaches(&fwd, h, s) {
                self.warning(codes::LOOP_NOT_A_CYCLE, format!("loop edge {} goes from `{}` back to `{}`, but `{}` does not lead to `{}`: it closes no cycle and is analysed as a plain edge", e.index, e.from, e.to, e.to, e.from), &edge_at(e.index, "to")).element =
                    Some(trellis_spec::Element::Edge { index: e.index, from: e.from.clone(), to: e.to.clone() });
                plain_loops.push((s, h, e.index));
            }
        }
        for (s, h, i) in plain_loops {
            fwd[s].push((h, i));
        }
        if let Some(cycle) = crate::graphmd::digraph::find_cycle(&fwd) {
            let names: Vec<&str> = cycle.iter().map(|(v, _)| t.nodes[*v].id.as_str()).collect();
            let closing = cycle.iter().find(|(_, e)| *e != FALLBACK).copied();
            let msg = format!("the nodes {} -> {} form a cycle with no loop edge closing it, so it has no bound; make the edge that goes back a `kind: loop` with `bounds: {{max_iterations: N}}`", names.join(" -> "), names[0]);
            match closing {
                Some((_, first_edge)) => {
                    let e = t.edges.iter().find(|e| e.index == first_edge);
                    self.error(codes::UNBOUNDED_CYCLE, msg, &edge_at(first_edge, "to")).element =
                        e.map(|e| trellis_spec::Element::Edge {
                            index: e.index,
                            from: e.from.clone(),
                            to: e.to.clone(),
                        });
                }
                None => {
                    let (v, _) = cycle[0];
                    let a = node_at(t, t.nodes[v].index);
                    self.error(codes::UNBOUNDED_CYCLE, format!("{msg} (through judge fallbacks)"), &a)
                        .element = Some(trellis_spec::Element::Node { id: t.nodes[v].id.clone() });
                }
            }
        }
        // Reachability over every edge and every judge fallback.
        let Some(entry) = t.entry.as_deref().and_then(|e| index.get(e).copied()) else { return };
        // (target, edge index); a fallback route has no edge of its own.
        let mut all: Vec<Vec<(usize, usize)>> = vec![Vec::new(); n];
        for e in &good {
            all[index[e.from.as_str()]].push((index[e.to.as_str()], e.index));
        }
        for (i, node) in t.nodes.iter().enumerate() {
            if let Some(f) = node.fallback.as_ref().and_then(|f| index.get(f.as_str())) {
                all[i].push((*f, FALLBACK));
            }
        }
        let seen = crate::graphmd::digraph::reached_from(&all, entry);
        let exits: HashSet<&str> = t.exits.iter().map(String::as_str).collect();
        for (i, node) in t.nodes.iter().enumerate() {
            let a = node_at(t, node.index);
            let el = Some(trellis_spec::Element::Node { id: node.id.clone() });
            if !seen[i] && exits.contains(node.id.as_str()) {
                self.error(
                    codes::EXIT_UNREACHABLE,
                    format!("exit `{}` cannot be reached from the entry `{}`", node.id, t.nodes[entry].id),
                    &a,
                )
                .element = el;
            } else if !seen[i] {
                self.warning(
                    codes::UNREACHABLE_NODE,
                    format!("node `{}` cannot be reached from the entry `{}`", node.id, t.nodes[entry].id),
                    &a,
                )
                .element = el;
            } else if all[i].is_empty() && !exits.contains(node.id.as_str()) {
                self.warning(codes::DEAD_END, format!("node `{}` is not an exit and has no outgoing edge: a run that reaches it ends without reaching an exit", node.id), &a).element = el;
            }
        }
    }
}
