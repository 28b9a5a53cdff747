//! Reversible changes of a GRAPH.md front matter (a YAML tree): what an edit changed, found
//! by comparing the tree before and after it, as a few small steps that apply either way.
//!
//! Comparison is strict: spans, raw source text, quoting and flow style count, so undoing an
//! edit gives back the very tree that was read (diagnostics keep their places in the file,
//! and an unedited document is written back byte for byte). Paths are indices (a mapping's
//! entries or a list's items), since a front matter read with duplicate keys still opens.

use trellis_formats::graphmd::yaml::{Entry, Map, Node, Scalar, Yaml};

/// What a splice takes out of or puts into a container.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Run {
    Items(Vec<Yaml>),
    Entries(Vec<Entry>),
}

impl Run {
    fn len(&self) -> usize {
        match self {
            Run::Items(v) => v.len(),
            Run::Entries(v) => v.len(),
        }
    }
}

/// One reversible change. A path is child indices from the front matter mapping down.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum YamlStep {
    /// The value at `path` (never empty) goes from `before` to `after`.
    Set { path: Vec<usize>, before: Yaml, after: Yaml },
    /// In the mapping or list at `path`, `removed` (at `at`) gives way to `inserted`.
    Splice { path: Vec<usize>, at: usize, removed: Run, inserted: Run },
}

fn same_scalar(a: &Scalar, b: &Scalar) -> bool {
    a.value == b.value && a.style == b.style && a.raw == b.raw
}

fn same_entry(a: &Entry, b: &Entry) -> bool {
    same_key(a, b) && same(&a.value, &b.value)
}

fn same_key(a: &Entry, b: &Entry) -> bool {
    same_scalar(&a.key, &b.key) && a.key_span == b.key_span
}

fn same_map(a: &Map, b: &Map) -> bool {
    a.flow == b.flow
        && a.entries.len() == b.entries.len()
        && a.entries.iter().zip(&b.entries).all(|(x, y)| same_entry(x, y))
}

/// Strict equality (the trees' own `==` ignores spans and quoting).
pub(crate) fn same(a: &Yaml, b: &Yaml) -> bool {
    a.span == b.span
        && match (&a.node, &b.node) {
            (Node::Scalar(x), Node::Scalar(y)) => same_scalar(x, y),
            (Node::Seq(x), Node::Seq(y)) => {
                x.flow == y.flow
                    && x.items.len() == y.items.len()
                    && x.items.iter().zip(&y.items).all(|(p, q)| same(p, q))
            }
            (Node::Map(x), Node::Map(y)) => same_map(x, y),
            _ => false,
        }
}

/// The steps that turn the mapping `old` into `new`, in the order they apply; `None` when
/// the mappings themselves differ in style (the caller records the whole change instead).
pub(crate) fn diff(old: &Map, new: &Map) -> Option<Vec<YamlStep>> {
    if old.flow != new.flow {
        return None;
    }
    let mut out = Vec::new();
    diff_map(&mut Vec::new(), old, new, &mut out);
    Some(out)
}

fn diff_at(path: &mut Vec<usize>, old: &Yaml, new: &Yaml, out: &mut Vec<YamlStep>) {
    if same(old, new) {
        return;
    }
    match (&old.node, &new.node) {
        _ if old.span != new.span => {}
        (Node::Map(o), Node::Map(n)) if o.flow == n.flow => return diff_map(path, o, n, out),
        (Node::Seq(o), Node::Seq(n)) if o.flow == n.flow => return diff_seq(path, &o.items, &n.items, out),
        _ => {}
    }
    out.push(YamlStep::Set { path: path.clone(), before: old.clone(), after: new.clone() });
}

fn diff_seq(path: &mut Vec<usize>, o: &[Yaml], n: &[Yaml], out: &mut Vec<YamlStep>) {
    if o.len() == n.len() {
        for (i, (ov, nv)) in o.iter().zip(n).enumerate() {
            path.push(i);
            diff_at(path, ov, nv, out);
            path.pop();
        }
        return;
    }
    let prefix = o.iter().zip(n).take_while(|(a, b)| same(a, b)).count();
    let room = o.len().min(n.len()) - prefix;
    let suffix = o.iter().rev().zip(n.iter().rev()).take(room).take_while(|(a, b)| same(a, b)).count();
    out.push(YamlStep::Splice {
        path: path.clone(),
        at: prefix,
        removed: Run::Items(o[prefix..o.len() - suffix].to_vec()),
        inserted: Run::Items(n[prefix..n.len() - suffix].to_vec()),
    });
}

