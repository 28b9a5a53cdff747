//! The graph a `runs` command is given with `--graph`: read in any format, with what runs need
//! of it (its shape and the hash a run records).

use std::path::Path;

use trellis_runs::graph::GraphShape;
use trellis_runs::identity;

use crate::report::{self, Exit, FileReport, OutputFormat};

/// The graph given with `--graph`, read in any format.
pub struct Graph {
    pub shown: String,
    pub shape: GraphShape,
    pub hashes: Vec<String>,
    pub text: String,
    pub is_graphspec: bool,
}

pub fn open_graph(path: &Path) -> Result<Graph, Exit> {
    let shown = path.display().to_string();
    let bytes = match crate::commands::diff::read_file(path) {
        Ok(b) => b,
        Err(message) => {
            report::note(&message);
            return Err(Exit::Usage);
        }
    };
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
    match trellis_doc::run_graph::read(name.as_deref(), &text) {
        Ok((document, shape)) => Ok(Graph {
            hashes: vec![identity::graph_hash(&bytes)],
            is_graphspec: matches!(document, trellis_doc::Document::GraphSpec(_)),
            shown,
            shape,
            text,
        }),
        Err(diagnostics) => {
            report::print(&[FileReport::new(shown, None, diagnostics)], OutputFormat::Human, true);
            Err(Exit::Usage)
        }
    }
}
