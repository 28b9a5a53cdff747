//! Lays out a GraphSpec file (no sidecar needed) and prints time and quality, for the
//! comparison in docs/BENCHMARKS.md:
//! `cargo run --release -p trellis-layout --example layout_file -- spec.json`
//! (`/usr/bin/time -v` around it gives the peak memory).

use std::time::Instant;

use trellis_layout::quality::{bounds, crossings, mean_edge_length, overlaps};
use trellis_layout::{layout, Graph, Size};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).ok_or("usage: layout_file SPEC.json [POSITIONS.json]")?;
    // With a second file: measure those positions (another engine's) instead of laying out.
    let given: Option<serde_json::Value> = match std::env::args().nth(2) {
        Some(p) => Some(serde_json::from_str(&std::fs::read_to_string(p)?)?),
        None => None,
    };
    let text = std::fs::read_to_string(&path)?;
    let spec: serde_json::Value = serde_json::from_str(&text)?;
    let mut ids: Vec<String> = vec!["__start__".into(), "__end__".into()];
    for n in spec["nodes"].as_array().ok_or("no nodes")? {
        ids.push(n["id"].as_str().ok_or("a node without id")?.to_owned());
    }
    let index: std::collections::HashMap<&str, usize> =
        ids.iter().enumerate().map(|(i, s)| (s.as_str(), i)).collect();
    let mut edges = Vec::new();
    for e in spec["edges"].as_array().ok_or("no edges")? {
        if let (Some(a), Some(b)) = (e["from"].as_str(), e["to"].as_str()) {
            if let (Some(&a), Some(&b)) = (index.get(a), index.get(b)) {
                edges.push((a, b));
            }
        }
    }
    let sizes: Vec<Size> = (0..ids.len())
        .map(|i| if i < 2 { Size { w: 44.0, h: 44.0 } } else { Size { w: 200.0, h: 60.0 } })
        .collect();
    let g = Graph { sizes, edges };
    let t = Instant::now();
    let pos = match &given {
        None => layout(&g),
        Some(v) => ids
            .iter()
            .map(|id| {
                let p = &v["positions"][id];
                trellis_layout::Point { x: p["x"].as_f64().unwrap_or(0.0), y: p["y"].as_f64().unwrap_or(0.0) }
            })
            .collect(),
    };
    let ms = t.elapsed().as_secs_f64() * 1000.0;
    let (_, _, w, h) = bounds(&pos, &g.sizes).unwrap_or_default();
    let fit = (1440.0 / w).min(900.0 / h);
    if given.is_none() {
        println!("nodes {} edges {} layout {ms:.1} ms", ids.len(), g.edges.len());
    }
    println!("box {w:.0} x {h:.0} px, aspect {:.2}, fit zoom in 1440x900: {:.1} %", w / h, fit * 100.0);
    println!("overlaps {}", overlaps(&pos, &g.sizes).len());
    println!("mean edge length {:.0} px", mean_edge_length(&pos, &g.sizes, &g.edges));
    if g.edges.len() <= 5000 {
        println!("crossings {}", crossings(&pos, &g.sizes, &g.edges));
    }
    Ok(())
}
