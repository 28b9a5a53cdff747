//! Node ids Rust makes (the UI never makes one): from a type name, and counted up until free.

use trellis_spec::{END, START};

/// `llm` -> `llm`, `llm_2`, ...; an id ending in `_<n>` counts up from there.
pub(crate) fn fresh_id(base: &str, taken: &dyn Fn(&str) -> bool) -> String {
    let base = if base.is_empty() { "node" } else { base };
    if !taken(base) && base != START && base != END {
        return base.to_owned();
    }
    let (root, start) = match base.rsplit_once('_') {
        Some((root, n)) if !root.is_empty() && !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => {
            (root, n.parse::<u64>().unwrap_or(1).saturating_add(1))
        }
        _ => (base, 2),
    };
    let mut n = start.max(2);
    loop {
        let candidate = format!("{root}_{n}");
        if !taken(&candidate) {
            return candidate;
        }
        n += 1;
    }
}

/// A node id made from a type or kind name, readable and plain ASCII wherever an id goes:
/// `HttpRequest` -> `http_request`, `mcp.tool` -> `mcp_tool`, `Café Order` -> `cafe_order`,
/// `3d-render` -> `n_3d_render`, nothing usable -> `node`. The UI never makes ids: it sends
/// `add_node` without one and selects what the answer's `created` names.
pub(crate) fn id_base(type_name: &str) -> String {
    use unicode_normalization::char::is_combining_mark;
    use unicode_normalization::UnicodeNormalization;
    let folded: Vec<char> = type_name.nfkd().filter(|c| !is_combining_mark(*c)).collect();
    let mut out = String::with_capacity(folded.len() + 2);
    let mut push = |c: char| {
        // Runs of separators collapse into one `_`; none leads.
        if c != '_' || !(out.is_empty() || out.ends_with('_')) {
            out.push(c);
        }
    };
    for (i, &c) in folded.iter().enumerate() {
        // camelCase and PascalCase words are split: `HttpRequest` -> `http_request`.
        let after_word = i > 0 && (folded[i - 1].is_ascii_lowercase() || folded[i - 1].is_ascii_digit());
        if c.is_ascii_uppercase() && after_word {
            push('_');
        }
        for l in c.to_lowercase() {
            push(if l.is_ascii_alphanumeric() { l } else { '_' });
        }
    }
    while out.ends_with('_') {
        out.pop();
    }
    if out.is_empty() {
        out.push_str("node");
    }
    if out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert_str(0, "n_");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn fresh_ids_count_up() {
        let taken: HashSet<&str> = ["llm", "llm_2", "a_9"].into_iter().collect();
        assert_eq!(fresh_id("llm", &|s| taken.contains(s)), "llm_3");
        assert_eq!(fresh_id("a_9", &|s| taken.contains(s)), "a_10");
        assert_eq!(fresh_id("new", &|s| taken.contains(s)), "new");
        assert_eq!(fresh_id("__start__", &|s| taken.contains(s)), "__start___2");
    }
}
