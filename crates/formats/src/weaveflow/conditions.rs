//! Condition resolver checks (formats.md §2.3): the resolver's config shape and ports, plus the
//! rules of `state_expression` (a non-empty expression and nothing else) and of
//! `expression_conditions` (leaves and composites, with Weaveflow's messages).

use serde_json::Value;
use trellis_spec::diagnostic::pointer_push;

use super::builtin;
use super::model::EdgeCondition;
use super::shape::{check_config, check_ports, Problem};

/// Problems of a condition whose type is a built-in resolver (`base` is the condition's
/// pointer). Unknown types are reported by the caller.
pub fn check(c: &EdgeCondition, base: &str) -> Vec<Problem> {
    let t = c.type_name.trim();
    let Some(def) = builtin::condition_type(t) else { return Vec::new() };
    let config_ptr = pointer_push(base, "config");
    let state_ptr = pointer_push(base, "state");
    let mut out = Vec::new();
    match t {
        "state_expression" => state_expression(c, &config_ptr, &mut out),
        "expression_conditions" => expression_conditions(c, &config_ptr, &mut out),
        _ => out.extend(check_config(def, &c.config, &config_ptr, &format!("{t} config"), "")),
    }
    out.extend(check_ports(def, &c.state, &state_ptr, &format!("{t} condition")));
    out
}

fn state_expression(c: &EdgeCondition, at: &str, out: &mut Vec<Problem>) {
    match c.config.get("expression") {
        Some(Value::String(s)) if !s.trim().is_empty() => {}
        Some(Value::String(_)) | None => out.push(Problem::error(
            pointer_push(at, "expression"),
            "state expression condition requires a non-empty expression".into(),
        )),
        Some(other) => out.push(Problem::error(
            pointer_push(at, "expression"),
            format!("state expression condition expression must be a string, got {other}"),
        )),
    }
    for k in c.config.keys().filter(|k| *k != "expression") {
        out.push(Problem::error(
            pointer_push(at, k),
            format!("state expression condition config field \"{k}\" is not supported (only \"expression\")"),
        ));
    }
}

fn expression_conditions(c: &EdgeCondition, at: &str, out: &mut Vec<Problem>) {
    if let Some(m) = c.config.get("match") {
        let ok = matches!(m.as_str().map(str::trim), Some("" | "all" | "any"));
        if !ok {
            let shown = m.as_str().map_or_else(|| m.to_string(), |s| format!("\"{s}\""));
            out.push(Problem::error(
                pointer_push(at, "match"),
                format!("expression condition match {shown} is invalid"),
            ));
        }
    }
    for k in c.config.keys().filter(|k| !matches!(k.as_str(), "match" | "expressions")) {
        out.push(Problem::warning(
            pointer_push(at, k),
            format!("expression condition config field \"{k}\" is not a field of \"expression_conditions\""),
        ));
    }
    let list_at = pointer_push(at, "expressions");
    match c.config.get("expressions") {
        Some(Value::Array(items)) if !items.is_empty() => {
            for (i, e) in items.iter().enumerate() {
                expression(e, &pointer_push(&list_at, &i.to_string()), 0, out);
            }
        }
        Some(Value::Array(_)) | None | Some(Value::Null) => {
            out.push(Problem::error(list_at, "expression condition requires at least one expression".into()))
        }
        Some(other) => out.push(Problem::error(
            list_at,
            format!("expression condition expressions must be an array, got {other}"),
        )),
    }
}

/// Nesting bound for composites: the JSON reader allows 128 levels, this keeps recursion small.
const MAX_EXPRESSION_DEPTH: usize = 64;

fn is_set(e: &serde_json::Map<String, Value>, k: &str) -> bool {
    match e.get(k) {
        None | Some(Value::Null) => false,
        Some(Value::String(s)) => !s.is_empty(),
        Some(Value::Array(a)) => !a.is_empty(),
        Some(_) => true,
    }
}

fn expression(e: &Value, at: &str, depth: usize, out: &mut Vec<Problem>) {
    let Some(obj) = e.as_object() else {
        out.push(Problem::error(at.to_owned(), format!("expression must be an object, got {e}")));
        return;
    };
    if depth > MAX_EXPRESSION_DEPTH {
        out.push(Problem::error(
            at.to_owned(),
            format!("expression is nested more than {MAX_EXPRESSION_DEPTH} levels deep"),
        ));
        return;
    }
    for k in obj.keys().filter(|k| !matches!(k.as_str(), "value1" | "op" | "value2" | "logic" | "children")) {
        out.push(Problem::warning(pointer_push(at, k), format!("expression field \"{k}\" is not known")));
    }
    if is_set(obj, "logic") {
        let logic = obj.get("logic").and_then(Value::as_str).unwrap_or_default().trim().to_owned();
        if is_set(obj, "value1") || is_set(obj, "op") || is_set(obj, "value2") {
            out.push(Problem::error(
                at.to_owned(),
                "composite expression must not set value1/op/value2".into(),
            ));
        }
        if !matches!(logic.as_str(), "and" | "or" | "not") {
            out.push(Problem::error(
                pointer_push(at, "logic"),
                format!("composite expression logic \"{logic}\" is invalid"),
            ));
        }
        let children: &[Value] = obj.get("children").and_then(Value::as_array).map_or(&[], Vec::as_slice);
        if logic == "not" && children.len() != 1 {
            out.push(Problem::error(
                pointer_push(at, "children"),
                format!("composite expression \"{logic}\" requires exactly one child"),
            ));
        } else if children.is_empty() {
            out.push(Problem::error(
                pointer_push(at, "children"),
                format!("composite expression \"{logic}\" requires at least one child"),
            ));
        }
        let children_at = pointer_push(at, "children");
        for (i, child) in children.iter().enumerate() {
            expression(child, &pointer_push(&children_at, &i.to_string()), depth + 1, out);
        }
        return;
    }
    if is_set(obj, "children") {
        out.push(Problem::error(
            pointer_push(at, "children"),
            "leaf expression must not set children".into(),
        ));
    }
    let value1 = obj.get("value1").and_then(Value::as_str).unwrap_or_default().trim();
    if value1.is_empty() {
        out.push(Problem::error(pointer_push(at, "value1"), "expression value1 is required".into()));
    } else {
        let root = value1
            .trim_start_matches('$')
            .trim_start_matches('.')
            .split(['.', '['])
            .next()
            .unwrap_or_default();
        if matches!(root, "shared" | "scopes" | "runtime" | "internal") {
            out.push(Problem::error(
                pointer_push(at, "value1"),
                "expression value1 must be relative to the bound state port".into(),
            ));
        }
    }
    let op = obj.get("op").and_then(Value::as_str).unwrap_or_default().trim();
    if !matches!(op, "equals" | "not_equals" | "contains" | "not_contains") {
        out.push(Problem::error(pointer_push(at, "op"), format!("expression op \"{op}\" is invalid")));
    }
}
