//! `trellis diff A B [--format text|json|markdown] [--layout]` and `trellis diff --textconv FILE`
//!
//! The semantic diff of two documents (trellis-diff): nodes, edges, channels and graph fields
//! added, removed, renamed and changed, whatever the formatting. A and B are files or
//! `REV:PATH` (a file at a Git revision, read with gix). Exit 0 when the graphs are the same,
//! 1 when they differ, 2 when an input cannot be read (or the two are in different formats).
//!
//! `--textconv FILE` prints the stable one-line-per-element summary Git's `textconv` uses, so a
//! plain `git diff` shows graph-level lines (docs/git.md).

use std::path::Path;

use trellis_diff::document::{self, Document, MAX_BYTES};
use trellis_diff::{layout, render};

use crate::git;
use crate::load::io_reason;
use crate::report::{self, Exit};

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum DiffFormat {
    /// One line per change.
    #[default]
    Text,
    /// `{summary, changes: [...]}`.
    Json,
    /// For a pull-request comment.
    Markdown,
}

#[derive(Debug, clap::Args)]
pub struct Args {
    /// How to print the changes.
    #[arg(long, value_enum, default_value_t = DiffFormat::Text)]
    pub format: DiffFormat,
    /// Add one line summarising layout changes (positions), which are otherwise left out.
    #[arg(long)]
    pub layout: bool,
    /// Print FILE's stable summary (for Git's `diff.<driver>.textconv`) instead of a diff.
    #[arg(long, conflicts_with_all = ["format", "layout"])]
    pub textconv: bool,
    /// The old and the new document: files, or `REV:PATH` for a file at a Git revision
    /// (`--textconv` takes one file).
    #[arg(value_name = "A B", num_args = 1..=2, required = true)]
    pub inputs: Vec<String>,
}

/// An input's bytes, the name it is shown under, and its file name (format detection).
pub struct Input {
    pub shown: String,
    pub bytes: Vec<u8>,
    /// The layout sidecar's bytes (GraphSpec), when asked for and present.
    pub sidecar: Option<Vec<u8>>,
}

/// Reads a file, refusing one over the size limit before reading it.
pub fn read_file(path: &Path) -> Result<Vec<u8>, String> {
    let shown = path.display();
    if path.is_dir() {
        return Err(format!("{shown}: cannot read: it is a directory"));
    }
    match std::fs::metadata(path) {
        Ok(m) if m.len() > MAX_BYTES as u64 => {
            return Err(format!("{shown}: {}", document::ReadError::TooLarge(m.len() as usize)))
        }
        Ok(_) => {}
        Err(e) => return Err(format!("{shown}: cannot read: {}", io_reason(&e))),
    }
    std::fs::read(path).map_err(|e| format!("{shown}: cannot read: {}", io_reason(&e)))
}

/// The sidecar path of a document path (`x.json` -> `x.layout.json`), as a string.
fn sidecar_of(path: &str) -> String {
    trellis_doc::layout::sidecar_path(Path::new(path)).to_string_lossy().replace('\\', "/")
}

/// Reads an input (file or `REV:PATH`); with `sidecar`, its layout sidecar too when there is one.
pub fn read_input(arg: &str, sidecar: bool) -> Result<Input, String> {
    if let Some((rev, path)) = git::as_revision(arg) {
        let repo = git::discover()?;
        let (bytes, rel) = git::read_in(&repo, rev, path).map_err(|e| format!("{arg}: {e}"))?;
        let side =
            sidecar.then(|| git::read_in(&repo, rev, &sidecar_of(&rel)).ok().map(|(b, _)| b)).flatten();
        return Ok(Input { shown: format!("{rev}:{rel}"), bytes, sidecar: side });
    }
    let bytes = read_file(Path::new(arg))?;
    let side = sidecar.then(|| std::fs::read(sidecar_of(arg)).ok()).flatten();
    Ok(Input { shown: arg.to_owned(), bytes, sidecar: side })
}

/// The file name format detection goes by (GRAPH.md is recognised by name).
fn file_name(shown: &str) -> String {
    shown.rsplit(['/', ':']).next().unwrap_or(shown).to_owned()
}

pub fn open(input: &Input) -> Result<Document, String> {
    document::read(Some(&file_name(&input.shown)), &input.bytes, input.sidecar.as_deref())
        .map_err(|e| format!("{}: {e}", input.shown))
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

fn go(args: &Args) -> Result<Exit, String> {
    if args.textconv {
        let [file] = args.inputs.as_slice() else {
            return Err("--textconv takes one file".into());
        };
        let input = read_input(file, false)?;
        match open(&input) {
            Ok(doc) => report::write_stdout(&render::textconv(&doc.graph)),
            // Git stops the whole `git diff` when a textconv fails, so a version that is not a
            // readable document (a broken commit, an empty file) is shown as its text, with
            // the reason on the first line.
            Err(why) => report::write_stdout(&format!(
                "# trellis: not readable as a graph ({why})\n{}",
                String::from_utf8_lossy(&input.bytes)
            )),
        }
        return Ok(Exit::Clean);
    }
    let [a, b] = args.inputs.as_slice() else {
        return Err("diff takes two documents: trellis diff A B (each a file or REV:PATH)".into());
    };
    let (ia, ib) = (read_input(a, args.layout)?, read_input(b, args.layout)?);
    // Both versions read side by side.
    let (na, nb) = (file_name(&ia.shown), file_name(&ib.shown));
    let [da, db] = document::read_all([
        (Some(&na), &ia.bytes, ia.sidecar.as_deref()),
        (Some(&nb), &ib.bytes, ib.sidecar.as_deref()),
    ]);
    let da = da.map_err(|e| format!("{}: {e}", ia.shown))?;
    let db = db.map_err(|e| format!("{}: {e}", ib.shown))?;
    if da.graph.format != db.graph.format {
        return Err(format!(
            "{} is a {} document and {} is a {} document; convert one of them first (trellis convert)",
            ia.shown,
            document::format_name(da.graph.format),
            ib.shown,
            document::format_name(db.graph.format)
        ));
    }
    let d = trellis_diff::diff(&da.graph, &db.graph);
    let layout_line =
        if args.layout { layout::summary(da.graph.layout.as_ref(), db.graph.layout.as_ref()) } else { None };
    let out = match args.format {
        DiffFormat::Text => render::text(&da.graph, &db.graph, &d, layout_line.as_deref()),
        DiffFormat::Json => render::json(&d, layout_line.as_deref()),
        DiffFormat::Markdown => render::markdown(
            &da.graph,
            &db.graph,
            &d,
            &format!("{} → {}", ia.shown, ib.shown),
            layout_line.as_deref(),
        ),
    };
    report::write_stdout(&out);
    Ok(if d.is_empty() { Exit::Clean } else { Exit::Problems })
}
