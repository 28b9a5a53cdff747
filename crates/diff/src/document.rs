//! Reading any of the three formats into a [`Graph`], writing a graph back in its format's
//! canonical form (what `trellis fmt` writes), and the validation errors of a graph. Bytes in,
//! text out: the caller does the I/O.

use serde_json::{Map, Value};
use trellis_formats::detect::{self, Format};
use trellis_formats::graphmd::{self, emit, yaml, GraphMd};
use trellis_formats::weaveflow;
use trellis_spec::read::{parse_spec, spec_from_value};
use trellis_spec::writer::to_canonical_string;
use trellis_spec::{Diagnostic, Severity};

use crate::graph::Graph;

/// The largest document read (64 MiB): a 100,000-node spec is about a fifth of that, and a
/// larger file is far more likely a mistake (a build artefact, a data dump) than a graph.
pub const MAX_BYTES: usize = 64 << 20;

/// A document read for diffing or merging.
#[derive(Debug, Clone)]
pub struct Document {
    pub graph: Graph,
    /// The GRAPH.md document as read: its YAML styles are reused when writing a merge.
    graphmd: Option<GraphMd>,
}

/// Why a document could not be read, in words for the person who named it.
#[derive(Debug, Clone, PartialEq)]
pub enum ReadError {
    TooLarge(usize),
    Binary,
    NotUtf8,
    /// Not one of the three formats (or ambiguous).
    Format(Diagnostic),
    /// In a known format but not readable as a document (syntax errors and the like).
    Unreadable(Format, Vec<Diagnostic>),
    /// Readable, but its elements cannot be told apart (a node without an id, ids used twice).
    Shape(Format, String),
}

impl std::fmt::Display for ReadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReadError::TooLarge(n) => write!(
                f,
                "the file is {} MiB, larger than the {} MiB a graph document may be",
                n >> 20,
                MAX_BYTES >> 20
            ),
            ReadError::Binary => {
                f.write_str("the file is binary (it contains NUL bytes), not a graph document")
            }
            ReadError::NotUtf8 => f.write_str("the file is not valid UTF-8 text"),
            ReadError::Format(d) => f.write_str(&d.message),
            ReadError::Unreadable(format, ds) => {
                let first = ds.iter().find(|d| d.severity == Severity::Error).or(ds.first());
                write!(f, "the {} document cannot be read", format_name(*format))?;
                if let Some(d) = first {
                    write!(f, ": {}", d.message)?;
                    if let Some(s) = &d.span {
                        write!(f, " (line {}, column {})", s.line, s.column)?;
                    } else if !d.pointer.is_empty() {
                        write!(f, " (at {})", d.pointer)?;
                    }
                }
                Ok(())
            }
            ReadError::Shape(format, why) => {
                write!(f, "the {} document cannot be compared: {why}", format_name(*format))
            }
        }
    }
}

impl std::error::Error for ReadError {}

/// The format's name in messages.
pub fn format_name(f: Format) -> &'static str {
    match f {
        Format::GraphSpec => "GraphSpec",
        Format::Weaveflow => "Weaveflow",
        Format::GraphMd => "GRAPH.md",
    }
}

/// Reads a document. `name` is its file name (GRAPH.md is recognised by name too); `layout`
/// is a GraphSpec's sidecar text, when there is one (ignored when it does not read).
pub fn read(name: Option<&str>, bytes: &[u8], layout: Option<&[u8]>) -> Result<Document, ReadError> {
    if bytes.len() > MAX_BYTES {
        return Err(ReadError::TooLarge(bytes.len()));
    }
    if bytes.contains(&0) {
        return Err(ReadError::Binary);
    }
    let text = std::str::from_utf8(bytes).map_err(|_| ReadError::NotUtf8)?;
    let format = detect::detect(name, text).map_err(ReadError::Format)?;
    let shape = |e: crate::graph::ShapeError| ReadError::Shape(format, e.0);
    match format {
        Format::GraphSpec => {
            let parsed = parse_spec(text);
            let Some(spec) = parsed.spec else {
                return Err(ReadError::Unreadable(format, parsed.diagnostics));
            };
            let Ok(Value::Object(root)) = serde_json::to_value(&spec) else {
                return Err(ReadError::Shape(format, "the document is not an object".into()));
            };
            let layout = layout.and_then(|b| serde_json::from_slice::<Value>(b).ok());
            let graph = Graph::from_object(format, root, layout, None).map_err(shape)?;
            Ok(Document { graph, graphmd: None })
        }
        Format::Weaveflow => {
            let parsed = weaveflow::parse(text);
            let Some(doc) = parsed.doc else {
                return Err(ReadError::Unreadable(format, parsed.diagnostics));
            };
            let Value::Object(root) = doc.value().clone() else {
                return Err(ReadError::Shape(format, "the document is not an object".into()));
            };
            let graph = Graph::from_object(format, root, None, None).map_err(shape)?;
            Ok(Document { graph, graphmd: None })
        }
        Format::GraphMd => {
            let read = graphmd::read(text);
            let Some(doc) = read.doc else {
                return Err(ReadError::Unreadable(format, read.diagnostics));
            };
            let Value::Object(root) = emit::yaml_to_json(&yaml::Yaml::map(doc.front.clone())) else {
                return Err(ReadError::Shape(format, "the front matter is not a mapping".into()));
            };
            let graph = Graph::from_object(format, root, None, Some(doc.body.clone())).map_err(shape)?;
            Ok(Document { graph, graphmd: Some(doc) })
        }
    }
}

