//! Channel edits and the config fields that name channels (`x-trellis-channel` in a type's
//! schema, see `trellis_spec::channel_refs`): a rename rewrites them in the same undo step, a
//! removal is refused while any names the channel, and a node added with a config that names
//! channels the document does not declare declares them in the same step. A field left out
//! names its schema's default channel (`implied`): a rename writes the new name into it.

use serde_json::Value;
use trellis_spec::channel_refs::config_channel_refs;
use trellis_spec::{ChannelSpec, Diagnostic, GraphSpec, NodeSpec, ReducerName, Registry};

use crate::history::Prim;
use crate::refusal::codes;

/// One `Prim::Node` per node whose config names `from`, rewritten to name `to`.
pub(crate) fn renamed(spec: &GraphSpec, registry: &Registry, from: &str, to: &str) -> Vec<Prim> {
    let mut prims: Vec<Prim> = Vec::new();
    let mut last: Option<usize> = None;
    for r in config_channel_refs(spec, registry).into_iter().filter(|r| r.channel == from) {
        if last != Some(r.node) {
            let before = spec.nodes[r.node].clone();
            prims.push(Prim::Node { index: r.node, before: Some(before.clone()), after: Some(before) });
            last = Some(r.node);
        }
        let Some(Prim::Node { after: Some(node), .. }) = prims.last_mut() else { continue };
        let slot = match r.item {
            Some(k) => node.config.get_mut(&r.field).and_then(|v| v.get_mut(k)),
            None => node.config.get_mut(&r.field),
        };
        match slot {
            Some(v) => *v = Value::String(to.to_owned()),
            // The field was absent and named its default channel: the node keeps writing to
            // the renamed channel only if the field now says so.
            None if r.implied => {
                node.config.insert(r.field.clone(), Value::String(to.to_owned()));
            }
            None => {}
        }
    }
    prims
}

/// Refuses removing `name` while configs name it (the message names the nodes and fields).
pub(crate) fn refuse_removal(spec: &GraphSpec, registry: &Registry, name: &str) -> Result<(), Diagnostic> {
    let users: Vec<String> = config_channel_refs(spec, registry)
        .into_iter()
        .filter(|r| r.channel == name)
        .map(|r| {
            let by_default = if r.implied { ", by default" } else { "" };
            format!("\"{}\" ({}{by_default})", spec.nodes[r.node].id, r.field)
        })
        .collect();
    if users.is_empty() {
        return Ok(());
    }
    let shown = if users.len() > 8 {
        format!("{}, and {} more", users[..8].join(", "), users.len() - 8)
    } else {
        users.join(", ")
    };
    Err(Diagnostic::error(
        codes::CHANNEL_IN_USE,
        format!(
            "channel \"{name}\" is named in the config of node{} {shown}; change those fields first",
            if users.len() == 1 { "" } else { "s" }
        ),
    )
    .on_channel(name))
}

/// For a node about to be added: the channels its config names that `spec` does not declare,
/// declared with the default reducer (`last_write`) as one `Prim::Channels`, and the info
/// saying so. `None` when it names none that is missing.
pub(crate) fn declared_for_new(
    spec: &GraphSpec,
    registry: &Registry,
    node: &NodeSpec,
) -> Option<(Prim, Diagnostic)> {
    let alone = GraphSpec { nodes: vec![node.clone()], ..GraphSpec::default() };
    let mut channels = spec.channels.clone();
    let mut named = Vec::new();
    for r in config_channel_refs(&alone, registry) {
        if !channels.contains_key(&r.channel) {
            named.push(format!("\"{}\" (named by {})", r.channel, r.field));
            channels.insert(r.channel, ChannelSpec { reducer: ReducerName::LastWrite });
        }
    }
    if named.is_empty() {
        return None;
    }
    let notice = Diagnostic::info(
        codes::DECLARED_CHANNELS,
        format!(
            "declared channel{} {} for the new node \"{}\" (last_write; its reducer is set in the channel table)",
            if named.len() == 1 { "" } else { "s" },
            named.join(", "),
            node.id
        ),
    )
    .on_node(node.id.as_str());
    Some((Prim::Channels { before: spec.channels.clone(), after: channels }, notice))
}
