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

use std::collections::HashMap;

use serde_json::Value;

use crate::diagnostic::{pointer, Diagnostic};
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
}

/// The top-level properties of `schema` marked as naming a channel.
pub fn channel_fields(schema: &Value) -> Vec<&str> {
    let Some(props) = schema.get("properties").and_then(Value::as_object) else { return Vec::new() };
    props
        .iter()
        .filter(|(_, s)| s.get(CHANNEL_KEYWORD).and_then(Value::as_bool) == Some(true))
        .map(|(k, _)| k.as_str())
        .collect()
}

/// True for a value that can be a channel name (not empty, not a `{{placeholder}}`).
fn is_name(s: &str) -> bool {
    !s.is_empty() && !s.contains("{{")
}

/// Every channel the configs of `spec` name, in document order.
pub fn config_channel_refs(spec: &GraphSpec, registry: &Registry) -> Vec<ChannelRef> {
    let mut fields_of: HashMap<&str, Vec<&str>> = HashMap::new();
    let mut out = Vec::new();
    for (i, n) in spec.nodes.iter().enumerate() {
        let Some(t) = n.type_name.as_deref() else { continue };
        let fields = fields_of.entry(t).or_insert_with(|| {
            registry
                .get(t)
                .and_then(|nt| nt.info.config_schema.as_ref())
                .map(channel_fields)
                .unwrap_or_default()
        });
        for field in fields.iter() {
            match n.config.get(*field) {
                Some(Value::String(s)) if is_name(s) => out.push(ChannelRef {
                    node: i,
                    field: (*field).to_owned(),
                    item: None,
                    channel: s.clone(),
                }),
                Some(Value::Array(items)) => {
                    for (k, v) in items.iter().enumerate() {
                        if let Some(s) = v.as_str().filter(|s| is_name(s)) {
                            out.push(ChannelRef {
                                node: i,
                                field: (*field).to_owned(),
                                item: Some(k),
                                channel: s.to_owned(),
                            });
                        }
                    }
                }
                _ => {}
            }
        }
    }
    out
}

/// A diagnostic (with the "declare it" fix) for each config reference to an undeclared channel.
pub fn check_config_channels(spec: &GraphSpec, registry: &Registry) -> Vec<Diagnostic> {
    config_channel_refs(spec, registry)
        .into_iter()
        .filter(|r| !spec.channels.contains_key(&r.channel))
        .map(|r| {
            let node = &spec.nodes[r.node];
            let index = r.node.to_string();
            let at = match r.item {
                Some(k) => pointer(["nodes", &index, "config", &r.field, &k.to_string()]),
                None => pointer(["nodes", &index, "config", &r.field]),
            };
            Diagnostic::error(
                codes::UNDECLARED_CHANNEL,
                format!(
                    "node \"{}\": config field \"{}\" names channel \"{}\", which this spec does not declare",
                    node.id, r.field, r.channel
                ),
            )
            .at(at)
            .on_node(&node.id)
            .naming_channel(&r.channel)
            .with_fix(crate::fixes::declare_channel(&r.channel))
        })
        .collect()
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
}
