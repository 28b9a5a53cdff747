//! The typed reading of a GRAPH.md front matter ([`Topology`]): what validation builds on its
//! way through the rules, and what path analysis and conversion read.

use indexmap::IndexMap;

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