/// Entries whose keys match at both ends are compared value by value, then what lies between
/// is spliced. The value steps come first and use the old indices, so they apply before the
/// splice and are undone after it.
fn diff_map(path: &mut Vec<usize>, o: &Map, n: &Map, out: &mut Vec<YamlStep>) {
    let (oe, ne) = (&o.entries, &n.entries);
    let prefix = oe.iter().zip(ne).take_while(|(a, b)| same_key(a, b)).count();
    let room = oe.len().min(ne.len()) - prefix;
    let suffix = oe.iter().rev().zip(ne.iter().rev()).take(room).take_while(|(a, b)| same_key(a, b)).count();
    let shift = ne.len() as isize - oe.len() as isize;
    let kept = (0..prefix).chain(oe.len() - suffix..oe.len());
    for i in kept {
        let j = if i < prefix { i } else { (i as isize + shift) as usize };
        path.push(i);
        diff_at(path, &oe[i].value, &ne[j].value, out);
        path.pop();
    }
    if oe.len() - suffix > prefix || ne.len() - suffix > prefix {
        out.push(YamlStep::Splice {
            path: path.clone(),
            at: prefix,
            removed: Run::Entries(oe[prefix..oe.len() - suffix].to_vec()),
            inserted: Run::Entries(ne[prefix..ne.len() - suffix].to_vec()),
        });
    }
}

enum Place<'a> {
    Value(&'a mut Yaml),
    Root(&'a mut Map),
}

fn walk<'a>(root: &'a mut Map, path: &[usize]) -> Option<Place<'a>> {
    let Some((first, rest)) = path.split_first() else { return Some(Place::Root(root)) };
    let mut v = &mut root.entries.get_mut(*first)?.value;
    for i in rest {
        v = match &mut v.node {
            Node::Map(m) => &mut m.entries.get_mut(*i)?.value,
            Node::Seq(s) => s.items.get_mut(*i)?,
            Node::Scalar(_) => return None,
        };
    }
    Some(Place::Value(v))
}

fn splice<T: Clone>(list: &mut Vec<T>, at: usize, remove: usize, put: &[T]) {
    let at = at.min(list.len());
    let end = (at + remove).min(list.len());
    list.splice(at..end, put.iter().cloned());
}

impl YamlStep {
    /// Applies the step (`undo`: its inverse). A step that does not fit the tree (a bug)
    /// changes nothing rather than panic.
    pub(crate) fn apply(&self, root: &mut Map, undo: bool) {
        match self {
            YamlStep::Set { path, before, after } => {
                if let Some(Place::Value(v)) = walk(root, path) {
                    *v = if undo { before } else { after }.clone();
                }
            }
            YamlStep::Splice { path, at, removed, inserted } => {
                let (take, put) = if undo { (inserted, removed) } else { (removed, inserted) };
                let target = match walk(root, path) {
                    Some(Place::Root(m)) => Some(&mut m.entries),
                    Some(Place::Value(Yaml { node: Node::Map(m), .. })) => Some(&mut m.entries),
                    Some(Place::Value(Yaml { node: Node::Seq(s), .. })) => {
                        if let Run::Items(put) = put {
                            splice(&mut s.items, *at, take.len(), put);
                        }
                        None
                    }
                    _ => None,
                };
                if let (Some(entries), Run::Entries(put)) = (target, put) {
                    splice(entries, *at, take.len(), put);
                }
            }
        }
    }

    /// `next` (recorded right after this step) folded into it, when both set the same place.
    pub(crate) fn absorb(&mut self, next: &YamlStep) -> bool {
        match (self, next) {
            (YamlStep::Set { path, after, .. }, YamlStep::Set { path: p2, before: b2, after: a2 })
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

    fn front(text: &str) -> Map {
        let doc = trellis_formats::graphmd::read(&format!("---\n{text}---\n")).doc.expect("reads");
        doc.front
    }

    fn check(old: &Map, new: &Map) -> Vec<YamlStep> {
        let steps = diff(old, new).expect("same style");
        let mut m = old.clone();
        steps.iter().for_each(|s| s.apply(&mut m, false));
        assert!(same_map(&m, new), "forward");
        steps.iter().rev().for_each(|s| s.apply(&mut m, true));
        assert!(same_map(&m, old), "back");
        steps
    }

    #[test]
    fn steps_go_both_ways_and_keep_spans() {
        let old =
            front("name: a\nnodes:\n  - id: x\n    kind: agent\n  - id: y\n    kind: tool\nedges: []\n");
        let mut new = old.clone();
        new.set("name", Yaml::string("b"));
        let steps = check(&old, &new);
        assert!(matches!(&steps[..], [YamlStep::Set { path, .. }] if path == &[0]), "{steps:?}");
        let mut new = old.clone();
        new.remove("name");
        new.set("spec_version", Yaml::string("1.1.0"));
        check(&old, &new);
        let mut new = old.clone();
        if let Some(s) = new.get_mut("nodes").and_then(Yaml::as_seq_mut) {
            s.items.remove(0);
        }
        new.remove("edges");
        let steps = check(&old, &new);
        assert_eq!(steps.len(), 2, "{steps:?}");
        // A span dropped by an edit is a change too: undo brings it back.
        let mut new = old.clone();
        if let Some(y) = new.get_mut("nodes") {
            y.forget_source();
        }
        assert!(!diff(&old, &new).expect("same style").is_empty());
        check(&old, &new);
    }
}
