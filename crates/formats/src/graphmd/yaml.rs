//! The YAML tree of a GRAPH.md front matter.
//!
//! We build our own small tree from `saphyr-parser` events instead of using a generic YAML
//! value type because the editor needs three things a generic value loses: the author's key
//! order, where every key and value sits in the file (for diagnostics), and how each scalar
//! and collection was written (so an unedited document is written back byte for byte).
//!
//! Safety limits are enforced while building: anchors and aliases are refused outright (an
//! alias bomb can never expand), tags are refused, nesting is capped at [`MAX_DEPTH`] and the
//! node count at [`MAX_NODES`]; duplicate keys are reported by the reader.

use saphyr_parser::{Event, Parser, ScalarStyle};
use trellis_spec::Span;

/// Deepest nesting accepted (a GRAPH.md needs about 4).
pub const MAX_DEPTH: usize = 64;
/// Most YAML nodes accepted in one front matter.
pub const MAX_NODES: usize = 200_000;

/// How a scalar was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    Plain,
    SingleQuoted,
    DoubleQuoted,
    Literal,
    Folded,
}

/// A scalar: its value after YAML unescaping, its style, and (when it was read from one line)
/// the exact source text so the writer can reproduce it.
#[derive(Debug, Clone)]
pub struct Scalar {
    pub value: String,
    pub style: Style,
    pub raw: Option<String>,
}

impl Scalar {
    /// A new scalar written the canonical way for its text (plain when that reads back as the
    /// same string, double-quoted otherwise).
    pub fn string(value: impl Into<String>) -> Scalar {
        let value = value.into();
        let style = if plain_is_safe(&value, false) { Style::Plain } else { Style::DoubleQuoted };
        Scalar { value, style, raw: None }
    }
    /// A number or boolean written plain (the text must be a YAML 1.2 core number/bool).
    pub fn plain(text: impl Into<String>) -> Scalar {
        Scalar { value: text.into(), style: Style::Plain, raw: None }
    }
    /// The YAML 1.2 core-schema reading of this scalar.
    pub fn resolve(&self) -> Resolved<'_> {
        if self.style != Style::Plain {
            return Resolved::Str(&self.value);
        }
        resolve_plain(&self.value)
    }
}

/// True when `v` written plain reads back as the same string in block (or flow) context.
pub fn plain_is_safe(v: &str, in_flow: bool) -> bool {
    let Some(first) = v.chars().next() else { return false };
    if v.trim() != v || !matches!(Scalar::plain(v).resolve(), Resolved::Str(_)) {
        return false;
    }
    if "-?:,[]{}#&*!|>'\"%@`".contains(first) {
        return false;
    }
    if v.contains(": ")
        || v.contains(" #")
        || v.ends_with(':')
        || v.chars().any(|c| c.is_control() || c == '\u{feff}')
    {
        return false;
    }
    !(in_flow && v.contains([',', '[', ']', '{', '}']))
}

// Equality is about content: where a value was read from (spans) and its exact source text
// do not make two trees different.
impl PartialEq for Scalar {
    /// Same text and same meaning: two strings are equal however they are quoted (`abc`,
    /// `'abc'`, a literal block); a plain `1.5` (a number) is not the string `"1.5"`.
    fn eq(&self, other: &Self) -> bool {
        self.value == other.value
            && (self.style == other.style
                || matches!((self.resolve(), other.resolve()), (Resolved::Str(_), Resolved::Str(_))))
    }
}

// Flow or block style is presentation, not content.
impl PartialEq for Seq {
    fn eq(&self, other: &Self) -> bool {
        self.items == other.items
    }
}

impl PartialEq for Map {
    fn eq(&self, other: &Self) -> bool {
        self.entries == other.entries
    }
}

impl PartialEq for Entry {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key && self.value == other.value
    }
}

impl PartialEq for Yaml {
    fn eq(&self, other: &Self) -> bool {
        self.node == other.node
    }
}

/// The core-schema type of a scalar.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Resolved<'a> {
    Null,
    Bool(bool),
    Int(i128),
    Float(f64),
    Str(&'a str),
}

