//! The canonical YAML writer for a GRAPH.md front matter.
//!
//! Canonical form: two-space indentation, block mappings and lists (a list under a key is
//! indented by two, its items' keys follow `- `), flow style (`[a, b]`, `{k: v}`) kept where
//! the author used it, each scalar written as the author wrote it when it came from one line
//! of the source, otherwise plain when that reads back as the same string and double-quoted
//! when not; multi-line strings as literal blocks (`|`). This is what makes an unedited
//! document in canonical form come back byte for byte, and an edit change only its own lines.

use crate::graphmd::yaml::{plain_is_safe, Map, Node, Resolved, Scalar, Seq, Style, Yaml};

/// Writes a top-level mapping (without the `---` fences), each line ended by `eol`.
pub fn emit_document(root: &Map, eol: &str) -> String {
    let mut out = String::new();
    if root.entries.is_empty() {
        out.push_str("{}");
        out.push_str(eol);
        return out;
    }
    block_map(&mut out, root, 0, false, eol);
    out
}

fn push_indent(out: &mut String, n: usize) {
    out.extend(std::iter::repeat_n(' ', n));
}

/// A block mapping at `indent`; when `inline_first` the first key continues the current line
/// (after `- `).
fn block_map(out: &mut String, m: &Map, indent: usize, inline_first: bool, eol: &str) {
    for (i, e) in m.entries.iter().enumerate() {
        if !(inline_first && i == 0) {
            push_indent(out, indent);
        }
        out.push_str(&scalar_text(&e.key, true));
        out.push(':');
        value_after_key(out, &e.value, indent, eol);
    }
}

fn value_after_key(out: &mut String, v: &Yaml, indent: usize, eol: &str) {
    match &v.node {
        Node::Scalar(s) => {
            out.push(' ');
            scalar_block(out, s, indent, eol);
        }
        Node::Map(m) if m.flow || m.entries.is_empty() => {
            out.push(' ');
            flow(out, v);
            out.push_str(eol);
        }
        Node::Seq(s) if s.flow || s.items.is_empty() => {
            out.push(' ');
            flow(out, v);
            out.push_str(eol);
        }
        Node::Map(m) => {
            out.push_str(eol);
            block_map(out, m, indent + 2, false, eol);
        }
        Node::Seq(s) => {
            out.push_str(eol);
            block_seq(out, s, indent + 2, false, eol);
        }
    }
}

fn block_seq(out: &mut String, s: &Seq, indent: usize, inline_first: bool, eol: &str) {
    for (i, item) in s.items.iter().enumerate() {
        if !(inline_first && i == 0) {
            push_indent(out, indent);
        }
        out.push_str("- ");
        match &item.node {
            Node::Scalar(sc) => scalar_block(out, sc, indent, eol),
            Node::Map(m) if !m.flow && !m.entries.is_empty() => block_map(out, m, indent + 2, true, eol),
            Node::Seq(q) if !q.flow && !q.items.is_empty() => block_seq(out, q, indent + 2, true, eol),
            _ => {
                flow(out, item);
                out.push_str(eol);
            }
        }
    }
}

/// A scalar in block context, ending its line(s). `indent` is the indentation of the key or
/// list item that holds it.
fn scalar_block(out: &mut String, s: &Scalar, indent: usize, eol: &str) {
    if s.raw.is_none() && s.value.contains('\n') && literal_ok(&s.value) {
        literal(out, &s.value, indent + 2, eol);
        return;
    }
    out.push_str(&scalar_text(s, false));
    out.push_str(eol);
}

/// A value that a literal block can hold exactly: printable lines, no carriage returns, no
/// trailing spaces and a first line that does not start with a space.
fn literal_ok(v: &str) -> bool {
    !v.starts_with([' ', '\t', '\n'])
        && v.chars().all(|c| c == '\n' || !c.is_control() || c == '\t')
        && v.lines().all(|l| !l.ends_with([' ', '\t']))
}

fn literal(out: &mut String, v: &str, indent: usize, eol: &str) {
    let trailing = v.len() - v.trim_end_matches('\n').len();
    out.push('|');
    match trailing {
        0 => out.push('-'),
        1 => {}
        _ => out.push('+'),
    }
    out.push_str(eol);
    let content = v.trim_end_matches('\n');
    for line in content.split('\n') {
        if !line.is_empty() {
            push_indent(out, indent);
            out.push_str(line);
        }
        out.push_str(eol);
    }
    for _ in 1..trailing {
        out.push_str(eol);
    }
}

fn flow(out: &mut String, v: &Yaml) {
    match &v.node {
        Node::Scalar(s) => out.push_str(&scalar_text(s, true)),
        Node::Seq(s) => {
            out.push('[');
            for (i, item) in s.items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                flow(out, item);
            }
            out.push(']');
        }
        Node::Map(m) => {
            out.push('{');
            for (i, e) in m.entries.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push_str(&scalar_text(&e.key, true));
                out.push_str(": ");
                flow(out, &e.value);
            }
            out.push('}');
        }
    }
}

