//! Diagnostics are data: every checker in Trellis (GraphSpec, registry, Weaveflow, GRAPH.md, the
//! save pipeline) reports problems as `Diagnostic` values, so the canvas badges, the problems
//! panel, the save refusal and `trellis validate` all show the same thing.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// How bad a problem is. Only `Error` blocks a save.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "lowercase")]
#[ts(export)]
pub enum Severity {
    Error,
    Warning,
    /// Worth knowing, never a problem (for example a project type that redefines a built-in).
    Info,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

pub use crate::line_index::LineIndex;
pub use crate::span::Span;

/// The element of a graph a diagnostic is about, so the UI can select it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "lowercase")]
#[ts(export)]
pub enum Element {
    Graph,
    Node {
        id: String,
    },
    /// An edge by its index in the document's edge list (and its ends, for messages).
    Edge {
        index: usize,
        from: String,
        to: String,
    },
    Channel {
        name: String,
    },
}

/// One problem found in a document.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Diagnostic {
    /// A stable code from the documented list in `docs/diagnostics.md` (`spec/unknown-type`).
    pub code: String,
    pub severity: Severity,
    /// A sentence naming the ids involved.
    pub message: String,
    /// An RFC 6901 JSON Pointer into the document (`/nodes/3/config/model`); "" is the root.
    pub pointer: String,
    /// Where in the text, when the document came from text and the place could be found.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub span: Option<Span>,
    /// What the UI should select.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub element: Option<Element>,
    /// Ways out of the problem, best first: buttons in the app, hints on the command line.
    #[ts(as = "Option<Vec<Fix>>", optional)]
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fixes: Vec<Fix>,
    /// The names the message mentions beyond the element's own (the type a node asks for, the
    /// channel a condition reads): whoever rewords the message (the app) takes them from here,
    /// never from the message's text, which may change.
    #[ts(as = "Option<Names>", optional)]
    #[serde(default, skip_serializing_if = "Names::is_empty")]
    pub names: Names,
}

/// Names a diagnostic is about, as data (see [`Diagnostic::names`]).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Names {
    /// A node type (the unknown one of `spec/unknown-type`).
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node_type: Option<String>,
    /// A channel (the undeclared one of `spec/undeclared-channel`).
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub channel: Option<String>,
    /// The runtime's own words for the same refusal (`an "mcp_tool" node needs config.server`),
    /// so a user can match the editor's finding to the error the runtime prints.
    #[ts(optional)]
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runtime_message: Option<String>,
}

impl Names {
    pub fn is_empty(&self) -> bool {
        self.node_type.is_none() && self.channel.is_none() && self.runtime_message.is_none()
    }
}

/// A way out of a problem (biome's advice, an LSP code action): a sentence for the button or
/// hint, and the change it makes, as data. `crates/doc` turns the change into an ordinary
/// document edit (one undo step) or a registry write; the command line prints the title.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[ts(export)]
pub struct Fix {
    /// What the fix does, as a button label ("Change the type to \"llm\"").
    pub title: String,
    pub edit: FixEdit,
}

/// The change a [`Fix`] makes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[ts(export)]
pub enum FixEdit {
    /// Describe these node types in the project registry beside the document, each config
    /// schema inferred from the document's configs (`trellis registry infer`).
    DescribeTypes { types: Vec<String> },
    /// Change a node's type (a close known type: "did you mean").
    SetNodeType {
        node: String,
        #[serde(rename = "type")]
        type_name: String,
    },
    /// Declare a channel (reducer `last_write`).
    DeclareChannel { name: String },
    /// Rename a top-level field of a node's config, keeping its value.
    RenameConfigField { node: String, from: String, to: String },
    /// Set the document's own `version` (a Weaveflow definition of another generation).
    SetVersion { version: String },
}

impl Fix {
    pub fn new(title: impl Into<String>, edit: FixEdit) -> Fix {
        Fix { title: title.into(), edit }
    }
}

