//! Why an edit is refused: the codes every format's edit handler answers with (GraphSpec:
//! `apply/`; Weaveflow and GRAPH.md: `formats/`), and the checks they share. A refused edit
//! changes nothing.

use trellis_spec::Diagnostic;

use crate::edit::Position;

/// Diagnostic codes of refused edits, in every format.
pub mod codes {
    /// An edit named a node id that does not exist.
    pub const UNKNOWN_NODE: &str = "doc/unknown-node";
    /// An edit would create a second node with an existing id.
    pub const NODE_EXISTS: &str = "doc/node-exists";
    /// An edit used `__start__` or `__end__` as a node id.
    pub const RESERVED_ID: &str = "doc/reserved-id";
    /// An empty node id, channel name or type name.
    pub const EMPTY_NAME: &str = "doc/empty-name";
    /// An edge into `__start__`.
    pub const EDGE_INTO_START: &str = "doc/edge-into-start";
    /// An edge out of `__end__`.
    pub const EDGE_OUT_OF_END: &str = "doc/edge-out-of-end";
    /// An unconditional edge from `__start__` straight to `__end__` (an empty graph).
    pub const EDGE_START_TO_END: &str = "doc/edge-start-to-end";
    /// The same edge (same ends and same `when`) already exists.
    pub const DUPLICATE_EDGE: &str = "doc/duplicate-edge";
    /// An edge index out of range.
    pub const UNKNOWN_EDGE: &str = "doc/unknown-edge";
    /// An edit named a channel that is not declared.
    pub const UNKNOWN_CHANNEL: &str = "doc/unknown-channel";
    /// An edit would declare a channel twice.
    pub const CHANNEL_EXISTS: &str = "doc/channel-exists";
    /// A channel that edge predicates read cannot be removed (the message names the edges).
    pub const CHANNEL_IN_USE: &str = "doc/channel-in-use";
    /// A reducer other than `last_write`, `append`, `merge`.
    pub const UNKNOWN_REDUCER: &str = "doc/unknown-reducer";
    /// A config field path that is not a JSON Pointer into the config, or crosses a scalar.
    pub const BAD_CONFIG_PATH: &str = "doc/bad-config-path";
    /// A position that is not a pair of finite numbers.
    pub const BAD_POSITION: &str = "doc/bad-position";
    /// A pasted fragment that is not GraphSpec-shaped.
    pub const BAD_FRAGMENT: &str = "doc/bad-fragment";
    /// Paste gave clashing ids fresh ones (info, names them).
    pub const PASTE_RENAMED: &str = "doc/paste-renamed";
    /// Paste dropped edges whose ends are neither pasted nor in the document (info).
    pub const PASTE_DROPPED_EDGES: &str = "doc/paste-dropped-edges";
    /// A node was added with a config naming channels the document did not declare: they were
    /// declared in the same step (info, names them).
    pub const DECLARED_CHANNELS: &str = "doc/declared-channels";
    /// The first node of an empty graph was connected from the start in the same step (info).
    pub const CONNECTED_START: &str = "doc/connected-start";

    /// The edit has no meaning in this document's format (channels in Weaveflow, a Markdown
    /// body in a GraphSpec, ...); nothing changed.
    pub const UNSUPPORTED_EDIT: &str = "doc/unsupported-edit";
    /// A field name the format does not have, or one that is set by another edit.
    pub const UNKNOWN_FIELD: &str = "doc/unknown-field";
    /// A value of the wrong shape for the field (the message says what was expected).
    pub const BAD_VALUE: &str = "doc/bad-value";
}

pub(crate) fn refuse(code: &str, message: impl Into<String>) -> Diagnostic {
    Diagnostic::error(code, message)
}

/// Checks a position before it is stored.
pub(crate) fn check_position(id: &str, p: &Position) -> Result<(), Diagnostic> {
    if p.x.is_finite() && p.y.is_finite() {
        Ok(())
    } else {
        Err(refuse(codes::BAD_POSITION, format!("the position of \"{id}\" is not a pair of finite numbers")))
    }
}

/// Why a `replace_document` text was refused: its first error.
pub(crate) fn replacement_unreadable(ds: Vec<Diagnostic>) -> Diagnostic {
    let first = ds.into_iter().find(Diagnostic::is_error).map(|d| d.message).unwrap_or_default();
    refuse(codes::BAD_VALUE, format!("the replacement document does not read: {first}"))
}
