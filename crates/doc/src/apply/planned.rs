//! What planning an edit answers: the prims, whether typing coalesces into the last undo step,
//! and notices about the edit itself.

use trellis_spec::diagnostic::Diagnostic;

use crate::history::Prim;

/// An edit turned into prims.
#[derive(Debug, Default)]
pub(crate) struct Plan {
    pub prims: Vec<Prim>,
    /// `(node, path)` for a `set_config_field`: lets typing coalesce into one undo step.
    pub coalesce: Option<(String, String)>,
    /// Things worth telling the user about the edit itself (not the document).
    pub notices: Vec<Diagnostic>,
}
