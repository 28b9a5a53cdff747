//! The save pipeline (DESIGN.md "The save pipeline"), all five steps:
//!
//! 1. the format's writer serializes the document;
//! 2. the text is parsed back and the document read must be written as the same text (so it
//!    holds what was saved, key order and number text included), otherwise it is a bug and the
//!    save is refused rather than written;
//! 3. what the format cannot hold (a position that is not a finite number; a document whose
//!    text does not read back as itself) refuses the save, naming it; the file is untouched (the
//!    work lives on in the recovery journal). Validation errors do not: the document is written
//!    with its problems, which stay the session's findings (the app counts them when it says
//!    the file was saved). Trapping the user's work until every problem is fixed loses more than
//!    it protects: the runtime and `trellis validate`, CI's gate, still refuse the file.
//! 4. the file on disk must still match the fingerprint taken when it was read or last written,
//!    otherwise it is a conflict and nothing is written;
//! 5. atomic write ([`crate::fs::atomic_write`]), the file read back and compared with the text
//!    (a large document's before it is put in place), then the layout sidecar the same way.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use trellis_spec::{read, writer, Diagnostic, GraphSpec};
use ts_rs::TS;

use crate::document::Document;
use crate::fingerprint::Fingerprint;
use crate::fs::{atomic_write, stage, write_beside, AtomicWriteError, FileSystem, Staged};
use crate::layout::sidecar_path;
use crate::session::Session;

/// Diagnostic codes of the save pipeline.
pub mod codes {
    /// The text did not survive being read back and written again: a bug; nothing written.
    pub const ROUNDTRIP_MISMATCH: &str = "save/roundtrip-mismatch";
    /// The file changed on disk since it was read or last saved: nothing written.
    pub const CONFLICT: &str = "save/conflict";
    /// An untitled document needs a path (Save As).
    pub const NO_PATH: &str = "save/no-path";
    /// Writing failed before the file was replaced: the file on disk is untouched.
    pub const WRITE_FAILED: &str = "save/write-failed";
    /// The file was replaced but flushing its folder to disk failed (warning).
    pub const SYNC_FAILED: &str = "save/sync-failed";
    /// The file was replaced but reading it back gave other bytes (error after the fact).
    pub const VERIFY_FAILED: &str = "save/verify-failed";
    /// The document was saved but its layout file was not (warning; retried on next save).
    pub const LAYOUT_WRITE_FAILED: &str = "save/layout-write-failed";
    /// A position that is not a finite number cannot be stored in the layout file.
    pub const BAD_LAYOUT: &str = "save/bad-layout";
}

/// What a save wrote.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct SaveOutcome {
    /// The path saved to, as the user knows it.
    pub path: String,
    /// The file actually replaced (the symlink's target when the path is a link).
    pub target: String,
    #[ts(type = "number")]
    pub bytes: u64,
    /// The file did not exist any more (deleted outside) and was written again.
    pub recreated: bool,
    /// The layout sidecar written, if it was.
    #[ts(type = "string | null")]
    pub layout_path: Option<String>,
    /// This save created the layout sidecar (it did not exist): the UI announces the new file.
    pub layout_created: bool,
    /// The file as it was read was not in canonical form and this save rewrote it: the number
    /// of its lines that changed for that reason alone (not the user's edits; `crate::reformat`).
    #[ts(type = "number | null")]
    pub reformatted_lines: Option<u64>,
    pub fingerprint: Fingerprint,
    /// Problems that did not stop the save (folder fsync, layout file).
    pub warnings: Vec<Diagnostic>,
}

/// Why a save wrote nothing. `diagnostics` say why (first the `save/...` one).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct SaveRefused {
    pub diagnostics: Vec<Diagnostic>,
    /// True when the refusal is a conflict (the session now holds the data to compare).
    pub conflict: bool,
}

impl SaveRefused {
    fn one(d: Diagnostic) -> Self {
        SaveRefused { diagnostics: vec![d], conflict: false }
    }
}

