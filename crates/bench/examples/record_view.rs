//! Writes the document view the app sends for the generated document of `nodes` nodes (the one
//! the app measurements open, with its layout file), for the UI's browser preview and canvas
//! benchmarks (`ui/?doc=big:N` reads `recorded/big-N.json`): the view is Rust's, made the way the
//! app makes it, never put together in TypeScript.
//! Usage: `record_view <nodes> <out.json>`.

use std::path::PathBuf;

use trellis_bench::{app_registries, clock, write_document};
use trellis_doc::view::DocumentView;
use trellis_doc::{DocId, RealFs, Session};

fn main() {
    let mut args = std::env::args().skip(1);
    let nodes: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or_else(|| usage());
    let out = args.next().map(PathBuf::from).unwrap_or_else(|| usage());
    let dir = tempfile::tempdir().unwrap_or_else(|e| fail(&format!("a temporary folder: {e}")));
    let path = write_document(dir.path(), nodes, 42).unwrap_or_else(|e| fail(&format!("the document: {e}")));
    // An id of its own, apart from the preview's small documents (1-5).
    let session = Session::open(&RealFs, DocId(100), &path, app_registries(), clock())
        .unwrap_or_else(|d| fail(&format!("the document does not open: {d:?}")));
    let text = serde_json::to_string(&DocumentView::of(&session)).unwrap_or_else(|e| fail(&e.to_string()));
    if let Some(parent) = out.parent() {
        std::fs::create_dir_all(parent).unwrap_or_else(|e| fail(&format!("{}: {e}", parent.display())));
    }
    std::fs::write(&out, text).unwrap_or_else(|e| fail(&format!("{}: {e}", out.display())));
}

fn usage() -> ! {
    fail("usage: record_view <nodes> <out.json>")
}

fn fail(message: &str) -> ! {
    eprintln!("record_view: {message}");
    std::process::exit(2)
}
