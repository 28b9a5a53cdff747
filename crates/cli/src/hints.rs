//! Fixes ([`trellis_spec::Fix`]) as command-line hints: the app shows a fix as a button, the
//! command line says what the button would do, and for describing types, which command does it.

use trellis_spec::{Diagnostic, Fix, FixEdit};

/// The hint line for `fix` of the finding `d` in the file shown as `path`.
pub fn hint(path: &str, d: &Diagnostic, fix: &Fix) -> String {
    match &fix.edit {
        FixEdit::DescribeTypes { types } => format!(
            "{}: trellis registry infer {}{} -o {}",
            fix.title,
            shell_word(path),
            // `registry infer` describes the unknown types by itself; a type a registry
            // describes already (a built-in type used otherwise) only when named.
            if is_unknown_type(&d.code) {
                String::new()
            } else {
                types.iter().map(|t| format!(" --type {}", shell_word(t))).collect()
            },
            shell_word(&beside(path, crate::project_registry::PROJECT_REGISTRY))
        ),
        _ => fix.title.clone(),
    }
}

/// A finding of a node type no registry describes.
fn is_unknown_type(code: &str) -> bool {
    code == trellis_spec::checks::codes::UNKNOWN_TYPE
        || code == trellis_formats::weaveflow::codes::UNKNOWN_NODE_TYPE
}

/// `name` in the folder of `path` (as the user wrote it).
fn beside(path: &str, name: &str) -> String {
    match std::path::Path::new(path).parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.join(name).display().to_string(),
        _ => name.to_owned(),
    }
}

/// A path quoted for a POSIX shell when it needs to be.
fn shell_word(s: &str) -> String {
    let plain = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '/' | '.' | '_' | '-' | '+' | ':' | '@'));
    if plain {
        s.to_owned()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn describing_types_names_the_command() {
        let fix = trellis_spec::fixes::describe_type("planner");
        let unknown = Diagnostic::error(trellis_spec::checks::codes::UNKNOWN_TYPE, "unknown");
        let h = hint("specs/my graph.json", &unknown, &fix);
        assert!(
            h.ends_with(": trellis registry infer 'specs/my graph.json' -o specs/project.registry.json"),
            "{h}"
        );
        // A built-in type is described only when named.
        let field = Diagnostic::error("config/unknown-field", "not a field of llm");
        let h = hint("g.json", &field, &trellis_spec::fixes::describe_builtin_type("llm"));
        assert!(h.ends_with(": trellis registry infer g.json --type llm -o project.registry.json"), "{h}");
        assert_eq!(
            hint("g.json", &unknown, &trellis_spec::fixes::declare_channel("x")),
            "Declare channel \"x\" (last_write)"
        );
    }
}
