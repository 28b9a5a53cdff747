//! What a stored predicate means (formats.md §1.2).
//!
//! A predicate is kept verbatim ([`Predicate`] wraps the object as read); this module reads it:
//! the first operator present in the order eq, neq, in, gt, lt, truthy wins, everything else in
//! the object is ignored (but written back). Equality is JavaScript's `===`: numbers compare
//! numerically, `1` is not `"1"`, and objects and arrays are never equal (they compare by
//! reference in the reference implementation, and a literal is never the same object).

use serde_json::{Number, Value};

pub use crate::model::condition::OPERATORS;
use crate::model::Predicate;

/// The operator a predicate uses, borrowing its operand.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Op<'a> {
    Eq(&'a Value),
    Neq(&'a Value),
    In(&'a [Value]),
    Gt(&'a Value),
    Lt(&'a Value),
    Truthy(&'a Value),
}

impl Op<'_> {
    /// The key the operator is stored under.
    pub fn name(&self) -> &'static str {
        match self {
            Op::Eq(_) => "eq",
            Op::Neq(_) => "neq",
            Op::In(_) => "in",
            Op::Gt(_) => "gt",
            Op::Lt(_) => "lt",
            Op::Truthy(_) => "truthy",
        }
    }
}

/// The operator that decides, or `None` when there is no known operator (a non-array `in` is
/// not an operator).
pub fn operator(p: &Predicate) -> Option<Op<'_>> {
    // The plain shape (`{"channel", <operator>}`, nearly every condition) names its one
    // operator; the order of precedence only matters when there are several.
    if let Some((index, v)) = p.plain_operator() {
        return match (OPERATORS[index], v) {
            ("eq", v) => Some(Op::Eq(v)),
            ("neq", v) => Some(Op::Neq(v)),
            ("in", Value::Array(items)) => Some(Op::In(items)),
            ("gt", v) => Some(Op::Gt(v)),
            ("lt", v) => Some(Op::Lt(v)),
            ("truthy", v) => Some(Op::Truthy(v)),
            _ => None,
        };
    }
    // One pass over the keys instead of up to six look-ups. The order of precedence is kept
    // below.
    let (mut eq, mut neq, mut within, mut gt, mut lt, mut truthy) = (None, None, None, None, None, None);
    for (k, v) in p.iter() {
        match k {
            "eq" => eq = Some(v),
            "neq" => neq = Some(v),
            "in" => within = Some(v),
            "gt" => gt = Some(v),
            "lt" => lt = Some(v),
            "truthy" => truthy = Some(v),
            _ => {}
        }
    }
    if let Some(v) = eq {
        return Some(Op::Eq(v));
    }
    if let Some(v) = neq {
        return Some(Op::Neq(v));
    }
    if let Some(Value::Array(items)) = within {
        return Some(Op::In(items));
    }
    if let Some(v) = gt {
        return Some(Op::Gt(v));
    }
    if let Some(v) = lt {
        return Some(Op::Lt(v));
    }
    truthy.map(Op::Truthy)
}

/// Whether the predicate holds for the channel's value (`None`: never written, `undefined` in
/// the reference). A predicate with no known operator never holds.
pub fn evaluate(p: &Predicate, actual: Option<&Value>) -> bool {
    match operator(p) {
        None => false,
        Some(Op::Eq(v)) => strict_eq(actual, v),
        Some(Op::Neq(v)) => !strict_eq(actual, v),
        Some(Op::In(items)) => items.iter().any(|v| strict_eq(actual, v)),
        Some(Op::Gt(v)) => compare(actual, v).is_some_and(|o| o == std::cmp::Ordering::Greater),
        Some(Op::Lt(v)) => compare(actual, v).is_some_and(|o| o == std::cmp::Ordering::Less),
        // `isTruthy(actual) === truthy`: a non-boolean operand never equals a boolean.
        Some(Op::Truthy(v)) => v.as_bool() == Some(is_truthy(actual)),
    }
}

/// JavaScript `===` between a channel value (absent = `undefined`) and a literal.
pub fn strict_eq(actual: Option<&Value>, literal: &Value) -> bool {
    let Some(actual) = actual else {
        return false; // undefined === anything JSON can hold is false
    };
    match (actual, literal) {
        (Value::Null, Value::Null) => true,
        (Value::Bool(a), Value::Bool(b)) => a == b,
        (Value::String(a), Value::String(b)) => a == b,
        (Value::Number(a), Value::Number(b)) => number_eq(a, b),
        _ => false, // different types, or objects/arrays (compared by reference)
    }
}

fn number_eq(a: &Number, b: &Number) -> bool {
    // Same text is the same number; otherwise compare as doubles, as JavaScript does.
    a == b || matches!((a.as_f64(), b.as_f64()), (Some(x), Some(y)) if x == y)
}

/// Numeric comparison; `None` unless both are numbers (no parsing, no coercion).
fn compare(actual: Option<&Value>, literal: &Value) -> Option<std::cmp::Ordering> {
    let a = actual?.as_number()?.as_f64()?;
    let b = literal.as_number()?.as_f64()?;
    a.partial_cmp(&b)
}

/// JavaScript truthiness as the reference's `isTruthy` extends it: null, undefined, false, "",
/// 0, NaN, `[]` and `{}` are falsy.
pub fn is_truthy(v: Option<&Value>) -> bool {
    match v {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(Value::String(s)) => !s.is_empty(),
        Some(Value::Number(n)) => n.as_f64().is_some_and(|f| f != 0.0 && !f.is_nan()),
        Some(Value::Array(a)) => !a.is_empty(),
        Some(Value::Object(o)) => !o.is_empty(),
    }
}

/// A short human label in the style of the Mermaid export: `intent == "buy"`,
/// `intent != "buy"`, `intent in ["a", 3]`, `count > 10`, `count < 2.5`, `truthy(items)`,
/// `not truthy(items)`. Values are written as `JSON.stringify` would. Not escaped for Mermaid.
pub fn label(p: &Predicate) -> String {
    let channel = match p.get("channel") {
        Some(Value::String(s)) => s.clone(),
        Some(other) => js_json(other),
        None => "?".to_owned(),
    };
    match operator(p) {
        Some(Op::Eq(v)) => format!("{channel} == {}", js_json(v)),
        Some(Op::Neq(v)) => format!("{channel} != {}", js_json(v)),
        Some(Op::In(items)) => {
            let parts: Vec<String> = items.iter().map(js_json).collect();
            format!("{channel} in [{}]", parts.join(", "))
        }
        Some(Op::Gt(v)) => format!("{channel} > {}", js_json(v)),
        Some(Op::Lt(v)) => format!("{channel} < {}", js_json(v)),
        Some(Op::Truthy(v)) => {
            if is_truthy(Some(v)) {
                format!("truthy({channel})")
            } else {
                format!("not truthy({channel})")
            }
        }
        None => format!("{channel} ?"),
    }
}

/// `JSON.stringify(v)`: compact, numbers in JavaScript's shortest form (`1.0` -> `1`).
pub fn js_json(v: &Value) -> String {
    match v {
        Value::Number(n) => js_number(n),
        Value::Array(items) => {
            let parts: Vec<String> = items.iter().map(js_json).collect();
            format!("[{}]", parts.join(","))
        }
        Value::Object(o) => {
            let parts: Vec<String> = o
                .iter()
                .map(|(k, v)| format!("{}:{}", serde_json::to_string(k).unwrap_or_default(), js_json(v)))
                .collect();
            format!("{{{}}}", parts.join(","))
        }
        other => serde_json::to_string(other).unwrap_or_default(),
    }
}

/// A number as JavaScript's `Number.prototype.toString` prints it.
pub fn js_number(n: &Number) -> String {
    let Some(f) = n.as_f64() else {
        return n.to_string();
    };
    js_f64(f)
}

/// `Number.prototype.toString` for a double (ECMA-262 Number::toString, radix 10).
pub fn js_f64(f: f64) -> String {
    if f.is_nan() {
        return "NaN".into();
    }
    if f == 0.0 {
        return "0".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "Infinity".into() } else { "-Infinity".into() };
    }
    if f < 0.0 {
        return format!("-{}", js_f64(-f));
    }
    // Rust's `{:e}` gives the shortest round-trip digits: "d.ddde<exp>".
    let sci = format!("{f:e}");
    let (mantissa, exp) = sci.split_once('e').unwrap_or((&sci, "0"));
    let digits: String = mantissa.chars().filter(|c| *c != '.').collect();
    let k = digits.len() as i64;
    let n = exp.parse::<i64>().unwrap_or(0) + 1; // value = 0.digits × 10^n
    if k <= n && n <= 21 {
        format!("{digits}{}", "0".repeat((n - k) as usize))
    } else if 0 < n && n <= 21 {
        format!("{}.{}", &digits[..n as usize], &digits[n as usize..])
    } else if -6 < n && n <= 0 {
        format!("0.{}{digits}", "0".repeat((-n) as usize))
    } else {
        let e = n - 1;
        let sign = if e >= 0 { "+" } else { "-" };
        if k == 1 {
            format!("{digits}e{sign}{}", e.abs())
        } else {
            format!("{}.{}e{sign}{}", &digits[..1], &digits[1..], e.abs())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn p(v: Value) -> Predicate {
        match v {
            Value::Object(m) => Predicate::from(m),
            _ => Predicate::from(serde_json::Map::new()),
        }
    }

    #[test]
    fn first_operator_present_wins() {
        let pr = p(json!({"channel": "x", "truthy": true, "lt": 3, "eq": 1}));
        assert_eq!(operator(&pr).map(|o| o.name()), Some("eq"));
        let pr = p(json!({"channel": "x", "in": "notalist", "gt": 3}));
        assert_eq!(operator(&pr).map(|o| o.name()), Some("gt"));
        let pr = p(json!({"channel": "x", "in": "notalist"}));
        assert!(operator(&pr).is_none());
        let pr = p(json!({"channel": "x", "like": "%x"}));
        assert!(operator(&pr).is_none());
        assert!(!evaluate(&pr, Some(&json!("x"))));
    }

    #[test]
    fn equality_is_strict() {
        let eq1 = p(json!({"channel": "x", "eq": 1}));
        assert!(evaluate(&eq1, Some(&json!(1))));
        assert!(evaluate(&eq1, Some(&serde_json::from_str::<Value>("1.0").unwrap())));
        assert!(!evaluate(&eq1, Some(&json!("1"))));
        assert!(!evaluate(&eq1, Some(&json!(true))));
        assert!(!evaluate(&eq1, None));
        let eq_null = p(json!({"channel": "x", "eq": null}));
        assert!(evaluate(&eq_null, Some(&Value::Null)));
        assert!(!evaluate(&eq_null, None));
        let neq_null = p(json!({"channel": "x", "neq": null}));
        assert!(evaluate(&neq_null, None));
        assert!(evaluate(&neq_null, Some(&json!(0))));
        assert!(!evaluate(&neq_null, Some(&Value::Null)));
        let eq_obj = p(json!({"channel": "x", "eq": {"a": 1}}));
        assert!(!evaluate(&eq_obj, Some(&json!({"a": 1}))));
        let eq_arr = p(json!({"channel": "x", "eq": []}));
        assert!(!evaluate(&eq_arr, Some(&json!([]))));
    }

    #[test]
    fn in_matches_any_element_including_null() {
        let pr = p(json!({"channel": "x", "in": ["a", 3, true, null]}));
        for v in [json!("a"), json!(3), json!(3.0), json!(true), Value::Null] {
            assert!(evaluate(&pr, Some(&v)), "{v}");
        }
        assert!(!evaluate(&pr, Some(&json!("3"))));
        assert!(!evaluate(&pr, None));
    }

    #[test]
    fn comparisons_are_numbers_only() {
        let gt = p(json!({"channel": "x", "gt": 10}));
        assert!(evaluate(&gt, Some(&json!(11))));
        assert!(!evaluate(&gt, Some(&json!(10))));
        assert!(!evaluate(&gt, Some(&json!("11"))));
        assert!(!evaluate(&gt, Some(&Value::Null)));
        assert!(!evaluate(&gt, None));
        let lt = p(json!({"channel": "x", "lt": 2.5}));
        assert!(evaluate(&lt, Some(&json!(2))));
        assert!(!evaluate(&lt, Some(&json!(2.5))));
        let gt_str = p(json!({"channel": "x", "gt": "5"}));
        assert!(!evaluate(&gt_str, Some(&json!(6))));
    }

    #[test]
    fn truthiness() {
        let t = p(json!({"channel": "x", "truthy": true}));
        let f = p(json!({"channel": "x", "truthy": false}));
        for v in [Value::Null, json!(false), json!(""), json!(0), json!(-0.0), json!([]), json!({})] {
            assert!(!evaluate(&t, Some(&v)), "{v}");
            assert!(evaluate(&f, Some(&v)), "{v}");
        }
        assert!(evaluate(&f, None));
        for v in [json!(true), json!("0"), json!(1), json!([0]), json!({"a": null})] {
            assert!(evaluate(&t, Some(&v)), "{v}");
        }
        let odd = p(json!({"channel": "x", "truthy": "yes"}));
        assert!(!evaluate(&odd, Some(&json!(true))));
        assert!(!evaluate(&odd, Some(&json!(false))));
    }

    #[test]
    fn labels_follow_the_mermaid_style() {
        assert_eq!(label(&p(json!({"channel": "intent", "eq": "buy"}))), "intent == \"buy\"");
        assert_eq!(label(&p(json!({"channel": "intent", "neq": "buy"}))), "intent != \"buy\"");
        assert_eq!(
            label(&p(json!({"channel": "intent", "in": ["refund", "return", 3, true, null]}))),
            "intent in [\"refund\", \"return\", 3, true, null]"
        );
        assert_eq!(label(&p(json!({"channel": "count", "gt": 10}))), "count > 10");
        assert_eq!(label(&p(json!({"channel": "count", "lt": 2.5}))), "count < 2.5");
        assert_eq!(label(&p(json!({"channel": "items", "truthy": true}))), "truthy(items)");
        assert_eq!(label(&p(json!({"channel": "items", "truthy": false}))), "not truthy(items)");
        let one = serde_json::from_str::<Value>(r#"{"channel":"c","eq":1.0}"#).unwrap();
        assert_eq!(label(&p(one)), "c == 1");
    }

    #[test]
    fn numbers_print_like_javascript() {
        for (f, s) in [
            (1.0, "1"),
            (2.5, "2.5"),
            (1e21, "1e+21"),
            (1e20, "100000000000000000000"),
            (1e-7, "1e-7"),
            (0.000001, "0.000001"),
            (-1.5e-10, "-1.5e-10"),
            (123.456, "123.456"),
            (9007199254740993.0, "9007199254740992"),
        ] {
            assert_eq!(js_f64(f), s);
        }
    }
}
