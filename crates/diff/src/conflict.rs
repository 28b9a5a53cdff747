//! A merge's conflicts: which element, why, and the three values; and where they are collected
//! while one element is merged (read by the graph merge and the layout merge alike).

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The element a conflict is in.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Element {
    /// The graph-level fields (name, entry, budgets...).
    Graph,
    Channel {
        name: String,
    },
    Node {
        id: String,
    },
    Edge {
        from: String,
        to: String,
        nth: usize,
    },
    /// GRAPH.md's Markdown body.
    Body,
}

/// Why two sides could not be merged.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Reason {
    /// Both sides changed the value, differently.
    BothChanged,
    /// Both sides added it, with different values.
    BothAdded,
    /// One side changed what the other deleted.
    ChangedAndDeleted,
    /// The merged document does not validate (an edge to a node the other side deleted).
    Invalid,
}

/// One conflict: where, why, and the three values (absent where that side has none).
/// Read back by the app from the conflict report (`NAME.conflicts.json`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Conflict {
    pub element: Element,
    /// Relative to the element (`/config/model`; `""` for the whole element).
    pub pointer: String,
    pub reason: Reason,
    /// One sentence for people.
    pub message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub base: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ours: Option<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub theirs: Option<Value>,
}

/// Where conflicts go while merging one element.
pub(crate) struct Cx<'a> {
    pub element: Element,
    pub out: &'a mut Vec<Conflict>,
}

impl Cx<'_> {
    pub fn conflict(&mut self, at: &str, base: Option<&Value>, ours: Option<&Value>, theirs: Option<&Value>) {
        let reason = match (base, ours, theirs) {
            (_, None, _) | (_, _, None) => Reason::ChangedAndDeleted,
            (None, _, _) => Reason::BothAdded,
            _ => Reason::BothChanged,
        };
        let what = describe(&self.element, at);
        let message = match reason {
            Reason::ChangedAndDeleted if ours.is_none() => {
                format!("{what} was deleted on our side and changed on theirs")
            }
            Reason::ChangedAndDeleted => format!("{what} was changed on our side and deleted on theirs"),
            Reason::BothAdded => format!("{what} was added on both sides with different values"),
            _ => format!("{what} was changed on both sides to different values"),
        };
        self.out.push(Conflict {
            element: self.element.clone(),
            pointer: at.to_owned(),
            reason,
            message,
            base: base.cloned(),
            ours: ours.cloned(),
            theirs: theirs.cloned(),
        });
    }
}

/// "node \"answer\" field /config/model" and the like.
pub fn describe(element: &Element, at: &str) -> String {
    let el = match element {
        Element::Graph => return format!("the graph field {at}"),
        Element::Channel { name } => format!("channel \"{name}\""),
        Element::Node { id } => format!("node \"{id}\""),
        Element::Edge { from, to, nth } if *nth == 0 => format!("the edge {from} -> {to}"),
        Element::Edge { from, to, nth } => format!("edge #{} {from} -> {to}", nth + 1),
        Element::Body => return "the Markdown body".to_owned(),
    };
    if at.is_empty() {
        el
    } else {
        format!("{el}, field {at}")
    }
}
