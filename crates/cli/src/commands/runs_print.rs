//! How `trellis runs` prints: a run's summary, a folder's aggregate, two runs compared.

use std::fmt::Write as _;

use trellis_runs::compare::RunComparison;
use trellis_runs::graph::GraphShape;
use trellis_runs::identity::GraphMatch;
use trellis_runs::model::{ReadRun, Run};
use trellis_runs::overlay::PathOverlay;
use trellis_runs::summary::{Aggregate, NodeStats, RunSummary};
use trellis_runs::time::format_duration;
use trellis_spec::END;

use crate::commands::runs_graph::Graph;

/// Path nodes shown before and after the middle of a long path is left out.
const PATH_HEAD: usize = 40;
const PATH_TAIL: usize = 10;
/// Rows of a comparison shown around where the runs part.
const CONTEXT_ROWS: usize = 6;

/// The graph a run carries itself (a run log may hold it), else an empty one: edges are then
/// inferred from consecutive steps.
pub fn own_shape(run: &Run) -> GraphShape {
    run.graph
        .spec
        .as_ref()
        .and_then(|v| serde_json::from_value::<trellis_spec::GraphSpec>(v.clone()).ok())
        .map(|s| GraphShape::from_spec(&s))
        .unwrap_or_default()
}

/// How the graph the run recorded (a run log may hold it) differs from `--graph`, element by
/// element (both GraphSpec documents).
pub fn spec_difference(run: &Run, graph: &Graph) -> Option<String> {
    let spec = run.graph.spec.as_ref()?;
    if !graph.is_graphspec {
        return None;
    }
    let recorded = serde_json::to_vec(spec).ok()?;
    let a = trellis_diff::document::read(Some("run.json"), &recorded, None).ok()?;
    let b = trellis_diff::document::read(None, graph.text.as_bytes(), None).ok()?;
    let d = trellis_diff::diff(&a.graph, &b.graph);
    if d.is_empty() {
        return Some(format!("the graph the run recorded is the one in {}\n", graph.shown));
    }
    let mut text = format!("the graph the run recorded → {}:\n", graph.shown);
    for line in trellis_diff::render::text(&a.graph, &b.graph, &d, None).lines() {
        let _ = writeln!(text, "  {line}");
    }
    Some(text)
}

fn money(amount: f64, currency: Option<&str>) -> String {
    if amount == 0.0 {
        return "-".into();
    }
    match currency {
        Some(c) => format!("{amount:.4} {c}"),
        None => format!("{amount:.4}"),
    }
}

fn ms(v: Option<f64>) -> String {
    v.map_or_else(|| "-".into(), format_duration)
}

fn node_table(nodes: &[NodeStats]) -> String {
    let width = nodes.iter().map(|n| n.id.chars().count()).max().unwrap_or(4).max(4);
    let mut out = format!(
        "  {:width$}  {:>6}  {:>6}  {:>7}  {:>9}  {:>9}  {:>8}  {}\n",
        "node", "runs", "errors", "retries", "median", "p95", "tokens", "cost"
    );
    for n in nodes {
        let tokens = if n.tokens == 0 { "-".into() } else { n.tokens.to_string() };
        let _ = writeln!(
            out,
            "  {:width$}  {:>6}  {:>6}  {:>7}  {:>9}  {:>9}  {:>8}  {}",
            n.id,
            n.count,
            n.errors,
            n.retries,
            ms(n.median_ms),
            ms(n.p95_ms),
            tokens,
            money(n.cost, n.currency.as_deref())
        );
    }
    out
}

fn path_line(summary: &RunSummary, path: &PathOverlay) -> String {
    let mut nodes: Vec<&str> = summary.path.iter().map(String::as_str).collect();
    if path.edges.iter().any(|e| e.to == END) {
        nodes.push(END);
    }
    if nodes.len() <= PATH_HEAD + PATH_TAIL {
        return nodes.join(" → ");
    }
    let skipped = nodes.len() - PATH_HEAD - PATH_TAIL;
    format!(
        "{} → … {skipped} more … → {}",
        nodes[..PATH_HEAD].join(" → "),
        nodes[nodes.len() - PATH_TAIL..].join(" → ")
    )
}

/// One run's summary.
pub fn run_text(
    shown: &str,
    read: &ReadRun,
    summary: &RunSummary,
    path: &PathOverlay,
    judged: Option<&GraphMatch>,
    graph: Option<&Graph>,
    spec_diff: Option<&str>,
) -> String {
    let run = &read.run;
    let mut out = format!(
        "{shown}: {} · run {}",
        run.source.label(),
        if run.id.is_empty() { "(no id)" } else { run.id.as_str() }
    );
    if let Some(t) = run.thread.as_deref().filter(|t| *t != run.id) {
        let _ = write!(out, " · thread {t}");
    }
    out.push('\n');
    let status =
        serde_json::to_value(run.status).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default();
    let _ = write!(out, "  status: {status} · {} steps", summary.steps);
    if let Some(d) = summary.duration_ms {
        let _ = write!(out, " · {}", format_duration(d));
    }
    if summary.tokens > 0 {
        let _ = write!(out, " · {} tokens", summary.tokens);
    }
    if summary.cost > 0.0 {
        let _ = write!(out, " · {}", money(summary.cost, summary.currency.as_deref()));
    }
    out.push('\n');
    let g = &run.graph;
    if g.name.is_some() || g.hash.is_some() || g.version.is_some() {
        let mut parts = Vec::new();
        if let Some(n) = &g.name {
            parts.push(n.clone());
        }
        if let Some(v) = &g.version {
            parts.push(format!("version {v}"));
        }
        if let Some(h) = &g.hash {
            parts.push(h.clone());
        }
        let _ = writeln!(out, "  graph:  {}", parts.join(" · "));
    }
    let _ = writeln!(out, "  path:   {}", path_line(summary, path));
    if !read.others.is_empty() {
        let _ = writeln!(out, "  others in the file: {} (--run ID shows one)", read.others.join(", "));
    }
    out.push('\n');
    out.push_str(&node_table(&summary.nodes));
    if !summary.errors.is_empty() {
        out.push_str("\n  errors:\n");
        for e in &summary.errors {
            let _ = writeln!(out, "    step {} ({}): {}", e.step + 1, e.name, e.message);
        }
    }
    if let (Some(j), Some(g)) = (judged, graph) {
        let _ = write!(out, "\n  against {}: {}\n", g.shown, j.message);
    }
    if let Some(d) = spec_diff {
        for line in d.lines() {
            let _ = writeln!(out, "  {line}");
        }
    }
    out
}

