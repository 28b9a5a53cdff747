//! `trellis merge BASE OURS THEIRS [--path NAME]`: the Git merge driver (`%O %A %B %P`).
//!
//! Merges by element id (trellis-diff, docs/git.md): on a clean merge OURS is replaced,
//! atomically, by the merged document in canonical form and the exit is 0. On a conflict the
//! file gets the merge of everything that merged cleanly, with OURS at each conflict (a
//! document, never conflict markers), the conflicts with their base, ours and theirs values
//! are written to `NAME.conflicts.json` beside it and the exit is 1, so Git marks the file
//! conflicted; resolving every conflict then gives the whole merge. When the merge cannot be
//! written at all, the file keeps OURS and the report says so (`kept: ours`).
//! Layout sidecars (`*.layout.json`) merge by union and never conflict. An input that cannot
//! be read, or documents in different formats, exit 2 with nothing written.

use std::path::{Path, PathBuf};

use trellis_diff::document::{self, Document};
use trellis_diff::{layout, merge_owned, report_text, MergeOutcome};

use crate::commands::diff::read_file;
use crate::load::write_atomically;
use crate::report::{self, Exit};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The common ancestor (Git's %O; empty when both sides added the file).
    #[arg(value_name = "BASE")]
    pub base: PathBuf,
    /// Our version (%A): replaced by the merge when it is clean.
    #[arg(value_name = "OURS")]
    pub ours: PathBuf,
    /// Their version (%B).
    #[arg(value_name = "THEIRS")]
    pub theirs: PathBuf,
    /// The document's path in the repository (%P): names the format and the conflict report
    /// (`NAME.conflicts.json`). Defaults to OURS.
    #[arg(long, value_name = "NAME")]
    pub path: Option<PathBuf>,
}

pub fn run(args: Args) -> Exit {
    match go(&args) {
        Ok(exit) => exit,
        Err(message) => {
            report::note(&message);
            Exit::Usage
        }
    }
}

/// `NAME.conflicts.json`.
pub fn report_path(name: &Path) -> PathBuf {
    let mut s = name.as_os_str().to_owned();
    s.push(".conflicts.json");
    PathBuf::from(s)
}

fn go(args: &Args) -> Result<Exit, String> {
    let name = args.path.clone().unwrap_or_else(|| args.ours.clone());
    let shown = name.display().to_string();
    let base = read_file(&args.base)?;
    let ours = read_file(&args.ours)?;
    let theirs = read_file(&args.theirs)?;

    if layout::is_sidecar_name(&shown) {
        let text = layout::merge_sidecars(&base, &ours, &theirs).map_err(|e| format!("{shown}: {e}"))?;
        write_atomically(&args.ours, &text).map_err(|e| format!("{}: {e}", args.ours.display()))?;
        report::note(&format!("{shown}: layout merged (positions from both sides)"));
        return Ok(Exit::Clean);
    }

    let file_name = name.file_name().map(|n| n.to_string_lossy().into_owned());
    let name_ref = file_name.as_deref();
    // Git passes an empty base when both sides added the file.
    let base_empty = base.iter().all(u8::is_ascii_whitespace);
    let side = |side: &str, r: Result<Document, document::ReadError>| {
        r.map_err(|e| format!("{shown} ({side}): {e}"))
    };
    let (ours_doc, theirs_doc, base_doc) = if base_empty {
        let [o, t] = document::read_all([(name_ref, &ours, None), (name_ref, &theirs, None)]);
        let o = side("ours", o)?;
        let base = empty_like(&o);
        (o, side("theirs", t)?, base)
    } else {
        let [o, t, b] =
            document::read_all([(name_ref, &ours, None), (name_ref, &theirs, None), (name_ref, &base, None)]);
        (side("ours", o)?, side("theirs", t)?, side("base", b)?)
    };
    // The documents are given to the merge: it takes their elements instead of copying them.
    let outcome = merge_owned(base_doc, ours_doc, theirs_doc).map_err(|e| format!("{shown}: {e}"))?;

    let report_file = report_path(&name);
    match (&outcome.text, outcome.conflicts.is_empty()) {
        (Some(text), true) => {
            write_atomically(&args.ours, text).map_err(|e| format!("{}: {e}", args.ours.display()))?;
            Ok(Exit::Clean)
        }
        (merged, _) => {
            // The report first: a file holding the merge is never left without the report
            // that says where its conflicts are.
            let report = report_text(&shown, &outcome);
            write_atomically(&report_file, &report).map_err(|e| format!("{}: {e}", report_file.display()))?;
            let holds = match merged {
                Some(text) => {
                    if let Err(e) = write_atomically(&args.ours, text) {
                        // OURS is still in place: say so in the report, as the driver would
                        // have had the merge not been writable.
                        let kept_ours = MergeOutcome { text: None, ..outcome.clone() };
                        let _ = write_atomically(&report_file, &report_text(&shown, &kept_ours));
                        return Err(format!("{}: {e}", args.ours.display()));
                    }
                    "the file holds both sides' clean changes and our version at each conflict"
                }
                None => "the merge cannot be written, so the file keeps our version",
            };
            let mut msg = format!(
                "{shown}: {} conflict{}; {holds}; the conflicts are in {}\n",
                outcome.conflicts.len(),
                if outcome.conflicts.len() == 1 { "" } else { "s" },
                report_file.display()
            );
            for c in &outcome.conflicts {
                msg.push_str(&format!("  {}\n", c.message));
            }
            report::write_stderr(&msg);
            Ok(Exit::Problems)
        }
    }
}

/// An empty document in `like`'s format (the base of an add/add merge).
fn empty_like(like: &Document) -> Document {
    let g = &like.graph;
    like.with_graph(trellis_diff::Graph {
        format: g.format,
        fields: Default::default(),
        channels: Default::default(),
        nodes: Default::default(),
        edges: Default::default(),
        layout: None,
        body: g.body.as_ref().map(|_| String::new()),
        key_order: g.key_order.clone(),
    })
}
