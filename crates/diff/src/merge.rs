//! Three-way merge of graphs by element id (docs/git.md "Merge rules").
//!
//! * Elements (channels, nodes, edges) are matched by name, id and ends. An element added,
//!   removed or edited on one side only takes that side; the same change on both sides is
//!   taken once.
//! * Inside an element, and in the graph-level fields, objects merge key by key, recursively;
//!   anything else (a string, a number, a list) is one value.
//! * Two different values for one field, an edit against a deletion, or two different
//!   elements added under one id are conflicts: the result keeps OURS there, and the conflict
//!   records the pointer with the base, ours and theirs values.
//! * Layout merges by union, OURS winning a position both sides moved (never a conflict).
//! * GRAPH.md's body merges as text, line by line; overlapping edits are conflicts.
//!
//! Whether the merged graph still validates is the caller's check ([`crate::merge_documents`]).

use std::hash::Hash;

use indexmap::IndexMap;
use serde_json::{Map, Value};

use crate::conflict::{Conflict, Cx, Element, Reason};
use crate::graph::{EdgeKey, Graph};
use crate::value_merge::{merge_maps, merge_value, same_map};

/// The merged graph (OURS where there are conflicts) and the conflicts.
#[derive(Debug, Clone)]
pub struct Merged {
    pub graph: Graph,
    pub conflicts: Vec<Conflict>,
}

/// Merges `ours` and `theirs`, both descended from `base` (all three in one format).
pub fn merge(base: &Graph, ours: &Graph, theirs: &Graph) -> Merged {
    merge_from(base, Side::Lent(ours), Side::Lent(theirs)).0
}

/// [`merge`], taking the merged elements out of `ours` and `theirs` instead of copying them
/// (most of a merge is elements only one side changed, or neither): what is left in the sides
/// is not the sides any more until [`Taken::restore`] puts the taken elements back. The merge
/// driver's path: the sides are needed again only when the merged document has errors.
pub fn merge_taking(base: &Graph, ours: &mut Graph, theirs: &mut Graph) -> (Merged, Taken) {
    merge_from(base, Side::Given(ours), Side::Given(theirs))
}

/// Which elements [`merge_taking`] took out of each side, by their place in that side.
#[derive(Debug, Default)]
#[must_use = "the sides lack the taken elements until they are restored"]
pub struct Taken {
    ours: Places,
    theirs: Places,
}

#[derive(Debug, Default)]
struct Places {
    channels: Vec<usize>,
    nodes: Vec<usize>,
    edges: Vec<usize>,
}

impl Taken {
    /// True when nothing was taken (the sides are whole).
    pub fn is_empty(&self) -> bool {
        [&self.ours, &self.theirs]
            .iter()
            .all(|p| p.channels.is_empty() && p.nodes.is_empty() && p.edges.is_empty())
    }

    /// Puts the taken elements back into the sides, copied from `merged`: the merge made by
    /// [`merge_taking`], or a graph equal to it element by element (an element taken from a
    /// side is in the merge as that side had it).
    pub fn restore(self, ours: &mut Graph, theirs: &mut Graph, merged: &Graph) {
        for (side, places) in [(ours, self.ours), (theirs, self.theirs)] {
            put_back(&mut side.channels, &places.channels, &merged.channels);
            put_back(&mut side.nodes, &places.nodes, &merged.nodes);
            put_back(&mut side.edges, &places.edges, &merged.edges);
        }
    }
}

fn put_back<K: Hash + Eq>(
    side: &mut IndexMap<K, Map<String, Value>>,
    places: &[usize],
    merged: &IndexMap<K, Map<String, Value>>,
) {
    for &i in places {
        if let Some((k, v)) = side.get_index_mut(i) {
            if let Some(m) = merged.get(k) {
                v.clone_from(m);
            }
        }
    }
}

