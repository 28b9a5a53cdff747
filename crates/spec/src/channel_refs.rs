//! Config fields that name channels.
//!
//! A type's `config_schema` marks a top-level property as naming a channel with the keyword
//! `"x-trellis-channel": true` (an annotation: JSON Schema validators ignore it). The value of
//! such a field is a channel name, or, for an array, a list of channel names. Then:
//!
//! - a config naming a channel the document does not declare is an error
//!   (`config/undeclared-channel`) with the "declare it" fix;
//! - the channel table counts these references as uses; renaming a channel rewrites them,
//!   and removing a channel they name is refused (`crates/doc`).
//!
//! Empty strings and `{{...}}` placeholders are not channel names and are skipped.
//!
//! A channel field whose schema gives a string `"default"` names that channel when the field
//! is absent: the runtime writes there (an Ilmek `mcp_tool` without `to` writes to `result`).
//! Such a reference is `implied`: it counts as a use, is checked, and a rename writes the new
//! name into the field.

use std::collections::HashMap;
use std::fmt;

use serde::de::{Deserializer, IgnoredAny, MapAccess, Visitor};
use serde_json::Value;

use crate::diagnostic::{pointer, Diagnostic};
use crate::json::Key;
use crate::model::GraphSpec;
use crate::registry::Registry;

/// The schema keyword that marks a config field as naming a channel.
pub const CHANNEL_KEYWORD: &str = "x-trellis-channel";

/// Codes of channel references.
pub mod codes {
    /// A config field marked as naming a channel names one the document does not declare.
    pub const UNDECLARED_CHANNEL: &str = "config/undeclared-channel";
}

/// One channel named by a node's config.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChannelRef {
    /// The node's index in `spec.nodes`.
    pub node: usize,
    /// The top-level config field.
    pub field: String,
    /// The element index when the field holds a list of channels.
    pub item: Option<usize>,
    pub channel: String,
    /// The field is absent and the channel is its schema's default (what the runtime uses).
    pub implied: bool,
}

/// The top-level properties of `schema` marked as naming a channel.
pub fn channel_fields(schema: &Value) -> Vec<&str> {
    channel_fields_with_defaults(schema).into_iter().map(|(k, _)| k).collect()
}

/// The top-level properties of `schema` marked as naming a channel, each with the channel its
/// `"default"` names (when it is a channel name).
pub fn channel_fields_with_defaults(schema: &Value) -> Vec<(&str, Option<&str>)> {
    let Some(props) = schema.get("properties").and_then(Value::as_object) else { return Vec::new() };
    props
        .iter()
        .filter(|(_, s)| s.get(CHANNEL_KEYWORD).and_then(Value::as_bool) == Some(true))
        .map(|(k, s)| (k.as_str(), s.get("default").and_then(Value::as_str).filter(|d| is_name(d))))
        .collect()
}

/// True for a value that can be a channel name (not empty, not a `{{placeholder}}`).
fn is_name(s: &str) -> bool {
    !s.is_empty() && !s.contains("{{")
}

/// Every channel the configs of `spec` name, in document order.
pub fn config_channel_refs(spec: &GraphSpec, registry: &Registry) -> Vec<ChannelRef> {
    let mut out = Vec::new();
    each_ref(spec, registry, |node, field, item, channel, implied| {
        out.push(ChannelRef { node, field: field.to_owned(), item, channel: channel.to_owned(), implied });
    });
    out
}

/// Calls `found(node, field, item, channel, implied)` for every channel the configs of `spec`
/// name, in document order (an absent field with a default names the default, `implied`). A
/// config still held as its text is read on the text: building every config's value to read one
/// or two of its fields would be most of the work.
fn each_ref(
    spec: &GraphSpec,
    registry: &Registry,
    mut found: impl FnMut(usize, &str, Option<usize>, &str, bool),
) {
    type Fields<'r> = (Vec<&'r str>, Vec<Option<&'r str>>);
    let mut fields_of: HashMap<&str, Fields<'_>, crate::id::IdHasher> = HashMap::default();
    for (i, n) in spec.nodes.iter().enumerate() {
        let Some(t) = n.type_name.as_deref() else { continue };
        let (names, defaults) = fields_of.entry(t).or_insert_with(|| {
            registry
                .get(t)
                .and_then(|nt| nt.info.config_schema.as_ref())
                .map(channel_fields_with_defaults)
                .unwrap_or_default()
                .into_iter()
                .unzip()
        });
        if names.is_empty() {
            continue;
        }
        let values: Vec<Option<Value>> = match n.config.raw_text() {
            Some(raw) => field_values(raw, names),
            None => names.iter().map(|f| n.config.get(*f).cloned()).collect(),
        };
        for ((field, default), value) in names.iter().zip(defaults.iter()).zip(values) {
            match value {
                Some(Value::String(s)) if is_name(&s) => found(i, field, None, &s, false),
                Some(Value::Array(items)) => {
                    for (k, item) in items.iter().enumerate() {
                        if let Some(s) = item.as_str().filter(|s| is_name(s)) {
                            found(i, field, Some(k), s, false);
                        }
                    }
                }
                None => {
                    if let Some(d) = default {
                        found(i, field, None, d, true);
                    }
                }
                _ => {}
            }
        }
    }
}

