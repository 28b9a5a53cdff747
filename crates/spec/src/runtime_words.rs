//! What a type's config schema says about its runtime, beyond JSON Schema: the annotations
//! (keywords JSON Schema validators ignore) with which a manifest describes a type exactly as
//! the runtime that publishes it defines it (docs/registry.md, "Runtime annotations").
//!
//! - `"x-runtime-refusal"` on a property: the runtime's own words when it refuses a node
//!   because of that field at build. A config error on the field carries them
//!   ([`crate::Names::runtime_message`] and the message's tail), so a user can match Trellis's
//!   finding to the runtime's error. `{value}` stands for the field's value as JSON
//!   (`undefined` when absent, as the TypeScript runtime prints it), `{config.<key>}` for another
//!   field's text.
//! - `"x-trellis-host-resolved": true` on a property: the value is a name the host resolves
//!   when it builds the graph (an MCP server, a tool, an agent, a skill). The editor cannot know
//!   the valid names: the form says so, nothing checks them.
//! - `"x-trellis-host-convention": {"prefix": ..., "note": ...}` on a host-resolved property: the
//!   form a host gives such names unless told otherwise (an MCP host exposes a server's tools as
//!   `<server>__<tool>`). A value of another form is a warning (`config/host-convention`): the
//!   host may have been told otherwise, but most often the name is the server's raw one.
//! - `"x-trellis-unknown-fields": "ignored"` on the schema: the runtime ignores keys it does
//!   not read, so another key is a warning (`config/ignored-field`), not an error.
//!
//! A channel field's `"default"` is the channel the runtime uses when the field is absent
//! (`crate::channel_refs`).

use serde_json::{Map, Value};

/// The property keyword holding the runtime's words for a refusal of that field.
pub const REFUSAL_KEYWORD: &str = "x-runtime-refusal";
/// The property keyword marking a name the host resolves at build.
pub const HOST_RESOLVED_KEYWORD: &str = "x-trellis-host-resolved";
/// The property keyword giving the form a host gives the names it resolves by default.
pub const HOST_CONVENTION_KEYWORD: &str = "x-trellis-host-convention";
/// The schema keyword saying what the runtime does with keys it does not read.
pub const UNKNOWN_FIELDS_KEYWORD: &str = "x-trellis-unknown-fields";

/// The top-level property `field` of `schema`, when there is one.
fn property<'s>(schema: &'s Value, field: &str) -> Option<&'s Value> {
    schema.get("properties")?.get(field)
}

/// The runtime's words for a refusal of `field` in `config`, placeholders filled in; `None`
/// when the schema gives none.
pub fn refusal(schema: &Value, field: &str, config: &Map<String, Value>) -> Option<String> {
    let words = property(schema, field)?.get(REFUSAL_KEYWORD)?.as_str()?;
    Some(fill(words, field, config))
}

/// `{value}` and `{config.<key>}` replaced as the TypeScript runtime prints them.
fn fill(words: &str, field: &str, config: &Map<String, Value>) -> String {
    let as_json = |v: Option<&Value>| v.map_or_else(|| "undefined".to_owned(), Value::to_string);
    let mut out = String::with_capacity(words.len());
    let mut rest = words;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        let Some(close) = after.find('}') else {
            out.push_str(&rest[open..]);
            return out;
        };
        let name = &after[..close];
        match name {
            "value" => out.push_str(&as_json(config.get(field))),
            _ => match name.strip_prefix("config.") {
                Some(key) => match config.get(key) {
                    Some(Value::String(s)) => out.push_str(s),
                    other => out.push_str(&as_json(other)),
                },
                None => out.push_str(&rest[open..=open + close + 1]),
            },
        }
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    out
}

/// The properties of `schema` with a host convention.
pub fn convention_fields(schema: &Value) -> Vec<&str> {
    schema
        .get("properties")
        .and_then(Value::as_object)
        .map(|p| {
            p.iter()
                .filter(|(_, s)| s.get(HOST_CONVENTION_KEYWORD).is_some())
                .map(|(k, _)| k.as_str())
                .collect()
        })
        .unwrap_or_default()
}

/// When `field` of `config` is a string that does not have the form its host convention
/// gives: the expected prefix and the convention's note. `None` when it has, when it is no
/// string, or when the prefix names a field `config` does not hold as a string.
pub fn off_convention(schema: &Value, field: &str, config: &Map<String, Value>) -> Option<(String, String)> {
    let convention = property(schema, field)?.get(HOST_CONVENTION_KEYWORD)?;
    let prefix = convention.get("prefix")?.as_str()?;
    let note = convention.get("note").and_then(Value::as_str).unwrap_or_default();
    // Every `{config.<key>}` must be a non-empty string, or the prefix means nothing.
    let mut rest = prefix;
    while let Some(at) = rest.find("{config.") {
        let after = &rest[at + 8..];
        let key = &after[..after.find('}')?];
        if config.get(key).and_then(Value::as_str).is_none_or(|s| s.is_empty()) {
            return None;
        }
        rest = after;
    }
    let prefix = fill(prefix, field, config);
    let value = config.get(field)?.as_str()?;
    (!value.is_empty() && !value.starts_with(&prefix)).then(|| (prefix, note.to_owned()))
}

/// True when the schema says its runtime ignores keys it does not read.
pub fn ignores_unknown_fields(schema: &Value) -> bool {
    schema.get(UNKNOWN_FIELDS_KEYWORD).and_then(Value::as_str) == Some("ignored")
}

/// The top-level property names of `schema`.
pub fn property_names(schema: &Value) -> Vec<&str> {
    schema
        .get("properties")
        .and_then(Value::as_object)
        .map(|p| p.keys().map(String::as_str).collect())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn placeholders_are_filled_as_the_runtime_prints_them() {
        let schema = json!({"properties": {"tool": {
            "x-runtime-refusal": "\"mcp_tool\" node references tool {value} on \"{config.server}\"; known: [...]"
        }}});
        let config = |v: Value| v.as_object().cloned().unwrap_or_default();
        assert_eq!(
            refusal(&schema, "tool", &config(json!({"server": "github", "tool": "search"}))).as_deref(),
            Some("\"mcp_tool\" node references tool \"search\" on \"github\"; known: [...]")
        );
        assert_eq!(
            refusal(&schema, "tool", &config(json!({"server": "github"}))).as_deref(),
            Some("\"mcp_tool\" node references tool undefined on \"github\"; known: [...]")
        );
        assert_eq!(refusal(&schema, "server", &config(json!({}))), None);
        // The host's convention for tool names.
        let schema = json!({"properties": {"tool": {"x-trellis-host-convention": {
            "prefix": "{config.server}__", "note": "tools are exposed as <server>__<tool>"
        }}}});
        let off = |v: Value| off_convention(&schema, "tool", &config(v));
        assert_eq!(
            off(json!({"server": "github", "tool": "search"})),
            Some(("github__".to_owned(), "tools are exposed as <server>__<tool>".to_owned()))
        );
        assert_eq!(off(json!({"server": "github", "tool": "github__search"})), None);
        assert_eq!(off(json!({"tool": "search"})), None, "no server, no convention to hold it to");
        assert_eq!(off(json!({"server": "github", "tool": 5})), None);
        assert_eq!(convention_fields(&schema), ["tool"]);
        // Braces that are no placeholder stay.
        assert_eq!(fill("a {b} {value", "f", &Map::new()), "a {b} {value");
    }
}
