//! A document seen as a graph of identified elements, the same way for the three formats:
//! graph-level fields, channels by name, nodes by id, edges by their ends. Diff and merge work
//! on this view only; [`crate::document`] reads it from a format and writes it back.
//!
//! What each format puts where:
//!
//! | element  | GraphSpec              | Weaveflow                         | GRAPH.md              |
//! |----------|------------------------|-----------------------------------|-----------------------|
//! | fields   | `name`                 | every top-level key but the below | every front-matter key but the below |
//! | channels | `channels` (by name)   | `state_modules` (by `name`)       | none (`state` is a field) |
//! | nodes    | `nodes` (by `id`)      | `nodes` (by `id`)                 | `nodes` (by `id`)     |
//! | edges    | `edges` (by ends)      | `edges` (by ends)                 | `edges` (by ends)     |
//! | layout   | the sidecar file       | `metadata.web`                    | none                  |
//! | body     | none                   | none                              | the Markdown body     |

use indexmap::IndexMap;
use serde::Serialize;
use serde_json::{Map, Value};
use trellis_formats::detect::Format;

/// An edge's identity: its ends and, among edges with the same ends, its place in document
/// order (most documents have one edge per pair; the place keeps duplicates apart).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct EdgeKey {
    pub from: String,
    pub to: String,
    /// 0 for the first edge with these ends.
    pub nth: usize,
}

impl std::fmt::Display for EdgeKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} -> {}", self.from, self.to)?;
        if self.nth > 0 {
            write!(f, " (#{})", self.nth + 1)?;
        }
        Ok(())
    }
}

/// A document as identified elements. Each element is its JSON object minus what identifies
/// it (a node without `id`, an edge without `from`/`to`, a state module without `name`).
#[derive(Debug, Clone, PartialEq)]
pub struct Graph {
    pub format: Format,
    /// Top-level fields other than the collections below, in document order.
    pub fields: Map<String, Value>,
    pub channels: IndexMap<String, Map<String, Value>>,
    pub nodes: IndexMap<String, Map<String, Value>>,
    pub edges: IndexMap<EdgeKey, Map<String, Value>>,
    /// Positions and view state: never part of the diff (only summarised) and merged by union.
    pub layout: Option<Value>,
    /// GRAPH.md's Markdown body.
    pub body: Option<String>,
    /// The document's top-level keys in the order it had them, so a document written back
    /// keeps its key order (not part of the meaning: diff ignores it).
    pub key_order: Vec<String>,
}

/// Where a format keeps its collections.
#[derive(Debug, Clone, Copy)]
pub struct Shape {
    /// The top-level key of the channels and how they are stored.
    pub channels: Option<(&'static str, Channels)>,
    /// The key of a node's type (`type`, or `kind` in GRAPH.md).
    pub type_key: &'static str,
}

/// How channels are stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Channels {
    /// An object: name -> declaration.
    Object,
    /// An array of objects, each named by this key.
    ArrayBy(&'static str),
}

impl Shape {
    pub fn of(format: Format) -> Shape {
        match format {
            Format::GraphSpec => Shape { channels: Some(("channels", Channels::Object)), type_key: "type" },
            Format::Weaveflow => {
                Shape { channels: Some(("state_modules", Channels::ArrayBy("name"))), type_key: "type" }
            }
            Format::GraphMd => Shape { channels: None, type_key: "kind" },
        }
    }
}

/// Why a document cannot be seen as a graph of identified elements.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ShapeError(pub String);

impl std::fmt::Display for ShapeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ShapeError {}

fn shape_err<T>(msg: String) -> Result<T, ShapeError> {
    Err(ShapeError(msg))
}

/// Edge keys for a list of ends in document order (the n-th edge with the same ends).
pub fn edge_keys<'a>(ends: impl IntoIterator<Item = (&'a str, &'a str)> + Clone) -> Vec<EdgeKey> {
    ends.clone()
        .into_iter()
        .zip(nths(ends))
        .map(|((from, to), nth)| EdgeKey { from: from.to_owned(), to: to.to_owned(), nth })
        .collect()
}

/// For each pair of ends in document order, how many edges with the same ends came before it.
fn nths<'a>(ends: impl IntoIterator<Item = (&'a str, &'a str)>) -> Vec<usize> {
    let mut seen: std::collections::HashMap<(&str, &str), usize> = std::collections::HashMap::new();
    ends.into_iter()
        .map(|ends| {
            let n = seen.entry(ends).or_insert(0);
            *n += 1;
            *n - 1
        })
        .collect()
}

