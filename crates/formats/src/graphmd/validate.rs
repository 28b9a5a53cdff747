//! The GRAPH.md rules (`docs/graphmd.md`): one pass over the front matter
//! tree that collects every problem (never first-only) and, on the way, builds the typed
//! [`Topology`] that path analysis and conversion use.

use crate::graphmd::model::{id_text, GraphMd, EDGE_KINDS, JUDGE_SEATS, NODE_KINDS, SPEC_VERSIONS};
use crate::graphmd::yaml::{Map, Node, Resolved, Yaml};
use indexmap::IndexMap;
use std::collections::{HashMap, HashSet};
use trellis_spec::diagnostic::pointer_push;
use trellis_spec::{Diagnostic, Span};

pub mod codes {
    //! Diagnostic codes of the GRAPH.md rules.
    /// No `spec_version`: read with v1.0.0 rules.
    pub const MISSING_SPEC_VERSION: &str = "graphmd/missing-spec-version";
    /// `spec_version` is not "1.0.0" or "1.1.0".
    pub const UNKNOWN_SPEC_VERSION: &str = "graphmd/unknown-spec-version";
    /// A required field is absent.
    pub const MISSING_FIELD: &str = "graphmd/missing-field";
    /// A field holds the wrong type of value.
    pub const WRONG_TYPE: &str = "graphmd/wrong-type";
    /// A value is out of its allowed range (negative tokens, threshold outside 0..1, ...).
    pub const INVALID_VALUE: &str = "graphmd/invalid-value";
    /// A key this editor does not know (kept on write).
    pub const UNKNOWN_FIELD: &str = "graphmd/unknown-field";
    /// A node `kind` outside agent/tool/router/verifier/judge/human/subgraph.
    pub const UNKNOWN_NODE_KIND: &str = "graphmd/unknown-node-kind";
    /// An edge `kind` outside sequential/conditional/parallel/loop.
    pub const UNKNOWN_EDGE_KIND: &str = "graphmd/unknown-edge-kind";
    /// A judge `seat` outside router/gate/selector/verifier/advisor/triage.
    pub const UNKNOWN_SEAT: &str = "graphmd/unknown-seat";
    /// A judge node in a document that does not declare spec_version "1.1.0".
    pub const JUDGE_NEEDS_V1_1: &str = "graphmd/judge-needs-v1-1";
    /// A judge-only field on a node that is not a judge.
    pub const JUDGE_FIELD_ON_NON_JUDGE: &str = "graphmd/judge-field-on-non-judge";
    /// Two fields that say the same thing both given (`options` and `options_count`, ...).
    pub const CONFLICTING_FIELDS: &str = "graphmd/conflicting-fields";
    /// Two nodes share an id.
    pub const DUPLICATE_ID: &str = "graphmd/duplicate-id";
    /// Two edges share an id.
    pub const DUPLICATE_EDGE_ID: &str = "graphmd/duplicate-edge-id";
    /// A reference (entry, exits, edge ends, fallback) names no node.
    pub const UNKNOWN_NODE: &str = "graphmd/unknown-node";
    /// A node `reads` a state name that `state` does not declare.
    pub const UNKNOWN_STATE: &str = "graphmd/unknown-state";
    /// A conditional edge without a `condition`.
    pub const MISSING_CONDITION: &str = "graphmd/missing-condition";
    /// A loop edge without `bounds: {max_iterations: N}`.
    pub const UNBOUNDED_LOOP: &str = "graphmd/unbounded-loop";
    /// `condition` on an edge that is not conditional, or `bounds` on one that is not a loop.
    pub const UNUSED_EDGE_FIELD: &str = "graphmd/unused-edge-field";
    /// A cycle that no loop edge closes (it could run forever).
    pub const UNBOUNDED_CYCLE: &str = "graphmd/unbounded-cycle";
    /// A loop edge whose target cannot reach its source (it closes no cycle).
    pub const LOOP_NOT_A_CYCLE: &str = "graphmd/loop-not-a-cycle";
    /// An exit that cannot be reached from the entry.
    pub const EXIT_UNREACHABLE: &str = "graphmd/exit-unreachable";
    /// A node that cannot be reached from the entry.
    pub const UNREACHABLE_NODE: &str = "graphmd/unreachable-node";
    /// A node that is not an exit and has no way out.
    pub const DEAD_END: &str = "graphmd/dead-end";
}

