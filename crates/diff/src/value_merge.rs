//! The three-way merge of JSON values: objects key by key, recursively; anything else is one
//! value, and two different changes to it are a conflict (OURS kept). Also equality of values
//! in one ordered walk. The graph merge and the layout merge both use it.

use serde_json::{Map, Value};

use crate::conflict::{Conflict, Cx, Element};
use crate::pointer;

/// The three-way merge of one value.
pub(crate) fn merge_value(
    cx: &mut Cx<'_>,
    at: &str,
    base: Option<&Value>,
    ours: Option<&Value>,
    theirs: Option<&Value>,
) -> Option<Value> {
    if ours == theirs || theirs == base {
        return ours.cloned();
    }
    if ours == base {
        return theirs.cloned();
    }
    if let (Some(Value::Object(o)), Some(Value::Object(t))) = (ours, theirs) {
        match base {
            None => return Some(Value::Object(merge_maps(cx, at, None, o, t))),
            Some(Value::Object(b)) => return Some(Value::Object(merge_maps(cx, at, Some(b), o, t))),
            Some(_) => {}
        }
    }
    cx.conflict(at, base, ours, theirs);
    ours.cloned()
}

/// Objects key by key: OURS' key order, with the keys only THEIRS has added after.
pub(crate) fn merge_maps(
    cx: &mut Cx<'_>,
    at: &str,
    base: Option<&Map<String, Value>>,
    ours: &Map<String, Value>,
    theirs: &Map<String, Value>,
) -> Map<String, Value> {
    let mut out = Map::new();
    let keys = ours.keys().chain(theirs.keys().filter(|k| !ours.contains_key(*k))).chain(
        base.into_iter()
            .flat_map(|b| b.keys())
            .filter(|k| !ours.contains_key(*k) && !theirs.contains_key(*k)),
    );
    for k in keys {
        let b = base.and_then(|b| b.get(k));
        if let Some(v) = merge_value(cx, &pointer::push(at, k), b, ours.get(k), theirs.get(k)) {
            out.insert(k.clone(), v);
        }
    }
    out
}

/// `a == b` for objects (key order is not meaning), found in one ordered walk when both have
/// their keys in the same order (nearly always: versions of one document), without a hash
/// lookup per key; other objects are compared by `==`.
pub(crate) fn same_map(a: &Map<String, Value>, b: &Map<String, Value>) -> bool {
    if a.len() != b.len() {
        return false;
    }
    for ((ka, va), (kb, vb)) in a.iter().zip(b) {
        if ka != kb {
            return a == b;
        }
        if !same_value(va, vb) {
            return false;
        }
    }
    true
}

/// `a == b` for values, objects by [`same_map`].
pub(crate) fn same_value(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => same_map(x, y),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same_value(p, q))
        }
        _ => a == b,
    }
}

/// The three-way merge of one value, its conflicts (OURS kept) collected in `out`.
pub fn merge_one_value(
    out: &mut Vec<Conflict>,
    base: Option<&Value>,
    ours: Option<&Value>,
    theirs: Option<&Value>,
) -> Option<Value> {
    let mut cx = Cx { element: Element::Graph, out };
    merge_value(&mut cx, "", base, ours, theirs)
}