/// Steps 1 to 3: the text to write, or the reasons not to.
pub fn prepare(session: &Session) -> Result<String, SaveRefused> {
    let spec = match session.document() {
        Document::GraphSpec(spec) => spec,
        // Weaveflow and GRAPH.md: their own writer, read-back and validator.
        other => {
            let text = prepare_format(session, other)?;
            check_positions(session)?;
            return Ok(text);
        }
    };
    let text = canonical_text(spec);
    check_text(session, &text)?;
    Ok(text)
}

/// Step 1 of a GraphSpec's save: its canonical text.
fn canonical_text(spec: &GraphSpec) -> String {
    writer::to_canonical_string(spec)
}

/// Steps 2-3 of a GraphSpec's save: `text` (the document's canonical text) reads back to a
/// document written as this very text, and its positions can be stored. The document's
/// problems do not refuse it: they are the session's findings (every edit and registry change
/// revalidates), told with the outcome.
fn check_text(session: &Session, text: &str) -> Result<(), SaveRefused> {
    read_back(text)?;
    check_positions(session)
}

/// `text`, a document's canonical text, read back: it must read to a document that is written
/// as this very text again. What the reading finds wrong in it is what it found in the text the
/// document came from, so it is among the document's findings already.
fn read_back(text: &str) -> Result<(), SaveRefused> {
    let parsed = read::parse_spec(text);
    let Some(back) = parsed.spec else {
        let mut diagnostics = vec![Diagnostic::error(
            codes::ROUNDTRIP_MISMATCH,
            "the written text could not be read back (a bug in Trellis); nothing was saved",
        )];
        diagnostics.extend(parsed.diagnostics);
        return Err(SaveRefused { diagnostics, conflict: false });
    };
    // The document read back must be written as the same bytes: then it holds what the saved
    // document holds, key order and number text included (the writer writes every part of the
    // model), and the file will open as the document saved. The bytes are compared as they are
    // written (`writer::is_canonical`), without a second copy of the text.
    if !writer::is_canonical(&back, text) {
        return Err(SaveRefused::one(Diagnostic::error(
            codes::ROUNDTRIP_MISMATCH,
            "the document did not survive being read back and written again (a bug in Trellis); nothing was saved",
        )));
    }
    Ok(())
}

/// Steps 1-5 of a large GraphSpec's save side by side. At once: the file on disk fingerprinted
/// for step 4 (read in pieces, no copy kept), the layout file written beside its file, and the
/// canonical text written; once the text is there, at once again: read back and checked (steps
/// 2-3) and written beside the file, then flushed while it is read back from there (step 5's
/// read-back, [`stage_read_back`]). Each reads or writes about the size of the document; the
/// writes are put in place only once the checks pass (`Staged`), and dropped otherwise.
fn side_by_side(
    fs: &dyn FileSystem,
    session: &Session,
    spec: &GraphSpec,
    path: &Path,
) -> Result<SideBySide, SaveRefused> {
    let (text, checked, current, staged, layout) = std::thread::scope(|s| {
        let current = s.spawn(|| Fingerprint::current(fs, path));
        let layout = s.spawn(|| stage(fs, &sidecar_path(path), session.layout_text().as_bytes(), 0o644));
        let text = canonical_text(spec);
        let (checked, staged) = std::thread::scope(|s| {
            let staged = s.spawn(|| stage_read_back(fs, path, text.as_bytes()));
            (check_text(session, &text), joined(staged))
        });
        (text, checked, joined(current), staged, joined(layout))
    });
    let (staged, read_back) = match staged {
        Ok((staged, read_back)) => (Ok(staged), Some(read_back)),
        Err(e) => (Err(e), None),
    };
    if let Err(refusal) = checked {
        discard(fs, [Some(staged), Some(layout)]);
        return Err(refusal);
    }
    let read_back = match read_back {
        None => None,
        Some(Ok(Some((fp, true)))) => Some(fp),
        Some(other) => {
            discard(fs, [Some(staged), Some(layout)]);
            return Err(SaveRefused::one(Diagnostic::error(
                codes::VERIFY_FAILED,
                format!(
                    "not saved: the new text of {} was written beside it but reading it back failed: {}; the file on disk is unchanged",
                    path.display(),
                    read_back_failure(other)
                ),
            )));
        }
    };
    Ok(SideBySide { text, current, staged, read_back, layout })
}

