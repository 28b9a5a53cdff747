//! A document as runs see it (`trellis_runs::GraphShape`): its canvas graph's nodes and edges,
//! the edges the format draws beside its edge list (Weaveflow's entry and finish points,
//! GRAPH.md's entry and exits: `drawn_edges`), and its channels' reducers. The app and the
//! command line draw and judge runs on this one projection.

use trellis_runs::GraphShape;
use trellis_spec::{Diagnostic, GraphSpec};

use crate::document::{parse_document, Document};
use crate::drawn_edges::DrawnEdges;

/// The shape of a document.
pub fn shape(document: &Document) -> GraphShape {
    let projected: GraphSpec;
    let spec = match document {
        Document::GraphSpec(s) => s,
        _ => {
            projected = crate::formats::view::display_spec(document).unwrap_or_default();
            &projected
        }
    };
    let extra = DrawnEdges::of(document, spec).extra;
    GraphShape::from_spec(spec).with_edges(extra.into_iter().map(|e| (e.from, e.to)))
}

/// Reads a document of any format from its text and gives its shape (`file_name` tells GRAPH.md
/// by its name); why it cannot be read otherwise.
pub fn read(file_name: Option<&str>, text: &str) -> Result<(Document, GraphShape), Vec<Diagnostic>> {
    let (document, _) = parse_document(file_name, text)?;
    let shape = shape(&document);
    Ok((document, shape))
}
