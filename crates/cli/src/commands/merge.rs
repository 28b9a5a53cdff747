//! `trellis merge BASE OURS THEIRS [--path NAME]`: the Git merge driver (`%O %A %B %P`).
//!
//! Merges by element id (trellis-diff, docs/git.md): on a clean merge OURS is replaced,
//! atomically, by the merged document in canonical form and the exit is 0. On a conflict OURS
//! is left as it was (a valid document, never conflict markers), the conflicts are written to
//! `NAME.conflicts.json` beside it and the exit is 1, so Git marks the file conflicted.
//! Layout sidecars (`*.layout.json`) merge by union and never conflict. An input that cannot
//! be read, or documents in different formats, exit 2 with nothing written.

use std::path::{Path, PathBuf};

use trellis_diff::document::{self, Document};
use trellis_diff::{layout, merge_documents, report_text};

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
    let read = |side: &str, bytes: &[u8]| {
        document::read(file_name.as_deref(), bytes, None).map_err(|e| format!("{shown} ({side}): {e}"))
    };
    let ours_doc = read("ours", &ours)?;
    let theirs_doc = read("theirs", &theirs)?;
    // Git passes an empty base when both sides added the file.
    let base_doc =
        if base.iter().all(u8::is_ascii_whitespace) { empty_like(&ours_doc) } else { read("base", &base)? };
    let outcome = merge_documents(&base_doc, &ours_doc, &theirs_doc).map_err(|e| format!("{shown}: {e}"))?;

    let report_file = report_path(&name);
    match (&outcome.text, outcome.conflicts.is_empty()) {
        (Some(text), true) => {
            write_atomically(&args.ours, text).map_err(|e| format!("{}: {e}", args.ours.display()))?;
            Ok(Exit::Clean)
        }
        _ => {
            let text = report_text(&shown, &outcome);
            write_atomically(&report_file, &text).map_err(|e| format!("{}: {e}", report_file.display()))?;
            let mut msg = format!(
                "{shown}: {} conflict{}; the file keeps our version, the conflicts are in {}\n",
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
    let mut g = like.graph.clone();
    g.fields.clear();
    g.channels.clear();
    g.nodes.clear();
    g.edges.clear();
    g.layout = None;
    g.body = Some(String::new()).filter(|_| like.graph.body.is_some());
    like.with_graph(g)
}
