//! Writing a Graph Definition: the raw value with a 2-space indent and a final newline, keys in
//! the order they were read, numbers as their original text, and `<`, `>`, `&` left as they are
//! (Go's encoder would write `\u003c`…, formats.md §2.5; serde_json does not escape them).

use super::doc::WeaveflowDoc;

/// The document's text.
pub fn to_string(doc: &WeaveflowDoc) -> String {
    value_to_string(doc.value())
}

/// Any JSON value in the writer's form (2-space indent, final newline).
pub fn value_to_string(value: &serde_json::Value) -> String {
    // Writing a Value to a String cannot fail (no I/O, keys are strings).
    let mut out = serde_json::to_string_pretty(value).unwrap_or_default();
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::weaveflow::read::parse;

    #[test]
    fn does_not_escape_html_characters() {
        let text = "{\n  \"version\": \"1.0\",\n  \"description\": \"<a> && <b>\"\n}\n";
        let doc = parse(text).doc.expect("doc");
        assert_eq!(to_string(&doc), text);
    }
}
