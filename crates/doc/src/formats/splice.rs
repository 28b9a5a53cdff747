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
    let options = json::strict_jsonc_options();
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
        (Ast::Object(obj), Value::Object(o), Value::Object(n)) if !obj.properties.is_empty() => {
            let added: Vec<&String> = n.keys().filter(|k| !o.contains_key(*k)).collect();
            let removed: Vec<&String> = o.keys().filter(|k| !n.contains_key(*k)).collect();
            let common_old: Vec<&String> = o.keys().filter(|k| n.contains_key(*k)).collect();
            let common_new: Vec<&String> = n.keys().filter(|k| o.contains_key(*k)).collect();
            // Added keys must come after every kept key; the kept keys keep their order.
            let tail_ok = n.keys().skip(common_new.len()).all(|k| !o.contains_key(k));
            let simple = common_old == common_new && tail_ok && (added.is_empty() || removed.is_empty());
            if !simple || (removed.len() == obj.properties.len()) {
                return replace_whole(text, node, new, edits);
            }
            for k in &common_new {
                let (ov, nv) = (o.get(*k)?, n.get(*k)?);
                if ov != nv {
                    let prop = obj.properties.iter().rev().find(|p| p.name.as_str() == k.as_str())?;
                    diff(text, &prop.value, ov, nv, edits, depth + 1)?;
                }
            }
            let props = &obj.properties;
            for k in removed {
                let i = props.iter().position(|p| p.name.as_str() == k.as_str())?;
                let range = if i > 0 {
                    (props[i - 1].range.end, props[i].range.end)
                } else {
                    (props[0].range.start, props.get(1)?.range.start)
                };
                edits.push((range.0, range.1, String::new()));
            }
            if !added.is_empty() {
                let last = props.last()?;
                let multiline = text[obj.range.start..last.range.start].contains('\n');
                let mut insert = String::new();
                for k in added {
                    let v = n.get(k)?;
                    let key = serde_json::to_string(k).ok()?;
                    if multiline {
                        let indent = indent_of(text, last.range.start);
                        let pretty = reindent(&serde_json::to_string_pretty(v).ok()?, text, &indent);
                        insert.push_str(&format!(",{}{indent}{key}: {pretty}", eol(text)));
                    } else {
                        insert.push_str(&format!(", {key}: {}", serde_json::to_string(v).ok()?));
                    }
                }
                edits.push((last.range.end, last.range.end, insert));
            }
            Some(())
        }
        (Ast::Array(arr), Value::Array(o), Value::Array(n))
            if o.len() == n.len() && arr.elements.len() == n.len() =>
        {
            for ((el, ov), nv) in arr.elements.iter().zip(o).zip(n) {
                diff(text, el, ov, nv, edits, depth + 1)?;
            }
            Some(())
        }
        _ => replace_whole(text, node, new, edits),
    }
}

/// Replaces a whole value, pretty-printed and indented like the line it starts on.
fn replace_whole(
    text: &str,
    node: &Ast<'_>,
    new: &Value,
    edits: &mut Vec<(usize, usize, String)>,
) -> Option<()> {
    let range = node.range();
    let indent = indent_of(text, range.start);
    let pretty = serde_json::to_string_pretty(new).ok()?;
    edits.push((range.start, range.end, reindent(&pretty, text, &indent)));
    Some(())
}

/// The leading whitespace of the line holding byte `at`.
fn indent_of(text: &str, at: usize) -> String {
    let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    text[line_start..].chars().take_while(|c| *c == ' ' || *c == '\t').collect()
}

fn eol(text: &str) -> &'static str {
    if text.contains("\r\n") {
        "\r\n"
    } else {
        "\n"
    }
}

/// Pretty text whose lines after the first get `indent` (and the file's line ending).
fn reindent(pretty: &str, text: &str, indent: &str) -> String {
    pretty.split('\n').collect::<Vec<_>>().join(&format!("{}{indent}", eol(text)))
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
    fn a_value_of_another_kind_is_rewritten_indented_like_its_line() {
        let base = "{\n  \"a\": { \"x\": 1, \"y\": 2 },\n  \"b\": 2\n}\n";
        let new = serde_json::json!({"a": [1, {"z": true}], "b": 2});
        let out = splice(base, &new).expect("spliced");
        assert_eq!(out, "{\n  \"a\": [\n    1,\n    {\n      \"z\": true\n    }\n  ],\n  \"b\": 2\n}\n");
    }

    #[test]
    fn added_and_removed_keys_touch_only_their_lines() {
        let base = "{\n  \"a\": { \"x\": 1 },\n  \"b\": 2\n}\n";
        let added = serde_json::json!({"a": {"x": 1}, "b": 2, "metadata": {"web": {"positions": {"a": {"x": 1, "y": 2}}}}});
        assert_eq!(
            splice(base, &added).as_deref(),
            Some("{\n  \"a\": { \"x\": 1 },\n  \"b\": 2,\n  \"metadata\": {\n    \"web\": {\n      \"positions\": {\n        \"a\": {\n          \"x\": 1,\n          \"y\": 2\n        }\n      }\n    }\n  }\n}\n")
        );
        let inline = serde_json::json!({"a": {"x": 1, "y": 3}, "b": 2});
        assert_eq!(
            splice(base, &inline).as_deref(),
            Some("{\n  \"a\": { \"x\": 1, \"y\": 3 },\n  \"b\": 2\n}\n")
        );
        let removed = serde_json::json!({"a": {"x": 1}});
        assert_eq!(splice(base, &removed).as_deref(), Some("{\n  \"a\": { \"x\": 1 }\n}\n"));
        let first_removed = serde_json::json!({"b": 2});
        assert_eq!(splice(base, &first_removed).as_deref(), Some("{\n  \"b\": 2\n}\n"));
    }

    #[test]
    fn broken_base_text_gives_none() {
        assert_eq!(splice("{", &serde_json::json!({})), None);
    }
}