impl Graph {
    /// The graph of a document's JSON object (a GRAPH.md front matter as JSON); `layout` is
    /// what the format keeps beside it (a GraphSpec sidecar), `body` the GRAPH.md body.
    pub fn from_object(
        format: Format,
        mut root: Map<String, Value>,
        layout: Option<Value>,
        body: Option<String>,
    ) -> Result<Graph, ShapeError> {
        let shape = Shape::of(format);
        let key_order = root.keys().cloned().collect();
        let mut layout = layout;
        if format == Format::Weaveflow {
            if let Some(Value::Object(meta)) = root.get_mut("metadata") {
                if let Some(web) = meta.shift_remove("web") {
                    layout = Some(web);
                }
                if meta.is_empty() {
                    root.shift_remove("metadata");
                }
            }
        }
        let channels = match shape.channels {
            Some((key, how)) => match root.shift_remove(key) {
                None | Some(Value::Null) => IndexMap::new(),
                Some(v) => read_channels(key, how, v)?,
            },
            None => IndexMap::new(),
        };
        let nodes = match root.shift_remove("nodes") {
            None | Some(Value::Null) => IndexMap::new(),
            Some(Value::Array(items)) => read_nodes(items)?,
            Some(_) => return shape_err("`nodes` is not a list".into()),
        };
        let edges = match root.shift_remove("edges") {
            None | Some(Value::Null) => IndexMap::new(),
            Some(Value::Array(items)) => read_edges(items)?,
            Some(_) => return shape_err("`edges` is not a list".into()),
        };
        Ok(Graph { format, fields: root, channels, nodes, edges, layout, body, key_order })
    }

    /// The graph of a GraphSpec model, taking its values (configs, conditions) without copying
    /// them: the same graph as [`Graph::from_object`] of the model serialised to JSON (a test
    /// holds the two together), without building and dropping a second tree of the document.
    pub fn from_spec(spec: trellis_spec::GraphSpec, layout: Option<Value>) -> Result<Graph, ShapeError> {
        Graph::of_spec(spec, layout, true)
    }

    /// [`Graph::from_spec`] of a model made by [`Graph::into_spec`], whose node ids are known
    /// to be there and different: the graph given to it, back (the merged graph, when the
    /// merge's sides are needed again).
    pub(crate) fn from_own_spec(spec: trellis_spec::GraphSpec) -> Graph {
        match Graph::of_spec(spec, None, false) {
            Ok(g) => g,
            // Only the checks of ids fail, and they are not made.
            Err(_) => unreachable!("from_spec fails only on the checks of ids"),
        }
    }

    fn of_spec(
        spec: trellis_spec::GraphSpec,
        layout: Option<Value>,
        check: bool,
    ) -> Result<Graph, ShapeError> {
        let mut fields = Map::new();
        fields.insert("name".into(), spec.name.map_or(Value::Null, Value::String));
        let mut channels = IndexMap::with_capacity(spec.channels.len());
        for (name, decl) in spec.channels {
            // What serde makes of a `ChannelSpec`: its one field.
            let mut m = Map::with_capacity(1);
            m.insert("reducer".into(), Value::String(decl.reducer.as_str().to_owned()));
            channels.insert(name, m);
        }
        let mut nodes = IndexMap::with_capacity(spec.nodes.len());
        for (i, n) in spec.nodes.into_iter().enumerate() {
            if check && n.id.is_empty() {
                return shape_err(format!("node {i} has no id, so it cannot be matched across versions"));
            }
            let mut m = Map::with_capacity(2);
            m.insert("type".into(), n.type_name.map_or(Value::Null, |t| Value::String(t.into())));
            m.insert("config".into(), Value::Object(n.config.into_map()));
            match nodes.entry(n.id.to_string()) {
                indexmap::map::Entry::Vacant(v) => {
                    v.insert(m);
                }
                indexmap::map::Entry::Occupied(o) if check => {
                    return shape_err(format!(
                        "the node id \"{}\" is used twice, so it cannot be matched across versions",
                        o.key()
                    ));
                }
                indexmap::map::Entry::Occupied(mut o) => {
                    o.insert(m);
                }
            }
        }
        let n_edges = spec.edges.len();
        let edges = keyed_edges(
            n_edges,
            spec.edges.into_iter().map(|e| {
                let mut m = Map::new();
                if let Some(when) = e.when {
                    m.insert("when".into(), Value::Object(when.into_map()));
                }
                (e.from.into(), e.to.into(), m)
            }),
        );
        let key_order = ["name", "channels", "nodes", "edges"].map(String::from).to_vec();
        Ok(Graph { format: Format::GraphSpec, fields, channels, nodes, edges, layout, body: None, key_order })
    }

