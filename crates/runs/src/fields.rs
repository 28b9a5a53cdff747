//! Reading fields of JSON records leniently: a field under its camelCase or PascalCase name
//! (Ilmek's TypeScript and .NET spellings), numbers that arrive as strings (LangSmith's
//! decimals, OTLP's integers), errors in whatever shape the runtime serialised them.

use serde_json::{Map, Value};

use crate::model::{StepError, Tokens};

/// `obj[name]`, or the same name with its first letter upper-cased (`runId` / `RunId`).
pub fn get<'a>(obj: &'a Map<String, Value>, name: &str) -> Option<&'a Value> {
    obj.get(name).or_else(|| {
        let mut chars = name.chars();
        let first = chars.next()?;
        let pascal: String = first.to_uppercase().chain(chars).collect();
        obj.get(&pascal)
    })
}

/// The first of `names` that is present and not null.
pub fn first<'a>(obj: &'a Map<String, Value>, names: &[&str]) -> Option<&'a Value> {
    names.iter().find_map(|n| get(obj, n).filter(|v| !v.is_null()))
}

/// A string field (a number is written as its text, as ids sometimes are).
pub fn string(obj: &Map<String, Value>, name: &str) -> Option<String> {
    text_of(get(obj, name)?)
}

pub fn text_of(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// A whole number, from a number or a decimal string.
pub fn uint(v: &Value) -> Option<u64> {
    match v {
        Value::Number(n) => {
            n.as_u64().or_else(|| n.as_f64().filter(|f| *f >= 0.0 && f.fract() == 0.0).map(|f| f as u64))
        }
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

/// A number, from a number or a decimal string (LangSmith writes costs as decimals).
pub fn number(v: &Value) -> Option<f64> {
    let n = match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    };
    n.filter(|f: &f64| f.is_finite())
}

/// An error as a runtime wrote it: a string, `{name, message}` (the run log's normal form),
/// `{type, message}`, .NET's `{Message, ...}`, or `{}` (`JSON.stringify` of a JavaScript
/// `Error`, which keeps nothing).
pub fn error_of(v: &Value) -> StepError {
    match v {
        Value::String(s) => StepError { kind: None, message: s.clone() },
        Value::Object(o) => {
            let message = first(o, &["message", "error", "detail"]).and_then(text_of);
            let kind = first(o, &["name", "type", "code", "errorType", "className"]).and_then(text_of);
            match (message, o.is_empty()) {
                (Some(message), _) => StepError { kind, message },
                (None, true) => StepError {
                    kind,
                    message: "the error was recorded as {} (a JavaScript Error serialised with JSON.stringify keeps nothing)".into(),
                },
                (None, false) => StepError { kind, message: compact(v) },
            }
        }
        Value::Null => StepError { kind: None, message: "no error detail was recorded".into() },
        other => StepError { kind: None, message: compact(other) },
    }
}

/// Compact JSON text of a value.
pub fn compact(v: &Value) -> String {
    serde_json::to_string(v).unwrap_or_default()
}

/// Token counts from an object with usage keys, under the spellings the sources use:
/// `input_tokens`/`prompt_tokens`, `output_tokens`/`completion_tokens`, `total_tokens`, with
/// or without a prefix (`gen_ai.usage.`).
pub fn tokens_in(obj: &Map<String, Value>, prefix: &str) -> Option<Tokens> {
    let pick = |names: &[&str]| names.iter().find_map(|n| obj.get(&format!("{prefix}{n}")).and_then(uint));
    let t = Tokens {
        input: pick(&["input_tokens", "prompt_tokens", "inputTokens", "promptTokens"]),
        output: pick(&["output_tokens", "completion_tokens", "outputTokens", "completionTokens"]),
        total: pick(&["total_tokens", "totalTokens"]),
        cached: pick(&["cache_read.input_tokens", "prompt_cached_tokens", "cached_tokens"]),
        reasoning: pick(&["reasoning.output_tokens", "reasoning_tokens"]),
    };
    (!t.is_empty()).then_some(t)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn pascal_case_is_found() {
        let o = json!({"RunId": "r", "seq": 3});
        let o = o.as_object().unwrap();
        assert_eq!(string(o, "runId").as_deref(), Some("r"));
        assert_eq!(get(o, "seq").and_then(uint), Some(3));
    }

    #[test]
    fn errors_in_every_shape() {
        assert_eq!(error_of(&json!("boom")).message, "boom");
        let e = error_of(&json!({"name": "TimeoutError", "message": "slow"}));
        assert_eq!((e.kind.as_deref(), e.message.as_str()), (Some("TimeoutError"), "slow"));
        assert!(error_of(&json!({})).message.contains("keeps nothing"));
        assert_eq!(error_of(&json!({"Message": "dotnet"})).message, "dotnet");
    }

    #[test]
    fn usage_under_a_prefix() {
        let o = json!({"gen_ai.usage.input_tokens": 10, "gen_ai.usage.output_tokens": "4"});
        let t = tokens_in(o.as_object().unwrap(), "gen_ai.usage.").unwrap();
        assert_eq!((t.input, t.output, t.sum()), (Some(10), Some(4), 14));
    }
}
