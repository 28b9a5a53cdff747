//! Layout: node positions and view state, kept out of the diff (one summary line at most) and
//! merged by union. A GraphSpec's layout is its sidecar file (`name.layout.json`:
//! `{version, positions: {id: {x, y}}, viewport?}`); a Weaveflow document's is `metadata.web`
//! (`positions` by node id).

use serde_json::{Map, Value};

/// True for a layout sidecar's file name (`*.layout.json`).
pub fn is_sidecar_name(name: &str) -> bool {
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name).to_ascii_lowercase();
    base.ends_with(".layout.json") && base.len() > ".layout.json".len()
}

fn positions(v: Option<&Value>) -> Option<&Map<String, Value>> {
    v?.get("positions")?.as_object()
}

/// One line saying how the layout changed, or `None` when it did not.
pub fn summary(a: Option<&Value>, b: Option<&Value>) -> Option<String> {
    if a == b {
        return None;
    }
    let empty = Map::new();
    let (pa, pb) = (positions(a).unwrap_or(&empty), positions(b).unwrap_or(&empty));
    let moved = pa.iter().filter(|(k, v)| pb.get(*k).is_some_and(|w| w != *v)).count();
    let added = pb.keys().filter(|k| !pa.contains_key(*k)).count();
    let removed = pa.keys().filter(|k| !pb.contains_key(*k)).count();
    let mut parts = Vec::new();
    for (n, what) in [(moved, "moved"), (added, "placed"), (removed, "unplaced")] {
        if n > 0 {
            parts.push(format!("{n} node{} {what}", if n == 1 { "" } else { "s" }));
        }
    }
    let rest_a =
        a.and_then(Value::as_object).map(|m| m.iter().filter(|(k, _)| *k != "positions").collect::<Vec<_>>());
    let rest_b =
        b.and_then(Value::as_object).map(|m| m.iter().filter(|(k, _)| *k != "positions").collect::<Vec<_>>());
    if rest_a != rest_b {
        parts.push("view changed".to_owned());
    }
    if parts.is_empty() {
        parts.push("changed".to_owned());
    }
    Some(format!("layout: {}", parts.join(", ")))
}

/// Three-way merge of layouts: `positions` node by node, each position as one value (a
/// position mixed from both sides is one nobody chose), the rest key by key; OURS wins where
/// both sides changed the same thing.
pub fn merge(base: Option<&Value>, ours: Option<&Value>, theirs: Option<&Value>) -> Option<Value> {
    fn pick<'a>(b: Option<&'a Value>, o: Option<&'a Value>, t: Option<&'a Value>) -> Option<&'a Value> {
        if o == b {
            t
        } else {
            o
        }
    }
    let (Some(Value::Object(o)), Some(Value::Object(t))) = (ours, theirs) else {
        return pick(base, ours, theirs).cloned();
    };
    let b = base.and_then(Value::as_object);
    let mut out = Map::new();
    let keys = o.keys().chain(t.keys().filter(|k| !o.contains_key(*k)));
    for k in keys {
        let (bk, ok, tk) = (b.and_then(|b| b.get(k)), o.get(k), t.get(k));
        let merged = match (k.as_str(), ok, tk) {
            ("positions", Some(Value::Object(op)), Some(Value::Object(tp))) => {
                let bp = bk.and_then(Value::as_object);
                let mut m = Map::new();
                for id in op.keys().chain(tp.keys().filter(|id| !op.contains_key(*id))) {
                    if let Some(v) = pick(bp.and_then(|p| p.get(id)), op.get(id), tp.get(id)) {
                        m.insert(id.clone(), v.clone());
                    }
                }
                Some(Value::Object(m))
            }
            ("notes" | "groups", Some(Value::Array(oa)), Some(Value::Array(ta))) => {
                Some(merge_by_id(bk.and_then(Value::as_array), oa, ta))
            }
            _ => {
                let mut ignored = Vec::new();
                crate::value_merge::merge_one_value(&mut ignored, bk, ok, tk)
            }
        };
        if let Some(v) = merged {
            out.insert(k.clone(), v);
        }
    }
    // Notes or groups from either side need the version that holds them (trellis-doc's
    // `ANNOTATED_VERSION`).
    let annotated = ["notes", "groups"]
        .iter()
        .any(|k| out.get(*k).and_then(Value::as_array).is_some_and(|a| !a.is_empty()));
    if annotated && out.get("version").and_then(Value::as_u64).is_some_and(|v| v < 2) {
        out.insert("version".into(), Value::from(2));
    }
    Some(Value::Object(out))
}

/// Notes or groups (lists of objects with an `id`) merged by id, like positions: each one
/// whole from the side that changed it (OURS when both did); one side's removal of an
/// untouched one is kept; ours in their order, then theirs' new ones.
fn merge_by_id(base: Option<&Vec<Value>>, ours: &[Value], theirs: &[Value]) -> Value {
    let id = |v: &Value| v.get("id").and_then(Value::as_str).map(str::to_owned);
    let find = |list: &[Value], key: &str| list.iter().find(|v| id(v).as_deref() == Some(key)).cloned();
    let base = base.map(Vec::as_slice).unwrap_or_default();
    let mut keys: Vec<String> = Vec::new();
    for v in ours.iter().chain(theirs) {
        if let Some(k) = id(v) {
            if !keys.contains(&k) {
                keys.push(k);
            }
        }
    }
    let mut out = Vec::new();
    for k in keys {
        let (b, o, t) = (find(base, &k), find(ours, &k), find(theirs, &k));
        let picked = if o == b { t } else { o };
        out.extend(picked);
    }
    Value::Array(out)
}

