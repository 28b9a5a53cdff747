//! How readable the automatic layout is, beside ELK's layered algorithm on the same graphs:
//! for every document given (any format; a folder: every document in it), the canvas graph
//! (`CanvasGraph::of`: nodes, start and end marks, the edges drawn for the reader, label sizes)
//! is laid out and routed by Trellis, and by elkjs (`scripts/elk-layout.mjs`, with `--elk`),
//! and both drawings are measured alike (`trellis_layout::quality`): crossings, edges pointing
//! back, edges over nodes, labels under nodes, labels over labels, node overlaps, size, time.
//!
//! Usage: `layout_quality [--elk] [--elk-limit S] [--out DIR] PATH...`. Prints a Markdown
//! table; with `--out`, writes it to `DIR/layout-quality.md` and the figures to
//! `DIR/layout-quality.json`. `scripts/bench.sh` runs it on the corpus, the peer harness's
//! generated specs and the layout fixtures.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use trellis_bench::clock;
use trellis_doc::auto_layout::CanvasGraph;
use trellis_doc::{DocId, RealFs, Session};
use trellis_layout::quality::{drawing, measure, Drawing, DrawnEdge, Measures};
use trellis_layout::route::{routes, RouteOptions};
use trellis_layout::{Point, Size};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

struct Row {
    name: String,
    nodes: usize,
    edges: usize,
    ours: Measures,
    ours_ms: f64,
    elk: Result<(Measures, f64), String>,
}

fn documents(paths: &[PathBuf]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut inner: Vec<PathBuf> = std::fs::read_dir(p)
                .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
                .unwrap_or_default();
            inner.sort();
            out.extend(documents(&inner));
        } else {
            let name = p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            let document = name.ends_with(".json")
                && !name.ends_with(".registry.json")
                && !name.ends_with(".layout.json")
                || name.ends_with(".md")
                    && !name.eq_ignore_ascii_case("README.md")
                    && !name.eq_ignore_ascii_case("SOURCES.md");
            if document && name != "cases.json" {
                out.push(p.clone());
            }
        }
    }
    out
}

/// Another engine's output as a drawing of the same boxes and edges.
fn elk_drawing(graph: &trellis_layout::Graph, out: &Value) -> Option<Drawing> {
    let at =
        |v: &Value| Point { x: v["x"].as_f64().unwrap_or(f64::NAN), y: v["y"].as_f64().unwrap_or(f64::NAN) };
    let nodes = out["nodes"].as_array()?;
    let boxes = nodes.iter().zip(&graph.sizes).map(|(n, &s)| (at(n), s)).collect();
    let edges = out["edges"]
        .as_array()?
        .iter()
        .zip(&graph.edges)
        .enumerate()
        .map(|(e, (x, &(from, to)))| DrawnEdge {
            from,
            to,
            line: x["points"].as_array().map(|p| p.iter().map(at).collect()).unwrap_or_default(),
            label: (!x["label"].is_null()).then(|| at(&x["label"])).zip(graph.label(e)),
        })
        .collect();
    Some(Drawing { boxes, edges })
}

