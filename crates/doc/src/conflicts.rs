//! The merge driver's conflict report beside a document (`NAME.conflicts.json`, docs/git.md),
//! resolved in the app: each conflict shows its base, ours and theirs values and its pointer;
//! the user picks one of them or edits the value (JSON), and each pick is one ordinary edit
//! (`Edit::ReplaceDocument`, one undo step). When every conflict is resolved, the next save
//! (the normal save pipeline) removes the report.
//!
//! A conflict counts as resolved when a pick was made and the document still holds the picked
//! value there (undoing a pick reopens it). `invalid` conflicts carry no values: the document
//! is fixed by hand and the conflict marked resolved.
//!
//! Reports of version 2 say what the file holds (`kept`): `merged` (everything that merged
//! cleanly from both sides, OURS at each conflict), so resolving every conflict gives the full
//! three-way merge; or `ours` when the merge could not be written at all. Version 1 reports
//! (an older driver) always left OURS in the file: they are still read, and the panel says that
//! THEIRS' clean changes are not in the file.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::Value;
use trellis_diff::document as ddoc;
use trellis_diff::take::{set_at, value_at};
use trellis_diff::{Conflict, Element, Reason};
use trellis_spec::Diagnostic;
use ts_rs::TS;

use crate::edit::Edit;
use crate::fs::FileSystem;
use crate::session::Session;

/// Codes of the conflict report.
pub mod codes {
    /// The report beside the document is not a conflict report Trellis can read; the document
    /// opens anyway.
    pub const MALFORMED_REPORT: &str = "conflicts/malformed-report";
    /// A pick cannot be applied (not JSON, not an object where an element is set, unknown
    /// conflict).
    pub const BAD_PICK: &str = "conflicts/bad-pick";
    /// Saved with conflicts still open: the report stays.
    pub const STILL_OPEN: &str = "conflicts/still-open";
    /// Every conflict was resolved and saved: the report was removed.
    pub const REPORT_REMOVED: &str = "conflicts/report-removed";
}

/// `NAME.conflicts.json` for the document at `doc`.
pub fn report_path(doc: &Path) -> PathBuf {
    let mut s = doc.as_os_str().to_owned();
    s.push(".conflicts.json");
    PathBuf::from(s)
}

#[derive(Deserialize)]
struct ReportFile {
    trellis: String,
    version: u32,
    /// Version 2: `merged` or `ours` (version 1 had no such field and always kept OURS).
    #[serde(default)]
    kept: Option<String>,
    conflicts: Vec<Conflict>,
}

/// What the user chose for one conflict.
#[derive(Debug, Clone, PartialEq, Deserialize, TS)]
#[serde(tag = "pick", rename_all = "kebab-case")]
#[ts(export)]
pub enum ConflictPick {
    Ours,
    Theirs,
    Base,
    /// A value typed by the user, as JSON text (`""` removes the value).
    Edited {
        json: String,
    },
    /// An `invalid` conflict fixed by hand.
    Resolved,
}

/// One conflict as the panel shows it.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct ConflictRow {
    pub index: usize,
    /// The element in words (`node "buy"`, `edge a → b`, `graph`, `Markdown body`).
    pub element: String,
    pub pointer: String,
    /// `both-changed`, `both-added`, `changed-and-deleted` or `invalid`.
    pub reason: String,
    pub message: String,
    /// Pretty JSON of each side's value (absent where that side has none).
    #[ts(optional)]
    pub base: Option<String>,
    #[ts(optional)]
    pub ours: Option<String>,
    #[ts(optional)]
    pub theirs: Option<String>,
    /// What the document holds there now.
    #[ts(optional)]
    pub current: Option<String>,
    /// `ours`, `theirs`, `base`, `edited` or `resolved` once picked.
    #[ts(optional)]
    pub picked: Option<String>,
    pub resolved: bool,
}

