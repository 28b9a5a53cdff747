//! The rules on the `nodes` list: ids, kinds, the fields each kind may hold, estimates and the
//! state a node reads. A judge's own fields are `judge.rs`.

use super::checker::{At, Checker};
use super::codes;
use crate::graphmd::model::{id_text, NODE_KINDS};
use crate::graphmd::topology::{Estimates, NodeInfo, SpecVersion};
use crate::graphmd::yaml::{Map, Node, Yaml};
use indexmap::IndexMap;
use std::collections::HashMap;

const NODE_KEYS: [&str; 6] = ["id", "kind", "model_key", "description", "estimates", "reads"];
const JUDGE_KEYS: [&str; 11] = [
    "seat",
    "decision_model",
    "questions",
    "options_count",
    "options",
    "state_tokens",
    "timeout_ms",
    "fallback",
    "fires_on",
    "confidence_threshold",
    "model_key",
];
const SUBGRAPH_KEYS: [&str; 1] = ["ref"];
const ESTIMATE_KEYS: [&str; 7] = [
    "input_tokens",
    "output_tokens",
    "state_tokens",
    "latency_ms",
    "cost_usd",
    "tokens_per_question",
    "tokens_per_option",
];

impl Checker {
    pub(super) fn nodes(
        &mut self,
        front: &Map,
        root: &At,
        version: SpecVersion,
        declared: bool,
        state: &IndexMap<String, u64>,
    ) -> Vec<NodeInfo> {
        let at = root.child("nodes", front);
        let mut out = Vec::new();
        let items = match front.get("nodes").map(|y| &y.node) {
            None => {
                self.error(
                    codes::MISSING_FIELD,
                    "the graph needs `nodes` (a list of `{id, kind}`)".to_owned(),
                    root,
                );
                return out;
            }
            Some(Node::Seq(s)) => &s.items,
            Some(_) => {
                let w = front.get("nodes").map_or("?", Yaml::kind_word);
                self.error(
                    codes::WRONG_TYPE,
                    format!("`nodes` must be a list of `{{id, kind, ...}}` mappings, not {w}"),
                    &at,
                );
                return out;
            }
        };
        let mut seen: HashMap<String, usize> = HashMap::new();
        for (i, item) in items.iter().enumerate() {
            let a = at.index(i, item);
            let Some(m) = item.as_map() else {
                self.error(
                    codes::WRONG_TYPE,
                    format!("node {i} must be a mapping with `id` and `kind`, not {}", item.kind_word()),
                    &a,
                );
                continue;
            };
            let Some(id) = self.id_ref(m, "id", &a, &format!("node {i}"), true) else { continue };
            if let Some(first) = seen.insert(id.clone(), i) {
                let ai = a.child("id", m);
                self.error(
                    codes::DUPLICATE_ID,
                    format!("node id `{id}` is used by nodes {first} and {i}"),
                    &ai,
                )
                .element = Some(trellis_spec::Element::Node { id: id.clone() });
                continue;
            }
            let n0 = self.out.len();
            let node = self.node(m, &a, i, &id, version, declared, state);
            for d in &mut self.out[n0..] {
                d.element.get_or_insert(trellis_spec::Element::Node { id: id.clone() });
            }
            out.push(node);
        }
        out
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn node(
        &mut self,
        m: &Map,
        a: &At,
        i: usize,
        id: &str,
        version: SpecVersion,
        declared: bool,
        state: &IndexMap<String, u64>,
    ) -> NodeInfo {
        let what = format!("node `{id}`");
        let kind = self.string(m, "kind", a, &what, true).unwrap_or_default();
        let is_judge = kind == "judge";
        if !kind.is_empty() && !NODE_KINDS.contains(&kind.as_str()) {
            let ak = a.child("kind", m);
            self.error(
                codes::UNKNOWN_NODE_KIND,
                format!("{what} has kind `{kind}`; expected one of {}", NODE_KINDS.join(", ")),
                &ak,
            );
        }
        let mut known: Vec<&[&str]> = vec![&NODE_KEYS];
        if is_judge {
            known.push(&JUDGE_KEYS);
        }
        if kind == "subgraph" {
            known.push(&SUBGRAPH_KEYS);
        }
        // Judge fields on another kind get their own, clearer warning.
        for e in &m.entries {
            let k = e.key.value.as_str();
            if !is_judge && JUDGE_KEYS.contains(&k) && !NODE_KEYS.contains(&k) {
                let ak = a.key(k, m);
                self.warning(
                    codes::JUDGE_FIELD_ON_NON_JUDGE,
                    format!("`{k}` is a judge field but {what} is of kind `{kind}`; it is ignored"),
                    &ak,
                );
            }
        }
        let unknown: Map = Map {
            entries: m
                .entries
                .iter()
                .filter(|e| {
                    is_judge
                        || !JUDGE_KEYS.contains(&e.key.value.as_str())
                        || NODE_KEYS.contains(&e.key.value.as_str())
                })
                .cloned()
                .collect(),
            flow: m.flow,
        };
        self.unknown_keys(&unknown, a, &known, &what);
        let model_key = self.string(m, "model_key", a, &what, false);
        self.string(m, "description", a, &what, false);
        if kind == "subgraph" {
            self.string(m, "ref", a, &what, false);
        }
        let estimates = self.estimates(m, a, &what);
        let reads = self.reads(m, a, &what, state);
        let judge = if is_judge {
            if version != SpecVersion::V1_1 {
                let ak = a.child("kind", m);
                let why = if declared {
                    "this document declares spec_version \"1.0.0\""
                } else {
                    "this document declares no spec_version (v1.0.0 rules)"
                };
                self.error(
                    codes::JUDGE_NEEDS_V1_1,
                    format!("{what} is a judge, which needs `spec_version: \"1.1.0\"`; {why}"),
                    &ak,
                );
            }
            self.judge(m, a, &what, &estimates)
        } else {
            None
        };
        let fallback = if is_judge { m.get("fallback").and_then(id_text) } else { None };
        NodeInfo { index: i, id: id.to_owned(), kind, model_key, estimates, reads, fallback, judge }
    }

    pub(super) fn estimates(&mut self, m: &Map, a: &At, what: &str) -> Estimates {
        let ae = a.child("estimates", m);
        let Some(e) = self.map_field(m, "estimates", a, what) else { return Estimates::default() };
        let w = format!("the estimates of {what}");
        self.unknown_keys(e, &ae, &[&ESTIMATE_KEYS], &w);
        Estimates {
            input_tokens: self.uint(e, "input_tokens", &ae, &w, 0),
            output_tokens: self.uint(e, "output_tokens", &ae, &w, 0),
            state_tokens: self.uint(e, "state_tokens", &ae, &w, 0),
            latency_ms: self.uint(e, "latency_ms", &ae, &w, 0),
            cost_usd: self.number(e, "cost_usd", &ae, &w, (0.0, None)),
            tokens_per_question: self.uint(e, "tokens_per_question", &ae, &w, 0),
            tokens_per_option: self.uint(e, "tokens_per_option", &ae, &w, 0),
        }
    }

    pub(super) fn reads(
        &mut self,
        m: &Map,
        a: &At,
        what: &str,
        state: &IndexMap<String, u64>,
    ) -> Vec<String> {
        let ar = a.child("reads", m);
        let Some(y) = m.get("reads") else { return Vec::new() };
        let Some(s) = y.as_seq() else {
            self.error(
                codes::WRONG_TYPE,
                format!("`reads` of {what} must be a list of state names, not {}", y.kind_word()),
                &ar,
            );
            return Vec::new();
        };
        let mut out = Vec::new();
        for (i, item) in s.items.iter().enumerate() {
            let ai = ar.index(i, item);
            match item.as_str() {
                Some(name) if state.contains_key(name) => out.push(name.to_owned()),
                Some(name) => {
                    self.error(
                        codes::UNKNOWN_STATE,
                        format!("{what} reads state `{name}`, which `state` does not declare"),
                        &ai,
                    );
                }
                None => {
                    self.error(
                        codes::WRONG_TYPE,
                        format!("`reads` entries of {what} must be state names, not {}", item.kind_word()),
                        &ai,
                    );
                }
            }
        }
        out
    }
}
