//! A diff for people and programs: plain text (one line per change), Markdown made for a
//! pull-request comment, JSON; and the textconv summary, a stable one-line-per-element listing
//! that makes a plain `git diff` of a graph readable.

use serde_json::{Map, Value};

use crate::diff::{Change, Diff, FieldChange};
use crate::graph::Graph;

/// Longest value shown inline before it is cut (with `…`).
const VALUE_WIDTH: usize = 80;

/// A value as compact JSON, cut to `VALUE_WIDTH` characters.
pub fn short(v: &Value) -> String {
    let s = serde_json::to_string(v).unwrap_or_default();
    if s.chars().count() <= VALUE_WIDTH {
        return s;
    }
    let cut: String = s.chars().take(VALUE_WIDTH - 1).collect();
    format!("{cut}…")
}

fn field_line(f: &FieldChange) -> String {
    let at = if f.pointer.is_empty() { "(whole)" } else { f.pointer.as_str() };
    match (&f.before, &f.after) {
        (Some(a), Some(b)) => format!("{at}: {} -> {}", short(a), short(b)),
        (None, Some(b)) => format!("{at}: added {}", short(b)),
        (Some(a), None) => format!("{at}: removed (was {})", short(a)),
        (None, None) => at.to_owned(),
    }
}

fn type_of(g: &Graph, node: &Map<String, Value>) -> String {
    g.node_type(node).map(|t| format!(" ({t})")).unwrap_or_default()
}

fn edge_extra(fields: &Map<String, Value>) -> String {
    if fields.is_empty() {
        String::new()
    } else {
        format!(" {}", short(&Value::Object(fields.clone())))
    }
}

/// Counts for the summary line: (added, removed, changed) per element kind.
#[derive(Debug, Default)]
struct Counts {
    nodes: [usize; 4],
    edges: [usize; 3],
    channels: [usize; 3],
    fields: usize,
    body: bool,
}

