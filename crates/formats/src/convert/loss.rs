//! The loss report of a conversion.

use serde::{Deserialize, Serialize};
use trellis_spec::{Diagnostic, Element};

/// Codes of conversion losses (listed in `docs/diagnostics.md`).
pub mod codes {
    /// Weaveflow graph `description` (GraphSpec has none).
    pub const DESCRIPTION: &str = "convert/description";
    /// Weaveflow `state_modules` (GraphSpec declares channels instead).
    pub const STATE_MODULES: &str = "convert/state-modules";
    /// A Weaveflow node's `name` or `description`.
    pub const NODE_LABEL: &str = "convert/node-label";
    /// A Weaveflow node's state bindings (port -> path).
    pub const STATE_BINDINGS: &str = "convert/state-bindings";
    /// A binding reducer (`sum.v1`) or a GraphSpec channel reducer with no equivalent.
    pub const REDUCER: &str = "convert/reducer";
    /// A node or graph execution policy / limits.
    pub const POLICY: &str = "convert/policy";
    /// A failure route (dropped: GraphSpec has no error routing).
    pub const FAILURE_ROUTE: &str = "convert/failure-route";
    /// The `finish_point` marker.
    pub const FINISH_POINT: &str = "convert/finish-point";
    /// `metadata` (node positions and application data).
    pub const METADATA: &str = "convert/metadata";
    /// A condition or predicate that has no equivalent in the target; the edge became
    /// unconditional.
    pub const CONDITION: &str = "convert/condition";
    /// A condition translated with a difference in meaning that the report spells out.
    pub const CONDITION_APPROXIMATE: &str = "convert/condition-approximate";
    /// Weaveflow's default ("else") edge versus GraphSpec's "every true guard and every static
    /// edge fires".
    pub const DEFAULT_EDGE: &str = "convert/default-edge";
    /// Guards that can be true together (Weaveflow takes one branch, GraphSpec all).
    pub const GUARD_OVERLAP: &str = "convert/guard-overlap";
    /// A node type with no equivalent in the target (`subgraph`; a GraphSpec type Weaveflow
    /// does not have).
    pub const NODE_TYPE: &str = "convert/node-type";
    /// The entry: no entry point, a conditional entry edge, or several entry edges (a fan-out
    /// node was added).
    pub const ENTRY: &str = "convert/entry";
    /// A GraphSpec channel that no binding carries.
    pub const CHANNEL: &str = "convert/channel";
    /// An edge the target refuses (a duplicate from/to pair).
    pub const EDGE: &str = "convert/edge";
    /// An edge the conversion added that the source did not have (Weaveflow's required default
    /// edge, or the edge to its end that a GraphSpec branch leaves implicit).
    pub const ADDED_EDGE: &str = "convert/added-edge";
}

/// One thing the target format cannot hold exactly.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Loss {
    /// A code from [`codes`].
    pub code: String,
    /// What is lost or changed, naming the ids.
    pub message: String,
    /// Where in the *source* document (JSON Pointer).
    pub pointer: String,
    /// The source element it is about.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub element: Option<Element>,
}

impl Loss {
    pub fn new(code: &str, pointer: impl Into<String>, message: impl Into<String>) -> Self {
        Loss { code: code.to_owned(), message: message.into(), pointer: pointer.into(), element: None }
    }
    pub fn on(mut self, element: Element) -> Self {
        self.element = Some(element);
        self
    }
    pub fn on_node(self, id: &str) -> Self {
        self.on(Element::Node { id: id.to_owned() })
    }
    pub fn on_edge(self, index: usize, from: &str, to: &str) -> Self {
        self.on(Element::Edge { index, from: from.to_owned(), to: to.to_owned() })
    }
    /// As a warning diagnostic (for a problems panel or `trellis convert`).
    pub fn to_diagnostic(&self) -> Diagnostic {
        let mut d = Diagnostic::warning(&self.code, self.message.clone()).at(self.pointer.clone());
        d.element = self.element.clone();
        d
    }
}

/// A converted document and what it lost.
#[derive(Debug, Clone)]
pub struct Conversion<T> {
    pub output: T,
    pub losses: Vec<Loss>,
}

impl<T> Conversion<T> {
    /// True when the output holds everything the input said.
    pub fn is_lossless(&self) -> bool {
        self.losses.is_empty()
    }
}