/// The version rules a document is read with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, ts_rs::TS)]
#[ts(export, rename = "GraphMdSpecVersion")]
pub enum SpecVersion {
    #[serde(rename = "1.0.0")]
    V1_0,
    #[serde(rename = "1.1.0")]
    V1_1,
}

/// `path_budget`.
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize, ts_rs::TS)]
#[ts(export, rename = "GraphMdBudget")]
pub struct Budget {
    pub cost_usd: Option<f64>,
    #[ts(type = "number | null")]
    pub tokens: Option<u64>,
}

/// A node's `estimates` (all optional; see docs/graphmd.md "Estimates").
#[derive(Debug, Clone, Copy, Default, PartialEq, serde::Serialize, ts_rs::TS)]
#[ts(export, rename = "GraphMdEstimates")]
pub struct Estimates {
    #[ts(type = "number | null")]
    pub input_tokens: Option<u64>,
    #[ts(type = "number | null")]
    pub output_tokens: Option<u64>,
    #[ts(type = "number | null")]
    pub state_tokens: Option<u64>,
    #[ts(type = "number | null")]
    pub latency_ms: Option<u64>,
    pub cost_usd: Option<f64>,
    #[ts(type = "number | null")]
    pub tokens_per_question: Option<u64>,
    #[ts(type = "number | null")]
    pub tokens_per_option: Option<u64>,
}

