//! The rules on the front matter's top-level fields: the version, the entry and exits, the
//! path budget and the declared state. [`Checker::document`] runs every rule in order.

use super::checker::{At, Checker};
use super::codes;
use crate::graphmd::model::{id_text, SPEC_VERSIONS};
use crate::graphmd::topology::{Budget, SpecVersion, Topology};
use crate::graphmd::yaml::{Map, Node};
use indexmap::IndexMap;

const TOP_KEYS: [&str; 9] =
    ["name", "spec_version", "entry", "exits", "path_budget", "state", "nodes", "edges", "description"];

impl Checker {
    pub(super) fn document(&mut self, front: &Map, root: At) -> Topology {
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

    pub(super) fn version(&mut self, front: &Map, root: &At) -> (SpecVersion, bool) {
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

    pub(super) fn exits(&mut self, front: &Map, root: &At) -> Vec<String> {
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

    pub(super) fn budget(&mut self, front: &Map, root: &At) -> Budget {
        let at = root.child("path_budget", front);
        let Some(m) = self.map_field(front, "path_budget", root, "the graph") else {
            return Budget::default();
        };
        self.unknown_keys(m, &at, &[&["cost_usd", "tokens"]], "`path_budget`");
        let cost_usd = self.number(m, "cost_usd", &at, "`path_budget`", (0.0, None));
        let tokens = self.uint(m, "tokens", &at, "`path_budget`", 0);
        Budget { cost_usd, tokens }
    }

    pub(super) fn state(&mut self, front: &Map, root: &At) -> IndexMap<String, u64> {
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
}
