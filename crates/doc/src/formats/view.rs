//! What the app shows of a Weaveflow or GRAPH.md document besides its diagnostics: the
//! format's own fields, and a GraphSpec-shaped projection the canvas draws (same node ids,
//! edges in the document's order so an edge index means the same edge in both).

use std::borrow::Cow;

use serde::Serialize;
use serde_json::{Map, Value};
use trellis_formats::graphmd::paths::{self, Analysis};
use trellis_formats::graphmd::{self, GraphMd, Topology};
use trellis_formats::weaveflow::generation::Generation;
use trellis_formats::weaveflow::WeaveflowDoc;
use trellis_spec::{EdgeSpec, GraphSpec, NodeSpec};
use ts_rs::TS;

use super::graphmd::map_to_json;
use crate::document::Document;

/// A Weaveflow document for the inspector and the canvas marks.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct WeaveflowView {
    /// The Graph Definition as the document holds it (JSON, the file's key order).
    #[ts(type = "Record<string, unknown>")]
    pub definition: Value,
    /// `entry_point` ("" when absent).
    pub entry_point: String,
    /// `finish_point` ("" when absent).
    pub finish_point: String,
    /// Which generation of the definition this is, told from the document's own keys
    /// (`state_modules` or `state_schema`, and `version`).
    pub generation: String,
    /// The file around the definition, when it is a Workbench export bundle or an upload
    /// envelope.
    #[ts(optional)]
    #[serde(skip_serializing_if = "Option::is_none")]
    pub transfer: Option<TransferView>,
}

/// A transfer file around a Weaveflow definition, as the inspector tells it.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct TransferView {
    /// What the file is ("a Weaveflow Workbench export bundle").
    pub kind: String,
    /// The file's other parts, kept byte for byte (`settings`, `triggers`, ...).
    pub kept: Vec<String>,
    /// Where positions are written (`ui.web` in a bundle, the definition's `metadata.web`
    /// otherwise).
    pub positions_in: String,
}

/// A GRAPH.md document for the inspector, the canvas marks and the path panel.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct GraphMdView {
    /// The front matter as JSON (YAML 1.2 core schema), in the author's key order.
    #[ts(type = "Record<string, unknown>")]
    pub front: Value,
    /// The Markdown body, byte for byte.
    pub body: String,
    /// The typed reading (kinds, judges, edge kinds, entry, exits, budget).
    pub topology: Topology,
    /// The path analysis (tokens, cost, latency per path; over-budget paths).
    pub analysis: Analysis,
}

impl WeaveflowView {
    pub fn of(d: &WeaveflowDoc) -> WeaveflowView {
        let transfer = d.transfer().map(|t| TransferView {
            kind: t.kind.describe().to_owned(),
            kept: d
                .value()
                .as_object()
                .map(|o| {
                    o.keys().filter(|k| *k != "definition" && !(t.web_in_ui && *k == "ui")).cloned().collect()
                })
                .unwrap_or_default(),
            positions_in: if t.web_in_ui { "ui.web" } else { "definition.metadata.web" }.to_owned(),
        });
        WeaveflowView {
            definition: d.definition_value().clone(),
            entry_point: d.definition().entry_point.clone(),
            finish_point: d.definition().finish_point.clone(),
            generation: Generation::of(d.definition_value()).describe().to_owned(),
            transfer,
        }
    }
}

impl GraphMdView {
    pub fn of(d: &GraphMd) -> GraphMdView {
        let (topology, diagnostics) = graphmd::check(d);
        let analysis = paths::analyse(&topology, &diagnostics, None);
        GraphMdView { front: Value::Object(map_to_json(&d.front)), body: d.body.clone(), topology, analysis }
    }
}

/// The canvas projection: nodes with their type (Weaveflow `type`, GRAPH.md `kind`) and their
/// config (GRAPH.md: the node's fields but `id`), edges one for one. `None` for a GraphSpec
/// (the document is its own projection).
pub fn display_spec(document: &Document) -> Option<GraphSpec> {
    match document {
        Document::GraphSpec(_) => None,
        Document::Weaveflow(d) => {
            let def = d.definition();
            Some(GraphSpec {
                name: (!def.name.is_empty()).then(|| def.name.clone()),
                nodes: def
                    .nodes
                    .iter()
                    .map(|n| NodeSpec {
                        id: n.id.clone().into(),
                        type_name: Some(n.type_name.clone().into()),
                        config: n.config.clone().into(),
                    })
                    .collect(),
                edges: def
                    .edges
                    .iter()
                    .map(|e| EdgeSpec { from: e.from.clone().into(), to: e.to.clone().into(), when: None })
                    .collect(),
                ..GraphSpec::default()
            })
        }
        Document::GraphMd(d) => {
            let (t, _) = graphmd::check(d);
            let nodes = d
                .node_maps()
                .map(|(_, m)| {
                    let mut config: Map<String, Value> = map_to_json(m);
                    let id = config.shift_remove("id").map(|v| match v {
                        Value::String(s) => s,
                        other => other.to_string(),
                    });
                    let kind = config.get("kind").and_then(Value::as_str).map(str::to_owned);
                    NodeSpec {
                        id: id.unwrap_or_default().into(),
                        type_name: kind.map(trellis_spec::Id::from),
                        config: config.into(),
                    }
                })
                .collect();
            let edges = d
                .edge_maps()
                .map(|(_, m)| {
                    let end = |k: &str| m.get(k).and_then(graphmd::model::id_text).unwrap_or_default();
                    EdgeSpec { from: end("from").into(), to: end("to").into(), when: None }
                })
                .collect();
            Some(GraphSpec { name: t.name, nodes, edges, ..GraphSpec::default() })
        }
    }
}

/// The graph the canvas draws of a document: a GraphSpec itself, or the projection of the
/// other formats (`display_spec`).
pub(crate) fn canvas_spec(document: &Document) -> Cow<'_, GraphSpec> {
    match document {
        Document::GraphSpec(spec) => Cow::Borrowed(spec),
        other => Cow::Owned(display_spec(other).unwrap_or_default()),
    }
}
