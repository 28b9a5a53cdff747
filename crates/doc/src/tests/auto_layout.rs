//! Documents opened without positions are laid out once, by Rust, before their first view:
//! every corpus document (three formats) and a generated 10,000-node graph get a position for
//! every node and both terminals, left to right: no two boxes overlapping, every edge but the
//! loops pointing right, the start first and the end last, no label under a node.

use std::path::{Path, PathBuf};

use trellis_layout::quality::{drawing, measure, overlaps};
use trellis_layout::route::{routes, RouteOptions};
use trellis_layout::{Point, Size};

use super::{clock, workspace};
use crate::auto_layout::CanvasGraph;
use crate::canvas_sizes::{NODE, TERMINAL};
use crate::fs::FakeFs;
use crate::workspace::{OpenStage, Workspace};

/// The drawn boxes of an open document, by the positions its layout holds.
fn boxes(w: &Workspace, id: crate::DocId) -> (Vec<String>, Vec<Point>, Vec<Size>) {
    let s = w.get(id).expect("open");
    let canvas = CanvasGraph::of(s.document());
    let mut pos = Vec::new();
    for cid in &canvas.ids {
        let p = s.layout().positions.get(cid).unwrap_or_else(|| panic!("no position for {cid}"));
        pos.push(Point { x: p.x, y: p.y });
    }
    let sizes = canvas.ids.iter().map(|i| if i.starts_with("__") { TERMINAL } else { NODE }).collect();
    (canvas.ids, pos, sizes)
}

/// Drawn left to right: no two boxes overlap, every edge but the loops points right, the start
/// is the leftmost box and the end the rightmost, and no label of a routed edge lies under a
/// node.
fn assert_left_to_right(name: &str, canvas: &CanvasGraph, pos: &[Point], sizes: &[Size]) {
    let clash = overlaps(pos, sizes);
    assert!(clash.is_empty(), "{name}: {} overlapping pairs, first {:?}", clash.len(), clash.first());
    let g = &canvas.graph;
    let loops = trellis_layout::loops(g);
    for (k, &(a, b)) in g.edges.iter().enumerate() {
        if a != b && !loops[k] {
            assert!(
                pos[b].x >= pos[a].x + sizes[a].w,
                "{name}: {} -> {} points back",
                canvas.ids[a],
                canvas.ids[b]
            );
        }
    }
    let r = routes(pos, sizes, &g.edges, &g.labels, &RouteOptions::default());
    let m = measure(&drawing(pos, sizes, &g.edges, &g.labels, &r));
    assert_eq!(m.labels_under_nodes, 0, "{name}: {m:?}");
    let reached = |i: usize| g.edges.iter().any(|&(a, b)| a != b && (a == i || b == i));
    for (i, id) in canvas.ids.iter().enumerate() {
        if id == "__start__" && reached(i) {
            assert!(pos.iter().all(|p| p.x >= pos[i].x), "{name}: the start is not leftmost");
        }
        if id == "__end__" && reached(i) {
            assert!(
                pos.iter().zip(sizes).all(|(p, s)| p.x + s.w <= pos[i].x + sizes[i].w),
                "{name}: the end is not rightmost"
            );
        }
    }
}

fn corpus_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries =
        std::fs::read_dir(dir).unwrap_or_else(|e| panic!("corpus folder {} unreadable: {e}", dir.display()));
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            corpus_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "json") || p.file_name().is_some_and(|n| n == "GRAPH.md")
        {
            out.push(p);
        }
    }
}

#[test]
fn every_corpus_document_opens_laid_out_without_overlaps() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/corpus");
    let mut files = Vec::new();
    corpus_files(&root, &mut files);
    files.sort();
    let c = clock();
    let fs = FakeFs::new();
    let mut w = workspace(&fs, &c);
    let mut laid_out = 0;
    let mut formats = std::collections::BTreeSet::new();
    for (k, f) in files.iter().enumerate() {
        let text = std::fs::read_to_string(f).expect("corpus file");
        let name = f.file_name().expect("name").to_string_lossy().into_owned();
        let at = PathBuf::from(format!("/c/{k}/{name}"));
        fs.put(at.to_str().expect("path"), &text);
        // Some corpus cases are meant to be refused (not a document at all): nothing to lay out.
        let Ok(id) = w.open(&at) else { continue };
        let s = w.get(id).expect("open");
        if s.document().node_ids().is_empty() {
            continue;
        }
        assert!(!s.is_dirty() && !s.can_undo(), "{name}: the automatic layout is no edit");
        formats.insert(format!("{:?}", s.format()));
        let (_, pos, sizes) = boxes(&w, id);
        if s.layout_missing() {
            assert_left_to_right(&name, &CanvasGraph::of(s.document()), &pos, &sizes);
        } else {
            // Positions the file keeps are the author's: only the terminals were added.
            let n = pos.len();
            for t in [n - 2, n - 1] {
                for k in 0..n - 2 {
                    let (p, q) = (pos[t], pos[k]);
                    let (a, b) = (sizes[t], sizes[k]);
                    let hit = p.x < q.x + b.w && q.x < p.x + a.w && p.y < q.y + b.h && q.y < p.y + a.h;
                    assert!(!hit, "{name}: a terminal sits on a node");
                }
            }
        }
        laid_out += 1;
    }
    assert!(laid_out >= 15, "only {laid_out} corpus documents were laid out");
    assert_eq!(formats.len(), 3, "all three formats: {formats:?}");
}

