//! JSON Pointers (RFC 6901) into element objects: building them and setting a value at one.

use serde_json::{Map, Value};

/// `at` with one more segment (`~` and `/` escaped).
pub fn push(at: &str, segment: &str) -> String {
    let mut s = String::with_capacity(at.len() + segment.len() + 1);
    s.push_str(at);
    s.push('/');
    for c in segment.chars() {
        match c {
            '~' => s.push_str("~0"),
            '/' => s.push_str("~1"),
            c => s.push(c),
        }
    }
    s
}

/// The unescaped segments of a pointer (`""` has none): the one reader diagnostics use too.
pub use trellis_spec::diagnostic::pointer_segments as segments;

/// Sets (`Some`) or removes (`None`) the value at `pointer` inside `m`, creating the objects
/// on the way. A pointer through a non-object replaces it with an object (the diff only ever
/// points into objects that exist on the side it describes).
pub fn set(m: &mut Map<String, Value>, pointer: &str, value: Option<Value>) {
    let segs = segments(pointer);
    let Some((last, path)) = segs.split_last() else {
        return;
    };
    let mut cur = m;
    for s in path {
        let next = cur.entry(s.clone()).or_insert_with(|| Value::Object(Map::new()));
        if !next.is_object() {
            *next = Value::Object(Map::new());
        }
        let Value::Object(o) = next else { return };
        cur = o;
    }
    match value {
        Some(v) => {
            cur.insert(last.clone(), v);
        }
        None => {
            cur.shift_remove(last);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_round_trip() {
        let p = push(&push("", "a/b"), "c~d");
        assert_eq!(p, "/a~1b/c~0d");
        assert_eq!(segments(&p), vec!["a/b".to_owned(), "c~d".to_owned()]);
    }

    #[test]
    fn set_creates_and_removes() {
        let mut m = Map::new();
        set(&mut m, "/config/model", Some(Value::from("x")));
        assert_eq!(Value::Object(m.clone()), serde_json::json!({"config": {"model": "x"}}));
        set(&mut m, "/config/model", None);
        assert_eq!(Value::Object(m), serde_json::json!({"config": {}}));
    }
}
