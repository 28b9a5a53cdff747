//! The editor's words for diagnostics: the one place that maps a diagnostic code to what a user
//! of the app should read (what to click, connect or choose). The checkers' own messages stay
//! as they are, fixed by the formats they check (`trellis validate` prints them, and they speak
//! the builder API: "add .edge(START, …)"); the app shows these instead. The code, pointer,
//! span and element are kept, so a message here always points at the same place.

use trellis_spec::{Diagnostic, Element};

/// The diagnostic with its message in the editor's words, when the code has them.
pub fn for_editor(mut d: Diagnostic) -> Diagnostic {
    if let Some(m) = editor_message(&d) {
        d.message = m;
    }
    d
}

/// The editor wording for `d`, or `None` to keep the checker's message. Every name comes from
/// the diagnostic's data (its element and [`trellis_spec::Names`]), never from the message's
/// text: the checkers may reword their messages freely.
pub fn editor_message(d: &Diagnostic) -> Option<String> {
    let node = match &d.element {
        Some(Element::Node { id }) => Some(id.as_str()),
        _ => None,
    };
    let channel = d.names.channel.as_deref();
    let msg = match d.code.as_str() {
        "spec/no-entry-edge" => "Nothing starts this graph: connect the Start node to the first node to run (drag from \
             Start's handle, or focus Start and press C)."
            .to_owned(),
        "spec/unknown-type" => format!(
            "Node \u{201c}{}\u{201d} has the type \u{201c}{}\u{201d}, which no registry describes: choose a known type in \
             the inspector, or add the type to a project registry.",
            node?,
            d.names.node_type.as_deref()?
        ),
        "spec/missing-type" => {
            format!("Node \u{201c}{}\u{201d} has no type: choose one in the inspector.", node?)
        }
        "spec/duplicate-node" => {
            format!("Two nodes are named \u{201c}{}\u{201d}: rename one of them in the inspector.", node?)
        }
        "spec/reserved-node-id" => format!(
            "\u{201c}{}\u{201d} is the name of the built-in Start or End node: rename this node in the inspector.",
            node?
        ),
        "spec/unknown-edge-source" => match &d.element {
            Some(Element::Edge { from, .. }) => format!(
                "This edge starts at \u{201c}{from}\u{201d}, which is not a node: delete the edge (select it and press \
                 Delete), or add a node named \u{201c}{from}\u{201d}."
            ),
            _ => return None,
        },
        "spec/unknown-edge-target" => match &d.element {
            Some(Element::Edge { to, .. }) => format!(
                "This edge goes to \u{201c}{to}\u{201d}, which is not a node: delete the edge (select it and press \
                 Delete), or add a node named \u{201c}{to}\u{201d}."
            ),
            _ => return None,
        },
        // A condition on an edge, or a node's config field that names a channel.
        "spec/undeclared-channel" => match &d.element {
            Some(Element::Edge { .. }) => format!(
                "The condition reads the channel \u{201c}{}\u{201d}, which this graph does not declare: add it under \
                 Channels in the graph inspector (click the empty canvas), or pick a declared channel in the condition.",
                channel?
            ),
            Some(Element::Node { id }) => format!(
                "Node \u{201c}{id}\u{201d}'s config names the channel \u{201c}{}\u{201d}, which this graph does not \
                 declare: add it under Channels in the graph inspector (click the empty canvas), or name a declared \
                 channel in the node's config.",
                channel?
            ),
            _ => return None,
        },
        // A config field that names a channel (`x-trellis-channel`), or leaves out one whose
        // default channel is undeclared: the same problem as a condition's, the same way out.
        "config/undeclared-channel" => format!(
            "Node \u{201c}{}\u{201d}'s config field \u{201c}{}\u{201d} names the channel \u{201c}{}\u{201d}, which this graph \
             does not declare: declare it (the button, or Channels in the graph inspector: click the empty canvas), or \
             name a declared channel in the field.",
            node?,
            config_field(&d.pointer)?,
            channel?
        ),
        // A field a runtime refuses the node without: the editor's words, then the runtime's own.
        "config/missing-field" => {
            let field = config_field(&d.pointer)?;
            let runtime = d.names.runtime_message.as_deref()?;
            format!(
                "Node \u{201c}{}\u{201d} needs its \u{201c}{field}\u{201d} field: fill it in the config form. Without it the \
                 runtime refuses the node when it builds the graph: {runtime}",
                node?
            )
        }
        "spec/malformed-predicate" | "spec/no-operator" => "This edge's condition is incomplete: select the edge and \
             choose a channel and an operator in the inspector."
            .to_owned(),
        "spec/unknown-reducer" => match &d.element {
            Some(Element::Channel { name }) => format!(
                "Channel \u{201c}{name}\u{201d} has a reducer Trellis does not know: choose last write, append or merge \
                 for it in the graph inspector."
            ),
            _ => return None,
        },
        _ => return None,
    };
    Some(msg)
}

