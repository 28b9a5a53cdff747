//! Subgraph references: which nodes of a document stand for another graph, and how each names
//! it. Pure: finding the file, reading it and following its own references is
//! `trellis_doc::subgraphs`'s job (it has the file system).
//!
//! * Weaveflow: a node of type `subgraph` names its graph in `config.graph_ref` (a string the
//!   runtime trims and requires; `node/subgraph.go` in the Weaveflow source).
//! * GRAPH.md: a node of kind `subgraph` may carry `ref` (a string; optional, see
//!   docs/graphmd.md §4).

use crate::graphmd::model::id_text;
use crate::graphmd::GraphMd;
use crate::weaveflow::GraphDefinition;

/// The node type (Weaveflow) or kind (GRAPH.md) of a subgraph node.
pub const SUBGRAPH: &str = "subgraph";
/// The config key of a Weaveflow subgraph node that names the graph.
pub const WEAVEFLOW_REF_KEY: &str = "graph_ref";
/// The field of a GRAPH.md subgraph node that names the graph.
pub const GRAPHMD_REF_KEY: &str = "ref";

/// One subgraph node and the reference it holds.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct SubgraphRef {
    /// The node's id.
    pub node: String,
    /// The reference as written, trimmed; `None` when the node names no graph (the field is
    /// absent, empty, or not a string).
    pub reference: Option<String>,
    /// JSON Pointer to the reference field (or to the node when there is none).
    pub pointer: String,
}

/// The subgraph nodes of a Weaveflow definition, in document order.
pub fn weaveflow_refs(def: &GraphDefinition) -> Vec<SubgraphRef> {
    def.nodes
        .iter()
        .enumerate()
        .filter(|(_, n)| n.type_name.trim() == SUBGRAPH)
        .map(|(i, n)| {
            let reference = n
                .config
                .get(WEAVEFLOW_REF_KEY)
                .and_then(serde_json::Value::as_str)
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(str::to_owned);
            let pointer = if n.config.contains_key(WEAVEFLOW_REF_KEY) {
                format!("/nodes/{i}/config/{WEAVEFLOW_REF_KEY}")
            } else {
                format!("/nodes/{i}")
            };
            SubgraphRef { node: n.id.clone(), reference, pointer }
        })
        .collect()
}

/// The subgraph nodes of a GRAPH.md document, in document order (nodes without an id are
/// skipped: the validator reports them, and nothing on the canvas could show the result).
pub fn graphmd_refs(doc: &GraphMd) -> Vec<SubgraphRef> {
    doc.node_maps()
        .filter(|(_, m)| m.get("kind").and_then(|k| k.as_str()).map(str::trim) == Some(SUBGRAPH))
        .filter_map(|(i, m)| {
            let node = m.get("id").and_then(id_text)?;
            let field = m.get(GRAPHMD_REF_KEY);
            let reference =
                field.and_then(|y| y.as_str()).map(str::trim).filter(|s| !s.is_empty()).map(str::to_owned);
            let pointer =
                if field.is_some() { format!("/nodes/{i}/{GRAPHMD_REF_KEY}") } else { format!("/nodes/{i}") };
            Some(SubgraphRef { node, reference, pointer })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weaveflow_graph_ref_is_read_trimmed_from_config() {
        let text = r#"{"version":"1.0","state_modules":[{"name":"m","version":"1"}],"nodes":[
            {"id":"a","name":"a","type":"llm_turn","state":{}},
            {"id":"b","name":"b","type":"subgraph","config":{"graph_ref":"  child.json "},"state":{}},
            {"id":"c","name":"c","type":"subgraph","config":{"graph_ref":7},"state":{}},
            {"id":"d","name":"d","type":"subgraph","state":{}}]}"#;
        let doc = crate::weaveflow::parse(text).doc.expect("parses");
        let refs = weaveflow_refs(doc.definition());
        let got: Vec<_> =
            refs.iter().map(|r| (r.node.as_str(), r.reference.as_deref(), r.pointer.as_str())).collect();
        assert_eq!(
            got,
            [
                ("b", Some("child.json"), "/nodes/1/config/graph_ref"),
                ("c", None, "/nodes/2/config/graph_ref"),
                ("d", None, "/nodes/3"),
            ]
        );
    }

    #[test]
    fn graphmd_ref_is_read_from_subgraph_nodes_only() {
        let text = "---\nname: p\nnodes:\n  - id: a\n    kind: agent\n    ref: nope.md\n  - id: b\n    kind: subgraph\n    ref: ../child/GRAPH.md\n  - id: c\n    kind: subgraph\n  - id: 9\n    kind: subgraph\n    ref: \"\"\nedges: []\n---\n";
        let doc = crate::graphmd::read(text).doc.expect("reads");
        let refs = graphmd_refs(&doc);
        let got: Vec<_> =
            refs.iter().map(|r| (r.node.as_str(), r.reference.as_deref(), r.pointer.as_str())).collect();
        assert_eq!(
            got,
            [
                ("b", Some("../child/GRAPH.md"), "/nodes/1/ref"),
                ("c", None, "/nodes/2"),
                ("9", None, "/nodes/3/ref")
            ]
        );
    }
}