/// Questions or options: a count, or the explicit strings (the v1.1 importer form).
#[derive(Debug, Clone, PartialEq, serde::Serialize, ts_rs::TS)]
#[ts(export, rename = "GraphMdItems")]
#[serde(untagged)]
pub enum Items {
    Count(#[ts(type = "number")] u64),
    List(Vec<String>),
}

/// The fields of a judge node.
#[derive(Debug, Clone, PartialEq, serde::Serialize, ts_rs::TS)]
#[ts(export, rename = "GraphMdJudge")]
pub struct Judge {
    pub seat: String,
    pub decision_model: String,
    pub questions: Items,
    pub options: Items,
    #[ts(type = "number")]
    pub state_tokens: u64,
    #[ts(type = "number")]
    pub timeout_ms: u64,
    pub fallback: String,
    pub fires_on: Vec<String>,
    pub confidence_threshold: Option<f64>,
}

/// A node as the analysis sees it.
#[derive(Debug, Clone, PartialEq, serde::Serialize, ts_rs::TS)]
#[ts(export, rename = "GraphMdNodeInfo")]
pub struct NodeInfo {
    /// Index in the front matter's `nodes` list.
    pub index: usize,
    pub id: String,
    pub kind: String,
    pub model_key: Option<String>,
    pub estimates: Estimates,
    pub reads: Vec<String>,
    /// A judge's `fallback`, when readable (also when other judge fields are broken).
    pub fallback: Option<String>,
    /// Present when `kind: judge` and every judge field was readable.
    pub judge: Option<Judge>,
}

/// Edge kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, ts_rs::TS)]
#[ts(export, rename = "GraphMdEdgeKind")]
#[serde(rename_all = "lowercase")]
pub enum EdgeKind {
    Sequential,
    Conditional,
    Parallel,
    Loop,
}

/// An edge as the analysis sees it.
#[derive(Debug, Clone, PartialEq, serde::Serialize, ts_rs::TS)]
#[ts(export, rename = "GraphMdEdgeInfo")]
pub struct EdgeInfo {
    /// Index in the front matter's `edges` list.
    pub index: usize,
    pub id: Option<String>,
    pub from: String,
    pub to: String,
    pub kind: EdgeKind,
    /// The condition as written: a string, or a mapping rendered as flow YAML.
    pub condition: Option<String>,
    #[ts(type = "number | null")]
    pub max_iterations: Option<u64>,
}

/// The typed reading of a GRAPH.md front matter. Built even from a document with errors
/// (what could be read is there); analysis refuses documents with errors.
#[derive(Debug, Clone, PartialEq, serde::Serialize, ts_rs::TS)]
#[ts(export, rename = "GraphMdTopology")]
pub struct Topology {
    pub name: Option<String>,
    pub version: SpecVersion,
    pub version_declared: bool,
    pub entry: Option<String>,
    pub exits: Vec<String>,
    pub budget: Budget,
    #[ts(type = "Record<string, number>")]
    pub state: IndexMap<String, u64>,
    pub nodes: Vec<NodeInfo>,
    pub edges: Vec<EdgeInfo>,
}

impl Topology {
    pub fn node(&self, id: &str) -> Option<&NodeInfo> {
        self.nodes.iter().find(|n| n.id == id)
    }
}

/// Every problem in `doc`, in document order of discovery.
pub fn validate(doc: &GraphMd) -> Vec<Diagnostic> {
    check(doc).1
}

/// The typed topology and every problem.
pub fn check(doc: &GraphMd) -> (Topology, Vec<Diagnostic>) {
    let mut c = Checker { out: Vec::new() };
    // Problems with the whole front matter (a missing top-level key) point at the opening
    // `---` line.
    let offset = if doc.bom { 3 } else { 0 };
    let root = At { ptr: String::new(), span: Some(Span { line: 1, column: 1, offset, length: 3 }) };
    let t = c.document(&doc.front, root);
    (t, c.out)
}

const TOP_KEYS: [&str; 9] =
    ["name", "spec_version", "entry", "exits", "path_budget", "state", "nodes", "edges", "description"];
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
const EDGE_KEYS: [&str; 7] = ["id", "from", "to", "kind", "condition", "bounds", "description"];

struct Checker {
    out: Vec<Diagnostic>,
}

/// Where a value is: its pointer and the best span (its own, or its container's when absent).
#[derive(Clone)]
struct At {
    ptr: String,
    span: Option<Span>,
}

impl At {
    fn child(&self, key: &str, m: &Map) -> At {
        let span = m.entry(key).and_then(|e| e.value.span.or(e.key_span)).or(self.span);
        At { ptr: pointer_push(&self.ptr, key), span }
    }
    fn index(&self, i: usize, y: &Yaml) -> At {
        At { ptr: pointer_push(&self.ptr, &i.to_string()), span: y.span.or(self.span) }
    }
    fn key(&self, key: &str, m: &Map) -> At {
        let span = m.entry(key).and_then(|e| e.key_span).or(self.span);
        At { ptr: pointer_push(&self.ptr, key), span }
    }
}

impl Checker {
    fn push(&mut self, mut d: Diagnostic, at: &At) -> &mut Diagnostic {
        d.pointer = at.ptr.clone();
        d.span = at.span;
        self.out.push(d);
        let last = self.out.len() - 1;
        &mut self.out[last]
    }
    fn error(&mut self, code: &str, msg: String, at: &At) -> &mut Diagnostic {
        self.push(Diagnostic::error(code, msg), at)
    }
    fn warning(&mut self, code: &str, msg: String, at: &At) -> &mut Diagnostic {
        self.push(Diagnostic::warning(code, msg), at)
    }

    fn unknown_keys(&mut self, m: &Map, at: &At, known: &[&[&str]], what: &str) {
        for e in &m.entries {
            if !known.iter().any(|k| k.contains(&e.key.value.as_str())) {
                let a = at.key(&e.key.value, m);
                self.warning(
                    codes::UNKNOWN_FIELD,
                    format!(
                        "{what} has a field `{}` this editor does not know; it is kept as written",
                        e.key.value
                    ),
                    &a,
                );
            }
        }
    }

    fn string(&mut self, m: &Map, key: &str, at: &At, what: &str, required: bool) -> Option<String> {
        let a = at.child(key, m);
        match m.get(key) {
            None => {
                if required {
                    self.error(codes::MISSING_FIELD, format!("{what} needs `{key}`"), at);
                }
                None
            }
            Some(y) => match y.as_str() {
                Some(s) if !s.is_empty() => Some(s.to_owned()),
                _ => {
                    self.error(
                        codes::WRONG_TYPE,
                        format!("`{key}` of {what} must be a non-empty string, not {}", y.kind_word()),
                        &a,
                    );
                    None
                }
            },
        }
    }

