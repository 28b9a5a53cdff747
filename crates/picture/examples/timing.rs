//! Times the picture of a generated N-node document (default 5,000): scene, SVG, PNG.
//! `cargo run --release -p trellis-picture --example timing -- 5000`
//! `... -- 5000 annotated` adds a group per 100 nodes with a note each, every fifth pair of
//! groups nested and collapsed (as the `five_thousand_nodes_with_groups_and_notes_draw_them_all`
//! test); `svg-only` skips the PNG.
#![allow(clippy::print_stdout, clippy::unwrap_used)]

use std::sync::Arc;
use std::time::Instant;

fn main() {
    let n: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(5000);
    let annotated = std::env::args().any(|a| a == "annotated");
    let svg_only = std::env::args().any(|a| a == "svg-only");
    let text = trellis_picture_bench_doc(n);
    let registries = trellis_doc::Registries::new(trellis_spec::builtin::default_registry());
    let mut s = trellis_doc::Session::from_text(
        trellis_doc::DocId(1),
        Some("big.json"),
        &text,
        registries,
        Arc::new(trellis_doc::SystemClock),
    )
    .unwrap();
    s.lay_out_if_missing();
    if annotated {
        annotate(&mut s, n);
    }
    let t = Instant::now();
    let scene = trellis_picture::Scene::of(&s, &trellis_picture::Scope::Whole).unwrap();
    let t_scene = t.elapsed();
    let t = Instant::now();
    let svg = trellis_picture::svg::render(&scene, &trellis_picture::Theme::Light.palette());
    let t_svg = t.elapsed();
    if svg_only {
        println!(
            "{n} nodes{}: scene {t_scene:?} ({} frames, {} notes), svg {t_svg:?} ({} bytes)",
            if annotated { " annotated" } else { "" },
            scene.frames.len(),
            scene.notes.len(),
            svg.len()
        );
        return;
    }
    let t = Instant::now();
    let fonts = trellis_picture::system_fonts();
    let t_fonts = t.elapsed();
    let t = Instant::now();
    let png = trellis_picture::png(&svg, fonts, &trellis_picture::PngOptions::default()).unwrap();
    let t_png = t.elapsed();
    println!(
        "{n} nodes: scene {t_scene:?}, svg {t_svg:?} ({} bytes), fonts {t_fonts:?}, png {t_png:?} ({} x {} px, scale {:.3}, {} bytes)",
        svg.len(),
        png.width,
        png.height,
        png.scale,
        png.bytes.len()
    );
}

fn annotate(s: &mut trellis_doc::Session, n: usize) {
    let mut edit = |v: serde_json::Value| {
        s.apply(&serde_json::from_value(v).unwrap()).unwrap();
    };
    for g in 0..n / 100 {
        let nodes: Vec<String> = (g * 100..g * 100 + 100).map(|i| format!("node_{i:05}")).collect();
        edit(serde_json::json!({"op": "add_note", "id": format!("note_{g}"),
            "text": format!("# Part {g}\nnodes *{}* to `{}`", g * 100, g * 100 + 99), "position": {"x": 0, "y": -400}}));
        edit(serde_json::json!({"op": "add_group", "id": format!("g{g}"), "name": format!("Part {g}"),
            "nodes": nodes, "notes": [format!("note_{g}")]}));
    }
    for g in (0..n / 100).step_by(5).filter(|g| g + 1 < n / 100) {
        edit(
            serde_json::json!({"op": "add_group", "id": format!("outer{g}"), "groups": [format!("g{g}"), format!("g{}", g + 1)]}),
        );
        edit(serde_json::json!({"op": "set_group", "id": format!("outer{g}"), "collapsed": true}));
    }
}

fn trellis_picture_bench_doc(n: usize) -> String {
    let nodes: Vec<_> =
        (0..n).map(|i| serde_json::json!({"id": format!("node_{i:05}"), "type": "noop"})).collect();
    let mut edges = vec![serde_json::json!({"from": "__start__", "to": "node_00000"})];
    for i in 1..n {
        let mut e = serde_json::json!({"from": format!("node_{:05}", i - 1), "to": format!("node_{i:05}")});
        if i % 10 == 0 {
            e["when"] = serde_json::json!({"channel": "route", "eq": format!("r{i}")});
        }
        edges.push(e);
    }
    edges.push(serde_json::json!({"from": format!("node_{:05}", n - 1), "to": "__end__"}));
    serde_json::json!({"name": "big", "channels": {"route": {"reducer": "last_value"}}, "nodes": nodes, "edges": edges})
        .to_string()
}
