//! One field of a node's config set or removed by its JSON Pointer (`set_config_field`, the
//! edit the config form sends while the user types), in every format.

use serde_json::{Map, Value};
use trellis_spec::diagnostic::pointer_segments;

/// Sets or removes one field of a config. `Ok(None)` when nothing changes.
pub(crate) fn set_config_field(
    config: Map<String, Value>,
    path: &str,
    value: Option<Value>,
) -> Result<Option<Map<String, Value>>, String> {
    if !path.starts_with('/') {
        return Err(format!("the field path \"{path}\" is not a JSON Pointer (it must start with \"/\")"));
    }
    let segments = pointer_segments(path);
    let mut root = Value::Object(config);
    let changed = set_in(&mut root, &segments, value, path)?;
    match (changed, root) {
        (true, Value::Object(m)) => Ok(Some(m)),
        _ => Ok(None),
    }
}

fn set_in(target: &mut Value, segments: &[String], value: Option<Value>, path: &str) -> Result<bool, String> {
    let Some((first, rest)) = segments.split_first() else {
        return Err("an empty field path names the whole config; use set_config".into());
    };
    match target {
        Value::Object(map) => {
            if rest.is_empty() {
                return Ok(match value {
                    Some(v) => map.insert(first.clone(), v.clone()).as_ref() != Some(&v),
                    None => map.shift_remove(first).is_some(),
                });
            }
            if !map.contains_key(first) {
                if value.is_none() {
                    return Ok(false);
                }
                map.insert(first.clone(), Value::Object(Map::new()));
            }
            match map.get_mut(first) {
                Some(child) => set_in(child, rest, value, path),
                None => Ok(false),
            }
        }
        Value::Array(items) => {
            let index = if first == "-" && rest.is_empty() && value.is_some() {
                items.len()
            } else {
                first
                    .parse::<usize>()
                    .ok()
                    .filter(|_| first == "0" || !first.starts_with('0'))
                    .ok_or_else(|| format!("\"{first}\" in \"{path}\" is not an array index"))?
            };
            if rest.is_empty() {
                return match value {
                    Some(v) if index == items.len() => {
                        items.push(v);
                        Ok(true)
                    }
                    Some(v) => match items.get_mut(index) {
                        Some(slot) if *slot == v => Ok(false),
                        Some(slot) => {
                            *slot = v;
                            Ok(true)
                        }
                        None => Err(format!("index {index} in \"{path}\" is past the end of the array")),
                    },
                    None if index < items.len() => {
                        items.remove(index);
                        Ok(true)
                    }
                    None => Ok(false),
                };
            }
            match items.get_mut(index) {
                Some(child) => set_in(child, rest, value, path),
                None if value.is_none() => Ok(false),
                None => Err(format!("index {index} in \"{path}\" is past the end of the array")),
            }
        }
        _ => Err(format!("\"{path}\" goes inside a value that is neither an object nor an array")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn config_fields_set_and_remove() {
        let c = json!({"a": 1, "b": {"c": [1, 2]}}).as_object().cloned().unwrap_or_default();
        let set = |c: &Map<String, Value>, p: &str, v: Option<Value>| set_config_field(c.clone(), p, v);
        let r = set(&c, "/b/c/1", Some(json!(5))).expect("ok").expect("changed");
        assert_eq!(Value::Object(r), json!({"a": 1, "b": {"c": [1, 5]}}));
        let r = set(&c, "/b/c/-", Some(json!(3))).expect("ok").expect("changed");
        assert_eq!(Value::Object(r), json!({"a": 1, "b": {"c": [1, 2, 3]}}));
        let r = set(&c, "/x/y", Some(json!("z"))).expect("ok").expect("changed");
        assert_eq!(Value::Object(r), json!({"a": 1, "b": {"c": [1, 2]}, "x": {"y": "z"}}));
        let r = set(&c, "/a", None).expect("ok").expect("changed");
        assert_eq!(Value::Object(r), json!({"b": {"c": [1, 2]}}));
        assert!(set(&c, "/a", Some(json!(1))).expect("ok").is_none());
        assert!(set(&c, "/zz", None).expect("ok").is_none());
        assert!(set(&c, "/a/b", Some(json!(1))).is_err());
        assert!(set(&c, "a", Some(json!(1))).is_err());
        assert!(set(&c, "", Some(json!(1))).is_err());
        assert!(set(&c, "/b/c/7", Some(json!(1))).is_err());
        assert!(set(&c, "/b/c/01", Some(json!(1))).is_err());
        let r = set(&c, "/a~1b", Some(json!(2))).expect("ok").expect("changed");
        assert_eq!(r.get("a/b"), Some(&json!(2)));
    }
}
