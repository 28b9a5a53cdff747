//! The one way an edit, an undo or a redo reaches a document, whatever its format. Each
//! format has its handler: GraphSpec edits are planned as prims (`apply.rs`), Weaveflow and
//! GRAPH.md edits are applied to a copy by `formats::weaveflow` / `formats::graphmd` and told
//! as reversible format steps (`formats::steps`). Either way the session gets back the same
//! thing, a list of reversible prims and what they changed, and keeps history alike for all.

use trellis_spec::Diagnostic;

use crate::edit::{Changed, Edit};
use crate::history::{apply_all, replay, Prim};
use crate::session::{Document, Session};

/// An edit performed: the prims that do (and undo) it, what it changed, and how it may merge
/// into the step before it.
#[derive(Debug, Default)]
pub(crate) struct Performed {
    pub prims: Vec<Prim>,
    pub changed: Changed,
    /// `(node, field)`: consecutive edits of the same field merge into one undo step.
    pub coalesce: Option<(String, String)>,
    /// Things worth telling the user about the edit itself (not the document).
    pub notices: Vec<Diagnostic>,
}

/// Applies `edit` to the session's document and layout. A refused edit changes nothing. No
/// prims: nothing changed.
pub(crate) fn perform(s: &mut Session, edit: &Edit) -> Result<Performed, Diagnostic> {
    let Document::GraphSpec(spec) = &mut s.document else {
        return crate::formats::perform(s, edit);
    };
    let plan = crate::apply::plan(edit, spec, &s.layout, Some(&s.registries.registry))?;
    let changed = apply_all(&plan.prims, spec, &mut s.layout);
    Ok(Performed { prims: plan.prims, changed, coalesce: plan.coalesce, notices: plan.notices })
}

/// Undoes (`undo`) or redoes a step's prims, in any format.
pub(crate) fn replay_step(s: &mut Session, prims: &[Prim], undo: bool) -> Changed {
    if crate::formats::is_snapshot(prims) {
        return crate::formats::swap(prims, undo, &mut s.document, &mut s.layout);
    }
    replay(prims, &mut s.document, &mut s.layout, undo)
}

/// Coalescing: the prims of an edit folded into the step before it. A run of replacements of
/// one node (GraphSpec) keeps the first `before` and the last `after`; so does a run of
/// changes of one place in a Weaveflow or GRAPH.md model.
pub(crate) fn merge_prims(into: &mut Vec<Prim>, more: Vec<Prim>) {
    if let ([Prim::Node { index: i1, after: a1, .. }], [Prim::Node { index: i2, before: b2, after: a2 }]) =
        (into.as_mut_slice(), more.as_slice())
    {
        if i1 == i2 && a1 == b2 {
            *a1 = a2.clone();
            return;
        }
    }
    // The same field typed into again gives the same steps at the same places as the edit
    // before it: each folds into its twin at the end of the step (the steps of one edit touch
    // places apart, so folding them pairwise keeps their effect). Anything else is appended.
    let k = more.len();
    if k > 0 && into.len() >= k {
        let mut tail = into[into.len() - k..].to_vec();
        let folds = tail.iter_mut().zip(&more).all(|(a, b)| match (a, b) {
            (Prim::Format(a), Prim::Format(b)) => a.absorb(b),
            _ => false,
        });
        if folds {
            into.truncate(into.len() - k);
            into.extend(tail);
            return;
        }
    }
    into.extend(more);
}