/// The values of the members `fields` of the object text `raw` (checked when read), the other
/// members skipped.
fn field_values(raw: &str, fields: &[&str]) -> Vec<Option<Value>> {
    struct Wanted<'f>(&'f [&'f str]);
    impl<'de> Visitor<'de> for Wanted<'_> {
        type Value = Vec<Option<Value>>;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("an object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut values = vec![None; self.0.len()];
            while let Some(Key(key)) = map.next_key::<Key>()? {
                match self.0.iter().position(|f| *f == key) {
                    Some(at) => values[at] = Some(map.next_value::<Value>()?),
                    None => {
                        map.next_value::<IgnoredAny>()?;
                    }
                }
            }
            Ok(values)
        }
    }
    let mut de = serde_json::Deserializer::from_str(raw);
    de.deserialize_map(Wanted(fields)).unwrap_or_else(|_| vec![None; fields.len()])
}

/// A diagnostic (with the "declare it" fix) for each config reference to an undeclared channel.
pub fn check_config_channels(spec: &GraphSpec, registry: &Registry) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    each_ref(spec, registry, |node_index, field, item, channel, implied| {
        if spec.channels.contains_key(channel) {
            return;
        }
        let node = &spec.nodes[node_index];
        let index = node_index.to_string();
        let at = match item {
            Some(k) => pointer(["nodes", &index, "config", field, &k.to_string()]),
            None => pointer(["nodes", &index, "config", field]),
        };
        let names = if implied {
            format!(
                "config field \"{field}\" is absent, so the node uses its default channel \"{channel}\", which this spec does not declare"
            )
        } else {
            format!("config field \"{field}\" names channel \"{channel}\", which this spec does not declare")
        };
        out.push(
            Diagnostic::error(codes::UNDECLARED_CHANNEL, format!("node \"{}\": {names}", node.id))
                .at(at)
                .on_node(&node.id)
                .naming_channel(channel)
                .with_fix(crate::fixes::declare_channel(channel)),
        );
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::parse_spec;

    #[test]
    fn marked_fields_name_channels_and_undeclared_ones_are_errors() {
        let registry = crate::builtin::default_registry();
        let spec = parse_spec(
            r#"{"channels": {"messages": {"reducer": "append"}},
                "nodes": [
                  {"id": "a", "type": "llm", "config": {"messages_channel": "messages", "output_channel": "answer"}},
                  {"id": "h", "type": "human_approval", "config": {"prompt": "ok?", "decision_channel": "messages", "show_channels": ["messages", "draft", "{{x}}"]}}
                ],
                "edges": [{"from": "__start__", "to": "a"}]}"#,
        )
        .spec
        .expect("reads");
        let refs = config_channel_refs(&spec, &registry);
        let named: Vec<&str> = refs.iter().map(|r| r.channel.as_str()).collect();
        assert_eq!(named, ["messages", "answer", "messages", "draft", "messages"]);
        let ds = check_config_channels(&spec, &registry);
        let at: Vec<&str> = ds.iter().map(|d| d.pointer.as_str()).collect();
        assert_eq!(at, ["/nodes/0/config/output_channel", "/nodes/1/config/show_channels/1"]);
        assert_eq!(ds[0].fixes[0].edit, crate::FixEdit::DeclareChannel { name: "answer".into() });
    }

    /// A config read from text is read on its text; the same config changed (held as a value)
    /// names the same channels.
    #[test]
    fn text_and_value_name_the_same_channels() {
        let registry = crate::builtin::default_registry();
        let text = r#"{"channels": {"messages": {}},
            "nodes": [
              {"id": "a", "type": "llm", "config": {"output_channel": "mes\u0073ages", "messages_channel": ""}},
              {"id": "b", "type": "llm", "config": {"model": "m", "output_channel": "{{x}}"}},
              {"id": "h", "type": "human_approval", "config": {"show_channels": [1, "a\"b", null, "messages", ["x"], "c"], "decision_channel": 5}},
              {"id": "r", "type": "retrieval", "config": {"query_channel": "q", "results_channel": "messages"}}
            ],
            "edges": []}"#;
        let spec = crate::read::parse_spec(text).spec.expect("reads");
        assert!(spec.nodes.iter().all(|n| n.config.raw_text().is_some()));
        let on_text = config_channel_refs(&spec, &registry);
        let named: Vec<(usize, &str, Option<usize>)> =
            on_text.iter().map(|r| (r.node, r.channel.as_str(), r.item)).collect();
        assert_eq!(
            named,
            [
                (0, "messages", None),
                (2, "a\"b", Some(1)),
                (2, "messages", Some(3)),
                (2, "c", Some(5)),
                (3, "q", None)
            ]
        );
        let mut changed = spec.clone();
        for n in &mut changed.nodes {
            n.config.insert("zz".into(), Value::Null);
        }
        assert!(changed.nodes.iter().all(|n| n.config.raw_text().is_none()));
        assert_eq!(config_channel_refs(&changed, &registry), on_text);
        assert_eq!(check_config_channels(&changed, &registry), check_config_channels(&spec, &registry));
        assert_eq!(check_config_channels(&spec, &registry).len(), 3);
    }
}