#[test]
fn a_generated_10000_node_graph_opens_laid_out_left_to_right() {
    let c = clock();
    let fs = FakeFs::new();
    fs.put("/w/big.json", trellis_spec::generate::generate_text(10_000, 7));
    let mut w = workspace(&fs, &c);
    let id = w.open(Path::new("/w/big.json")).expect("opens");
    let (ids, pos, sizes) = boxes(&w, id);
    assert_eq!(ids.len(), 10_002);
    assert_left_to_right("10,000 nodes", &CanvasGraph::of(w.get(id).expect("open").document()), &pos, &sizes);
}

#[test]
fn a_document_with_a_layout_file_keeps_it_and_the_terminals_are_saved_too() {
    let c = clock();
    let fs = FakeFs::new();
    fs.put("/w/support.json", crate::workspace::EXAMPLE);
    fs.put(
        "/w/support.layout.json",
        r#"{"version":1,"positions":{"classify":{"x":5,"y":6},"__end__":{"x":900,"y":0}}}"#,
    );
    let mut w = workspace(&fs, &c);
    let id = w.open(Path::new("/w/support.json")).expect("opens");
    let s = w.get(id).expect("open");
    assert!(!s.layout_missing());
    let p = &s.layout().positions;
    assert_eq!(
        (p["classify"].x, p["classify"].y, p["__end__"].x),
        (5.0, 6.0, 900.0),
        "stored positions stay"
    );
    assert!(p.contains_key("__start__"), "the missing terminal is placed");
    assert!(s.layout_text().contains("\"__end__\""), "terminal positions are written back");
}

#[test]
fn opening_without_a_layout_reports_reading_then_layout_progress_up_to_the_end() {
    let c = clock();
    let fs = FakeFs::new();
    fs.put("/w/big.json", trellis_spec::generate::generate_text(2_000, 3));
    let mut w = workspace(&fs, &c);
    let mut seen: Vec<OpenStage> = Vec::new();
    let id = w
        .open_with_progress(Path::new("/w/big.json"), &mut |stage| {
            seen.push(stage);
            true
        })
        .expect("opens");
    assert_eq!(seen.first(), Some(&OpenStage::Reading));
    let fractions: Vec<f64> = seen
        .iter()
        .filter_map(|s| match s {
            OpenStage::LayingOut { nodes, fraction } => {
                assert_eq!(*nodes, 2_000);
                Some(*fraction)
            }
            OpenStage::Reading => None,
        })
        .collect();
    assert!(fractions.len() > 3, "layout progress was reported: {fractions:?}");
    assert!(fractions.windows(2).all(|w| w[0] <= w[1]), "never goes back: {fractions:?}");
    assert_eq!(fractions.last().copied(), Some(1.0));
    assert_eq!(w.get(id).expect("open").layout().positions.len(), 2_002);
}

#[test]
fn a_document_with_its_layout_reports_no_layout_stage() {
    let c = clock();
    let fs = FakeFs::new();
    fs.put("/w/support.json", crate::workspace::EXAMPLE);
    fs.put("/w/support.layout.json", r#"{"version":1,"positions":{"classify":{"x":5,"y":6}}}"#);
    let mut w = workspace(&fs, &c);
    let mut seen: Vec<OpenStage> = Vec::new();
    w.open_with_progress(Path::new("/w/support.json"), &mut |stage| {
        seen.push(stage);
        true
    })
    .expect("opens");
    assert_eq!(seen, vec![OpenStage::Reading]);
}

#[test]
fn stopping_an_open_while_it_lays_out_opens_nothing_and_leaves_recent_files_alone() {
    let c = clock();
    let fs = FakeFs::new();
    fs.put("/w/big.json", trellis_spec::generate::generate_text(2_000, 3));
    let mut w = workspace(&fs, &c);
    let mut calls = 0;
    let refused = w
        .open_with_progress(Path::new("/w/big.json"), &mut |stage| {
            calls += 1;
            // Stopped halfway through the layout.
            !matches!(stage, OpenStage::LayingOut { fraction, .. } if fraction >= 0.5)
        })
        .expect_err("stopped");
    assert!(calls > 2);
    assert_eq!(refused.len(), 1);
    assert_eq!(refused[0].code, crate::workspace::codes::OPEN_CANCELLED);
    assert!(refused[0].message.contains("big.json"), "{}", refused[0].message);
    assert!(w.recent().is_empty(), "{:?}", w.recent());
    assert_eq!(w.ids().len(), 0, "nothing opened");
    // Opening it again, not stopped, works.
    w.open(Path::new("/w/big.json")).expect("opens");
}

#[test]
fn stopping_an_open_before_it_reads_opens_nothing() {
    let c = clock();
    let fs = FakeFs::new();
    fs.put("/w/support.json", crate::workspace::EXAMPLE);
    let mut w = workspace(&fs, &c);
    let refused = w.open_with_progress(Path::new("/w/support.json"), &mut |_| false).expect_err("stopped");
    assert_eq!(refused[0].code, crate::workspace::codes::OPEN_CANCELLED);
    assert!(w.recent().is_empty());
}