fn resolve_plain(v: &str) -> Resolved<'_> {
    match v {
        "" | "~" | "null" | "Null" | "NULL" => return Resolved::Null,
        "true" | "True" | "TRUE" => return Resolved::Bool(true),
        "false" | "False" | "FALSE" => return Resolved::Bool(false),
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => return Resolved::Float(f64::INFINITY),
        "-.inf" | "-.Inf" | "-.INF" => return Resolved::Float(f64::NEG_INFINITY),
        ".nan" | ".NaN" | ".NAN" => return Resolved::Float(f64::NAN),
        _ => {}
    }
    let digits = |s: &str, radix: u32| !s.is_empty() && s.chars().all(|c| c.is_digit(radix));
    if let Some(h) = v.strip_prefix("0x") {
        if digits(h, 16) {
            return i128::from_str_radix(h, 16).map_or(Resolved::Str(v), Resolved::Int);
        }
    }
    if let Some(o) = v.strip_prefix("0o") {
        if digits(o, 8) {
            return i128::from_str_radix(o, 8).map_or(Resolved::Str(v), Resolved::Int);
        }
    }
    let unsigned = v.strip_prefix(['-', '+']).unwrap_or(v);
    if digits(unsigned, 10) {
        return v.parse::<i128>().map_or(Resolved::Str(v), Resolved::Int);
    }
    if is_core_float(unsigned) {
        if let Ok(f) = v.parse::<f64>() {
            return Resolved::Float(f);
        }
    }
    Resolved::Str(v)
}

/// `[0-9]*(\.[0-9]*)?([eE][-+]?[0-9]+)?` with at least one digit before the exponent.
fn is_core_float(s: &str) -> bool {
    let (mantissa, exp) = match s.find(['e', 'E']) {
        Some(i) => (&s[..i], Some(&s[i + 1..])),
        None => (s, None),
    };
    let (int, frac) = match mantissa.split_once('.') {
        Some((a, b)) => (a, Some(b)),
        None => (mantissa, None),
    };
    let all_digits = |x: &str| x.chars().all(|c| c.is_ascii_digit());
    if !all_digits(int) || !frac.is_none_or(all_digits) {
        return false;
    }
    if int.is_empty() && frac.is_none_or(str::is_empty) {
        return false;
    }
    match exp {
        None => frac.is_some() || !int.is_empty(),
        Some(e) => {
            let e = e.strip_prefix(['-', '+']).unwrap_or(e);
            !e.is_empty() && all_digits(e)
        }
    }
}

/// A sequence and whether it was written in flow style (`[a, b]`).
#[derive(Debug, Clone)]
pub struct Seq {
    pub items: Vec<Yaml>,
    pub flow: bool,
}

/// One `key: value` pair. Keys are scalars (complex keys are refused when reading).
#[derive(Debug, Clone)]
pub struct Entry {
    pub key: Scalar,
    pub key_span: Option<Span>,
    pub value: Yaml,
}

/// A mapping in the author's key order, and whether it was written in flow style (`{a: 1}`).
#[derive(Debug, Clone)]
pub struct Map {
    pub entries: Vec<Entry>,
    pub flow: bool,
}

impl Map {
    pub fn new() -> Map {
        Map { entries: Vec::new(), flow: false }
    }
    pub fn get(&self, key: &str) -> Option<&Yaml> {
        self.entries.iter().find(|e| e.key.value == key).map(|e| &e.value)
    }
    pub fn entry(&self, key: &str) -> Option<&Entry> {
        self.entries.iter().find(|e| e.key.value == key)
    }
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Yaml> {
        self.entries.iter_mut().find(|e| e.key.value == key).map(|e| &mut e.value)
    }
    /// Replaces the value of `key` in place (keeping its position) or appends it at the end.
    pub fn set(&mut self, key: &str, value: Yaml) {
        match self.entries.iter_mut().find(|e| e.key.value == key) {
            Some(e) => e.value = value,
            None => self.entries.push(Entry { key: Scalar::string(key), key_span: None, value }),
        }
    }
    /// Removes `key`; returns the old value.
    pub fn remove(&mut self, key: &str) -> Option<Yaml> {
        let i = self.entries.iter().position(|e| e.key.value == key)?;
        Some(self.entries.remove(i).value)
    }
}

impl Default for Map {
    fn default() -> Self {
        Map::new()
    }
}