/// One-line text of a scalar. `in_flow` forbids the characters that end a flow item.
fn scalar_text(s: &Scalar, in_flow: bool) -> String {
    if let Some(raw) = &s.raw {
        return raw.clone();
    }
    match s.style {
        // A plain scalar the author or a setter wrote as a number/bool/null stays plain.
        Style::Plain if !matches!(s.resolve(), Resolved::Str(_)) && !s.value.contains(['\n', '\r']) => {
            s.value.clone()
        }
        Style::Plain | Style::Literal | Style::Folded if plain_is_safe(&s.value, in_flow) => s.value.clone(),
        Style::SingleQuoted if !s.value.chars().any(char::is_control) => {
            format!("'{}'", s.value.replace('\'', "''"))
        }
        _ => double_quoted(&s.value),
    }
}

fn double_quoted(v: &str) -> String {
    let mut out = String::with_capacity(v.len() + 2);
    out.push('"');
    for c in v.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            '\0' => out.push_str("\\0"),
            c if c.is_control() || matches!(c, '\u{feff}' | '\u{2028}' | '\u{2029}') => {
                out.push_str(&format!("\\u{:04X}", u32::from(c)));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A JSON value as a YAML tree: arrays and objects in flow style, a string quoted when its plain
/// form would read back as something else. `in_flow` says whether the value sits inside a flow
/// collection already, where more characters need quoting.
pub fn json_to_yaml(v: &serde_json::Value, in_flow: bool) -> Yaml {
    use serde_json::Value;
    match v {
        Value::Null => Yaml::plain("null"),
        Value::Bool(b) => Yaml::plain(b.to_string()),
        Value::Number(n) => Yaml::plain(n.to_string()),
        Value::String(s) => {
            let mut sc = Scalar::string(s.clone());
            if sc.style == Style::Plain && !plain_is_safe(s, in_flow) {
                sc.style = Style::DoubleQuoted;
            }
            Yaml::new(Node::Scalar(sc))
        }
        Value::Array(a) => Yaml::seq(a.iter().map(|x| json_to_yaml(x, true)).collect(), true),
        Value::Object(o) => {
            let mut m = Map::new();
            m.flow = true;
            for (k, x) in o {
                m.set(k, json_to_yaml(x, true));
            }
            Yaml::map(m)
        }
    }
}

/// A YAML tree as JSON (YAML 1.2 core schema: plain numbers, booleans and nulls resolve; a
/// number JSON cannot hold, like `.nan`, stays the text it was written as).
pub fn yaml_to_json(y: &Yaml) -> serde_json::Value {
    use serde_json::{Number, Value};
    match &y.node {
        Node::Scalar(s) => match s.resolve() {
            Resolved::Null => Value::Null,
            Resolved::Bool(b) => Value::Bool(b),
            Resolved::Int(i) => serde_json::from_str::<Number>(&i.to_string())
                .map(Value::Number)
                .unwrap_or_else(|_| Value::String(s.value.clone())),
            Resolved::Float(f) => {
                Number::from_f64(f).map_or_else(|| Value::String(s.value.clone()), Value::Number)
            }
            Resolved::Str(t) => Value::String(t.to_owned()),
        },
        Node::Seq(q) => Value::Array(q.items.iter().map(yaml_to_json).collect()),
        Node::Map(m) => {
            Value::Object(m.entries.iter().map(|e| (e.key.value.clone(), yaml_to_json(&e.value))).collect())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graphmd::yaml::parse;

    fn round(text: &str) -> String {
        let p = parse(text, 0, 1).expect("parses");
        let root = p.root.expect("root");
        emit_document(root.as_map().expect("map"), "\n")
    }

    #[test]
    fn canonical_text_is_a_fixed_point() {
        let t = "name: x\nexits: [a, b]\nm:\n  k: 1\nl:\n  - id: a\n    v: \"q\"\n  - 'b'\n  - - 1\n    - 2\nempty: []\ne2: {}\nf: {a: 1, b: [x]}\n";
        assert_eq!(round(t), t);
    }

    #[test]
    fn new_strings_are_quoted_when_plain_would_change_them() {
        for (v, want) in [
            ("abc", "abc"),
            ("1.5", "\"1.5\""),
            ("true", "\"true\""),
            ("a: b", "\"a: b\""),
            ("", "\"\""),
            ("-x", "\"-x\""),
            ("é ok", "é ok"),
        ] {
            assert_eq!(scalar_text(&Scalar::string(v), false), want, "{v}");
        }
    }

    #[test]
    fn multi_line_strings_become_literal_blocks_and_read_back() {
        let mut m = Map::new();
        m.set("d", Yaml::string("line one\n  two\n"));
        m.set("e", Yaml::string("no end"));
        let text = emit_document(&m, "\n");
        assert_eq!(text, "d: |\n  line one\n    two\ne: no end\n");
        let back = parse(&text, 0, 1).expect("parses").root.expect("root");
        assert_eq!(back.as_map().and_then(|m| m.get("d")).and_then(Yaml::as_str), Some("line one\n  two\n"));
    }
}