/// What a read-back of written bytes answered (`Fingerprint::read_back`).
type ReadBack = std::io::Result<Option<(Fingerprint, bool)>>;

/// The text written beside the file at `path`, then flushed while it is read back from there
/// and compared with `bytes`: the flush waits on the disk, the read-back is the page cache and
/// the CPU, so together they take about the time of the longer, rather than the sum of the
/// two once the file is in place. The temporary file is renamed over
/// the target without being changed, so its fingerprint (content and modification time) is
/// the one of the file saved.
fn stage_read_back(
    fs: &dyn FileSystem,
    path: &Path,
    bytes: &[u8],
) -> Result<(Staged, ReadBack), AtomicWriteError> {
    let written = write_beside(fs, path, bytes, 0o644)?;
    let temp = written.temp().to_path_buf();
    std::thread::scope(|s| {
        let read_back = s.spawn(|| Fingerprint::read_back(fs, &temp, bytes));
        let flushed = written.flush(fs);
        let read_back = joined(read_back);
        flushed.map(|staged| (staged, read_back))
    })
}

/// Why a read-back did not find the bytes written.
fn read_back_failure(read_back: ReadBack) -> String {
    match read_back {
        Ok(Some(_)) => "it holds other bytes".to_owned(),
        Ok(None) => "it is gone".to_owned(),
        Err(e) => e.to_string(),
    }
}

/// What [`side_by_side`] made: the text, the file on disk as read, the text and the layout
/// file staged, and the fingerprint of the staged text as read back (`None` when it was not
/// staged: the write failed).
struct SideBySide {
    text: String,
    current: OnDisk,
    staged: Result<Staged, AtomicWriteError>,
    read_back: Option<Fingerprint>,
    layout: Result<Staged, AtomicWriteError>,
}

/// Removes the staged writes of a save that is not going ahead.
fn discard<const N: usize>(fs: &dyn FileSystem, staged: [Option<Result<Staged, AtomicWriteError>>; N]) {
    for st in staged.into_iter().flatten().flatten() {
        st.discard(fs);
    }
}

/// What a scoped thread answered (its panic goes on in the caller).
fn joined<T>(handle: std::thread::ScopedJoinHandle<'_, T>) -> T {
    handle.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}

/// The fingerprint of the file on disk for step 4 (`None`: there is none).
type OnDisk = std::io::Result<Option<Fingerprint>>;

fn check_positions(session: &Session) -> Result<(), SaveRefused> {
    if let Some((id, _)) =
        session.layout().positions.iter().find(|(_, p)| !p.x.is_finite() || !p.y.is_finite())
    {
        return Err(SaveRefused::one(
            Diagnostic::error(
                codes::BAD_LAYOUT,
                format!("the position of node \"{id}\" is not a finite number"),
            )
            .on_node(id.as_str()),
        ));
    }
    Ok(())
}

/// Saves to the session's own path.
pub fn save(fs: &dyn FileSystem, session: &mut Session) -> Result<SaveOutcome, SaveRefused> {
    let Some(path) = session.path().map(Path::to_path_buf) else {
        return Err(SaveRefused::one(Diagnostic::error(
            codes::NO_PATH,
            "this document has no file yet: use Save As",
        )));
    };
    write_to(fs, session, &path, true)
}

/// Saves to a new path (chosen in a dialog that already confirmed any overwrite); the
/// session then refers to that file.
pub fn save_as(fs: &dyn FileSystem, session: &mut Session, path: &Path) -> Result<SaveOutcome, SaveRefused> {
    let same = session.path() == Some(path);
    write_to(fs, session, path, same)
}

/// From this size of text on (1 MiB), a save reads the file on disk while it writes and checks
/// the new text.
const SIDE_BY_SIDE_FROM: usize = 1 << 20;

