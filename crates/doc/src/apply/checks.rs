//! The checks GraphSpec edits share: a node that must exist or an id that must be free, a
//! reducer that can be stored, an edge's ends and an edge that must exist.

use trellis_spec::diagnostic::Diagnostic;
use trellis_spec::{EdgeSpec, GraphSpec, Predicate, ReducerName, END, START};

use crate::refusal::{codes, refuse};

pub(super) fn node_index(spec: &GraphSpec, id: &str) -> Result<usize, Diagnostic> {
    spec.nodes
        .iter()
        .position(|n| n.id == id)
        .ok_or_else(|| refuse(codes::UNKNOWN_NODE, format!("there is no node \"{id}\"")).on_node(id))
}

pub(super) fn check_new_id(spec: &GraphSpec, id: &str) -> Result<(), Diagnostic> {
    if id.is_empty() {
        return Err(refuse(codes::EMPTY_NAME, "a node id cannot be empty"));
    }
    if id == START || id == END {
        return Err(refuse(codes::RESERVED_ID, format!("\"{id}\" is reserved and implicit")));
    }
    if spec.nodes.iter().any(|n| n.id == id) {
        return Err(refuse(codes::NODE_EXISTS, format!("a node \"{id}\" already exists")).on_node(id));
    }
    Ok(())
}

pub(super) fn check_reducer(r: &ReducerName) -> Result<(), Diagnostic> {
    match r {
        ReducerName::Unknown(s) => Err(refuse(
            codes::UNKNOWN_REDUCER,
            format!("unknown reducer \"{s}\"; the stored reducers are last_write, append and merge"),
        )),
        _ => Ok(()),
    }
}

pub(super) fn edge_exists(spec: &GraphSpec, from: &str, to: &str, when: Option<&Predicate>) -> bool {
    spec.edges.iter().any(|e| e.from == from && e.to == to && e.when.as_ref() == when)
}

/// The one home of the rules on a new edge's ends: the canvas's drag, the keyboard's connect
/// and any other caller send `connect` and show the refusal's message.
pub(super) fn check_edge_ends(
    spec: &GraphSpec,
    from: &str,
    to: &str,
    when: Option<&Predicate>,
) -> Result<(), Diagnostic> {
    if to == START {
        return Err(refuse(
            codes::EDGE_INTO_START,
            format!("nothing can connect into \"{START}\" (from \"{from}\"): it is where the graph begins"),
        ));
    }
    if from == END {
        return Err(refuse(
            codes::EDGE_OUT_OF_END,
            format!("nothing can leave \"{END}\" (to \"{to}\"): it is where the graph ends"),
        ));
    }
    if from == START && to == END && when.is_none() {
        return Err(refuse(
            codes::EDGE_START_TO_END,
            format!("\"{START}\" straight to \"{END}\" would be an empty graph"),
        ));
    }
    for end in [from, to] {
        if end != START && end != END && !spec.nodes.iter().any(|n| n.id == end) {
            return Err(refuse(codes::UNKNOWN_NODE, format!("there is no node \"{end}\" to connect")));
        }
    }
    Ok(())
}

pub(super) fn edge_at(spec: &GraphSpec, index: usize) -> Result<&EdgeSpec, Diagnostic> {
    spec.edges.get(index).ok_or_else(|| {
        refuse(
            codes::UNKNOWN_EDGE,
            format!("there is no edge {index} (the document has {})", spec.edges.len()),
        )
    })
}
