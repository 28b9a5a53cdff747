//! The small bridge between GraphSpec predicates and Weaveflow's `state_expression` CEL:
//! only single-input comparisons with a literal (`inputs.v == "buy"`, `!=`, `>`, `<`,
//! `inputs.v in [..]`), which is all a predicate can say. Anything else is not translated (the
//! caller reports it).

use serde_json::{Map, Value};

/// A predicate operator Trellis can translate, with its operand.
#[derive(Debug, Clone, PartialEq)]
pub enum Test {
    Eq(Value),
    Neq(Value),
    In(Vec<Value>),
    Gt(Value),
    Lt(Value),
    Truthy(bool),
}

impl Test {
    /// The operator GraphSpec uses: the first present of eq, neq, in (array), gt, lt, truthy
    /// (formats.md §1.2). `None`: no known operator.
    pub fn of_predicate(p: &Map<String, Value>) -> Option<Test> {
        if let Some(v) = p.get("eq") {
            return Some(Test::Eq(v.clone()));
        }
        if let Some(v) = p.get("neq") {
            return Some(Test::Neq(v.clone()));
        }
        if let Some(Value::Array(a)) = p.get("in") {
            return Some(Test::In(a.clone()));
        }
        if let Some(v) = p.get("gt") {
            return Some(Test::Gt(v.clone()));
        }
        if let Some(v) = p.get("lt") {
            return Some(Test::Lt(v.clone()));
        }
        p.get("truthy").and_then(Value::as_bool).map(Test::Truthy)
    }

    /// The predicate object for `channel`.
    pub fn to_predicate(&self, channel: &str) -> Map<String, Value> {
        let mut m = Map::new();
        m.insert("channel".into(), Value::String(channel.to_owned()));
        let (k, v) = match self {
            Test::Eq(v) => ("eq", v.clone()),
            Test::Neq(v) => ("neq", v.clone()),
            Test::In(v) => ("in", Value::Array(v.clone())),
            Test::Gt(v) => ("gt", v.clone()),
            Test::Lt(v) => ("lt", v.clone()),
            Test::Truthy(b) => ("truthy", Value::Bool(*b)),
        };
        m.insert(k.into(), v);
        m
    }

    /// The complement, when a predicate can say it (eq <-> neq, truthy <-> not truthy).
    pub fn complement(&self) -> Option<Test> {
        match self {
            Test::Eq(v) => Some(Test::Neq(v.clone())),
            Test::Neq(v) => Some(Test::Eq(v.clone())),
            Test::Truthy(b) => Some(Test::Truthy(!b)),
            _ => None,
        }
    }

    /// The CEL text over `inputs.<alias>`; `None` for `truthy` (CEL has no emptiness test with
    /// GraphSpec's rules).
    pub fn to_cel(&self, alias: &str) -> Option<String> {
        let lit = |v: &Value| serde_json::to_string(v).unwrap_or_else(|_| "null".into());
        Some(match self {
            Test::Eq(v) => format!("inputs.{alias} == {}", lit(v)),
            Test::Neq(v) => format!("inputs.{alias} != {}", lit(v)),
            Test::In(v) => format!("inputs.{alias} in {}", lit(&Value::Array(v.clone()))),
            Test::Gt(v) => format!("inputs.{alias} > {}", lit(v)),
            Test::Lt(v) => format!("inputs.{alias} < {}", lit(v)),
            Test::Truthy(_) => return None,
        })
    }
}

/// Reads `inputs.<alias> <op> <literal>`; returns the alias and the test.
pub fn parse_cel(expression: &str) -> Option<(String, Test)> {
    let s = expression.trim();
    let rest = s.strip_prefix("inputs.")?;
    let alias_len = rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(rest.len());
    if alias_len == 0 || rest.as_bytes()[0].is_ascii_digit() {
        return None;
    }
    let alias = &rest[..alias_len];
    let rest = rest[alias_len..].trim_start();
    let (op, lit) = ["==", "!=", ">", "<"]
        .iter()
        .find_map(|op| rest.strip_prefix(op).map(|r| (*op, r)))
        .or_else(|| rest.strip_prefix("in").filter(|r| r.starts_with([' ', '['])).map(|r| ("in", r)))?;
    // `>=` / `<=` have no predicate equivalent.
    if lit.starts_with('=') {
        return None;
    }
    let value = literal(lit.trim())?;
    let test = match op {
        "==" => Test::Eq(value),
        "!=" => Test::Neq(value),
        ">" if value.is_number() => Test::Gt(value),
        "<" if value.is_number() => Test::Lt(value),
        "in" => match value {
            Value::Array(a) => Test::In(a),
            _ => return None,
        },
        _ => return None,
    };
    Some((alias.to_owned(), test))
}

/// A CEL literal that is also JSON, or a simple single-quoted string.
fn literal(s: &str) -> Option<Value> {
    if let Ok(v) = serde_json::from_str::<Value>(s) {
        return Some(v);
    }
    let inner = s.strip_prefix('\'')?.strip_suffix('\'')?;
    if inner.contains(['\'', '\\']) {
        return None;
    }
    Some(Value::String(inner.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_single_input_comparisons() {
        assert_eq!(parse_cel("inputs.v == \"buy\""), Some(("v".into(), Test::Eq(Value::from("buy")))));
        assert_eq!(parse_cel(" inputs.n > 3 "), Some(("n".into(), Test::Gt(Value::from(3)))));
        assert_eq!(parse_cel("inputs.x in ['a']"), None);
        assert_eq!(parse_cel("inputs.x in [\"a\", 1]").map(|p| p.0), Some("x".into()));
        assert_eq!(parse_cel("inputs.x == 'a'"), Some(("x".into(), Test::Eq(Value::from("a")))));
        assert_eq!(parse_cel("inputs.features.size() > 0"), None);
        assert_eq!(parse_cel("inputs.a >= 1"), None);
        assert_eq!(parse_cel("inputs.a > \"x\""), None);
        assert_eq!(parse_cel("inputs.a == 1 && inputs.b == 2"), None);
    }

    #[test]
    fn renders_cel_that_parses_back() {
        for t in [
            Test::Eq(Value::from("a\"b")),
            Test::Neq(Value::Null),
            Test::In(vec![Value::from(1)]),
            Test::Lt(Value::from(2)),
        ] {
            let cel = t.to_cel("value").unwrap_or_default();
            assert_eq!(parse_cel(&cel), Some(("value".into(), t.clone())), "{cel}");
        }
        assert_eq!(Test::Truthy(true).to_cel("v"), None);
    }
}