/// The top-level config field a pointer names (`/nodes/3/config/to` -> `to`).
fn config_field(pointer: &str) -> Option<String> {
    let segments = trellis_spec::diagnostic::pointer_segments(pointer);
    match segments.as_slice() {
        [nodes, _, config, field, ..] if nodes == "nodes" && config == "config" => Some(field.clone()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use trellis_spec::checks::codes;

    #[test]
    fn the_entry_edge_message_says_what_to_connect_not_which_api_to_call() {
        let d = Diagnostic::error(
            codes::NO_ENTRY_EDGE,
            "graph has no entry edge — add .edge(START, \"someNode\")",
        );
        let shown = for_editor(d.clone());
        assert_eq!(shown.code, d.code, "the code stays: the CLI and the app share it");
        assert!(!shown.message.contains(".edge("), "{}", shown.message);
        assert!(shown.message.contains("connect the Start node"), "{}", shown.message);
    }

    #[test]
    fn names_come_from_the_diagnostics_data_not_its_message() {
        // The messages here name nothing: rewording a checker's message cannot change the app's.
        let d = Diagnostic::error(codes::UNKNOWN_TYPE, "reworded").on_node("planner").naming_type("plan_v2");
        let m = editor_message(&d).expect("worded");
        assert!(m.contains("\u{201c}planner\u{201d}") && m.contains("\u{201c}plan_v2\u{201d}"), "{m}");
        let e = Diagnostic::error(codes::UNKNOWN_EDGE_TARGET, "reworded").on_edge(3, "a", "ghost");
        assert!(editor_message(&e).expect("worded").contains("goes to \u{201c}ghost\u{201d}"));
        let c = Diagnostic::error(codes::UNDECLARED_CHANNEL, "reworded")
            .on_edge(0, "a", "b")
            .naming_channel("cart");
        assert!(editor_message(&c).expect("worded").contains("reads the channel \u{201c}cart\u{201d}"));
        let r = Diagnostic::error(codes::UNKNOWN_REDUCER, "reworded").on_channel("log");
        assert!(editor_message(&r).expect("worded").contains("Channel \u{201c}log\u{201d}"));
    }

    #[test]
    fn the_checkers_own_diagnostics_are_worded_with_the_right_names() {
        // From the real checker: a node's config naming an undeclared channel is about the
        // channel, not about the node named first in the message.
        let spec: trellis_spec::GraphSpec = serde_json::from_value(serde_json::json!({
            "nodes": [{"id": "planner", "type": "plan_v2", "config": {}}, {"id": "pick", "type": "noop", "config": {}}],
            "channels": {},
            "edges": [{"from": "__start__", "to": "planner"},
                      {"from": "planner", "to": "pick", "when": {"channel": "cart", "eq": 1}}],
        }))
        .expect("spec");
        let registry = trellis_spec::Registry::new();
        let found = trellis_spec::validate(&spec, Some(&registry));
        let worded = |code: &str| {
            let d = found.iter().find(|d| d.code == code).unwrap_or_else(|| panic!("{code} in {found:?}"));
            editor_message(d).unwrap_or_else(|| panic!("{code} worded"))
        };
        let t = worded(codes::UNKNOWN_TYPE);
        assert!(t.contains("\u{201c}planner\u{201d}") && t.contains("\u{201c}plan_v2\u{201d}"), "{t}");
        assert!(worded(codes::UNDECLARED_CHANNEL).contains("\u{201c}cart\u{201d}"));
    }

    #[test]
    fn a_runtime_published_type_is_worded_with_the_runtimes_own_words() {
        // From the real checker, on the runtime's own test document (a skill without its name).
        // Read as the app reads it: the runtime's channels may leave the reducer out.
        let text = serde_json::json!({
            "channels": {"instructions": {}},
            "nodes": [{"id": "brief", "type": "skill", "config": {}},
                      {"id": "pick", "type": "mcp_tool", "config": {"server": "gh", "tool": "gh__x", "to": "found"}}],
            "edges": [{"from": "__start__", "to": "brief"}, {"from": "brief", "to": "pick"}],
        })
        .to_string();
        let spec = trellis_spec::parse_spec(&text).spec.expect("spec");
        let found = trellis_spec::validate(&spec, Some(&trellis_spec::builtin::default_registry()));
        let worded = |code: &str| {
            let d = found.iter().find(|d| d.code == code).unwrap_or_else(|| panic!("{code} in {found:?}"));
            editor_message(d).unwrap_or_else(|| panic!("{code} worded"))
        };
        let missing = worded("config/missing-field");
        assert!(missing.contains("\u{201c}skill\u{201d} field"), "{missing}");
        assert!(missing.ends_with("a \"skill\" node needs config.skill: the skill's name"), "{missing}");
        let channel = worded("config/undeclared-channel");
        assert!(
            channel.contains("field \u{201c}to\u{201d} names the channel \u{201c}found\u{201d}"),
            "{channel}"
        );
    }

    #[test]
    fn other_codes_keep_the_checkers_message() {
        let d = Diagnostic::warning("config/unknown-field", "node \"a\": unknown field");
        assert_eq!(for_editor(d.clone()).message, d.message);
        // Without the names it needs, a diagnostic keeps its own words rather than half a sentence.
        let bare = Diagnostic::error(codes::UNKNOWN_TYPE, "node \"a\" has type \"b\"");
        assert_eq!(editor_message(&bare), None);
    }
}
