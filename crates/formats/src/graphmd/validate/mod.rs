//! The GRAPH.md rules (`docs/graphmd.md`): one pass over the front matter tree that collects
//! every problem (never first-only) and, on the way, builds the typed [`Topology`] that path
//! analysis and conversion use.
//!
//! One concern a file: the field readers every rule uses (`checker`), the top-level fields
//! (`front`), the nodes (`nodes`) and the judges' own fields (`judge`), the edges (`edges`),
//! and the graph as a whole: references, cycles, reachability (`graph`).

mod checker;
pub mod codes;
mod edges;
mod front;
mod graph;
mod judge;
mod nodes;

use crate::graphmd::model::GraphMd;
pub use crate::graphmd::topology::{
    Budget, EdgeInfo, EdgeKind, Estimates, Items, Judge, NodeInfo, SpecVersion, Topology,
};
use checker::{At, Checker};
use trellis_spec::{Diagnostic, Span};

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