/// The conflict report of a document, as the panel shows it.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[ts(export)]
pub struct ConflictsView {
    /// The report's file name.
    pub report: String,
    pub conflicts: Vec<ConflictRow>,
    /// How many are not resolved yet.
    pub open: usize,
    /// What the file held when the merge driver left it: `merged` (both sides' clean changes,
    /// OURS at each conflict: resolving every conflict gives the whole merge) or `ours` (OURS
    /// only: THEIRS' clean changes are not in the file; an old report, or a merge that could
    /// not be written).
    pub kept: String,
}

/// A report being resolved.
#[derive(Debug, Clone)]
pub struct ConflictSet {
    path: PathBuf,
    /// `merged` or `ours` (see [`ConflictsView::kept`]).
    kept: String,
    conflicts: Vec<Conflict>,
    /// The pick and the value it put in the document.
    picks: Vec<Option<(String, Option<Value>)>>,
}

fn malformed(path: &Path, why: impl std::fmt::Display) -> Diagnostic {
    let name =
        path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned());
    Diagnostic::warning(
        codes::MALFORMED_REPORT,
        format!("{name} beside the document is not a conflict report Trellis can read ({why}); the document opened as it is"),
    )
}

/// Reads the conflict report beside the document at `doc`: `None` when there is none.
pub fn load(fs: &dyn FileSystem, doc: &Path) -> Option<Result<ConflictSet, Diagnostic>> {
    let path = report_path(doc);
    if !fs.exists(&path) {
        return None;
    }
    let bytes = match fs.read(&path) {
        Ok(b) => b,
        Err(e) => return Some(Err(malformed(&path, format!("cannot read it: {e}")))),
    };
    Some(parse(&path, &bytes))
}

fn parse(path: &Path, bytes: &[u8]) -> Result<ConflictSet, Diagnostic> {
    let report: ReportFile = serde_json::from_slice(bytes).map_err(|e| malformed(path, e))?;
    if report.trellis != "merge-conflicts" {
        return Err(malformed(path, format!("it says it is \"{}\"", report.trellis)));
    }
    let kept = match (report.version, report.kept.as_deref()) {
        (1, _) => "ours",
        (2, Some(k @ ("merged" | "ours"))) => k,
        (2, Some(other)) => {
            return Err(malformed(
                path,
                format!("it says the file holds \"{other}\", not \"merged\" or \"ours\""),
            ))
        }
        (2, None) => return Err(malformed(path, "it does not say what the file holds (`kept`)")),
        (v, _) => return Err(malformed(path, format!("version {v} is not one this Trellis reads"))),
    };
    let picks = vec![None; report.conflicts.len()];
    Ok(ConflictSet { path: path.to_path_buf(), kept: kept.to_owned(), conflicts: report.conflicts, picks })
}

fn pretty(v: &Option<Value>) -> Option<String> {
    v.as_ref().map(|v| match v {
        // Body chunks are text: shown as text.
        Value::String(s) if s.contains('\n') => s.clone(),
        v => serde_json::to_string_pretty(v).unwrap_or_default(),
    })
}

fn element_words(e: &Element) -> String {
    match e {
        Element::Graph => "graph".into(),
        Element::Channel { name } => format!("channel \"{name}\""),
        Element::Node { id } => format!("node \"{id}\""),
        Element::Edge { from, to, nth } if *nth == 0 => format!("edge {from} → {to}"),
        Element::Edge { from, to, nth } => format!("edge {from} → {to} (#{})", nth + 1),
        Element::Body => "Markdown body".into(),
    }
}

fn reason_words(r: Reason) -> &'static str {
    match r {
        Reason::BothChanged => "both-changed",
        Reason::BothAdded => "both-added",
        Reason::ChangedAndDeleted => "changed-and-deleted",
        Reason::Invalid => "invalid",
    }
}

fn bad(message: impl Into<String>) -> Diagnostic {
    Diagnostic::error(codes::BAD_PICK, message)
}