/// elkjs on one graph, in a process of its own, given up after `limit`.
fn elk(
    root: &Path,
    name: &str,
    graph: &trellis_layout::Graph,
    limit: Duration,
) -> Result<(Measures, f64), String> {
    let dir = std::env::temp_dir().join(format!("trellis-layout-quality-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let (input, output) = (dir.join("graph.json"), dir.join("elk.json"));
    let size = |s: Size| json!({"w": s.w, "h": s.h});
    let g = json!([{
        "name": name,
        "nodes": graph.sizes.iter().map(|&s| size(s)).collect::<Vec<_>>(),
        "edges": graph.edges.iter().enumerate().map(|(e, &(a, b))| json!({"from": a, "to": b, "label": graph.label(e).map(size)})).collect::<Vec<_>>(),
    }]);
    std::fs::write(&input, g.to_string()).map_err(|e| e.to_string())?;
    let _ = std::fs::remove_file(&output);
    let mut child = Command::new("node")
        .arg(root.join("scripts/elk-layout.mjs"))
        .args([&input, &output])
        .arg(limit.as_secs().to_string())
        .current_dir(root)
        .stdout(Stdio::null())
        .spawn()
        .map_err(|e| format!("node: {e}"))?;
    let start = Instant::now();
    loop {
        if child.try_wait().map_err(|e| e.to_string())?.is_some() {
            break;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("gave up after {} s", limit.as_secs()));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let text = std::fs::read_to_string(&output).map_err(|e| format!("no output: {e}"))?;
    let out: Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
    let first = &out[0];
    if let Some(err) = first["error"].as_str() {
        return Err(err.to_owned());
    }
    let d = elk_drawing(graph, first).ok_or("unreadable output")?;
    Ok((measure(&d), first["ms"].as_f64().unwrap_or(f64::NAN)))
}

fn cells(m: &Measures) -> String {
    format!(
        "{} | {} | {} | {} | {} | {} | {:.0} × {:.0}",
        m.crossings,
        m.backward,
        m.edges_over_nodes,
        m.labels_under_nodes,
        m.labels_overlapping,
        m.overlaps,
        m.width,
        m.height
    )
}

fn figures(m: &Measures, ms: f64) -> Value {
    json!({
        "crossings": m.crossings, "backward": m.backward, "edges_over_nodes": m.edges_over_nodes,
        "labels_under_nodes": m.labels_under_nodes, "labels_overlapping": m.labels_overlapping,
        "overlaps": m.overlaps, "width": m.width.round(), "height": m.height.round(), "ms": (ms * 10.0).round() / 10.0,
    })
}

fn main() {
    let mut args = std::env::args().skip(1);
    let (mut with_elk, mut limit, mut out_dir, mut paths) = (false, 300u64, None, Vec::new());
    while let Some(a) = args.next() {
        match a.as_str() {
            "--elk" => with_elk = true,
            "--elk-limit" => limit = args.next().and_then(|s| s.parse().ok()).unwrap_or(limit),
            "--out" => out_dir = args.next().map(PathBuf::from),
            _ => paths.push(PathBuf::from(a)),
        }
    }
    if paths.is_empty() {
        eprintln!("usage: layout_quality [--elk] [--elk-limit S] [--out DIR] PATH...");
        std::process::exit(2);
    }
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut rows = Vec::new();
    for path in documents(&paths) {
        let registries = (trellis_doc::discovery::registry_loader())(&RealFs, Some(&path));
        let Ok(session) = Session::open(&RealFs, DocId(1), &path, registries, clock()) else {
            eprintln!("layout_quality: {} is not a graph document; left out", path.display());
            continue;
        };
        let canvas = CanvasGraph::of(session.document());
        let g = &canvas.graph;
        let name = path.strip_prefix(&root).unwrap_or(&path).display().to_string();
        let t = Instant::now();
        let placed = canvas.layout(&mut |_| true).unwrap_or_default();
        let ours_ms = t.elapsed().as_secs_f64() * 1000.0;
        let pos: Vec<Point> = canvas
            .ids
            .iter()
            .map(|id| placed.get(id).map_or(Point::default(), |p| Point { x: p.x, y: p.y }))
            .collect();
        let r = routes(&pos, &g.sizes, &g.edges, &g.labels, &RouteOptions::default());
        let ours = measure(&drawing(&pos, &g.sizes, &g.edges, &g.labels, &r));
        let elk =
            if with_elk { elk(&root, &name, g, Duration::from_secs(limit)) } else { Err("not run".into()) };
        eprintln!("layout_quality: {name}: {} nodes", g.sizes.len());
        rows.push(Row { name, nodes: g.sizes.len(), edges: g.edges.len(), ours, ours_ms, elk });
    }

    let mut md = String::from(
        "| graph | nodes | edges | engine | crossings | pointing back | edges over nodes | labels under nodes | labels over labels | node overlaps | size (px) | time |\n\
         |---|---:|---:|---|---:|---:|---:|---:|---:|---:|---|---:|\n",
    );
    let mut json_rows = Vec::new();
    let (mut total_ours, mut total_elk, mut compared) = ([0usize; 5], [0usize; 5], 0usize);
    let sum = |t: &mut [usize; 5], m: &Measures| {
        for (x, v) in t.iter_mut().zip([
            m.crossings,
            m.backward,
            m.edges_over_nodes,
            m.labels_under_nodes,
            m.labels_overlapping,
        ]) {
            *x += v;
        }
    };
    for r in &rows {
        md += &format!(
            "| {} | {} | {} | Trellis | {} | {:.0} ms |\n",
            r.name,
            r.nodes,
            r.edges,
            cells(&r.ours),
            r.ours_ms
        );
        match &r.elk {
            Ok((m, ms)) => {
                md += &format!("| | | | ELK layered | {} | {:.0} ms |\n", cells(m), ms);
                sum(&mut total_ours, &r.ours);
                sum(&mut total_elk, m);
                compared += 1;
            }
            Err(e) => md += &format!("| | | | ELK layered | {e} | | | | | | | |\n"),
        }
        json_rows.push(json!({
            "graph": r.name, "nodes": r.nodes, "edges": r.edges,
            "trellis": figures(&r.ours, r.ours_ms),
            "elk": match &r.elk { Ok((m, ms)) => figures(m, *ms), Err(e) => json!({"error": e}) },
        }));
    }
    if compared > 0 {
        let t = |v: [usize; 5]| format!("{} | {} | {} | {} | {}", v[0], v[1], v[2], v[3], v[4]);
        md +=
            &format!("| **all {compared} graphs both laid out** | | | Trellis | {} | | | |\n", t(total_ours));
        md += &format!("| | | | ELK layered | {} | | | |\n", t(total_elk));
    }
    println!("{md}");
    if let Some(dir) = out_dir {
        let written = std::fs::create_dir_all(&dir)
            .and_then(|()| std::fs::write(dir.join("layout-quality.md"), &md))
            .and_then(|()| {
                std::fs::write(dir.join("layout-quality.json"), Value::Array(json_rows).to_string() + "\n")
            });
        if let Err(e) = written {
            eprintln!("layout_quality: {}: {e}", dir.display());
            std::process::exit(1);
        }
    }
}
