//! Reading any of the three formats into a [`Graph`], writing a graph back in its format's
//! canonical form (what `trellis fmt` writes), and the validation errors of a graph. Bytes in,
//! text out: the caller does the I/O.

use serde_json::{Map, Value};
use trellis_formats::any::AnyDocument;
use trellis_formats::detect::Format;
use trellis_formats::graphmd::{self, emit, yaml, GraphMd};
use trellis_formats::weaveflow;
use trellis_spec::read::spec_from_value;
use trellis_spec::writer::to_canonical_string;
use trellis_spec::{Diagnostic, GraphSpec, Severity};

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
    Format(Box<Diagnostic>),
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
    let any = AnyDocument::read(name, text).map_err(|d| ReadError::Format(Box::new(d)))?;
    let format = any.format();
    let shape = |e: crate::graph::ShapeError| ReadError::Shape(format, e.0);
    match any {
        AnyDocument::GraphSpec(parsed) => {
            let Some(spec) = parsed.spec else {
                return Err(ReadError::Unreadable(format, parsed.diagnostics));
            };
            let layout = layout.and_then(|b| serde_json::from_slice::<Value>(b).ok());
            let graph = Graph::from_spec(spec, layout).map_err(shape)?;
            Ok(Document { graph, graphmd: None })
        }
        AnyDocument::Weaveflow(parsed) => {
            let Some(doc) = parsed.doc else {
                return Err(ReadError::Unreadable(format, parsed.diagnostics));
            };
            let Value::Object(root) = doc.value().clone() else {
                return Err(ReadError::Shape(format, "the document is not an object".into()));
            };
            let graph = Graph::from_object(format, root, None, None).map_err(shape)?;
            Ok(Document { graph, graphmd: None })
        }
        AnyDocument::GraphMd(read) => {
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

/// What [`read_all`] reads: a file name (GRAPH.md is recognised by it), the bytes, and the
/// layout sidecar's bytes when there is one.
pub type Input<'a> = (Option<&'a str>, &'a [u8], Option<&'a [u8]>);

/// Reads several documents at once, one thread each (the first on the calling thread): the
/// versions a diff or a merge compares are independent, and reading is most of their time.
pub fn read_all<const N: usize>(inputs: [Input<'_>; N]) -> [Result<Document, ReadError>; N] {
    std::thread::scope(|s| {
        let rest: Vec<_> = inputs[1..]
            .iter()
            .map(|&(name, bytes, layout)| s.spawn(move || read(name, bytes, layout)))
            .collect();
        let first = inputs.first().map(|&(name, bytes, layout)| read(name, bytes, layout));
        let mut out = first.into_iter().chain(rest.into_iter().map(|h| match h.join() {
            Ok(r) => r,
            Err(panic) => std::panic::resume_unwind(panic),
        }));
        std::array::from_fn(|_| out.next().unwrap_or(Err(ReadError::NotUtf8)))
    })
}

impl Document {
    /// A document of `graph` that writes like `self` (GRAPH.md styles, line ending, BOM).
    pub fn with_graph(&self, graph: Graph) -> Document {
        Document { graph, graphmd: self.graphmd.clone() }
    }

    /// The canonical text of this document (what `trellis fmt` writes), or the reason it
    /// cannot be written (the format's reader refuses the combined value).
    pub fn to_text(&self) -> Result<String, String> {
        self.clone().into_text(false).map(|(text, _)| text)
    }

    /// The canonical text and, when `check`, the validation errors ([`Document::errors`]) of
    /// the document written, both from one reading of the graph back into its format (the
    /// merge's path: the merged graph is converted once, not once to write and once to check).
    pub fn into_text(self, check: bool) -> Result<(String, Vec<Diagnostic>), String> {
        self.write(check, false).map(|w| (w.text, w.errors))
    }

    /// [`Document::into_text`]; with `give_back`, a GraphSpec graph moved into the model to be
    /// written and checked ([`Graph::into_spec`]) is made back from it when the document has
    /// errors (the merge driver then needs the merged graph again, to restore its sides); not
    /// a graph that took the reader's route, which the model may not hold as it was.
    pub(crate) fn write(self, check: bool, give_back: bool) -> Result<Written, String> {
        let format = self.graph.format;
        let graphmd_like = self.graphmd;
        let mut back = None;
        let (text, all) = match format {
            Format::GraphSpec => {
                let (spec, mut d, direct) = spec_of(self.graph).map_err(|ds| first_message(&ds))?;
                // Writing and checking read the same model: side by side.
                let text = std::thread::scope(|s| {
                    let checked = check.then(|| s.spawn(|| trellis_spec::validate::validate(&spec, None)));
                    let text = to_canonical_string(&spec);
                    if let Some(h) = checked {
                        d.extend(h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)));
                    }
                    text
                });
                if give_back && direct && d.iter().any(|d| d.severity == Severity::Error) {
                    back = Some(Graph::from_own_spec(spec));
                }
                (text, d)
            }
            Format::Weaveflow => match weaveflow::read_value(Value::Object(self.graph.into_object())) {
                (Some(doc), mut d) => {
                    if check {
                        d.extend(weaveflow::validate(
                            doc.definition(),
                            None,
                            &weaveflow::ValidateOptions::default(),
                        ));
                    }
                    (weaveflow::to_string(&doc), d)
                }
                (None, ds) => return Err(first_message(&ds)),
            },
            Format::GraphMd => {
                let root = self.graph.into_object_keeping_body();
                let doc = graphmd_of(graphmd_like.as_ref(), &root.0, root.1);
                let d = if check { graphmd::validate(&doc) } else { Vec::new() };
                (graphmd::to_canonical_string(&doc), d)
            }
        };
        Ok(Written { text, errors: errors_only(all), back })
    }

    /// The validation errors of this document (no registry: structure, references, topology).
    pub fn errors(&self) -> Vec<Diagnostic> {
        self.clone().into_errors()
    }

    /// [`Document::errors`], taking the document's values instead of copying them.
    pub fn into_errors(self) -> Vec<Diagnostic> {
        let all = match self.graph.format {
            Format::GraphSpec => match spec_of(self.graph) {
                Ok((spec, mut d, _)) => {
                    d.extend(trellis_spec::validate::validate(&spec, None));
                    d
                }
                Err(d) => d,
            },
            Format::Weaveflow => match weaveflow::read_value(Value::Object(self.graph.into_object())) {
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
                let root = self.graph.into_object_keeping_body();
                graphmd::validate(&graphmd_of(self.graphmd.as_ref(), &root.0, root.1))
            }
        };
        errors_only(all)
    }
}