/// A folder of runs.
pub fn aggregate_text(
    shown: &str,
    a: &Aggregate,
    unreadable: &[(String, String)],
    with_graph: bool,
) -> String {
    let outcomes: Vec<String> = a
        .outcomes
        .iter()
        .map(|(o, n)| {
            let word =
                serde_json::to_value(o).ok().and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default();
            format!("{word} {n}")
        })
        .collect();
    let mut out = format!("{shown}: {} runs ({})", a.runs, outcomes.join(", "));
    if !unreadable.is_empty() {
        let _ = write!(out, "; {} file(s) not read", unreadable.len());
    }
    out.push_str("\n\n  edges taken (times, runs):\n");
    let width = a.edges.iter().map(|e| e.from.chars().count() + e.to.chars().count() + 3).max().unwrap_or(8);
    for e in &a.edges {
        let ends = format!("{} → {}", e.from, e.to);
        let inferred = if e.in_graph || !with_graph { "" } else { "  (not in the graph)" };
        let _ = writeln!(out, "    {ends:width$}  {:>7}  {:>6}{inferred}", e.count, e.runs);
    }
    if with_graph {
        if a.dead.is_empty() {
            out.push_str("\n  dead branches: none (every edge of the graph was taken)\n");
        } else {
            out.push_str("\n  dead branches (edges no run took):\n");
            for e in &a.dead {
                let _ = writeln!(out, "    {} → {}", e.from, e.to);
            }
        }
        if !a.unvisited.is_empty() {
            let _ = writeln!(out, "  nodes no run visited: {}", a.unvisited.join(", "));
        }
    }
    out.push('\n');
    out.push_str(&node_table(&a.nodes));
    if !unreadable.is_empty() {
        out.push_str("\n  not read:\n");
        for (p, why) in unreadable {
            let _ = writeln!(out, "    {p}: {why}");
        }
    }
    out
}

fn step_words(run: &Run, i: Option<u32>) -> String {
    let Some(i) = i else { return "—".into() };
    let s = &run.steps[i as usize];
    let mut w = s.node.clone().unwrap_or_else(|| s.name.clone());
    if let Some(n) = s.superstep {
        let _ = write!(w, " (superstep {n})");
    }
    if s.attempt > 1 {
        let _ = write!(w, " attempt {}", s.attempt);
    }
    w
}

/// Two runs compared.
pub fn diff_text(sa: &str, sb: &str, a: &Run, b: &Run, c: &RunComparison) -> String {
    let mut out = format!("A: {sa} (run {})\nB: {sb} (run {})\n\n", a.id, b.id);
    let part = c.divergence.as_ref().map(|d| d.row as usize);
    let (from, to) = match part {
        Some(p) => (p.saturating_sub(CONTEXT_ROWS), (p + CONTEXT_ROWS + 1).min(c.rows.len())),
        None => (0, c.rows.len().min(CONTEXT_ROWS * 4)),
    };
    let cells: Vec<(String, String)> =
        c.rows[from..to].iter().map(|r| (step_words(a, r.a), step_words(b, r.b))).collect();
    let width = cells.iter().map(|(x, _)| x.chars().count()).max().unwrap_or(1).max(1);
    let _ = writeln!(out, "         {:width$}  B", "A");
    if from > 0 {
        let _ = writeln!(out, "         … {from} step(s) alike …");
    }
    for (k, (x, y)) in cells.iter().enumerate() {
        let row = from + k;
        let mark = if Some(row) == part { "▶" } else { " " };
        let _ = writeln!(out, "  {mark} {:>4}  {x:width$}  {y}", row + 1);
    }
    if to < c.rows.len() {
        let _ = writeln!(out, "         … {} more step(s) …", c.rows.len() - to);
    }
    out.push('\n');
    match &c.divergence {
        Some(d) => {
            let _ = writeln!(out, "{}", d.message);
        }
        None => out.push_str("The runs took the same steps.\n"),
    }
    if let Some(v) = &c.value {
        let _ = writeln!(out, "{}", v.message);
    }
    let list = |edges: &[trellis_runs::overlay::EdgeEnds]| {
        edges.iter().map(|e| format!("{} → {}", e.from, e.to)).collect::<Vec<_>>().join(", ")
    };
    if !c.only_a.is_empty() {
        let _ = writeln!(out, "edges only A took: {}", list(&c.only_a));
    }
    if !c.only_b.is_empty() {
        let _ = writeln!(out, "edges only B took: {}", list(&c.only_b));
    }
    out
}