/// A side of the merge: lent (its merged elements are copied) or given (they are taken out).
enum Side<'a> {
    Lent(&'a Graph),
    Given(&'a mut Graph),
}

impl Side<'_> {
    fn graph(&self) -> &Graph {
        match self {
            Side::Lent(g) => g,
            Side::Given(g) => g,
        }
    }
}

/// One collection of a side, as [`merge_keyed`] reads it.
enum Elements<'a, K> {
    Lent(&'a IndexMap<K, Map<String, Value>>),
    Given(&'a mut IndexMap<K, Map<String, Value>>, &'a mut Vec<usize>),
}

impl<K: Hash + Eq> Elements<'_, K> {
    fn map(&self) -> &IndexMap<K, Map<String, Value>> {
        match self {
            Elements::Lent(m) => m,
            Elements::Given(m, _) => m,
        }
    }

    /// Element `i`'s value for the merge: copied, or taken (and its place recorded).
    fn take(&mut self, i: usize) -> Option<Map<String, Value>> {
        match self {
            Elements::Lent(m) => m.get_index(i).map(|(_, v)| v.clone()),
            Elements::Given(m, taken) => {
                let v = m.get_index_mut(i).map(|(_, v)| std::mem::take(v));
                taken.push(i);
                v
            }
        }
    }
}

fn merge_from(base: &Graph, mut ours: Side<'_>, mut theirs: Side<'_>) -> (Merged, Taken) {
    let mut conflicts = Vec::new();
    let (o, t) = (ours.graph(), theirs.graph());
    let fields = {
        let mut cx = Cx { element: Element::Graph, out: &mut conflicts };
        merge_maps(&mut cx, "", Some(&base.fields), &o.fields, &t.fields)
    };
    let layout = crate::layout::merge(base.layout.as_ref(), o.layout.as_ref(), t.layout.as_ref());
    let body = match (&base.body, &o.body, &t.body) {
        (b, Some(o), Some(t)) => Some(merge_text(b.as_deref().unwrap_or(""), o, t, &mut conflicts)),
        (_, o, _) => o.clone(),
    };
    let (format, key_order) = (o.format, o.key_order.clone());
    let mut taken = Taken::default();
    // Each collection of each side, lent or given.
    macro_rules! elements {
        ($side:expr, $field:ident, $places:expr) => {
            match $side {
                Side::Lent(g) => Elements::Lent(&g.$field),
                Side::Given(g) => Elements::Given(&mut g.$field, &mut $places.$field),
            }
        };
    }
    let channels = merge_keyed(
        &base.channels,
        elements!(&mut ours, channels, taken.ours),
        elements!(&mut theirs, channels, taken.theirs),
        &mut conflicts,
        |name| Element::Channel { name: name.clone() },
    );
    let nodes = merge_keyed(
        &base.nodes,
        elements!(&mut ours, nodes, taken.ours),
        elements!(&mut theirs, nodes, taken.theirs),
        &mut conflicts,
        |id| Element::Node { id: id.clone() },
    );
    let edges = merge_keyed(
        &base.edges,
        elements!(&mut ours, edges, taken.ours),
        elements!(&mut theirs, edges, taken.theirs),
        &mut conflicts,
        |k: &EdgeKey| Element::Edge { from: k.from.clone(), to: k.to.clone(), nth: k.nth },
    );
    let graph = Graph { format, fields, channels, nodes, edges, layout, body, key_order };
    (Merged { graph, conflicts }, taken)
}

