//! The canonical text of a GraphSpec: what `JSON.stringify(toSpec(g), null, 2) + "\n"` gives
//! in the reference, with two deliberate differences that keep a document's own bytes: config
//! (and predicate) key order is kept exactly as read, even for integer-like keys that
//! JavaScript would move to the front, and number text is kept as read (`1.50` stays `1.50`; the one normalisation, from serde_json,
//! is an exponent sign: `1e3` is written `1e+3`).
//!
//! Shape: `{name, channels:{<n>:{reducer}}, nodes:[{id,type,config}], edges:[{from,to[,when]}]}`
//! with `reducer` and `config` always written, two-space indent, non-ASCII written as UTF-8,
//! and a final newline.

use crate::config::{newline, write_entries, write_str, Indent};
use crate::model::{EdgeSpec, GraphSpec, NodeSpec};

/// The canonical text of `spec`.
pub fn to_canonical_string(spec: &GraphSpec) -> String {
    to_canonical_string_sized(spec, 0)
}

/// [`to_canonical_string`] into a buffer of `capacity` bytes, for a caller that knows about how
/// long the text will be (the text it was read from). Growing the buffer by doubling would
/// briefly hold the old and the new buffer, about 1.5 times the text, at the peak of memory.
pub fn to_canonical_string_sized(spec: &GraphSpec, capacity: usize) -> String {
    to_canonical_string_in(spec, Vec::with_capacity(room_for(capacity)))
}

/// The capacity a canonical text of about `len` bytes is written into: a little more, so that
/// a document a few bytes longer than the text it was read from does not double the buffer (a
/// copy of the whole text, and twice its memory). Pages of the room not written are never
/// touched.
pub fn room_for(len: usize) -> usize {
    len.saturating_add(len / 16).saturating_add(4096)
}

