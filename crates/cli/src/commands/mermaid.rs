//! `trellis mermaid [--direction TD|TB|BT|LR|RL] [--next ID]... [--pending ID]... FILE`
//!
//! Prints the document as a Mermaid flowchart, exactly as the reference renders it
//! (`trellis_spec::mermaid`, formats.md §1.6). It draws what the document says, so a document
//! with problems still renders as long as it can be read; its diagnostics go to stderr.

use std::path::PathBuf;

use clap::builder::{PossibleValuesParser, TypedValueParser};
use trellis_spec::mermaid::{render, Direction, Highlight, MermaidExtras, MermaidOptions};

use crate::load;
use crate::report::{self, Exit, FileReport, OutputFormat};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Flowchart direction.
    #[arg(
        long,
        default_value = "TD",
        value_parser = PossibleValuesParser::new(["TD", "TB", "BT", "LR", "RL"])
            .map(|s| s.parse::<Direction>().unwrap_or_default())
    )]
    pub direction: Direction,
    /// Mark a node as one that runs next (repeatable).
    #[arg(long, value_name = "ID")]
    pub next: Vec<String>,
    /// Mark a node as paused on a pending answer (repeatable).
    #[arg(long, value_name = "ID")]
    pub pending: Vec<String>,
    /// The document to draw.
    #[arg(value_name = "FILE")]
    pub file: PathBuf,
}

pub fn run(args: Args) -> Exit {
    let loaded = load::load_graphspec(&args.file)
        .and_then(|(source, parsed)| load::require_spec(&source, parsed).map(|r| (source, r)));
    let (source, (spec, diagnostics)) = match loaded {
        Ok(ok) => ok,
        Err(f) => {
            report::print(&[f.report], OutputFormat::Human, true);
            return f.exit;
        }
    };
    if !diagnostics.is_empty() {
        report::print(
            &[FileReport::new(source.display, Some(source.text), diagnostics)],
            OutputFormat::Human,
            true,
        );
    }
    let highlight = (!args.next.is_empty() || !args.pending.is_empty())
        .then(|| Highlight { next: args.next.clone(), pending: args.pending.clone() });
    let options = MermaidOptions { direction: args.direction, include_routers: true, highlight };
    report::write_stdout(&render(&spec, &MermaidExtras::default(), &options));
    Exit::Clean
}