impl Document {
    /// A document of `graph` that writes like `self` (GRAPH.md styles, line ending, BOM).
    pub fn with_graph(&self, graph: Graph) -> Document {
        Document { graph, graphmd: self.graphmd.clone() }
    }

    /// The canonical text of this document (what `trellis fmt` writes), or the reason it
    /// cannot be written (the format's reader refuses the combined value).
    pub fn to_text(&self) -> Result<String, String> {
        let root = self.graph.to_object();
        match self.graph.format {
            Format::GraphSpec => {
                let parsed = spec_from_value(Value::Object(root));
                match parsed.spec {
                    Some(spec) => Ok(to_canonical_string(&spec)),
                    None => Err(first_message(&parsed.diagnostics)),
                }
            }
            Format::Weaveflow => match weaveflow::read_value(Value::Object(root)) {
                (Some(doc), _) => Ok(weaveflow::to_string(&doc)),
                (None, ds) => Err(first_message(&ds)),
            },
            Format::GraphMd => {
                let doc = self.to_graphmd(&root);
                Ok(graphmd::to_canonical_string(&doc))
            }
        }
    }

    /// GRAPH.md: the front matter as YAML, reusing the read document's YAML (its flow or
    /// block style, its quoting) for every value that did not change, key by key and list item
    /// by list item, so a merge changes only the lines of what changed.
    fn to_graphmd(&self, root: &Map<String, Value>) -> GraphMd {
        let mut doc = GraphMd::new("");
        let like = self.graphmd.as_ref();
        if let Some(l) = like {
            doc.bom = l.bom;
            doc.line_ending = l.line_ending;
            doc.closing_newline = l.closing_newline;
        }
        let mut front = yaml::Map::new();
        for (k, v) in root {
            let old = like.and_then(|l| l.front.get(k));
            front.set(k, reuse_yaml(old, v, false));
        }
        doc.front = front;
        doc.set_body(self.graph.body.clone().unwrap_or_default());
        doc
    }

    /// The validation errors of this document (no registry: structure, references, topology).
    pub fn errors(&self) -> Vec<Diagnostic> {
        let root = Value::Object(self.graph.to_object());
        let all = match self.graph.format {
            Format::GraphSpec => {
                let parsed = spec_from_value(root);
                match parsed.spec {
                    Some(spec) => {
                        let mut d = parsed.diagnostics;
                        d.extend(trellis_spec::validate::validate(&spec, None));
                        d
                    }
                    None => parsed.diagnostics,
                }
            }
            Format::Weaveflow => match weaveflow::read_value(root) {
                (Some(doc), mut d) => {
                    d.extend(weaveflow::validate(
                        doc.definition(),
                        None,
                        &weaveflow::ValidateOptions::default(),
                    ));
                    d
                }
                (None, d) => d,
            },
            Format::GraphMd => {
                let Value::Object(r) = root else { return Vec::new() };
                graphmd::validate(&self.to_graphmd(&r))
            }
        };
        all.into_iter().filter(|d| d.severity == Severity::Error).collect()
    }
}

fn first_message(ds: &[Diagnostic]) -> String {
    ds.iter()
        .find(|d| d.severity == Severity::Error)
        .map_or_else(|| "the merged document does not read back".to_owned(), |d| d.message.clone())
}

/// `old` when it still holds `v`; otherwise `v` as YAML, reusing `old`'s items and entries
/// where they hold the same values. Objects written fresh are block mappings (as authors write
/// nodes and edges), lists of scalars flow lists.
fn reuse_yaml(old: Option<&yaml::Yaml>, v: &Value, in_flow: bool) -> yaml::Yaml {
    if let Some(o) = old {
        if emit::yaml_to_json(o) == *v {
            return o.clone();
        }
    }
    match v {
        Value::Object(m) if !in_flow => {
            let old_map = old.and_then(yaml::Yaml::as_map);
            let flow = old_map.is_some_and(|m| m.flow);
            let mut out = yaml::Map::new();
            out.flow = flow;
            for (k, x) in m {
                out.set(k, reuse_yaml(old_map.and_then(|om| om.get(k)), x, flow));
            }
            yaml::Yaml::map(out)
        }
        Value::Array(items) if !in_flow && items.iter().any(Value::is_object) => {
            // Items are matched by their `id` (nodes, GRAPH.md edges), so a changed node
            // keeps the style of its unchanged fields; items without one by their place.
            let old_items: &[yaml::Yaml] =
                old.and_then(yaml::Yaml::as_seq).map_or(&[], |s| s.items.as_slice());
            let by_id: std::collections::HashMap<String, &yaml::Yaml> = old_items
                .iter()
                .filter_map(|o| Some((o.as_map()?.get("id")?.as_str()?.to_owned(), o)))
                .collect();
            let seq = items
                .iter()
                .enumerate()
                .map(|(i, x)| {
                    let same = match x.get("id").and_then(Value::as_str) {
                        Some(id) => by_id.get(id).copied(),
                        None => old_items.get(i),
                    };
                    reuse_yaml(same, x, false)
                })
                .collect();
            yaml::Yaml::seq(seq, false)
        }
        _ => emit::json_to_yaml(v, in_flow),
    }
}
