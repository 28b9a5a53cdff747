//! Planning a GraphSpec edit: checks that the result can be stored (refusing with a diagnostic
//! that says why) and turns the edit into reversible prims. Nothing is changed here; the
//! session applies the plan, so an edit, its redo and its undo share one code path.
//!
//! One concern a file: what a plan holds (`planned`), the checks edits share (`checks`), the
//! GraphSpec edits one by one (`spec_edit`), and a paste (`paste`). Notes and groups are
//! planned by `crate::annotations`.

mod checks;
mod paste;
mod planned;
mod spec_edit;

use planned::Plan;
use spec_edit::plan_spec_edit;
use trellis_spec::diagnostic::Diagnostic;
use trellis_spec::{GraphSpec, Registry};

use crate::edit::Edit;
use crate::history::Prim;
use crate::layout::Layout;

/// Plans `edit` against the current document.
pub(crate) fn plan(
    edit: &Edit,
    spec: &GraphSpec,
    layout: &Layout,
    registry: Option<&Registry>,
) -> Result<Plan, Diagnostic> {
    let mut plan = Plan::default();
    let has_node = |id: &str| spec.nodes.iter().any(|n| n.id == id);
    let annotations = crate::annotations::after_edit(&layout.notes, &layout.groups, edit, &has_node)?;
    if crate::annotations::only_annotations(edit) {
        push_annotations(&mut plan, layout, annotations);
        return Ok(plan);
    }
    plan_spec_edit(&mut plan, edit, spec, layout, registry)?;
    push_annotations(&mut plan, layout, annotations);
    Ok(plan)
}

/// The notes and groups after an edit, as one prim (when they changed).
fn push_annotations(plan: &mut Plan, layout: &Layout, after: Option<crate::annotations::Annotations>) {
    if let Some(after) = after {
        plan.prims.push(Prim::Annotations { before: Box::new(layout.annotations()), after: Box::new(after) });
    }
}