impl Diagnostic {
    pub fn new(code: &str, severity: Severity, message: impl Into<String>) -> Self {
        Diagnostic {
            code: code.to_owned(),
            severity,
            message: message.into(),
            pointer: String::new(),
            span: None,
            element: None,
            fixes: Vec::new(),
            names: Names::default(),
        }
    }
    pub fn error(code: &str, message: impl Into<String>) -> Self {
        Self::new(code, Severity::Error, message)
    }
    pub fn warning(code: &str, message: impl Into<String>) -> Self {
        Self::new(code, Severity::Warning, message)
    }
    pub fn info(code: &str, message: impl Into<String>) -> Self {
        Self::new(code, Severity::Info, message)
    }
    pub fn at(mut self, pointer: impl Into<String>) -> Self {
        self.pointer = pointer.into();
        self
    }
    pub fn with_span(mut self, span: Span) -> Self {
        self.span = Some(span);
        self
    }
    pub fn on(mut self, element: Element) -> Self {
        self.element = Some(element);
        self
    }
    pub fn on_node(self, id: impl Into<String>) -> Self {
        self.on(Element::Node { id: id.into() })
    }
    pub fn on_channel(self, name: impl Into<String>) -> Self {
        self.on(Element::Channel { name: name.into() })
    }
    pub fn on_edge(self, index: usize, from: impl Into<String>, to: impl Into<String>) -> Self {
        self.on(Element::Edge { index, from: from.into(), to: to.into() })
    }
    /// Names the node type the message is about.
    pub fn naming_type(mut self, node_type: impl Into<String>) -> Self {
        self.names.node_type = Some(node_type.into());
        self
    }
    /// Names the channel the message is about.
    pub fn naming_channel(mut self, channel: impl Into<String>) -> Self {
        self.names.channel = Some(channel.into());
        self
    }
    /// Offers a way out.
    pub fn with_fix(mut self, fix: Fix) -> Self {
        self.fixes.push(fix);
        self
    }
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// True when any diagnostic is an error.
pub fn has_errors(diagnostics: &[Diagnostic]) -> bool {
    diagnostics.iter().any(Diagnostic::is_error)
}

/// Builds an RFC 6901 pointer from segments, escaping `~` and `/`.
pub fn pointer<I, S>(segments: I) -> String
where
    I: IntoIterator<Item = S>,
    S: AsRef<str>,
{
    let mut out = String::new();
    for s in segments {
        out.push('/');
        push_escaped(&mut out, s.as_ref());
    }
    out
}

/// Appends one escaped segment to a pointer.
pub fn pointer_push(base: &str, segment: &str) -> String {
    let mut out = String::with_capacity(base.len() + segment.len() + 1);
    out.push_str(base);
    out.push('/');
    push_escaped(&mut out, segment);
    out
}

fn push_escaped(out: &mut String, segment: &str) {
    for c in segment.chars() {
        match c {
            '~' => out.push_str("~0"),
            '/' => out.push_str("~1"),
            c => out.push(c),
        }
    }
}

/// Splits a pointer into unescaped segments ("" -> none).
pub fn pointer_segments(pointer: &str) -> Vec<String> {
    if pointer.is_empty() {
        return Vec::new();
    }
    pointer.split('/').skip(1).map(|s| s.replace("~1", "/").replace("~0", "~")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointers_escape_and_unescape() {
        let p = pointer(["nodes", "3", "config", "a/b~c"]);
        assert_eq!(p, "/nodes/3/config/a~1b~0c");
        assert_eq!(pointer_segments(&p), vec!["nodes", "3", "config", "a/b~c"]);
        assert_eq!(pointer_push("/x", "y/z"), "/x/y~1z");
        assert!(pointer_segments("").is_empty());
    }

    #[test]
    fn spans_count_lines_and_characters() {
        let text = "{\n  \"é\": 1,\n  \"b\": 2\n}";
        let at = text.find("\"b\"").unwrap_or(0);
        let s = Span::from_range(text, at, at + 3);
        assert_eq!((s.line, s.column, s.length), (3, 3, 3));
        let s = Span::from_line_column(text, 2, 8);
        assert_eq!((s.line, s.column), (2, 8));
        assert_eq!(&text[s.offset as usize..s.offset as usize + 1], "1");
    }

    #[test]
    fn diagnostics_serialize_with_lowercase_severity() {
        let d = Diagnostic::error("spec/x", "m").at("/nodes/0").on_node("a");
        let v = serde_json::to_value(&d).unwrap_or_default();
        assert_eq!(v["severity"], "error");
        assert_eq!(v["element"]["kind"], "node");
        assert!(v.get("span").is_none());
    }
}
