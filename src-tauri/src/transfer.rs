//! Import and Export (File menu): the conversion logic behind the `export_document` and
//! `import_document` commands, kept free of Tauri so it is unit-tested. The conversions are
//! `trellis_doc::formats::convert`'s; this file picks the format, names the file, refuses to
//! write over the document itself and writes atomically.

use std::path::Path;

use serde::Serialize;
use trellis_doc::formats::convert::{convert_document, ConvertedText};
use trellis_doc::fs::{atomic_write, FileSystem};
use trellis_doc::session::{DocFormat, Session};
use trellis_spec::Diagnostic;
use ts_rs::TS;

/// Codes of Import and Export refusals.
pub mod codes {
    /// The format the UI asked for is not one Trellis writes.
    pub const UNKNOWN_FORMAT: &str = "export/unknown-format";
    /// Export was asked to write over the open document's own file.
    pub const OVER_SOURCE: &str = "export/over-source";
    /// Writing the exported file failed.
    pub const WRITE_FAILED: &str = "export/write-failed";
    /// The file chosen for Import could not be read (missing, unreadable, not UTF-8, too big).
    pub const READ_FAILED: &str = "import/read-failed";
}

/// The biggest file Import reads: graph documents are small; a huge one is a wrong pick.
pub const MAX_IMPORT_BYTES: u64 = 32 * 1024 * 1024;

/// What Export answers: the converted text and its losses; `written` and `path` once written.
#[derive(Debug, Clone, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct ExportAnswer {
    pub format: DocFormat,
    pub text: String,
    /// One warning per thing the target format cannot hold.
    pub losses: Vec<Diagnostic>,
    pub written: bool,
    pub path: Option<String>,
}

impl ExportAnswer {
    pub fn preview(c: ConvertedText) -> ExportAnswer {
        ExportAnswer { format: c.format, text: c.text, losses: c.losses, written: false, path: None }
    }
}

/// Reads the format name the UI sent.
pub fn parse_format(s: &str) -> Result<DocFormat, Diagnostic> {
    match s.trim().to_ascii_lowercase().as_str() {
        "graphspec" => Ok(DocFormat::GraphSpec),
        "weaveflow" => Ok(DocFormat::Weaveflow),
        "graphmd" | "graph.md" => Ok(DocFormat::GraphMd),
        other => Err(Diagnostic::error(
            codes::UNKNOWN_FORMAT,
            format!("unknown format \"{other}\" (expected \"graphspec\", \"weaveflow\" or \"graphmd\")"),
        )),
    }
}

/// The converted document (nothing written).
pub fn convert(session: &Session, to: DocFormat) -> ConvertedText {
    convert_document(session.document(), to)
}

/// A file name for the exported file, from the document's own name.
pub fn suggested_name(current: &str, to: DocFormat) -> String {
    let lower = current.to_ascii_lowercase();
    let stem = if lower == "graph.md" || current == "Untitled" {
        "graph"
    } else if let Some(s) = lower.strip_suffix(".graph.md") {
        &current[..s.len()]
    } else {
        current.rsplit_once('.').map(|(s, _)| s).unwrap_or(current)
    };
    match to {
        DocFormat::GraphSpec => format!("{stem}.json"),
        DocFormat::Weaveflow => format!("{stem}.weaveflow.json"),
        DocFormat::GraphMd => format!("{stem}.graph.md"),
    }
}

/// Writes the exported text at `target`, never over `source` (the open document's file: that
/// would replace the document with a converted, lossy copy behind the editor's back).
pub fn write_export(
    fs: &dyn FileSystem,
    source: Option<&Path>,
    target: &Path,
    text: &str,
) -> Result<(), Diagnostic> {
    let same = |a: &Path, b: &Path| {
        a == b || matches!((fs.canonicalize(a), fs.canonicalize(b)), (Ok(x), Ok(y)) if x == y)
    };
    if source.is_some_and(|s| same(s, target)) {
        return Err(Diagnostic::error(
            codes::OVER_SOURCE,
            format!("{} is the open document itself: export to another file", target.display()),
        ));
    }
    atomic_write(fs, target, text.as_bytes(), 0o644).map(|_| ()).map_err(|e| {
        Diagnostic::error(codes::WRITE_FAILED, format!("cannot write {}: {e}", target.display()))
    })
}

