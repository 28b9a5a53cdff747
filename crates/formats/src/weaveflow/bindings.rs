//! State binding checks (formats.md §2.2; the Workbench's `validateBindingPath`,
//! `lint.ts@3da5022`): a path lives under `shared.` or `scopes.`, is not a bare root, has no
//! empty segment, and never touches the reserved `internal.` / `runtime.` roots. A reducer is
//! a versioned id such as `sum.v1`.

/// Why a binding path is refused, or `None` when it is fine.
pub fn path_problem(path: &str) -> Option<String> {
    let p = path.trim();
    if p.is_empty() {
        return Some("state binding path is required".into());
    }
    let root = p.split('.').next().unwrap_or_default();
    if matches!(root, "internal" | "runtime") {
        return Some(format!("state binding path \"{p}\" uses the reserved root \"{root}\""));
    }
    if !matches!(root, "shared" | "scopes") {
        return Some(format!("state binding path \"{p}\" must start with \"shared.\" or \"scopes.\""));
    }
    if p == root {
        return Some(format!(
            "state binding path \"{p}\" is a bare root; name a field under it (\"{root}.field\")"
        ));
    }
    if p.split('.').any(str::is_empty) {
        return Some(format!("state binding path \"{p}\" has an empty segment"));
    }
    if p.chars().any(char::is_whitespace) {
        return Some(format!("state binding path \"{p}\" contains whitespace"));
    }
    None
}

/// True for a versioned reducer id: `name.vN` (`sum.v1`, `messages.v1`).
pub fn reducer_ok(reducer: &str) -> bool {
    let Some((name, version)) = reducer.rsplit_once('.') else { return false };
    let name_ok = !name.is_empty()
        && name.split('.').all(|s| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'));
    let version_ok =
        version.len() > 1 && version.starts_with('v') && version[1..].chars().all(|c| c.is_ascii_digit());
    name_ok && version_ok
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths() {
        assert_eq!(path_problem("shared.request.input"), None);
        assert_eq!(path_problem("scopes.supervisor_researcher.conversation"), None);
        assert!(path_problem("shared").is_some());
        assert!(path_problem("shared.").is_some());
        assert!(path_problem("shared..x").is_some());
        assert!(path_problem("internal.x").is_some_and(|m| m.contains("reserved")));
        assert!(path_problem("runtime.x").is_some_and(|m| m.contains("reserved")));
        assert!(path_problem("request.input").is_some());
        assert!(path_problem("").is_some());
    }

    #[test]
    fn reducers() {
        assert!(reducer_ok("sum.v1"));
        assert!(reducer_ok("messages.v12"));
        assert!(!reducer_ok("sum"));
        assert!(!reducer_ok("sum.v"));
        assert!(!reducer_ok("append"));
    }
}
