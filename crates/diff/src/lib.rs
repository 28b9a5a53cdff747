//! trellis-diff: the semantic diff and the three-way merge of Trellis documents, the same way
//! for GraphSpec, Weaveflow and GRAPH.md. Pure: bytes in, text and data out; the command line
//! (`trellis diff`, `trellis merge`) does the I/O. Rules and formats: docs/git.md.
//!
//! * [`document`]: any format -> [`Graph`] (elements by id) and back to canonical text.
//! * [`diff`]: what changed between two graphs; [`diff::apply`] replays it.
//! * [`merge`]: three-way merge by element id, with conflicts as data.
//! * [`render`]: a diff as text, JSON or Markdown, and the textconv summary.
//! * [`take`]: one element made as another version has it (the app's revert / take theirs
//!   and conflict picks).
//! * [`merge_documents`]: merge + canonical text + validation of the result, what the Git
//!   merge driver runs.

#![forbid(unsafe_code)]

pub mod conflict;
pub mod diff;
pub mod document;
pub mod graph;
pub mod layout;
pub mod merge;
pub mod pointer;
pub mod render;
pub mod take;
mod value_merge;

use std::collections::HashSet;

use serde::Serialize;
use trellis_formats::detect::Format;
use trellis_spec::{Diagnostic, Element as DiagElement};

pub use conflict::{Conflict, Element, Reason};
pub use diff::{diff, Change, Diff, FieldChange};
pub use document::{read, read_all, Document, ReadError};
pub use graph::{EdgeKey, Graph};
pub use merge::merge;

/// The outcome of a three-way merge of documents.
#[derive(Debug, Clone)]
pub struct MergeOutcome {
    pub format: Format,
    /// The merged document's canonical text. When there are conflicts: everything that merged
    /// cleanly from both sides with OURS at each conflict, which the merge driver leaves in
    /// the file so that resolving every conflict gives the whole merge. `None` when the merged
    /// document cannot be written at all (then the file keeps OURS).
    pub text: Option<String>,
    pub conflicts: Vec<Conflict>,
}

impl MergeOutcome {
    pub fn is_clean(&self) -> bool {
        self.conflicts.is_empty() && self.text.is_some()
    }

    /// What the merge driver leaves in the file: `merged` (the merged text, OURS at each
    /// conflict) or `ours` (the merge could not be written; OURS untouched).
    pub fn kept(&self) -> &'static str {
        if self.text.is_some() {
            "merged"
        } else {
            "ours"
        }
    }
}

/// Why three documents cannot be merged at all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MergeError(pub String);

impl std::fmt::Display for MergeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for MergeError {}

/// Merges documents: by element ([`merge::merge`]), then written in canonical form and
/// validated. An error the merged document has that neither OURS nor THEIRS has (an edge to a
/// node the other side deleted, a predicate on a channel the other side renamed) is a
/// conflict too, since a merge must not produce a graph that no longer compiles.
pub fn merge_documents(
    base: &Document,
    ours: &Document,
    theirs: &Document,
) -> Result<MergeOutcome, MergeError> {
    let format = same_format(base, ours, theirs)?;
    let merged = merge::merge(&base.graph, &ours.graph, &theirs.graph);
    let written = ours.with_graph(merged.graph).write(true, false);
    Ok(outcome(format, merged.conflicts, written, || both(|| ours.errors(), || theirs.errors())))
}

/// [`merge_documents`] of documents given to it, as the merge driver has them: the merged
/// elements are taken out of OURS and THEIRS instead of copied ([`merge::merge_taking`]), and
/// put back only when the merged document has errors, to tell the merge's own from those a
/// side already had. The same outcome as [`merge_documents`].
pub fn merge_owned(
    base: Document,
    mut ours: Document,
    mut theirs: Document,
) -> Result<MergeOutcome, MergeError> {
    let format = same_format(&base, &ours, &theirs)?;
    let (merged, taken) = merge::merge_taking(&base.graph, &mut ours.graph, &mut theirs.graph);
    drop(base);
    // A GraphSpec merge is moved into the model to be written and checked, and made back from
    // it when the sides are needed ([`Document::write`]); any other merge is converted on a
    // route that does not give it back, so its sides are made whole first.
    let direct = merged.graph.fits_spec();
    let mut taken = Some(taken);
    if !direct {
        if let Some(t) = taken.take() {
            t.restore(&mut ours.graph, &mut theirs.graph, &merged.graph);
        }
    }
    let mut written = ours.with_graph(merged.graph).write(true, direct);
    let back = written.as_mut().ok().and_then(|w| w.back.take());
    Ok(outcome(format, merged.conflicts, written, move || {
        if let Some(t) = taken.filter(|t| !t.is_empty()) {
            match &back {
                Some(g) => t.restore(&mut ours.graph, &mut theirs.graph, g),
                // `write` gives a direct GraphSpec merge back whenever it has errors.
                None => unreachable!("a merged document with errors is given back"),
            }
        }
        both(move || ours.into_errors(), move || theirs.into_errors())
    }))
}