fn write_to(
    fs: &dyn FileSystem,
    session: &mut Session,
    path: &Path,
    check_conflict: bool,
) -> Result<SaveOutcome, SaveRefused> {
    // A text typed in the text pane that does not read would be lost.
    crate::text::check_save(session).map_err(SaveRefused::one)?;
    let large = session.source_len() >= SIDE_BY_SIDE_FROM;
    let side = sidecar_path(path);
    let layout_created = !matches!(session.document(), Document::Weaveflow(_)) && !fs.exists(&side);
    let (text, current, staged, read_back, staged_layout) = match session.spec() {
        Some(spec) if large && check_conflict && session.conflict().is_none() => {
            let made = side_by_side(fs, session, spec, path)?;
            (made.text, Some(made.current), Some(made.staged), made.read_back, Some(made.layout))
        }
        _ => {
            let text = prepare(session)?;
            let current =
                (check_conflict && session.conflict().is_none()).then(|| Fingerprint::current(fs, path));
            (text, current, None, None, None)
        }
    };
    // Staged writes that are not committed are removed: the files on disk stay as they were.
    let mut staged_layout = staged_layout;
    let refuse = |staged: Option<Result<Staged, AtomicWriteError>>,
                  layout: Option<Result<Staged, AtomicWriteError>>,
                  refusal: SaveRefused| {
        discard(fs, [staged, layout]);
        Err(refusal)
    };

    // Step 4: the file must still be what we read or wrote.
    let mut recreated = false;
    if check_conflict {
        if session.conflict().is_some() {
            return refuse(
                staged,
                staged_layout,
                SaveRefused { diagnostics: vec![conflict_diagnostic(path)], conflict: true },
            );
        }
        let current = match current.unwrap_or_else(|| Fingerprint::current(fs, path)) {
            Ok(current) => current,
            Err(e) => {
                let d = Diagnostic::error(
                    codes::WRITE_FAILED,
                    format!("cannot check {} before saving: {e}; nothing was written", path.display()),
                );
                return refuse(staged, staged_layout, SaveRefused::one(d));
            }
        };
        match (current, session.fingerprint()) {
            (None, _) => recreated = session.fingerprint().is_some(),
            (Some(now), Some(known)) if now.same_content(known) => {}
            (Some(_), _) => {
                // No fingerprint yet (a restored untitled document saved over a file) or a
                // different one: someone else wrote this file. What it holds is read for the
                // conflict (only then: the check above keeps no copy).
                match Fingerprint::read(fs, path) {
                    // It holds this very text already (a save whose read-back failed wrote it,
                    // or another program wrote the same bytes): nobody's work is lost by saving.
                    Ok(Some((_, bytes))) if bytes == text.as_bytes() => {}
                    Ok(Some((now, bytes))) => {
                        session.set_conflict(&bytes, now);
                        return refuse(
                            staged,
                            staged_layout,
                            SaveRefused { diagnostics: vec![conflict_diagnostic(path)], conflict: true },
                        );
                    }
                    other => {
                        let why = match other {
                            Err(e) => e.to_string(),
                            _ => "it is gone".to_owned(),
                        };
                        let d = Diagnostic::error(
                            codes::WRITE_FAILED,
                            format!(
                                "cannot check {} before saving: {why}; nothing was written",
                                path.display()
                            ),
                        );
                        return refuse(staged, staged_layout, SaveRefused::one(d));
                    }
                }
            }
        }
    }

    // Step 5: atomic write (its first half already done when staged), then read back what is on
    // disk, compared with the text piece by piece (a staged text was read back already).
    let written = match staged {
        Some(staged) => staged.and_then(|st| st.commit(fs)),
        None => atomic_write(fs, path, text.as_bytes(), 0o644),
    };
    let mut warnings = Vec::new();
    let target = match written {
        Ok(w) => w.target,
        Err(e) if e.written => {
            warnings.push(Diagnostic::warning(
                codes::SYNC_FAILED,
                format!("saved, but {e}; the file may not survive a power cut"),
            ));
            fs.resolve_symlink(path).unwrap_or_else(|_| path.to_path_buf())
        }
        Err(e) => {
            let d = Diagnostic::error(
                codes::WRITE_FAILED,
                format!("not saved: {e}; the file on disk is unchanged"),
            );
            return refuse(None, staged_layout.take(), SaveRefused::one(d));
        }
    };
    let read_back = match read_back {
        Some(fp) => Ok(Some((fp, true))),
        None => Fingerprint::read_back(fs, &target, text.as_bytes()),
    };
    let fingerprint = match read_back {
        Ok(Some((fp, true))) => fp,
        other => {
            // What is on disk is unknown: record nothing as saved, keep the work dirty.
            let d = Diagnostic::error(
                codes::VERIFY_FAILED,
                format!(
                    "{} was written but reading it back failed: {}",
                    target.display(),
                    read_back_failure(other)
                ),
            );
            return refuse(None, staged_layout.take(), SaveRefused::one(d));
        }
    };
    // Counted before `mark_saved` moves the session on: only a save over the file that was read
    // reformats it (Save As to another file leaves that one as it was).
    let reformatted_lines = match (&session.source, session.source_state) {
        (Some(read), Some(at)) if session.path() == Some(path) => {
            let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
            crate::reformat::reformatted_lines(
                session.document(),
                name.as_deref(),
                crate::reformat::Read { text: read, canonical: session.source_canonical },
                &text,
                session.state == at,
            )
        }
        _ => None,
    };
    session.mark_saved(path.to_path_buf(), fingerprint.clone());
    crate::text::saved(session, &text);
    let bytes = text.len() as u64;
    session.source = Some(text);
    session.source_state = None;

    // The layout sidecar, the same way (staged already beside a large document's checks); its
    // failure does not undo the save. A Weaveflow document keeps its positions in
    // `metadata.web.positions`: no sidecar.
    let layout_path = match (session.document(), staged_layout.take()) {
        (Document::Weaveflow(_), _) => None,
        (_, Some(staged)) => {
            layout_written(session, side, staged.and_then(|st| st.commit(fs)), &mut warnings)
        }
        (_, None) => {
            let written = atomic_write(fs, &side, session.layout_text().as_bytes(), 0o644);
            layout_written(session, side, written, &mut warnings)
        }
    };
    Ok(SaveOutcome {
        path: path.display().to_string(),
        target: target.display().to_string(),
        bytes,
        recreated,
        layout_created: layout_created && layout_path.is_some(),
        layout_path: layout_path.map(|p: PathBuf| p.display().to_string()),
        reformatted_lines,
        fingerprint,
        warnings,
    })
}

