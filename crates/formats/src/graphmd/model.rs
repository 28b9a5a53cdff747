//! The GRAPH.md document as the editor holds it: the front matter as an ordered YAML tree
//! (the source of truth, so the author's key order, styles and unknown keys survive), the
//! Markdown body byte for byte, and the file's layout (BOM, line ending).
//!
//! Setters edit the tree in place and touch only what they change, so the canonical writer
//! changes only the lines of what was edited. Typed reading of the tree is
//! `topology.rs` (`Topology`, built by `validate/`), which is what path analysis and conversion
//! use.

use crate::graphmd::yaml::{Map, Node, Yaml};

/// The line ending the front matter is written with (the body keeps its own bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LineEnding {
    #[default]
    Lf,
    CrLf,
}

impl LineEnding {
    pub fn as_str(self) -> &'static str {
        match self {
            LineEnding::Lf => "\n",
            LineEnding::CrLf => "\r\n",
        }
    }
}

/// A GRAPH.md file.
#[derive(Debug, Clone)]
pub struct GraphMd {
    /// The front matter mapping, in the author's key order.
    pub front: Map,
    /// Everything after the closing `---` line, byte for byte.
    pub body: String,
    /// The file started with a UTF-8 byte order mark (kept on write).
    pub bom: bool,
    pub line_ending: LineEnding,
    /// The closing `---` line had a line ending (false only when the file ends right after it).
    pub closing_newline: bool,
    /// The text this document was read from and what it read as: while the document still
    /// equals it, writing gives the original bytes back (comments, odd spacing and all).
    pub(crate) origin: Option<std::sync::Arc<Origin>>,
}

#[derive(Debug)]
pub(crate) struct Origin {
    pub text: String,
    pub doc: GraphMd,
}

impl PartialEq for GraphMd {
    /// Documents are equal when they would write the same content; where they were read from
    /// does not matter.
    fn eq(&self, other: &Self) -> bool {
        self.front == other.front
            && self.body == other.body
            && self.bom == other.bom
            && self.line_ending == other.line_ending
            && self.closing_newline == other.closing_newline
    }
}

/// Node kinds of GRAPH.md v1.0/v1.1.
pub const NODE_KINDS: [&str; 7] = ["agent", "tool", "router", "verifier", "judge", "human", "subgraph"];
/// Edge kinds; `sequential` is the default.
pub const EDGE_KINDS: [&str; 4] = ["sequential", "conditional", "parallel", "loop"];
/// The seats a judge can occupy.
pub const JUDGE_SEATS: [&str; 6] = ["router", "gate", "selector", "verifier", "advisor", "triage"];
/// Versions this editor reads.
pub const SPEC_VERSIONS: [&str; 2] = ["1.0.0", "1.1.0"];

/// Why an edit was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EditError(pub String);

impl std::fmt::Display for EditError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for EditError {}

fn err<T>(msg: impl Into<String>) -> Result<T, EditError> {
    Err(EditError(msg.into()))
}

impl GraphMd {
    /// The original text when the document is unchanged since it was read.
    pub fn unchanged_source(&self) -> Option<&str> {
        self.origin.as_ref().filter(|o| o.doc == *self).map(|o| o.text.as_str())
    }

    /// An empty v1.1.0 document (`name`, `spec_version`, `entry`, `exits`, `nodes`, `edges`).
    pub fn new(name: &str) -> GraphMd {
        let mut front = Map::new();
        front.set("name", Yaml::string(name));
        let mut v = crate::graphmd::yaml::Scalar::string("1.1.0");
        v.style = crate::graphmd::yaml::Style::DoubleQuoted;
        front.set("spec_version", Yaml::new(Node::Scalar(v)));
        front.set("nodes", Yaml::seq(Vec::new(), false));
        front.set("edges", Yaml::seq(Vec::new(), false));
        GraphMd {
            front,
            body: String::new(),
            bom: false,
            line_ending: LineEnding::Lf,
            closing_newline: true,
            origin: None,
        }
    }

    fn list(&self, key: &str) -> &[Yaml] {
        self.front.get(key).and_then(Yaml::as_seq).map_or(&[], |s| s.items.as_slice())
    }

    /// The node mappings in document order (items that are not mappings are skipped).
    pub fn node_maps(&self) -> impl Iterator<Item = (usize, &Map)> {
        self.list("nodes").iter().enumerate().filter_map(|(i, y)| y.as_map().map(|m| (i, m)))
    }

    /// The edge mappings in document order.
    pub fn edge_maps(&self) -> impl Iterator<Item = (usize, &Map)> {
        self.list("edges").iter().enumerate().filter_map(|(i, y)| y.as_map().map(|m| (i, m)))
    }

    /// Index in `nodes` of the node with this id.
    pub fn node_index(&self, id: &str) -> Option<usize> {
        self.node_maps().find(|(_, m)| m.get("id").and_then(id_text).as_deref() == Some(id)).map(|(i, _)| i)
    }

