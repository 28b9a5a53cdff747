//! The registries in force for a document (what `crate::discovery` finds for it).

use std::path::PathBuf;
use std::sync::Arc;

use trellis_spec::{Diagnostic, Registry};

/// The registries in force for a document: the merged registry, the files it came from
/// (watched), and problems found while loading them.
#[derive(Debug, Clone, Default)]
pub struct Registries {
    pub registry: Arc<Registry>,
    pub files: Vec<PathBuf>,
    pub diagnostics: Vec<Diagnostic>,
    /// The Weaveflow `version` documents must declare (the app's setting); `None` is the
    /// format's current "1.0". Weaveflow has used "2.0" too, so it is a setting, not a constant.
    pub weaveflow_version: Option<String>,
}

impl Registries {
    pub fn new(registry: Registry) -> Self {
        Registries { registry: Arc::new(registry), ..Registries::default() }
    }
}