/// Channels, nodes or edges: element by element, in OURS' order with THEIRS' additions placed
/// after the element they follow in THEIRS.
fn merge_keyed<K: Hash + Eq + Clone>(
    base: &IndexMap<K, Map<String, Value>>,
    mut ours: Elements<'_, K>,
    mut theirs: Elements<'_, K>,
    conflicts: &mut Vec<Conflict>,
    element: impl Fn(&K) -> Element,
) -> IndexMap<K, Map<String, Value>> {
    /// Where one element's merge comes from.
    enum Pick {
        Ours(usize),
        Theirs(usize),
        Merged(Map<String, Value>),
        Gone,
    }
    let (o_len, t_len) = (ours.map().len(), theirs.map().len());
    let mut out = IndexMap::with_capacity(o_len.max(t_len));
    // The elements' places in base and THEIRS, looked up from where the last one was found
    // (sides of one history keep most elements in the same order): a comparison of keys
    // instead of hashing each key three times.
    let (mut b_hint, mut t_hint) = (0, 0);
    let mut pick =
        |k: &K, oi: Option<usize>, t_at: Option<usize>, ours: &Elements<'_, K>, theirs: &Elements<'_, K>| {
            let bi = find(base, k, b_hint);
            let ti = t_at.or_else(|| find(theirs.map(), k, t_hint));
            if let Some(i) = bi {
                b_hint = i + 1;
            }
            if let Some(i) = ti {
                t_hint = i + 1;
            }
            let b = bi.and_then(|i| base.get_index(i)).map(|(_, v)| v);
            let o = oi.and_then(|i| ours.map().get_index(i)).map(|(_, v)| v);
            let t = ti.and_then(|i| theirs.map().get_index(i)).map(|(_, v)| v);
            // The common case, decided without building values.
            let from_ours = || oi.map_or(Pick::Gone, Pick::Ours);
            if same_opt(o, t) || same_opt(t, b) {
                from_ours()
            } else if same_opt(o, b) {
                ti.map_or(Pick::Gone, Pick::Theirs)
            } else {
                let mut cx = Cx { element: element(k), out: &mut *conflicts };
                let wrap = |m: Option<&Map<String, Value>>| m.map(|m| Value::Object(m.clone()));
                match merge_value(&mut cx, "", wrap(b).as_ref(), wrap(o).as_ref(), wrap(t).as_ref()) {
                    Some(Value::Object(m)) => Pick::Merged(m),
                    _ => Pick::Gone,
                }
            }
        };
    // THEIRS' elements that OURS lacks (added by them, or deleted by us: `pick` sees which),
    // grouped by the place in OURS of the element they follow (None: at the start).
    let mut after: IndexMap<Option<usize>, Vec<usize>> = IndexMap::new();
    let mut anchor: Option<usize> = None;
    let mut o_hint = 0;
    for (ti, k) in theirs.map().keys().enumerate() {
        match find(ours.map(), k, o_hint) {
            Some(oi) => {
                anchor = Some(oi);
                o_hint = oi + 1;
            }
            None => after.entry(anchor).or_default().push(ti),
        }
    }
    // The merge's order: (place in OURS, place in THEIRS) of each element visited.
    let mut order: Vec<(Option<usize>, Option<usize>)> = Vec::with_capacity(o_len + t_len / 8);
    let theirs_after = |a: Option<usize>, order: &mut Vec<_>| {
        if let Some(next) = after.get(&a) {
            order.extend(next.iter().map(|&ti| (None, Some(ti))));
        }
    };
    theirs_after(None, &mut order);
    for oi in 0..o_len {
        order.push((Some(oi), None));
        theirs_after(Some(oi), &mut order);
    }
    for (oi, ti) in order {
        let key = match (oi, ti) {
            (Some(i), _) => ours.map().get_index(i),
            (None, Some(i)) => theirs.map().get_index(i),
            (None, None) => None,
        };
        let Some(k) = key.map(|(k, _)| k.clone()) else { continue };
        let v = match pick(&k, oi, ti, &ours, &theirs) {
            Pick::Ours(i) => ours.take(i),
            Pick::Theirs(i) => theirs.take(i),
            Pick::Merged(m) => Some(m),
            Pick::Gone => None,
        };
        if let Some(v) = v {
            out.insert(k, v);
        }
    }
    out
}

