//! The rules on the `edges` list: ids, ends, kinds, a conditional edge's condition and a loop
//! edge's bounds.

use super::checker::{At, Checker};
use super::codes;
use crate::graphmd::model::EDGE_KINDS;
use crate::graphmd::topology::{EdgeInfo, EdgeKind};
use crate::graphmd::yaml::{Map, Node, Yaml};
use std::collections::HashMap;

const EDGE_KEYS: [&str; 7] = ["id", "from", "to", "kind", "condition", "bounds", "description"];

impl Checker {
    pub(super) fn edges(&mut self, front: &Map, root: &At) -> Vec<EdgeInfo> {
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

    pub(super) fn bounds(&mut self, m: &Map, a: &At, what: &str, kind: Option<EdgeKind>) -> Option<u64> {
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
}
