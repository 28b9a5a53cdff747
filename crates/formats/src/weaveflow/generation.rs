//! Which generation of the Graph Definition a document is, told per document from its own
//! keys (formats.md §2.1, §5.4), never from one setting for every file. Two generations both
//! call themselves "1.0":
//!
//! | generation | `version` | state | runtime |
//! |---|---|---|---|
//! | early | "1.0" (or none) | a `state_schema` string | `dsl/dsl.go@418b417` |
//! | 2.0 | "2.0" | `state_modules` | `dsl/dsl.go@807985d`…`0ad04ab` |
//! | current | "1.0" | `state_modules` | `dsl/dsl.go@9ae3512` |
//!
//! `state_modules` against `state_schema` tells the two "1.0" apart. The current runtime
//! refuses the other two; the checks say why in their messages.

use serde_json::Value;

/// A generation of the Graph Definition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Generation {
    /// `version` "1.0" with `state_modules`: what the current runtime reads.
    Current,
    /// `version` "2.0" with `state_modules`: the runtime between 807985d and 0ad04ab.
    TwoZero,
    /// A `state_schema` string and no `state_modules`: the first "1.0" (418b417).
    EarlyStateSchema,
}

impl Generation {
    /// The generation of a definition, from its raw value.
    pub fn of(definition: &Value) -> Generation {
        let has = |k: &str| definition.get(k).is_some_and(|v| !v.is_null());
        if has("state_schema") && !has("state_modules") {
            return Generation::EarlyStateSchema;
        }
        match definition.get("version").and_then(Value::as_str).map(str::trim) {
            Some("2.0") => Generation::TwoZero,
            _ => Generation::Current,
        }
    }

    /// How the generation is named in messages and in the app.
    pub fn describe(self) -> &'static str {
        match self {
            Generation::Current => "the current \"1.0\" generation (state_modules; dsl/dsl.go@9ae3512)",
            Generation::TwoZero => "the \"2.0\" generation (state_modules; Weaveflow 807985d to 0ad04ab)",
            Generation::EarlyStateSchema => {
                "the early \"1.0\" generation (a state_schema, before state modules; dsl/dsl.go@418b417)"
            }
        }
    }
}

/// Why the current runtime refuses the early generation's `state_schema` (after Go's own
/// words for the unknown field).
pub const EARLY_STATE_SCHEMA: &str = "json: unknown field \"state_schema\": this definition is of the early \"1.0\" \
     generation (a state_schema, before state modules; dsl/dsl.go@418b417), which the current runtime no longer \
     reads although it calls itself \"1.0\" too; declare the state in \"state_modules\" instead \
     (for example {\"name\": \"weaveflow.protocols\", \"version\": \"1\"})";

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_two_one_zeros_are_told_apart_by_their_state() {
        let of = |v: Value| Generation::of(&v);
        assert_eq!(of(json!({"version": "1.0", "state_modules": []})), Generation::Current);
        assert_eq!(
            of(json!({"version": "1.0", "state_schema": "weaveflow.state.v2"})),
            Generation::EarlyStateSchema
        );
        assert_eq!(of(json!({"state_schema": "weaveflow.state.v2"})), Generation::EarlyStateSchema);
        assert_eq!(of(json!({"version": " 2.0 ", "state_modules": []})), Generation::TwoZero);
        // Both keys: the state modules decide (the current runtime reads them).
        assert_eq!(
            of(json!({"version": "1.0", "state_schema": "x", "state_modules": []})),
            Generation::Current
        );
    }
}
