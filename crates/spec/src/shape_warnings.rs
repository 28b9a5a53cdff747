//! Warnings about how a document is written, for things that compile but that a person or
//! another runtime would read differently: names made only of whitespace (nothing to see on
//! the canvas) and the .NET "legacy" predicate shape (every operator present, the unused ones
//! `null`), which the TypeScript and .NET reference runtimes route differently.

use serde_json::Value;

use crate::diagnostic::{pointer, Diagnostic};
use crate::model::{GraphSpec, Predicate};
use crate::predicate::{js_json, OPERATORS};

/// Codes of these warnings.
pub mod codes {
    /// A node id or channel name that is not empty but only whitespace.
    pub const BLANK_NAME: &str = "spec/blank-name";
    /// A predicate with several operators where the unused ones are `null` (the .NET "legacy"
    /// shape): TypeScript takes the first operator present, `null` or not; .NET skips the nulls.
    pub const LEGACY_PREDICATE: &str = "spec/legacy-predicate";
}

/// Every shape warning of `spec`, channels, then nodes, then edges.
pub fn check(spec: &GraphSpec, out: &mut Vec<Diagnostic>) {
    for name in spec.channels.keys().filter(|n| is_blank(n)) {
        out.push(
            Diagnostic::warning(
                codes::BLANK_NAME,
                format!(
                    "channel name {} is only whitespace, so it cannot be seen in the app or told apart from others",
                    js_json(&Value::String(name.clone()))
                ),
            )
            .at(pointer(["channels", name]))
            .on_channel(name),
        );
    }
    for (i, n) in spec.nodes.iter().enumerate().filter(|(_, n)| is_blank(&n.id)) {
        out.push(
            Diagnostic::warning(
                codes::BLANK_NAME,
                format!(
                    "node id {} is only whitespace, so the node has no visible name on the canvas",
                    js_json(&Value::String(n.id.to_string()))
                ),
            )
            .at(pointer(["nodes", &i.to_string(), "id"]))
            .on_node(&n.id),
        );
    }
    for (i, e) in spec.edges.iter().enumerate() {
        let Some(p) = &e.when else { continue };
        if let Some(why) = legacy_routing(p) {
            out.push(
                Diagnostic::warning(
                    codes::LEGACY_PREDICATE,
                    format!(
                        "the guard on the edge \"{}\" -> \"{}\" lists several operators with the unused ones null \
                         (the .NET \"legacy\" shape), and the two reference runtimes route it differently: {why}; \
                         remove the null operators",
                        e.from, e.to
                    ),
                )
                .at(pointer(["edges", &i.to_string(), "when"]))
                .on_edge(i, &e.from, &e.to),
            );
        }
    }
}

/// Not empty (that is an error of its own) and nothing but whitespace.
fn is_blank(name: &str) -> bool {
    !name.is_empty() && name.chars().all(char::is_whitespace)
}

/// When `p` has two or more operators and the first of them is `null` (so the runtimes differ):
/// what the TypeScript runtime uses (the first operator present) and what .NET uses (the first
/// that is not `null`). A `null` after the operator that decides changes nothing in either.
fn legacy_routing(p: &Predicate) -> Option<String> {
    // Runs for every guarded edge: a predicate with fewer than two operator keys (nearly all)
    // is told apart by one walk over its two or three keys, with no hashed look-up.
    p.iter().filter(|(k, _)| OPERATORS.contains(k)).nth(1)?;
    let present: Vec<(&str, &Value)> =
        OPERATORS.iter().filter_map(|op| p.get(op).map(|v| (*op, v))).collect();
    if present.len() < 2 || !present[0].1.is_null() {
        return None;
    }
    let (ts_op, ts_value) = present[0];
    let ts = format!("TypeScript uses \"{ts_op}\": {}", js_json(ts_value));
    let net = match present.iter().find(|(_, v)| !v.is_null()) {
        Some((op, v)) => format!(".NET uses \"{op}\": {}", js_json(v)),
        None => ".NET sees no operator at all".to_owned(),
    };
    Some(format!("{ts}, {net}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::parse_spec;

    fn warnings(text: &str) -> Vec<Diagnostic> {
        let spec = parse_spec(text).spec.unwrap_or_default();
        let mut out = Vec::new();
        check(&spec, &mut out);
        out
    }

    #[test]
    fn whitespace_names_are_flagged_and_ordinary_ones_are_not() {
        let w = warnings(
            r#"{"channels":{" ":{},"x y":{}},"nodes":[{"id":"\t","type":"t"},{"id":"a b","type":"t"}]}"#,
        );
        let got: Vec<_> = w.iter().map(|d| (d.code.as_str(), d.pointer.as_str())).collect();
        assert_eq!(got, [(codes::BLANK_NAME, "/channels/ "), (codes::BLANK_NAME, "/nodes/0/id")]);
        assert!(w[1].message.starts_with("node id \"\\t\" is only whitespace"), "{}", w[1].message);
    }

    #[test]
    fn the_legacy_shape_names_what_each_runtime_uses() {
        let w = warnings(
            r#"{"channels":{"c":{}},"edges":[
                {"from":"a","to":"b","when":{"channel":"c","eq":null,"neq":null,"in":null,"gt":5,"lt":null,"truthy":null}},
                {"from":"a","to":"b","when":{"channel":"c","eq":null}},
                {"from":"a","to":"b","when":{"channel":"c","eq":1,"gt":2}},
                {"from":"a","to":"b","when":{"channel":"c","eq":1,"neq":null}}]}"#,
        );
        assert_eq!(w.len(), 1, "{w:#?}");
        assert_eq!(w[0].pointer, "/edges/0/when");
        assert!(
            w[0].message.contains("TypeScript uses \"eq\": null, .NET uses \"gt\": 5"),
            "{}",
            w[0].message
        );
    }
}