    /// Whether the GraphSpec model holds this graph exactly as it is: a GraphSpec graph in the
    /// shape [`Graph::from_spec`] gives (a `name` field, channels of a `reducer` name, nodes of
    /// a `type` and a `config` object, edges with at most a `when` object), the shape every
    /// merge of GraphSpec documents has. Then [`Graph::into_spec`] is the model the reader
    /// would make of [`Graph::into_object`], with no finding.
    pub fn fits_spec(&self) -> bool {
        let str_or_null = |v: &Value| matches!(v, Value::String(_) | Value::Null);
        self.format == Format::GraphSpec
            && self.fields.iter().all(|(k, v)| k == "name" && str_or_null(v))
            && self.channels.values().all(|c| c.iter().all(|(k, v)| k == "reducer" && str_or_null(v)))
            && self.nodes.iter().all(|(id, n)| {
                !id.is_empty()
                    && n.iter().all(|(k, v)| match k.as_str() {
                        "type" => str_or_null(v),
                        "config" => v.is_object(),
                        _ => false,
                    })
            })
            && self.edges.values().all(|e| e.iter().all(|(k, v)| k == "when" && v.is_object()))
    }

    /// The GraphSpec model of this graph, taking its values (configs, conditions) without
    /// copying them: what `spec_from_value` reads from [`Graph::into_object`] (a test holds the
    /// two together), without building that object and reading it back. A graph the model does
    /// not hold exactly ([`Graph::fits_spec`]) is given back untouched, for the reader's route
    /// (which says what does not fit).
    pub fn into_spec(self) -> Result<trellis_spec::GraphSpec, Graph> {
        use trellis_spec::model::{ChannelSpec, EdgeSpec, NodeSpec, Predicate, ReducerName};
        if !self.fits_spec() {
            return Err(self);
        }
        let text = |v: Option<Value>| match v {
            Some(Value::String(s)) => Some(s),
            _ => None,
        };
        let mut fields = self.fields;
        let name = text(fields.shift_remove("name"));
        let channels = self
            .channels
            .into_iter()
            .map(|(name, mut c)| {
                let reducer = text(c.shift_remove("reducer"))
                    .map_or(ReducerName::LastWrite, |r| ReducerName::parse(&r));
                (name, ChannelSpec { reducer })
            })
            .collect();
        let nodes = self
            .nodes
            .into_iter()
            .map(|(id, mut n)| {
                let type_name = text(n.shift_remove("type"));
                let config = match n.shift_remove("config") {
                    Some(Value::Object(m)) => m,
                    _ => Map::new(),
                };
                NodeSpec {
                    id: id.into(),
                    type_name: type_name.map(trellis_spec::Id::from),
                    config: config.into(),
                }
            })
            .collect();
        let edges = self
            .edges
            .into_iter()
            .map(|(k, mut e)| {
                let when = match e.shift_remove("when") {
                    Some(Value::Object(m)) => Some(Predicate::from(m)),
                    _ => None,
                };
                EdgeSpec { from: k.from.into(), to: k.to.into(), when }
            })
            .collect();
        Ok(trellis_spec::GraphSpec { name, channels, nodes, edges })
    }

    /// [`Graph::into_object`], and the GRAPH.md body, which the object does not hold.
    pub fn into_object_keeping_body(mut self) -> (Map<String, Value>, Option<String>) {
        let body = self.body.take();
        (self.into_object(), body)
    }