/// A YAML node and where it was read from (`None` once built or replaced by an edit).
#[derive(Debug, Clone)]
pub struct Yaml {
    pub node: Node,
    pub span: Option<Span>,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Node {
    Scalar(Scalar),
    Seq(Seq),
    Map(Map),
}

impl Yaml {
    pub fn new(node: Node) -> Yaml {
        Yaml { node, span: None }
    }
    pub fn string(s: impl Into<String>) -> Yaml {
        Yaml::new(Node::Scalar(Scalar::string(s)))
    }
    pub fn plain(s: impl Into<String>) -> Yaml {
        Yaml::new(Node::Scalar(Scalar::plain(s)))
    }
    pub fn map(m: Map) -> Yaml {
        Yaml::new(Node::Map(m))
    }
    pub fn seq(items: Vec<Yaml>, flow: bool) -> Yaml {
        Yaml::new(Node::Seq(Seq { items, flow }))
    }
    pub fn as_map(&self) -> Option<&Map> {
        match &self.node {
            Node::Map(m) => Some(m),
            _ => None,
        }
    }
    pub fn as_map_mut(&mut self) -> Option<&mut Map> {
        match &mut self.node {
            Node::Map(m) => Some(m),
            _ => None,
        }
    }
    pub fn as_seq(&self) -> Option<&Seq> {
        match &self.node {
            Node::Seq(s) => Some(s),
            _ => None,
        }
    }
    pub fn as_seq_mut(&mut self) -> Option<&mut Seq> {
        match &mut self.node {
            Node::Seq(s) => Some(s),
            _ => None,
        }
    }
    pub fn as_scalar(&self) -> Option<&Scalar> {
        match &self.node {
            Node::Scalar(s) => Some(s),
            _ => None,
        }
    }
    /// The string value of a string scalar (quoted, or plain that is not a number/bool/null).
    pub fn as_str(&self) -> Option<&str> {
        match self.as_scalar()?.resolve() {
            Resolved::Str(s) => Some(s),
            _ => None,
        }
    }
    /// A short word for messages: "a mapping", "a list", "a number", ...
    pub fn kind_word(&self) -> &'static str {
        match &self.node {
            Node::Map(_) => "a mapping",
            Node::Seq(_) => "a list",
            Node::Scalar(s) => match s.resolve() {
                Resolved::Null => "null",
                Resolved::Bool(_) => "a boolean",
                Resolved::Int(_) | Resolved::Float(_) => "a number",
                Resolved::Str(_) => "a string",
            },
        }
    }
    /// Forgets every source span and raw text below this node (used when a subtree is
    /// replaced, so nothing stale is reported or written).
    pub fn forget_source(&mut self) {
        self.span = None;
        match &mut self.node {
            Node::Scalar(s) => s.raw = None,
            Node::Seq(s) => s.items.iter_mut().for_each(Yaml::forget_source),
            Node::Map(m) => m.entries.iter_mut().for_each(|e| {
                e.key_span = None;
                e.key.raw = None;
                e.value.forget_source();
            }),
        }
    }
}

/// Why the tree could not be built.
#[derive(Debug, Clone, PartialEq)]
pub struct YamlError {
    pub kind: YamlErrorKind,
    pub message: String,
    pub span: Span,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum YamlErrorKind {
    Syntax,
    Alias,
    Tag,
    ComplexKey,
    TooDeep,
    TooLarge,
    MultipleDocuments,
}

/// The result of parsing: the root node (None for an empty document), the byte ranges of
/// quoted and block scalars (so comment detection can skip `#` inside them).
#[derive(Debug)]
pub struct ParsedYaml {
    pub root: Option<Yaml>,
    pub scalar_ranges: Vec<(usize, usize)>,
}

/// Maps saphyr's character positions to file positions. `base_offset` and `base_line` place
/// the YAML text inside the whole file (the front matter starts on line 2).
struct Locator<'a> {
    text: &'a str,
    base_offset: usize,
    base_line: usize,
    // A cursor moved incrementally: events arrive in source order, so the total walk is linear.
    char_idx: usize,
    byte_idx: usize,
}