/// Reads the file chosen for Import as text.
pub fn read_import(path: &Path) -> Result<String, Diagnostic> {
    let failed = |why: String| {
        Diagnostic::error(codes::READ_FAILED, format!("cannot import {}: {why}", path.display()))
    };
    let size = std::fs::metadata(path).map_err(|e| failed(e.to_string()))?.len();
    if size > MAX_IMPORT_BYTES {
        return Err(failed(format!("{size} bytes is more than the {MAX_IMPORT_BYTES} a graph may have")));
    }
    let bytes = std::fs::read(path).map_err(|e| failed(e.to_string()))?;
    String::from_utf8(bytes).map_err(|_| failed("not UTF-8 text".into()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use trellis_doc::clock::SystemClock;
    use trellis_doc::fs::RealFs;
    use trellis_doc::session::Registries;
    use trellis_doc::DocId;

    fn corpus(rel: &str) -> String {
        let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(rel);
        std::fs::read_to_string(&p).expect("fixture")
    }

    #[test]
    fn formats_parse_and_unknown_ones_are_refused() {
        assert_eq!(parse_format("GraphSpec").ok(), Some(DocFormat::GraphSpec));
        assert_eq!(parse_format("graphmd").ok(), Some(DocFormat::GraphMd));
        assert_eq!(parse_format("weaveflow").ok(), Some(DocFormat::Weaveflow));
        assert_eq!(parse_format("yaml").err().map(|d| d.code), Some(codes::UNKNOWN_FORMAT.to_string()));
    }

    #[test]
    fn export_names_follow_the_document() {
        assert_eq!(suggested_name("flow.json", DocFormat::GraphSpec), "flow.json");
        assert_eq!(suggested_name("GRAPH.md", DocFormat::Weaveflow), "graph.weaveflow.json");
        assert_eq!(suggested_name("triage.graph.md", DocFormat::GraphSpec), "triage.json");
        assert_eq!(suggested_name("Untitled", DocFormat::GraphMd), "graph.graph.md");
    }

    #[test]
    fn a_weaveflow_document_exports_to_a_valid_graphspec_listing_losses() {
        let text = corpus("crates/formats/tests/fixtures/weaveflow/corpus/state_operations.json");
        let registries = Registries::new(trellis_spec::Registry::default());
        let s = Session::from_text(
            DocId(1),
            Some("state_operations.json"),
            &text,
            registries,
            Arc::new(SystemClock),
        )
        .expect("reads");
        let c = convert(&s, DocFormat::GraphSpec);
        let parsed = trellis_spec::read::parse_spec(&c.text);
        assert!(
            parsed.spec.is_some() && !trellis_spec::diagnostic::has_errors(&parsed.diagnostics),
            "{:?}",
            parsed.diagnostics
        );
        assert!(!c.losses.is_empty(), "state operations cannot all be held by GraphSpec");
    }

    #[test]
    fn export_never_writes_over_the_document_and_writes_elsewhere() {
        let dir = tempfile::tempdir().expect("tmp");
        let source = dir.path().join("flow.json");
        std::fs::write(&source, "{}").expect("write");
        let err = write_export(&RealFs, Some(&source), &dir.path().join(".").join("flow.json"), "x");
        assert_eq!(err.err().map(|d| d.code), Some(codes::OVER_SOURCE.to_string()));
        assert_eq!(std::fs::read_to_string(&source).expect("read"), "{}");
        let target = dir.path().join("out.json");
        write_export(&RealFs, Some(&source), &target, "{\"name\": \"x\"}\n").expect("writes");
        assert_eq!(std::fs::read_to_string(&target).expect("read"), "{\"name\": \"x\"}\n");
    }

    #[test]
    fn import_opens_an_unsaved_graphspec_with_the_losses_as_notices() {
        let dir = tempfile::tempdir().expect("tmp");
        let mut ws = trellis_doc::Workspace::new(
            Arc::new(RealFs),
            Arc::new(SystemClock),
            &dir.path().join("data"),
            trellis_doc::workspace::builtin_loader(),
        );
        let text = corpus("crates/formats/tests/fixtures/weaveflow/corpus/state_operations.json");
        let (id, losses) =
            ws.import(Some("state_operations.json"), &text, DocFormat::GraphSpec).expect("imports");
        let s = ws.session(id).expect("open");
        assert_eq!(s.format(), DocFormat::GraphSpec);
        assert!(s.path().is_none() && s.is_dirty(), "untitled and unsaved: the user saves it");
        assert!(!losses.is_empty());
        for loss in &losses {
            assert!(s.notices().contains(loss), "{} shown on the document", loss.message);
        }
        let broken = ws.import(Some("x.json"), "{\"version\": ", DocFormat::GraphSpec);
        assert!(broken.is_err(), "a file that does not read is refused, nothing opened");
        assert_eq!(ws.ids(), vec![id]);
    }

    #[test]
    fn import_refuses_missing_and_binary_files() {
        let dir = tempfile::tempdir().expect("tmp");
        let missing = read_import(&dir.path().join("nope.json"));
        assert_eq!(missing.err().map(|d| d.code), Some(codes::READ_FAILED.to_string()));
        let bin = dir.path().join("bin.json");
        std::fs::write(&bin, [0xff, 0xfe, 0x00]).expect("write");
        assert_eq!(read_import(&bin).err().map(|d| d.code), Some(codes::READ_FAILED.to_string()));
    }
}