/// GRAPH.md body conflicts point at a line (`/body/line/N`, 1-based, in the merged text).
fn body_line(pointer: &str) -> Option<usize> {
    pointer.strip_prefix("/body/line/")?.parse().ok()
}

fn lines(s: &str) -> usize {
    s.split_inclusive('\n').count()
}

impl ConflictSet {
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn current(session: &Session) -> Result<ddoc::Document, Diagnostic> {
        let name = session.path().and_then(|p| p.file_name()).map(|n| n.to_string_lossy().into_owned());
        ddoc::read(name.as_deref(), session.text().as_bytes(), None)
            .map_err(|e| bad(format!("the document cannot be read as a graph now: {e}")))
    }

    /// Where body conflict `i` starts now (0-based line), counting the lines earlier body picks
    /// added or removed.
    fn body_start(&self, i: usize, line: usize) -> usize {
        let mut at = line.saturating_sub(1) as isize;
        for (j, c) in self.conflicts.iter().enumerate().take(i) {
            if let (Some(l), Some((_, Some(Value::String(v))))) = (body_line(&c.pointer), &self.picks[j]) {
                if l < line {
                    let ours = c.ours.as_ref().and_then(Value::as_str).unwrap_or("");
                    at += lines(v) as isize - lines(ours) as isize;
                }
            }
        }
        at.max(0) as usize
    }

    /// The text of `n` body lines from `start`.
    fn body_region(body: &str, start: usize, n: usize) -> String {
        body.split_inclusive('\n').skip(start).take(n).collect()
    }

    /// What the document holds where conflict `i` points.
    fn holds(&self, i: usize, g: &trellis_diff::Graph, len_of: Option<&Value>) -> Option<Value> {
        let c = &self.conflicts[i];
        match (&c.element, body_line(&c.pointer)) {
            (Element::Body, Some(line)) => {
                let body = g.body.as_deref().unwrap_or("");
                let n = len_of.and_then(Value::as_str).map_or(0, lines);
                Some(Value::String(Self::body_region(body, self.body_start(i, line), n)))
            }
            _ => value_at(g, &c.element, &c.pointer),
        }
    }

    fn resolved(&self, i: usize, g: &trellis_diff::Graph) -> bool {
        match &self.picks[i] {
            None => false,
            Some((pick, _)) if pick == "resolved" => true,
            Some((_, value)) => self.holds(i, g, value.as_ref()) == *value,
        }
    }

