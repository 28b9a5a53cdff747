//! Writing an edited JSON document by changing only what changed in the file's own text.
//!
//! The Weaveflow writer prints the whole value with a 2-space indent; a file written by hand
//! or by another tool (`{ "name": "x", "version": "1" }` on one line) would come back
//! reformatted everywhere. Instead, the old and new values are compared and each changed value
//! is replaced in place in the text the file held, in the writer's form, indented like the
//! line it sits on. An object whose keys changed is rewritten whole (keys order is the
//! object's business). The result is read back and must equal the new value; otherwise the
//! caller falls back to the writer's text.

use jsonc_parser::ast::Value as Ast;
use jsonc_parser::common::Ranged;
use serde_json::Value;
use trellis_spec::json;

/// `base_text` with `new` spliced in, or `None` when it cannot be done safely.
pub fn splice(base_text: &str, new: &Value) -> Option<String> {
    let old = json::parse(base_text).ok()?;
    if old == *new {
        return Some(base_text.to_owned());
    }
    let options = jsonc_parser::ParseOptions {
        allow_comments: false,
        allow_loose_object_property_names: false,
        allow_trailing_commas: false,
        allow_missing_commas: false,
        allow_single_quoted_strings: false,
        allow_hexadecimal_numbers: false,
        allow_unary_plus_numbers: false,
        allow_bare_decimal_point_numbers: false,
        allow_non_finite_numbers: false,
        allow_extended_string_escapes: false,
    };
    let parsed = jsonc_parser::parse_to_ast(base_text, &Default::default(), &options).ok()?;
    let root = parsed.value?;
    let mut edits: Vec<(usize, usize, String)> = Vec::new();
    diff(base_text, &root, &old, new, &mut edits, 0)?;
    edits.sort_by_key(|e| std::cmp::Reverse(e.0));
    let mut out = base_text.to_owned();
    for (start, end, text) in edits {
        if start > end || end > out.len() || !out.is_char_boundary(start) || !out.is_char_boundary(end) {
            return None;
        }
        out.replace_range(start..end, &text);
    }
    (json::parse(&out).ok()? == *new).then_some(out)
}

/// Depth is bounded by the reader's limit; the guard keeps a bug from recursing forever.
fn diff(
    text: &str,
    node: &Ast<'_>,
    old: &Value,
    new: &Value,
    edits: &mut Vec<(usize, usize, String)>,
    depth: usize,
) -> Option<()> {
    if old == new {
        return Some(());
    }
    if depth > 256 {
        return None;
    }
    match (node, old, new) {
        (Ast::Object(obj), Value::Object(o), Value::Object(n)) if o.keys().eq(n.keys()) => {
            for (k, nv) in n {
                let ov = o.get(k)?;
                if ov == nv {
                    continue;
                }
                let prop = obj.properties.iter().rev().find(|p| p.name.as_str() == k)?;
                diff(text, &prop.value, ov, nv, edits, depth + 1)?;
            }
            Some(())
        }
        (Ast::Array(arr), Value::Array(o), Value::Array(n)) if o.len() == n.len() && arr.elements.len() == n.len() => {
            for ((el, ov), nv) in arr.elements.iter().zip(o).zip(n) {
                diff(text, el, ov, nv, edits, depth + 1)?;
            }
            Some(())
        }
        _ => {
            let range = node.range();
            let line_start = text[..range.start].rfind('\n').map_or(0, |i| i + 1);
            let indent: String = text[line_start..].chars().take_while(|c| *c == ' ' || *c == '\t').collect();
            let pretty = serde_json::to_string_pretty(new).ok()?;
            let eol = if text.contains("\r\n") { "\r\n" } else { "\n" };
            let replacement = pretty.split('\n').collect::<Vec<_>>().join(&format!("{eol}{indent}"));
            edits.push((range.start, range.end, replacement));
            Some(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_changes_in_place_and_the_rest_keeps_its_form() {
        let base = "{\n  \"a\": { \"x\": 1, \"y\": \"old\" },\n  \"b\": [1,2]\n}\n";
        let new = serde_json::json!({"a": {"x": 1, "y": "new"}, "b": [1, 2]});
        assert_eq!(
            splice(base, &new).as_deref(),
            Some("{\n  \"a\": { \"x\": 1, \"y\": \"new\" },\n  \"b\": [1,2]\n}\n")
        );
    }

    #[test]
    fn a_new_key_rewrites_its_object_indented_like_its_line() {
        let base = "{\n  \"a\": { \"x\": 1 },\n  \"b\": 2\n}\n";
        let new = serde_json::json!({"a": {"x": 1, "z": true}, "b": 2});
        let out = splice(base, &new).expect("spliced");
        assert_eq!(out, "{\n  \"a\": {\n    \"x\": 1,\n    \"z\": true\n  },\n  \"b\": 2\n}\n");
    }

    #[test]
    fn broken_base_text_gives_none() {
        assert_eq!(splice("{", &serde_json::json!({})), None);
    }
}
