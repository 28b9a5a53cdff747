//! Fixes ([`trellis_spec::Fix`]) as command-line hints: the app shows a fix as a button, the
//! command line says what the button would do, and for describing types, which command does it.

use trellis_spec::{Fix, FixEdit};

/// The hint line for `fix` on a diagnostic of the file shown as `path`.
pub fn hint(path: &str, fix: &Fix) -> String {
    match &fix.edit {
        FixEdit::DescribeTypes { types } => format!(
            "{}: trellis registry infer {}{} -o {}",
            fix.title,
            shell_word(path),
            // A type a registry describes is described only when named.
            if trellis_spec::fixes::replaces_builtin(fix) {
                types.iter().map(|t| format!(" --type {}", shell_word(t))).collect::<String>()
            } else {
                String::new()
            },
            shell_word(&beside(path, crate::commands::registry_infer::PROJECT_REGISTRY))
        ),
        _ => fix.title.clone(),
    }
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
        let h = hint("specs/my graph.json", &fix);
        assert!(
            h.ends_with(": trellis registry infer 'specs/my graph.json' -o specs/project.registry.json"),
            "{h}"
        );
        // A built-in type is described only when named.
        let h = hint("g.json", &trellis_spec::fixes::describe_builtin_type("llm"));
        assert!(h.ends_with(": trellis registry infer g.json --type llm -o project.registry.json"), "{h}");
        assert_eq!(
            hint("g.json", &trellis_spec::fixes::declare_channel("x")),
            "Declare channel \"x\" (last_write)"
        );
    }
}
