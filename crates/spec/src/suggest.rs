//! "Did you mean": the known name closest to a word that names nothing, for hints in messages
//! and for fixes.

/// ` (did you mean "x"?)` when a known name is close to `key`.
pub(crate) fn strsim_hint<'a>(key: &str, known: impl IntoIterator<Item = &'a str>) -> String {
    match closest(key, known) {
        Some(k) => format!(" (did you mean \"{k}\"?)"),
        None => String::new(),
    }
}

/// The known name closest to `key` (at most two edits away, and not a whole rewrite), for
/// "did you mean" hints and fixes.
pub fn closest<'a>(key: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let key_chars = key.chars().count();
    known
        .into_iter()
        // The distance is at least the difference in length: skip the far ones cheaply (a
        // registry may hold thousands of types).
        .filter(|k| k.chars().count().abs_diff(key_chars) <= 2)
        .map(|k| (strsim::damerau_levenshtein(key, k), k))
        .filter(|(d, k)| *d <= 2 && *d < k.chars().count())
        .min()
        .map(|(_, k)| k)
}
