//! How a session is made: on an in-memory document (New), from a text (its format detected),
//! or from a file with its layout sidecar; validated once everything the diagnostics depend on
//! is in place.

use std::path::Path;
use std::sync::Arc;

use trellis_spec::{json, Diagnostic};

use super::codes;
use super::state::Session;
use crate::clock::Clock;
use crate::document::{parse_document, DocId, Document};
use crate::fingerprint::Fingerprint;
use crate::fs::FileSystem;
use crate::history::History;
use crate::layout::{self, sidecar_path, Layout};
use crate::registries::Registries;

impl Session {
    /// A session on an in-memory document (New).
    pub fn new(id: DocId, document: Document, registries: Registries, clock: Arc<dyn Clock>) -> Session {
        let mut s = Session::unvalidated(id, document, registries, clock);
        s.revalidate();
        s
    }

    /// A session before its first validation: the callers validate once, when everything the
    /// diagnostics depend on (the reading findings too) is in place. Validating a large
    /// document is most of what opening it costs, so it must not run twice on open.
    pub(super) fn unvalidated(
        id: DocId,
        document: Document,
        registries: Registries,
        clock: Arc<dyn Clock>,
    ) -> Session {
        let mut s = Session {
            id,
            path: None,
            fingerprint: None,
            document,
            layout: Layout::default(),
            layout_missing: true,
            registries,
            clock,
            history: History::default(),
            read_diagnostics: Vec::new(),
            diagnostics: Vec::new(),
            notices: Vec::new(),
            conflict: None,
            state: 0,
            base_state: 0,
            saved_state: Some(0),
            next_step: 1,
            forced_dirty: false,
            revision: 0,
            last_change_ms: 0,
            source: None,
            subgraphs: Default::default(),
            source_state: None,
            source_canonical: None,
            routes: Default::default(),
            reformat_lines: None,
            reformat_step: None,
            text_pane: Default::default(),
        };
        if let Document::Weaveflow(d) = &s.document {
            (s.layout, s.layout_missing) = crate::formats::weaveflow::layout_of(d);
        }
        s
    }

    /// Reads a document from text (its format detected). `file_name` helps detection.
    pub fn from_text(
        id: DocId,
        file_name: Option<&str>,
        text: &str,
        registries: Registries,
        clock: Arc<dyn Clock>,
    ) -> Result<Session, Vec<Diagnostic>> {
        Session::from_source(id, file_name, text.to_owned(), registries, clock)
    }

    /// [`Session::from_text`] of text the session keeps as it is (an opened file's: not copied
    /// again).
    pub(super) fn from_source(
        id: DocId,
        file_name: Option<&str>,
        text: String,
        registries: Registries,
        clock: Arc<dyn Clock>,
    ) -> Result<Session, Vec<Diagnostic>> {
        let mut s = Session::unchecked_from_source(id, file_name, text, registries, clock)?;
        s.revalidate();
        Ok(s)
    }

    /// [`Session::from_source`] without the validation.
    pub(super) fn unchecked_from_source(
        id: DocId,
        file_name: Option<&str>,
        text: String,
        registries: Registries,
        clock: Arc<dyn Clock>,
    ) -> Result<Session, Vec<Diagnostic>> {
        let (document, read_diagnostics) = parse_document(file_name, &text)?;
        let mut s = Session::unvalidated(id, document, registries, clock);
        s.source = Some(text);
        s.source_state = Some(s.state);
        s.read_diagnostics = read_diagnostics;
        s.diagnostics = s.read_diagnostics.clone();
        Ok(s)
    }

    /// Opens a file: reads it, fingerprints it, reads its layout sidecar (a missing or broken
    /// one makes `layout_missing` true, the latter with a warning).
    pub fn open(
        fs: &dyn FileSystem,
        id: DocId,
        path: &Path,
        registries: Registries,
        clock: Arc<dyn Clock>,
    ) -> Result<Session, Vec<Diagnostic>> {
        let mut s = Session::read(fs, id, path, registries, clock)?;
        s.revalidate();
        Ok(s)
    }

    /// [`Session::open`] without the validation: the findings are the reading's only until
    /// [`Session::revalidate`] runs (`crate::workspace::Opening`).
    pub(crate) fn read(
        fs: &dyn FileSystem,
        id: DocId,
        path: &Path,
        registries: Registries,
        clock: Arc<dyn Clock>,
    ) -> Result<Session, Vec<Diagnostic>> {
        let read_failed = |e: std::io::Error| {
            vec![Diagnostic::error(codes::READ_FAILED, format!("cannot read {}: {e}", path.display()))]
        };
        let (fingerprint, bytes) = Fingerprint::read(fs, path)
            .map_err(read_failed)?
            .ok_or_else(|| read_failed(std::io::Error::new(std::io::ErrorKind::NotFound, "no such file")))?;
        // The bytes become the text kept, without a copy; text that is not UTF-8 is told
        // where, as `decode_utf8` tells it.
        let text = String::from_utf8(bytes).map_err(|e| match json::decode_utf8(e.as_bytes()) {
            Err(d) => vec![d],
            Ok(_) => vec![Diagnostic::error(json::codes::INVALID_UTF8, "the file is not valid UTF-8")],
        })?;
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
        let mut s = Session::unchecked_from_source(id, name.as_deref(), text, registries, clock)?;
        s.path = Some(path.to_path_buf());
        s.fingerprint = Some(fingerprint);
        s.load_layout(fs);
        Ok(s)
    }

    /// Reads the layout sidecar beside the file, if any.
    pub(crate) fn load_layout(&mut self, fs: &dyn FileSystem) {
        if let Document::Weaveflow(d) = &self.document {
            // Weaveflow keeps positions in the document itself: no sidecar.
            (self.layout, self.layout_missing) = crate::formats::weaveflow::layout_of(d);
            self.notices.extend(crate::formats::weaveflow::annotation_notices(d));
            return;
        }
        let Some(path) = &self.path else { return };
        let side = sidecar_path(path);
        self.layout_missing = true;
        match fs.read(&side) {
            Ok(bytes) => match json::decode_utf8(&bytes).and_then(Layout::parse_with_warnings) {
                Ok((l, warnings)) => {
                    self.layout = l;
                    self.layout_missing = false;
                    for w in warnings {
                        self.notices.push(Diagnostic::warning(
                            layout::codes::BAD_LAYOUT,
                            format!("the layout file {}: {w}", side.display()),
                        ));
                    }
                }
                Err(d) => self.notices.push(Diagnostic::warning(
                    layout::codes::BAD_LAYOUT,
                    format!("the layout file {} was not used: {}", side.display(), d.message),
                )),
            },
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => self.notices.push(Diagnostic::warning(
                layout::codes::BAD_LAYOUT,
                format!("the layout file {} could not be read: {e}", side.display()),
            )),
        }
    }
}
