//! Reading a GRAPH.md file: the `---` fences, the YAML front matter (with spans and safety
//! limits), the body byte for byte. Checking the rules is `validate/`.

use crate::graphmd::model::{GraphMd, LineEnding, Origin};
use crate::graphmd::yaml::{self, Map, Node, Yaml, YamlErrorKind};
use trellis_spec::diagnostic::pointer_push;
use trellis_spec::{Diagnostic, Span};

/// Largest front matter accepted (bytes between the fences). A real GRAPH.md is a few KB;
/// the limit is checked before any YAML parsing, so a 10 MB front matter is refused at once.
pub const MAX_FRONT_MATTER: usize = 1024 * 1024;

pub mod codes {
    //! Diagnostic codes emitted while reading a GRAPH.md file.
    /// The file is not valid UTF-8.
    pub const INVALID_UTF8: &str = "graphmd/invalid-utf8";
    /// The file does not start with a `---` line.
    pub const NO_FRONT_MATTER: &str = "graphmd/no-front-matter";
    /// The opening `---` has no closing `---` line.
    pub const UNCLOSED_FRONT_MATTER: &str = "graphmd/unclosed-front-matter";
    /// The front matter is larger than 1 MiB.
    pub const FRONT_MATTER_TOO_LARGE: &str = "graphmd/front-matter-too-large";
    /// The front matter is not valid YAML.
    pub const YAML_SYNTAX: &str = "graphmd/yaml-syntax";
    /// A YAML anchor or alias (refused so an alias bomb can never expand).
    pub const YAML_ALIAS: &str = "graphmd/yaml-alias";
    /// A YAML tag (`!x`, `!!str`).
    pub const YAML_TAG: &str = "graphmd/yaml-tag";
    /// A mapping key that is a list or a mapping.
    pub const YAML_COMPLEX_KEY: &str = "graphmd/yaml-complex-key";
    /// Nesting deeper than 64 or more than 200000 YAML nodes.
    pub const YAML_TOO_LARGE: &str = "graphmd/yaml-too-large";
    /// More than one YAML document between the fences.
    pub const MULTIPLE_DOCUMENTS: &str = "graphmd/multiple-documents";
    /// The same key twice in one mapping.
    pub const DUPLICATE_KEY: &str = "graphmd/duplicate-key";
    /// The front matter is empty or not a mapping.
    pub const NOT_A_MAPPING: &str = "graphmd/not-a-mapping";
    /// The front matter has YAML comments, which a rewrite does not keep.
    pub const COMMENTS_NOT_KEPT: &str = "graphmd/comments-not-kept";
}

/// What reading produced: the document when the front matter could be read as a mapping, and
/// every problem found on the way (spans filled).
#[derive(Debug, Clone)]
pub struct ReadResult {
    pub doc: Option<GraphMd>,
    pub diagnostics: Vec<Diagnostic>,
}

/// Reads a file's bytes (UTF-8 is checked first).
pub fn read_bytes(bytes: &[u8]) -> ReadResult {
    match std::str::from_utf8(bytes) {
        Ok(text) => read(text),
        Err(e) => {
            let good = e.valid_up_to();
            let prefix = std::str::from_utf8(&bytes[..good]).unwrap_or_default();
            let span = Span::from_range(prefix, good, good);
            let d = Diagnostic::error(
                codes::INVALID_UTF8,
                format!(
                    "the file is not valid UTF-8: bad byte at line {}, column {}",
                    span.line, span.column
                ),
            )
            .with_span(span);
            ReadResult { doc: None, diagnostics: vec![d] }
        }
    }
}

fn fail(d: Diagnostic) -> ReadResult {
    ReadResult { doc: None, diagnostics: vec![d] }
}

