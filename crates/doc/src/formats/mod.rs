//! Weaveflow and GRAPH.md documents in a session: reading them (format detected by
//! `trellis_formats::detect`), their edits, their undo steps and their save checks.
//!
//! Where GraphSpec edits are planned as small reversible prims (`apply.rs`), an edit of these
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

use std::borrow::Cow;

use serde::de::DeserializeOwned;
use serde_json::Value;
use trellis_formats::detect::{detect, detect_object, Format};
use trellis_spec::diagnostic::has_errors;
use trellis_spec::{read, Diagnostic, GraphSpec};

use crate::edit::{Changed, Edit, Position};
use crate::history::{spec_changes, Prim};
use crate::layout::Layout;
use crate::perform::Performed;
use crate::save::{codes as save_codes, SaveRefused};
use crate::session::{codes as session_codes, Document, Session};

/// Diagnostic codes of format-specific edits.
pub mod codes {
    /// The edit has no meaning in this document's format (channels in Weaveflow, a Markdown
    /// body in a GraphSpec, ...); nothing changed.
    pub const UNSUPPORTED_EDIT: &str = "doc/unsupported-edit";
    /// A field name the format does not have, or one that is set by another edit.
    pub const UNKNOWN_FIELD: &str = "doc/unknown-field";
    /// A value of the wrong shape for the field (the message says what was expected).
    pub const BAD_VALUE: &str = "doc/bad-value";
}

/// The document and layout around a snapshot step.
#[derive(Debug, Clone, PartialEq)]
pub struct Snap {
    pub(crate) document: Document,
    pub(crate) layout: Layout,
}

/// What applying an edit to a copy produced.
#[derive(Debug, Default)]
pub(crate) struct Applied {
    pub changed: Changed,
    /// `(node, field)`: consecutive edits of the same field merge into one undo step.
    pub coalesce: Option<(String, String)>,
    pub notices: Vec<Diagnostic>,
}

pub(crate) fn refuse(code: &str, message: impl Into<String>) -> Diagnostic {
    Diagnostic::error(code, message)
}

/// Reads a document of any format. A document that holds but has errors opens (the user is
/// here to fix them); one that cannot be read at all answers why.
pub(crate) fn parse_document(
    file_name: Option<&str>,
    text: &str,
) -> Result<(Document, Vec<Diagnostic>), Vec<Diagnostic>> {
    if let Some(read) = parse_json_once(file_name, text) {
        return read;
    }
    match detect(file_name, text) {
        Ok(Format::Weaveflow) => {
            let parsed = trellis_formats::weaveflow::parse(text);
            match parsed.doc {
                Some(d) => Ok((Document::Weaveflow(d), parsed.diagnostics)),
                None => Err(parsed.diagnostics),
            }
        }
        Ok(Format::GraphMd) => {
            let r = trellis_formats::graphmd::read(text);
            match r.doc {
                Some(d) => Ok((Document::GraphMd(d), r.diagnostics)),
                None => Err(r.diagnostics),
            }
        }
        Ok(Format::GraphSpec) => graphspec(text, None),
        // Broken JSON is reported by the GraphSpec reader (line and column of the syntax
        // error), not as "unknown format".
        Err(d) => graphspec(text, Some(d)),
    }
}

/// A document read, with its reading findings, or why it cannot be read.
type ReadResult = Result<(Document, Vec<Diagnostic>), Vec<Diagnostic>>;

/// A JSON object document is parsed once, not twice: `detect` would parse the whole text to
/// look at its top-level keys, and the GraphSpec reader would then parse it again (each parse
/// of a 100,000-node document is a third of a second). So: parse it here, detect the format
/// from the parsed object (`detect_object`), and read a GraphSpec from the value already
/// parsed. `None` (the text is not one clean JSON object, or it is not a GraphSpec) takes the
/// ordinary path, so every message stays what it was.
fn parse_json_once(file_name: Option<&str>, text: &str) -> Option<ReadResult> {
    let trimmed = text.trim_start_matches(['\u{feff}', ' ', '\t', '\r', '\n']);
    if !trimmed.starts_with('{') {
        return None;
    }
    let Ok(Value::Object(root)) = trellis_spec::json::parse(text) else { return None };
    match detect_object(file_name, &root) {
        Ok(Format::GraphSpec) => {
            // What `read::parse_spec` does after its JSON parse.
            let mut parsed = read::spec_from_value(Value::Object(root));
            trellis_spec::json::fill_spans(text, &mut parsed.diagnostics);
            Some(graphspec_parsed(parsed, None))
        }
        _ => None,
    }
}

fn graphspec(
    text: &str,
    detect_error: Option<Diagnostic>,
) -> Result<(Document, Vec<Diagnostic>), Vec<Diagnostic>> {
    graphspec_parsed(read::parse_spec(text), detect_error)
}