/// `k`'s place in `m`, tried first at `hint`.
fn find<K: Hash + Eq, V>(m: &IndexMap<K, V>, k: &K, hint: usize) -> Option<usize> {
    match m.get_index(hint) {
        Some((x, _)) if x == k => Some(hint),
        _ => m.get_index_of(k),
    }
}

fn same_opt(a: Option<&Map<String, Value>>, b: Option<&Map<String, Value>>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => same_map(a, b),
        (None, None) => true,
        _ => false,
    }
}

/// A line-based three-way merge of texts (diffy). Overlapping edits are conflicts; the result
/// keeps OURS' lines there.
pub fn merge_text(base: &str, ours: &str, theirs: &str, conflicts: &mut Vec<Conflict>) -> String {
    let mut opts = diffy::MergeOptions::new();
    opts.set_conflict_style(diffy::ConflictStyle::Diff3);
    // Markers no Markdown body has, so the conflict regions can be read back unambiguously.
    opts.set_conflict_marker_length(MARKER_LEN);
    match opts.merge(base, ours, theirs) {
        Ok(text) => text,
        Err(marked) => resolve_markers(&marked, conflicts),
    }
}

const MARKER_LEN: usize = 23;

/// Reads diffy's conflict regions: OURS' lines go to the result, each region to a conflict.
fn resolve_markers(marked: &str, conflicts: &mut Vec<Conflict>) -> String {
    let start = "<".repeat(MARKER_LEN);
    let base_m = "|".repeat(MARKER_LEN);
    let mid = "=".repeat(MARKER_LEN);
    let end = ">".repeat(MARKER_LEN);
    #[derive(PartialEq)]
    enum State {
        Out,
        Ours,
        Base,
        Theirs,
    }
    let mut state = State::Out;
    let (mut out, mut o, mut b, mut t) = (String::new(), String::new(), String::new(), String::new());
    let mut line_no = 1usize;
    let mut region_line = 0usize;
    for line in marked.split_inclusive('\n') {
        let bare = line.trim_end_matches(['\n', '\r']);
        match state {
            State::Out if bare.starts_with(&start) => {
                state = State::Ours;
                region_line = line_no;
            }
            State::Ours if bare.starts_with(&base_m) => state = State::Base,
            State::Ours | State::Base if bare == mid => state = State::Theirs,
            State::Theirs if bare.starts_with(&end) => {
                state = State::Out;
                out.push_str(&o);
                conflicts.push(Conflict {
                    element: Element::Body,
                    pointer: format!("/body/line/{region_line}"),
                    reason: Reason::BothChanged,
                    message: format!("the Markdown body was changed on both sides at line {region_line}"),
                    base: Some(Value::String(std::mem::take(&mut b))),
                    ours: Some(Value::String(std::mem::take(&mut o))),
                    theirs: Some(Value::String(std::mem::take(&mut t))),
                });
            }
            State::Out => {
                out.push_str(line);
                line_no += 1;
            }
            State::Ours => {
                o.push_str(line);
                line_no += 1;
            }
            State::Base => b.push_str(line),
            State::Theirs => t.push_str(line),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_merge_takes_both_sides_and_reports_overlaps() {
        let base = "a\nb\nc\nd\ne\n";
        let mut c = Vec::new();
        assert_eq!(merge_text(base, "A\nb\nc\nd\ne\n", "a\nb\nc\nd\nE\n", &mut c), "A\nb\nc\nd\nE\n");
        assert!(c.is_empty());
        let merged = merge_text(base, "a\nX\nc\nd\ne\n", "a\nY\nc\nd\ne\n", &mut c);
        assert_eq!(merged, "a\nX\nc\nd\ne\n");
        assert_eq!(c.len(), 1);
        assert_eq!(c[0].ours, Some(Value::from("X\n")));
        assert_eq!(c[0].theirs, Some(Value::from("Y\n")));
        assert_eq!(c[0].base, Some(Value::from("b\n")));
        assert_eq!(c[0].pointer, "/body/line/2");
    }
}