/// Reads a GRAPH.md text.
pub fn read(text: &str) -> ReadResult {
    let bom = text.starts_with('\u{feff}');
    let start = if bom { '\u{feff}'.len_utf8() } else { 0 };
    let rest = &text[start..];
    // The opening fence, built directly: `Span::from_range` indexes the whole text, which a
    // refusal of a huge file must not pay for.
    let fence_span = Span {
        line: 1,
        column: if bom { 2 } else { 1 },
        offset: u32::try_from(start).unwrap_or(0),
        length: 3,
    };
    let first_end = rest.find('\n').map_or(rest.len(), |i| i + 1);
    let first = &rest[..first_end];
    if first.trim_end_matches(['\n', '\r']).trim_end_matches([' ', '\t']) != "---" || !first.ends_with('\n') {
        return fail(
            Diagnostic::error(
                codes::NO_FRONT_MATTER,
                "a GRAPH.md starts with a `---` line, then the YAML front matter, then a closing `---` line",
            )
            .with_span(Span { length: u32::try_from(first_end.min(3)).unwrap_or(3), ..fence_span }),
        );
    }
    let line_ending = if first.ends_with("\r\n") { LineEnding::CrLf } else { LineEnding::Lf };
    let fm_start = start + first_end;
    // Find the closing fence; give up as soon as the front matter passes the size limit so a
    // huge file is refused without reading it all. A plain byte loop: it is the one place that
    // touches every byte of a hostile file, and it must stay fast in debug builds too.
    let bytes = text.as_bytes();
    let mut line_start = fm_start;
    let mut i = fm_start;
    let closing = loop {
        if i - fm_start > MAX_FRONT_MATTER {
            return fail(
                Diagnostic::error(
                    codes::FRONT_MATTER_TOO_LARGE,
                    format!("the front matter is larger than {MAX_FRONT_MATTER} bytes; a GRAPH.md front matter this size is refused"),
                )
                .with_span(fence_span),
            );
        }
        let at_end = i >= bytes.len();
        if at_end || bytes[i] == b'\n' {
            let end = if at_end { bytes.len() } else { i + 1 };
            let line = &text[line_start..end];
            if line.trim_end_matches(['\n', '\r']).trim_end_matches([' ', '\t']) == "---" {
                break Some((line_start, end));
            }
            if at_end {
                break None;
            }
            line_start = i + 1;
        }
        i += 1;
    };
    let Some((close_start, close_end)) = closing else {
        return fail(
            Diagnostic::error(
                codes::UNCLOSED_FRONT_MATTER,
                "the front matter opened on line 1 has no closing `---` line",
            )
            .with_span(fence_span),
        );
    };
    let fm = &text[fm_start..close_start];
    let body = text[close_end..].to_owned();
    let closing_newline = text[close_start..close_end].ends_with('\n');

    let parsed = match yaml::parse(fm, fm_start, 2) {
        Ok(p) => p,
        Err(e) => {
            let code = match e.kind {
                YamlErrorKind::Syntax => codes::YAML_SYNTAX,
                YamlErrorKind::Alias => codes::YAML_ALIAS,
                YamlErrorKind::Tag => codes::YAML_TAG,
                YamlErrorKind::ComplexKey => codes::YAML_COMPLEX_KEY,
                YamlErrorKind::TooDeep | YamlErrorKind::TooLarge => codes::YAML_TOO_LARGE,
                YamlErrorKind::MultipleDocuments => codes::MULTIPLE_DOCUMENTS,
            };
            let msg = format!("front matter, line {} column {}: {}", e.span.line, e.span.column, e.message);
            return fail(Diagnostic::error(code, msg).with_span(e.span));
        }
    };
    let front = match parsed.root {
        Some(Yaml { node: Node::Map(m), .. }) => m,
        other => {
            let what = other.as_ref().map_or("empty", Yaml::kind_word);
            let span =
                other.and_then(|y| y.span).unwrap_or_else(|| Span::from_range(text, fm_start, fm_start));
            return fail(
                Diagnostic::error(
                    codes::NOT_A_MAPPING,
                    format!("the front matter must be a mapping of keys (`name:`, `nodes:` ...), not {what}"),
                )
                .with_span(span),
            );
        }
    };
    let mut diagnostics = Vec::new();
    duplicate_keys(&front, "", &mut diagnostics);
    if let Some(at) = first_comment(fm, &parsed.scalar_ranges) {
        diagnostics.push(
            Diagnostic::warning(
                codes::COMMENTS_NOT_KEPT,
                "the front matter has YAML comments; they are kept while the file is unedited, but saving an edit rewrites the front matter without them",
            )
            .with_span(Span::from_range(text, fm_start + at, fm_start + at + 1)),
        );
    }
    let mut doc = GraphMd { front, body, bom, line_ending, closing_newline, origin: None };
    doc.origin = Some(std::sync::Arc::new(Origin { text: text.to_owned(), doc: doc.clone() }));
    ReadResult { doc: Some(doc), diagnostics }
}

fn duplicate_keys(m: &Map, at: &str, out: &mut Vec<Diagnostic>) {
    let mut seen = std::collections::HashSet::new();
    for e in &m.entries {
        let here = pointer_push(at, &e.key.value);
        if !seen.insert(e.key.value.as_str()) {
            let mut d = Diagnostic::error(
                codes::DUPLICATE_KEY,
                format!("the key `{}` appears twice in the same mapping", e.key.value),
            )
            .at(here.clone());
            d.span = e.key_span;
            out.push(d);
        }
        walk_dups(&e.value, &here, out);
    }
}

fn walk_dups(y: &Yaml, at: &str, out: &mut Vec<Diagnostic>) {
    match &y.node {
        Node::Map(m) => duplicate_keys(m, at, out),
        Node::Seq(s) => {
            for (i, item) in s.items.iter().enumerate() {
                walk_dups(item, &pointer_push(at, &i.to_string()), out);
            }
        }
        Node::Scalar(_) => {}
    }
}

/// Byte offset (in the front matter) of the first `#` that starts a YAML comment: at a line
/// start or after white space, and not inside a quoted or block scalar.
fn first_comment(fm: &str, scalar_ranges: &[(usize, usize)]) -> Option<usize> {
    let bytes = fm.as_bytes();
    let mut ranges = scalar_ranges.to_vec();
    ranges.sort_unstable();
    let mut r = 0;
    for (i, b) in bytes.iter().enumerate() {
        if *b != b'#' {
            continue;
        }
        if i > 0 && !matches!(bytes[i - 1], b' ' | b'\t' | b'\n' | b'\r') {
            continue;
        }
        while r < ranges.len() && ranges[r].1 <= i {
            r += 1;
        }
        let inside = r < ranges.len() && ranges[r].0 <= i && i < ranges[r].1;
        if !inside {
            return Some(i);
        }
    }
    None
}