    /// The panel's view against the document now.
    pub fn view(&self, session: &Session) -> ConflictsView {
        let graph = Self::current(session).ok().map(|d| d.graph);
        let conflicts: Vec<ConflictRow> = self
            .conflicts
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let picked_value = self.picks[i].as_ref().and_then(|(_, v)| v.as_ref());
                let current = graph
                    .as_ref()
                    .filter(|_| c.reason != Reason::Invalid)
                    .and_then(|g| self.holds(i, g, picked_value.or(c.ours.as_ref())));
                ConflictRow {
                    index: i,
                    element: element_words(&c.element),
                    pointer: c.pointer.clone(),
                    reason: reason_words(c.reason).into(),
                    message: c.message.clone(),
                    base: pretty(&c.base),
                    ours: pretty(&c.ours),
                    theirs: pretty(&c.theirs),
                    current: pretty(&current),
                    picked: self.picks[i].as_ref().map(|(p, _)| p.clone()),
                    resolved: graph.as_ref().is_some_and(|g| self.resolved(i, g)),
                }
            })
            .collect();
        let open = conflicts.iter().filter(|c| !c.resolved).count();
        let report = self.path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        ConflictsView { report, conflicts, open, kept: self.kept.clone() }
    }

    /// Records a pick and answers the edit that puts its value in the document (`None` when the
    /// document already holds it, or for a conflict marked resolved).
    pub fn pick(
        &mut self,
        session: &Session,
        index: usize,
        pick: &ConflictPick,
    ) -> Result<Option<Edit>, Diagnostic> {
        let c =
            self.conflicts.get(index).ok_or_else(|| bad(format!("there is no conflict {index}")))?.clone();
        let (name, value) = match pick {
            ConflictPick::Ours => ("ours", c.ours.clone()),
            ConflictPick::Theirs => ("theirs", c.theirs.clone()),
            ConflictPick::Base => ("base", c.base.clone()),
            ConflictPick::Edited { json } if json.trim().is_empty() => ("edited", None),
            ConflictPick::Edited { json } => match serde_json::from_str::<Value>(json) {
                Ok(v) => ("edited", Some(v)),
                Err(e) => return Err(bad(format!("the value is not JSON: {e}"))),
            },
            ConflictPick::Resolved => {
                self.picks[index] = Some(("resolved".into(), None));
                return Ok(None);
            }
        };
        if c.reason == Reason::Invalid {
            return Err(bad("this conflict has no values to pick: fix the document, then mark it resolved"));
        }
        let current = Self::current(session)?;
        let graph = match (&c.element, body_line(&c.pointer)) {
            (Element::Body, Some(line)) => {
                let text = match &value {
                    Some(Value::String(s)) => s.clone(),
                    None => String::new(),
                    Some(other) => return Err(bad(format!("a body region is text, not {other}"))),
                };
                let body = current.graph.body.clone().unwrap_or_default();
                let start = self.body_start(index, line);
                let held = self.picks[index].as_ref().and_then(|(_, v)| v.clone()).or(c.ours.clone());
                let n = held.as_ref().and_then(Value::as_str).map_or(0, lines);
                let all: Vec<&str> = body.split_inclusive('\n').collect();
                let start = start.min(all.len());
                let end = (start + n).min(all.len());
                let new_body = format!("{}{}{}", all[..start].concat(), text, all[end..].concat());
                set_at(&current.graph, &Element::Body, "", Some(Value::String(new_body)))
            }
            _ => set_at(&current.graph, &c.element, &c.pointer, value.clone()),
        }
        .map_err(|e| bad(e.to_string()))?;
        self.picks[index] = Some((name.into(), value));
        if graph == current.graph {
            return Ok(None);
        }
        let text = current
            .with_graph(graph)
            .to_text()
            .map_err(|why| bad(format!("that value does not make a document: {why}")))?;
        Ok(Some(Edit::ReplaceDocument { text, positions: Default::default() }))
    }

    /// Forgets a pick whose edit was refused.
    pub fn unpick(&mut self, index: usize) {
        if let Some(p) = self.picks.get_mut(index) {
            *p = None;
        }
    }

    /// True when every conflict is resolved in the document as it is now.
    pub fn all_resolved(&self, session: &Session) -> bool {
        self.view(session).open == 0
    }

    /// After a successful save: removes the report when every conflict is resolved (answers
    /// what happened, for the user), else says it stays.
    pub fn after_save(&self, fs: &dyn FileSystem, session: &Session) -> Diagnostic {
        let view = self.view(session);
        if view.open > 0 {
            return Diagnostic::info(
                codes::STILL_OPEN,
                format!(
                    "{} of {} conflicts are still open; {} stays until they are resolved",
                    view.open,
                    view.conflicts.len(),
                    view.report
                ),
            );
        }
        match fs.remove(&self.path) {
            Ok(()) => Diagnostic::info(
                codes::REPORT_REMOVED,
                format!(
                    "every conflict is resolved: {} was removed (git add the file to mark it merged)",
                    view.report
                ),
            ),
            Err(e) => Diagnostic::warning(
                codes::REPORT_REMOVED,
                format!("every conflict is resolved, but {} could not be removed: {e}", view.report),
            ),
        }
    }
}

#[cfg(test)]
mod tests;
