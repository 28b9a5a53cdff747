//! Reversible changes of a JSON tree (a Weaveflow document's raw value and its metadata):
//! what an edit changed, found by comparing the tree before and after it, as a few small
//! steps that can be applied either way. Moving a node of a 10,000-node document records the
//! one position that moved, not two copies of the document.
//!
//! Comparison is strict: objects are equal only with the same keys in the same order (the
//! file's key order is what gets written), so undoing gives the old value back byte for byte.

use serde_json::{Map, Value};

/// One step down a JSON tree.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Seg {
    Key(String),
    Index(usize),
}

/// What a splice takes out of or puts into a container.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Run {
    Items(Vec<Value>),
    Entries(Vec<(String, Value)>),
}

impl Run {
    fn len(&self) -> usize {
        match self {
            Run::Items(v) => v.len(),
            Run::Entries(v) => v.len(),
        }
    }
}

/// One reversible change.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum JsonStep {
    /// The value at `path` goes from `before` to `after`.
    Set { path: Vec<Seg>, before: Value, after: Value },
    /// In the array or object at `path`, `removed` (at `at`) gives way to `inserted`.
    Splice { path: Vec<Seg>, at: usize, removed: Run, inserted: Run },
}

/// Strict equality: object keys in the same order.
pub(crate) fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|((ka, va), (kb, vb))| ka == kb && same(va, vb))
        }
        (Value::Array(x), Value::Array(y)) => x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same(p, q)),
        _ => a == b,
    }
}

/// The steps that turn `old` into `new`, in the order they apply.
pub(crate) fn diff(old: &Value, new: &Value) -> Vec<JsonStep> {
    let mut out = Vec::new();
    diff_at(&mut Vec::new(), old, new, &mut out);
    out
}

/// The steps that turn the object `old` into `new` (a JSON object held as a map).
pub(crate) fn diff_map(old: &Map<String, Value>, new: &Map<String, Value>) -> Vec<JsonStep> {
    let mut out = Vec::new();
    diff_object(&mut Vec::new(), old, new, &mut out);
    out
}

fn diff_at(path: &mut Vec<Seg>, old: &Value, new: &Value, out: &mut Vec<JsonStep>) {
    if same(old, new) {
        return;
    }
    match (old, new) {
        (Value::Object(o), Value::Object(n)) => diff_object(path, o, n, out),
        (Value::Array(o), Value::Array(n)) if o.len() == n.len() => {
            for (i, (ov, nv)) in o.iter().zip(n).enumerate() {
                path.push(Seg::Index(i));
                diff_at(path, ov, nv, out);
                path.pop();
            }
        }
        (Value::Array(o), Value::Array(n)) => {
            let prefix = o.iter().zip(n).take_while(|(a, b)| same(a, b)).count();
            let room = o.len().min(n.len()) - prefix;
            let suffix =
                o.iter().rev().zip(n.iter().rev()).take(room).take_while(|(a, b)| same(a, b)).count();
            out.push(JsonStep::Splice {
                path: path.clone(),
                at: prefix,
                removed: Run::Items(o[prefix..o.len() - suffix].to_vec()),
                inserted: Run::Items(n[prefix..n.len() - suffix].to_vec()),
            });
        }
        _ => out.push(JsonStep::Set { path: path.clone(), before: old.clone(), after: new.clone() }),
    }
}

/// Keys kept at both ends are compared value by value (addressed by key, so the splice of
/// what lies between them does not move them); the keys between are spliced.
fn diff_object(path: &mut Vec<Seg>, o: &Map<String, Value>, n: &Map<String, Value>, out: &mut Vec<JsonStep>) {
    let (ok, nk): (Vec<&String>, Vec<&String>) = (o.keys().collect(), n.keys().collect());
    let prefix = ok.iter().zip(&nk).take_while(|(a, b)| a == b).count();
    let room = ok.len().min(nk.len()) - prefix;
    let suffix = ok.iter().rev().zip(nk.iter().rev()).take(room).take_while(|(a, b)| a == b).count();
    let kept = ok[..prefix].iter().chain(&ok[ok.len() - suffix..]);
    for k in kept {
        if let (Some(ov), Some(nv)) = (o.get(*k), n.get(*k)) {
            path.push(Seg::Key((*k).clone()));
            diff_at(path, ov, nv, out);
            path.pop();
        }
    }
    let middle = |m: &Map<String, Value>, keys: &[&String]| -> Vec<(String, Value)> {
        keys[prefix..keys.len() - suffix]
            .iter()
            .filter_map(|k| m.get(*k).map(|v| ((*k).clone(), v.clone())))
            .collect()
    };
    let (removed, inserted) = (middle(o, &ok), middle(n, &nk));
    if !removed.is_empty() || !inserted.is_empty() {
        out.push(JsonStep::Splice {
            path: path.clone(),
            at: prefix,
            removed: Run::Entries(removed),
            inserted: Run::Entries(inserted),
        });
    }
}

