//! GRAPH.md v1.0.0 / v1.1.0 (Cromus): Markdown with a YAML front matter describing a workflow's
//! topology and budgets. Read it ([`read::read`]), check it ([`validate::validate`]), edit it
//! (setters on [`GraphMd`]), write it back ([`write::to_string`]) and analyse its paths
//! ([`paths::analyse`]). Every rule chosen where the public description is silent is written
//! down in `docs/graphmd.md`.

mod digraph;
pub mod emit;
pub mod model;
pub mod paths;
pub mod read;
pub mod topology;
pub mod validate;
pub mod write;
pub mod yaml;

pub use model::{EditError, GraphMd, LineEnding};
pub use read::{read, read_bytes, ReadResult};
pub use validate::{check, validate, Topology};
pub use write::{to_canonical_string, to_string};

/// Every GRAPH.md diagnostic code.
pub mod codes {
    pub use super::paths::codes::*;
    pub use super::read::codes::*;
    pub use super::validate::codes::*;
}

/// Reads and validates in one go: the document (when readable) and every diagnostic.
pub fn read_and_validate(text: &str) -> ReadResult {
    let mut r = read(text);
    if let Some(doc) = &r.doc {
        r.diagnostics.extend(validate(doc));
    }
    r
}

/// True when a file name is a GRAPH.md name: `GRAPH.md` or `*.graph.md`, any case.
pub fn is_graphmd_name(file_name: &str) -> bool {
    let base = file_name.rsplit(['/', '\\']).next().unwrap_or(file_name).to_ascii_lowercase();
    base == "graph.md" || (base.ends_with(".graph.md") && base.len() > ".graph.md".len())
}