    /// The document's JSON object back, taking the graph's values (see [`Graph::to_object`]).
    pub fn into_object(self) -> Map<String, Value> {
        let shape = Shape::of(self.format);
        let mut root = Map::with_capacity(self.fields.len() + 3);
        for (k, v) in self.fields {
            root.insert(k, v);
        }
        if let Some((key, how)) = shape.channels {
            let empty = self.channels.is_empty();
            let v = match how {
                Channels::Object => {
                    Value::Object(self.channels.into_iter().map(|(k, v)| (k, Value::Object(v))).collect())
                }
                Channels::ArrayBy(name) => Value::Array(
                    self.channels
                        .into_iter()
                        .map(|(k, v)| Value::Object(owned_first(name, Value::String(k), v)))
                        .collect(),
                ),
            };
            if !(how != Channels::Object && empty) {
                root.insert(key.to_owned(), v);
            }
        }
        let nodes: Vec<Value> = self
            .nodes
            .into_iter()
            .map(|(id, n)| Value::Object(owned_first("id", Value::String(id), n)))
            .collect();
        root.insert("nodes".into(), Value::Array(nodes));
        let edges: Vec<Value> = self
            .edges
            .into_iter()
            .map(|(k, mut e)| {
                let mut m = Map::with_capacity(e.len() + 2);
                if let Some(id) = e.shift_remove("id") {
                    m.insert("id".into(), id);
                }
                m.insert("from".into(), Value::String(k.from));
                m.insert("to".into(), Value::String(k.to));
                for (f, v) in e {
                    m.insert(f, v);
                }
                Value::Object(m)
            })
            .collect();
        if !(self.format == Format::Weaveflow && edges.is_empty()) {
            root.insert("edges".into(), Value::Array(edges));
        }
        if self.format == Format::Weaveflow {
            if let Some(web) = self.layout {
                let meta = root.entry("metadata").or_insert_with(|| Value::Object(Map::new()));
                if let Value::Object(m) = meta {
                    m.insert("web".into(), web);
                }
            }
        }
        in_key_order(&self.key_order, root)
    }

    /// The document's JSON object back (the layout stays out, except Weaveflow's
    /// `metadata.web`, which lives in the document): fields, then the collections in the
    /// places the format's writer puts them.
    pub fn to_object(&self) -> Map<String, Value> {
        let shape = Shape::of(self.format);
        let mut root = Map::new();
        for (k, v) in &self.fields {
            root.insert(k.clone(), v.clone());
        }
        if let Some((key, how)) = shape.channels {
            let v = match how {
                Channels::Object => Value::Object(
                    self.channels.iter().map(|(k, v)| (k.clone(), Value::Object(v.clone()))).collect(),
                ),
                Channels::ArrayBy(name) => Value::Array(
                    self.channels
                        .iter()
                        .map(|(k, v)| Value::Object(with_first(name, Value::String(k.clone()), v)))
                        .collect(),
                ),
            };
            // A Weaveflow document without state modules stays without the key.
            if !(how != Channels::Object && self.channels.is_empty()) {
                root.insert(key.to_owned(), v);
            }
        }
        let nodes: Vec<Value> = self
            .nodes
            .iter()
            .map(|(id, n)| Value::Object(with_first("id", Value::String(id.clone()), n)))
            .collect();
        root.insert("nodes".into(), Value::Array(nodes));
        let edges: Vec<Value> = self
            .edges
            .iter()
            .map(|(k, e)| {
                let mut m = Map::new();
                // GRAPH.md edges carry their own `id`, written first as the author does.
                if let Some(id) = e.get("id") {
                    m.insert("id".into(), id.clone());
                }
                m.insert("from".into(), Value::String(k.from.clone()));
                m.insert("to".into(), Value::String(k.to.clone()));
                for (f, v) in e {
                    if f != "id" {
                        m.insert(f.clone(), v.clone());
                    }
                }
                Value::Object(m)
            })
            .collect();
        // Weaveflow's writer omits empty edges (Go's `omitempty`).
        if !(self.format == Format::Weaveflow && edges.is_empty()) {
            root.insert("edges".into(), Value::Array(edges));
        }
        if self.format == Format::Weaveflow {
            if let Some(web) = &self.layout {
                let meta = root.entry("metadata").or_insert_with(|| Value::Object(Map::new()));
                if let Value::Object(m) = meta {
                    m.insert("web".into(), web.clone());
                }
            }
        }
        in_key_order(&self.key_order, root)
    }

    /// A node's type (its `kind` in GRAPH.md).
    pub fn node_type<'a>(&self, node: &'a Map<String, Value>) -> Option<&'a str> {
        node.get(Shape::of(self.format).type_key).and_then(Value::as_str)
    }

    /// Recomputes edge keys after the ends of some edges changed (a rename).
    pub fn rekey_edges(
        edges: Vec<(String, String, Map<String, Value>)>,
    ) -> IndexMap<EdgeKey, Map<String, Value>> {
        keyed_edges(edges.len(), edges)
    }
}