fn walk<'a>(root: &'a mut Value, path: &[Seg]) -> Option<&'a mut Value> {
    path.iter().try_fold(root, |v, seg| match seg {
        Seg::Key(k) => v.as_object_mut()?.get_mut(k),
        Seg::Index(i) => v.as_array_mut()?.get_mut(*i),
    })
}

impl JsonStep {
    /// Applies the step (`undo`: its inverse). A step that does not fit the tree (a bug: steps
    /// are applied to the state they were recorded on) changes nothing rather than panic.
    pub(crate) fn apply(&self, root: &mut Value, undo: bool) {
        match self {
            JsonStep::Set { path, before, after } => {
                if let Some(v) = walk(root, path) {
                    *v = if undo { before } else { after }.clone();
                }
            }
            JsonStep::Splice { path, at, removed, inserted } => {
                let (take, put) = if undo { (inserted, removed) } else { (removed, inserted) };
                let Some(target) = walk(root, path) else { return };
                match (target, put) {
                    (Value::Array(items), Run::Items(put)) => {
                        let at = (*at).min(items.len());
                        let end = (at + take.len()).min(items.len());
                        items.splice(at..end, put.iter().cloned());
                    }
                    (Value::Object(map), Run::Entries(put)) => {
                        let mut entries: Vec<(String, Value)> = std::mem::take(map).into_iter().collect();
                        let at = (*at).min(entries.len());
                        let end = (at + take.len()).min(entries.len());
                        entries.splice(at..end, put.iter().cloned());
                        *map = entries.into_iter().collect();
                    }
                    _ => {}
                }
            }
        }
    }

    /// `next` (recorded right after this step) folded into it, when both set the same place:
    /// typing into a field keeps one step with the first `before` and the last `after`.
    pub(crate) fn absorb(&mut self, next: &JsonStep) -> bool {
        match (self, next) {
            (JsonStep::Set { path, after, .. }, JsonStep::Set { path: p2, before: b2, after: a2 })
                if path == p2 && same(after, b2) =>
            {
                *after = a2.clone();
                true
            }
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn check(old: Value, new: Value) -> Vec<JsonStep> {
        let steps = diff(&old, &new);
        let mut v = old.clone();
        steps.iter().for_each(|s| s.apply(&mut v, false));
        assert!(same(&v, &new), "forward: {v} != {new}");
        steps.iter().rev().for_each(|s| s.apply(&mut v, true));
        assert!(same(&v, &old), "back: {v} != {old}");
        steps
    }

    #[test]
    fn steps_go_both_ways_and_stay_small() {
        let steps =
            check(json!({"a": {"x": 1, "y": [1, 2]}, "b": 2}), json!({"a": {"x": 1, "y": [1, 3]}, "b": 2}));
        assert_eq!(
            steps,
            vec![JsonStep::Set {
                path: vec![Seg::Key("a".into()), Seg::Key("y".into()), Seg::Index(1)],
                before: json!(2),
                after: json!(3)
            }]
        );
        let steps = check(json!({"p": {"a": 1, "b": 2}}), json!({"p": {"a": 1, "b": 2, "c": 3}}));
        assert!(matches!(&steps[..], [JsonStep::Splice { at: 2, .. }]), "{steps:?}");
        check(json!({"a": 1, "b": 2, "c": 3}), json!({"c": 3, "a": 1}));
        check(json!({"a": 1, "b": 2, "c": 3}), json!({"a": 5, "z": 0, "c": 4}));
        check(json!([1, 2, 3, 4]), json!([1, 9, 9, 4, 5]));
        check(json!([1, {"k": [1]}]), json!([2, {"k": []}]));
        check(json!({"a": [1]}), json!({"a": "text"}));
        check(json!({}), json!({"a": 1}));
    }

    #[test]
    fn key_order_counts() {
        assert!(!same(&json!({"a": 1, "b": 2}), &json!({"b": 2, "a": 1})));
        check(json!({"a": 1, "b": 2}), json!({"b": 2, "a": 1}));
    }
}
