//! Opening a file: in one step ([`Workspace::open`]) or in two, so that an app reads, lays out
//! and checks a large file without holding the workspace ([`Workspace::start_open`],
//! [`OpenStart::read`], [`Opening::check`], [`Workspace::finish_open`]), with progress and a
//! way to stop.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use trellis_spec::Diagnostic;

use super::codes;
use super::documents::Workspace;
use crate::clock::Clock;
use crate::document::DocId;
use crate::fs::FileSystem;
use crate::registries::Registries;
use crate::session::Session;

/// How far an open has got, for a progress display; see [`Workspace::open_with_progress`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum OpenStage {
    /// Reading, parsing and checking the file (no fraction is known).
    Reading,
    /// Laying out a document that has no layout of its own; the fraction done, in [0, 1].
    LayingOut { nodes: usize, fraction: f64 },
}

/// What [`Workspace::begin_open`] found.
#[derive(Debug)]
pub enum Begun {
    /// The file is open already (as this document).
    AlreadyOpen(DocId),
    /// The file was read: see [`Opening`] (boxed: a session is large, a document id small).
    Read(Box<Opening>),
}

/// A document read for opening, not yet checked (its findings are those of reading only) and
/// not yet in the workspace: shown as it is ([`Opening::session`]), checked apart
/// ([`Opening::check`]), then added by [`Workspace::finish_open`].
pub struct Opening {
    session: Session,
    checked: bool,
}

impl std::fmt::Debug for Opening {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Opening").field("id", &self.session.id()).field("checked", &self.checked).finish()
    }
}

impl Opening {
    /// The document as read.
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// Runs the one validator on the document (once), and learns whether its text is in
    /// canonical form (`Session::learn_source_form`).
    pub fn check(&mut self) {
        if !self.checked {
            self.session.revalidate();
            self.session.learn_source_form();
            self.checked = true;
        }
    }
}

/// What [`Workspace::start_open`] found.
#[derive(Debug)]
pub enum Starting {
    /// The file is open already (as this document).
    AlreadyOpen(DocId),
    /// Ready to be read: see [`OpenStart::read`].
    Ready(OpenStart),
}

/// An open taken from the workspace, to read and lay out without it.
pub struct OpenStart {
    path: PathBuf,
    fs: Arc<dyn FileSystem>,
    registries: Registries,
    id: DocId,
    clock: Arc<dyn Clock>,
}

impl std::fmt::Debug for OpenStart {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OpenStart").field("path", &self.path).field("id", &self.id).finish()
    }
}

impl OpenStart {
    /// Reads the file and lays out a document that has no layout of its own, telling
    /// `progress` where it is; `progress` answers whether to go on. Stopped, nothing is
    /// opened and the answer is a `doc/open-cancelled` diagnostic.
    pub fn read(self, progress: &mut dyn FnMut(OpenStage) -> bool) -> Result<Box<Opening>, Vec<Diagnostic>> {
        let path = self.path.as_path();
        let cancelled = || {
            let name = path.file_name().unwrap_or(path.as_os_str()).to_string_lossy();
            vec![Diagnostic::info(
                codes::OPEN_CANCELLED,
                format!("opening {name} was stopped; nothing was opened"),
            )]
        };
        if !progress(OpenStage::Reading) {
            return Err(cancelled());
        }
        let mut session = Session::read(self.fs.as_ref(), self.id, path, self.registries, self.clock)?;
        let nodes = session.document().node_ids().len();
        // Only a document without a layout of its own is laid out (placing terminals is quick).
        let laid_out = if session.layout_missing() && nodes > 0 {
            progress(OpenStage::LayingOut { nodes, fraction: 0.0 })
                && session.lay_out_if_missing_with(&mut |fraction| {
                    progress(OpenStage::LayingOut { nodes, fraction })
                })
        } else {
            session.lay_out_if_missing_with(&mut |_| true)
        };
        if !laid_out {
            return Err(cancelled());
        }
        // What the subgraph nodes refer to is part of what is shown.
        session.attach_fs(self.fs);
        Ok(Box::new(Opening { session, checked: false }))
    }
}

impl Workspace {
    /// Opens a file (or focuses it when already open).
    pub fn open(&mut self, path: &Path) -> Result<DocId, Vec<Diagnostic>> {
        self.open_with_progress(path, &mut |_| true)
    }

    /// [`Workspace::open`] telling `progress` where it is; `progress` answers whether to go on.
    /// A large file without a layout takes long to read and lay out, and the user may stop
    /// it: then nothing is opened, the recent list is unchanged, and the answer is a
    /// `doc/open-cancelled` diagnostic.
    pub fn open_with_progress(
        &mut self,
        path: &Path,
        progress: &mut dyn FnMut(OpenStage) -> bool,
    ) -> Result<DocId, Vec<Diagnostic>> {
        match self.begin_open(path, progress)? {
            Begun::AlreadyOpen(id) => Ok(id),
            Begun::Read(opening) => Ok(self.finish_open(opening)),
        }
    }

    /// The first step of an open in two: the file read and laid out, not yet checked and not
    /// yet in the workspace ([`Opening`]), or the document already open for `path`. An app
    /// shows a large document while it is checked: the checks need no workspace, so they run
    /// apart, and [`Workspace::finish_open`] adds the document.
    pub fn begin_open(
        &mut self,
        path: &Path,
        progress: &mut dyn FnMut(OpenStage) -> bool,
    ) -> Result<Begun, Vec<Diagnostic>> {
        match self.start_open(path) {
            Starting::AlreadyOpen(id) => Ok(Begun::AlreadyOpen(id)),
            Starting::Ready(start) => Ok(Begun::Read(start.read(progress)?)),
        }
    }

    /// What an open needs of the workspace, taken at once: the shell then reads and lays the
    /// file out ([`OpenStart::read`]) without holding the workspace, so the window goes on
    /// answering while a large file opens, and adds it with [`Workspace::finish_open`].
    pub fn start_open(&mut self, path: &Path) -> Starting {
        if let Some(id) = self.find_by_path(path) {
            return Starting::AlreadyOpen(id);
        }
        let registries = self.load_registries(Some(path));
        let id = self.next_doc_id();
        Starting::Ready(OpenStart {
            path: path.to_path_buf(),
            fs: self.fs.clone(),
            registries,
            id,
            clock: self.clock.clone(),
        })
    }

    /// The last step of an open in two ([`Workspace::begin_open`]): the document checked (if
    /// [`Opening::check`] was not called), added, and first in the recent list. A file opened
    /// meanwhile by another way in (read without the workspace) is not opened twice.
    pub fn finish_open(&mut self, mut opening: Box<Opening>) -> DocId {
        if let Some(id) = opening.session.path().and_then(|p| self.find_by_path(p)) {
            return id;
        }
        opening.check();
        if let Some(path) = opening.session.path().map(Path::to_path_buf) {
            self.push_recent(&path);
        }
        self.insert_attached(opening.session, None)
    }
}