    fn id_ref(&mut self, m: &Map, key: &str, at: &At, what: &str, required: bool) -> Option<String> {
        match m.get(key) {
            None => {
                if required {
                    self.error(codes::MISSING_FIELD, format!("{what} needs `{key}`"), at);
                }
                None
            }
            Some(y) => {
                let r = id_text(y);
                if r.is_none() {
                    let a = at.child(key, m);
                    self.error(
                        codes::WRONG_TYPE,
                        format!("`{key}` of {what} must be a node id, not {}", y.kind_word()),
                        &a,
                    );
                }
                r
            }
        }
    }

    fn uint(&mut self, m: &Map, key: &str, at: &At, what: &str, min: u64) -> Option<u64> {
        let y = m.get(key)?;
        let a = at.child(key, m);
        match y.as_scalar().map(|s| s.resolve()) {
            Some(Resolved::Int(n)) if n >= i128::from(min) => u64::try_from(n).ok().or_else(|| {
                self.error(codes::INVALID_VALUE, format!("`{key}` of {what} is too large"), &a);
                None
            }),
            Some(Resolved::Int(n)) => {
                self.error(
                    codes::INVALID_VALUE,
                    format!("`{key}` of {what} must be at least {min}, not {n}"),
                    &a,
                );
                None
            }
            _ => {
                self.error(
                    codes::WRONG_TYPE,
                    format!("`{key}` of {what} must be a whole number, not {}", shown(y)),
                    &a,
                );
                None
            }
        }
    }

    fn number(&mut self, m: &Map, key: &str, at: &At, what: &str, range: (f64, Option<f64>)) -> Option<f64> {
        let y = m.get(key)?;
        let a = at.child(key, m);
        let v = match y.as_scalar().map(|s| s.resolve()) {
            Some(Resolved::Int(n)) => n as f64,
            Some(Resolved::Float(f)) => f,
            _ => {
                self.error(
                    codes::WRONG_TYPE,
                    format!("`{key}` of {what} must be a number, not {}", shown(y)),
                    &a,
                );
                return None;
            }
        };
        let ok = v.is_finite() && v >= range.0 && range.1.is_none_or(|hi| v <= hi);
        if !ok {
            let want = match range.1 {
                Some(hi) => format!("between {} and {hi}", range.0),
                None => format!("a finite number of at least {}", range.0),
            };
            self.error(
                codes::INVALID_VALUE,
                format!(
                    "`{key}` of {what} must be {want}, not {}",
                    y.as_scalar().map_or("?", |s| s.value.as_str())
                ),
                &a,
            );
            return None;
        }
        Some(v)
    }