/// The layout file `side` after its write: its path, or `None` with a warning when it was not
/// written (then it is retried on the next save).
fn layout_written(
    session: &mut Session,
    side: PathBuf,
    written: Result<crate::fs::AtomicWrite, AtomicWriteError>,
    warnings: &mut Vec<Diagnostic>,
) -> Option<PathBuf> {
    match written {
        Ok(_) => Some(side),
        Err(e) if e.written => {
            warnings.push(Diagnostic::warning(codes::SYNC_FAILED, format!("layout saved, but {e}")));
            Some(side)
        }
        Err(e) => {
            session.layout_missing = true;
            warnings.push(Diagnostic::warning(
                codes::LAYOUT_WRITE_FAILED,
                format!(
                    "the document was saved but its layout file was not: {e}; it is retried on the next save"
                ),
            ));
            None
        }
    }
}

fn conflict_diagnostic(path: &Path) -> Diagnostic {
    Diagnostic::error(
        codes::CONFLICT,
        format!(
            "{} changed on disk since it was opened or last saved; nothing was written (keep mine, take theirs, or compare)",
            path.display()
        ),
    )
}

/// Save steps 1-3 for Weaveflow and GRAPH.md: the format's writer, and the text read back and
/// compared (a text that does not read back as this document is refused). Validation errors do
/// not refuse it: they are the session's findings, told with the outcome.
fn prepare_format(session: &Session, document: &Document) -> Result<String, SaveRefused> {
    match document {
        Document::Weaveflow(d) => {
            crate::formats::weaveflow::roundtrip(d, session.source.as_deref()).map_err(mismatch)
        }
        Document::GraphMd(d) => crate::formats::graphmd::roundtrip(d).map_err(mismatch),
        Document::GraphSpec(_) => Err(mismatch("a GraphSpec reached the wrong writer".into())),
    }
}

fn mismatch(why: String) -> SaveRefused {
    SaveRefused {
        diagnostics: vec![Diagnostic::error(
            codes::ROUNDTRIP_MISMATCH,
            format!(
                "the document did not survive being read back ({why}; a bug in Trellis); nothing was saved"
            ),
        )],
        conflict: false,
    }
}