/// Edges (ends and fields, in document order) keyed by their ends and place among the edges
/// with the same ends ([`EdgeKey`]). Each key is hashed once: the first edge with its ends is
/// `nth` 0, and only ends seen again are counted (most documents have one edge per pair).
fn keyed_edges(
    len: usize,
    edges: impl IntoIterator<Item = (String, String, Map<String, Value>)>,
) -> IndexMap<EdgeKey, Map<String, Value>> {
    let mut out = IndexMap::with_capacity(len);
    let mut more: std::collections::HashMap<(String, String), usize> = std::collections::HashMap::new();
    for (from, to, e) in edges {
        match out.entry(EdgeKey { from, to, nth: 0 }) {
            indexmap::map::Entry::Vacant(v) => {
                v.insert(e);
            }
            indexmap::map::Entry::Occupied(o) => {
                let (from, to) = (o.key().from.clone(), o.key().to.clone());
                let seen = more.entry((from.clone(), to.clone())).or_insert(0);
                *seen += 1;
                out.insert(EdgeKey { from, to, nth: *seen }, e);
            }
        }
    }
    out
}

/// `root` with the keys the document had first (`key_order`), in its order, then the new ones.
fn in_key_order(key_order: &[String], mut root: Map<String, Value>) -> Map<String, Value> {
    if root.keys().eq(key_order.iter()) {
        return root;
    }
    let mut out = Map::with_capacity(root.len());
    for k in key_order {
        if let Some(v) = root.shift_remove(k) {
            out.insert(k.clone(), v);
        }
    }
    for (k, v) in root {
        out.insert(k, v);
    }
    out
}

/// `rest` with `key` first (the identity a map of the graph keeps apart), taking its values.
fn owned_first(key: &str, value: Value, rest: Map<String, Value>) -> Map<String, Value> {
    let mut m = Map::with_capacity(rest.len() + 1);
    m.insert(key.to_owned(), value);
    for (k, v) in rest {
        m.insert(k, v);
    }
    m
}

fn with_first(key: &str, value: Value, rest: &Map<String, Value>) -> Map<String, Value> {
    let mut m = Map::new();
    m.insert(key.to_owned(), value);
    for (k, v) in rest {
        m.insert(k.clone(), v.clone());
    }
    m
}

fn read_channels(
    key: &str,
    how: Channels,
    v: Value,
) -> Result<IndexMap<String, Map<String, Value>>, ShapeError> {
    let mut out = IndexMap::new();
    match (how, v) {
        (Channels::Object, Value::Object(m)) => {
            for (name, decl) in m {
                let Value::Object(decl) = decl else {
                    return shape_err(format!("channel \"{name}\" is not an object"));
                };
                out.insert(name, decl);
            }
        }
        (Channels::ArrayBy(name_key), Value::Array(items)) => {
            for (i, item) in items.into_iter().enumerate() {
                let Value::Object(mut m) = item else {
                    return shape_err(format!("`{key}` item {i} is not an object"));
                };
                let Some(Value::String(name)) = m.shift_remove(name_key) else {
                    return shape_err(format!(
                        "`{key}` item {i} has no `{name_key}`, so it cannot be matched across versions"
                    ));
                };
                if out.contains_key(&name) {
                    return shape_err(format!(
                        "`{key}` has \"{name}\" twice, so it cannot be matched across versions"
                    ));
                }
                out.insert(name, m);
            }
        }
        _ => {
            return shape_err(format!(
                "`{key}` is not {}",
                if how == Channels::Object { "an object" } else { "a list" }
            ))
        }
    }
    Ok(out)
}

fn read_nodes(items: Vec<Value>) -> Result<IndexMap<String, Map<String, Value>>, ShapeError> {
    let mut out = IndexMap::with_capacity(items.len());
    for (i, item) in items.into_iter().enumerate() {
        let Value::Object(mut m) = item else {
            return shape_err(format!("node {i} is not an object"));
        };
        let id = match m.shift_remove("id") {
            Some(Value::String(id)) if !id.is_empty() => id,
            _ => return shape_err(format!("node {i} has no id, so it cannot be matched across versions")),
        };
        if out.contains_key(&id) {
            return shape_err(format!(
                "the node id \"{id}\" is used twice, so it cannot be matched across versions"
            ));
        }
        out.insert(id, m);
    }
    Ok(out)
}

fn read_edges(items: Vec<Value>) -> Result<IndexMap<EdgeKey, Map<String, Value>>, ShapeError> {
    let mut ends = Vec::with_capacity(items.len());
    for (i, item) in items.into_iter().enumerate() {
        let Value::Object(mut m) = item else {
            return shape_err(format!("edge {i} is not an object"));
        };
        let (Some(Value::String(from)), Some(Value::String(to))) =
            (m.shift_remove("from"), m.shift_remove("to"))
        else {
            return shape_err(format!(
                "edge {i} has no `from` and `to`, so it cannot be matched across versions"
            ));
        };
        ends.push((from, to, m));
    }
    Ok(Graph::rekey_edges(ends))
}