fn counts(d: &Diff) -> Counts {
    let mut c = Counts::default();
    for ch in &d.changes {
        match ch {
            Change::Graph(_) => c.fields += 1,
            Change::ChannelAdded { .. } => c.channels[0] += 1,
            Change::ChannelRemoved { .. } => c.channels[1] += 1,
            Change::ChannelChanged { .. } => c.channels[2] += 1,
            Change::NodeAdded { .. } => c.nodes[0] += 1,
            Change::NodeRemoved { .. } => c.nodes[1] += 1,
            Change::NodeChanged { .. } => c.nodes[2] += 1,
            Change::NodeRenamed { .. } => c.nodes[3] += 1,
            Change::EdgeAdded { .. } => c.edges[0] += 1,
            Change::EdgeRemoved { .. } => c.edges[1] += 1,
            Change::EdgeChanged { .. } => c.edges[2] += 1,
            Change::Body { .. } => c.body = true,
        }
    }
    c
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// "2 nodes added, 1 edge changed, the graph fields changed" (or "no changes").
pub fn summary_line(d: &Diff) -> String {
    let c = counts(d);
    let mut parts = Vec::new();
    let kinds: [(&str, &str, &[usize]); 3] =
        [("node", "nodes", &c.nodes), ("edge", "edges", &c.edges), ("channel", "channels", &c.channels)];
    for (one, many, n) in kinds {
        for (i, verb) in ["added", "removed", "changed", "renamed"].iter().enumerate() {
            if let Some(&k) = n.get(i) {
                if k > 0 {
                    parts.push(format!("{} {verb}", plural(k, one, many)));
                }
            }
        }
    }
    if c.fields > 0 {
        parts.push(format!("{} changed", plural(c.fields, "graph field", "graph fields")));
    }
    if c.body {
        parts.push("body changed".to_owned());
    }
    if parts.is_empty() {
        "no changes".to_owned()
    } else {
        parts.join(", ")
    }
}

/// One line per change (a changed element: one line per field, indented).
pub fn text(a: &Graph, b: &Graph, d: &Diff, layout: Option<&str>) -> String {
    let mut out = String::new();
    for ch in &d.changes {
        match ch {
            Change::Graph(f) => out.push_str(&format!("~ graph {}\n", field_line(f))),
            Change::ChannelAdded { name, channel } => {
                out.push_str(&format!("+ channel {name}{}\n", edge_extra(channel)))
            }
            Change::ChannelRemoved { name, channel } => {
                out.push_str(&format!("- channel {name}{}\n", edge_extra(channel)))
            }
            Change::ChannelChanged { name, fields } => {
                out.push_str(&format!("~ channel {name}\n"));
                fields.iter().for_each(|f| out.push_str(&format!("    {}\n", field_line(f))));
            }
            Change::NodeAdded { id, node } => out.push_str(&format!("+ node {id}{}\n", type_of(b, node))),
            Change::NodeRemoved { id, node } => out.push_str(&format!("- node {id}{}\n", type_of(a, node))),
            Change::NodeRenamed { from, to, edges } => out.push_str(&format!(
                "> node {from} renamed to {to} ({} rewired)\n",
                plural(*edges, "edge", "edges")
            )),
            Change::NodeChanged { id, fields } => {
                out.push_str(&format!("~ node {id}\n"));
                fields.iter().for_each(|f| out.push_str(&format!("    {}\n", field_line(f))));
            }
            Change::EdgeAdded { edge, fields } => {
                out.push_str(&format!("+ edge {edge}{}\n", edge_extra(fields)))
            }
            Change::EdgeRemoved { edge, fields } => {
                out.push_str(&format!("- edge {edge}{}\n", edge_extra(fields)))
            }
            Change::EdgeChanged { edge, fields } => {
                out.push_str(&format!("~ edge {edge}\n"));
                fields.iter().for_each(|f| out.push_str(&format!("    {}\n", field_line(f))));
            }
            Change::Body { removed, added, .. } => out.push_str(&format!(
                "~ body: {} removed, {} added\n",
                plural(*removed, "line", "lines"),
                plural(*added, "line", "lines")
            )),
        }
    }
    if let Some(l) = layout {
        out.push_str(&format!("~ {l}\n"));
    }
    if out.is_empty() {
        out.push_str("no changes\n");
    }
    out
}

/// Escapes what would break a Markdown table cell or inline code.
fn md(s: &str) -> String {
    s.replace('|', "\\|").replace('`', "'").replace('\n', " ")
}

fn md_code(v: &Value) -> String {
    format!("`{}`", md(&short(v)))
}

fn md_field(f: &FieldChange) -> String {
    let at = if f.pointer.is_empty() { "(whole)".to_owned() } else { format!("`{}`", md(&f.pointer)) };
    match (&f.before, &f.after) {
        (Some(x), Some(y)) => format!("{at}: {} → {}", md_code(x), md_code(y)),
        (None, Some(y)) => format!("{at}: added {}", md_code(y)),
        (Some(x), None) => format!("{at}: removed (was {})", md_code(x)),
        (None, None) => at,
    }
}

/// Markdown for a pull-request comment: a heading with the counts, then one section per kind
/// of element with a bullet per change.
pub fn markdown(a: &Graph, b: &Graph, d: &Diff, title: &str, layout: Option<&str>) -> String {
    let mut out = format!("### Graph changes: {}\n\n", md(title));
    out.push_str(&format!("**{}**\n", summary_line(d)));
    let mut section = |name: &str, lines: Vec<String>| {
        if !lines.is_empty() {
            out.push_str(&format!("\n#### {name}\n\n"));
            for l in lines {
                out.push_str(&l);
                out.push('\n');
            }
        }
    };
    let mut graph = Vec::new();
    let mut channels = Vec::new();
    let mut nodes = Vec::new();
    let mut edges = Vec::new();
    let mut body = Vec::new();
    let nested =
        |fields: &[FieldChange]| fields.iter().map(|f| format!("  - {}", md_field(f))).collect::<Vec<_>>();
    for ch in &d.changes {
        match ch {
            Change::Graph(f) => graph.push(format!("- {}", md_field(f))),
            Change::ChannelAdded { name, channel } => {
                channels.push(format!("- ➕ `{}` {}", md(name), md_code(&Value::Object(channel.clone()))))
            }
            Change::ChannelRemoved { name, .. } => channels.push(format!("- ➖ `{}`", md(name))),
            Change::ChannelChanged { name, fields } => {
                channels.push(format!("- ✏️ `{}`", md(name)));
                channels.extend(nested(fields));
            }
            Change::NodeAdded { id, node } => {
                nodes.push(format!("- ➕ `{}`{}", md(id), md(&type_of(b, node))))
            }
            Change::NodeRemoved { id, node } => {
                nodes.push(format!("- ➖ `{}`{}", md(id), md(&type_of(a, node))))
            }
            Change::NodeRenamed { from, to, edges: n } => nodes.push(format!(
                "- 🔀 `{}` → `{}` (renamed, {} rewired)",
                md(from),
                md(to),
                plural(*n, "edge", "edges")
            )),
            Change::NodeChanged { id, fields } => {
                nodes.push(format!("- ✏️ `{}`", md(id)));
                nodes.extend(nested(fields));
            }
            Change::EdgeAdded { edge, fields } => {
                edges.push(format!("- ➕ `{}`{}", md(&edge.to_string()), md(&edge_extra(fields))))
            }
            Change::EdgeRemoved { edge, .. } => edges.push(format!("- ➖ `{}`", md(&edge.to_string()))),
            Change::EdgeChanged { edge, fields } => {
                edges.push(format!("- ✏️ `{}`", md(&edge.to_string())));
                edges.extend(nested(fields));
            }
            Change::Body { removed, added, .. } => body.push(format!(
                "- {} removed, {} added",
                plural(*removed, "line", "lines"),
                plural(*added, "line", "lines")
            )),
        }
    }
    section("Graph", graph);
    section("Channels", channels);
    section("Nodes", nodes);
    section("Edges", edges);
    section("Body", body);
    if let Some(l) = layout {
        out.push_str(&format!("\n_{}_\n", md(l)));
    }
    out
}

/// The diff as JSON: `{summary, changes: [...], layout?}`.
pub fn json(d: &Diff, layout: Option<&str>) -> String {
    let mut v = serde_json::json!({ "summary": summary_line(d), "changes": d.changes });
    if let (Some(l), Value::Object(m)) = (layout, &mut v) {
        m.insert("layout".into(), Value::String(l.to_owned()));
    }
    let mut s = serde_json::to_string_pretty(&v).unwrap_or_default();
    s.push('\n');
    s
}

/// A value with every object's keys sorted, so key order never shows as a change.
fn sorted(v: &Value) -> Value {
    match v {
        Value::Object(m) => {
            let mut keys: Vec<&String> = m.keys().collect();
            keys.sort();
            Value::Object(keys.into_iter().map(|k| (k.clone(), sorted(&m[k]))).collect())
        }
        Value::Array(a) => Value::Array(a.iter().map(sorted).collect()),
        other => other.clone(),
    }
}

fn compact(v: &Value) -> String {
    serde_json::to_string(&sorted(v)).unwrap_or_default()
}

/// The textconv summary: one line per graph field, channel, node and edge, each sorted by
/// name, with its content as compact JSON (keys sorted); layout left out; GRAPH.md's body
/// after. Reformatting or reordering a document does not change it, so `git diff` through it
/// shows exactly the elements that changed.
pub fn textconv(g: &Graph) -> String {
    let mut out = format!("# trellis {} graph\n", g.format.as_str());
    let mut fields: Vec<(&String, &Value)> = g.fields.iter().collect();
    fields.sort_by(|a, b| a.0.cmp(b.0));
    for (k, v) in fields {
        out.push_str(&format!("graph {k}: {}\n", compact(v)));
    }
    let mut channels: Vec<_> = g.channels.iter().collect();
    channels.sort_by(|a, b| a.0.cmp(b.0));
    for (name, c) in channels {
        out.push_str(&format!("channel {name}: {}\n", compact(&Value::Object(c.clone()))));
    }
    let mut nodes: Vec<_> = g.nodes.iter().collect();
    nodes.sort_by(|a, b| a.0.cmp(b.0));
    for (id, n) in nodes {
        out.push_str(&format!("node {id}: {}\n", compact(&Value::Object(n.clone()))));
    }
    let mut edges: Vec<_> = g.edges.iter().collect();
    edges.sort_by(|a, b| a.0.cmp(b.0));
    for (k, e) in edges {
        if e.is_empty() {
            out.push_str(&format!("edge {k}\n"));
        } else {
            out.push_str(&format!("edge {k}: {}\n", compact(&Value::Object(e.clone()))));
        }
    }
    if let Some(body) = &g.body {
        out.push_str("# body\n");
        out.push_str(body);
        if !body.is_empty() && !body.ends_with('\n') {
            out.push('\n');
        }
    }
    out
}
