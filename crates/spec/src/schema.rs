//! The JSON Schema (2020-12) of the GraphSpec document, generated from the model types with
//! `schemars` (`trellis schema` prints it). The two types with hand-written serde impls,
//! [`ReducerName`] and [`Predicate`], describe themselves here.
//!
//! The schema describes a document that compiles: unknown fields are allowed (consumers ignore
//! them, formats.md §1.7), missing collections default to empty, a predicate needs a string
//! `channel` and at least one operator. What a schema cannot say (unique ids, edge ends that
//! exist, declared predicate channels) is left to [`crate::validate`].

use std::borrow::Cow;

use schemars::{json_schema, JsonSchema, Schema, SchemaGenerator};

use crate::model::{GraphSpec, Predicate, ReducerName};

impl JsonSchema for ReducerName {
    fn schema_name() -> Cow<'static, str> {
        "ReducerName".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "A built-in reducer: last_write (the incoming value wins), append (list concatenation; a single value is wrapped first), merge (shallow object merge).",
            "type": "string",
            "enum": ["last_write", "append", "merge"],
            "default": "last_write"
        })
    }
}

impl JsonSchema for Predicate {
    fn schema_name() -> Cow<'static, str> {
        "Predicate".into()
    }
    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({
            "description": "A declarative guard on one channel. The first operator present in the order eq, neq, in, gt, lt, truthy decides; other keys are ignored but kept.",
            "type": "object",
            "required": ["channel"],
            "properties": {
                "channel": { "type": "string", "description": "A channel declared in `channels`." },
                "eq": { "description": "Strict equality (1 is not \"1\"; objects and arrays never match)." },
                "neq": { "description": "Strict inequality." },
                "in": { "type": "array", "description": "Matches when any element is strictly equal." },
                "gt": { "type": "number", "description": "Numbers only." },
                "lt": { "type": "number", "description": "Numbers only." },
                "truthy": { "type": "boolean", "description": "null, false, \"\", 0, [] and {} are falsy." }
            },
            "anyOf": [
                { "required": ["eq"] },
                { "required": ["neq"] },
                { "required": ["in"] },
                { "required": ["gt"] },
                { "required": ["lt"] },
                { "required": ["truthy"] }
            ]
        })
    }
}

/// The schema as a JSON value.
pub fn graph_spec_schema() -> serde_json::Value {
    let schema = schemars::schema_for!(GraphSpec);
    serde_json::to_value(&schema).unwrap_or_default()
}

/// The schema as pretty text with a final newline (what `trellis schema` prints).
pub fn graph_spec_schema_string() -> String {
    let mut s = serde_json::to_string_pretty(&graph_spec_schema()).unwrap_or_default();
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schema_describes_the_document() {
        let s = graph_spec_schema();
        assert_eq!(s["title"], "Ilmek GraphSpec");
        assert_eq!(s["$schema"], "https://json-schema.org/draft/2020-12/schema");
        let props = &s["properties"];
        for k in ["name", "channels", "nodes", "edges"] {
            assert!(props.get(k).is_some(), "{k}");
        }
        assert!(s.get("required").is_none_or(|r| r.as_array().is_some_and(|a| a.is_empty())));
        let text = graph_spec_schema_string();
        for needle in ["\"last_write\"", "\"truthy\"", "\"channel\"", "\"config\""] {
            assert!(text.contains(needle), "{needle}");
        }
    }
}