/// What [`Document::write`] gives.
pub(crate) struct Written {
    pub text: String,
    /// The validation errors (when checked).
    pub errors: Vec<Diagnostic>,
    /// The graph made back from the model it was moved into (see [`Document::write`]).
    pub back: Option<Graph>,
}

/// The GraphSpec model of a GraphSpec graph and what reading it found: the graph's values
/// moved into the model when it holds them exactly ([`Graph::into_spec`], nothing to find),
/// otherwise the graph as JSON read back by the reader; what the reader found when it cannot
/// be held at all. The flag says which: true for the graph's own values.
fn spec_of(graph: Graph) -> Result<(GraphSpec, Vec<Diagnostic>, bool), Vec<Diagnostic>> {
    match graph.into_spec() {
        Ok(spec) => Ok((spec, Vec::new(), true)),
        Err(graph) => {
            let parsed = spec_from_value(Value::Object(graph.into_object()));
            match parsed.spec {
                Some(spec) => Ok((spec, parsed.diagnostics, false)),
                None => Err(parsed.diagnostics),
            }
        }
    }
}

fn errors_only(all: Vec<Diagnostic>) -> Vec<Diagnostic> {
    all.into_iter().filter(|d| d.severity == Severity::Error).collect()
}

/// A GRAPH.md document of `root` (the front matter as JSON) and `body`, written like `like`:
/// the front matter as YAML, reusing the read document's YAML (its flow or block style, its
/// quoting) for every value that did not change, key by key and list item by list item, so a
/// merge changes only the lines of what changed.
fn graphmd_of(like: Option<&GraphMd>, root: &Map<String, Value>, body: Option<String>) -> GraphMd {
    let mut doc = GraphMd::new("");
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
    doc.set_body(body.unwrap_or_default());
    doc
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