fn graphspec_parsed(
    parsed: read::Parsed,
    detect_error: Option<Diagnostic>,
) -> Result<(Document, Vec<Diagnostic>), Vec<Diagnostic>> {
    match (parsed.spec, detect_error) {
        (Some(spec), None) => Ok((Document::GraphSpec(spec), parsed.diagnostics)),
        _ if has_errors(&parsed.diagnostics) => Err(parsed.diagnostics),
        (_, Some(d)) => Err(vec![d]),
        (None, None) => Err(vec![Diagnostic::error(
            session_codes::UNSUPPORTED_FORMAT,
            "the text is not a GraphSpec document",
        )]),
    }
}

/// The text a document would be saved as: a Weaveflow document spliced into the text the
/// file held (only edited values change), anything else by its writer.
pub(crate) fn text(document: &Document, source: Option<&str>) -> String {
    match document {
        Document::Weaveflow(d) => weaveflow_text(d, source),
        _ => document.to_text(),
    }
}

pub(crate) fn weaveflow_text(d: &trellis_formats::weaveflow::WeaveflowDoc, source: Option<&str>) -> String {
    source
        .and_then(|src| splice::splice(src, d.value()))
        .unwrap_or_else(|| trellis_formats::weaveflow::to_string(d))
}

/// True when a step is a snapshot step (applied by [`swap`], not by [`crate::history::replay`]).
pub(crate) fn is_snapshot(prims: &[Prim]) -> bool {
    prims.iter().any(|p| matches!(p, Prim::Snapshot { .. }))
}

/// Undoes (`undo`) or redoes a snapshot step.
pub(crate) fn swap(prims: &[Prim], undo: bool, document: &mut Document, layout: &mut Layout) -> Changed {
    let mut order: Vec<&Prim> = prims.iter().collect();
    if undo {
        order.reverse();
    }
    let mut changed = Changed::full();
    for p in order {
        if let Prim::Snapshot { before, after } = p {
            let (from, to) = if undo { (after, before) } else { (before, after) };
            changed.merge(snapshot_changed(from, to));
            *document = to.document.clone();
            *layout = to.layout.clone();
        }
    }
    changed
}

/// The graph the canvas draws of a document: a GraphSpec itself, or the projection of the
/// other formats (`view::display_spec`).
pub(crate) fn canvas_spec(document: &Document) -> Cow<'_, GraphSpec> {
    match document {
        Document::GraphSpec(spec) => Cow::Borrowed(spec),
        other => Cow::Owned(view::display_spec(other).unwrap_or_default()),
    }
}

/// What a snapshot step changes, worked out from the two states: the canvas graph's list
/// edits, the positions and viewport, and whether the format's own view part changed.
pub(crate) fn snapshot_changed(before: &Snap, after: &Snap) -> Changed {
    changed_between(&before.document, &before.layout, &after.document, &after.layout)
}

/// What turning one document and layout into another changes (see `snapshot_changed`).
pub(crate) fn changed_between(
    before_document: &Document,
    before_layout: &Layout,
    after_document: &Document,
    after_layout: &Layout,
) -> Changed {
    let mut changed = spec_changes(&canvas_spec(before_document), &canvas_spec(after_document));
    let (old, new) = (&before_layout.positions, &after_layout.positions);
    changed.positions = new
        .iter()
        .filter(|(id, p)| old.get(*id) != Some(*p))
        .map(|(id, _)| id.clone())
        .chain(old.keys().filter(|id| !new.contains_key(*id)).cloned())
        .collect();
    changed.viewport = before_layout.viewport != after_layout.viewport;
    changed.annotations =
        before_layout.notes != after_layout.notes || before_layout.groups != after_layout.groups;
    changed.format_view = before_document != after_document;
    changed
}

/// Replaces the whole document (a reload from disk) as a snapshot prim; the caller records it.
pub(crate) fn replace(s: &mut Session, after: Document) -> (Prim, Changed) {
    let layout = match &after {
        Document::Weaveflow(d) => weaveflow::layout_of(d).0,
        _ => s.layout.clone(),
    };
    let before = Snap { document: s.document.clone(), layout: s.layout.clone() };
    s.document = after;
    s.layout = layout;
    let after = Snap { document: s.document.clone(), layout: s.layout.clone() };
    let changed = Changed { full: true, ..snapshot_changed(&before, &after) };
    (Prim::Snapshot { before: Box::new(before), after: Box::new(after) }, changed)
}