    fn map_field<'m>(&mut self, m: &'m Map, key: &str, at: &At, what: &str) -> Option<&'m Map> {
        let y = m.get(key)?;
        let r = y.as_map();
        if r.is_none() {
            let a = at.child(key, m);
            self.error(
                codes::WRONG_TYPE,
                format!("`{key}` of {what} must be a mapping, not {}", y.kind_word()),
                &a,
            );
        }
        r
    }

    fn document(&mut self, front: &Map, root: At) -> Topology {
        self.unknown_keys(front, &root, &[&TOP_KEYS], "the front matter");
        let name = self.string(front, "name", &root, "the graph", false);
        let (version, version_declared) = self.version(front, &root);
        let entry = self.id_ref(front, "entry", &root, "the graph", true);
        let exits = self.exits(front, &root);
        let budget = self.budget(front, &root);
        let state = self.state(front, &root);
        let nodes = self.nodes(front, &root, version, version_declared, &state);
        let edges = self.edges(front, &root);
        let t = Topology { name, version, version_declared, entry, exits, budget, state, nodes, edges };
        self.graph(front, &t, &root);
        t
    }

    fn version(&mut self, front: &Map, root: &At) -> (SpecVersion, bool) {
        let Some(y) = front.get("spec_version") else {
            self.warning(codes::MISSING_SPEC_VERSION, "no `spec_version`: the document is read with the v1.0.0 rules; declare `spec_version: \"1.1.0\"` (or \"1.0.0\")".to_owned(), root);
            return (SpecVersion::V1_0, false);
        };
        let a = root.child("spec_version", front);
        match y.as_str() {
            Some("1.0.0") => (SpecVersion::V1_0, true),
            Some("1.1.0") => (SpecVersion::V1_1, true),
            _ => {
                let shown =
                    y.as_scalar().map_or_else(|| y.kind_word().to_owned(), |s| format!("`{}`", s.value));
                self.error(
                    codes::UNKNOWN_SPEC_VERSION,
                    format!(
                        "`spec_version` must be one of \"{}\" (a quoted string), not {shown}",
                        SPEC_VERSIONS.join("\", \"")
                    ),
                    &a,
                );
                (SpecVersion::V1_0, false)
            }
        }
    }

    fn exits(&mut self, front: &Map, root: &At) -> Vec<String> {
        let a = root.child("exits", front);
        match front.get("exits").map(|y| &y.node) {
            None => {
                self.error(
                    codes::MISSING_FIELD,
                    "the graph needs `exits` (one or more node ids)".to_owned(),
                    root,
                );
                Vec::new()
            }
            Some(Node::Scalar(_)) => front.get("exits").and_then(id_text).map_or_else(
                || {
                    self.error(codes::WRONG_TYPE, "`exits` must be a list of node ids".to_owned(), &a);
                    Vec::new()
                },
                |s| vec![s],
            ),
            Some(Node::Seq(s)) => {
                if s.items.is_empty() {
                    self.error(codes::INVALID_VALUE, "`exits` must name at least one node".to_owned(), &a);
                }
                let mut out = Vec::new();
                for (i, item) in s.items.iter().enumerate() {
                    match id_text(item) {
                        Some(id) => out.push(id),
                        None => {
                            let ai = a.index(i, item);
                            self.error(
                                codes::WRONG_TYPE,
                                format!("`exits` entries must be node ids, not {}", item.kind_word()),
                                &ai,
                            );
                        }
                    }
                }
                out
            }
            Some(Node::Map(_)) => {
                self.error(
                    codes::WRONG_TYPE,
                    "`exits` must be a list of node ids, not a mapping".to_owned(),
                    &a,
                );
                Vec::new()
            }
        }
    }

    fn budget(&mut self, front: &Map, root: &At) -> Budget {
        let at = root.child("path_budget", front);
        let Some(m) = self.map_field(front, "path_budget", root, "the graph") else {
            return Budget::default();
        };
        self.unknown_keys(m, &at, &[&["cost_usd", "tokens"]], "`path_budget`");
        let cost_usd = self.number(m, "cost_usd", &at, "`path_budget`", (0.0, None));
        let tokens = self.uint(m, "tokens", &at, "`path_budget`", 0);
        Budget { cost_usd, tokens }
    }

    fn state(&mut self, front: &Map, root: &At) -> IndexMap<String, u64> {
        let at = root.child("state", front);
        let mut out = IndexMap::new();
        let Some(m) = self.map_field(front, "state", root, "the graph") else { return out };
        for e in &m.entries {
            let what = format!("state `{}`", e.key.value);
            let a = at.child(&e.key.value, m);
            let Some(sm) = e.value.as_map() else {
                self.error(
                    codes::WRONG_TYPE,
                    format!("{what} must be a mapping like `{{tokens: 200}}`, not {}", e.value.kind_word()),
                    &a,
                );
                continue;
            };
            self.unknown_keys(sm, &a, &[&["tokens", "description"]], &what);
            if sm.get("tokens").is_none() {
                self.error(codes::MISSING_FIELD, format!("{what} needs `tokens` (its token estimate)"), &a);
            }
            if let Some(t) = self.uint(sm, "tokens", &a, &what, 0) {
                out.insert(e.key.value.clone(), t);
            }
        }
        out
    }

    fn nodes(
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
    fn node(
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

    fn estimates(&mut self, m: &Map, a: &At, what: &str) -> Estimates {
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

    fn reads(&mut self, m: &Map, a: &At, what: &str, state: &IndexMap<String, u64>) -> Vec<String> {
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

    fn items(&mut self, m: &Map, key: &str, a: &At, what: &str) -> Option<Items> {
        let y = m.get(key)?;
        let ak = a.child(key, m);
        match &y.node {
            Node::Seq(s) => {
                let mut out = Vec::new();
                for (i, item) in s.items.iter().enumerate() {
                    match item.as_str() {
                        Some(t) => out.push(t.to_owned()),
                        None => {
                            let ai = ak.index(i, item);
                            self.error(
                                codes::WRONG_TYPE,
                                format!("`{key}` of {what} must list strings, not {}", item.kind_word()),
                                &ai,
                            );
                        }
                    }
                }
                if s.items.is_empty() {
                    self.error(codes::INVALID_VALUE, format!("`{key}` of {what} must not be empty"), &ak);
                    return None;
                }
                Some(Items::List(out))
            }
            _ => self.uint(m, key, a, what, 1).map(Items::Count),
        }
    }

    fn judge(&mut self, m: &Map, a: &At, what: &str, est: &Estimates) -> Option<Judge> {
        let seat = self.string(m, "seat", a, what, true);
        if let Some(s) = &seat {
            if !JUDGE_SEATS.contains(&s.as_str()) {
                let ak = a.child("seat", m);
                self.error(
                    codes::UNKNOWN_SEAT,
                    format!("{what} has seat `{s}`; expected one of {}", JUDGE_SEATS.join(", ")),
                    &ak,
                );
            }
        }
        let decision_model = self.string(m, "decision_model", a, what, true);
        if m.get("questions").is_none() {
            self.error(codes::MISSING_FIELD, format!("{what} needs `questions` (a count or a list)"), a);
        }
        let questions = self.items(m, "questions", a, what);
        let options = match (m.get("options_count").is_some(), m.get("options").is_some()) {
            (true, true) => {
                let ak = a.key("options", m);
                self.error(
                    codes::CONFLICTING_FIELDS,
                    format!("{what} gives both `options_count` and `options`; keep one"),
                    &ak,
                );
                None
            }
            (false, false) => {
                self.error(
                    codes::MISSING_FIELD,
                    format!("{what} needs `options_count` (or an `options` list)"),
                    a,
                );
                None
            }
            (true, false) => {
                if m.get("options_count").is_some_and(|y| y.as_seq().is_some()) {
                    let ak = a.child("options_count", m);
                    self.error(
                        codes::WRONG_TYPE,
                        format!("`options_count` of {what} is a count; write the list as `options`"),
                        &ak,
                    );
                    None
                } else {
                    self.uint(m, "options_count", a, what, 1).map(Items::Count)
                }
            }
            (false, true) => {
                match m.get("options").map(|y| &y.node) {
                    Some(Node::Seq(_)) => self.items(m, "options", a, what),
                    _ => {
                        let ak = a.child("options", m);
                        self.error(codes::WRONG_TYPE, format!("`options` of {what} must be a list of strings (use `options_count` for a count)"), &ak);
                        None
                    }
                }
            }
        };
        let top = m.get("state_tokens").is_some();
        let state_tokens = match (top, est.state_tokens) {
            (true, Some(_)) => {
                let ak = a.key("state_tokens", m);
                self.error(
                    codes::CONFLICTING_FIELDS,
                    format!("{what} gives `state_tokens` both at the top and under `estimates`; keep one"),
                    &ak,
                );
                None
            }
            (true, None) => self.uint(m, "state_tokens", a, what, 0),
            (false, Some(t)) => Some(t),
            (false, None) => {
                self.error(
                    codes::MISSING_FIELD,
                    format!("{what} needs `state_tokens` (or `estimates: {{state_tokens: N}}`)"),
                    a,
                );
                None
            }
        };
        if m.get("timeout_ms").is_none() {
            self.error(codes::MISSING_FIELD, format!("{what} needs `timeout_ms`"), a);
        }
        let timeout_ms = self.uint(m, "timeout_ms", a, what, 1);
        let fallback = self.id_ref(m, "fallback", a, what, true);
        let fires_on = self.fires_on(m, a, what);
        let confidence_threshold = self.number(m, "confidence_threshold", a, what, (0.0, Some(1.0)));
        Some(Judge {
            seat: seat?,
            decision_model: decision_model?,
            questions: questions?,
            options: options?,
            state_tokens: state_tokens?,
            timeout_ms: timeout_ms?,
            fallback: fallback?,
            fires_on: fires_on?,
            confidence_threshold,
        })
    }

    fn fires_on(&mut self, m: &Map, a: &At, what: &str) -> Option<Vec<String>> {
        let Some(y) = m.get("fires_on") else {
            self.error(
                codes::MISSING_FIELD,
                format!("{what} needs `fires_on` (an event name or a list of them)"),
                a,
            );
            return None;
        };
        let ak = a.child("fires_on", m);
        if let Some(s) = y.as_str().filter(|s| !s.is_empty()) {
            return Some(vec![s.to_owned()]);
        }
        let list: Option<Vec<String>> = y.as_seq().filter(|s| !s.items.is_empty()).and_then(|s| {
            s.items.iter().map(|i| i.as_str().filter(|t| !t.is_empty()).map(str::to_owned)).collect()
        });
        if list.is_none() {
            self.error(
                codes::WRONG_TYPE,
                format!("`fires_on` of {what} must be an event name or a non-empty list of event names"),
                &ak,
            );
        }
        list
    }

    fn edges(&mut self, front: &Map, root: &At) -> Vec<EdgeInfo> {
        let at = root.child("edges", front);
        let mut out = Vec::new();
        let items = match front.get("edges").map(|y| &y.node) {
            None => return out,
            Some(Node::Seq(s)) => &s.items,
            Some(_) => {
                let w = front.get("edges").map_or("?", Yaml::kind_word);
                self.error(
                    codes::WRONG_TYPE,
                    format!("`edges` must be a list of `{{from, to, ...}}` mappings, not {w}"),
                    &at,
                );
                return out;
            }
        };
        let mut ids: HashMap<String, usize> = HashMap::new();
        for (i, item) in items.iter().enumerate() {
            let a = at.index(i, item);
            let Some(m) = item.as_map() else {
                self.error(
                    codes::WRONG_TYPE,
                    format!("edge {i} must be a mapping with `from` and `to`, not {}", item.kind_word()),
                    &a,
                );
                continue;
            };
            let what = format!("edge {i}");
            let n0 = self.out.len();
            self.unknown_keys(m, &a, &[&EDGE_KEYS], &what);
            let id = self.id_ref(m, "id", &a, &what, false);
            if let Some(id) = &id {
                if let Some(first) = ids.insert(id.clone(), i) {
                    let ai = a.child("id", m);
                    self.error(
                        codes::DUPLICATE_EDGE_ID,
                        format!("edge id `{id}` is used by edges {first} and {i}"),
                        &ai,
                    );
                }
            }
            let from = self.id_ref(m, "from", &a, &what, true);
            let to = self.id_ref(m, "to", &a, &what, true);
            let kind_text = self.string(m, "kind", &a, &what, false);
            let kind = match kind_text.as_deref() {
                None | Some("sequential") => Some(EdgeKind::Sequential),
                Some("conditional") => Some(EdgeKind::Conditional),
                Some("parallel") => Some(EdgeKind::Parallel),
                Some("loop") => Some(EdgeKind::Loop),
                Some(k) => {
                    let ak = a.child("kind", m);
                    self.error(
                        codes::UNKNOWN_EDGE_KIND,
                        format!("{what} has kind `{k}`; expected one of {}", EDGE_KINDS.join(", ")),
                        &ak,
                    );
                    None
                }
            };
            let condition = match m.get("condition") {
                None => None,
                Some(y) => match &y.node {
                    Node::Scalar(_) if y.as_str().is_some_and(|s| !s.trim().is_empty()) => {
                        y.as_str().map(str::to_owned)
                    }
                    Node::Map(cm) if !cm.entries.is_empty() => {
                        let mut text = String::new();
                        let mut flow = y.clone();
                        flow.forget_source();
                        if let Node::Map(fm) = &mut flow.node {
                            fm.flow = true;
                        }
                        let mut wrapper = Map::new();
                        wrapper.set("c", flow);
                        text.push_str(
                            crate::graphmd::emit::emit_document(&wrapper, "\n")
                                .trim_start_matches("c: ")
                                .trim_end(),
                        );
                        Some(text)
                    }
                    _ => {
                        let ac = a.child("condition", m);
                        self.error(
                            codes::WRONG_TYPE,
                            format!(
                                "`condition` of {what} must be a non-empty string or mapping, not {}",
                                y.kind_word()
                            ),
                            &ac,
                        );
                        None
                    }
                },
            };
            if kind == Some(EdgeKind::Conditional) && condition.is_none() && m.get("condition").is_none() {
                self.error(
                    codes::MISSING_CONDITION,
                    format!("{what} is conditional but has no `condition`"),
                    &a,
                );
            }
            if kind.is_some_and(|k| k != EdgeKind::Conditional) && m.get("condition").is_some() {
                let ac = a.key("condition", m);
                self.warning(
                    codes::UNUSED_EDGE_FIELD,
                    format!("{what} is not conditional; its `condition` is ignored"),
                    &ac,
                );
            }
            let max_iterations = self.bounds(m, &a, &what, kind);
            for d in &mut self.out[n0..] {
                d.element.get_or_insert(trellis_spec::Element::Edge {
                    index: i,
                    from: from.clone().unwrap_or_default(),
                    to: to.clone().unwrap_or_default(),
                });
            }
            if let (Some(from), Some(to), Some(kind)) = (from, to, kind) {
                out.push(EdgeInfo { index: i, id, from, to, kind, condition, max_iterations });
            }
        }
        out
    }

    fn bounds(&mut self, m: &Map, a: &At, what: &str, kind: Option<EdgeKind>) -> Option<u64> {
        let ab = a.child("bounds", m);
        let is_loop = kind == Some(EdgeKind::Loop);
        if !is_loop {
            if m.get("bounds").is_some() && kind.is_some() {
                let ak = a.key("bounds", m);
                self.warning(
                    codes::UNUSED_EDGE_FIELD,
                    format!("{what} is not a loop; its `bounds` are ignored"),
                    &ak,
                );
            }
            return None;
        }
        if m.get("bounds").is_none() {
            self.error(
                codes::UNBOUNDED_LOOP,
                format!(
                    "{what} is a loop without a bound; add `bounds: {{max_iterations: N}}` (N at least 1)"
                ),
                a,
            );
            return None;
        }
        let b = self.map_field(m, "bounds", a, what)?;
        self.unknown_keys(b, &ab, &[&["max_iterations"]], &format!("the bounds of {what}"));
        if b.get("max_iterations").is_none() {
            self.error(
                codes::UNBOUNDED_LOOP,
                format!("{what} is a loop whose `bounds` have no `max_iterations`"),
                &ab,
            );
            return None;
        }
        self.uint(b, "max_iterations", &ab, &format!("the bounds of {what}"), 1)
    }

    /// The rules about the graph as a whole: references, reachability, cycles.
    fn graph(&mut self, front: &Map, t: &Topology, root: &At) {
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

    fn cycles_and_reach(
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
            if s != h && !super::digraph::reaches(&fwd, h, s) {
                self.warning(codes::LOOP_NOT_A_CYCLE, format!("loop edge {} goes from `{}` back to `{}`, but `{}` does not lead to `{}`: it closes no cycle and is analysed as a plain edge", e.index, e.from, e.to, e.to, e.from), &edge_at(e.index, "to")).element =
                    Some(trellis_spec::Element::Edge { index: e.index, from: e.from.clone(), to: e.to.clone() });
                plain_loops.push((s, h, e.index));
            }
        }
        for (s, h, i) in plain_loops {
            fwd[s].push((h, i));
        }
        if let Some(cycle) = super::digraph::find_cycle(&fwd) {
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
        let seen = super::digraph::reached_from(&all, entry);
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

/// A value for a message: a scalar's text in backquotes, otherwise its kind.
fn shown(y: &Yaml) -> String {
    match y.as_scalar() {
        Some(s) if s.value.chars().count() <= 40 => format!("`{}`", s.value),
        _ => y.kind_word().to_owned(),
    }
}
