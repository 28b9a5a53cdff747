//! Channel edits and the config fields that name channels (`x-trellis-channel` in a type's
//! schema, see `trellis_spec::channel_refs`): a rename rewrites them in the same undo step, a
//! removal is refused while any names the channel. A field left out names its schema's default
//! channel (`implied`): a rename writes the new name into it.

use serde_json::Value;
use trellis_spec::channel_refs::config_channel_refs;
use trellis_spec::{Diagnostic, GraphSpec, Registry};

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