impl Locator<'_> {
    fn byte_of(&mut self, char_idx: usize) -> usize {
        while self.char_idx < char_idx {
            match self.text[self.byte_idx..].chars().next() {
                Some(c) => {
                    self.byte_idx += c.len_utf8();
                    self.char_idx += 1;
                }
                None => break,
            }
        }
        while self.char_idx > char_idx {
            match self.text[..self.byte_idx].chars().next_back() {
                Some(c) => {
                    self.byte_idx -= c.len_utf8();
                    self.char_idx -= 1;
                }
                None => break,
            }
        }
        self.byte_idx
    }

    fn span(&mut self, s: &saphyr_parser::Span) -> (Span, usize, usize) {
        let start = self.byte_of(s.start.index());
        let end = self.byte_of(s.end.index()).max(start);
        let span = Span {
            line: sat(s.start.line() + self.base_line - 1),
            column: sat(s.start.col() + 1),
            offset: sat(start + self.base_offset),
            length: sat(end - start),
        };
        (span, start, end)
    }
}

fn sat(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

enum Frame {
    Seq(Seq, Option<Span>),
    Map(Map, Option<Span>, Option<(Scalar, Option<Span>)>),
}

/// Parses `text` (the front matter only) into a tree. `base_offset`/`base_line` say where the
/// text starts in the file so every span points into the file.
pub fn parse(text: &str, base_offset: usize, base_line: usize) -> Result<ParsedYaml, YamlError> {
    let mut loc = Locator { text, base_offset, base_line, char_idx: 0, byte_idx: 0 };
    let mut stack: Vec<Frame> = Vec::new();
    let mut root: Option<Yaml> = None;
    let mut documents = 0usize;
    let mut nodes = 0usize;
    let mut scalar_ranges = Vec::new();
    for item in Parser::new_from_str(text) {
        let (event, raw_span) = match item {
            Ok(x) => x,
            Err(e) => {
                let m = e.marker();
                let sp = saphyr_parser::Span::empty(*m);
                let (span, _, _) = loc.span(&sp);
                // saphyr stops deep flow nesting itself; report it as the nesting limit.
                let kind = if e.info().contains("recursion limit") {
                    YamlErrorKind::TooDeep
                } else {
                    YamlErrorKind::Syntax
                };
                return Err(YamlError { kind, message: e.info().to_owned(), span });
            }
        };
        let (span, start, end) = loc.span(&raw_span);
        let err = |kind, message: &str| Err(YamlError { kind, message: message.to_owned(), span });
        let node =
            match event {
                Event::StreamStart | Event::StreamEnd | Event::Nothing | Event::DocumentEnd => continue,
                Event::DocumentStart(_) => {
                    documents += 1;
                    if documents > 1 {
                        return err(
                        YamlErrorKind::MultipleDocuments,
                        "the front matter holds more than one YAML document (a `...` line ends the first)",
                    );
                    }
                    continue;
                }
                Event::Alias(_) => return err(
                    YamlErrorKind::Alias,
                    "YAML aliases (`*name`) are not accepted in a GRAPH.md front matter; write the value out",
                ),
                Event::Scalar(value, style, anchor, tag) => {
                    check_props(anchor, tag.is_some(), span)?;
                    let style = match style {
                        ScalarStyle::Plain => Style::Plain,
                        ScalarStyle::SingleQuoted => Style::SingleQuoted,
                        ScalarStyle::DoubleQuoted => Style::DoubleQuoted,
                        ScalarStyle::Literal => Style::Literal,
                        ScalarStyle::Folded => Style::Folded,
                    };
                    if style != Style::Plain {
                        scalar_ranges.push((start, end));
                    }
                    let src = &text[start..end];
                    // Only one-line scalars are reproduced from their source; multi-line ones are
                    // re-emitted from their value (their indentation depends on where they sit).
                    let raw = (!src.contains(['\n', '\r'])
                        && matches!(style, Style::Plain | Style::SingleQuoted | Style::DoubleQuoted))
                    .then(|| src.to_owned());
                    Yaml {
                        node: Node::Scalar(Scalar { value: value.into_owned(), style, raw }),
                        span: Some(span),
                    }
                }
                Event::SequenceStart(anchor, tag) => {
                    check_props(anchor, tag.is_some(), span)?;
                    if stack.len() >= MAX_DEPTH {
                        return err(
                            YamlErrorKind::TooDeep,
                            "the front matter is nested too deeply (more than 64 levels)",
                        );
                    }
                    let flow = text[start..].starts_with('[');
                    stack.push(Frame::Seq(Seq { items: Vec::new(), flow }, Some(span)));
                    continue;
                }
                Event::MappingStart(anchor, tag) => {
                    check_props(anchor, tag.is_some(), span)?;
                    if stack.len() >= MAX_DEPTH {
                        return err(
                            YamlErrorKind::TooDeep,
                            "the front matter is nested too deeply (more than 64 levels)",
                        );
                    }
                    let flow = text[start..].starts_with('{');
                    stack.push(Frame::Map(Map { entries: Vec::new(), flow }, Some(span), None));
                    continue;
                }
                Event::SequenceEnd => match stack.pop() {
                    Some(Frame::Seq(s, sp)) => Yaml { node: Node::Seq(s), span: sp },
                    _ => return err(YamlErrorKind::Syntax, "unbalanced sequence"),
                },
                Event::MappingEnd => match stack.pop() {
                    Some(Frame::Map(m, sp, _)) => Yaml { node: Node::Map(m), span: sp },
                    _ => return err(YamlErrorKind::Syntax, "unbalanced mapping"),
                },
            };
        nodes += 1;
        if nodes > MAX_NODES {
            return err(
                YamlErrorKind::TooLarge,
                "the front matter has too many YAML nodes (more than 200000)",
            );
        }
        match stack.last_mut() {
            None => root = Some(node),
            Some(Frame::Seq(s, _)) => s.items.push(node),
            Some(Frame::Map(m, _, pending)) => match pending.take() {
                Some((key, key_span)) => m.entries.push(Entry { key, key_span, value: node }),
                None => match node.node {
                    Node::Scalar(k) => *pending = Some((k, node.span)),
                    _ => {
                        return Err(YamlError {
                            kind: YamlErrorKind::ComplexKey,
                            message: "a mapping key must be a plain value, not a list or mapping".to_owned(),
                            span: node.span.unwrap_or(span),
                        })
                    }
                },
            },
        }
    }
    Ok(ParsedYaml { root, scalar_ranges })
}

fn check_props(anchor: usize, tagged: bool, span: Span) -> Result<(), YamlError> {
    if anchor != 0 {
        return Err(YamlError {
            kind: YamlErrorKind::Alias,
            message: "YAML anchors (`&name`) are not accepted in a GRAPH.md front matter".to_owned(),
            span,
        });
    }
    if tagged {
        return Err(YamlError {
            kind: YamlErrorKind::Tag,
            message: "YAML tags (`!tag`, `!!str`) are not accepted in a GRAPH.md front matter".to_owned(),
            span,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn core_schema_resolution() {
        assert_eq!(resolve_plain("1.1.0"), Resolved::Str("1.1.0"));
        assert_eq!(resolve_plain("0.25"), Resolved::Float(0.25));
        assert_eq!(resolve_plain("1000"), Resolved::Int(1000));
        assert_eq!(resolve_plain("-3"), Resolved::Int(-3));
        assert_eq!(resolve_plain("1e3"), Resolved::Float(1000.0));
        assert_eq!(resolve_plain("true"), Resolved::Bool(true));
        assert_eq!(resolve_plain("~"), Resolved::Null);
        assert_eq!(resolve_plain("yes"), Resolved::Str("yes"));
        assert_eq!(resolve_plain("."), Resolved::Str("."));
        assert_eq!(resolve_plain("0x1F"), Resolved::Int(31));
    }

    #[test]
    fn spans_point_into_the_file() {
        let fm = "a: 1\nbé: 'x'\nc: [1, 2]\n";
        let p = parse(fm, 4, 2).expect("parses");
        let root = p.root.expect("root");
        let m = root.as_map().expect("map");
        let e = m.entry("c").expect("c");
        let ks = e.key_span.expect("span");
        assert_eq!((ks.line, ks.column, ks.offset), (4, 1, 4 + 14));
        assert!(e.value.as_seq().expect("seq").flow);
        let b = m.entry("bé").expect("b");
        assert_eq!(b.value.as_scalar().and_then(|s| s.raw.clone()).as_deref(), Some("'x'"));
    }

    #[test]
    fn aliases_and_anchors_are_refused() {
        let e = parse("a: &x [1]\nb: *x\n", 0, 1).expect_err("refused");
        assert_eq!(e.kind, YamlErrorKind::Alias);
    }
}