fn same_format(base: &Document, ours: &Document, theirs: &Document) -> Result<Format, MergeError> {
    let format = ours.graph.format;
    for (side, d) in [("the base", base), ("their side", theirs)] {
        if d.graph.format != format {
            return Err(MergeError(format!(
                "our side is a {} document and {side} is a {} document; convert one of them first",
                document::format_name(format),
                document::format_name(d.graph.format)
            )));
        }
    }
    Ok(format)
}

/// Two independent computations side by side (the second on a thread of its own).
fn both<A: Send, B: Send>(a: impl FnOnce() -> A + Send, b: impl FnOnce() -> B + Send) -> (A, B) {
    std::thread::scope(|s| {
        let b = s.spawn(b);
        (a(), b.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
    })
}

/// The outcome of a merge written (or not) as `written`: the merge's conflicts, and an
/// `invalid` conflict for each error of the merged document that neither side has. `sides`
/// gives the errors of OURS and THEIRS; it runs only when the merged document has errors.
fn outcome(
    format: Format,
    mut conflicts: Vec<Conflict>,
    written: Result<document::Written, String>,
    sides: impl FnOnce() -> (Vec<Diagnostic>, Vec<Diagnostic>),
) -> MergeOutcome {
    let text = match written {
        Ok(w) => {
            if !w.errors.is_empty() {
                let (o, t) = sides();
                let known: HashSet<(String, String)> =
                    o.into_iter().chain(t).map(|d| (d.code, d.message)).collect();
                for d in w.errors {
                    if !known.contains(&(d.code.clone(), d.message.clone())) {
                        conflicts.push(invalid(d));
                    }
                }
            }
            Some(w.text)
        }
        Err(why) => {
            conflicts.push(Conflict {
                element: Element::Graph,
                pointer: String::new(),
                reason: Reason::Invalid,
                message: format!("the merged document cannot be written: {why}"),
                base: None,
                ours: None,
                theirs: None,
            });
            None
        }
    };
    MergeOutcome { format, text, conflicts }
}

fn invalid(d: Diagnostic) -> Conflict {
    let element = match &d.element {
        Some(DiagElement::Node { id }) => Element::Node { id: id.clone() },
        Some(DiagElement::Edge { from, to, .. }) => {
            Element::Edge { from: from.clone(), to: to.clone(), nth: 0 }
        }
        Some(DiagElement::Channel { name }) => Element::Channel { name: name.clone() },
        _ => Element::Graph,
    };
    Conflict {
        element,
        pointer: d.pointer.clone(),
        reason: Reason::Invalid,
        message: format!("the merged document would not validate: {} [{}]", d.message, d.code),
        base: None,
        ours: None,
        theirs: None,
    }
}

/// The conflict report written next to a conflicted file (`NAME.conflicts.json`).
#[derive(Debug, Clone, Serialize)]
pub struct Report<'a> {
    /// Names what this file is, so a reader can tell it from a document.
    pub trellis: &'static str,
    pub version: u32,
    /// The document's path as Git names it (`%P`), or as given.
    pub path: &'a str,
    pub format: &'static str,
    /// What the document on disk holds: `merged` (both sides' clean changes, OURS at each
    /// conflict) or `ours` (the merge could not be written). Version 1 reports had `ours` only.
    pub kept: &'static str,
    pub conflicts: &'a [Conflict],
}

/// The version of the conflict report written now (2: the file holds the merge, `kept`).
pub const REPORT_VERSION: u32 = 2;

/// The JSON text of the conflict report for `path`.
pub fn report_text(path: &str, outcome: &MergeOutcome) -> String {
    let report = Report {
        trellis: "merge-conflicts",
        version: REPORT_VERSION,
        path,
        format: outcome.format.as_str(),
        kept: outcome.kept(),
        conflicts: &outcome.conflicts,
    };
    let mut s = serde_json::to_string_pretty(&report).unwrap_or_default();
    s.push('\n');
    s
}