    fn seq_mut(&mut self, key: &str) -> Result<&mut Vec<Yaml>, EditError> {
        if self.front.get(key).is_none() {
            self.front.set(key, Yaml::seq(Vec::new(), false));
        }
        match self.front.get_mut(key).and_then(Yaml::as_seq_mut) {
            Some(s) => Ok(&mut s.items),
            None => err(format!("`{key}` is not a list; fix the document first")),
        }
    }

    fn node_mut(&mut self, id: &str) -> Result<&mut Map, EditError> {
        let Some(i) = self.node_index(id) else { return err(format!("no node `{id}`")) };
        let items = self.seq_mut("nodes")?;
        items[i].span = None;
        items[i].as_map_mut().ok_or_else(|| EditError(format!("node `{id}` is not a mapping")))
    }

    fn edge_mut(&mut self, index: usize) -> Result<&mut Map, EditError> {
        let items = self.seq_mut("edges")?;
        let Some(item) = items.get_mut(index) else { return err(format!("no edge at index {index}")) };
        item.span = None;
        item.as_map_mut().ok_or_else(|| EditError(format!("edge {index} is not a mapping")))
    }

    /// Sets a top-level field (`name`, `entry`, `path_budget`, ...), keeping its position.
    pub fn set_field(&mut self, key: &str, mut value: Yaml) {
        value.forget_source();
        self.front.set(key, value);
    }

    /// Removes a top-level field.
    pub fn remove_field(&mut self, key: &str) -> Option<Yaml> {
        self.front.remove(key)
    }

    /// Sets `field` of node `id` (in place when present, appended otherwise). Renaming a node
    /// goes through [`GraphMd::rename_node`] so references follow.
    pub fn set_node_field(&mut self, id: &str, field: &str, mut value: Yaml) -> Result<(), EditError> {
        if field == "id" {
            return err("use rename_node to change a node id");
        }
        value.forget_source();
        self.node_mut(id)?.set(field, value);
        Ok(())
    }

    /// Removes `field` from node `id`.
    pub fn remove_node_field(&mut self, id: &str, field: &str) -> Result<Option<Yaml>, EditError> {
        if field == "id" {
            return err("a node keeps its id");
        }
        Ok(self.node_mut(id)?.remove(field))
    }

    /// Appends a node mapping as it is: the caller has made sure its id is new (a converter
    /// writing thousands of nodes keeps their ids in a set; [`GraphMd::add_node`] looks through
    /// every node).
    pub fn append_node(&mut self, node: Map) {
        if let Ok(nodes) = self.seq_mut("nodes") {
            nodes.push(Yaml::map(node));
        }
    }

    /// Appends a node `{id, kind}`; refused when the id is taken.
    pub fn add_node(&mut self, id: &str, kind: &str) -> Result<(), EditError> {
        if id.is_empty() {
            return err("a node id cannot be empty");
        }
        if self.node_index(id).is_some() {
            return err(format!("a node `{id}` already exists"));
        }
        let mut m = Map::new();
        m.set("id", Yaml::string(id));
        m.set("kind", Yaml::string(kind));
        self.seq_mut("nodes")?.push(Yaml::map(m));
        Ok(())
    }

    /// Removes node `id` and every edge that touches it; returns how many edges went.
    pub fn remove_node(&mut self, id: &str) -> Result<usize, EditError> {
        let Some(i) = self.node_index(id) else { return err(format!("no node `{id}`")) };
        self.seq_mut("nodes")?.remove(i);
        let touching: Vec<usize> = self
            .edge_maps()
            .filter(|(_, m)| {
                [m.get("from"), m.get("to")].into_iter().flatten().any(|v| id_text(v).as_deref() == Some(id))
            })
            .map(|(i, _)| i)
            .collect();
        let edges = self.seq_mut("edges")?;
        for i in touching.iter().rev() {
            edges.remove(*i);
        }
        Ok(touching.len())
    }

    /// Renames a node and every reference to it (entry, exits, edges, judge fallbacks).
    pub fn rename_node(&mut self, old: &str, new: &str) -> Result<(), EditError> {
        if new.is_empty() || self.node_index(new).is_some() {
            return err(format!("cannot rename `{old}` to `{new}`: empty or taken"));
        }
        self.node_mut(old)?.set("id", Yaml::string(new));
        let fix = |y: &mut Yaml| {
            if id_text(y).as_deref() == Some(old) {
                *y = Yaml::string(new);
            }
        };
        if let Some(e) = self.front.get_mut("entry") {
            fix(e);
        }
        match self.front.get_mut("exits").map(|y| &mut y.node) {
            Some(Node::Seq(s)) => s.items.iter_mut().for_each(fix),
            Some(Node::Scalar(_)) => self.front.get_mut("exits").into_iter().for_each(fix),
            _ => {}
        }
        if let Some(items) = self.front.get_mut("nodes").and_then(Yaml::as_seq_mut) {
            for n in items.items.iter_mut().filter_map(Yaml::as_map_mut) {
                n.get_mut("fallback").into_iter().for_each(fix);
            }
        }
        if let Some(items) = self.front.get_mut("edges").and_then(Yaml::as_seq_mut) {
            for e in items.items.iter_mut().filter_map(Yaml::as_map_mut) {
                e.get_mut("from").into_iter().for_each(fix);
                e.get_mut("to").into_iter().for_each(fix);
            }
        }
        Ok(())
    }

