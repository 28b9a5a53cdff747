//! The one way an edit, an undo or a redo reaches a document, whatever its format. Each
//! format has its handler: GraphSpec edits are planned as prims (`apply/`), Weaveflow and
//! GRAPH.md edits are applied to a copy by `formats::weaveflow` / `formats::graphmd` and told
//! as reversible format steps (`formats::steps`). Either way the session gets back the same
//! thing, a list of reversible prims and what they changed, and keeps history alike for all.
//!
//! It works on the document and layout it is handed ([`Target`]), not on a session: the
//! session calls it, and it knows nothing of files, history or dirty state.

use trellis_spec::{Diagnostic, Registry};

use crate::document::Document;
use crate::edit::{Changed, Edit};
use crate::history::{apply_all, changed_between, is_snapshot, replay, snapshot_changed, swap, Prim, Snap};
use crate::layout::Layout;
use crate::refusal::{codes, refuse};

/// What an edit is performed on: a session's document and layout, and the registry its
/// GraphSpec edits are checked against.
pub(crate) struct Target<'a> {
    pub document: &'a mut Document,
    pub layout: &'a mut Layout,
    pub registry: Option<&'a Registry>,
}

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

/// Applies `edit` to the document and layout. A refused edit changes nothing. No prims:
/// nothing changed.
pub(crate) fn perform(s: Target<'_>, edit: &Edit) -> Result<Performed, Diagnostic> {
    let Document::GraphSpec(spec) = &mut *s.document else {
        return perform_format(s, edit);
    };
    let plan = crate::apply::plan(edit, spec, s.layout, s.registry)?;
    let changed = apply_all(&plan.prims, spec, s.layout);
    Ok(Performed { prims: plan.prims, changed, coalesce: plan.coalesce, notices: plan.notices })
}

/// Undoes (`undo`) or redoes a step's prims, in any format.
pub(crate) fn replay_step(
    document: &mut Document,
    layout: &mut Layout,
    prims: &[Prim],
    undo: bool,
) -> Changed {
    if is_snapshot(prims) {
        return swap(prims, undo, document, layout);
    }
    replay(prims, document, layout, undo)
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

/// Applies an edit to a Weaveflow or GRAPH.md document: on a copy, so a refused edit changes
/// nothing; then the reversible steps that turn the old document and layout into the new
/// (`crate::formats::steps::between`, positions and notes as layout prims). Nothing when nothing changed.
fn perform_format(s: Target<'_>, edit: &Edit) -> Result<Performed, Diagnostic> {
    let mut document = s.document.clone();
    let mut layout = s.layout.clone();
    let annotations = {
        let ids = s.document.node_ids();
        crate::annotations::after_edit(&s.layout.notes, &s.layout.groups, edit, &|id| ids.contains(&id))?
    };
    let applied = match &mut document {
        _ if crate::annotations::only_annotations(edit) => crate::formats::Applied::default(),
        Document::Weaveflow(d) => crate::formats::weaveflow::apply(d, &mut layout, edit)?,
        Document::GraphMd(d) => crate::formats::graphmd::apply(d, &mut layout, edit)?,
        Document::GraphSpec(_) => {
            return Err(refuse(codes::UNSUPPORTED_EDIT, "a GraphSpec edit reached the wrong handler (a bug)"))
        }
    };
    if let Some(a) = annotations {
        layout.set_annotations(a);
        if let Document::Weaveflow(d) = &mut document {
            crate::formats::weaveflow::write_annotations(d, &layout)?;
        }
    }
    let mut out = Performed { coalesce: applied.coalesce, notices: applied.notices, ..Performed::default() };
    if document == *s.document && layout == *s.layout {
        return Ok(out);
    }
    let old_document = std::mem::replace(s.document, document);
    let old_layout = std::mem::replace(s.layout, layout);
    out.changed = changed_between(&old_document, &old_layout, s.document, s.layout);
    let replaced_graphmd =
        matches!((edit, &*s.document), (Edit::ReplaceDocument { .. }, Document::GraphMd(_)));
    let format_steps =
        if replaced_graphmd { None } else { crate::formats::steps::between(&old_document, s.document) };
    match format_steps {
        Some(format_steps) => {
            out.prims.extend(format_steps.into_iter().map(|f| Prim::Format(Box::new(f))));
            out.prims.extend(layout_prims(&old_layout, s.layout));
        }
        None => {
            let before = Snap { document: old_document, layout: old_layout };
            let after = Snap { document: s.document.clone(), layout: s.layout.clone() };
            out.prims.push(Prim::Snapshot { before: Box::new(before), after: Box::new(after) });
        }
    }
    Ok(out)
}

/// The layout prims that turn `old` into `new`: a position prim per node placed, moved or
/// unplaced, the notes and groups whole when they changed. (Format edits change nothing else
/// of the layout: the viewport is not an undo step.)
fn layout_prims(old: &Layout, new: &Layout) -> Vec<Prim> {
    let (o, n) = (&old.positions, &new.positions);
    let mut out: Vec<Prim> = o
        .iter()
        .filter(|(id, _)| !n.contains_key(*id))
        .map(|(id, p)| Prim::Position { id: id.clone(), before: Some(*p), after: None })
        .collect();
    out.extend(n.iter().filter(|(id, p)| o.get(*id) != Some(*p)).map(|(id, p)| Prim::Position {
        id: id.clone(),
        before: o.get(id).copied(),
        after: Some(*p),
    }));
    if old.notes != new.notes || old.groups != new.groups {
        out.push(Prim::Annotations {
            before: Box::new(old.annotations()),
            after: Box::new(new.annotations()),
        });
    }
    out
}

/// Replaces the whole document (a reload from disk) as a snapshot prim; the caller records it.
pub(crate) fn replace(s: Target<'_>, after: Document) -> (Prim, Changed) {
    let layout = match &after {
        Document::Weaveflow(d) => crate::formats::weaveflow::layout_of(d).0,
        _ => s.layout.clone(),
    };
    let before = Snap { document: s.document.clone(), layout: s.layout.clone() };
    *s.document = after;
    *s.layout = layout;
    let after = Snap { document: s.document.clone(), layout: s.layout.clone() };
    let changed = Changed { full: true, ..snapshot_changed(&before, &after) };
    (Prim::Snapshot { before: Box::new(before), after: Box::new(after) }, changed)
}