/// Applies an edit to a Weaveflow or GRAPH.md session: on a copy, so a refused edit changes
/// nothing; then the reversible steps that turn the old document and layout into the new
/// (`steps::between`, positions and notes as layout prims). Nothing when nothing changed.
pub(crate) fn perform(s: &mut Session, edit: &Edit) -> Result<Performed, Diagnostic> {
    let mut document = s.document.clone();
    let mut layout = s.layout.clone();
    let annotations = {
        let ids = s.document.node_ids();
        crate::annotations::after_edit(&s.layout, edit, &|id| ids.contains(&id))?
    };
    let applied = match &mut document {
        _ if crate::annotations::only_annotations(edit) => Applied::default(),
        Document::Weaveflow(d) => weaveflow::apply(d, &mut layout, edit)?,
        Document::GraphMd(d) => graphmd::apply(d, &mut layout, edit)?,
        Document::GraphSpec(_) => {
            return Err(refuse(codes::UNSUPPORTED_EDIT, "a GraphSpec edit reached the wrong handler (a bug)"))
        }
    };
    if let Some(a) = annotations {
        layout.set_annotations(a);
        if let Document::Weaveflow(d) = &mut document {
            weaveflow::write_annotations(d, &layout)?;
        }
    }
    let mut out = Performed { coalesce: applied.coalesce, notices: applied.notices, ..Performed::default() };
    if document == s.document && layout == s.layout {
        return Ok(out);
    }
    let old_document = std::mem::replace(&mut s.document, document);
    let old_layout = std::mem::replace(&mut s.layout, layout);
    out.changed = changed_between(&old_document, &old_layout, &s.document, &s.layout);
    let replaced_graphmd =
        matches!((edit, &s.document), (Edit::ReplaceDocument { .. }, Document::GraphMd(_)));
    let format_steps = if replaced_graphmd { None } else { steps::between(&old_document, &s.document) };
    match format_steps {
        Some(format_steps) => {
            out.prims.extend(format_steps.into_iter().map(|f| Prim::Format(Box::new(f))));
            out.prims.extend(layout_prims(&old_layout, &s.layout));
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

/// Save steps 1-3 for Weaveflow and GRAPH.md: the format's writer, the text read back and
/// compared, then the read-back document validated; errors refuse the save.
pub(crate) fn prepare(session: &Session, document: &Document) -> Result<String, SaveRefused> {
    let (text, errors) = match document {
        Document::Weaveflow(d) => {
            let text = weaveflow::roundtrip(d, session.source.as_deref()).map_err(mismatch)?;
            let back = trellis_formats::weaveflow::parse(&text);
            let mut all = back.diagnostics;
            if let Some(doc) = &back.doc {
                all.extend(weaveflow::validate(doc, session.registries(), Some(&text)));
            }
            (text, all)
        }
        Document::GraphMd(d) => {
            let text = graphmd::roundtrip(d).map_err(mismatch)?;
            (text.clone(), trellis_formats::graphmd::read_and_validate(&text).diagnostics)
        }
        Document::GraphSpec(_) => return Err(mismatch("a GraphSpec reached the wrong writer".into())),
    };
    let errors: Vec<Diagnostic> = errors.into_iter().filter(Diagnostic::is_error).collect();
    if has_errors(&errors) {
        return Err(crate::save::has_errors_refusal(errors));
    }
    Ok(text)
}

fn mismatch(why: String) -> SaveRefused {
    SaveRefused {
        diagnostics: vec![Diagnostic::error(
            save_codes::ROUNDTRIP_MISMATCH,
            format!(
                "the document did not survive being read back ({why}; a bug in Trellis); nothing was saved"
            ),
        )],
        conflict: false,
    }
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

/// Checks a position before it is stored.
pub(crate) fn check_position(id: &str, p: &Position) -> Result<(), Diagnostic> {
    if p.x.is_finite() && p.y.is_finite() {
        Ok(())
    } else {
        Err(refuse(
            crate::apply::codes::BAD_POSITION,
            format!("the position of \"{id}\" is not a pair of finite numbers"),
        ))
    }
}

/// A node id made from a type or kind name, readable and plain ASCII wherever an id goes:
/// `HttpRequest` -> `http_request`, `mcp.tool` -> `mcp_tool`, `Café Order` -> `cafe_order`,
/// `3d-render` -> `n_3d_render`, nothing usable -> `node`. The UI never makes ids: it sends
/// `add_node` without one and selects what the answer's `created` names.
pub(crate) fn id_base(type_name: &str) -> String {
    use unicode_normalization::char::is_combining_mark;
    use unicode_normalization::UnicodeNormalization;
    let folded: Vec<char> = type_name.nfkd().filter(|c| !is_combining_mark(*c)).collect();
    let mut out = String::with_capacity(folded.len() + 2);
    let mut push = |c: char| {
        // Runs of separators collapse into one `_`; none leads.
        if c != '_' || !(out.is_empty() || out.ends_with('_')) {
            out.push(c);
        }
    };
    for (i, &c) in folded.iter().enumerate() {
        // camelCase and PascalCase words are split: `HttpRequest` -> `http_request`.
        let after_word = i > 0 && (folded[i - 1].is_ascii_lowercase() || folded[i - 1].is_ascii_digit());
        if c.is_ascii_uppercase() && after_word {
            push('_');
        }
        for l in c.to_lowercase() {
            push(if l.is_ascii_alphanumeric() { l } else { '_' });
        }
    }
    while out.ends_with('_') {
        out.pop();
    }
    if out.is_empty() {
        out.push_str("node");
    }
    if out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert_str(0, "n_");
    }
    out
}

#[cfg(test)]
mod tests;