    /// Appends an edge `{id?, from, to, kind?}` (`kind` omitted for sequential, the default);
    /// returns its index.
    pub fn add_edge(
        &mut self,
        id: Option<&str>,
        from: &str,
        to: &str,
        kind: Option<&str>,
    ) -> Result<usize, EditError> {
        let mut m = Map::new();
        if let Some(id) = id {
            m.set("id", Yaml::string(id));
        }
        m.set("from", Yaml::string(from));
        m.set("to", Yaml::string(to));
        if let Some(k) = kind.filter(|k| *k != "sequential") {
            m.set("kind", Yaml::string(k));
        }
        let edges = self.seq_mut("edges")?;
        edges.push(Yaml::map(m));
        Ok(edges.len() - 1)
    }

    /// Removes the edge at `index`.
    pub fn remove_edge(&mut self, index: usize) -> Result<(), EditError> {
        let edges = self.seq_mut("edges")?;
        if index >= edges.len() {
            return err(format!("no edge at index {index}"));
        }
        edges.remove(index);
        Ok(())
    }

    /// Sets an edge field (`from`, `to`, `condition`, `bounds`, ...).
    pub fn set_edge_field(&mut self, index: usize, field: &str, mut value: Yaml) -> Result<(), EditError> {
        value.forget_source();
        self.edge_mut(index)?.set(field, value);
        Ok(())
    }

    /// Removes an edge field.
    pub fn remove_edge_field(&mut self, index: usize, field: &str) -> Result<Option<Yaml>, EditError> {
        Ok(self.edge_mut(index)?.remove(field))
    }

    /// Sets the kind of an edge. A loop without bounds gets `bounds: {max_iterations: 1}` so
    /// the document stays valid; fields only the old kind uses are left for the user to see
    /// (the validator warns about them) rather than silently deleted.
    pub fn set_edge_kind(&mut self, index: usize, kind: &str) -> Result<(), EditError> {
        if !EDGE_KINDS.contains(&kind) {
            return err(format!("unknown edge kind `{kind}` (expected one of {})", EDGE_KINDS.join(", ")));
        }
        let e = self.edge_mut(index)?;
        e.set("kind", Yaml::string(kind));
        if kind == "loop" && e.get("bounds").is_none() {
            let mut b = Map::new();
            b.flow = true;
            b.set("max_iterations", Yaml::plain("1"));
            e.set("bounds", Yaml::map(b));
        }
        Ok(())
    }

    /// Replaces the Markdown body (written byte for byte after the front matter).
    pub fn set_body(&mut self, body: impl Into<String>) {
        self.body = body.into();
        if !self.body.is_empty() {
            self.closing_newline = true;
        }
    }
}

impl GraphMd {
    /// Where the value at `pointer` (`/nodes/0/timeout_ms`) was read from, for diagnostics
    /// made elsewhere (conversion losses, the app). The nearest enclosing value that has a
    /// place when the exact one has none; None for "" and for a document not read from text.
    pub fn span_at(&self, pointer: &str) -> Option<trellis_spec::Span> {
        let segments = trellis_spec::diagnostic::pointer_segments(pointer);
        let mut best = None;
        let mut map = &self.front;
        let mut iter = segments.iter().peekable();
        while let Some(seg) = iter.next() {
            let Some(entry) = map.entry(seg) else { break };
            best = entry.value.span.or(entry.key_span).or(best);
            let mut node = &entry.value;
            // Descend through list indexes until the next mapping.
            while let (Node::Seq(s), Some(i)) = (&node.node, iter.peek()) {
                let Some(item) = i.parse::<usize>().ok().and_then(|i| s.items.get(i)) else { return best };
                iter.next();
                best = item.span.or(best);
                node = item;
            }
            match &node.node {
                Node::Map(m) => map = m,
                _ => break,
            }
        }
        best
    }
}

/// The text of an id-like scalar: a string, or a number written plain (`id: 7` is node "7").
pub fn id_text(y: &Yaml) -> Option<String> {
    use crate::graphmd::yaml::Resolved;
    let s = y.as_scalar()?;
    match s.resolve() {
        Resolved::Str(v) if !v.is_empty() => Some(v.to_owned()),
        Resolved::Int(_) | Resolved::Float(_) => Some(s.value.clone()),
        _ => None,
    }
}
