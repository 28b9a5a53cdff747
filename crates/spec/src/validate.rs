//! THE validator: one function that the canvas badges, the problems panel, the save refusal
//! and `trellis validate` all call, so they always show the same diagnostics.
//!
//! It runs every `fromSpec` and `compile` check of formats.md §1.5 (collected, not first-only),
//! the analysis warnings of [`crate::analysis`], and, when a registry is given, the config
//! schema checks of [`crate::config_check`]. With no registry, type checks are skipped.

use crate::analysis;
use crate::checks;
use crate::config_check;
use crate::diagnostic::Diagnostic;
use crate::model::GraphSpec;
use crate::registry::Registry;

pub use crate::checks::codes;

/// Every problem in `spec`, in document order within each stage (fromSpec checks, compile
/// checks, analysis, config schemas).
pub fn validate(spec: &GraphSpec, registry: Option<&Registry>) -> Vec<Diagnostic> {
    let mut out = checks::check_channels(spec);
    {
        // The node checks' id set serves the edge checks too; dropped before the analysis
        // builds its own maps.
        let (nodes, ids) = checks::check_nodes_keeping_ids(spec, registry);
        out.extend(nodes);
        out.extend(checks::check_predicates(spec));
        out.extend(checks::check_topology(
            &ids,
            spec.edges.iter().map(|e| (e.from.as_str(), e.to.as_str())),
            std::iter::empty(),
        ));
    }
    out.extend(analysis::analyze(spec));
    if let Some(registry) = registry {
        out.extend(config_check::check_configs(spec, registry));
        out.extend(crate::channel_refs::check_config_channels(spec, registry));
    }
    out
}