/// [`to_canonical_string`] written into `buffer` (emptied first): a caller that keeps a buffer
/// from one text to the next, already in memory the kernel has handed out (a save).
pub fn to_canonical_string_in(spec: &GraphSpec, mut buffer: Vec<u8>) -> String {
    buffer.clear();
    write(spec, &mut buffer, &mut |_| true);
    // Every piece written is UTF-8 (Rust strings, and config texts that were `str`s), and a
    // piece is never split.
    String::from_utf8(buffer).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// Whether `text` is exactly the canonical text of `spec`, found without writing that text
/// out: the canonical writer streams into a comparison with `text` and stops at the first byte
/// that differs. `trellis fmt --check` needs only this answer, and on a large document the
/// canonical text would be another copy of the file in memory.
///
/// A document of many nodes is compared in two halves at once, on two threads: from the middle
/// node on (found by its first bytes, [`node_start`]), and what comes before. The answer is the
/// same as one pass: true only when both halves match and meet at that place. When they do not
/// meet (an earlier node has the same id, so the second half was looked for at the wrong
/// place), the second half is compared again from where the first one ended.
pub fn is_canonical(spec: &GraphSpec, text: &str) -> bool {
    let text = text.as_bytes();
    let nodes = &spec.nodes;
    if nodes.len() < PARALLEL_NODES {
        return matches_from(text, 0, |out, flush| write(spec, out, flush)) == Some(text.len());
    }
    let middle = halfway_node(spec);
    let second_half = |out: &mut Vec<u8>, flush: &mut dyn FnMut(&mut Vec<u8>) -> bool| {
        write_nodes(&nodes[middle..], middle, out, flush) && write_edges(spec, out, flush)
    };
    let second = || {
        let at = node_start(text, &nodes[middle])?;
        Some((at, matches_from(text, at, second_half) == Some(text.len())))
    };
    trellis_threads::beside("compare second half", second, |second| {
        let first_end = matches_from(text, 0, |out, flush| {
            write_start(spec, out, flush) && write_nodes(&nodes[..middle], 0, out, flush)
        });
        match (first_end, second.join().flatten()) {
            (None, _) => false,
            (Some(end), Some((at, matched))) if end == at => matched,
            (Some(end), _) => matches_from(text, end, second_half) == Some(text.len()),
        }
    })
}

/// From this many nodes on, [`is_canonical`] compares the two halves of a document at once.
const PARALLEL_NODES: usize = 2_000;

/// The node [`is_canonical`]'s second half starts at: the first one with about half of the
/// canonical text before it, so that both threads compare as much. The second half holds the
/// edges too, which are two fifths of a generated document's text: split at the middle node,
/// it had twice the first half's work. Lengths are estimated from the model (a config's text
/// as kept, without its indentation; fixed sizes for the rest): a poor estimate costs balance,
/// never the answer.
/// A node after the first and no later than the last (the caller has thousands).
fn halfway_node(spec: &GraphSpec) -> usize {
    // What a node and an edge write besides their strings, and a guess at a changed config
    // (it has no text until written) and at a guard.
    const NODE_FRAME: usize = 60;
    const EDGE_FRAME: usize = 50;
    const CONFIG_GUESS: usize = 150;
    const GUARD_GUESS: usize = 80;
    let node_len = |n: &NodeSpec| {
        let config = n.config.raw_text().map_or(CONFIG_GUESS, str::len);
        NODE_FRAME + n.id.len() + n.type_name.as_deref().map_or(0, str::len) + config
    };
    let edge_len = |e: &EdgeSpec| {
        EDGE_FRAME + e.from.len() + e.to.len() + if e.when.is_some() { GUARD_GUESS } else { 0 }
    };
    let total: usize =
        spec.nodes.iter().map(node_len).sum::<usize>() + spec.edges.iter().map(edge_len).sum::<usize>();
    let last = spec.nodes.len().saturating_sub(1);
    let mut before = 0;
    for (i, node) in spec.nodes.iter().enumerate() {
        if before >= total / 2 {
            return i.max(1).min(last);
        }
        before += node_len(node);
    }
    last
}

/// Where `node`'s text starts in the canonical text `text` (at the comma before it), if its
/// first bytes are there: the first place they occur. In canonical text those bytes start a
/// node, since an object four spaces in is a node or an edge (configs are deeper) and strings
/// hold no line break; the first place is the node's unless an earlier node has the same id.
pub(crate) fn node_start(text: &[u8], node: &NodeSpec) -> Option<usize> {
    let mut first_bytes = Vec::with_capacity(node.id.len() + 32);
    first_bytes.extend_from_slice(NODE_SEPARATOR);
    first_bytes.extend_from_slice(NODE_OPENING);
    write_str(&mut first_bytes, &node.id);
    first_bytes.push(b',');
    memchr::memmem::find(text, &first_bytes)
}

/// A string, or `null` for none (a document's name, a node's type).
fn write_str_or_null(out: &mut Vec<u8>, s: Option<&str>) {
    match s {
        Some(s) => write_str(out, s),
        None => out.extend_from_slice(b"null"),
    }
}

/// What comes before every node but the first in canonical text (the first has `[` for the
/// comma), and what opens a node, up to its id ([`write_nodes`]).
pub(crate) const NODE_SEPARATOR: &[u8] = b",\n    ";
pub(crate) const NODE_OPENING: &[u8] = b"{\n      \"id\": ";

fn block_buffer() -> Vec<u8> {
    Vec::with_capacity(COMPARE_BLOCK + 4096)
}

/// Whether `text` from `at` on starts with what `write` writes: the end of that part of `text`
/// when it does (the whole of `text` matches when that is `text.len()`). The writing stops at
/// the first block that differs.
fn matches_from(
    text: &[u8],
    at: usize,
    write: impl FnOnce(&mut Vec<u8>, &mut dyn FnMut(&mut Vec<u8>) -> bool) -> bool,
) -> Option<usize> {
    let mut rest = text.get(at..)?;
    let mut out = block_buffer();
    let matched =
        write(&mut out, &mut |b: &mut Vec<u8>| compare(&mut rest, b)) && compare(&mut rest, &mut out);
    matched.then(|| text.len() - rest.len())
}

/// Whether `rest` starts with `block`; then steps over it and empties `block`.
fn compare(rest: &mut &[u8], block: &mut Vec<u8>) -> bool {
    match rest.strip_prefix(block.as_slice()) {
        Some(r) => {
            *rest = r;
            block.clear();
            true
        }
        None => false,
    }
}

/// How many bytes of canonical text are handed over at once.
const COMPARE_BLOCK: usize = 64 * 1024;

/// Writes the canonical text of `spec` into `out`, handing `out` to `flush` whenever it holds
/// more than [`COMPARE_BLOCK`] bytes and at the end (a flush may empty it). Stops as soon as
/// `flush` answers false, and answers whether it never did.
///
/// The bytes are serde_json's pretty writer's for the model's `Serialize` (the shape in the
/// module's documentation); configs still held as their text are re-indented without building
/// their value ([`crate::config`]).
fn write(spec: &GraphSpec, out: &mut Vec<u8>, flush: &mut dyn FnMut(&mut Vec<u8>) -> bool) -> bool {
    write_start(spec, out, flush) && write_nodes(&spec.nodes, 0, out, flush) && write_edges(spec, out, flush)
}

/// Flushes `out` when it holds a block (see [`write`]); false when the flush said stop.
fn block(out: &mut Vec<u8>, flush: &mut dyn FnMut(&mut Vec<u8>) -> bool) -> bool {
    out.len() < COMPARE_BLOCK || flush(out)
}

/// [`write`] up to the nodes: the name, the channels and the nodes' key.
pub(crate) fn write_start(
    spec: &GraphSpec,
    out: &mut Vec<u8>,
    flush: &mut dyn FnMut(&mut Vec<u8>) -> bool,
) -> bool {
    out.extend_from_slice(b"{\n  \"name\": ");
    write_str_or_null(out, spec.name.as_deref());
    out.extend_from_slice(b",\n  \"channels\": ");
    if spec.channels.is_empty() {
        out.extend_from_slice(b"{}");
    } else {
        out.push(b'{');
        for (k, (name, channel)) in spec.channels.iter().enumerate() {
            if k > 0 {
                out.push(b',');
            }
            newline(out, 2);
            write_str(out, name);
            out.extend_from_slice(b": {\n      \"reducer\": ");
            write_str(out, channel.reducer.as_str());
            out.extend_from_slice(b"\n    }");
            if !block(out, flush) {
                return false;
            }
        }
        out.extend_from_slice(b"\n  }");
    }
    out.extend_from_slice(b",\n  \"nodes\": ");
    true
}

/// The nodes `nodes`, the first of which is the document's node `first` (counted from 0): the
/// array is opened before node 0 and each other node follows a comma (then [`NODE_START`]).
/// The array is closed by [`write_edges`].
fn write_nodes(
    nodes: &[NodeSpec],
    first: usize,
    out: &mut Vec<u8>,
    flush: &mut dyn FnMut(&mut Vec<u8>) -> bool,
) -> bool {
    for (k, node) in nodes.iter().enumerate() {
        write_node(out, first + k, &node.id, node.type_name.as_deref(), |out| {
            node.config.write_canonical(out, 3)
        });
        if !block(out, flush) {
            return false;
        }
    }
    true
}

/// The document's node `index` (counted from 0), with the comma or bracket before it; its
/// config is written by `config` (at depth 3). For [`write_nodes`] and for the check of a text
/// as it is read (`fast_read::canonical`), which has the parts but no node.
pub(crate) fn write_node(
    out: &mut Vec<u8>,
    index: usize,
    id: &str,
    type_name: Option<&str>,
    config: impl FnOnce(&mut Vec<u8>),
) {
    out.push(if index == 0 { b'[' } else { b',' });
    out.extend_from_slice(&NODE_SEPARATOR[1..]);
    out.extend_from_slice(NODE_OPENING);
    write_str(out, id);
    out.extend_from_slice(b",\n      \"type\": ");
    write_str_or_null(out, type_name);
    out.extend_from_slice(b",\n      \"config\": ");
    config(out);
    out.extend_from_slice(b"\n    }");
}

/// [`write`] from the end of the nodes: the nodes' array closed, the edges, the end of the text
/// (flushed).
fn write_edges(spec: &GraphSpec, out: &mut Vec<u8>, flush: &mut dyn FnMut(&mut Vec<u8>) -> bool) -> bool {
    write_nodes_end(out, spec.nodes.len());
    for (k, edge) in spec.edges.iter().enumerate() {
        let when = edge
            .when
            .as_ref()
            .map(|when| |out: &mut Vec<u8>| write_entries(out, when.iter(), Indent::Pretty(3)));
        write_edge(out, k, &edge.from, &edge.to, when);
        if !block(out, flush) {
            return false;
        }
    }
    write_end(out, spec.edges.len());
    flush(out)
}

/// What follows `nodes` nodes: the end of their list and the edges' key.
pub(crate) fn write_nodes_end(out: &mut Vec<u8>, nodes: usize) {
    out.extend_from_slice(if nodes == 0 { b"[]" } else { b"\n  ]" });
    out.extend_from_slice(EDGES_KEY);
}

/// What comes between the nodes' list and the edges' in canonical text: the edges' list starts
/// right after it (`fast_read::edges_ahead` looks for its line, after the comma).
pub(crate) const EDGES_KEY: &[u8] = b",\n  \"edges\": ";

/// The document's edge `index` (counted from 0), with the comma or bracket before it; its
/// condition, if it has one, is written by `when` (at depth 3).
pub(crate) fn write_edge(
    out: &mut Vec<u8>,
    index: usize,
    from: &str,
    to: &str,
    when: Option<impl FnOnce(&mut Vec<u8>)>,
) {
    out.push(if index == 0 { b'[' } else { b',' });
    out.extend_from_slice(b"\n    {\n      \"from\": ");
    write_str(out, from);
    out.extend_from_slice(b",\n      \"to\": ");
    write_str(out, to);
    if let Some(when) = when {
        out.extend_from_slice(b",\n      \"when\": ");
        when(out);
    }
    out.extend_from_slice(b"\n    }");
}

/// What follows `edges` edges: the end of their list and of the text.
pub(crate) fn write_end(out: &mut Vec<u8>, edges: usize) {
    out.extend_from_slice(if edges == 0 { b"[]" } else { b"\n  ]" });
    out.extend_from_slice(b"\n}\n");
}

/// The model's compact JSON text: exactly what `serde_json::to_string(spec)` gives, written
/// without building any config's value (a config read from text is rewritten from it). What the
/// app's document view carries; `capacity`: about how long it will be (the text the document
/// was read from is a bound).
pub fn to_compact_string(spec: &GraphSpec, capacity: usize) -> String {
    let mut out = Vec::with_capacity(capacity);
    write_compact(spec, &mut out);
    // Every piece written is UTF-8 (as in `to_canonical_string_sized`).
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// [`to_compact_string`], appended to `out` (a caller that writes the text into a larger one).
pub fn write_compact(spec: &GraphSpec, out: &mut Vec<u8>) {
    write_compact_head(spec, out);
    out.extend_from_slice(b",\"nodes\":");
    write_compact_nodes(&spec.nodes, out);
    out.extend_from_slice(b",\"edges\":");
    write_compact_edges(&spec.edges, out);
    out.push(b'}');
}

/// The start of [`to_compact_string`] up to the nodes: `{"name":...,"channels":{...}` (the
/// object is left open). With [`write_compact_nodes`] and [`write_compact_edges`], for a caller
/// that hands a large document over in parts.
pub fn write_compact_head(spec: &GraphSpec, out: &mut Vec<u8>) {
    out.extend_from_slice(b"{\"name\":");
    write_str_or_null(out, spec.name.as_deref());
    out.extend_from_slice(b",\"channels\":");
    comma_separated(out, b"{}", &spec.channels, |out, (name, channel)| {
        write_str(out, name);
        out.extend_from_slice(b":{\"reducer\":");
        write_str(out, channel.reducer.as_str());
        out.push(b'}');
    });
}

/// `nodes` as a JSON array, as [`to_compact_string`] writes a document's.
pub fn write_compact_nodes(nodes: &[NodeSpec], out: &mut Vec<u8>) {
    comma_separated(out, b"[]", nodes, |out, node| {
        out.extend_from_slice(b"{\"id\":");
        write_str(out, &node.id);
        out.extend_from_slice(b",\"type\":");
        write_str_or_null(out, node.type_name.as_deref());
        out.extend_from_slice(b",\"config\":");
        node.config.write(out, Indent::Compact);
        out.push(b'}');
    });
}

/// `edges` as a JSON array, as [`to_compact_string`] writes a document's.
pub fn write_compact_edges(edges: &[EdgeSpec], out: &mut Vec<u8>) {
    comma_separated(out, b"[]", edges, |out, edge| {
        out.extend_from_slice(b"{\"from\":");
        write_str(out, &edge.from);
        out.extend_from_slice(b",\"to\":");
        write_str(out, &edge.to);
        if let Some(when) = &edge.when {
            out.extend_from_slice(b",\"when\":");
            write_entries(out, when.iter(), Indent::Compact);
        }
        out.push(b'}');
    });
}

/// `items` written by `one`, separated by commas, between the two `brackets`.
fn comma_separated<T>(
    out: &mut Vec<u8>,
    brackets: &[u8; 2],
    items: impl IntoIterator<Item = T>,
    mut one: impl FnMut(&mut Vec<u8>, T),
) {
    out.push(brackets[0]);
    for (k, item) in items.into_iter().enumerate() {
        if k > 0 {
            out.push(b',');
        }
        one(out, item);
    }
    out.push(brackets[1]);
}

/// The canonical text as serde_json's pretty writer gives it for the model (what the writer
/// above must equal; kept for the tests that say so).
#[cfg(test)]
fn serde_canonical(spec: &GraphSpec) -> String {
    let mut out = serde_json::to_string_pretty(spec).unwrap_or_default();
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::parse_spec;

    #[test]
    fn canonical_text_adds_defaults_and_keeps_text() {
        let text = r#"{"name":"g","channels":{"v":{}},"nodes":[{"id":"a","type":"t","config":{"z":1.50,"a":"çay","1":null}}],"edges":[{"from":"__start__","to":"a","when":{"eq":1e3,"channel":"v"}}]}"#;
        let spec = parse_spec(text).spec.unwrap_or_default();
        let expected = r#"{
  "name": "g",
  "channels": {
    "v": {
      "reducer": "last_write"
    }
  },
  "nodes": [
    {
      "id": "a",
      "type": "t",
      "config": {
        "z": 1.50,
        "a": "çay",
        "1": null
      }
    }
  ],
  "edges": [
    {
      "from": "__start__",
      "to": "a",
      "when": {
        "eq": 1e+3,
        "channel": "v"
      }
    }
  ]
}
"#;
        let got = to_canonical_string(&spec);
        assert_eq!(got, expected);
        let again = parse_spec(&got).spec.unwrap_or_default();
        assert_eq!(to_canonical_string(&again), got);
    }

    #[test]
    fn sized_writer_gives_the_same_text() {
        let text = r#"{"name":"g","channels":{},"nodes":[{"id":"a","type":"t","config":{"z":1.50,"a":"çay"}}],"edges":[]}"#;
        let spec = parse_spec(text).spec.unwrap_or_default();
        for cap in [0, 10, 10_000] {
            assert_eq!(to_canonical_string_sized(&spec, cap), to_canonical_string(&spec));
        }
    }

    #[test]
    fn canonical_check_agrees_with_the_written_text() {
        let text = r#"{"name":"g","channels":{"v":{}},"nodes":[{"id":"a","type":"t","config":{"z":1.50}}],"edges":[]}"#;
        let spec = parse_spec(text).spec.unwrap_or_default();
        let canonical = to_canonical_string(&spec);
        assert!(is_canonical(&spec, &canonical));
        assert!(!is_canonical(&spec, text));
        assert!(!is_canonical(&spec, canonical.trim_end()));
        assert!(!is_canonical(&spec, &format!("{canonical}\n")));
        assert!(!is_canonical(&spec, &canonical.replace("1.50", "1.5")));
        // Longer than one compared block, with a difference in the second block and at the end.
        let big = crate::generate::generate(400, 7);
        let text = to_canonical_string(&big);
        assert!(text.len() > 2 * COMPARE_BLOCK);
        assert!(is_canonical(&big, &text));
        let mut changed = text.clone().into_bytes();
        changed[COMPARE_BLOCK + 10] = b'\t'; // never in canonical text (escaped in strings)
        assert!(!is_canonical(&big, &String::from_utf8_lossy(&changed)));
        assert!(!is_canonical(&big, &text[..text.len() - 2]));
        assert!(!is_canonical(&big, &format!("{text} ")));
    }

    #[test]
    fn canonical_check_in_two_halves_agrees_with_the_written_text() {
        let big = crate::generate::generate(4_000, 3);
        assert!(big.nodes.len() >= PARALLEL_NODES);
        let text = to_canonical_string(&big);
        assert!(is_canonical(&big, &text));
        let middle = halfway_node(&big);
        let at = node_start(text.as_bytes(), &big.nodes[middle]).unwrap_or_default();
        assert!(at > 0 && text[at..].starts_with(",\n    {"), "{}", &text[at..at + 40]);
        // The halves hold about as much text each, edges and all.
        let share = at as f64 / text.len() as f64;
        assert!((0.4..0.6).contains(&share), "{share}: node {middle} of {}", big.nodes.len());
        // A byte changed before, at and after the place the halves meet; the text cut there.
        for i in [10, at - 1, at, at + 1, at + NODE_SEPARATOR.len() + NODE_OPENING.len(), text.len() - 3] {
            let mut changed = text.clone().into_bytes();
            changed[i] = b'\t';
            assert!(!is_canonical(&big, &String::from_utf8_lossy(&changed)), "changed at {i}");
        }
        assert!(!is_canonical(&big, &text[..at]));
        assert!(!is_canonical(&big, &text[at..]));
        // The halves apart, or the middle node's first bytes also earlier in the text.
        assert!(!is_canonical(&big, &format!("{} {}", &text[..at], &text[at..])));
        let early = format!("{}{}", &text[at..at + 60], &text[..]);
        assert!(!is_canonical(&big, &early));

        // An earlier node with the middle node's id: its text is where the second half is looked
        // for first; the answer is still the one of a single pass.
        let mut twins = big.clone();
        twins.nodes[3].id = twins.nodes[middle].id.clone();
        assert_eq!(halfway_node(&twins), middle);
        let text = to_canonical_string(&twins);
        let found = node_start(text.as_bytes(), &twins.nodes[middle]).unwrap_or_default();
        assert!(found < text.len() / 4, "the earlier twin is found first");
        assert!(is_canonical(&twins, &text));
        assert!(!is_canonical(&twins, &text.replacen("\n  ]", "\n ]", 1)));
        let mut last_changed = text.into_bytes();
        let n = last_changed.len();
        last_changed[n - 5] = b'\t';
        assert!(!is_canonical(&twins, &String::from_utf8_lossy(&last_changed)));
    }

    #[test]
    fn the_writer_is_serde_jsons_pretty_text() {
        let texts = [
            r#"{"name":"g","channels":{"v":{},"w":{"reducer":"nope"}},"nodes":[{"id":"a","type":"t","config":{"z":1.50,"a":"çay\u0007\/","1":null,"e":1E3,"d":[[],{},[1,{"x":-2e-3}]]}},{"id":"b","config":null},{"id":"c\n","type":"t"}],"edges":[{"from":"__start__","to":"a","when":{"eq":1e3,"channel":"v","in":[{"a":[]}]}},{"from":"a","to":"__end__"}]}"#,
            r#"{"name":null}"#,
            r#"{"nodes":[{"id":"a","type":"t","config":{}}],"edges":[]}"#,
        ];
        for text in texts {
            let spec = parse_spec(text).spec.unwrap_or_default();
            assert!(
                spec.nodes.iter().any(|n| n.config.raw_text().is_some()) || spec.nodes.len() < 2,
                "{text}"
            );
            assert_eq!(to_canonical_string(&spec), serde_canonical(&spec), "{text}");
            // The same document with every config changed (written from its map).
            let mut changed = spec.clone();
            for n in &mut changed.nodes {
                n.config.insert("added".into(), serde_json::Value::from(1));
            }
            assert_eq!(to_canonical_string(&changed), serde_canonical(&changed), "{text}");
        }
        let big = crate::generate::generate(300, 3);
        let text = serde_canonical(&big);
        let read = parse_spec(&text).spec.unwrap_or_default();
        assert_eq!(to_canonical_string(&read), text);
        assert!(is_canonical(&read, &text));
    }

    #[test]
    fn the_compact_writer_is_serde_jsons_compact_text() {
        let texts = [
            r#"{"name":"g","channels":{"v":{},"w":{"reducer":"nope"}},"nodes":[{"id":"a","type":"t","config":{"z":1.50,"a":"çay\u0007\/","1":null,"e":1E3,"d":[[],{},[1,{"x":-2e-3}]]}},{"id":"b","config":null},{"id":"c\n","type":"t"}],"edges":[{"from":"__start__","to":"a","when":{"eq":1e3,"channel":"v","in":[{"a":[]}]}},{"from":"a","to":"__end__"}]}"#,
            r#"{"name":null}"#,
            "{\n \"nodes\" : [ {\"id\":\"a\", \"type\":\"t\",\"config\": { \"k\" : [ 1 , 2 ] } } ] }",
        ];
        for text in texts {
            let spec = parse_spec(text).spec.unwrap_or_default();
            let serde = serde_json::to_string(&spec).unwrap_or_default();
            assert_eq!(to_compact_string(&spec, 0), serde, "{text}");
            let mut changed = spec.clone();
            for n in &mut changed.nodes {
                n.config.insert("added".into(), serde_json::Value::from(1));
            }
            assert_eq!(to_compact_string(&changed, 10), serde_json::to_string(&changed).unwrap_or_default());
        }
        let big = crate::generate::generate(300, 5);
        let read = parse_spec(&to_canonical_string(&big)).spec.unwrap_or_default();
        assert_eq!(to_compact_string(&read, 0), serde_json::to_string(&read).unwrap_or_default());
        assert_eq!(
            to_compact_string(&GraphSpec::default(), 0),
            r#"{"name":null,"channels":{},"nodes":[],"edges":[]}"#
        );
    }

    #[test]
    fn empty_document_has_every_key() {
        let got = to_canonical_string(&GraphSpec::default());
        assert_eq!(got, "{\n  \"name\": null,\n  \"channels\": {},\n  \"nodes\": [],\n  \"edges\": []\n}\n");
    }
}