/// Three-way union of two sidecar texts: positions from both sides (a node one side placed is
/// kept; one side's removal of an untouched position is kept), OURS winning where both sides
/// changed the same value. Never a conflict: positions are cheap to redo. Returns the
/// sidecar's text (two-space JSON, as trellis-doc writes it), or why a side does not read.
pub fn merge_sidecars(base: &[u8], ours: &[u8], theirs: &[u8]) -> Result<String, String> {
    let read = |side: &str, b: &[u8]| -> Result<Option<Value>, String> {
        if b.iter().all(u8::is_ascii_whitespace) {
            return Ok(None);
        }
        match serde_json::from_slice::<Value>(b) {
            Ok(v @ Value::Object(_)) => Ok(Some(v)),
            Ok(_) => Err(format!("{side} layout sidecar is not a JSON object")),
            Err(e) => Err(format!("{side} layout sidecar is not JSON: {e}")),
        }
    };
    let (b, o, t) = (read("the base", base)?, read("our", ours)?, read("their", theirs)?);
    let merged = merge(b.as_ref(), o.as_ref(), t.as_ref());
    let mut text = serde_json::to_string_pretty(&merged.unwrap_or(Value::Object(Map::new())))
        .map_err(|e| e.to_string())?;
    text.push('\n');
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn sidecars_merge_by_union() {
        let base = json!({"version": 1, "positions": {"a": {"x": 0, "y": 0}}}).to_string();
        let ours =
            json!({"version": 1, "positions": {"a": {"x": 5, "y": 0}, "b": {"x": 1, "y": 1}}}).to_string();
        let theirs =
            json!({"version": 1, "positions": {"a": {"x": 9, "y": 9}, "c": {"x": 2, "y": 2}}}).to_string();
        let merged = merge_sidecars(base.as_bytes(), ours.as_bytes(), theirs.as_bytes()).unwrap_or_default();
        let v: Value = serde_json::from_str(&merged).unwrap_or_default();
        assert_eq!(v["positions"]["a"], json!({"x": 5, "y": 0}), "ours wins a position both moved");
        assert_eq!(v["positions"]["b"], json!({"x": 1, "y": 1}));
        assert_eq!(v["positions"]["c"], json!({"x": 2, "y": 2}));
        assert!(merge_sidecars(b"", b"{", b"{}").is_err());
    }

    #[test]
    fn notes_and_groups_merge_by_id() {
        let note = |id: &str, text: &str| json!({"id": id, "text": text, "color": "yellow", "x": 0, "y": 0, "width": 240, "height": 160});
        let base = json!({"version": 2, "positions": {}, "notes": [note("a", "base"), note("gone", "x")],
            "groups": [{"id": "g", "name": "G", "color": "blue", "nodes": ["n"], "notes": []}]});
        let ours = json!({"version": 2, "positions": {}, "notes": [note("a", "ours"), note("gone", "x"), note("o", "new")],
            "groups": [{"id": "g", "name": "Ours", "color": "blue", "nodes": ["n"], "notes": []}]});
        let theirs = json!({"version": 2, "positions": {}, "notes": [note("a", "theirs"), note("t", "theirs new")],
            "groups": [{"id": "g", "name": "G", "color": "red", "nodes": ["n"], "notes": []},
                       {"id": "h", "name": "H", "color": "blue", "nodes": ["m"], "notes": []}]});
        let merged = merge_sidecars(
            base.to_string().as_bytes(),
            ours.to_string().as_bytes(),
            theirs.to_string().as_bytes(),
        )
        .unwrap_or_default();
        let v: Value = serde_json::from_str(&merged).unwrap_or_default();
        let texts: Vec<&str> = v["notes"]
            .as_array()
            .map(|a| a.iter().filter_map(|n| n["text"].as_str()).collect())
            .unwrap_or_default();
        assert_eq!(
            texts,
            ["ours", "new", "theirs new"],
            "ours wins, their removal kept, both additions kept"
        );
        let names: Vec<&str> = v["groups"]
            .as_array()
            .map(|a| a.iter().filter_map(|g| g["name"].as_str()).collect())
            .unwrap_or_default();
        assert_eq!(names, ["Ours", "H"]);
        // A version-1 side and a side that added notes: version 2.
        let plain = json!({"version": 1, "positions": {}}).to_string();
        let added = json!({"version": 1, "positions": {}, "notes": [note("a", "x")]}).to_string();
        let v: Value = serde_json::from_str(
            &merge_sidecars(plain.as_bytes(), plain.as_bytes(), added.as_bytes()).unwrap_or_default(),
        )
        .unwrap_or_default();
        assert_eq!(v["version"], 2);
    }

    #[test]
    fn summary_counts_positions() {
        let a = json!({"positions": {"a": {"x": 0}, "b": {"x": 0}}});
        let b = json!({"positions": {"a": {"x": 1}, "c": {"x": 0}}});
        assert_eq!(
            summary(Some(&a), Some(&b)).as_deref(),
            Some("layout: 1 node moved, 1 node placed, 1 node unplaced")
        );
        assert_eq!(summary(Some(&a), Some(&a)), None);
    }
}
