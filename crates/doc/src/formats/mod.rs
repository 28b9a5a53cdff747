//! Weaveflow and GRAPH.md documents in a session: reading them (format detected by
//! `trellis_formats::detect`), their edits, their undo steps and their save checks.
//!
//! Where GraphSpec edits are planned as small reversible prims (`apply/`), an edit of these
//! formats is applied to a copy of the document by the format's handler (`weaveflow.rs`,
//! `graphmd.rs`; a refused edit changes nothing), then recorded as the small reversible
//! changes that turn the old model into the new (`steps.rs`: a node, an edge, a field, a
//! position), so undo and redo answer what changed, byte for byte. Both paths meet in
//! `crate::perform`. Typing into a field still coalesces into one step.
//!
//! Positions: a Weaveflow document keeps them in its own `metadata.web.positions` (where the
//! Weaveflow Workbench keeps them; no sidecar is written); a GRAPH.md document has no place
//! for them, so they go in the `<stem>.layout.json` sidecar beside it (`GRAPH.md` ->
//! `GRAPH.layout.json`), as for a GraphSpec.

pub mod convert;
pub mod graphmd;
mod json_steps;
pub mod splice;
pub(crate) mod steps;
pub mod view;
pub mod weaveflow;
mod yaml_steps;

use serde::de::DeserializeOwned;
use serde_json::Value;
use trellis_spec::Diagnostic;

use crate::edit::Changed;
pub use crate::refusal::codes;
pub(crate) use crate::refusal::{check_position, refuse};

/// What applying an edit to a copy produced.
#[derive(Debug, Default)]
pub(crate) struct Applied {
    pub changed: Changed,
    /// `(node, field)`: consecutive edits of the same field merge into one undo step.
    pub coalesce: Option<(String, String)>,
    pub notices: Vec<Diagnostic>,
}

/// A typed field value from JSON: absent or `null` is the field's empty value.
pub(crate) fn typed<T: DeserializeOwned + Default>(
    field: &str,
    value: Option<&Value>,
) -> Result<T, Diagnostic> {
    match value {
        None | Some(Value::Null) => Ok(T::default()),
        Some(v) => serde_json::from_value(v.clone())
            .map_err(|e| refuse(codes::BAD_VALUE, format!("`{field}` cannot be set to {v}: {e}"))),
    }
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod transfer_tests;
