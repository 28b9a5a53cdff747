//! The fixes the checkers offer (see [`crate::diagnostic::Fix`]): one constructor per kind of
//! way out, so the wording of buttons and hints is the same in every format and in the CLI.

use crate::diagnostic::{Fix, FixEdit};
use crate::suggest::closest;

/// Registries larger than this are not searched for a "did you mean" type: a generated
/// registry of 50,000 types would make every unknown node cost a scan.
const MAX_SUGGESTION_SCAN: usize = 5_000;

/// Describe `type_name` in the project registry beside the document.
pub fn describe_type(type_name: &str) -> Fix {
    Fix::new(
        format!(
            "Describe type \"{type_name}\" in a project registry (config schema inferred from this document)"
        ),
        FixEdit::DescribeTypes { types: vec![type_name.to_owned()] },
    )
}

/// Describe the built-in type `type_name` in the project registry beside the document, as the
/// document's configs use it: the project's type then replaces the built-in one.
pub fn describe_builtin_type(type_name: &str) -> Fix {
    Fix::new(
        format!(
            "Describe type \"{type_name}\" in a project registry as this document uses it (replaces the built-in type)"
        ),
        FixEdit::DescribeTypes { types: vec![type_name.to_owned()] },
    )
}

/// The fixes of a node whose type no registry describes: describe it, and change the type to
/// a known one when one is close ("did you mean").
pub fn unknown_type(node: &str, type_name: &str, known: &[&str]) -> Vec<Fix> {
    let mut fixes = vec![describe_type(type_name)];
    if known.len() <= MAX_SUGGESTION_SCAN {
        if let Some(near) = closest(type_name, known.iter().copied()) {
            fixes.push(set_node_type(node, near));
        }
    }
    fixes
}

/// Change the type of `node` to `type_name`.
pub fn set_node_type(node: &str, type_name: &str) -> Fix {
    Fix::new(
        format!("Change the type to \"{type_name}\" (did you mean it?)"),
        FixEdit::SetNodeType { node: node.to_owned(), type_name: type_name.to_owned() },
    )
}

/// Change the type of `node` to `type_name`, the new name of the type it has.
pub fn rename_type(node: &str, type_name: &str) -> Fix {
    Fix::new(
        format!("Change the type to \"{type_name}\" (its replacement)"),
        FixEdit::SetNodeType { node: node.to_owned(), type_name: type_name.to_owned() },
    )
}

/// Set the document's `version` to `version` (`why` ends the button's sentence).
pub fn set_version(version: &str, why: &str) -> Fix {
    Fix::new(
        format!("Set version to \"{version}\" ({why})"),
        FixEdit::SetVersion { version: version.to_owned() },
    )
}

/// Declare channel `name` with the `last_write` reducer.
pub fn declare_channel(name: &str) -> Fix {
    Fix::new(
        format!("Declare channel \"{name}\" (last_write)"),
        FixEdit::DeclareChannel { name: name.to_owned() },
    )
}

/// Rename config field `from` of `node` to `to`.
pub fn rename_config_field(node: &str, from: &str, to: &str) -> Fix {
    Fix::new(
        format!("Rename field \"{from}\" to \"{to}\""),
        FixEdit::RenameConfigField { node: node.to_owned(), from: from.to_owned(), to: to.to_owned() },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_close_type_is_suggested_and_a_far_one_is_not() {
        let known = ["llm", "http", "noop"];
        let fixes = unknown_type("a", "lm", &known);
        assert_eq!(fixes.len(), 2);
        assert_eq!(fixes[1].edit, FixEdit::SetNodeType { node: "a".into(), type_name: "llm".into() });
        let fixes = unknown_type("a", "web_search", &known);
        assert_eq!(fixes.len(), 1);
        assert_eq!(fixes[0].edit, FixEdit::DescribeTypes { types: vec!["web_search".into()] });
    }

    #[test]
    fn huge_registries_are_not_scanned() {
        let names: Vec<String> = (0..50_000).map(|i| format!("t{i}")).collect();
        let names: Vec<&str> = names.iter().map(String::as_str).collect();
        let fixes = unknown_type("a", "t1x", &names);
        assert_eq!(fixes.len(), 1);
    }
}
